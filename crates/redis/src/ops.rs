//! The operations of a copy, queued and read in order like every command of a round: read a
//! key (its remaining TTL and `DUMP` payload, at one instant), its digest, write a payload
//! only if absent or only if unchanged, delete only if unchanged.

use redis::Value;

use crate::conn::Conn;
use crate::digest;
use crate::error::Error;
use crate::limits::{MAX_PAYLOAD, MAX_REPLY};
use crate::reply::{bytes, error_text, int, refused, unexpected};
use crate::scripts::{DELETE_IF, DIGEST, READ, RESTORE};

/// A key as read from a server.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Dumped {
    /// Its remaining time to live when read, ms; -1: none.
    pub pttl: i64,
    /// Its `DUMP` payload (value, type, encoding: every data type).
    pub payload: Vec<u8>,
    /// The payload's version ([`digest`](crate::digest)).
    pub version: u64,
}

/// What a read found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Dump {
    /// The key, with its payload.
    Item(Dumped),
    /// The key's payload has this many bytes, more than the read asked for: not sent.
    Over(u64),
    /// No such key (or it expired).
    Absent,
}

/// What a write did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Restored {
    /// Written; the version of the key as written.
    Stored(u64),
    /// Only if absent: the key was there (`BUSYKEY`): nothing written.
    Exists,
    /// Only if unchanged: the key's version is another one: nothing written.
    Changed,
    /// Only if unchanged: the key is gone: nothing written.
    Gone,
    /// Written with an expiry already past: the server dropped it at once.
    Expired,
    /// The server refused the payload (out of memory, a payload of a newer Redis version,
    /// a module type it lacks): its words.
    Refused(String),
}

/// What a delete did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Removed {
    /// Deleted.
    Deleted,
    /// No such key.
    Gone,
    /// Its version is another one: kept.
    Changed,
}

/// Bytes a read's reply may take beyond its payload (the array, the TTL, the lengths).
const FRAME: usize = 4096;

/// The payload bytes a read may ask for: `most`, within what a reply may carry.
fn payload_bound(most: u64) -> u64 {
    most.min((MAX_PAYLOAD - FRAME) as u64)
}

fn eval<'a>(script: &str, key: &[u8], args: impl IntoIterator<Item = &'a [u8]>) -> redis::Cmd {
    let mut c = redis::cmd("EVAL");
    c.arg(script).arg(1).arg(key);
    for a in args {
        c.arg(a);
    }
    c
}

impl Conn {
    /// Queues the read of `key` ([`Conn::read_dump`]): its payload only when it has at most
    /// `most` bytes (at most [`MAX_PAYLOAD`] less 4 KB, the most a reply may carry), its
    /// length otherwise.
    pub fn queue_dump(&mut self, key: &[u8], most: u64) {
        let most = payload_bound(most).to_string();
        self.queue("DUMP", &eval(READ, key, [most.as_bytes()]));
    }

    /// The key read by a [`Conn::queue_dump`] given `most`: the reply is read within that
    /// bound (and its frame), so a server cannot make it take more.
    pub fn read_dump(&mut self, most: u64) -> Result<Dump, Error> {
        let v = self.read(payload_bound(most) as usize + FRAME)?;
        let name = self.name().to_string();
        match v {
            Value::Nil => Ok(Dump::Absent),
            Value::Array(mut parts) if parts.len() == 2 => {
                let payload = parts.pop().unwrap_or(Value::Nil);
                let pttl = int(&name, "PTTL", &parts[0])?;
                if let Value::Int(n) = payload {
                    return u64::try_from(n)
                        .map(Dump::Over)
                        .map_err(|_| unexpected(&name, "DUMP", &Value::Int(n)));
                }
                let Some(payload) = bytes(&name, "DUMP", payload)? else {
                    return Ok(Dump::Absent);
                };
                Ok(Dump::Item(Dumped {
                    pttl,
                    version: digest::of_payload(&payload),
                    payload,
                }))
            }
            Value::ServerError(e) => Err(refused(&name, "DUMP", &error_text(&e))),
            v => Err(unexpected(&name, "DUMP", &v)),
        }
    }

    /// Queues the digest of `key` ([`Conn::read_digest`]).
    pub fn queue_digest(&mut self, key: &[u8]) {
        self.queue("DUMP", &eval(DIGEST, key, []));
    }

    /// The key's version, `None` when it is absent.
    pub fn read_digest(&mut self) -> Result<Option<u64>, Error> {
        let v = self.read(MAX_REPLY)?;
        let name = self.name().to_string();
        match bytes(&name, "DUMP", v)? {
            None => Ok(None),
            Some(h) => digest::of_hex(&h)
                .map(Some)
                .ok_or_else(|| unexpected(&name, "DUMP", &Value::BulkString(h))),
        }
    }

    /// Queues a write of `payload` to `key` ([`Conn::read_restore`]): only if the key is
    /// absent (`expect` `None`), or only if its version is still `expect`. `expires_ms`:
    /// the absolute expiry on the server's clock, ms (`None`: never).
    pub fn queue_restore(
        &mut self,
        key: &[u8],
        payload: &[u8],
        expires_ms: Option<i64>,
        expect: Option<u64>,
    ) {
        let expect = expect.map(digest::hex).unwrap_or_default();
        let exp = expires_ms.map_or_else(|| "0".to_string(), |e| e.max(1).to_string());
        self.queue(
            "RESTORE",
            &eval(RESTORE, key, [expect.as_bytes(), exp.as_bytes(), payload]),
        );
    }

    /// What the write did (`compared`: it was queued with a version to expect).
    pub fn read_restore(&mut self, compared: bool) -> Result<Restored, Error> {
        let v = self.read(MAX_REPLY)?;
        let name = self.name().to_string();
        Ok(match v {
            Value::Int(0) if compared => Restored::Changed,
            Value::Int(0) => Restored::Exists,
            Value::Int(-1) => Restored::Gone,
            Value::Int(1) => Restored::Expired,
            Value::ServerError(e) => Restored::Refused(error_text(&e)),
            Value::BulkString(h) => match digest::of_hex(&h) {
                Some(d) => Restored::Stored(d),
                None => return Err(unexpected(&name, "RESTORE", &Value::BulkString(h))),
            },
            v => return Err(unexpected(&name, "RESTORE", &v)),
        })
    }

    /// Queues the delete of `key` ([`Conn::read_delete`]), only if its version is still
    /// `expect` when one is given.
    pub fn queue_delete(&mut self, key: &[u8], expect: Option<u64>) {
        match expect {
            None => self.queue("DEL", redis::cmd("DEL").arg(key)),
            Some(v) => {
                let h = digest::hex(v);
                self.queue("DEL", &eval(DELETE_IF, key, [h.as_bytes()]));
            }
        }
    }

    /// What the delete did (`compared`: it was queued with a version to expect).
    pub fn read_delete(&mut self, compared: bool) -> Result<Removed, Error> {
        let v = self.read(MAX_REPLY)?;
        let name = self.name().to_string();
        Ok(match (int(&name, "DEL", &v)?, compared) {
            (1, _) => Removed::Deleted,
            (0, false) | (-1, true) => Removed::Gone,
            (0, true) => Removed::Changed,
            _ => return Err(unexpected(&name, "DEL", &v)),
        })
    }
}
