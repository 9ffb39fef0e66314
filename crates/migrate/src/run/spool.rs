//! Listed keys spooled to a temporary file, so memory does not grow with their number: a
//! server's listing waits here for the copy, and a key whose NEW owner is an OLD server not
//! yet listed waits until every listing has ended.

use std::fs::File;
use std::io::{self, BufReader, BufWriter, Read, Write};
use std::path::PathBuf;

use ketama_keyset::{read_keyed, scratch, write_keyed, Record};

use crate::backend::{Listed, Version};
use crate::heat::Heat;

impl Record for Listed {
    fn key(&self) -> &[u8] {
        &self.key
    }

    fn write_to<W: Write>(&self, w: &mut W) -> io::Result<()> {
        let nums = [self.version.0, self.exp as u64, self.size, self.heat.pack()];
        write_keyed(w, &self.key, nums)
    }

    fn read_from<R: Read>(r: &mut R) -> io::Result<Option<Listed>> {
        Ok(
            read_keyed(r)?.map(|(key, [version, exp, size, heat])| Listed {
                key,
                exp: exp as i64,
                version: Version(version),
                size,
                heat: Heat::unpack(heat),
            }),
        )
    }
}

/// Buffer size of the file's reader and writer.
const BUFFER: usize = 256 * 1024;

/// A spool file of listed keys (their [`Record`]s), created on the first key and removed
/// when dropped.
#[derive(Debug)]
pub struct Spool {
    /// The file's path, once created.
    path: PathBuf,
    out: Option<BufWriter<File>>,
}

impl Drop for Spool {
    fn drop(&mut self) {
        if self.out.take().is_some() {
            let _ = std::fs::remove_file(&self.path);
        }
    }
}

impl Spool {
    /// An empty spool (no file yet).
    pub fn new() -> Spool {
        Spool {
            path: PathBuf::new(),
            out: None,
        }
    }

    fn failed(&self, e: std::io::Error) -> String {
        format!("spool file {}: {e}", self.path.display())
    }

    /// Appends one listed key.
    pub fn push(&mut self, it: &Listed) -> Result<(), String> {
        if self.out.is_none() {
            let (path, f) = scratch::create_fresh("spool").map_err(|e| {
                let dir = std::env::temp_dir();
                format!("spool file in {}: {e}", dir.display())
            })?;
            self.path = path;
            self.out = Some(BufWriter::with_capacity(BUFFER, f));
        }
        let w = self.out.as_mut().expect("created above");
        it.write_to(w).map_err(|e| self.failed(e))
    }

    /// Reads the keys back, in the order pushed, to `each` until it returns `false`; the
    /// file is removed after.
    pub fn drain<E: From<String>>(
        mut self,
        mut each: impl FnMut(Listed) -> Result<bool, E>,
    ) -> Result<(), E> {
        let Some(w) = self.out.as_mut() else {
            return Ok(());
        };
        w.flush().map_err(|e| E::from(self.failed(e)))?;
        let bad = |e: std::io::Error| E::from(format!("spool file {}: {e}", self.path.display()));
        let mut r = BufReader::with_capacity(BUFFER, File::open(&self.path).map_err(bad)?);
        while let Some(it) = Listed::read_from(&mut r).map_err(bad)? {
            if !each(it)? {
                break;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_come_back_in_order_and_the_file_goes() {
        let mut s = Spool::new();
        let items: Vec<Listed> = (0..3000u64)
            .map(|i| Listed {
                key: format!("k{i}\0%").into_bytes(),
                exp: if i % 2 == 0 {
                    -1
                } else {
                    1_700_000_000 + i as i64
                },
                version: Version(i * 7),
                size: i + 60,
                heat: Heat::Idle(i),
            })
            .collect();
        for it in &items {
            s.push(it).unwrap();
        }
        let path = s.path.clone();
        assert!(path.exists());
        let mut back = Vec::new();
        s.drain(|it| {
            back.push(it);
            Ok::<bool, String>(true)
        })
        .unwrap();
        assert_eq!(back, items);
        assert!(!path.exists());
    }

    #[test]
    fn an_empty_spool_makes_no_file() {
        let s = Spool::new();
        assert!(s.out.is_none());
        let mut n = 0;
        s.drain(|_| {
            n += 1;
            Ok::<bool, String>(true)
        })
        .unwrap();
        assert_eq!(n, 0);
    }
}
