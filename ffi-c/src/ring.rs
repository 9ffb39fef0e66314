//! `ketama_ring`: a continuum for one client profile, behind an opaque handle.

use core::ffi::c_char;
#[cfg(feature = "test-panic")]
use core::ffi::c_int;
use std::collections::HashSet;
use std::sync::{Arc, Mutex, PoisonError};

use ketama_core::arc_swap::Guard;

use ketama_core::{Error, Hash, Profile, Ring, Scratch, Server, SharedRing, Snapshot};

use crate::boundary::{
    bytes, c_text, ffi_boundary, in_slice, out, out_slice, text, FfiResult, Opaque,
};
use crate::status::ketama_status;

/// A ring of servers placed the way one memcached client places them.
///
/// Create it with `ketama_ring_create()`, free it with `ketama_ring_free()`.
///
/// Thread safety: every function may be called from any thread at any time on the same
/// ring (except `ketama_ring_free()`). Lookups never wait: they read the current snapshot of
/// the ring without a lock. `ketama_ring_add`, `ketama_ring_remove` and the other changes are
/// serialised among themselves; each builds the next snapshot aside and publishes it
/// atomically, so a lookup sees the ring either before or after a change, never half of it
/// (a failed change publishes nothing).
///
/// Labels returned by lookups point into a store the ring keeps until `ketama_ring_free()`:
/// they stay valid after their server is removed and while other threads change the ring.
/// A label added again reuses its stored copy, so the store holds each distinct label ever
/// added once (its memory is bounded by the distinct labels, not by the number of changes).
#[allow(non_camel_case_types)]
#[derive(Debug)]
pub struct ketama_ring {
    _private: [u8; 0],
}

/// The Rust value behind a `ketama_ring *`: the published snapshot (read without a lock)
/// and the label store (touched by writers only).
pub(crate) struct Handle {
    shared: SharedRing<Labels>,
    /// Every distinct label this ring ever held, NUL-terminated, kept until the ring is freed
    /// so that label pointers handed to C never dangle; a label that comes back reuses its
    /// entry, so the store is bounded by the distinct labels ever added.
    store: Mutex<HashSet<Arc<[u8]>>>,
}

/// The label of each server of one snapshot, in server order (pointers into the store).
#[derive(Debug)]
pub(crate) struct Labels(Vec<Arc<[u8]>>);

impl Labels {
    /// `(pointer, length without the NUL)` of server `i`'s label.
    fn label(&self, i: usize) -> FfiResult<(*const c_char, usize)> {
        let l = self.0.get(i).ok_or(ketama_status::Internal)?;
        Ok((l.as_ptr().cast(), l.len() - 1))
    }

    /// Server `i`'s label bytes (without the NUL).
    fn text(&self, i: usize) -> FfiResult<&[u8]> {
        let l = self.0.get(i).ok_or(ketama_status::Internal)?;
        Ok(&l[..l.len() - 1])
    }

    /// The labels of `ring`, reusing `old`'s where the server is the same (changes add at
    /// the end, remove one or keep the order, so one pass finds them) and the store's for
    /// labels seen before.
    fn follow(ring: &Ring, old: &Labels, store: &mut HashSet<Arc<[u8]>>) -> Labels {
        let mut out = Vec::with_capacity(ring.len());
        let mut j = 0;
        let same = |a: &Arc<[u8]>, label: &str| &a[..a.len() - 1] == label.as_bytes();
        for s in ring.servers() {
            let reuse = match (old.0.get(j), old.0.get(j + 1)) {
                (Some(a), _) if same(a, &s.label) => Some((a, 1)),
                (_, Some(b)) if same(b, &s.label) => Some((b, 2)),
                _ => None,
            };
            if let Some((a, step)) = reuse {
                out.push(Arc::clone(a));
                j += step;
                continue;
            }
            let mut owned = Vec::with_capacity(s.label.len() + 1);
            owned.extend_from_slice(s.label.as_bytes());
            owned.push(0);
            let arc = match store.get(owned.as_slice()) {
                Some(a) => Arc::clone(a),
                None => {
                    let a: Arc<[u8]> = owned.into();
                    store.insert(Arc::clone(&a));
                    a
                }
            };
            out.push(arc);
        }
        Labels(out)
    }
}

