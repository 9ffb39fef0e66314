//! The Redis (and Valkey) backend: [`Redis`] over one `ketama-redis` connection per server.
//! The listing is `SCAN` with `PTTL` and `MEMORY USAGE` per key (and the digest when the
//! run needs versions); a read is `PTTL` and `DUMP` in one script; a write is `RESTORE`
//! (without `REPLACE` when only if absent: `BUSYKEY` is newer data) with the expiry as an
//! absolute time on the NEW server's clock (`ABSTTL`), never later than the source's;
//! compared writes and deletes run in one script with the comparison. A [`Version`] is the
//! first 64 bits of the SHA-1 of the `DUMP` payload.

use std::time::Instant;

use ketama_redis::{
    Conn, Dump, Dumped, Error, ErrorKind, ListOptions, Options, Pace, Removed, Restored, Sizes,
};

use super::error::{ServerError, ServerErrorKind};
use super::server::{Backend, Connection, Endpoint, Purpose, Side};
use super::types::{
    Ask, Deleted, Identity, Item, ListSummary, Listed, Reply, Request, Version, Written,
};
use crate::clock::now;
use crate::heat::Heat;

/// Redis servers, reached with these options (timeout, stop flag, TLS, login, database),
/// each fleet with its own.
#[derive(Clone, Debug)]
pub struct Redis {
    old: Options,
    new: Options,
}

impl Redis {
    /// The backend connecting to both fleets with `opts`.
    pub fn new(opts: Options) -> Redis {
        Redis::per_side(opts.clone(), opts)
    }

    /// The backend connecting to the OLD fleet with `old` and to the NEW one with `new` (e.g.
    /// TLS on one side only); both should share one stop flag.
    pub fn per_side(old: Options, new: Options) -> Redis {
        Redis { old, new }
    }
}

/// One connection to one Redis.
#[derive(Debug)]
pub struct RedisConn {
    conn: Conn,
    /// When the last round was sent (a read's TTL counts from then).
    sent: Instant,
    /// The most payload bytes each read of the last round asked for.
    keep: u64,
}

impl From<Error> for ServerError {
    fn from(e: Error) -> ServerError {
        let kind = match e.kind {
            ErrorKind::Unsupported => ServerErrorKind::Unsupported,
            ErrorKind::Interrupted => ServerErrorKind::Interrupted,
            ErrorKind::Scratch => ServerErrorKind::Local,
            _ => ServerErrorKind::Failed,
        };
        ServerError {
            server: e.server,
            kind,
            message: e.message,
        }
    }
}

impl Backend for Redis {
    type Conn = RedisConn;

    /// Every connection logs in and is checked alike (no cluster node, Redis 5.0 or later),
    /// whatever its purpose.
    fn open(&self, server: &Endpoint, _purpose: Purpose) -> Result<RedisConn, ServerError> {
        Ok(RedisConn {
            conn: Conn::connect(
                &server.label,
                &server.addr,
                match server.side {
                    Side::Old => &self.old,
                    Side::New => &self.new,
                },
            )?,
            sent: Instant::now(),
            keep: u64::MAX,
        })
    }
}

/// An item read by a round sent at `sent`.
fn item(d: Dumped, sent: Instant) -> Item {
    Item {
        expires: (d.pttl >= 0).then(|| sent + std::time::Duration::from_millis(d.pttl as u64)),
        data: d.payload,
        flags: 0,
        version: Version(d.version),
    }
}

impl RedisConn {
    /// The absolute expiry, ms on this server's clock, of an item written now (`None`:
    /// never): what remains of it on this machine's clock, from now on the server's clock
    /// as read at connect (rounded down, so never later than the source's).
    fn expires_ms(&self, item: &Item) -> Option<i64> {
        item.remaining()
            .map(|d| ketama_redis::unix_ms() + self.conn.info().clock_ms + d.as_millis() as i64)
    }

    fn written(r: Restored) -> Written {
        match r {
            Restored::Stored(v) => Written::Stored(Version(v)),
            Restored::Exists => Written::Exists,
            Restored::Changed => Written::Changed,
            Restored::Gone => Written::Gone,
            Restored::Expired => Written::Expired,
            Restored::Refused(_) => Written::Refused,
        }
    }
}

