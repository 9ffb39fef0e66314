//! The migration engine of `ketama migrate`: copy exactly the keys whose server changes when a
//! fleet is resized or its clients switch placement, before the clients switch, never
//! overwriting newer data.
//!
//! - [`Placement`]: OLD and NEW fleets, each a ring and its servers, and the [`Fate`] of a
//!   key listed on an OLD server.
//! - [`plan()`]: what a migration would copy (listings only).
//! - [`run()`]: the copy (or the sync with a state file, or `delete_moved`), with
//!   [`RunOptions`] passed in: the caller's stop flag and a [`Progress`] callback. Nothing is
//!   printed, no signal handler installed.
//! - [`verify()`]: every key on NEW where the NEW placement looks.
//! - [`same`]: one server under two labels, found by its identity before any of them works
//!   (joined across the fleets, refused within one: [`SameServer`]).
//! - [`state`]: the state file of runs (every copy made, for the next run's sync).
//! - [`backend`]: what the engine asks of a server, behind the [`Backend`] and
//!   [`Connection`] traits, with two implementations: memcached ([`Memcached`]) and Redis
//!   or Valkey ([`Redis`]), and [`AnyBackend`], either of them chosen at run time.
#![deny(missing_docs)]

pub mod backend;
mod clock;
pub mod heat;
mod placement;
mod plan;
pub mod run;
pub mod same;
mod sort;
pub mod state;
mod verify;

pub use backend::{AnyBackend, Backend, Connection, Memcached, Redis};
pub use heat::Heat;
pub use placement::{address, Fate, Fleet, Placement};
pub use plan::{plan, plan_with, Plan, PlanOptions, Tally};
pub use run::{run, Outcome, Progress, RunError, RunOptions};
pub use same::SameServer;
pub use verify::{verify, ServerCheck};
