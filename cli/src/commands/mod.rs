//! One module per `ketama` command, each with its clap options beside its code. A command
//! uses the shared modules below it ([`crate::args`], [`crate::output`], [`crate::shared`],
//! ...) and the fleet libraries (`ketama-memcache`, `ketama-migrate`), never the dispatcher
//! in `lib.rs`.

pub(crate) mod audit;
pub(crate) mod bucket;
pub(crate) mod compare;
pub(crate) mod conformance;
pub(crate) mod conformance_driver;
pub(crate) mod diff;
pub(crate) mod hash;
pub(crate) mod hashes;
pub(crate) mod lookup;
pub(crate) mod migrate;
pub(crate) mod points;
pub(crate) mod profiles;
pub(crate) mod simulate;
