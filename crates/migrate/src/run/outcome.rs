//! What a run did, for the caller's report.

use super::counts::{get, Counts};
use crate::backend::ListSummary;

/// The result of a run.
#[derive(Debug)]
pub struct Outcome {
    /// What happened to the keys.
    pub counts: Counts,
    /// Servers that failed: label, first error.
    pub dead: Vec<(String, String)>,
    /// Each OLD server listed to its end: label, how.
    pub listings: Vec<(String, ListSummary)>,
    /// Whether some OLD server was listed by a method that may miss keys.
    pub partial: bool,
    /// Whether the caller's stop ended the run.
    pub interrupted: bool,
    /// Copies the state file recorded for servers no longer in the fleets (forgotten).
    pub forgotten: usize,
    /// Seconds the work took.
    pub seconds: f64,
    /// Seconds from the start until the last OLD server was listed (copying overlaps it).
    pub list_seconds: f64,
}

impl Outcome {
    /// Whether some keys were not done (a server failed or refused items, or a listing
    /// skipped lines).
    pub fn incomplete(&self) -> bool {
        !self.dead.is_empty()
            || get(&self.counts.failed) > 0
            || get(&self.counts.refused) > 0
            || self.listings.iter().any(|(_, l)| l.bad_count > 0)
    }
}
