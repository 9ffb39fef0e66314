//! One connection of `simulate --live` to one of its processes, memcached or Redis: what
//! the experiment asks of a server (store keys, count them, read them back, delete them),
//! each step within `--timeout` and stopped by Ctrl-C.

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use super::daemons::INTERRUPTED;
use crate::shared::Fail;

/// The kind of server the experiment runs on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    /// memcached processes (`--memcached PATH`).
    Memcached,
    /// redis-server processes (`--redis-server PATH`).
    Redis,
}

impl Kind {
    /// The name in messages.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Kind::Memcached => "memcached",
            Kind::Redis => "redis-server",
        }
    }
}

/// A connection to one process (each boxed: the two differ much in size).
#[derive(Debug)]
pub(crate) enum LiveConn {
    /// To a memcached (text protocol).
    Memcached(Box<ketama_memcache::Conn>),
    /// To a redis-server.
    Redis(Box<ketama_redis::Conn>),
}

/// A memcached client error as the run's failure; a stop request reads as the interruption
/// it is.
pub(crate) fn mc_fail(e: ketama_memcache::Error) -> Fail {
    if e.kind == ketama_memcache::ErrorKind::Interrupted {
        Fail::new(INTERRUPTED)
    } else {
        Fail::new(format!("--live: {e}"))
    }
}

/// The same for a Redis client error.
pub(crate) fn redis_fail(e: ketama_redis::Error) -> Fail {
    if e.kind == ketama_redis::ErrorKind::Interrupted {
        Fail::new(INTERRUPTED)
    } else {
        Fail::new(format!("--live: {e}"))
    }
}

impl LiveConn {
    /// Connects to the process standing in for `label` at `addr`.
    pub(crate) fn connect(
        kind: Kind,
        addr: SocketAddr,
        label: &str,
        net: ketama_memcache::Options,
    ) -> Result<LiveConn, Fail> {
        Ok(match kind {
            Kind::Memcached => LiveConn::Memcached(Box::new(
                ketama_memcache::Conn::connect_addr(addr, label, net).map_err(mc_fail)?,
            )),
            Kind::Redis => LiveConn::Redis(Box::new(
                ketama_redis::Conn::connect(label, &addr.to_string(), &redis_options(net))
                    .map_err(redis_fail)?,
            )),
        })
    }

    /// The next step may wait `timeout` (a Redis round always gets a fresh one).
    pub(crate) fn step(&mut self, timeout: Duration) {
        if let LiveConn::Memcached(c) = self {
            c.set_deadline(Instant::now() + timeout);
        }
    }

    /// What the server is: `1.6.21` (memcached's `version`), `Redis 7.0.15`.
    pub(crate) fn version(&mut self) -> Result<String, Fail> {
        match self {
            LiveConn::Memcached(c) => c.version().map_err(mc_fail),
            LiveConn::Redis(c) => Ok(c.info().product.clone()),
        }
    }

    /// Stores every (key, value).
    pub(crate) fn set_many(&mut self, items: &[(&[u8], &[u8])]) -> Result<(), Fail> {
        match self {
            LiveConn::Memcached(c) => c.set_many(items).map_err(mc_fail),
            LiveConn::Redis(c) => c.set_many(items).map_err(redis_fail),
        }
    }

    /// How many of `keys` hold `value`.
    pub(crate) fn hits(&mut self, keys: &[&[u8]], value: &[u8]) -> Result<usize, Fail> {
        Ok(match self {
            LiveConn::Memcached(c) => {
                let found = c.get_many(keys).map_err(mc_fail)?;
                keys.iter()
                    .filter(|k| found.get(**k).is_some_and(|v| v == value))
                    .count()
            }
            LiveConn::Redis(c) => c
                .get_many(keys)
                .map_err(redis_fail)?
                .iter()
                .filter(|v| v.as_deref() == Some(value))
                .count(),
        })
    }

    /// Deletes `keys`.
    pub(crate) fn delete_many(&mut self, keys: &[&[u8]]) -> Result<(), Fail> {
        match self {
            LiveConn::Memcached(c) => c.delete_many(keys).map(drop).map_err(mc_fail),
            LiveConn::Redis(c) => c.delete_many(keys).map(drop).map_err(redis_fail),
        }
    }

    /// The keys the server holds (`curr_items`, `DBSIZE`).
    pub(crate) fn item_count(&mut self) -> Result<u64, Fail> {
        match self {
            LiveConn::Memcached(c) => c.item_count().map_err(mc_fail),
            LiveConn::Redis(c) => c.dbsize().map_err(redis_fail),
        }
    }
}

/// The Redis options of the run's processes: no login, database 0, over `net`.
pub(crate) fn redis_options(net: ketama_memcache::Options) -> ketama_redis::Options {
    ketama_redis::Options::new(net)
}