impl Opaque for Handle {
    type C = ketama_ring;
}

impl Handle {
    fn new(ring: Ring) -> Handle {
        let mut store = HashSet::new();
        let labels = Labels::follow(&ring, &Labels(Vec::new()), &mut store);
        Handle {
            shared: SharedRing::new(ring, labels),
            store: Mutex::new(store),
        }
    }

    /// The current snapshot: no lock, never waits for a writer.
    #[inline]
    fn read(&self) -> Guard<Arc<Snapshot<Labels>>> {
        self.shared.load()
    }

    /// Builds the next ring from the current one with `f` and publishes it with its labels;
    /// on error nothing changes.
    fn change(&self, f: impl FnOnce(&Ring, &mut Scratch) -> Result<Ring, Error>) -> FfiResult<()> {
        self.shared.update(|now, scratch| {
            let next = f(&now.ring, scratch)?;
            // The store is only touched here, under the shared ring's writer lock; a panic
            // while holding it published nothing, so recovering from poisoning is sound.
            let mut store = self.store.lock().unwrap_or_else(PoisonError::into_inner);
            let labels = Labels::follow(&next, &now.extra, &mut store);
            Ok((next, labels))
        })
    }
}

/// Builds one server from C arguments.
///
/// # Safety
/// As [`text`] for both strings.
unsafe fn server(
    label: *const c_char,
    label_len: usize,
    weight: u32,
    name: *const c_char,
    name_len: usize,
) -> FfiResult<Server> {
    if label.is_null() {
        return Err(ketama_status::NullArgument);
    }
    // SAFETY: forwarded contract.
    let label = unsafe { text(label, label_len) }?;
    // SAFETY: forwarded contract.
    let name = if name.is_null() {
        None
    } else {
        Some(unsafe { text(name, name_len) }?)
    };
    Ok(Server::parse(label, weight)?.with_name(name))
}

/// Where each key of a batch goes, against one snapshot (MD5-keyed profiles hash the keys
/// several at a time in SIMD lanes), with per-key refusals as `None`; any other error (an
/// empty ring) fails the batch.
fn locate_all<'k>(
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

/// A profile by name and its key hash by name (NULL: the profile's default).
///
/// # Safety
/// `profile` and `hash` are NULL or NUL-terminated.
unsafe fn profile_and_hash(
    profile: *const c_char,
    hash: *const c_char,
) -> FfiResult<(&'static Profile, Option<Hash>)> {
    // SAFETY: forwarded contract.
    let profile = Profile::by_name(unsafe { c_text(profile) }?)?;
    if hash.is_null() {
        return Ok((profile, None));
    }
    // SAFETY: forwarded contract.
    Ok((
        profile,
        Some(profile.hash_from_name(unsafe { c_text(hash) }?)?),
    ))
}

