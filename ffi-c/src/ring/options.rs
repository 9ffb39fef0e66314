//! Placement options: a hash tag's delimiters (twemproxy, Jedis), libmemcached's key prefix.

use core::ffi::c_char;

use ketama_core::Options;

use super::handle::{ketama_ring, Handle};
use crate::boundary::{ffi_boundary, try_bytes, try_handle, FfiResult};
use crate::status::ketama_status;

/// `(ptr, len)` (an argument of `ketama_ring_set_options`) as an option's bytes: NULL means
/// the option is not set; a non-NULL pointer with `len` 0 is the empty value.
fn value<'a>(ptr: *const c_char, len: usize) -> FfiResult<Option<&'a [u8]>> {
    if ptr.is_null() {
        return Ok(None);
    }
    let v = try_bytes!(ptr, len).map_err(|_| ketama_status::BadOption)?;
    Ok(Some(v))
}

/// Sets the ring's placement options, replacing any set before (they change which bytes of
/// a key are hashed, never the servers' points):
/// - `hash_tag` (`hash_tag_len` bytes, exactly 2; NULL: none): a hash tag's delimiters, only
///   the tag between them being hashed, found by the client's own rule: twemproxy's
///   `hash_tag` and the Jedis profiles' key-tag pattern (`{}` being Jedis's default). The
///   Redis clients whose tag rule is always on (Predis, phpredis, redis-rb, go-redis,
///   redis-shard) hash `{tag}` without it and refuse it; docs/compat.md lists each
///   profile's rule;
/// - `prefix_key` (`prefix_key_len` bytes, at most 127, no NUL; NULL or empty: none):
///   php-memcached's `OPT_PREFIX_KEY`, and `hash_with_prefix` (non-zero) its
///   `OPT_HASH_WITH_PREFIX_KEY`, only on the libmemcached profiles (`libmemcached`,
///   `libmemcached-weighted` = `php-memcached`, `libmemcached-spy`,
///   `libmemcached-spy-weighted`, `modula`).
///
/// `KETAMA_STATUS_BAD_OPTION` when the profile's client lacks an option or refuses its value;
/// the ring is then unchanged. Lookups running meanwhile see the old options or the new ones.
///
/// # Safety
/// `ring` is a live ring; a non-NULL `hash_tag` / `prefix_key` points to that many readable
/// bytes.
#[no_mangle]
pub unsafe extern "C" fn ketama_ring_set_options(
    ring: *mut ketama_ring,
    hash_tag: *const c_char,
    hash_tag_len: usize,
    prefix_key: *const c_char,
    prefix_key_len: usize,
    hash_with_prefix: i32,
) -> ketama_status {
    ffi_boundary! {
        let handle = try_handle!(Handle, ring)?;
        let mut options = Options::new();
        if let Some(tag) = value(hash_tag, hash_tag_len)? {
            options = options.with_hash_tag(tag)?;
        }
        if let Some(prefix) = value(prefix_key, prefix_key_len)? {
            options = options.with_prefix_key(prefix)?;
        }
        let options = options.with_hash_with_prefix(hash_with_prefix != 0);
        Ok(handle.change(|ring, _| ring.clone().with_options(options))?)
    }
}
