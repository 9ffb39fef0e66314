//! Every integration test of the migration engine, as modules of one test binary: one link
//! per change instead of one per file. Run one module with its name, e.g.
//! `cargo test -p ketama-migrate --test engine redis_backend::`.
//!
//! The modules share this process, so no test may change process-wide state (environment,
//! working directory, signal dispositions): scratch paths carry the process id and a name no
//! other test of the binary uses, and servers are started on free ports.

mod fleet_scale;
mod memcached;
mod memory_backend;
mod redis_backend;
