//! Placement beyond the ring: jump, rendezvous and maglev hashing. The [`crate::Ring`] type
//! dispatches to these for the `jump`, `rendezvous` and `maglev` profiles, so they share the
//! ring's API (add, remove, locate, locate_n).

pub mod jump;
pub mod maglev;
pub mod rendezvous;
