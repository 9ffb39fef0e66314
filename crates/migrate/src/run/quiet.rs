//! Syncs until quiet: the window between the last run and the clients' switch is as long as
//! the last run, and what writers change in it is stale after the switch. Repeating syncs
//! (each pass copies only what changed since the pass before, so passes get shorter) until a
//! pass changes fewer than a threshold leaves the shortest last pass the write rate allows;
//! its count of changes is the residual to expect from the next one.

use super::counts::get;
use super::engine::run;
use super::error::RunError;
use super::options::RunOptions;
use super::outcome::Outcome;
use crate::backend::Backend;
use crate::placement::Placement;

/// How syncs until quiet ended.
#[derive(Debug)]
pub struct Passes {
    /// Each pass, in order.
    pub passes: Vec<Outcome>,
    /// Whether the last pass changed fewer keys than the threshold.
    pub quiet: bool,
}

impl Passes {
    /// The last pass.
    pub fn last(&self) -> Option<&Outcome> {
        self.passes.last()
    }
}

/// Keys a pass wrote or deleted at the NEW servers: first copies, updates, copies deleted.
pub fn changed(o: &Outcome) -> u64 {
    get(&o.counts.copied) + get(&o.counts.updated) + get(&o.counts.deleted_copies)
}

/// Runs syncs (whole runs with the state file of `opts`) until one changes fewer than
/// `below` keys ([`changed`]), at most `most` passes; a pass that is stopped or incomplete
/// (a server failed) ends them. `each` is told of every pass as it ends.
pub fn until_quiet<B: Backend>(
    pl: &Placement,
    backend: &B,
    opts: &RunOptions<'_>,
    below: u64,
    most: usize,
    each: &mut dyn FnMut(&Outcome),
) -> Result<Passes, RunError> {
    if opts.state.is_none() || opts.dry_run || opts.delete_moved {
        return Err(RunError::Options(
            "syncing until quiet needs a state file, and neither a dry run nor delete_moved".into(),
        ));
    }
    if below == 0 || most == 0 {
        return Err(RunError::Options(
            "syncing until quiet needs a threshold and a number of passes of at least 1".into(),
        ));
    }
    let mut passes = Vec::new();
    loop {
        let o = run(pl, backend, opts)?;
        each(&o);
        let quiet = changed(&o) < below;
        let end = quiet || o.interrupted || o.incomplete() || passes.len() + 1 >= most;
        passes.push(o);
        if end {
            return Ok(Passes { passes, quiet });
        }
    }
}
