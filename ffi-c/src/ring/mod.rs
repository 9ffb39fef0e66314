//! `ketama_ring`: a continuum for one client profile, behind an opaque handle.
//!
//! cbindgen writes the header's functions in the order of these module declarations (then
//! of the items in each file): keep the groups below in that order.

/// Creating rings.
mod create;

/// The opaque handle, its snapshots and labels, and freeing.
mod handle;

/// Adding, removing and reweighting servers.
mod change;

/// Placement options (hash tag, key prefix).
mod options;

/// One key's server.
mod lookup;

/// Many keys' servers in one call.
mod batch;

/// Several servers for one key, and failover.
mod walk;

/// Key hashes, servers and points of a ring.
mod inspect;

pub use batch::*;
pub(crate) use change::blamed;
pub use change::*;
pub use create::*;
pub use handle::ketama_ring;
pub use handle::ketama_ring_free;
pub use inspect::*;
pub use lookup::*;
pub use options::*;
pub use walk::*;
