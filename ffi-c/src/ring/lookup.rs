//! Looking up one key: its server's label, or its server's index for bindings that pay for
//! every argument.

use core::ffi::c_char;

use super::handle::{ketama_ring, Handle};
use crate::boundary::{ffi_boundary, try_bytes, try_c_bytes, try_handle, try_out, FfiResult};
use crate::status::ketama_status;

/// The server a key goes to.
///
/// `key`: any bytes, `key_len` long (NULL allowed when 0). On success `*label_out` points to
/// the server's label (NUL-terminated for convenience) and `*label_len_out` holds its length
/// without the NUL. The label stays valid until the ring is freed. Errors:
/// `KETAMA_STATUS_EMPTY_RING`, `KETAMA_STATUS_NO_SERVER`, `KETAMA_STATUS_KEY_REJECTED`.
///
/// # Safety
/// `ring` is a live ring; `key` points to `key_len` bytes; the outputs are writable.
#[no_mangle]
pub unsafe extern "C" fn ketama_ring_lookup(
    ring: *const ketama_ring,
    key: *const c_char,
    key_len: usize,
    label_out: *mut *const c_char,
    label_len_out: *mut usize,
) -> ketama_status {
    ffi_boundary! {
        let handle = try_handle!(Handle, ring)?;
        let (label_out, label_len_out) = (try_out!(label_out)?, try_out!(label_len_out)?);
        let key = try_bytes!(key, key_len)?;
        let state = handle.read();
        let (p, l) = state.extra.label(state.ring.locate_index(key)?)?;
        *label_out = p;
        *label_len_out = l;
        Ok(())
    }
}

/// The index of the server a key goes to (0-based, in the order servers were added; see
/// `ketama_ring_server()`), or a failure as a negative status: `-KETAMA_STATUS_EMPTY_RING`,
/// `-KETAMA_STATUS_NO_SERVER`, `-KETAMA_STATUS_KEY_REJECTED`, `-KETAMA_STATUS_NULL_ARGUMENT`
/// (`ring` NULL, or `key` NULL with `key_len` > 0), ... (`ketama_status_str(-result)` names
/// it).
///
/// The same answer as `ketama_ring_lookup()` without output pointers: the fast path for
/// bindings that pay for every argument and every out-parameter (PHP FFI keeps the labels on
/// its side and indexes them). An index stays meaningful until the next change of the ring;
/// a program that changes the ring from other threads should use `ketama_ring_lookup()`,
/// whose label pointers stay valid.
///
/// # Safety
/// `ring` is NULL or a live ring; `key` points to `key_len` bytes (NULL allowed when 0).
#[no_mangle]
pub unsafe extern "C" fn ketama_ring_lookup_index(
    ring: *const ketama_ring,
    key: *const c_char,
    key_len: usize,
) -> i64 {
    ffi_boundary!(-(ketama_status::Panic as i64) => {
        let run = || -> FfiResult<i64> {
            let handle = try_handle!(Handle, ring)?;
            let key = try_bytes!(key, key_len)?;
            let i = handle.read().ring.locate_index(key)?;
            i64::try_from(i).map_err(|_| ketama_status::Internal)
        };
        match run() {
            Ok(i) => i,
            Err(status) => -(status as i64),
        }
    })
}

/// The server of a NUL-terminated key and the key's length, in one integer: on success
/// `(strlen(key) << 32) | index` (the index as `ketama_ring_lookup_index()` gives it, in the
/// low 32 bits; the key's length in bytes up to its NUL, in the high half), on failure minus
/// a status as `ketama_ring_lookup_index()` returns it: `-KETAMA_STATUS_EMPTY_RING`,
/// `-KETAMA_STATUS_NO_SERVER`, `-KETAMA_STATUS_KEY_REJECTED`,
/// `-KETAMA_STATUS_NULL_ARGUMENT` (`ring` or `key` NULL), and
/// `-KETAMA_STATUS_INDEX_OUT_OF_RANGE` for a key of 2^31 bytes or more (its length does not
/// fit the answer: ask `ketama_ring_lookup_index()`).
///
/// Two arguments instead of three, for bindings that pay for each one (PHP FFI: about 30 ns
/// an argument, more than the rest of this call above the lookup). A binding whose strings
/// may hold NUL bytes and always end with one (PHP's do) passes its string as is and checks
/// the high half against the length it knows, `answer ^ (len << 32)`: that is the index when
/// the whole key was looked up, and no index (negative or at least 2^32) when a NUL byte cut
/// it short or the call failed; then it asks `ketama_ring_lookup_index()` with the length.
///
/// # Safety
/// `ring` is NULL or a live ring; `key` is NULL or a NUL-terminated string.
#[no_mangle]
pub unsafe extern "C" fn ketama_ring_lookup_str(
    ring: *const ketama_ring,
    key: *const c_char,
) -> i64 {
    ffi_boundary!(-(ketama_status::Panic as i64) => {
        let run = || -> FfiResult<i64> {
            let handle = try_handle!(Handle, ring)?;
            let key = try_c_bytes!(key)?;
            let len = i64::try_from(key.len())
                .ok()
                .filter(|&l| l < 1 << 31)
                .ok_or(ketama_status::IndexOutOfRange)?;
            let i = handle.read().ring.locate_index(key)?;
            let i = u32::try_from(i).map_err(|_| ketama_status::Internal)?;
            Ok(len << 32 | i64::from(i))
        };
        match run() {
            Ok(i) => i,
            Err(status) => -(status as i64),
        }
    })
}
