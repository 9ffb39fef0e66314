//! [`Conn::list_keys`]: every key of the selected database, each handed on once.
//!
//! The rules:
//! - `SCAN` with a cursor, [`SCAN_COUNT`] keys asked per call, until the cursor is 0 again.
//!   `SCAN` may return a key twice (when the keyspace is resized during the scan): keys go
//!   through [`ketama_keyset::Distinct`], in bounded memory, and each is handed on once.
//! - For each page, one pipelined round: when asked for, how the key was accessed
//!   ([`access`](crate::access): `OBJECT IDLETIME` or `OBJECT FREQ`, first, before anything
//!   that would touch the key), `PTTL` (remaining TTL, ms), `MEMORY USAGE` (bytes) and, when
//!   versions are asked for, the digest of the `DUMP` payload (a script per key, so the
//!   server is never held for more than one key). A key gone since the page (`PTTL` -2) is
//!   not handed on.
//! - A scan that returns more than [`line_limit`]`(DBSIZE)` keys in all (twice the keys of
//!   the database when it started, and 100,000 more) is stopped and named: a server or a
//!   proxy that scans without end.
//! - A key longer than [`MAX_KEY`] bytes is skipped and reported; the listing is then
//!   incomplete.
//! - Reads only.

use std::io::{self, Read, Write};

use ketama_keyset::{read_keyed, write_keyed, Distinct, Record};
use ketama_memcache::{line_limit, ListOptions, Pace};
use redis::Value;

use crate::access::{Access, Tracking};
use crate::conn::Conn;
use crate::digest;
use crate::error::{Error, ErrorKind};
use crate::limits::{MAX_KEY, MAX_REPLY, SCAN_COUNT};
use crate::reply::{bytes, int, unexpected};
use crate::scripts::DIGEST;

/// A key as the listing shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ListedKey {
    /// The key's bytes.
    pub key: Vec<u8>,
    /// Remaining time to live when listed, ms; -1: none.
    pub pttl: i64,
    /// `MEMORY USAGE` (key, value and overhead), bytes; 0 when unknown.
    pub size: u64,
    /// The version of its value ([`digest`](crate::digest)), 0 when not asked for.
    pub version: u64,
    /// How it was accessed ([`Access::Unknown`] when not asked for).
    pub access: Access,
}

/// What a listing asks of each key besides its TTL and size.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Ask {
    /// The version of its value (a `DUMP` and a digest per key, on the server).
    pub versions: bool,
    /// How it was accessed (`OBJECT IDLETIME` or `OBJECT FREQ` per key).
    pub access: bool,
}

impl Record for ListedKey {
    fn key(&self) -> &[u8] {
        &self.key
    }

    fn write_to<W: Write>(&self, w: &mut W) -> io::Result<()> {
        let nums = [
            self.pttl as u64,
            self.size,
            self.version,
            self.access.pack(),
        ];
        write_keyed(w, &self.key, nums)
    }

    fn read_from<R: Read>(r: &mut R) -> io::Result<Option<ListedKey>> {
        Ok(
            read_keyed(r)?.map(|(key, [pttl, size, version, access])| ListedKey {
                key,
                pttl: pttl as i64,
                size,
                version,
                access: Access::unpack(access),
            }),
        )
    }
}

/// What [`Conn::list_keys`] found besides the keys it handed on.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Listing {
    /// The distinct keys handed on.
    pub keys: u64,
    /// `DBSIZE` before listing.
    pub dbsize: u64,
    /// `SCAN` calls made.
    pub scans: u64,
    /// Keys skipped (longer than [`MAX_KEY`]): their length, the first 10.
    pub skipped: Vec<usize>,
    /// How many were skipped in all.
    pub skipped_count: u64,
    /// When accesses were asked for: the server's eviction policy and the command that
    /// told them.
    pub tracking: Option<(String, Tracking)>,
    /// The first refusal of that command (e.g. an ACL without `OBJECT`): the accesses are
    /// then unknown.
    pub access_refused: Option<String>,
}

impl Listing {
    /// Whether every key was handed on (none skipped).
    pub fn is_complete(&self) -> bool {
        self.skipped_count == 0
    }
}

/// Why a listing stopped: the server, the key set's scratch files, or the caller.
enum Stop<E> {
    Server(Error),
    Set(ketama_keyset::Error),
    Caller(E),
}

impl<E> From<Error> for Stop<E> {
    fn from(e: Error) -> Stop<E> {
        Stop::Server(e)
    }
}

impl<E> From<ketama_keyset::Error> for Stop<E> {
    fn from(e: ketama_keyset::Error) -> Stop<E> {
        Stop::Set(e)
    }
}

impl Conn {
    /// Every key of the database, each given once to `each` (see the [module](self) for the
    /// rules), with what `ask` asks (its version, its access). `how`: whether the timeout
    /// bounds the whole listing or each round, and the key set's sizes. An error of `each`
    /// ends the listing with that error.
    pub fn list_keys<E: From<Error>>(
        &mut self,
        how: ListOptions,
        ask: Ask,
        mut each: impl FnMut(ListedKey) -> Result<(), E>,
    ) -> Result<Listing, E> {
        self.renew_each_round(how.pace == Pace::EachLine);
        let r = self.scan_all(how, ask, &mut each);
        self.renew_each_round(true);
        match r {
            Ok(l) => Ok(l),
            Err(Stop::Caller(e)) => Err(e),
            Err(Stop::Server(e)) => Err(e.into()),
            Err(Stop::Set(e)) => Err(Error::from((self.name(), e)).into()),
        }
    }

