# The packages and features of the rust stage's one build (`cargo test`), sourced by
# tests/run-all.sh, which builds and tests them, and by tests/one-build.sh, which checks that
# the later `cargo build -p ...` calls reuse that build. ketama-py is built by maturin
# (python/); ketama-bench holds only benchmarks and examples (clippy compiles them);
# test-panic is the C tests' feature, so the C stage's library is this build's.
# shellcheck disable=SC2034
test_build=(--workspace --exclude ketama-py --exclude ketama-bench --features ketama-ffi/test-panic)
