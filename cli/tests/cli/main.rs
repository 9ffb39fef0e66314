//! Every integration test of the `ketama` command, as modules of one test binary: one link of
//! the CLI's dependency graph per change instead of one per file. Each module holds the tests
//! of one concern (its file's own doc says which); run one with its name, e.g.
//! `cargo test -p ketama-cli --test cli migrate_state::`.
//!
//! The modules share this process, so no test may change process-wide state (environment,
//! working directory, signal dispositions, umask, limits): a program under test gets its
//! settings through its `Command`. Scratch paths carry the process id and a name no other
//! test of the binary uses, and every check on processes is scoped to the PIDs the test
//! itself started.

mod common;

mod bad_input;
mod bucket;
mod cli_basics;
mod cli_diff_compare;
mod cli_lookup;
mod cli_simulate;
mod conformance;
mod conformance_bounds;
mod hostile_paths;
mod live;
mod live_redis;
mod lookup_stream;
mod migrate;
mod migrate_alias;
mod migrate_binary_keys;
mod migrate_faults;
mod migrate_lying;
mod migrate_redis;
mod migrate_scale;
mod migrate_state;
mod migrate_window;
mod packaging;
mod servers_misbehaving;
mod simulate_algorithms;
mod spec;
mod tls;
mod tls_per_side;
mod tls_simulate;