impl Connection for RedisConn {
    fn list(
        &mut self,
        ask: Ask,
        each: &mut dyn FnMut(Listed) -> Result<(), ServerError>,
    ) -> Result<ListSummary, ServerError> {
        let t = now();
        let how = ListOptions {
            pace: Pace::EachLine,
            sizes: Sizes::ONE_LISTING,
        };
        let want = ketama_redis::Ask {
            versions: ask.versions,
            access: ask.heat,
        };
        let l = self.conn.list_keys(how, want, |k| {
            each(Listed {
                exp: if k.pttl < 0 {
                    -1
                } else {
                    t + (k.pttl as u64).div_ceil(1000) as i64
                },
                key: k.key,
                version: Version(k.version),
                size: k.size,
                heat: Heat::redis(k.access),
            })
        })?;
        Ok(ListSummary {
            command: "SCAN",
            partial: false,
            bad: l
                .skipped
                .iter()
                .enumerate()
                .map(|(i, n)| {
                    (
                        i as u64 + 1,
                        format!("a key of {n} bytes (longer than {})", ketama_redis::MAX_KEY),
                    )
                })
                .collect(),
            bad_count: l.skipped_count,
            keys: l.keys,
            heat: l.tracking.map(|(policy, t)| match l.access_refused {
                Some(no) => format!("unknown: {no}"),
                None => format!("{} (maxmemory-policy {policy})", t.command()),
            }),
        })
    }

    fn identity(&mut self) -> Result<Identity, ServerError> {
        let i = self.conn.info();
        Ok(Identity {
            peer: self.conn.peer(),
            process: format!("run_id {}", i.run_id),
            started: i.started,
        })
    }

    /// A read asks for its payload only up to `keep` bytes ([`Conn::queue_dump`]): a
    /// larger one stays on the server and only its length comes back.
    fn send(&mut self, requests: &[Request<'_>], keep: u64) -> Result<(), ServerError> {
        self.sent = Instant::now();
        self.keep = keep;
        for r in requests {
            match *r {
                Request::Read(k) => self.conn.queue_dump(k, keep),
                Request::Version(k) => self.conn.queue_digest(k),
                Request::Add(k, it) => {
                    let exp = self.expires_ms(it);
                    self.conn.queue_restore(k, &it.data, exp, None);
                }
                Request::Update { key, item, expect } => {
                    let exp = self.expires_ms(item);
                    self.conn
                        .queue_restore(key, &item.data, exp, Some(expect.0));
                }
                Request::Delete { key, expect } => {
                    self.conn.queue_delete(key, expect.map(|v| v.0));
                }
            }
        }
        Ok(self.conn.flush()?)
    }

    /// Each payload was at most the round's bound when sent; one that would pass what the
    /// round may still keep (the other servers of the round came first) is dropped as read.
    fn receive(&mut self, requests: &[Request<'_>], keep: u64) -> Result<Vec<Reply>, ServerError> {
        let mut left = keep;
        let mut out = Vec::with_capacity(requests.len());
        for r in requests {
            out.push(match r {
                Request::Read(_) => match self.conn.read_dump(self.keep)? {
                    Dump::Item(d) if d.payload.len() as u64 > left => {
                        Reply::Later(d.payload.len() as u64)
                    }
                    Dump::Item(d) => {
                        left -= d.payload.len() as u64;
                        Reply::Item(Some(item(d, self.sent)))
                    }
                    Dump::Over(n) => Reply::Later(n),
                    Dump::Absent => Reply::Item(None),
                },
                Request::Version(_) => Reply::Version(self.conn.read_digest()?.map(Version)),
                Request::Add(..) => Reply::Written(Self::written(self.conn.read_restore(false)?)),
                Request::Update { .. } => {
                    Reply::Written(Self::written(self.conn.read_restore(true)?))
                }
                Request::Delete { expect, .. } => {
                    Reply::Deleted(match self.conn.read_delete(expect.is_some())? {
                        Removed::Deleted => Deleted::Deleted,
                        Removed::Gone => Deleted::Gone,
                        Removed::Changed => Deleted::Changed,
                    })
                }
            });
        }
        Ok(out)
    }
}
