//! `ketama_raw_ring`: core's continuum over raw node names ([`RawContinuum`]) for C, for
//! clients that take any bytes as a server's name and give every entry its own points
//! (libketama's file, flexihash and uhashring targets that are not `host:port` labels).

use core::ffi::c_char;

use ketama_core::ring::{RawContinuum, RawCount};
use ketama_core::Profile;

use crate::boundary::{
    ffi_boundary, free_handle, try_bytes, try_handle, try_out, try_slice, try_slice_mut, try_text,
    FfiResult, Opaque,
};
use crate::ring::blamed;
use crate::status::ketama_status;

/// A continuum over raw node names: the servers are byte strings hashed exactly as given (no
/// label parsing, repeats allowed, each entry its own points), known by their index in the
/// list the ring was created from.
///
/// Create it with `ketama_raw_ring_create()` or `ketama_raw_ring_create_counted()`, free it
/// with `ketama_raw_ring_free()`. It never changes: every function may be called from any
/// thread at any time (except `ketama_raw_ring_free()`).
#[allow(non_camel_case_types)]
#[derive(Debug)]
pub struct ketama_raw_ring {
    _private: [u8; 0],
}

impl Opaque for RawContinuum {
    type C = ketama_raw_ring;
}

/// The shared body of the two create functions (their arguments).
#[allow(clippy::too_many_arguments)]
fn create(
    profile: *const c_char,
    profile_len: usize,
    hash: *const c_char,
    hash_len: usize,
    names: *const *const c_char,
    name_lens: *const usize,
    counts: *const u32,
    server_count: usize,
    kind: RawCount,
    ring_out: *mut *mut ketama_raw_ring,
    failed_index_out: *mut usize,
) -> ketama_status {
    ffi_boundary! {
        let ring_out = try_out!(ring_out)?;
        let profile = Profile::by_name(try_text!(profile, profile_len)?)?;
        let hash = if hash.is_null() {
            None
        } else {
            Some(profile.hash_from_name(try_text!(hash, hash_len)?)?)
        };
        let (names, name_lens) = (try_slice!(names, server_count)?, try_slice!(name_lens, server_count)?);
        let counts = try_slice!(counts, server_count)?;
        let mut servers = Vec::with_capacity(server_count);
        for ((&name, &len), &count) in names.iter().zip(name_lens).zip(counts) {
            if name.is_null() && len == 0 {
                return Err(ketama_status::NullArgument);
            }
            servers.push((try_bytes!(name, len)?, count));
        }
        let ring = RawContinuum::build_with(profile, hash, kind, &servers)
            .map_err(|e| blamed(e, failed_index_out))?;
        *ring_out = ring.into_raw();
        Ok(())
    }
}

/// Creates a continuum over raw node names, weighted as the profile's client weighs servers.
///
/// `profile` (`profile_len` bytes): a profile whose placement is a searched continuum with
/// one owner per point (`libketama`, `flexihash`, `flexihash-seed`, `uhashring`,
/// `uhashring-ketama`, `hash_ring`, `node-hashring`, ...). `hash` (`hash_len` bytes; NULL: the
/// profile's default): the key hash, by name, also used for points where the profile hashes
/// them with the key hash. `names[i]` / `name_lens[i]` / `weights[i]`: the `server_count`
/// servers, in order; a name is any bytes, hashed as given (`names[i]` is never NULL, not even
/// for an empty name); the same name twice is two servers, each with its own points.
///
/// Errors: `KETAMA_STATUS_UNKNOWN_PROFILE`, `KETAMA_STATUS_UNKNOWN_HASH`,
/// `KETAMA_STATUS_EMPTY_RING` (no server), `KETAMA_STATUS_BAD_WEIGHT` (a weight the client
/// refuses), `KETAMA_STATUS_TOO_MANY_POINTS`, `KETAMA_STATUS_NOT_A_CONTINUUM` (a profile
/// placed otherwise: modulo, jump, rendezvous, maglev, pecl's buckets, xmemcached's tie
/// runs). On success `*ring_out` receives a ring to free with `ketama_raw_ring_free()`; on
/// failure it is not written. `failed_index_out` (NULL allowed) receives, when one server is
/// to blame, its index; it is written only then.
///
/// # Safety
/// `profile` points to `profile_len` bytes; `hash` is NULL or points to `hash_len` bytes;
/// `names`, `name_lens` and `weights` hold `server_count` elements and each name its length
/// in bytes; `ring_out` is writable; `failed_index_out` is NULL or writable.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn ketama_raw_ring_create(
    profile: *const c_char,
    profile_len: usize,
    hash: *const c_char,
    hash_len: usize,
    names: *const *const c_char,
    name_lens: *const usize,
    weights: *const u32,
    server_count: usize,
    ring_out: *mut *mut ketama_raw_ring,
    failed_index_out: *mut usize,
) -> ketama_status {
    create(
        profile,
        profile_len,
        hash,
        hash_len,
        names,
        name_lens,
        weights,
        server_count,
        RawCount::Weight,
        ring_out,
        failed_index_out,
    )
}