/// Creates an empty ring for a client profile.
///
/// `profile`: a profile name (`"libketama"`, `"php-memcached"`, `"spymemcached"`, ... see
/// `ketama profiles`), NUL-terminated. `hash`: the key hash by name (our snake_case names or
/// the client's own enum names such as `"FNV1A_32_HASH"`), or NULL for the profile's default.
/// On success `*ring_out` receives a ring to free with `ketama_ring_free()`; on failure it is
/// not written.
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
        // SAFETY: caller's contract.
        let ring_out = unsafe { out(ring_out) }?;
        // SAFETY: caller's contract.
        let (profile, hash) = unsafe { profile_and_hash(profile, hash) }?;
        let handle = Handle::new(Ring::new(profile, hash));
        *ring_out = handle.into_raw();
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
/// `KETAMA_STATUS_UNSUPPORTED`): build a new one. Errors: `KETAMA_STATUS_EMPTY_RING` (no
/// server or no point), `KETAMA_STATUS_INDEX_OUT_OF_RANGE` (an owner index
/// `>= server_count`), `KETAMA_STATUS_TOO_MANY_POINTS` (more than 2^23 points),
/// `KETAMA_STATUS_UNSUPPORTED` (a profile that is not a 32-bit continuum: modulo, jump,
/// rendezvous, maglev, uhashring), `KETAMA_STATUS_DUPLICATE_SERVER`, `KETAMA_STATUS_BAD_LABEL`.
/// On success `*ring_out` receives a ring to free with `ketama_ring_free()`; on failure it is
/// not written.
///
/// # Safety
/// `profile` and `hash` are NULL or NUL-terminated; `labels` and `label_lens` hold
/// `server_count` elements and each label its length in bytes; `positions` and `owners` hold
/// `point_count` elements; `ring_out` is NULL or writable.
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
) -> ketama_status {
    ffi_boundary! {
        // SAFETY: caller's contract.
        let ring_out = unsafe { out(ring_out) }?;
        // SAFETY: caller's contract.
        let (profile, hash) = unsafe { profile_and_hash(profile, hash) }?;
        // SAFETY: caller's contract (each array holds its count of elements).
        let (labels, label_lens) = unsafe { (in_slice(labels, server_count)?, in_slice(label_lens, server_count)?) };
        // SAFETY: as above.
        let (positions, owners) = unsafe { (in_slice(positions, point_count)?, in_slice(owners, point_count)?) };
        let mut servers = Vec::with_capacity(server_count);
        for i in 0..server_count {
            // SAFETY: caller's contract.
            servers.push(unsafe { server(labels[i], label_lens[i], 1, core::ptr::null(), 0) }?);
        }
        let mut points = Vec::with_capacity(point_count);
        for (&p, &o) in positions.iter().zip(owners) {
            if o as usize >= server_count {
                return Err(ketama_status::IndexOutOfRange);
            }
            points.push((p, o as usize));
        }
        let ring = Ring::from_points(profile, hash, servers, &points).map_err(|e| e.error)?;
        *ring_out = Handle::new(ring).into_raw();
        Ok(())
    }
}

/// Frees a ring (and every label it returned). NULL is a no-op.
///
/// # Safety
/// `ring` is NULL or a ring from `ketama_ring_create()` not yet freed; no other thread uses it.
#[no_mangle]
pub unsafe extern "C" fn ketama_ring_free(ring: *mut ketama_ring) {
    let _ = ffi_boundary! {
        // SAFETY: caller's contract.
        unsafe { Handle::free(ring) };
        Ok(())
    };
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
    // SAFETY: caller's contract; no name.
    unsafe { ketama_ring_add_named(ring, label, label_len, weight, core::ptr::null(), 0) }
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
    ffi_boundary! {
        // SAFETY: caller's contract.
        let handle = unsafe { Handle::borrow(ring) }?;
        // SAFETY: caller's contract.
        let server = unsafe { server(label, label_len, weight, name, name_len) }?;
        handle.change(|ring, scratch| ring.with_added_in(server, scratch))
    }
}

