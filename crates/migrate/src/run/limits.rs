//! How much work travels at once.

/// Keys per pipelined batch.
pub const BATCH: usize = 1024;
/// Value bytes per batch (from the listed item sizes) before it is sent.
pub const BATCH_BYTES: u64 = 4 << 20;
