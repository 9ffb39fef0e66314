//! The meta protocol of memcached 1.6+ (`mg`, `ms`, `md`, `mn`), pipelined: requests are
//! queued, sent with one [`Conn::flush`], and their replies read back in order.
//!
//! Every wait has a deadline ([`Conn::flush`] gives the replies that follow the whole
//! timeout again), notices the stop flag within [`POLL`](crate::POLL), every line is bounded,
//! and a value is read only up to [`MAX_ITEM`]: a silent or misbehaving server makes a call
//! fail with an error naming it, never hang.

use std::io::Write as _;
use std::time::Instant;

use crate::conn::Conn;
use crate::error::{printable, Error, ErrorKind};
use crate::key::key_token;
use crate::limits::{MAX_ITEM, MAX_LINE, RELATIVE_TTL_MAX};
use crate::wire::{dec, flag, push_num, signed};

/// A value read with `mg`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Got {
    /// The value.
    pub value: Vec<u8>,
    /// Client flags.
    pub flags: u32,
    /// Remaining TTL in seconds, `-1` for none.
    pub ttl: i64,
    /// The item's CAS.
    pub cas: u64,
}

/// The reply to an `ms`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SetReply {
    /// Stored (`HD`), with the CAS the item got.
    Stored(u64),
    /// Not stored (`NS`): in add mode, the key already exists.
    NotStored,
    /// The compared CAS did not match (`EX`): someone changed the item.
    Exists,
    /// The compared item does not exist (`NF`).
    NotFound,
    /// The server refused this item (`SERVER_ERROR ...`, e.g. larger than its item size
    /// limit); the connection stays usable.
    Refused,
}

/// The reply to an `md`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DeleteReply {
    /// Deleted (`HD`).
    Deleted,
    /// No such key (`NF`).
    NotFound,
    /// The compared CAS did not match (`EX`).
    Exists,
}

/// How an `ms` stores.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Only when the key is absent (`ME`).
    Add,
    /// Unconditionally, or on a CAS match when one is given (`MS`).
    Set,
}

impl Conn {
    /// Gives the replies that follow a fresh deadline: now + the timeout.
    pub fn renew_deadline(&mut self) {
        self.deadline = Instant::now() + self.opts.timeout;
    }

    /// Notes `name` as the request of the round being queued, for messages.
    fn command(&mut self, name: &'static str) {
        if self.out.is_empty() {
            self.queued = name;
        }
    }

    /// Sends everything queued; the replies that follow get a fresh deadline.
    pub fn flush(&mut self) -> Result<(), Error> {
        self.renew_deadline();
        if self.out.is_empty() {
            return Ok(());
        }
        let out = std::mem::take(&mut self.out);
        let r = self.write_request(self.queued, &out);
        self.out = out;
        self.out.clear();
        r
    }

    /// Checks that the server speaks the meta protocol: its version, or an error of kind
    /// [`ErrorKind::NoMeta`] naming it.
    pub fn check_meta(&mut self) -> Result<String, Error> {
        self.command("version");
        self.out.extend_from_slice(b"version\r\nmn\r\n");
        self.flush()?;
        let l = self.line(MAX_LINE)?;
        let version = printable(l.strip_prefix(b"VERSION ").unwrap_or(&l));
        let l = self.line(MAX_LINE)?;
        if l == b"MN" {
            return Ok(version);
        }
        Err(self.fail(
            ErrorKind::NoMeta,
            format!(
                "{} runs memcached {version}, which has no meta commands (`mn` answered {}): \
                 they came with memcached 1.6",
                self.name,
                printable(&l)
            ),
        ))
    }

    /// Queues `mg <key> <flags>`: the key's token, ` b` when it travels in base64, then
    /// `flags`.
    fn queue_mg(&mut self, key: &[u8], flags: &[u8]) {
        self.command("mg");
        self.out.extend_from_slice(b"mg ");
        if key_token(key, &mut self.out) {
            self.out.extend_from_slice(b" b");
        }
        self.out.extend_from_slice(flags);
        self.out.extend_from_slice(b"\r\n");
    }

