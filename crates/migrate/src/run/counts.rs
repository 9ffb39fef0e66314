//! The counters of a run, shared by its workers: what happened to each key listed.

use std::sync::atomic::{AtomicU64, Ordering};

/// Counters of one run (shared by the workers).
#[derive(Debug, Default)]
pub struct Counts {
    /// Keys listed on the shard's OLD servers.
    pub listed: AtomicU64,
    /// Keys whose server does not change.
    pub stay: AtomicU64,
    /// Keys misplaced under the OLD placement (not copied).
    pub stale: AtomicU64,
    /// Keys expired at the source (not copied).
    pub expired: AtomicU64,
    /// Keys the NEW placement has no server for.
    pub no_new_owner: AtomicU64,
    /// Moving keys (the work).
    pub moving: AtomicU64,
    /// Copies written.
    pub copied: AtomicU64,
    /// Copies updated (source changed since copied).
    pub updated: AtomicU64,
    /// Copies already up to date (state: source unchanged).
    pub unchanged: AtomicU64,
    /// Keys the NEW owner already held (not overwritten).
    pub kept: AtomicU64,
    /// Copies a client changed after the tool wrote them (left alone).
    pub client_changed: AtomicU64,
    /// Writes of an earlier run whose outcome was unknown (stopped, killed, a server that
    /// stalled), found on the NEW server as the tool wrote them and recorded.
    pub settled: AtomicU64,
    /// Copies whose recorded version was not sure (their server restarted since) found
    /// holding what the tool wrote, and recorded again.
    pub verified: AtomicU64,
    /// Keys gone at the source between listing and reading.
    pub vanished: AtomicU64,
    /// Copies deleted because their source is gone.
    pub deleted_copies: AtomicU64,
    /// `--delete-moved`: OLD copies deleted.
    pub deleted_old: AtomicU64,
    /// `--delete-moved`: OLD copies kept because the NEW owner does not hold the key.
    pub not_held: AtomicU64,
    /// `--delete-moved`: OLD copies kept because they changed since they were listed.
    pub changed_at_source: AtomicU64,
    /// Keys the NEW server refused (`SERVER_ERROR`, e.g. over its item size limit).
    pub refused: AtomicU64,
    /// Keys the backend cannot name (memcached: binary keys over 186 bytes, whose base64 is
    /// over 250).
    pub unsendable: AtomicU64,
    /// Keys not copied (or not deleted) because a server failed.
    pub failed: AtomicU64,
    /// Keys handled (for the progress bar).
    pub done: AtomicU64,
    /// Keys that expire within the run's `min_ttl` (not copied).
    pub short_ttl: AtomicU64,
    /// Moving keys that were hot (read within the hot window), with `hot_first`.
    pub hot: AtomicU64,
    /// Bytes of the values read from the OLD servers.
    pub bytes_read: AtomicU64,
}

/// Adds `n` to a counter.
pub fn inc(a: &AtomicU64, n: u64) {
    a.fetch_add(n, Ordering::Relaxed);
}

/// A counter's value.
pub fn get(a: &AtomicU64) -> u64 {
    a.load(Ordering::Relaxed)
}
