//! `ketama migrate plan | run | verify | report`: copy exactly the keys whose server changes when a
//! fleet is resized or its clients switch placement, before the clients switch. The work is
//! `ketama-migrate`'s; this command reads the options, prints, and sets the exit status.
//!
//! OLD is the fleet as today's clients see it (servers file `--servers`, profile `--profile`,
//! hash `--hash`); NEW as tomorrow's clients will (`--to`, `--to-profile`, `--to-hash`,
//! defaulting to the OLD profile and hash).
//!
//! Exit status: 0 on success, 1 when `verify` finds keys that NEW clients cannot reach, 3 when
//! a server did not answer (or, for `run`, some keys could not be copied), 2 on bad usage or
//! input, or when interrupted.

mod args;
mod dispatch;
mod plan;
mod report;
mod run;
mod run_report;
mod scale_args;
mod setup;
mod verify;

pub(crate) use args::MigrateArgs;
pub(crate) use dispatch::main;
