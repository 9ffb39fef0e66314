//! The memcached backend: [`Memcached`] over one `ketama-memcache` connection per server.
//! Reads are `mg <key> v f t c u` (value, client flags, remaining TTL, CAS, no LRU bump);
//! writes `ms` in add mode (`ME`) or compared set mode (`MS C<cas>`); deletes `md` (`C<cas>`
//! when compared); each reply is matched to its request (opaque token and key). A
//! [`Version`] is the item's CAS. A value is read only up to the server's own item size
//! limit (`item_size_max` of `stats settings`, read when a connection opens for a sync;
//! memcached's default of 1 MiB when the server does not say). The listing is the client's
//! one listing with each reply line given the whole timeout (a listing of millions of keys
//! takes minutes).

use std::time::{Duration, Instant};

use ketama_memcache::{
    exp_token, sendable, Conn, DeleteReply, Error, ErrorKind, Fetched, Got, ListOptions, Mode,
    Options, Pace, SetReply, Sizes, DEFAULT_MAX_VALUE,
};

use super::error::{ServerError, ServerErrorKind};
use super::server::{Backend, Connection, Endpoint, Purpose, Side};
use crate::clock::now;

use super::types::{
    Ask, Deleted, Identity, Item, ListSummary, Listed, Reply, Request, Version, Written,
};
use crate::heat::Heat;

/// memcached servers, reached with these options (timeout, stop flag, TLS), per side.
#[derive(Clone, Debug)]
pub struct Memcached {
    old: Options,
    new: Options,
}

impl Memcached {
    /// The backend connecting to both fleets with `opts`.
    pub fn new(opts: Options) -> Memcached {
        Memcached::per_side(opts.clone(), opts)
    }

    /// The backend connecting to the OLD fleet with `old` and to the NEW one with `new` (e.g.
    /// TLS on one side only); both should share one stop flag.
    pub fn per_side(old: Options, new: Options) -> Memcached {
        Memcached { old, new }
    }

    fn options(&self, side: Side) -> &Options {
        match side {
            Side::Old => &self.old,
            Side::New => &self.new,
        }
    }
}

/// One connection to one memcached.
#[derive(Debug)]
pub struct MemcachedConn {
    conn: Conn,
    /// The server's clock minus ours, seconds (for absolute expiry times).
    clock: i64,
    /// When the last round was sent (a read's TTL counts from then).
    sent: Instant,
}

