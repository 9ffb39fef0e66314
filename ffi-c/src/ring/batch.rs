//! Looking up many keys in one call: pointer arrays, a packed buffer, or keys joined by a
//! separator byte.

use core::ffi::c_char;

use ketama_core::{Error, Snapshot};

use super::handle::{ketama_ring, Handle, Labels};
use crate::boundary::{
    ffi_boundary, try_bytes, try_handle, try_out, try_slice, try_slice_mut, FfiResult,
};
use crate::status::ketama_status;

/// Where each key of a batch goes, against one snapshot (MD5-keyed profiles hash the keys
/// several at a time in SIMD lanes), with per-key refusals as `None`; any other error (an
/// empty ring) fails the batch.
pub(super) fn locate_all<'k>(
    state: &Snapshot<Labels>,
    keys: impl IntoIterator<Item = &'k [u8]>,
    count: usize,
) -> FfiResult<Vec<Option<usize>>> {
    let mut found = vec![None; count];
    let mut failed = None;
    state.ring.locate_batch(keys, |n, r| match r {
        Ok(i) => {
            if let Some(slot) = found.get_mut(n) {
                *slot = Some(i);
            }
        }
        Err(Error::NoServer | Error::KeyRejected) => {}
        Err(e) => {
            failed.get_or_insert(e);
        }
    });
    match failed {
        Some(e) => Err(e.into()),
        None => Ok(found),
    }
}

/// Looks up `count` keys under one lock.
///
/// `keys[i]` / `key_lens[i]`: the keys. `labels_out` / `label_lens_out`: arrays of `count`
/// elements. A key the client refuses or that no server owns gets a NULL label and length 0
/// (the call still succeeds); an empty ring fails the whole call and writes nothing.
///
/// # Safety
/// `ring` is a live ring; the arrays hold `count` elements; each key its length in bytes.
#[no_mangle]
pub unsafe extern "C" fn ketama_ring_lookup_many(
    ring: *const ketama_ring,
    keys: *const *const c_char,
    key_lens: *const usize,
    count: usize,
    labels_out: *mut *const c_char,
    label_lens_out: *mut usize,
) -> ketama_status {
    ffi_boundary! {
        let handle = try_handle!(Handle, ring)?;
        let (keys, key_lens) = (try_slice!(keys, count)?, try_slice!(key_lens, count)?);
        let (labels_out, label_lens_out) =
            (try_slice_mut!(labels_out, count)?, try_slice_mut!(label_lens_out, count)?);
        let mut list = Vec::with_capacity(count);
        for (k, l) in keys.iter().zip(key_lens) {
            list.push(try_bytes!(*k, *l)?);
        }
        let state = handle.read();
        let found = locate_all(&state, list.iter().copied(), count)?;
        let mut labels = Vec::with_capacity(count);
        for i in found {
            labels.push(match i {
                Some(i) => state.extra.label(i)?,
                None => (core::ptr::null(), 0),
            });
        }
        for (i, (p, l)) in labels.into_iter().enumerate() {
            labels_out[i] = p;
            label_lens_out[i] = l;
        }
        Ok(())
    }
}

/// Looks up `count` keys given back to back in one buffer (`keys`, `key_lens[i]` bytes each):
/// `servers_out[i]` receives the index of the key's server (see `ketama_ring_server()`), or
/// `UINT32_MAX` for a key the client refuses or that no server owns. One call and no pointer
/// arrays: the fast path for bindings such as PHP FFI. An empty ring fails the whole call.
///
/// # Safety
/// `ring` is a live ring; `keys` holds the sum of `key_lens` bytes (NULL allowed when that
/// is 0); `key_lens` and `servers_out` hold `count` elements.
#[no_mangle]
pub unsafe extern "C" fn ketama_ring_lookup_packed(
    ring: *const ketama_ring,
    keys: *const c_char,
    key_lens: *const usize,
    count: usize,
    servers_out: *mut u32,
) -> ketama_status {
    ffi_boundary! {
        let handle = try_handle!(Handle, ring)?;
        let key_lens = try_slice!(key_lens, count)?;
        let total = key_lens.iter().try_fold(0usize, |a, &l| a.checked_add(l)).ok_or(ketama_status::Internal)?;
        let buf = try_bytes!(keys, total)?;
        let servers_out = try_slice_mut!(servers_out, count)?;
        let state = handle.read();
        if state.ring.is_empty() {
            return Err(ketama_core::Error::EmptyRing.into());
        }
        let mut at = 0;
        let keys = key_lens.iter().map(|&len| {
            let key = &buf[at..at + len];
            at += len;
            key
        });
        let found = locate_all(&state, keys, count)?;
        for (slot, i) in servers_out.iter_mut().zip(found) {
            *slot = i.map_or(u32::MAX, |i| u32::try_from(i).unwrap_or(u32::MAX));
        }
        Ok(())
    }
}

