//! One key to work on ([`Job`]): where it is, what the listing said, what the state file
//! says of it; and its form in a spool file, so jobs wait on disk rather than in memory.

use std::io::{self, Read, Write};

use ketama_keyset::Record;

use crate::backend::{Listed, Version};
use crate::heat::Heat;
use crate::state::{Copy, Intent, Ver};

/// One key to copy (or, with `--delete-moved`, to delete at its source; or, at the end of a
/// sync, a recorded copy whose source is gone).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Job {
    /// The OLD server (file position) that lists it.
    pub src: usize,
    /// Its NEW owner (file position).
    pub dst: usize,
    /// The key.
    pub key: Vec<u8>,
    /// The item's version when listed.
    pub version: Version,
    /// The item's size when listed (0 when unknown).
    pub size: u64,
    /// How recently it was read, when listed (the order of `hot_first`).
    pub heat: Heat,
    /// Listed expiring within the run's `min_ttl`: not copied (the job only carries its
    /// records through the join, so they stay as they are).
    pub short_ttl: bool,
    /// The copy the state file records.
    pub copy: Option<Copy>,
    /// A write of an earlier run whose outcome is unknown.
    pub intent: Option<Intent>,
}

impl Job {
    /// A job for a key listed on `src`, going to `dst`, with nothing recorded.
    pub fn listed(src: usize, dst: usize, it: Listed) -> Job {
        Job {
            src,
            dst,
            key: it.key,
            version: it.version,
            size: it.size,
            heat: it.heat,
            short_ttl: false,
            copy: None,
            intent: None,
        }
    }
}

fn put(w: &mut impl Write, n: u64) -> io::Result<()> {
    w.write_all(&n.to_le_bytes())
}

fn get(r: &mut impl Read) -> io::Result<u64> {
    let mut b = [0u8; 8];
    r.read_exact(&mut b)?;
    Ok(u64::from_le_bytes(b))
}

fn put_ver(w: &mut impl Write, v: Ver) -> io::Result<()> {
    put(w, v.version.0)?;
    w.write_all(&[u8::from(v.sure)])
}

fn get_ver(r: &mut impl Read) -> io::Result<Ver> {
    let version = Version(get(r)?);
    let mut b = [0u8; 1];
    r.read_exact(&mut b)?;
    Ok(Ver {
        version,
        sure: b[0] != 0,
    })
}

fn bad(what: &str) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, what.to_string())
}

/// On disk: key length (`u16`), the key, then the numbers, little-endian; a byte says which
/// of the copy and intent follow.
impl Record for Job {
    fn key(&self) -> &[u8] {
        &self.key
    }

    fn write_to<W: Write>(&self, w: &mut W) -> io::Result<()> {
        let len = u16::try_from(self.key.len()).map_err(|_| bad("a key over 65,535 bytes"))?;
        w.write_all(&len.to_le_bytes())?;
        w.write_all(&self.key)?;
        let nums = [
            self.src as u64,
            self.dst as u64,
            self.version.0,
            self.size,
            self.heat.pack(),
        ];
        for n in nums {
            put(w, n)?;
        }
        let has = u8::from(self.copy.is_some())
            | u8::from(self.intent.is_some()) << 1
            | u8::from(self.short_ttl) << 2;
        w.write_all(&[has])?;
        if let Some(c) = &self.copy {
            put(w, c.dst as u64)?;
            put_ver(w, c.sv)?;
            put_ver(w, c.dv)?;
            w.write_all(&[u8::from(c.digest.is_some())])?;
            put(w, c.digest.unwrap_or(0))?;
        }
        if let Some(i) = &self.intent {
            put(w, i.dst as u64)?;
            put_ver(w, i.sv)?;
            put(w, i.digest)?;
        }
        Ok(())
    }

    fn read_from<R: Read>(r: &mut R) -> io::Result<Option<Job>> {
        let mut len = [0u8; 2];
        match r.read_exact(&mut len[..1]) {
            Ok(()) => {}
            Err(e) if e.kind() == io::ErrorKind::UnexpectedEof => return Ok(None),
            Err(e) => return Err(e),
        }
        r.read_exact(&mut len[1..])?;
        let mut key = vec![0u8; usize::from(u16::from_le_bytes(len))];
        r.read_exact(&mut key)?;
        let pos = |n: u64| usize::try_from(n).map_err(|_| bad("a server position"));
        let (src, dst) = (pos(get(r)?)?, pos(get(r)?)?);
        let (version, size, heat) = (Version(get(r)?), get(r)?, Heat::unpack(get(r)?));
        let mut has = [0u8; 1];
        r.read_exact(&mut has)?;
        let copy = if has[0] & 1 != 0 {
            let dst = pos(get(r)?)?;
            let (sv, dv) = (get_ver(r)?, get_ver(r)?);
            let mut known = [0u8; 1];
            r.read_exact(&mut known)?;
            let d = get(r)?;
            Some(Copy {
                dst,
                sv,
                dv,
                digest: (known[0] != 0).then_some(d),
            })
        } else {
            None
        };
        let intent = if has[0] & 2 != 0 {
            Some(Intent {
                dst: pos(get(r)?)?,
                sv: get_ver(r)?,
                digest: get(r)?,
            })
        } else {
            None
        };
        Ok(Some(Job {
            src,
            dst,
            key,
            version,
            size,
            heat,
            short_ttl: has[0] & 4 != 0,
            copy,
            intent,
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn jobs_round_trip() {
        let jobs = [
            Job {
                src: 3,
                dst: 7,
                key: b"k\0\xff ".to_vec(),
                version: Version(9),
                size: 120,
                heat: Heat::Idle(77),
                short_ttl: true,
                copy: Some(Copy {
                    dst: 7,
                    sv: Ver::sure(Version(1)),
                    dv: Ver::sure(Version(2)).doubted(),
                    digest: Some(u64::MAX),
                }),
                intent: Some(Intent {
                    dst: 7,
                    sv: Ver::sure(Version(5)),
                    digest: 6,
                }),
            },
            Job {
                src: 0,
                dst: 0,
                key: vec![b'x'; 250],
                version: Version::UNKNOWN,
                size: 0,
                heat: Heat::Unknown,
                short_ttl: false,
                copy: Some(Copy {
                    dst: 1,
                    sv: Ver::sure(Version(1)),
                    dv: Ver::sure(Version(2)),
                    digest: None,
                }),
                intent: None,
            },
        ];
        let mut buf = Vec::new();
        for j in &jobs {
            j.write_to(&mut buf).unwrap();
        }
        let mut r = &buf[..];
        for j in &jobs {
            assert_eq!(Job::read_from(&mut r).unwrap().as_ref(), Some(j));
        }
        assert_eq!(Job::read_from(&mut r).unwrap(), None);
    }
}
