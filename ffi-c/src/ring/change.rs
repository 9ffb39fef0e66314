//! Changing a ring: adding, removing and reweighting servers (each change publishes a new
//! snapshot or nothing).

use core::ffi::c_char;

use ketama_core::{BuildError, Server};

use super::handle::{ketama_ring, Handle};
use crate::boundary::{ffi_boundary, try_handle, try_opt_out, try_slice, try_text, FfiResult};
use crate::status::ketama_status;

/// Writes `i` to `failed_index_out` (an optional output argument) when it is not NULL.
pub(super) fn blame(failed_index_out: *mut usize, i: usize) {
    if let Some(slot) = try_opt_out!(failed_index_out) {
        *slot = i;
    }
}

/// Builds `count` servers from C arrays (the array arguments of [`ketama_ring_add_many`] or
/// `ketama_ring_create_points`); a refused one is blamed through `failed_index_out`.
pub(super) fn servers_from(
    labels: &[*const c_char],
    label_lens: &[usize],
    weights: Option<&[u32]>,
    names: Option<(&[*const c_char], &[usize])>,
    failed_index_out: *mut usize,
) -> FfiResult<Vec<Server>> {
    let mut servers = Vec::with_capacity(labels.len());
    for (i, (&label, &len)) in labels.iter().zip(label_lens).enumerate() {
        let (name, name_len) = names.map_or((core::ptr::null(), 0), |(n, l)| (n[i], l[i]));
        let weight = weights.map_or(1, |w| w[i]);
        match server(label, len, weight, name, name_len) {
            Ok(s) => servers.push(s),
            Err(e) => {
                blame(failed_index_out, i);
                return Err(e);
            }
        }
    }
    Ok(servers)
}

/// A core refusal as a status, blaming its server through `failed_index_out`.
pub(crate) fn blamed(e: BuildError, failed_index_out: *mut usize) -> ketama_status {
    if let Some(i) = e.server {
        blame(failed_index_out, i);
    }
    e.error.into()
}

/// Builds one server from C arguments (`name` NULL: no name).
pub(super) fn server(
    label: *const c_char,
    label_len: usize,
    weight: u32,
    name: *const c_char,
    name_len: usize,
) -> FfiResult<Server> {
    if label.is_null() {
        return Err(ketama_status::NullArgument);
    }
    let label = try_text!(label, label_len)?;
    let name = if name.is_null() {
        None
    } else {
        Some(try_text!(name, name_len)?)
    };
    Ok(Server::parse(label, weight)?.with_name(name))
}

/// Adds a server at the end of the server order.
///
/// `label`: `host:port`, `[ipv6]:port` or `host`, UTF-8, `label_len` bytes (no NUL needed).
/// `weight`: what the profile's client does with it (ignored by unweighted profiles).
///
/// # Safety
/// `ring` is a live ring; `label` points to `label_len` readable bytes.
#[no_mangle]
pub unsafe extern "C" fn ketama_ring_add(
    ring: *mut ketama_ring,
    label: *const c_char,
    label_len: usize,
    weight: u32,
) -> ketama_status {
    add(ring, label, label_len, weight, core::ptr::null(), 0)
}

/// Adds a server with an explicit node name: twemproxy's server name, or for the Java
/// profiles and groupcache the exact node string the client hashes
/// (`cache1/10.0.0.5:11211`). `name` NULL (or empty) means no name.
///
/// # Safety
/// `ring` is a live ring; `label` and `name` (when not NULL) point to that many bytes.
#[no_mangle]
pub unsafe extern "C" fn ketama_ring_add_named(
    ring: *mut ketama_ring,
    label: *const c_char,
    label_len: usize,
    weight: u32,
    name: *const c_char,
    name_len: usize,
) -> ketama_status {
    add(ring, label, label_len, weight, name, name_len)
}

