//! Creating rings: for a profile, or from explicit points. Each takes the profile's and the
//! hash's names as `(ptr, len)` strings (`_len`), like every other string of the API, or
//! NUL-terminated (the first form, kept for existing programs).

use core::ffi::c_char;

use ketama_core::{Hash, Profile, Ring};

use super::change::{blamed, servers_from};
use super::handle::{ketama_ring, Handle};
use crate::boundary::{ffi_boundary, try_c_text, try_out, try_slice, try_text, FfiResult, Opaque};
use crate::status::ketama_status;

/// A profile by name and its key hash by name (`None`: the profile's default).
fn resolve(profile: &str, hash: Option<&str>) -> FfiResult<(&'static Profile, Option<Hash>)> {
    let profile = Profile::by_name(profile)?;
    match hash {
        None => Ok((profile, None)),
        Some(h) => Ok((profile, Some(profile.hash_from_name(h)?))),
    }
}

/// [`resolve`] from NUL-terminated name arguments (`hash` NULL: the default).
pub(super) fn profile_and_hash(
    profile: *const c_char,
    hash: *const c_char,
) -> FfiResult<(&'static Profile, Option<Hash>)> {
    let hash = if hash.is_null() {
        None
    } else {
        Some(try_c_text!(hash)?)
    };
    resolve(try_c_text!(profile)?, hash)
}

/// [`resolve`] from `(ptr, len)` name arguments (`hash` NULL: the default).
fn profile_and_hash_len(
    profile: *const c_char,
    profile_len: usize,
    hash: *const c_char,
    hash_len: usize,
) -> FfiResult<(&'static Profile, Option<Hash>)> {
    if profile.is_null() {
        return Err(ketama_status::NullArgument);
    }
    let hash = if hash.is_null() {
        None
    } else {
        Some(try_text!(hash, hash_len)?)
    };
    resolve(try_text!(profile, profile_len)?, hash)
}

/// Creates an empty ring for a client profile.
///
/// `profile`: a profile name (`"libketama"`, `"php-memcached"`, `"spymemcached"`, ... see
/// `ketama profiles`), NUL-terminated. `hash`: the key hash by name (our snake_case names or
/// the client's own enum names such as `"FNV1A_32_HASH"`), or NULL for the profile's default.
/// On success `*ring_out` receives a ring to free with `ketama_ring_free()`; on failure it is
/// not written. `ketama_ring_create_len()` is the same with `(ptr, len)` names.
///
/// # Safety
/// `profile` and `hash` are NULL or NUL-terminated; `ring_out` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn ketama_ring_create(
    profile: *const c_char,
    hash: *const c_char,
    ring_out: *mut *mut ketama_ring,
) -> ketama_status {
    ffi_boundary! {
        let ring_out = try_out!(ring_out)?;
        let (profile, hash) = profile_and_hash(profile, hash)?;
        *ring_out = Handle::new(Ring::new(profile, hash)).into_raw();
        Ok(())
    }
}

/// `ketama_ring_create()` with the names as `(ptr, len)` strings, like every other string of
/// the API: `profile` is `profile_len` bytes; `hash` is `hash_len` bytes, or NULL for the
/// profile's default.
///
/// # Safety
/// `profile` points to `profile_len` bytes; `hash` is NULL or points to `hash_len` bytes;
/// `ring_out` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn ketama_ring_create_len(
    profile: *const c_char,
    profile_len: usize,
    hash: *const c_char,
    hash_len: usize,
    ring_out: *mut *mut ketama_ring,
) -> ketama_status {
    ffi_boundary! {
        let ring_out = try_out!(ring_out)?;
        let (profile, hash) = profile_and_hash_len(profile, profile_len, hash, hash_len)?;
        *ring_out = Handle::new(Ring::new(profile, hash)).into_raw();
        Ok(())
    }
}