impl From<Error> for ServerError {
    fn from(e: Error) -> ServerError {
        let kind = match e.kind {
            ErrorKind::NoMeta => ServerErrorKind::Unsupported,
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

impl Backend for Memcached {
    type Conn = MemcachedConn;

    fn open(&self, server: &Endpoint, purpose: Purpose) -> Result<MemcachedConn, ServerError> {
        let opts = self.options(server.side).clone();
        let mut conn = Conn::connect_as(&server.label, &server.addr, opts)?;
        let mut clock = 0;
        if purpose == Purpose::Sync {
            conn.check_meta()?;
            conn.renew_deadline();
            clock = conn.server_time()? - now();
            conn.renew_deadline();
            let limit = conn.item_size_max()?;
            conn.set_max_value(limit.unwrap_or(DEFAULT_MAX_VALUE as u64));
        }
        Ok(MemcachedConn {
            conn,
            clock,
            sent: Instant::now(),
        })
    }

    fn names(&self, key: &[u8]) -> bool {
        sendable(key)
    }

    /// memcached 1.6 over TLS stops reading a connection whose next pipelined requests sit
    /// decrypted in its TLS library's buffer (measured: 16 requests in flight stall, 1 does
    /// not), so over TLS each connection carries one request at a time.
    fn pipeline(&self) -> Option<usize> {
        (self.old.tls.is_some() || self.new.tls.is_some()).then_some(1)
    }
}

/// An item read with `mg` by a round sent at `sent`.
fn item(g: Got, sent: Instant) -> Item {
    Item {
        data: g.value,
        flags: g.flags,
        expires: match g.ttl {
            -1 => None,
            t => Some(sent + Duration::from_secs(t.max(0) as u64)),
        },
        version: Version(g.cas),
    }
}

impl MemcachedConn {
    /// The `T` token of an item written now: what remains of its TTL, in seconds rounded up
    /// (memcached's own unit; -1 for none, 0 once expired); an expired one gets -1: it is
    /// never seen.
    fn exp(&self, item: &Item) -> i64 {
        let ttl = item
            .remaining()
            .map_or(-1, |d| d.as_millis().div_ceil(1000) as i64);
        exp_token(ttl, now() + self.clock).unwrap_or(-1)
    }
}

impl Connection for MemcachedConn {
    /// The metadump shows each item's CAS: versions come with every listing; and its last
    /// access, turned into a [`Heat`] with the server's clock when asked.
    fn list(
        &mut self,
        ask: Ask,
        each: &mut dyn FnMut(Listed) -> Result<(), ServerError>,
    ) -> Result<ListSummary, ServerError> {
        self.conn.renew_deadline();
        // Heat needs the server's clock (`la` is on it); a server that gives none lists with
        // unknown heat.
        let clock = if ask.heat {
            let t = match self.conn.server_time() {
                Ok(t) => Ok(t),
                Err(e) if e.kind == ErrorKind::Interrupted => return Err(e.into()),
                Err(e) => Err(e.message),
            };
            self.conn.renew_deadline();
            Some(t)
        } else {
            None
        };
        let server_now = clock.as_ref().and_then(|t| t.as_ref().ok().copied());
        let how = ListOptions {
            pace: Pace::EachLine,
            sizes: Sizes::ONE_LISTING,
        };
        let l = self.conn.list_keys(how, |k| {
            each(Listed {
                key: k.key,
                exp: k.exp,
                version: Version(k.cas),
                size: k.size,
                heat: server_now.map_or(Heat::Unknown, |t| Heat::memcached(k.la, k.fetched, t)),
            })
        })?;
        Ok(ListSummary {
            command: l.method.command(),
            partial: l.method == ketama_memcache::Method::Cachedump,
            bad: l.bad.into_iter().map(|b| (b.line, b.reason)).collect(),
            bad_count: l.bad_count,
            keys: l.keys,
            heat: clock.map(|t| match (t, l.method) {
                (Err(why), _) => format!("unknown: {why}"),
                (_, ketama_memcache::Method::Cachedump) => "unknown (stats cachedump)".into(),
                _ => "metadump la and fetch".to_string(),
            }),
        })
    }

    fn identity(&mut self) -> Result<Identity, ServerError> {
        self.conn.renew_deadline();
        let id = self.conn.identity()?;
        Ok(Identity {
            peer: self.conn.peer(),
            process: format!("pid {}", id.pid),
            started: id.started,
        })
    }

    fn send(&mut self, requests: &[Request<'_>], _keep: u64) -> Result<(), ServerError> {
        self.sent = Instant::now();
        for r in requests {
            match *r {
                Request::Read(k) => self.conn.queue_get(k),
                Request::Version(k) => self.conn.queue_cas(k),
                Request::Add(k, it) => {
                    let exp = self.exp(it);
                    self.conn
                        .queue_set(k, &it.data, it.flags, exp, Mode::Add, None);
                }
                Request::Update { key, item, expect } => {
                    let exp = self.exp(item);
                    self.conn.queue_set(
                        key,
                        &item.data,
                        item.flags,
                        exp,
                        Mode::Set,
                        Some(expect.0),
                    );
                }
                Request::Delete { key, expect } => {
                    self.conn.queue_delete(key, expect.map(|v| v.0));
                }
            }
        }
        Ok(self.conn.flush()?)
    }

    fn receive(&mut self, requests: &[Request<'_>], keep: u64) -> Result<Vec<Reply>, ServerError> {
        let mut left = keep;
        let mut out = Vec::with_capacity(requests.len());
        for r in requests {
            out.push(match *r {
                Request::Read(k) => {
                    let most = usize::try_from(left).unwrap_or(usize::MAX);
                    match self.conn.read_get(k, most)? {
                        Fetched::Hit(g) => {
                            left = left.saturating_sub(g.value.len() as u64);
                            Reply::Item(Some(item(g, self.sent)))
                        }
                        Fetched::Miss => Reply::Item(None),
                        Fetched::Over(n) => Reply::Later(n),
                    }
                }
                Request::Version(k) => Reply::Version(self.conn.read_cas(k)?.map(Version)),
                Request::Add(k, _) | Request::Update { key: k, .. } => {
                    Reply::Written(match self.conn.read_set(k)? {
                        SetReply::Stored(cas) => Written::Stored(Version(cas)),
                        SetReply::NotStored => Written::Exists,
                        SetReply::Exists => Written::Changed,
                        SetReply::NotFound => Written::Gone,
                        SetReply::Refused => Written::Refused,
                    })
                }
                Request::Delete { key, .. } => {
                    Reply::Deleted(match self.conn.read_delete(key)? {
                        DeleteReply::Deleted => Deleted::Deleted,
                        DeleteReply::NotFound => Deleted::Gone,
                        DeleteReply::Exists => Deleted::Changed,
                    })
                }
            });
        }
        Ok(out)
    }
}
