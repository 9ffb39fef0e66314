//! Placement beyond the ring: jump, rendezvous and maglev hashing, and bounded loads on top of
//! any ring ([`bounded::BoundedLoads`]). The [`crate::Ring`] type
//! dispatches to these for the `jump`, `rendezvous` and `maglev` profiles, so they share the
//! ring's API (add, remove, locate, locate_n).

pub mod anchor;
pub mod bounded;
pub mod bucket;
pub mod jump;
pub mod jumpback_anchor;
pub mod maglev;
pub mod memento;
pub mod rendezvous;
