//! The join of one OLD server's moving keys with what the state file records for that
//! server, both in key order, so neither has to fit in memory: the moving keys are sorted
//! on disk ([`Sorter`]), the records are read from the file one at a time. Each moving key
//! comes out as a job carrying its records; each record whose key did not come (the source
//! no longer lists it as moving) comes out as gone.

use ketama_keyset::Record;

use super::error::RunError;
use super::job::Job;
use crate::sort::{Sorted, Sorter};
use crate::state::{Entry, SectionReader};

/// Bytes of moving keys sorted in memory before they spill to scratch files.
pub const SORT_BUDGET: usize = 16 << 20;

/// Moving keys of one OLD server, on their way to be sorted: each with whether it waits for
/// the end of the listings.
#[derive(Debug)]
pub struct Moving {
    sorter: Sorter,
    seq: u64,
}

fn local(e: std::io::Error) -> RunError {
    RunError::Local(format!("sorting the moving keys: {e}"))
}

impl Moving {
    /// None yet.
    pub fn new() -> Moving {
        Moving {
            sorter: Sorter::new(SORT_BUDGET),
            seq: 0,
        }
    }

    /// Adds a job (`held`: it waits until every listing has ended).
    pub fn push(&mut self, job: &Job, held: bool) -> Result<(), RunError> {
        let mut payload = vec![u8::from(held)];
        job.write_to(&mut payload).map_err(local)?;
        self.seq += 1;
        self.sorter
            .push(job.key.clone(), self.seq, payload)
            .map_err(local)
    }

    /// The jobs in key order.
    fn sorted(self) -> Result<Sorted, RunError> {
        self.sorter.finish().map_err(local)
    }
}

fn job_of(payload: &[u8]) -> Result<(Job, bool), RunError> {
    let held = payload.first().is_some_and(|&b| b != 0);
    let mut r = payload.get(1..).unwrap_or_default();
    let job = Job::read_from(&mut r)
        .map_err(local)?
        .ok_or_else(|| RunError::Local("sorting the moving keys: an empty record".into()))?;
    Ok((job, held))
}

/// Joins `moving` with `records`: `each` gets every job (with its recorded copy and
/// intent, and whether it is held), `gone` every record whose key is not among them.
/// `stopping` is asked between keys.
pub fn join(
    moving: Moving,
    records: &mut SectionReader,
    stopping: &dyn Fn() -> bool,
    mut each: impl FnMut(Job, bool) -> Result<(), RunError>,
    mut gone: impl FnMut(Entry) -> Result<(), RunError>,
) -> Result<(), RunError> {
    let mut sorted = moving.sorted()?;
    let mut e = records.next_entry()?;
    let mut r = sorted.next_rec().map_err(local)?;
    loop {
        if stopping() {
            return Ok(());
        }
        let order = match (&e, &r) {
            (None, None) => return Ok(()),
            (Some(_), None) => std::cmp::Ordering::Less,
            (None, Some(_)) => std::cmp::Ordering::Greater,
            (Some(en), Some(rec)) => en.key.as_slice().cmp(&rec.0),
        };
        if order == std::cmp::Ordering::Less {
            gone(e.take().expect("an entry"))?;
            e = records.next_entry()?;
            continue;
        }
        let (mut job, held) = job_of(&r.take().expect("a record").2)?;
        if order == std::cmp::Ordering::Equal {
            let en = e.take().expect("an entry");
            job.copy = en.copy;
            job.intent = en.intent;
            e = records.next_entry()?;
        }
        each(job, held)?;
        r = sorted.next_rec().map_err(local)?;
    }
}