/// The body of the two `create_points` functions, once the names are resolved (their other
/// arguments).
#[allow(clippy::too_many_arguments)]
fn create_points(
    names: FfiResult<(&'static Profile, Option<Hash>)>,
    labels: *const *const c_char,
    label_lens: *const usize,
    server_count: usize,
    positions: *const u32,
    owners: *const u32,
    point_count: usize,
    ring_out: *mut *mut ketama_ring,
    failed_index_out: *mut usize,
) -> ketama_status {
    ffi_boundary! {
        let ring_out = try_out!(ring_out)?;
        let (profile, hash) = names?;
        let (labels, label_lens) = (try_slice!(labels, server_count)?, try_slice!(label_lens, server_count)?);
        let (positions, owners) = (try_slice!(positions, point_count)?, try_slice!(owners, point_count)?);
        let servers = servers_from(labels, label_lens, None, None, failed_index_out)?;
        let mut points = Vec::with_capacity(point_count);
        for (&p, &o) in positions.iter().zip(owners) {
            if o as usize >= server_count {
                return Err(ketama_status::IndexOutOfRange);
            }
            points.push((p, o as usize));
        }
        let ring = Ring::from_points(profile, hash, servers, &points)
            .map_err(|e| blamed(e, failed_index_out))?;
        *ring_out = Handle::new(ring).into_raw();
        Ok(())
    }
}

/// Creates a ring whose continuum is exactly the given points, for a client whose point
/// strings ketama does not generate (a custom hasher, a client not shipped yet).
///
/// `profile` (NUL-terminated) gives the rules: the search (first point >= / > the key hash,
/// floor, ...), the tie rule among equal positions, the key rewriting. `hash`: the key hash
/// by name, or NULL for the profile's default. `labels[i]` / `label_lens[i]`: the
/// `server_count` servers, in order. `positions[j]` / `owners[j]`: the `point_count` points,
/// each a 32-bit position and the index (into `labels`) of the server owning it, in any
/// order; equal positions are ordered by the profile's tie rule.
///
/// The ring looks up, walks and lists its points like any other; it refuses changes
/// (`ketama_ring_add`, `_add_many`, `_remove`, `_set_weight` return
/// `KETAMA_STATUS_FIXED_POINTS`): build a new one. Errors: `KETAMA_STATUS_EMPTY_RING` (no
/// server or no point), `KETAMA_STATUS_INDEX_OUT_OF_RANGE` (an owner index
/// `>= server_count`), `KETAMA_STATUS_TOO_MANY_POINTS` (more than 2^23 points),
/// `KETAMA_STATUS_NOT_A_CONTINUUM` (a profile that is not a 32-bit continuum: modulo, jump,
/// rendezvous, maglev, uhashring), `KETAMA_STATUS_DUPLICATE_SERVER`, `KETAMA_STATUS_BAD_LABEL`.
/// On success `*ring_out` receives a ring to free with `ketama_ring_free()`; on failure it is
/// not written. `failed_index_out` (NULL allowed) receives, on a failure that one server is
/// to blame for (a bad or duplicate label), that server's index in `labels`; it is written
/// only then. `ketama_ring_create_points_len()` is the same with `(ptr, len)` names.
///
/// # Safety
/// `profile` and `hash` are NULL or NUL-terminated; `labels` and `label_lens` hold
/// `server_count` elements and each label its length in bytes; `positions` and `owners` hold
/// `point_count` elements; `ring_out` is NULL or writable; `failed_index_out` is NULL or
/// writable.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn ketama_ring_create_points(
    profile: *const c_char,
    hash: *const c_char,
    labels: *const *const c_char,
    label_lens: *const usize,
    server_count: usize,
    positions: *const u32,
    owners: *const u32,
    point_count: usize,
    ring_out: *mut *mut ketama_ring,
    failed_index_out: *mut usize,
) -> ketama_status {
    let names = ffi_boundary!(Err(ketama_status::Panic) => { profile_and_hash(profile, hash) });
    create_points(
        names,
        labels,
        label_lens,
        server_count,
        positions,
        owners,
        point_count,
        ring_out,
        failed_index_out,
    )
}

/// `ketama_ring_create_points()` with the names as `(ptr, len)` strings: `profile` is
/// `profile_len` bytes; `hash` is `hash_len` bytes, or NULL for the profile's default.
///
/// # Safety
/// `profile` points to `profile_len` bytes; `hash` is NULL or points to `hash_len` bytes;
/// the rest as `ketama_ring_create_points()`.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn ketama_ring_create_points_len(
    profile: *const c_char,
    profile_len: usize,
    hash: *const c_char,
    hash_len: usize,
    labels: *const *const c_char,
    label_lens: *const usize,
    server_count: usize,
    positions: *const u32,
    owners: *const u32,
    point_count: usize,
    ring_out: *mut *mut ketama_ring,
    failed_index_out: *mut usize,
) -> ketama_status {
    let names = ffi_boundary!(Err(ketama_status::Panic) => {
        profile_and_hash_len(profile, profile_len, hash, hash_len)
    });
    create_points(
        names,
        labels,
        label_lens,
        server_count,
        positions,
        owners,
        point_count,
        ring_out,
        failed_index_out,
    )
}
