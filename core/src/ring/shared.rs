//! A ring shared between threads whose readers never wait: the current snapshot is published
//! through an atomic pointer ([`arc_swap::ArcSwap`]); a lookup loads it without taking a lock;
//! a change builds the next snapshot aside (under a writers-only mutex) and swaps it in. A
//! reader holding an old snapshot keeps it alive until it lets go.

use std::sync::{Arc, Mutex, PoisonError};

use arc_swap::{ArcSwap, Guard};

use super::Ring;
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
/// shared.update(|s| {
///     let mut ring = s.ring.clone();
///     ring.add(Server::parse("10.0.0.1:11211", 1)?)?;
///     Ok::<_, ketama_core::Error>((ring, ()))
/// })?;
/// assert_eq!(shared.load().ring.locate(b"k")?.label, "10.0.0.1:11211");
/// # Ok::<(), ketama_core::Error>(())
/// ```
#[derive(Debug)]
pub struct SharedRing<X = ()> {
    current: ArcSwap<Snapshot<X>>,
    writer: Mutex<()>,
}

impl<X> SharedRing<X> {
    /// Publishes `ring` with its derived data.
    pub fn new(ring: Ring, extra: X) -> SharedRing<X> {
        SharedRing {
            current: ArcSwap::from_pointee(Snapshot { ring, extra }),
            writer: Mutex::new(()),
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

    /// Applies a change: `f` gets the current snapshot and returns the next ring and its
    /// derived data, which are then published. Changes are serialised; readers go on with
    /// the old snapshot meanwhile. If `f` fails nothing is published.
    pub fn update<E>(&self, f: impl FnOnce(&Snapshot<X>) -> Result<(Ring, X), E>) -> Result<(), E> {
        // A panic in a previous `f` published nothing, so the state is sound: recover.
        let _writer = self.writer.lock().unwrap_or_else(PoisonError::into_inner);
        let current = self.current.load_full();
        let (ring, extra) = f(&current)?;
        self.current.store(Arc::new(Snapshot { ring, extra }));
        Ok(())
    }
}

impl SharedRing<()> {
    /// Adds a server (see [`Ring::add`]).
    pub fn add(&self, server: Server) -> Result<(), Error> {
        self.update(|s| Ok((s.ring.with_added(server)?, ())))
    }

    /// Removes a server (see [`Ring::remove`]).
    pub fn remove(&self, label: &str) -> Result<Server, Error> {
        let mut gone = None;
        self.update(|s| {
            let (ring, server) = s.ring.with_removed(label)?;
            gone = Some(server);
            Ok::<_, Error>((ring, ()))
        })?;
        gone.ok_or(Error::MissingServer)
    }

    /// Changes a server's weight (see [`Ring::set_weight`]).
    pub fn set_weight(&self, label: &str, weight: u32) -> Result<(), Error> {
        self.update(|s| Ok((s.ring.with_weight(label, weight)?, ())))
    }
}
