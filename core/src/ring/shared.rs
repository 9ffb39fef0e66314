//! A ring shared between threads whose readers never wait: the current snapshot is published
//! through an atomic pointer ([`arc_swap::ArcSwap`]); a lookup loads it without taking a lock;
//! a change builds the next snapshot aside (under a writers-only mutex) and swaps it in. A
//! reader holding an old snapshot keeps it alive until it lets go.

use std::sync::{Arc, Mutex, PoisonError};

use arc_swap::{ArcSwap, Guard};

use super::compiled::Ring;
use super::scratch::Scratch;
use crate::error::Error;
use crate::server::Server;

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
#[derive(Debug)]
pub struct SharedRing<X = ()> {
    current: ArcSwap<Snapshot<X>>,
    /// Serialises changes; holds the point arrays of the last retired snapshot (when no
    /// reader kept it), passed to the next change so that it writes into memory already
    /// faulted in (see [`Scratch`]).
    writer: Mutex<Scratch>,
}

impl<X> SharedRing<X> {
    /// Publishes `ring` with its derived data.
    pub fn new(ring: Ring, extra: X) -> SharedRing<X> {
        SharedRing {
            current: ArcSwap::from_pointee(Snapshot { ring, extra }),
            writer: Mutex::new(Scratch::default()),
        }
    }

    /// The current snapshot, without locking (a few ns; never waits for a writer).
    #[inline]
    pub fn load(&self) -> Guard<Arc<Snapshot<X>>> {
        self.current.load()
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
        let mut spare = self.writer.lock().unwrap_or_else(PoisonError::into_inner);
        let current = self.current.load_full();
        let (ring, extra) = f(&current, &mut spare)?;
        let old = self.current.swap(Arc::new(Snapshot { ring, extra }));
        drop(current);
        // Unique once swapped out unless a reader still holds it (then it goes with them).
        if let Ok(old) = Arc::try_unwrap(old) {
            *spare = old.ring.into_scratch();
        }
        Ok(())
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
