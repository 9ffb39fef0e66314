//! How much work travels at once.

/// Keys per pipelined batch.
pub const BATCH: usize = 1024;
/// Value bytes per batch: the feeder's batches by listed item sizes, and what a worker's
/// round of reads keeps in memory (by the sizes actually read).
pub const BATCH_BYTES: u64 = 4 << 20;
