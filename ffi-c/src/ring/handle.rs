//! The opaque `ketama_ring` handle: the published snapshot, the label store behind the
//! pointers lookups return, and freeing.

use core::ffi::c_char;
use std::collections::HashSet;
use std::sync::{Arc, Mutex, PoisonError};

use ketama_core::arc_swap::Guard;
use ketama_core::ring::carry;
use ketama_core::{Ring, Scratch, SharedRing, Snapshot};

use crate::boundary::{ffi_boundary, free_handle, FfiResult, Opaque};
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
    pub(super) fn label(&self, i: usize) -> FfiResult<(*const c_char, usize)> {
        let l = self.0.get(i).ok_or(ketama_status::Internal)?;
        Ok((l.as_ptr().cast(), l.len() - 1))
    }

    /// Server `i`'s label bytes (without the NUL).
    pub(super) fn text(&self, i: usize) -> FfiResult<&[u8]> {
        let l = self.0.get(i).ok_or(ketama_status::Internal)?;
        Ok(&l[..l.len() - 1])
    }
}

/// `label` NUL-terminated, from the store (added to it when new).
fn intern(store: &mut HashSet<Arc<[u8]>>, label: &str) -> Arc<[u8]> {
    let mut owned = Vec::with_capacity(label.len() + 1);
    owned.extend_from_slice(label.as_bytes());
    owned.push(0);
    match store.get(owned.as_slice()) {
        Some(a) => Arc::clone(a),
        None => {
            let a: Arc<[u8]> = owned.into();
            store.insert(Arc::clone(&a));
            a
        }
    }
}

impl Opaque for Handle {
    type C = ketama_ring;
}

impl Handle {
    pub(super) fn new(ring: Ring) -> Handle {
        let mut store = HashSet::new();
        let labels = ring
            .servers()
            .map(|s| intern(&mut store, &s.label))
            .collect();
        Handle {
            shared: SharedRing::new(ring, Labels(labels)),
            store: Mutex::new(store),
        }
    }

    /// The current snapshot: no lock, never waits for a writer.
    #[inline]
    pub(super) fn read(&self) -> Guard<Arc<Snapshot<Labels>>> {
        self.shared.load()
    }

    /// Builds the next ring from the current one with `f` (writing into the retired
    /// snapshot's memory) and publishes it with its labels (carried over from the current
    /// snapshot, new ones from the store); on error nothing changes.
    pub(super) fn change<E>(
        &self,
        f: impl FnOnce(&Ring, &mut Scratch) -> Result<Ring, E>,
    ) -> Result<(), E> {
        self.shared.update(|now, scratch| {
            let next = f(&now.ring, scratch)?;
            // The store is only touched here, under the shared ring's writer lock; a panic
            // while holding it published nothing, so recovering from poisoning is sound.
            let mut store = self.store.lock().unwrap_or_else(PoisonError::into_inner);
            let labels = carry(&now.ring, &now.extra.0, &next, |s| {
                intern(&mut store, &s.label)
            });
            Ok((next, Labels(labels)))
        })
    }
}

/// Frees a ring (and every label it returned). NULL is a no-op.
///
/// # Safety
/// `ring` is NULL or a ring from `ketama_ring_create()` not yet freed; no other thread uses it.
#[no_mangle]
pub unsafe extern "C" fn ketama_ring_free(ring: *mut ketama_ring) {
    let _ = ffi_boundary! {
        free_handle!(Handle, ring);
        Ok(())
    };
}
