//! Exports that need no ring: the profile list, named hashes, the library version (and the
//! test hook that checks panics stay inside the C boundary).

use core::ffi::c_char;
#[cfg(feature = "test-panic")]
use core::ffi::c_int;

use ketama_core::{Hash, Profile};

use crate::boundary::{ffi_boundary, try_bytes, try_c_text, try_out, try_text};
use crate::status::ketama_status;

/// The name of profile number `index` (0-based, in documentation order; aliases are not
/// listed), static and NUL-terminated, or NULL past the last profile: a C program can list
/// every profile the library knows (`for (i = 0; ketama_profile_name(i); i++)`).
#[no_mangle]
pub extern "C" fn ketama_profile_name(index: usize) -> *const c_char {
    static NAMES: std::sync::OnceLock<Vec<std::ffi::CString>> = std::sync::OnceLock::new();
    let names = NAMES.get_or_init(|| {
        Profile::all()
            .iter()
            .filter_map(|p| std::ffi::CString::new(p.name).ok())
            .collect()
    });
    names.get(index).map_or(core::ptr::null(), |n| n.as_ptr())
}

/// Hashes `key` with a named hash function, as the libraries do (no profile involved).
///
/// `algorithm`: our snake_case names (C/libhashkit flavour: `md5`, `one_at_a_time`, `crc`,
/// `crc32a`, `fnv1a_32`, `murmur`, ...) or a client's own enum name (`KETAMA_HASH`,
/// `FNV1A_32_HASH` = Java flavour), NUL-terminated. Bare `crc32` is ambiguous and gives
/// `KETAMA_STATUS_AMBIGUOUS_HASH`. `ketama_hash_len()` is the same with a `(ptr, len)` name.
///
/// # Safety
/// `algorithm` is NUL-terminated; `key` points to `len` bytes; `out` is writable.
#[no_mangle]
pub unsafe extern "C" fn ketama_hash(
    algorithm: *const c_char,
    key: *const c_char,
    len: usize,
    hash_out: *mut u32,
) -> ketama_status {
    ffi_boundary! {
        let hash_out = try_out!(hash_out)?;
        let h = Hash::from_name(try_c_text!(algorithm)?)?;
        *hash_out = h.hash(try_bytes!(key, len)?);
        Ok(())
    }
}

/// `ketama_hash()` with the algorithm's name as a `(ptr, len)` string (`algorithm_len`
/// bytes), like every other string of the API.
///
/// # Safety
/// `algorithm` points to `algorithm_len` bytes; `key` points to `len` bytes; `out` is
/// writable.
#[no_mangle]
pub unsafe extern "C" fn ketama_hash_len(
    algorithm: *const c_char,
    algorithm_len: usize,
    key: *const c_char,
    len: usize,
    hash_out: *mut u32,
) -> ketama_status {
    ffi_boundary! {
        let hash_out = try_out!(hash_out)?;
        if algorithm.is_null() {
            return Err(ketama_status::NullArgument);
        }
        let h = Hash::from_name(try_text!(algorithm, algorithm_len)?)?;
        *hash_out = h.hash(try_bytes!(key, len)?);
        Ok(())
    }
}

/// The library version (`"MAJOR.MINOR.PATCH"`), static and NUL-terminated. Equals the header's
/// `KETAMA_VERSION`.
#[no_mangle]
pub extern "C" fn ketama_version() -> *const c_char {
    concat!(env!("CARGO_PKG_VERSION"), "\0").as_ptr().cast()
}

/// Test support, not part of the API (absent from the headers and from builds without the
/// `test-panic` feature): panics inside the C boundary so tests can check that the panic
/// becomes `KETAMA_STATUS_PANIC`. Returns `KETAMA_STATUS_OK` when `really` is 0.
#[cfg(feature = "test-panic")]
#[doc(hidden)]
#[no_mangle]
pub extern "C" fn ketama_test_force_panic(really: c_int) -> ketama_status {
    ffi_boundary! {
        if really != 0 {
            panic!("ketama_test_force_panic: panic forced by a test");
        }
        Ok(())
    }
}
