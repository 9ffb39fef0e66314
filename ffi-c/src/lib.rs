//! # ketama-ffi: the C ABI of ketama
//!
//! Builds `libketama.so` (soname `libketama.so.0`) and `libketama.a`. The API is declared in
//! `include/ketama.h`, generated from this crate by cbindgen (`ffi-c/gen-header.sh`); the
//! original last.fm libketama API lives in [`compat`] and `include/ketama_compat.h`.
//!
//! ## C API conventions
//! - Functions are `ketama_<object>_<verb>`; a `ketama_ring` is created by
//!   `ketama_ring_create()` and freed by `ketama_ring_free()` (`free(NULL)` is a no-op).
//! - Every function returns a `ketama_status` (`KETAMA_STATUS_OK` = 0); outputs come last as
//!   pointers and are written only on success. `ketama_status_str()` describes a status.
//! - Strings are `(const char *, size_t)` pairs (no NUL needed; keys are bytes, labels and
//!   names UTF-8). Strings the library returns are NUL-terminated too.
//! - Every pointer is checked (`KETAMA_STATUS_NULL_ARGUMENT`), every body runs inside
//!   `catch_unwind` (`KETAMA_STATUS_PANIC`): no panic ever crosses into C.
//! - Thread safety: see `ketama_ring` (lookups in parallel, changes serialized, labels valid
//!   until the ring is freed).

#![deny(missing_docs)]

mod boundary;
pub mod bucket;
pub mod compat;
pub mod ring;

/// Continua over raw node names (after `ring`: the header lists them after the rings).
pub mod raw;

// After `ring`: cbindgen writes the header's functions in declaration order.
pub mod info;
mod split;
pub mod status;

pub use ring::ketama_ring;
pub use status::ketama_status;