/// Adds `count` servers in one step (faster than one by one for big rings; the same result).
/// All or nothing: if any server is refused, the ring is unchanged. Duplicates are one
/// endpoint: IPv6 literals compare in canonical form (`[::1]:11211` = `[0:0::1]:11211`).
/// A continuum holds at most 2^23 = 8,388,608 points (52,428 equal libketama servers): more
/// is refused at once with `KETAMA_STATUS_TOO_MANY_POINTS`.
///
/// `labels[i]` / `label_lens[i]`: the labels. `weights`: NULL for all 1. `names` /
/// `name_lens`: NULL for no names; a NULL `names[i]` means no name for that server.
///
/// # Safety
/// `ring` is a live ring; the arrays (when not NULL) hold `count` elements and each string
/// the given number of bytes.
#[no_mangle]
pub unsafe extern "C" fn ketama_ring_add_many(
    ring: *mut ketama_ring,
    labels: *const *const c_char,
    label_lens: *const usize,
    weights: *const u32,
    names: *const *const c_char,
    name_lens: *const usize,
    count: usize,
) -> ketama_status {
    ffi_boundary! {
        // SAFETY: caller's contract.
        let handle = unsafe { Handle::borrow(ring) }?;
        // SAFETY: caller's contract (each array holds `count` elements).
        let (labels, label_lens) = unsafe { (in_slice(labels, count)?, in_slice(label_lens, count)?) };
        // SAFETY: as above; NULL arrays are optional.
        let weights = if weights.is_null() { None } else { Some(unsafe { in_slice(weights, count) }?) };
        let names = if names.is_null() {
            None
        } else {
            // SAFETY: as above.
            Some(unsafe { (in_slice(names, count)?, in_slice(name_lens, count)?) })
        };
        let mut servers = Vec::with_capacity(count);
        for i in 0..count {
            let (name, name_len) = names.map_or((core::ptr::null(), 0), |(n, l)| (n[i], l[i]));
            let weight = weights.map_or(1, |w| w[i]);
            // SAFETY: caller's contract.
            servers.push(unsafe { server(labels[i], label_lens[i], weight, name, name_len) }?);
        }
        handle.change(|old, scratch| {
            let all = old.servers().cloned().chain(servers);
            Ring::build_in(old.profile(), Some(old.hash()), all, scratch).map_err(|e| e.error)
        })
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
        // SAFETY: caller's contract.
        let handle = unsafe { Handle::borrow(ring) }?;
        if label.is_null() {
            return Err(ketama_status::NullArgument);
        }
        // SAFETY: caller's contract.
        let label = unsafe { text(label, label_len) }?;
        handle.change(|ring, scratch| ring.with_removed_in(label, scratch).map(|(next, _)| next))
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
        // SAFETY: caller's contract.
        let handle = unsafe { Handle::borrow(ring) }?;
        if label.is_null() {
            return Err(ketama_status::NullArgument);
        }
        // SAFETY: caller's contract.
        let label = unsafe { text(label, label_len) }?;
        handle.change(|ring, scratch| ring.with_weight_in(label, weight, scratch))
    }
}

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
        // SAFETY: caller's contract.
        let handle = unsafe { Handle::borrow(ring) }?;
        // SAFETY: caller's contract.
        let (label_out, label_len_out) = unsafe { (out(label_out)?, out(label_len_out)?) };
        // SAFETY: caller's contract.
        let key = unsafe { bytes(key, key_len) }?;
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
            // SAFETY: caller's contract.
            let handle = unsafe { Handle::borrow(ring) }?;
            // SAFETY: caller's contract.
            let key = unsafe { bytes(key, key_len) }?;
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
            // SAFETY: caller's contract.
            let handle = unsafe { Handle::borrow(ring) }?;
            if key.is_null() {
                return Err(ketama_status::NullArgument);
            }
            // SAFETY: non-NULL and NUL-terminated by the caller's contract.
            let key = unsafe { core::ffi::CStr::from_ptr(key) }.to_bytes();
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
        // SAFETY: caller's contract.
        let handle = unsafe { Handle::borrow(ring) }?;
        // SAFETY: caller's contract.
        let (keys, key_lens) = unsafe { (in_slice(keys, count)?, in_slice(key_lens, count)?) };
        // SAFETY: caller's contract.
        let (labels_out, label_lens_out) =
            unsafe { (out_slice(labels_out, count)?, out_slice(label_lens_out, count)?) };
        let mut list = Vec::with_capacity(count);
        for (k, l) in keys.iter().zip(key_lens) {
            // SAFETY: caller's contract.
            list.push(unsafe { bytes(*k, *l) }?);
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
        // SAFETY: caller's contract.
        let handle = unsafe { Handle::borrow(ring) }?;
        // SAFETY: caller's contract.
        let key_lens = unsafe { in_slice(key_lens, count) }?;
        let total = key_lens.iter().try_fold(0usize, |a, &l| a.checked_add(l)).ok_or(ketama_status::Internal)?;
        // SAFETY: caller's contract: `keys` holds `total` bytes.
        let buf = unsafe { bytes(keys, total) }?;
        // SAFETY: caller's contract.
        let servers_out = unsafe { out_slice(servers_out, count) }?;
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
        // SAFETY: caller's contract.
        let handle = unsafe { Handle::borrow(ring) }?;
        // SAFETY: caller's contract.
        let (labels_len_out, refused_out) = unsafe { (out(labels_len_out)?, out(refused_out)?) };
        // SAFETY: caller's contract: `keys` holds `keys_len` bytes.
        let buf = unsafe { bytes(keys, keys_len) }?;
        // SAFETY: caller's contract: `labels_out` has room for `labels_capacity` bytes.
        let room = unsafe { out_slice(labels_out.cast::<u8>(), labels_capacity) }?;
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

/// Where a key hash computed by the caller goes (for a ring from
/// `ketama_ring_create_points()` whose client hashes keys with a function of its own): up to
/// `n` distinct servers, primary first, by the ring's search and tie rules, walking on in
/// ring order. `servers_out[i]` receives server indexes (see `ketama_ring_server()`);
/// `*count_out` how many were written. Works on any ring with a 32-bit continuum (the hash
/// is compared as its points are). Errors: `KETAMA_STATUS_EMPTY_RING`,
/// `KETAMA_STATUS_NO_SERVER`, `KETAMA_STATUS_UNSUPPORTED` (uhashring's 128-bit ring, mcrouter).
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
        // SAFETY: caller's contract.
        let handle = unsafe { Handle::borrow(ring) }?;
        // SAFETY: caller's contract.
        let count_out = unsafe { out(count_out) }?;
        // SAFETY: caller's contract.
        let servers_out = unsafe { out_slice(servers_out, n) }?;
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
    // SAFETY: the caller's contract, passed on unchanged.
    unsafe {
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
    // SAFETY: the caller's contract, passed on unchanged.
    unsafe {
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
}

/// Which sequence of servers [`write_walk`] reports.
enum Walk {
    /// `Ring::locate_n`: distinct servers in ring order.
    Distinct,
    /// `Ring::failover`: the client's own failover sequence.
    Failover,
}

/// The shared body of `ketama_ring_lookup_n` and `ketama_ring_failover`.
///
/// # Safety
/// As those functions.
#[allow(clippy::too_many_arguments)]
unsafe fn write_walk(
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
        // SAFETY: caller's contract.
        let handle = unsafe { Handle::borrow(ring) }?;
        // SAFETY: caller's contract.
        let count_out = unsafe { out(count_out) }?;
        // SAFETY: caller's contract.
        let (labels_out, label_lens_out) =
            unsafe { (out_slice(labels_out, n)?, out_slice(label_lens_out, n)?) };
        // SAFETY: caller's contract.
        let key = unsafe { bytes(key, key_len) }?;
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
        // SAFETY: caller's contract.
        let handle = unsafe { Handle::borrow(ring) }?;
        // SAFETY: caller's contract.
        let hash_out = unsafe { out(hash_out) }?;
        // SAFETY: caller's contract.
        let key = unsafe { bytes(key, key_len) }?;
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
        // SAFETY: caller's contract.
        let handle = unsafe { Handle::borrow(ring) }?;
        // SAFETY: caller's contract.
        let count_out = unsafe { out(count_out) }?;
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
        // SAFETY: caller's contract.
        let handle = unsafe { Handle::borrow(ring) }?;
        // SAFETY: caller's contract.
        let (label_out, label_len_out) = unsafe { (out(label_out)?, out(label_len_out)?) };
        let state = handle.read();
        let server = state.ring.server(index).ok_or(ketama_status::IndexOutOfRange)?;
        let (p, l) = state.extra.label(index)?;
        *label_out = p;
        *label_len_out = l;
        // SAFETY: caller's contract (NULL allowed).
        if let Some(w) = unsafe { weight_out.as_mut() } {
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
        // SAFETY: caller's contract.
        let handle = unsafe { Handle::borrow(ring) }?;
        // SAFETY: caller's contract.
        let count_out = unsafe { out(count_out) }?;
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
        // SAFETY: caller's contract.
        let handle = unsafe { Handle::borrow(ring) }?;
        // SAFETY: caller's contract.
        let count_out = unsafe { out(count_out) }?;
        // SAFETY: caller's contract.
        let positions = unsafe { out_slice(positions_out, capacity) }?;
        let servers = if servers_out.is_null() {
            None
        } else {
            // SAFETY: caller's contract.
            Some(unsafe { out_slice(servers_out, capacity) }?)
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
/// `FNV1A_32_HASH` = Java flavour). Bare `crc32` is ambiguous and gives
/// `KETAMA_STATUS_AMBIGUOUS_HASH`.
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
        // SAFETY: caller's contract.
        let hash_out = unsafe { out(hash_out) }?;
        // SAFETY: caller's contract.
        let h = Hash::from_name(unsafe { c_text(algorithm) }?)?;
        // SAFETY: caller's contract.
        let key = unsafe { bytes(key, len) }?;
        *hash_out = h.hash(key);
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
