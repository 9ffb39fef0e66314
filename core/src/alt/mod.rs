//! Placement beyond the ring: jump, rendezvous and maglev hashing, bucket functions, Anchor
//! and Memento. The [`crate::ring::Ring`] type dispatches to these for the `jump`, `rendezvous` and
//! `maglev` profiles, so they share the ring's API (add, remove, locate, locate_n). Nothing
//! here depends on the ring (bounded loads on top of a ring are
//! `ring::BoundedLoads`).

pub mod anchor;
pub mod bucket;
pub mod jump;
pub mod jumpback_anchor;
pub mod maglev;
pub mod memento;
pub mod rendezvous;