/// The body of `ketama_ring_add` and `ketama_ring_add_named` (their arguments).
fn add(
    ring: *mut ketama_ring,
    label: *const c_char,
    label_len: usize,
    weight: u32,
    name: *const c_char,
    name_len: usize,
) -> ketama_status {
    ffi_boundary! {
        let handle = try_handle!(Handle, ring)?;
        let server = server(label, label_len, weight, name, name_len)?;
        Ok(handle.change(|ring, scratch| ring.with_added_in(server, scratch))?)
    }
}

/// Adds `count` servers in one step (faster than one by one for big rings; the same result).
/// All or nothing: if any server is refused, the ring is unchanged. Duplicates are one
/// endpoint: IPv6 literals compare in canonical form (`[::1]:11211` = `[0:0::1]:11211`).
/// A continuum holds at most 2^23 = 8,388,608 points (52,428 equal libketama servers): more
/// is refused at once with `KETAMA_STATUS_TOO_MANY_POINTS`. A ring from
/// `ketama_ring_create_points()` refuses with `KETAMA_STATUS_FIXED_POINTS`, as it refuses
/// every change.
///
/// `labels[i]` / `label_lens[i]`: the labels. `weights`: NULL for all 1. `names` /
/// `name_lens`: NULL for no names; a NULL `names[i]` means no name for that server.
/// `failed_index_out` (NULL allowed) receives, on a failure that one server is to blame for
/// (a bad label or weight, a duplicate, a host the profile cannot place), that server's
/// index in `labels`; it is written only then.
///
/// # Safety
/// `ring` is a live ring; the arrays (when not NULL) hold `count` elements and each string
/// the given number of bytes; `failed_index_out` is NULL or writable.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn ketama_ring_add_many(
    ring: *mut ketama_ring,
    labels: *const *const c_char,
    label_lens: *const usize,
    weights: *const u32,
    names: *const *const c_char,
    name_lens: *const usize,
    count: usize,
    failed_index_out: *mut usize,
) -> ketama_status {
    ffi_boundary! {
        let handle = try_handle!(Handle, ring)?;
        let (labels, label_lens) = (try_slice!(labels, count)?, try_slice!(label_lens, count)?);
        let weights = if weights.is_null() { None } else { Some(try_slice!(weights, count)?) };
        let names = if names.is_null() {
            None
        } else {
            Some((try_slice!(names, count)?, try_slice!(name_lens, count)?))
        };
        let servers = servers_from(labels, label_lens, weights, names, failed_index_out)?;
        handle
            .change(|old, scratch| old.with_added_many_in(servers, scratch))
            .map_err(|e| blamed(e, failed_index_out))
    }
}

/// Removes the server with this label.
///
/// # Safety
/// `ring` is a live ring; `label` points to `label_len` readable bytes.
#[no_mangle]
pub unsafe extern "C" fn ketama_ring_remove(
    ring: *mut ketama_ring,
    label: *const c_char,
    label_len: usize,
) -> ketama_status {
    ffi_boundary! {
        let handle = try_handle!(Handle, ring)?;
        if label.is_null() {
            return Err(ketama_status::NullArgument);
        }
        let label = try_text!(label, label_len)?;
        Ok(handle.change(|ring, scratch| {
            ring.with_removed_in(label, scratch).map(|(next, _)| next)
        })?)
    }
}

/// Changes the weight of the server with this label (its place in the order is kept).
///
/// # Safety
/// `ring` is a live ring; `label` points to `label_len` readable bytes.
#[no_mangle]
pub unsafe extern "C" fn ketama_ring_set_weight(
    ring: *mut ketama_ring,
    label: *const c_char,
    label_len: usize,
    weight: u32,
) -> ketama_status {
    ffi_boundary! {
        let handle = try_handle!(Handle, ring)?;
        if label.is_null() {
            return Err(ketama_status::NullArgument);
        }
        let label = try_text!(label, label_len)?;
        Ok(handle.change(|ring, scratch| ring.with_weight_in(label, weight, scratch))?)
    }
}
