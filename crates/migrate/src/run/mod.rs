//! A run: copies each moving key from its OLD owner to its NEW owner.
//!
//! 1. Every NEW server must answer and support the requests, or nothing starts
//!    ([`preflight`]).
//! 2. Each OLD server of the shard is listed in turn into a spool file, and the moving keys
//!    of each listed server are fed to the workers while the next one is listed (`feed`):
//!    memory does not grow with the number of keys (only the state file is in memory).
//! 3. `concurrency` workers take batches of moving keys: one pipelined round of reads on the
//!    sources, then one of writes on the NEW owners (`copy`): write-if-absent for a first
//!    copy, update-if-unchanged for a copy whose source changed. The remaining TTL is kept;
//!    an expired key is not copied. At most one batch of values per worker is in memory.
//! 4. With a state file, copies whose source is gone are deleted (again only if no client
//!    changed them).
//!
//! 5. [`until_quiet`] repeats such syncs until one changes fewer keys than a threshold, so
//!    the last one before the clients switch is as short as the writers allow.
//!
//! At fleet scale ([`Scale`]): keys about to expire are left out, the hottest keys can go
//! first (their listings then all end before the copy starts), and a [`Throttle`] limits the
//! bytes read per second, overall and per OLD server.
//!
//! A server that fails mid-run is named in [`Outcome::dead`]; the keys not copied because of
//! it are counted; a rerun (with the same state file) completes the work. Every write is one
//! request, which the server applies whole or not at all.

mod check;
mod copy;
mod counts;
mod delete;
mod engine;
mod error;
mod feed;
mod hot;
mod job;
mod join;
mod limits;
mod options;
mod outcome;
mod pool;
mod quiet;
mod scale;
mod shared;
mod spool;
mod throttle;

pub use counts::{get, Counts};
pub use engine::{preflight, run};
pub use error::RunError;
pub use options::{Progress, RunOptions};
pub use outcome::Outcome;
pub use quiet::{changed, until_quiet, Passes};
pub use scale::Scale;
pub use throttle::{ByteLimits, Clock, RealClock, Throttle};
