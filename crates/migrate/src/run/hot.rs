//! `--hot-first`: the moving keys of every listing wait in one spool file per heat rank
//! ([`RANKS`](crate::heat::RANKS) files: hot, then colder and colder, then unknown) until
//! every listing has ended, then go to the workers rank by rank, hottest first. Memory stays
//! bounded (one file buffer per rank); the order within a rank is the listings'.

use super::job::Job;
use super::spool::Spool;
use crate::heat::RANKS;

/// Moving keys waiting by heat rank.
#[derive(Debug)]
pub struct HotSpools {
    window: u64,
    ranks: Vec<Spool<Job>>,
}

impl HotSpools {
    /// Empty spools; `window`: the hot window, seconds.
    pub fn new(window: u64) -> HotSpools {
        HotSpools {
            window,
            ranks: (0..RANKS).map(|_| Spool::new()).collect(),
        }
    }

    /// Puts a job in its rank's file.
    pub fn push(&mut self, job: &Job) -> Result<(), String> {
        let rank = job.heat.rank(self.window);
        self.ranks[rank]
            .push(job)
            .map_err(|e| format!("hot-first {e}"))
    }

    /// Hands every job back, hottest rank first, with its rank, until `each` returns
    /// `false`; the files go after.
    pub fn drain<E: From<String>>(
        self,
        mut each: impl FnMut(usize, Job) -> Result<bool, E>,
    ) -> Result<(), E> {
        let mut go_on = true;
        for (rank, spool) in self.ranks.into_iter().enumerate() {
            if !go_on {
                break;
            }
            spool.drain(|job| -> Result<bool, E> {
                go_on = each(rank, job)?;
                Ok(go_on)
            })?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backend::{Listed, Version};
    use crate::heat::Heat;

    #[test]
    fn jobs_come_back_hottest_first_each_rank_in_order() {
        let mut h = HotSpools::new(60);
        let heats = [
            Heat::Unknown,
            Heat::Idle(10_000),
            Heat::Idle(5),
            Heat::Unread,
            Heat::Freq(9),
            Heat::Idle(100),
        ];
        for i in 0..600u64 {
            let it = Listed {
                key: format!("k{i}").into_bytes(),
                exp: i as i64,
                version: Version(i),
                size: i,
                heat: heats[i as usize % heats.len()],
            };
            h.push(&Job::listed(i as usize % 3, 1, it)).unwrap();
        }
        let mut back = Vec::new();
        h.drain(|rank, job| {
            assert_eq!(job.src as u64, job.version.0 % 3);
            assert_eq!(rank, job.heat.rank(60));
            back.push(job);
            Ok::<bool, String>(true)
        })
        .unwrap();
        assert_eq!(back.len(), 600);
        let ranks: Vec<usize> = back.iter().map(|j| j.heat.rank(60)).collect();
        assert!(ranks.windows(2).all(|w| w[0] <= w[1]), "{ranks:?}");
        assert!(back[..200].iter().all(|j| j.heat.is_hot(60)));
        // Within a rank, the order pushed.
        let idle5: Vec<u64> = back
            .iter()
            .filter(|j| j.heat == Heat::Idle(5))
            .map(|j| j.version.0)
            .collect();
        assert!(idle5.windows(2).all(|w| w[0] < w[1]));
        // A stop ends the drain.
        let mut h = HotSpools::new(60);
        for i in 0..10u64 {
            let it = Listed {
                key: vec![b'a' + i as u8],
                exp: -1,
                version: Version(i),
                size: 1,
                heat: heats[i as usize % heats.len()],
            };
            h.push(&Job::listed(0, 1, it)).unwrap();
        }
        let mut n = 0;
        h.drain(|_, _| {
            n += 1;
            Ok::<bool, String>(n < 3)
        })
        .unwrap();
        assert_eq!(n, 3);
    }
}
