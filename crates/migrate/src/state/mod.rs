//! The state file of a run: every copy the tool made (and every write whose outcome it does
//! not know), so a later run can sync, on disk: memory does not grow with the number of
//! keys recorded.
//!
//! Format (text, one record per line, fields separated by one space; keys in lowercase hex,
//! labels as in the servers files):
//! ```text
//! ketama-migrate-state 2
//! s old|new <label> <started> <process>         (or `-`: not known)
//! c <old-label> <key> <new-label> <src-version> <copy-version> <digest>
//! i <old-label> <key> <new-label> <src-version> <digest>
//! j
//! (the journal of the last run: c, i, x <old-label> <key>, d <old-label> <key>)
//! ```
//! - `s` lines name the server process whose versions the records give (memcached: pid and
//!   start time; Redis: run id). A version from a process since gone is kept marked `?`
//!   (not sure): memcached's CAS counter starts again with its process, so a client's item
//!   may carry a recorded CAS; such a copy is recognised by its value ([`digest`]) instead.
//! - `c` records a copy: the key was read at `<old-label>` while its version there was
//!   `<src-version>` and written to `<new-label>`, where it got `<copy-version>`; `<digest>`
//!   is the digest of what was written (`-`: unknown, from the first format).
//! - `i` records an *intent*: a write about to be sent, appended and flushed before it is.
//!   A later `c` (written), `x` (not written) or `d` (forgotten) settles it; one left open
//!   (the run was stopped, killed or its server stalled) is settled by the next run, which
//!   reads the copy: holding what the intent wrote (same digest), it is the tool's.
//! - Between the header and `j` the records are sorted by OLD label, then key, one `c` and
//!   at most one `i` per key; after `j` a run appends its journal, flushed before every
//!   round of writes and after every round of replies. A journal is merged into the sorted
//!   records (in bounded memory, [`crate::sort`]) when the next run opens the file and when
//!   a run ends, into a new file written beside it and renamed over it, so the file on disk
//!   is always whole. A last line cut short by a crash is ignored.
//!
//! One run at a time: a run holds `<file>.lock` (`flock`), and a second is refused, naming
//! the PID of the first. Every file is created afresh (never through a link someone
//! planted), readable by this user only. A line that is not a record, longer than a record
//! can be, or naming a key the servers cannot be asked for is refused with its file and
//! line. A file of the first format (`ketama-migrate-state 1`) is read (into memory, once)
//! and rewritten in this one.

mod compact;
mod file;
mod ids;
mod line;
mod scan;
mod section;
mod store;

pub use ids::{Ids, Seen};
pub use line::{ident_text, same_process, Ver};
pub use section::{Copy, Entry, Intent, SectionReader};
pub use store::{Record, State};

use std::fmt;

/// A state file that cannot be read or written: the message names the file (and the line).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StateError(pub String);

impl fmt::Display for StateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for StateError {}

/// The digest of an item's data and client flags, as recorded with a copy: a copy whose
/// digest is the recorded one holds what the tool wrote.
pub fn digest(data: &[u8], flags: u32) -> u64 {
    xxhash_rust::xxh3::xxh3_64_with_seed(data, u64::from(flags))
}

#[cfg(test)]
mod tests;