    /// Queues `mg` for the value, client flags, remaining TTL and CAS, without bumping the
    /// item in the LRU.
    pub fn queue_get(&mut self, key: &[u8]) {
        self.queue_mg(key, b" v f t c u");
    }

    /// Reads the reply to one [`queue_get`](Self::queue_get): `None` on a miss.
    pub fn read_get(&mut self) -> Result<Option<Got>, Error> {
        let (len, client_flags, ttl, cas) = {
            let l = self.line_ref(MAX_LINE)?;
            if l == b"EN" {
                return Ok(None);
            }
            match parse_va(l) {
                Some(head) => head,
                None => {
                    let l = l.to_vec();
                    return Err(self.unexpected(&l));
                }
            }
        };
        if len > MAX_ITEM as u64 {
            return Err(self.protocol(format!("a value of {len} bytes (the limit is {MAX_ITEM})")));
        }
        let value = self.read_data(len as usize)?;
        Ok(Some(Got {
            value,
            flags: client_flags,
            ttl,
            cas,
        }))
    }

    /// Queues an `mg` that only asks whether the key exists.
    pub fn queue_has(&mut self, key: &[u8]) {
        self.queue_mg(key, b" u");
    }

    /// Reads the reply to one [`queue_has`](Self::queue_has).
    pub fn read_has(&mut self) -> Result<bool, Error> {
        let l = self.line(MAX_LINE)?;
        match l.as_slice() {
            b"EN" => Ok(false),
            x if x == b"HD" || x.starts_with(b"HD ") => Ok(true),
            _ => Err(self.unexpected(&l)),
        }
    }

    /// Queues an `mg` that asks for the item's CAS only.
    pub fn queue_cas(&mut self, key: &[u8]) {
        self.queue_mg(key, b" c u");
    }

    /// Reads the reply to one [`queue_cas`](Self::queue_cas): the CAS, `None` on a miss.
    pub fn read_cas(&mut self) -> Result<Option<u64>, Error> {
        let l = self.line(MAX_LINE)?;
        if l == b"EN" {
            return Ok(None);
        }
        match l
            .strip_prefix(b"HD ")
            .and_then(|f| flag(f, b'c'))
            .and_then(dec)
        {
            Some(c) => Ok(Some(c)),
            None => Err(self.unexpected(&l)),
        }
    }

    /// Queues an `ms` of `value` with client `flags` and expiry token `exp` (memcached's
    /// `T`: 0 none, up to 30 days relative, else absolute, see [`exp_token`]), asking for the
    /// CAS it gets; with `compare`, only if the item's CAS is that.
    pub fn queue_set(
        &mut self,
        key: &[u8],
        value: &[u8],
        flags: u32,
        exp: i64,
        mode: Mode,
        compare: Option<u64>,
    ) {
        self.command("ms");
        let out = &mut self.out;
        out.extend_from_slice(b"ms ");
        let b = key_token(key, out);
        out.push(b' ');
        push_num(out, value.len() as i64);
        if b {
            out.extend_from_slice(b" b");
        }
        out.extend_from_slice(b" F");
        push_num(out, i64::from(flags));
        out.extend_from_slice(b" T");
        push_num(out, exp);
        out.extend_from_slice(match mode {
            Mode::Add => b" c ME",
            Mode::Set => b" c MS",
        });
        if let Some(c) = compare {
            // Writing into a Vec cannot fail.
            let _ = write!(out, " C{c}");
        }
        out.extend_from_slice(b"\r\n");
        out.extend_from_slice(value);
        out.extend_from_slice(b"\r\n");
    }

