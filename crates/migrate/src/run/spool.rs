//! Records spooled to a temporary file, so memory does not grow with their number: a
//! server's listing waits here for the copy, a key whose NEW owner is an OLD server not yet
//! listed waits until every listing has ended, and a recorded copy whose source is gone
//! waits for the end of the run.

use std::fs::File;
use std::io::{self, BufReader, BufWriter, Read, Seek, SeekFrom, Write};

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

/// A spool file of records (listed keys, jobs), created on the first record: an anonymous
/// scratch file, so whatever ends the process, no file of keys stays behind.
#[derive(Debug)]
pub struct Spool<T = Listed> {
    out: Option<BufWriter<File>>,
    records: std::marker::PhantomData<fn(T) -> T>,
}

impl<T: Record> Default for Spool<T> {
    fn default() -> Self {
        Spool::new()
    }
}

fn failed(e: std::io::Error) -> String {
    let dir = std::env::temp_dir();
    format!("spool file in {}: {e}", dir.display())
}

impl<T: Record> Spool<T> {
    /// An empty spool (no file yet).
    pub fn new() -> Spool<T> {
        Spool {
            out: None,
            records: std::marker::PhantomData,
        }
    }

    /// Appends one record.
    pub fn push(&mut self, it: &T) -> Result<(), String> {
        if self.out.is_none() {
            let f = scratch::anonymous("spool").map_err(failed)?;
            self.out = Some(BufWriter::with_capacity(BUFFER, f));
        }
        let w = self.out.as_mut().expect("created above");
        it.write_to(w).map_err(failed)
    }

    /// Reads the records back, in the order pushed, to `each` until it returns `false`; the
    /// file goes after.
    pub fn drain<E: From<String>>(
        mut self,
        mut each: impl FnMut(T) -> Result<bool, E>,
    ) -> Result<(), E> {
        let Some(w) = self.out.take() else {
            return Ok(());
        };
        let mut f = w
            .into_inner()
            .map_err(|e| E::from(failed(e.into_error())))?;
        f.seek(SeekFrom::Start(0)).map_err(|e| E::from(failed(e)))?;
        let mut r = BufReader::with_capacity(BUFFER, f);
        while let Some(it) = T::read_from(&mut r).map_err(|e| E::from(failed(e)))? {
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
    fn keys_come_back_in_order() {
        let mut s: Spool = Spool::new();
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
        let mut back = Vec::new();
        s.drain(|it| {
            back.push(it);
            Ok::<bool, String>(true)
        })
        .unwrap();
        assert_eq!(back, items);
    }

    #[test]
    fn an_empty_spool_makes_no_file() {
        let s: Spool = Spool::new();
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
