//! Benchmarks and timing examples of `ketama-core`, kept out of its dev-dependencies:
//! `cargo bench -p ketama-bench` (criterion; `--bench lookup|change|buckets|md5`) and
//! `cargo run --release -p ketama-bench --example changeloop|changetime|scale`.