    /// Reads the reply to one [`queue_set`](Self::queue_set).
    pub fn read_set(&mut self) -> Result<SetReply, Error> {
        let l = self.line(MAX_LINE)?;
        let (word, flags) = l.split_at(l.iter().position(|&b| b == b' ').unwrap_or(l.len()));
        match word {
            b"HD" => match flag(flags.get(1..).unwrap_or_default(), b'c').and_then(dec) {
                Some(c) => Ok(SetReply::Stored(c)),
                None => Err(self.unexpected(&l)),
            },
            b"NS" => Ok(SetReply::NotStored),
            b"EX" => Ok(SetReply::Exists),
            b"NF" => Ok(SetReply::NotFound),
            b"SERVER_ERROR" => Ok(SetReply::Refused),
            _ => Err(self.unexpected(&l)),
        }
    }

    /// Queues an `md`, only if the item's CAS is `compare` when one is given.
    pub fn queue_delete(&mut self, key: &[u8], compare: Option<u64>) {
        self.command("md");
        let out = &mut self.out;
        out.extend_from_slice(b"md ");
        if key_token(key, out) {
            out.extend_from_slice(b" b");
        }
        if let Some(c) = compare {
            let _ = write!(out, " C{c}");
        }
        out.extend_from_slice(b"\r\n");
    }

    /// Reads the reply to one [`queue_delete`](Self::queue_delete).
    pub fn read_delete(&mut self) -> Result<DeleteReply, Error> {
        let l = self.line(MAX_LINE)?;
        match l.split(|&b| b == b' ').next() {
            Some(b"HD") => Ok(DeleteReply::Deleted),
            Some(b"NF") => Ok(DeleteReply::NotFound),
            Some(b"EX") => Ok(DeleteReply::Exists),
            _ => Err(self.unexpected(&l)),
        }
    }
}

/// The head of a `VA <len> f<flags> t<ttl> c<cas>` line: (len, flags, ttl, cas).
fn parse_va(l: &[u8]) -> Option<(u64, u32, i64, u64)> {
    let rest = l.strip_prefix(b"VA ")?;
    let (len, flags) = rest.split_at(rest.iter().position(|&b| b == b' ').unwrap_or(rest.len()));
    let number = |f| flag(flags, f).and_then(signed);
    Some((
        dec(len)?,
        u32::try_from(number(b'f')?).ok()?,
        number(b't')?,
        flag(flags, b'c').and_then(dec)?,
    ))
}

/// The `T` token that gives an item `ttl` more seconds (`-1`: none) on a server whose clock
/// reads `server_now`: 0 for none, relative up to 30 days, absolute beyond. `None` when the
/// item has expired (a `T` of 0 would make it immortal).
pub fn exp_token(ttl: i64, server_now: i64) -> Option<i64> {
    match ttl {
        -1 => Some(0),
        t if t <= 0 => None,
        t if t <= RELATIVE_TTL_MAX => Some(t),
        t => Some(server_now + t),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn expiry_tokens() {
        assert_eq!(exp_token(-1, 1000), Some(0));
        assert_eq!(exp_token(0, 1000), None);
        assert_eq!(exp_token(-5, 1000), None);
        assert_eq!(exp_token(100, 1000), Some(100));
        assert_eq!(exp_token(RELATIVE_TTL_MAX, 0), Some(RELATIVE_TTL_MAX));
        assert_eq!(
            exp_token(RELATIVE_TTL_MAX + 1, 1000),
            Some(1000 + RELATIVE_TTL_MAX + 1)
        );
    }

    #[test]
    fn value_heads() {
        assert_eq!(parse_va(b"VA 5 f7 t-1 c42"), Some((5, 7, -1, 42)));
        assert_eq!(parse_va(b"VA 5 t-1 c42"), None);
        assert_eq!(parse_va(b"VA x f7 t-1 c42"), None);
        assert_eq!(parse_va(b"VA 5 f4294967296 t-1 c42"), None);
        assert_eq!(parse_va(b"HD c1"), None);
    }
}
