//! How recently or how often each key was read, as the server tracks it for eviction: `OBJECT
//! IDLETIME` (seconds since the key was last touched) under any eviction policy but the LFU
//! ones, `OBJECT FREQ` (the logarithmic access counter) under `allkeys-lfu` and
//! `volatile-lfu`, where the server keeps no idle time. The policy is `INFO memory`'s
//! `maxmemory_policy`. Both commands leave the key untouched (Redis looks keys up for
//! `OBJECT`, `PTTL` and `MEMORY USAGE` without updating their access time or counter), but
//! `DUMP` touches it (before Redis 7.2's `CLIENT NO-TOUCH`), so a listing asks for the access
//! of a key before its digest.

use redis::Value;

use crate::conn::Conn;
use crate::error::Error;
use crate::limits::MAX_REPLY;
use crate::reply::{bytes, error_text};

/// How a key was accessed, as its server tracks it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Access {
    /// Not asked for, or the server would not tell (e.g. an ACL without `OBJECT`).
    #[default]
    Unknown,
    /// Seconds since the key was last read or written (`OBJECT IDLETIME`).
    Idle(u64),
    /// The LFU access counter (`OBJECT FREQ`, 0 to 255): 5 for a key never read since it
    /// was written, more for a key read since, less for one untouched long enough for the
    /// counter to decay.
    Freq(u8),
}

/// The counter Redis gives a new key under an LFU policy (`LFU_INIT_VAL`).
pub const LFU_NEW: u8 = 5;

const TAG_IDLE: u64 = 1 << 62;
const TAG_FREQ: u64 = 2 << 62;
const TAG_MASK: u64 = 3 << 62;

impl Access {
    /// As one number (for a scratch record): 0 unknown, else a tag in the top 2 bits.
    pub fn pack(self) -> u64 {
        match self {
            Access::Unknown => 0,
            Access::Idle(s) => TAG_IDLE | s.min(!TAG_MASK),
            Access::Freq(f) => TAG_FREQ | u64::from(f),
        }
    }

    /// What [`pack`](Self::pack) made.
    pub fn unpack(n: u64) -> Access {
        match n & TAG_MASK {
            TAG_IDLE => Access::Idle(n & !TAG_MASK),
            TAG_FREQ => Access::Freq((n & 0xff) as u8),
            _ => Access::Unknown,
        }
    }
}

/// Which of the two a server answers, from its eviction policy.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tracking {
    /// `OBJECT IDLETIME`.
    Idle,
    /// `OBJECT FREQ`.
    Freq,
}

impl Tracking {
    /// The tracking of `policy` (a `maxmemory-policy`).
    pub fn of(policy: &str) -> Tracking {
        if policy.ends_with("-lfu") {
            Tracking::Freq
        } else {
            Tracking::Idle
        }
    }

    /// The command, for messages.
    pub fn command(self) -> &'static str {
        match self {
            Tracking::Idle => "OBJECT IDLETIME",
            Tracking::Freq => "OBJECT FREQ",
        }
    }
}

impl Conn {
    /// The server's eviction policy (`INFO memory`: `maxmemory_policy`), `noeviction` when it
    /// does not say.
    pub fn eviction_policy(&mut self) -> Result<String, Error> {
        let v = self.call("INFO", redis::cmd("INFO").arg("memory"))?;
        let text = bytes(self.name(), "INFO", v)?.unwrap_or_default();
        Ok(String::from_utf8_lossy(&text)
            .lines()
            .find_map(|l| l.strip_prefix("maxmemory_policy:"))
            .map_or("noeviction".to_string(), |p| p.trim().to_string()))
    }

    /// Queues the access command of `key` for `t`.
    pub(crate) fn queue_access(&mut self, t: Tracking, key: &[u8]) {
        let sub = match t {
            Tracking::Idle => "IDLETIME",
            Tracking::Freq => "FREQ",
        };
        self.queue("OBJECT", redis::cmd("OBJECT").arg(sub).arg(key));
    }

    /// Reads the reply of [`queue_access`](Self::queue_access): the access, or (an error
    /// reply) unknown with the server's words.
    pub(crate) fn read_access(&mut self, t: Tracking) -> Result<(Access, Option<String>), Error> {
        Ok(match self.read(MAX_REPLY)? {
            Value::Int(n) if n >= 0 => (
                match t {
                    Tracking::Idle => Access::Idle(n as u64),
                    Tracking::Freq => Access::Freq(n.min(255) as u8),
                },
                None,
            ),
            Value::ServerError(e) => (Access::Unknown, Some(error_text(&e))),
            _ => (Access::Unknown, None),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accesses_pack_and_policies_choose_the_command() {
        for a in [
            Access::Unknown,
            Access::Idle(0),
            Access::Idle(86_400 * 365),
            Access::Freq(0),
            Access::Freq(LFU_NEW),
            Access::Freq(255),
        ] {
            assert_eq!(Access::unpack(a.pack()), a);
        }
        assert_eq!(Tracking::of("allkeys-lfu"), Tracking::Freq);
        assert_eq!(Tracking::of("volatile-lfu"), Tracking::Freq);
        for p in [
            "noeviction",
            "allkeys-lru",
            "volatile-ttl",
            "allkeys-random",
        ] {
            assert_eq!(Tracking::of(p), Tracking::Idle, "{p}");
        }
    }
}