/// As `ketama_raw_ring_create()`, but `strings[i]` is the number of point strings of server
/// `i` itself (each giving the profile's points per string; 0: no point), for a client whose
/// count the caller computes: flexihash's `round(replicas * weight)` positions, uhashring's
/// `vnodes * weight` points.
///
/// # Safety
/// As `ketama_raw_ring_create()`, with `strings` for `weights`.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn ketama_raw_ring_create_counted(
    profile: *const c_char,
    profile_len: usize,
    hash: *const c_char,
    hash_len: usize,
    names: *const *const c_char,
    name_lens: *const usize,
    strings: *const u32,
    server_count: usize,
    ring_out: *mut *mut ketama_raw_ring,
    failed_index_out: *mut usize,
) -> ketama_status {
    create(
        profile,
        profile_len,
        hash,
        hash_len,
        names,
        name_lens,
        strings,
        server_count,
        RawCount::Strings,
        ring_out,
        failed_index_out,
    )
}

/// Frees a raw ring. NULL is a no-op.
///
/// # Safety
/// `ring` is NULL or a ring from `ketama_raw_ring_create()` (or `_counted`) not yet freed;
/// no other thread uses it.
#[no_mangle]
pub unsafe extern "C" fn ketama_raw_ring_free(ring: *mut ketama_raw_ring) {
    let _ = ffi_boundary! {
        free_handle!(RawContinuum, ring);
        Ok(())
    };
}

/// The index (in the list the ring was created from) of the server a key goes to, or a
/// failure as a negative status: `-KETAMA_STATUS_NO_SERVER` (no server has a point),
/// `-KETAMA_STATUS_KEY_REJECTED`, `-KETAMA_STATUS_NULL_ARGUMENT` (`ring` NULL, or `key` NULL
/// with `key_len` > 0) (`ketama_status_str(-result)` names it). The key is refused, rewritten
/// and hashed as the profile's client does.
///
/// # Safety
/// `ring` is NULL or a live raw ring; `key` points to `key_len` bytes (NULL allowed when 0).
#[no_mangle]
pub unsafe extern "C" fn ketama_raw_ring_lookup_index(
    ring: *const ketama_raw_ring,
    key: *const c_char,
    key_len: usize,
) -> i64 {
    ffi_boundary!(-(ketama_status::Panic as i64) => {
        let run = || -> FfiResult<i64> {
            let ring = try_handle!(RawContinuum, ring)?;
            let key = try_bytes!(key, key_len)?;
            i64::try_from(ring.locate(key)?).map_err(|_| ketama_status::Internal)
        };
        run().unwrap_or_else(|status| -(status as i64))
    })
}