/// Looks up the keys of one buffer split at a separator byte and writes their servers'
/// labels joined by the same byte: the batch form for bindings whose strings are cheap to join
/// and split in bulk but dear to handle one by one (PHP: `implode`, then `explode` of the
/// answer, with no per-key call or array element access).
///
/// `keys`: `keys_len` bytes, the keys separated by `separator` (`"a\0b\0c"` with separator 0
/// is 3 keys; `keys_len` 0 is no key at all, so an empty key alone is asked with
/// `ketama_ring_lookup()`). Keys cannot contain the separator: pick a byte they never hold.
/// `labels_out` receives, in key order, the label of each key's server, separated by
/// `separator` (none after the last), and `*labels_len_out` its length. Labels never contain
/// whitespace or control characters, so a control byte (`\0`, `\n`) as separator never
/// appears inside one. A key the client refuses or that no server owns gets an empty label
/// and is counted in `*refused_out` (the call still succeeds). Room for (number of keys) x
/// (longest label + 1) bytes always suffices; too little gives
/// `KETAMA_STATUS_INDEX_OUT_OF_RANGE`.
/// An empty ring fails the whole call. Nothing is written on failure.
///
/// # Safety
/// `ring` is a live ring; `keys` holds `keys_len` bytes (NULL allowed when 0); `labels_out`
/// has room for `labels_capacity` bytes (NULL allowed when 0); the other outputs are writable.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn ketama_ring_lookup_joined(
    ring: *const ketama_ring,
    keys: *const c_char,
    keys_len: usize,
    separator: u8,
    labels_out: *mut c_char,
    labels_capacity: usize,
    labels_len_out: *mut usize,
    refused_out: *mut usize,
) -> ketama_status {
    ffi_boundary! {
        let handle = try_handle!(Handle, ring)?;
        let (labels_len_out, refused_out) = (try_out!(labels_len_out)?, try_out!(refused_out)?);
        let buf = try_bytes!(keys, keys_len)?;
        let room = try_slice_mut!(labels_out.cast::<u8>(), labels_capacity)?;
        let state = handle.read();
        if state.ring.is_empty() {
            return Err(ketama_core::Error::EmptyRing.into());
        }
        if buf.is_empty() {
            *labels_len_out = 0;
            *refused_out = 0;
            return Ok(());
        }
        // Every answer first (nothing is written unless all of them fit).
        let ends = crate::split::piece_ends(buf, separator);
        let mut start = 0;
        let keys = ends.iter().map(|&end| {
            let key = &buf[start..end];
            start = end + 1;
            key
        });
        let found = locate_all(&state, keys, ends.len())?;
        let mut need = found.len() - 1;
        for i in found.iter().flatten() {
            need = need.saturating_add(state.extra.label(*i)?.1);
        }
        if need > room.len() {
            return Err(ketama_status::IndexOutOfRange);
        }
        let mut at = 0;
        let mut refused = 0;
        for (n, i) in found.iter().enumerate() {
            if n > 0 {
                room[at] = separator;
                at += 1;
            }
            match i {
                Some(i) => {
                    let label = state.extra.text(*i)?;
                    room[at..at + label.len()].copy_from_slice(label);
                    at += label.len();
                }
                None => refused += 1,
            }
        }
        *labels_len_out = at;
        *refused_out = refused;
        Ok(())
    }
}
