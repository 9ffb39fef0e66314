//! How a run works: its options, and what it tells the caller as it goes.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use super::error::RunError;
use super::scale::Scale;

/// Told how a run advances (a progress bar, a log line): called about every 100 ms while the
/// run works, from a thread of the run's own.
pub trait Progress: Sync {
    /// Keys listed on the OLD servers so far, and keys handled (copied, skipped, failed).
    fn advance(&self, listed: u64, handled: u64);
}

/// How a run works (besides the placement and the backend).
#[derive(Clone)]
pub struct RunOptions<'a> {
    /// The state file: records each copy, so a later run syncs (copies new keys, updates
    /// copies whose source changed, deletes copies whose source is gone, never touches a
    /// copy a client changed).
    pub state: Option<String>,
    /// At most this many keys per second (all connections together).
    pub rate: Option<u64>,
    /// Parallel connections (each pipelines many requests), 1 to 1024.
    pub concurrency: usize,
    /// List and count what would be copied; write nothing.
    pub dry_run: bool,
    /// Instead of copying: delete each moved key from its OLD server, but only where its
    /// NEW owner holds it.
    pub delete_moved: bool,
    /// Only the OLD servers whose position (0-based, file order) is I mod N: `(I, N)`.
    pub shard: Option<(usize, usize)>,
    /// Raised by the caller to stop the run within a second (what was done is kept and
    /// recorded); the backend's connections must watch the same flag.
    pub stop: Arc<AtomicBool>,
    /// Told how the run advances.
    pub progress: Option<&'a dyn Progress>,
    /// What changes at fleet scale: keys about to expire left out, hot keys first, a byte
    /// limit.
    pub scale: Scale,
}

impl std::fmt::Debug for RunOptions<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RunOptions")
            .field("state", &self.state)
            .field("rate", &self.rate)
            .field("concurrency", &self.concurrency)
            .field("dry_run", &self.dry_run)
            .field("delete_moved", &self.delete_moved)
            .field("shard", &self.shard)
            .field("progress", &self.progress.is_some())
            .field("scale", &self.scale)
            .finish_non_exhaustive()
    }
}

impl RunOptions<'_> {
    /// A copy of every key that moves, 4 connections, no rate limit, no state, stopped by
    /// `stop`.
    pub fn new(stop: Arc<AtomicBool>) -> RunOptions<'static> {
        RunOptions {
            state: None,
            rate: None,
            concurrency: 4,
            dry_run: false,
            delete_moved: false,
            shard: None,
            stop,
            progress: None,
            scale: Scale::default(),
        }
    }

    /// Refuses options that cannot work.
    pub fn check(&self) -> Result<(), RunError> {
        if self.concurrency == 0 || self.concurrency > 1024 {
            return Err(RunError::Options(
                "the concurrency must be 1 to 1024".into(),
            ));
        }
        if self.rate == Some(0) {
            return Err(RunError::Options(
                "the rate must be at least 1 key per second".into(),
            ));
        }
        if let Some(t) = &self.scale.throttle {
            let l = t.limits();
            if l.overall == Some(0) || l.per_server == Some(0) {
                return Err(RunError::Options(
                    "a byte limit must be at least 1 byte per second".into(),
                ));
            }
        }
        if let Some((i, n)) = self.shard {
            if n == 0 || i >= n {
                return Err(RunError::Options(format!(
                    "shard {i}/{n}: expected I/N with 0 <= I < N"
                )));
            }
        }
        Ok(())
    }
}