/// The index (into `ketama_raw_ring_points()`) of the point a key lands on. Errors as
/// `ketama_raw_ring_lookup_index()`.
///
/// # Safety
/// `ring` is a live raw ring; `key` points to `key_len` bytes; `position_out` is writable.
#[no_mangle]
pub unsafe extern "C" fn ketama_raw_ring_key_position(
    ring: *const ketama_raw_ring,
    key: *const c_char,
    key_len: usize,
    position_out: *mut usize,
) -> ketama_status {
    ffi_boundary! {
        let ring = try_handle!(RawContinuum, ring)?;
        let position_out = try_out!(position_out)?;
        let key = try_bytes!(key, key_len)?;
        *position_out = ring.key_position(key)?;
        Ok(())
    }
}

/// Up to `n` distinct servers for a key, its own first, then the next owners met walking the
/// continuum the way the profile's search goes: `servers_out[i]` receives server indexes,
/// `*count_out` how many were written (fewer when fewer servers have points). Errors as
/// `ketama_raw_ring_lookup_index()`.
///
/// # Safety
/// `ring` is a live raw ring; `key` points to `key_len` bytes; `servers_out` holds `n`
/// elements; `count_out` is writable.
#[no_mangle]
pub unsafe extern "C" fn ketama_raw_ring_lookup_n(
    ring: *const ketama_raw_ring,
    key: *const c_char,
    key_len: usize,
    n: usize,
    servers_out: *mut u32,
    count_out: *mut usize,
) -> ketama_status {
    ffi_boundary! {
        let ring = try_handle!(RawContinuum, ring)?;
        let count_out = try_out!(count_out)?;
        let servers_out = try_slice_mut!(servers_out, n)?;
        let key = try_bytes!(key, key_len)?;
        let mut found = Vec::new();
        ring.locate_n_into(key, n, &mut found)?;
        for (slot, &i) in servers_out.iter_mut().zip(&found) {
            *slot = u32::try_from(i).map_err(|_| ketama_status::Internal)?;
        }
        *count_out = found.len().min(n);
        Ok(())
    }
}

/// Number of servers (entries the ring was created from, points or not) in
/// `*server_count_out`, and of points in `*point_count_out`.
///
/// # Safety
/// `ring` is a live raw ring; the outputs are writable.
#[no_mangle]
pub unsafe extern "C" fn ketama_raw_ring_size(
    ring: *const ketama_raw_ring,
    server_count_out: *mut usize,
    point_count_out: *mut usize,
) -> ketama_status {
    ffi_boundary! {
        let ring = try_handle!(RawContinuum, ring)?;
        let (servers, points) = (try_out!(server_count_out)?, try_out!(point_count_out)?);
        *servers = ring.server_count();
        *points = ring.len();
        Ok(())
    }
}

/// Copies the continuum, ascending: `positions_out[i]` the point (on uhashring's 128-bit
/// continuum its top 32 bits), `servers_out[i]` the index of the server owning it (may be
/// NULL). Writes `min(capacity, points)` entries and their number to `*count_out`; among
/// equal positions the winning server comes first.
///
/// # Safety
/// `ring` is a live raw ring; the arrays hold `capacity` elements; `count_out` is writable.
#[no_mangle]
pub unsafe extern "C" fn ketama_raw_ring_points(
    ring: *const ketama_raw_ring,
    positions_out: *mut u32,
    servers_out: *mut u32,
    capacity: usize,
    count_out: *mut usize,
) -> ketama_status {
    ffi_boundary! {
        let ring = try_handle!(RawContinuum, ring)?;
        let count_out = try_out!(count_out)?;
        let positions = try_slice_mut!(positions_out, capacity)?;
        let servers = if servers_out.is_null() {
            None
        } else {
            Some(try_slice_mut!(servers_out, capacity)?)
        };
        let n = capacity.min(ring.len());
        positions[..n].copy_from_slice(&ring.points()[..n]);
        if let Some(s) = servers {
            s[..n].copy_from_slice(&ring.owners()[..n]);
        }
        *count_out = n;
        Ok(())
    }
}
