//! A ring shared between threads whose readers never wait: the current snapshot is published
//! through an atomic pointer ([`arc_swap::ArcSwap`]); a lookup loads it without taking a lock;
//! a change builds the next snapshot aside (under a writers-only mutex) and swaps it in. A
//! reader holding an old snapshot keeps it alive until it lets go.
//!
//! Short reads ([`SharedRing::read`]) announce the snapshot in a hazard slot of the ring
//! ([`super::hazard`]) instead of taking an arc-swap guard: one atomic exchange and no
//! thread-local lookup, where the guard costs about as much as the search of a small ring. A
//! change then keeps a retired snapshot that a slot holds until a later change (or the
//! ring's end) finds it free.

use core::sync::atomic::{AtomicPtr, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

use arc_swap::{ArcSwap, Guard};

use super::compiled::Ring;
use super::hazard::Hazards;
use super::scratch::Scratch;
use crate::error::Error;
use crate::server::Server;
use alloc::collections::BTreeMap;
use alloc::vec::Vec;

/// One published state: the ring and whatever a binding derives from it (label strings,
/// C pointers, ...), replaced together.
#[derive(Debug)]
pub struct Snapshot<X> {
    /// The ring.
    pub ring: Ring,
    /// The binding's data derived from this ring.
    pub extra: X,
}

/// A ring for many threads: lock-free lookups, serialised changes.
///
/// ```
/// use ketama_core::{Profile, Ring, Server, SharedRing};
/// let shared = SharedRing::new(Ring::new(Profile::by_name("libketama")?, None), ());
/// shared.update(|s, scratch| {
///     let ring = s.ring.with_added_in(Server::parse("10.0.0.1:11211", 1)?, scratch)?;
///     Ok::<_, ketama_core::Error>((ring, ()))
/// })?;
/// assert_eq!(shared.load().ring.locate(b"k")?.label, "10.0.0.1:11211");
/// # Ok::<(), ketama_core::Error>(())
/// ```
pub struct SharedRing<X = ()> {
    current: ArcSwap<Snapshot<X>>,
    /// The snapshot `current` holds, as a plain pointer for [`SharedRing::read`] (published
    /// before `current`; it points into an `Arc` that `current`, or the writer's retired list,
    /// keeps alive while a hazard slot holds it).
    published: AtomicPtr<Snapshot<X>>,
    hazards: Hazards<Snapshot<X>>,
    /// Serialises changes (see [`Writer`]).
    writer: Mutex<Writer<X>>,
}

/// What changes keep between them.
struct Writer<X> {
    /// The point arrays of the last retired snapshot no reader kept, passed to the next change
    /// so that it writes into memory already faulted in (see [`Scratch`]).
    spare: Scratch,
    /// Retired snapshots a hazard slot still held at the last change.
    retired: Vec<Arc<Snapshot<X>>>,
}

impl<X: core::fmt::Debug> core::fmt::Debug for SharedRing<X> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("SharedRing")
            .field("current", &self.current)
            .finish_non_exhaustive()
    }
}

impl<X> SharedRing<X> {
    /// Publishes `ring` with its derived data.
    pub fn new(ring: Ring, extra: X) -> SharedRing<X> {
        let first = Arc::new(Snapshot { ring, extra });
        SharedRing {
            published: AtomicPtr::new(Arc::as_ptr(&first).cast_mut()),
            current: ArcSwap::new(first),
            hazards: Hazards::new(),
            writer: Mutex::new(Writer {
                spare: Scratch::default(),
                retired: Vec::new(),
            }),
        }
    }

    /// The current snapshot, without locking (a few ns; never waits for a writer).
    #[inline]
    pub fn load(&self) -> Guard<Arc<Snapshot<X>>> {
        self.current.load()
    }

    /// Calls `f` with the current snapshot, without locking and without waiting for a writer:
    /// the cheapest read for a short call (a lookup). The snapshot is announced in one of the
    /// ring's hazard slots for the duration of `f` (a change retiring it meanwhile keeps it
    /// until a later change finds it free); when every slot is taken, or a change is
    /// published at that instant, `f` gets a [`SharedRing::load`] guard's snapshot instead.
    #[inline]
    pub fn read<R>(&self, f: impl FnOnce(&Snapshot<X>) -> R) -> R {
        match self.hazards.protect(&self.published) {
            Some(held) => {
                #[allow(unsafe_code)]
                // SAFETY: `held` announces the pointer, which was still published after the
                // announcement ([`Hazards::protect`]), so it points to a live snapshot: the
                // `Arc` behind it is owned by `current` or, once a change retired it, by the
                // writer's retired list, which drops it only after `hazards.holds` no longer
                // sees it; the slot stays set until `held` drops, after `f` returns (or
                // unwinds). `f` cannot keep the reference: `R` does not borrow it.
                let snap = unsafe { &*held.ptr() };
                f(snap)
            }
            None => f(&self.current.load()),
        }
    }

    /// The current snapshot as an owned `Arc` (to keep it past other calls).
    pub fn load_full(&self) -> Arc<Snapshot<X>> {
        self.current.load_full()
    }