    fn scan_all<E, F: FnMut(ListedKey) -> Result<(), E>>(
        &mut self,
        how: ListOptions,
        ask: Ask,
        each: &mut F,
    ) -> Result<Listing, Stop<E>> {
        let name = self.name().to_string();
        let tracking = if ask.access {
            let policy = self.eviction_policy()?;
            let t = Tracking::of(&policy);
            Some((policy, t))
        } else {
            None
        };
        let dbsize = int(
            &name,
            "DBSIZE",
            &self.call("DBSIZE", &redis::cmd("DBSIZE"))?,
        )?;
        let mut l = Listing {
            dbsize: dbsize.max(0) as u64,
            tracking: tracking.clone(),
            ..Listing::default()
        };
        let ask = Describe {
            versions: ask.versions,
            access: tracking.map(|(_, t)| t),
        };
        let limit = line_limit(l.dbsize);
        let stop = self.stop_flag();
        let mut keys: Distinct<ListedKey> = Distinct::new(l.dbsize as usize, how.sizes, stop);
        let mut returned = 0u64;
        let mut cursor = b"0".to_vec();
        loop {
            let (next, page) = self.scan(&cursor)?;
            l.scans += 1;
            returned += page.len() as u64;
            if returned > limit {
                return Err(Stop::Server(Error::new(
                    &name,
                    ErrorKind::Protocol,
                    format!(
                        "SCAN of {name} returned more than {limit} keys for a database of {} \
                         keys: stopped (a scan without end)",
                        l.dbsize
                    ),
                )));
            }
            let (page, long): (Vec<Vec<u8>>, Vec<Vec<u8>>) =
                page.into_iter().partition(|k| k.len() <= MAX_KEY);
            for k in long {
                l.skipped_count += 1;
                if l.skipped.len() < 10 {
                    l.skipped.push(k.len());
                }
            }
            for k in self.describe(page, ask, &mut l.access_refused)? {
                keys.offer(k, &mut |k| each(k).map_err(Stop::Caller))?;
            }
            if next == b"0" {
                break;
            }
            cursor = next;
        }
        keys.end_pass(&mut |k| each(k).map_err(Stop::Caller))?;
        l.keys = keys.len();
        Ok(l)
    }

    /// One `SCAN` call: the next cursor and a page of keys.
    fn scan(&mut self, cursor: &[u8]) -> Result<(Vec<u8>, Vec<Vec<u8>>), Error> {
        let name = self.name().to_string();
        let v = self.call(
            "SCAN",
            redis::cmd("SCAN").arg(cursor).arg("COUNT").arg(SCAN_COUNT),
        )?;
        let bad = |v: &Value| unexpected(&name, "SCAN", v);
        let Value::Array(mut parts) = v else {
            return Err(bad(&v));
        };
        if parts.len() != 2 {
            return Err(bad(&Value::Array(parts)));
        }
        let page = parts.pop().unwrap_or(Value::Nil);
        let next = bytes(&name, "SCAN", parts.pop().unwrap_or(Value::Nil))?.unwrap_or_default();
        let Value::Array(page) = page else {
            return Err(bad(&page));
        };
        let keys = page
            .into_iter()
            .map(|k| bytes(&name, "SCAN", k)?.ok_or_else(|| bad(&Value::Nil)))
            .collect::<Result<Vec<_>, _>>()?;
        Ok((next, keys))
    }

    /// One round for a page: each key's access (asked first: the digest's `DUMP` touches
    /// the key), TTL, size and digest, as `ask` says; the keys gone since are left out. The
    /// first refusal of the access command goes to `refused`.
    fn describe(
        &mut self,
        page: Vec<Vec<u8>>,
        ask: Describe,
        refused: &mut Option<String>,
    ) -> Result<Vec<ListedKey>, Error> {
        if page.is_empty() {
            return Ok(Vec::new());
        }
        let versions = ask.versions;
        for k in &page {
            if let Some(t) = ask.access {
                self.queue_access(t, k);
            }
            self.queue("PTTL", redis::cmd("PTTL").arg(k.as_slice()));
            self.queue(
                "MEMORY",
                redis::cmd("MEMORY").arg("USAGE").arg(k.as_slice()),
            );
            if versions {
                self.queue(
                    "DUMP",
                    redis::cmd("EVAL").arg(DIGEST).arg(1).arg(k.as_slice()),
                );
            }
        }
        self.flush()?;
        let name = self.name().to_string();
        let mut out = Vec::with_capacity(page.len());
        for key in page {
            let access = match ask.access {
                Some(t) => {
                    let (a, no) = self.read_access(t)?;
                    if refused.is_none() {
                        *refused =
                            no.map(|e| format!("{name} answered `{}` with {e}", t.command()));
                    }
                    a
                }
                None => Access::Unknown,
            };
            let pttl = int(&name, "PTTL", &self.read(MAX_REPLY)?)?;
            let size = match self.read(MAX_REPLY)? {
                Value::Nil => None,
                v => Some(int(&name, "MEMORY USAGE", &v)?.max(0) as u64),
            };
            let version = if versions {
                match bytes(&name, "DUMP", self.read(MAX_REPLY)?)? {
                    Some(h) => digest::of_hex(&h)
                        .ok_or_else(|| unexpected(&name, "DUMP", &Value::BulkString(h)))?,
                    None => 0,
                }
            } else {
                0
            };
            if pttl == -2 || size.is_none() || (versions && version == 0) {
                continue; // gone since the page was listed
            }
            out.push(ListedKey {
                key,
                pttl,
                size: size.unwrap_or(0),
                version,
                access,
            });
        }
        Ok(out)
    }
}

/// What [`Conn::describe`] asks per key.
#[derive(Clone, Copy, Debug)]
struct Describe {
    versions: bool,
    access: Option<Tracking>,
}
