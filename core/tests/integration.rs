//! Every integration test of ketama-core except the tables (`tests/tables.rs`), as modules
//! of one test binary: one link per change instead of one per file. Run one file's tests
//! with its module name, e.g. `cargo test -p ketama-core --test integration vectors::`.

mod anchor_memento;
mod buckets;
mod failover_dead;
mod family_hashes;
mod jumpback_anchor;
mod labels;
mod options;
mod ring;
mod shared;
mod vectors;
