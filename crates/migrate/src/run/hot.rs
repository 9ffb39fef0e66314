//! `--hot-first`: the moving keys of every listing wait in one scratch file per heat rank
//! ([`RANKS`](crate::heat::RANKS) files: hot, then colder and colder, then unknown) until
//! every listing has ended, then go to the workers rank by rank, hottest first. Memory stays
//! bounded (a 64 KB buffer per file); the order within a rank is the listings'.

use std::fs::File;
use std::io::{self, BufReader, BufWriter, Write};
use std::path::PathBuf;

use ketama_keyset::{read_keyed, scratch, write_keyed};

use crate::backend::{Listed, Version};
use crate::heat::{Heat, RANKS};

/// Buffer of each file.
const BUFFER: usize = 64 * 1024;

/// One rank's file (created on its first key, removed when dropped).
#[derive(Debug, Default)]
struct RankFile {
    path: PathBuf,
    out: Option<BufWriter<File>>,
}

impl Drop for RankFile {
    fn drop(&mut self) {
        if self.out.take().is_some() {
            let _ = std::fs::remove_file(&self.path);
        }
    }
}

/// Moving keys waiting by heat rank.
#[derive(Debug)]
pub struct HotSpools {
    window: u64,
    ranks: Vec<RankFile>,
}

fn failed(path: &std::path::Path, e: io::Error) -> String {
    format!("hot-first spool file {}: {e}", path.display())
}

impl HotSpools {
    /// Empty spools; `window`: the hot window, seconds.
    pub fn new(window: u64) -> HotSpools {
        HotSpools {
            window,
            ranks: (0..RANKS).map(|_| RankFile::default()).collect(),
        }
    }

    /// Puts a moving key listed on OLD server `src` in its rank's file.
    pub fn push(&mut self, src: usize, it: &Listed) -> Result<(), String> {
        let rank = it.heat.rank(self.window);
        let f = &mut self.ranks[rank];
        if f.out.is_none() {
            let (path, file) = scratch::create_fresh("hot").map_err(|e| {
                format!(
                    "hot-first spool file in {}: {e}",
                    std::env::temp_dir().display()
                )
            })?;
            f.path = path;
            f.out = Some(BufWriter::with_capacity(BUFFER, file));
        }
        let w = f.out.as_mut().expect("created above");
        let nums = [
            src as u64,
            it.version.0,
            it.exp as u64,
            it.size,
            it.heat.pack(),
        ];
        write_keyed(w, &it.key, nums).map_err(|e| failed(&f.path, e))
    }

    /// Hands every key back, hottest rank first, with its rank and OLD server, until `each`
    /// returns `false`; the files are removed after.
    pub fn drain<E: From<String>>(
        mut self,
        mut each: impl FnMut(usize, usize, Listed) -> Result<bool, E>,
    ) -> Result<(), E> {
        for (rank, f) in self.ranks.iter_mut().enumerate() {
            let Some(w) = f.out.as_mut() else { continue };
            w.flush().map_err(|e| E::from(failed(&f.path, e)))?;
            let file = File::open(&f.path).map_err(|e| E::from(failed(&f.path, e)))?;
            let mut r = BufReader::with_capacity(BUFFER, file);
            while let Some((key, [src, version, exp, size, heat])) =
                read_keyed(&mut r).map_err(|e| E::from(failed(&f.path, e)))?
            {
                let it = Listed {
                    key,
                    exp: exp as i64,
                    version: Version(version),
                    size,
                    heat: Heat::unpack(heat),
                };
                if !each(rank, src as usize, it)? {
                    return Ok(());
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_come_back_hottest_first_and_the_files_go() {
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
            h.push(i as usize % 3, &it).unwrap();
        }
        let paths: Vec<PathBuf> = h
            .ranks
            .iter()
            .filter(|f| f.out.is_some())
            .map(|f| f.path.clone())
            .collect();
        assert_eq!(paths.len(), 5);
        let mut back = Vec::new();
        h.drain(|rank, src, it| {
            assert_eq!(src as u64, it.version.0 % 3);
            assert_eq!(rank, it.heat.rank(60));
            back.push(it);
            Ok::<bool, String>(true)
        })
        .unwrap();
        assert_eq!(back.len(), 600);
        let ranks: Vec<usize> = back.iter().map(|it| it.heat.rank(60)).collect();
        assert!(ranks.windows(2).all(|w| w[0] <= w[1]), "{ranks:?}");
        assert!(back[..200].iter().all(|it| it.heat.is_hot(60)));
        assert!(paths.iter().all(|p| !p.exists()));
    }
}
