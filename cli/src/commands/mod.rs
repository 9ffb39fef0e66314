//! One module per `ketama` command, each with its clap options beside its code (`migrate`
//! lives in [`crate::migrate`]). A command uses the shared modules below it ([`crate::args`],
//! [`crate::output`], [`crate::shared`], ...), never the dispatcher in `lib.rs`.

pub mod audit;
pub mod bucket;
pub mod compare;
pub mod conformance;
pub mod conformance_driver;
pub mod diff;
pub mod hash;
pub mod hashes;
pub mod lookup;
pub mod points;
pub mod profiles;
pub mod simulate;
