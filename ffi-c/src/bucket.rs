//! `ketama_bucket()`: the bucket functions of `ketama_core::alt::bucket` (jump, guava,
//! jumpback, fliphash, maglev-go, mpchash-go) for C.

use core::ffi::c_char;

use ketama_core::alt::bucket::{bucket, Bucket};

use crate::boundary::{ffi_boundary, try_out, try_text};
use crate::status::ketama_status;

/// Writes to `*bucket_out` the bucket (0 .. `buckets` - 1) of `input` under the bucket
/// function named by `(algorithm, algorithm_len)`: `jump` (Lamping & Veach), `guava` (Guava's
/// `Hashing.consistentHash`), `jumpback` (hash4j's JumpBackHash), `fliphash` (DataDog's
/// `fliphash_64`), `maglev-go` (dgryski/go-maglev) or `mpchash-go` (dgryski/go-mpchash).
///
/// Returns `KETAMA_STATUS_UNKNOWN_ALGORITHM` for an unknown algorithm name,
/// `KETAMA_STATUS_ZERO_BUCKETS` when `buckets` is 0, `KETAMA_STATUS_TOO_MANY_BUCKETS` when
/// `buckets` is above the algorithm's limit (2147483647; `maglev-go` 65537, `mpchash-go` 65536),
/// `KETAMA_STATUS_INVALID_UTF8`, `KETAMA_STATUS_NULL_ARGUMENT`. `maglev-go` and `mpchash-go`
/// build their table on every call (about a millisecond at 65537 buckets).
///
/// # Safety
/// `algorithm` points to `algorithm_len` readable bytes; `bucket_out` is valid for one write.
#[no_mangle]
pub unsafe extern "C" fn ketama_bucket(
    algorithm: *const c_char,
    algorithm_len: usize,
    input: u64,
    buckets: u32,
    bucket_out: *mut u32,
) -> ketama_status {
    ffi_boundary! {
        let bucket_out = try_out!(bucket_out)?;
        let name = try_text!(algorithm, algorithm_len)?;
        let algorithm = Bucket::from_name(name)?;
        *bucket_out = bucket(algorithm, input, buckets)?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn guava_example_and_errors() {
        let mut b = 0u32;
        let call = |name: &str, input, n, b: &mut u32| {
            // SAFETY: a live string and a live output.
            unsafe { ketama_bucket(name.as_ptr().cast(), name.len(), input, n, b) }
        };
        assert_eq!(
            call("guava", 2_687_259_751_451_158_933, 807, &mut b),
            ketama_status::Ok
        );
        assert_eq!(b, 195);
        b = 7;
        assert_eq!(call("nope", 1, 3, &mut b), ketama_status::UnknownAlgorithm);
        assert_eq!(call("jump", 1, 0, &mut b), ketama_status::ZeroBuckets);
        assert_eq!(
            call("maglev-go", 1, 65_538, &mut b),
            ketama_status::TooManyBuckets
        );
        assert_eq!(b, 7, "nothing written on failure");
        // SAFETY: NULL output is checked.
        let s = unsafe { ketama_bucket(c"jump".as_ptr(), 4, 1, 3, core::ptr::null_mut()) };
        assert_eq!(s, ketama_status::NullArgument);
    }
}
