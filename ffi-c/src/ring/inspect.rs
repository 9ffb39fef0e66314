//! Inspecting a ring: the key hash it uses, its servers and its points.

use core::ffi::c_char;

use super::handle::{ketama_ring, Handle};
use crate::boundary::{ffi_boundary, try_bytes, try_handle, try_opt_out, try_out, try_slice_mut};
use crate::status::ketama_status;

/// The ring's key hash of `key` (after the client's own key rewriting), as the lookup uses it.
///
/// # Safety
/// `ring` is a live ring; `key` points to `key_len` bytes; `hash_out` is writable.
#[no_mangle]
pub unsafe extern "C" fn ketama_ring_key_hash(
    ring: *const ketama_ring,
    key: *const c_char,
    key_len: usize,
    hash_out: *mut u32,
) -> ketama_status {
    ffi_boundary! {
        let handle = try_handle!(Handle, ring)?;
        let hash_out = try_out!(hash_out)?;
        let key = try_bytes!(key, key_len)?;
        *hash_out = handle.read().ring.key_hash(key)?;
        Ok(())
    }
}

/// Number of servers on the ring.
///
/// # Safety
/// `ring` is a live ring; `count_out` is writable.
#[no_mangle]
pub unsafe extern "C" fn ketama_ring_server_count(
    ring: *const ketama_ring,
    count_out: *mut usize,
) -> ketama_status {
    ffi_boundary! {
        let handle = try_handle!(Handle, ring)?;
        let count_out = try_out!(count_out)?;
        *count_out = handle.read().ring.len();
        Ok(())
    }
}

/// The server at `index` (0-based, in the order servers were added): its label (valid until
/// the ring is freed) and, when `weight_out` is not NULL, its weight.
///
/// # Safety
/// `ring` is a live ring; the outputs are writable (`weight_out` may be NULL).
#[no_mangle]
pub unsafe extern "C" fn ketama_ring_server(
    ring: *const ketama_ring,
    index: usize,
    label_out: *mut *const c_char,
    label_len_out: *mut usize,
    weight_out: *mut u32,
) -> ketama_status {
    ffi_boundary! {
        let handle = try_handle!(Handle, ring)?;
        let (label_out, label_len_out) = (try_out!(label_out)?, try_out!(label_len_out)?);
        let state = handle.read();
        let server = state.ring.server(index).ok_or(ketama_status::IndexOutOfRange)?;
        let (p, l) = state.extra.label(index)?;
        *label_out = p;
        *label_len_out = l;
        if let Some(w) = try_opt_out!(weight_out) {
            *w = server.weight;
        }
        Ok(())
    }
}

/// Number of points on the continuum (0 for profiles that are not rings: modulo, jump, ...).
///
/// # Safety
/// `ring` is a live ring; `count_out` is writable.
#[no_mangle]
pub unsafe extern "C" fn ketama_ring_point_count(
    ring: *const ketama_ring,
    count_out: *mut usize,
) -> ketama_status {
    ffi_boundary! {
        let handle = try_handle!(Handle, ring)?;
        let count_out = try_out!(count_out)?;
        *count_out = handle.read().ring.point_count();
        Ok(())
    }
}

/// Copies the continuum, ascending: `positions_out[i]` the point, `servers_out[i]` the index
/// of the server owning it (see `ketama_ring_server()`; may be NULL). Writes
/// `min(capacity, points)` entries and their number to `*count_out`; among equal positions the
/// winning server comes first.
///
/// # Safety
/// `ring` is a live ring; the arrays hold `capacity` elements; `count_out` is writable.
#[no_mangle]
pub unsafe extern "C" fn ketama_ring_points(
    ring: *const ketama_ring,
    positions_out: *mut u32,
    servers_out: *mut u32,
    capacity: usize,
    count_out: *mut usize,
) -> ketama_status {
    ffi_boundary! {
        let handle = try_handle!(Handle, ring)?;
        let count_out = try_out!(count_out)?;
        let positions = try_slice_mut!(positions_out, capacity)?;
        let servers = if servers_out.is_null() {
            None
        } else {
            Some(try_slice_mut!(servers_out, capacity)?)
        };
        let state = handle.read();
        let mut written = 0;
        let mut servers = servers;
        for (i, (pos, owner)) in state.ring.points().take(capacity).enumerate() {
            positions[i] = pos;
            if let Some(s) = servers.as_deref_mut() {
                // Server indexes fit 32 bits: a ring holds at most 2^23 points and as many
                // servers as fit memory (u32 like `ketama_ring_lookup_packed`).
                s[i] = u32::try_from(owner).map_err(|_| ketama_status::Internal)?;
            }
            written += 1;
        }
        *count_out = written;
        Ok(())
    }
}