    /// Applies a change: `f` gets the current snapshot and the memory of the last retired
    /// snapshot ([`Scratch`], for [`Ring::with_added_in`] and its siblings to write into) and
    /// returns the next ring and its derived data, which are then published. Changes are
    /// serialised; readers go on with the old snapshot meanwhile. If `f` fails nothing is
    /// published.
    ///
    /// Memory: the retired snapshot's point arrays are kept (when no reader holds it) for
    /// the next change to write into, so a ring that changes holds its continuum twice
    /// (the peak of any change anyway: old and new snapshot side by side).
    pub fn update<E>(
        &self,
        f: impl FnOnce(&Snapshot<X>, &mut Scratch) -> Result<(Ring, X), E>,
    ) -> Result<(), E> {
        // A panic in a previous `f` published nothing, so the state is sound: recover.
        let mut writer = self.writer.lock().unwrap_or_else(PoisonError::into_inner);
        let current = self.current.load_full();
        let (ring, extra) = f(&current, &mut writer.spare)?;
        let next = Arc::new(Snapshot { ring, extra });
        // The plain pointer first: a hazard reader that sees it finds `next` alive (held
        // by the local `next`, then by `current`).
        self.published
            .store(Arc::as_ptr(&next).cast_mut(), Ordering::SeqCst);
        let old = self.current.swap(next);
        drop(current);
        writer.retired.push(old);
        self.release(&mut writer);
        Ok(())
    }

    /// Lets go of every retired snapshot no hazard slot holds: unique then unless an
    /// arc-swap reader still holds it (then it goes with them), and its arrays become the
    /// next change's scratch.
    fn release(&self, writer: &mut Writer<X>) {
        let mut i = 0;
        while i < writer.retired.len() {
            if self.hazards.holds(Arc::as_ptr(&writer.retired[i])) {
                i += 1;
                continue;
            }
            if let Ok(old) = Arc::try_unwrap(writer.retired.swap_remove(i)) {
                writer.spare = old.ring.into_scratch();
            }
        }
    }
}

/// Carries per-server values (a binding's label objects, C pointers, ...) from one ring to the
/// next: for each server of `next`, in server order, the value the server with the same label
/// had in `prev` (`old[j]` for `prev`'s server `j`), or `fresh(server)` for a server `prev`
/// did not have. `old` is parallel to `prev`'s servers.
///
/// Linear for the changes rings make (servers appended, one removed, order kept); any other
/// order falls back to a label index built once.
///
/// ```
/// use ketama_core::{ring::carry, Profile, Ring, Server};
/// let p = Profile::by_name("libketama")?;
/// let a = Ring::with_servers(p, None, ["a:1", "b:1"].map(|l| Server::parse(l, 1).unwrap()))?;
/// let (b, _) = a.with_removed("a:1")?;
/// let b = b.with_added(Server::parse("c:1", 1)?)?;
/// let carried = carry(&a, &["A", "B"], &b, |s| if s.label == "c:1" { "C" } else { "?" });
/// assert_eq!(carried, ["B", "C"]);
/// # Ok::<(), ketama_core::Error>(())
/// ```
pub fn carry<T: Clone>(
    prev: &Ring,
    old: &[T],
    next: &Ring,
    mut fresh: impl FnMut(&Server) -> T,
) -> Vec<T> {
    let label = |j: usize| prev.server(j).map(|s| s.label.as_str());
    let mut out = Vec::with_capacity(next.len());
    let mut index: Option<BTreeMap<&str, usize>> = None;
    let mut j = 0;
    for s in next.servers() {
        let at = if label(j) == Some(s.label.as_str()) {
            j += 1;
            Some(j - 1)
        } else if label(j + 1) == Some(s.label.as_str()) {
            j += 2;
            Some(j - 1)
        } else if j >= prev.len() {
            None // appended
        } else {
            let index = index.get_or_insert_with(|| {
                prev.servers()
                    .enumerate()
                    .map(|(i, s)| (s.label.as_str(), i))
                    .collect()
            });
            index.get(s.label.as_str()).copied()
        };
        match at.and_then(|j| old.get(j)) {
            Some(v) => out.push(v.clone()),
            None => out.push(fresh(s)),
        }
    }
    out
}

impl<T: Clone> SharedRing<Vec<T>> {
    /// [`SharedRing::update`] for per-server data: `f` makes the next ring from the current
    /// one (writing into the retired snapshot's memory, as in `update`); each server's value is carried from the current snapshot ([`carry`]) or made by
    /// `fresh` for a new server. If `f` fails nothing is published.
    pub fn update_servers<E>(
        &self,
        f: impl FnOnce(&Ring, &mut Scratch) -> Result<Ring, E>,
        fresh: impl FnMut(&Server) -> T,
    ) -> Result<(), E> {
        self.update(|now, scratch| {
            let next = f(&now.ring, scratch)?;
            let values = carry(&now.ring, &now.extra, &next, fresh);
            Ok((next, values))
        })
    }
}

impl SharedRing<()> {
    /// Adds a server (see [`Ring::add`]).
    pub fn add(&self, server: Server) -> Result<(), Error> {
        self.update(|s, scratch| Ok((s.ring.with_added_in(server, scratch)?, ())))
    }

    /// Removes a server (see [`Ring::remove`]).
    pub fn remove(&self, label: &str) -> Result<Server, Error> {
        let mut gone = None;
        self.update(|s, scratch| {
            let (ring, server) = s.ring.with_removed_in(label, scratch)?;
            gone = Some(server);
            Ok::<_, Error>((ring, ()))
        })?;
        gone.ok_or(Error::MissingServer)
    }

    /// Changes a server's weight (see [`Ring::set_weight`]).
    pub fn set_weight(&self, label: &str, weight: u32) -> Result<(), Error> {
        self.update(|s, scratch| Ok((s.ring.with_weight_in(label, weight, scratch)?, ())))
    }
}
