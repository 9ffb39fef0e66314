//! Walking a ring: several servers for one key or for a caller's key hash, and the client's
//! own failover sequence.

use core::ffi::c_char;

use super::handle::{ketama_ring, Handle};
use crate::boundary::{
    ffi_boundary, try_bytes, try_handle, try_out, try_slice, try_slice_mut, FfiResult,
};
use crate::status::ketama_status;

/// Where a key hash computed by the caller goes (for a ring from
/// `ketama_ring_create_points()` whose client hashes keys with a function of its own): up to
/// `n` distinct servers, primary first, by the ring's search and tie rules, walking on in
/// ring order. `servers_out[i]` receives server indexes (see `ketama_ring_server()`);
/// `*count_out` how many were written. Works on any ring with a 32-bit continuum (the hash
/// is compared as its points are). Errors: `KETAMA_STATUS_EMPTY_RING`,
/// `KETAMA_STATUS_NO_SERVER`, `KETAMA_STATUS_NEEDS_KEY` (uhashring's 128-bit ring, mcrouter,
/// hash rendezvous).
///
/// # Safety
/// `ring` is a live ring; `servers_out` holds `n` elements; `count_out` is writable.
#[no_mangle]
pub unsafe extern "C" fn ketama_ring_lookup_hash(
    ring: *const ketama_ring,
    hash: u32,
    n: usize,
    servers_out: *mut u32,
    count_out: *mut usize,
) -> ketama_status {
    ffi_boundary! {
        let handle = try_handle!(Handle, ring)?;
        let count_out = try_out!(count_out)?;
        let servers_out = try_slice_mut!(servers_out, n)?;
        let mut idx = Vec::new();
        handle.read().ring.locate_n_hash(hash, n, &mut idx)?;
        for (slot, &i) in servers_out.iter_mut().zip(&idx) {
            *slot = u32::try_from(i).map_err(|_| ketama_status::Internal)?;
        }
        *count_out = idx.len().min(n);
        Ok(())
    }
}

/// Up to `n` distinct servers for a key, primary first, in the order the client's structure
/// yields them (ring order for continua). `labels_out` / `label_lens_out` have room for `n`;
/// `*count_out` receives how many were written (fewer than `n` when the ring has fewer
/// servers).
///
/// # Safety
/// `ring` is a live ring; `key` points to `key_len` bytes; the arrays hold `n` elements.
#[no_mangle]
pub unsafe extern "C" fn ketama_ring_lookup_n(
    ring: *const ketama_ring,
    key: *const c_char,
    key_len: usize,
    n: usize,
    labels_out: *mut *const c_char,
    label_lens_out: *mut usize,
    count_out: *mut usize,
) -> ketama_status {
    write_walk(
        ring,
        key,
        key_len,
        n,
        labels_out,
        label_lens_out,
        count_out,
        Walk::Distinct,
    )
}

/// The client's own failover sequence for a key, primary first, `n` entries at most: for
/// spymemcached and xmemcached their rehash walks (servers may repeat; xmemcached stops after
/// as many rehashes as servers), for every other profile the same as `ketama_ring_lookup_n()`.
/// `labels_out` / `label_lens_out` have room for `n`; `*count_out` receives how many were
/// written.
///
/// # Safety
/// `ring` is a live ring; `key` points to `key_len` bytes; the arrays hold `n` elements.
#[no_mangle]
pub unsafe extern "C" fn ketama_ring_failover(
    ring: *const ketama_ring,
    key: *const c_char,
    key_len: usize,
    n: usize,
    labels_out: *mut *const c_char,
    label_lens_out: *mut usize,
    count_out: *mut usize,
) -> ketama_status {
    write_walk(
        ring,
        key,
        key_len,
        n,
        labels_out,
        label_lens_out,
        count_out,
        Walk::Failover,
    )
}

/// The server a key goes to while the servers at the indexes `dead[0..n_dead]` are down (see
/// `ketama_ring_server()` for indexes), as the profile's client fails over: the first server
/// of its failover sequence (`ketama_ring_failover()`), within as many tries as the client
/// makes, that is not dead. dalli, pecl memcache and python-memcached rehash a bounded number
/// of times, emcache and EVCache keep the dead server, the others walk on to the next
/// servers. On success `*label_out` / `*label_len_out` receive the label as
/// `ketama_ring_lookup()` gives it. `KETAMA_STATUS_NO_SERVER`: the client gives up (every
/// server it would try is dead); `KETAMA_STATUS_INDEX_OUT_OF_RANGE`: an index in `dead` is
/// not a server of the ring; and the errors of `ketama_ring_lookup()`. With `n_dead` = 0
/// (`dead` may then be NULL) this is `ketama_ring_lookup()`.
///
/// # Safety
/// `ring` is a live ring; `key` points to `key_len` bytes; `dead` holds `n_dead` elements;
/// the outputs are writable.
#[no_mangle]
pub unsafe extern "C" fn ketama_ring_lookup_alive(
    ring: *const ketama_ring,
    key: *const c_char,
    key_len: usize,
    dead: *const u32,
    n_dead: usize,
    label_out: *mut *const c_char,
    label_len_out: *mut usize,
) -> ketama_status {
    ffi_boundary! {
        let handle = try_handle!(Handle, ring)?;
        let (label_out, label_len_out) = (try_out!(label_out)?, try_out!(label_len_out)?);
        let key = try_bytes!(key, key_len)?;
        let dead = try_slice!(dead, n_dead)?;
        let state = handle.read();
        let dead = dead
            .iter()
            .map(|&i| usize::try_from(i).ok().filter(|&i| i < state.ring.len()))
            .collect::<Option<Vec<usize>>>()
            .ok_or(ketama_status::IndexOutOfRange)?;
        let (p, l) = state.extra.label(state.ring.locate_alive(key, &dead)?)?;
        *label_out = p;
        *label_len_out = l;
        Ok(())
    }
}

/// Which sequence of servers [`write_walk`] reports.
enum Walk {
    /// `Ring::locate_n`: distinct servers in ring order.
    Distinct,
    /// `Ring::failover`: the client's own failover sequence.
    Failover,
}

/// The shared body of `ketama_ring_lookup_n` and `ketama_ring_failover` (their arguments).
#[allow(clippy::too_many_arguments)]
fn write_walk(
    ring: *const ketama_ring,
    key: *const c_char,
    key_len: usize,
    n: usize,
    labels_out: *mut *const c_char,
    label_lens_out: *mut usize,
    count_out: *mut usize,
    walk: Walk,
) -> ketama_status {
    ffi_boundary! {
        let handle = try_handle!(Handle, ring)?;
        let count_out = try_out!(count_out)?;
        let (labels_out, label_lens_out) =
            (try_slice_mut!(labels_out, n)?, try_slice_mut!(label_lens_out, n)?);
        let key = try_bytes!(key, key_len)?;
        let state = handle.read();
        let idx = match walk {
            Walk::Distinct => {
                let mut idx = Vec::new();
                state.ring.locate_n_into(key, n, &mut idx)?;
                idx
            }
            Walk::Failover => state.ring.failover(key, n)?,
        };
        let found = idx.iter().map(|&i| state.extra.label(i)).collect::<FfiResult<Vec<_>>>()?;
        for (i, (p, l)) in found.iter().enumerate().take(n) {
            labels_out[i] = *p;
            label_lens_out[i] = *l;
        }
        *count_out = found.len().min(n);
        Ok(())
    }
}
