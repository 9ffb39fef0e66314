//! The replies to meta requests, read in the order the requests were queued. Each must be
//! the reply to its own request: it carries the request's opaque token (`O<n>`) and, when it
//! echoes the key of a request that asked for it (`k`: keys that travel as they are), that
//! key; a reply that does not is refused with
//! [`ErrorKind::Mismatch`] (a server or proxy answering out of order), so no value is ever
//! taken for another key's. memcached sends neither on two replies only: `SERVER_ERROR` (an
//! item refused), and `EN` (a miss) before 1.6.13 or so; those are taken as they come (a
//! misplaced miss or refusal moves no data, and a misplaced hit is refused by its token).
//!
//! A value is bounded twice before a byte of it is kept: over the connection's
//! [`Options::max_value`](crate::Options::max_value) (the server's item size limit) it is an
//! error of kind [`ErrorKind::TooLarge`]; over what the caller can keep now, it is read past
//! and reported ([`Fetched::Over`]) for the caller to ask again.

use crate::conn::Conn;
use crate::error::{printable, Error, ErrorKind};
use crate::key::key_ok;
use crate::limits::MAX_LINE;
use crate::wire::{dec, flag, signed};

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

/// The reply to an `mg` of the value ([`Conn::read_get`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Fetched {
    /// The item.
    Hit(Got),
    /// No such key (`EN`).
    Miss,
    /// The value has this many bytes, more than the caller could keep: it was read past,
    /// not kept.
    Over(u64),
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

/// A reply line cut into its status word and its flags.
fn split(l: &[u8]) -> (&[u8], &[u8]) {
    match l.iter().position(|&b| b == b' ') {
        Some(i) => (&l[..i], &l[i + 1..]),
        None => (l, &[]),
    }
}

impl Conn {
    /// The opaque token the next reply must carry; the one after it is due next.
    fn next_due(&mut self) -> u32 {
        let due = self.opaque_due;
        self.opaque_due = self.opaque_due.wrapping_add(1);
        due
    }

    /// Checks that the reply whose flags are `flags` answers the next request due, of `key`
    /// (its opaque token, and its key when echoed). `bare`: the reply may carry no flags at
    /// all (see the module docs).
    fn echo(&mut self, key: &[u8], flags: &[u8], bare: bool) -> Result<(), Error> {
        let due = self.next_due();
        match echo_problem(key, flags, due, bare) {
            None => Ok(()),
            Some(what) => Err(self.mismatch(key, &what)),
        }
    }

    fn mismatch(&self, key: &[u8], what: &str) -> Error {
        self.fail(
            ErrorKind::Mismatch,
            format!(
                "{} answered `{}` of key '{}' with the reply to another request ({what}): its \
                 replies are out of order or not its own, so none of this round is used",
                self.name,
                self.doing,
                printable(key)
            ),
        )
    }

    /// Reads the reply to one [`queue_get`](Self::queue_get) of `key`: the item, a miss, or
    /// (a value of more than `keep` bytes) its size, read past. A value over the
    /// connection's item size limit is an error of kind [`ErrorKind::TooLarge`], before any
    /// of it is read.
    pub fn read_get(&mut self, key: &[u8], keep: usize) -> Result<Fetched, Error> {
        let due = self.next_due();
        let (len, client_flags, ttl, cas) = {
            let l = self.line_ref(MAX_LINE)?;
            let (word, rest) = split(l);
            let head = if word == b"EN" {
                None
            } else {
                match parse_va(l) {
                    Some(h) => Some(h),
                    None => {
                        let l = l.to_vec();
                        return Err(self.unexpected(&l));
                    }
                }
            };
            let flags = head.map_or(rest, |h| h.4);
            if let Some(what) = echo_problem(key, flags, due, head.is_none()) {
                return Err(self.mismatch(key, &what));
            }
            match head {
                None => return Ok(Fetched::Miss),
                Some((len, f, t, c, _)) => (len, f, t, c),
            }
        };
        if len > self.opts.max_value as u64 {
            return Err(self.fail(
                ErrorKind::TooLarge,
                format!(
                    "{} announced a value of {len} bytes for key '{}', over its item size \
                     limit of {} bytes: refused before reading it",
                    self.name,
                    printable(key),
                    self.opts.max_value
                ),
            ));
        }
        // Fits in usize: at most max_value.
        let len = len as usize;
        if len > keep {
            self.skip_data(len)?;
            return Ok(Fetched::Over(len as u64));
        }
        let value = self.read_data(len)?;
        Ok(Fetched::Hit(Got {
            value,
            flags: client_flags,
            ttl,
            cas,
        }))
    }

    /// Reads the reply to one [`queue_has`](Self::queue_has) of `key`.
    pub fn read_has(&mut self, key: &[u8]) -> Result<bool, Error> {
        let l = self.line(MAX_LINE)?;
        match split(&l) {
            (b"EN", f) => self.echo(key, f, true).map(|()| false),
            (b"HD", f) => self.echo(key, f, false).map(|()| true),
            _ => Err(self.unexpected(&l)),
        }
    }

    /// Reads the reply to one [`queue_cas`](Self::queue_cas) of `key`: the CAS, `None` on a
    /// miss.
    pub fn read_cas(&mut self, key: &[u8]) -> Result<Option<u64>, Error> {
        let l = self.line(MAX_LINE)?;
        match split(&l) {
            (b"EN", f) => self.echo(key, f, true).map(|()| None),
            (b"HD", f) => match flag(f, b'c').and_then(dec) {
                Some(c) => self.echo(key, f, false).map(|()| Some(c)),
                None => Err(self.unexpected(&l)),
            },
            _ => Err(self.unexpected(&l)),
        }
    }

    /// Reads the reply to one [`queue_set`](Self::queue_set) of `key`.
    pub fn read_set(&mut self, key: &[u8]) -> Result<SetReply, Error> {
        let l = self.line(MAX_LINE)?;
        let (word, flags) = split(&l);
        let reply = match word {
            b"HD" => match flag(flags, b'c').and_then(dec) {
                Some(c) => SetReply::Stored(c),
                None => return Err(self.unexpected(&l)),
            },
            b"NS" => SetReply::NotStored,
            b"EX" => SetReply::Exists,
            b"NF" => SetReply::NotFound,
            b"SERVER_ERROR" => {
                self.echo(key, &[], true)?;
                return Ok(SetReply::Refused);
            }
            _ => return Err(self.unexpected(&l)),
        };
        self.echo(key, flags, false)?;
        Ok(reply)
    }

    /// Reads the reply to one [`queue_delete`](Self::queue_delete) of `key`.
    pub fn read_delete(&mut self, key: &[u8]) -> Result<DeleteReply, Error> {
        let l = self.line(MAX_LINE)?;
        let (word, flags) = split(&l);
        let reply = match word {
            b"HD" => DeleteReply::Deleted,
            b"NF" => DeleteReply::NotFound,
            b"EX" => DeleteReply::Exists,
            _ => return Err(self.unexpected(&l)),
        };
        self.echo(key, flags, false)?;
        Ok(reply)
    }
}

/// Why a reply with `flags` is not the reply to the request of `key` whose opaque token is
/// `due` (`None`: it is). `bare`: a reply without any flag is accepted.
fn echo_problem(key: &[u8], flags: &[u8], due: u32, bare: bool) -> Option<String> {
    if bare && flags.is_empty() {
        return None;
    }
    match (flag(flags, b'O'), flag(flags, b'k')) {
        (None, _) => Some("no opaque token".to_string()),
        (Some(o), _) if dec(o) != Some(u64::from(due)) => Some(format!(
            "opaque token O{} where O{due} was due",
            printable(o)
        )),
        (_, Some(k)) if key_ok(key) && k != key => Some(format!("key {}", printable(k))),
        _ => None,
    }
}

/// The head of a `VA <len> f<flags> t<ttl> c<cas> ...` line: (len, flags, ttl, cas, the
/// flags).
fn parse_va(l: &[u8]) -> Option<(u64, u32, i64, u64, &[u8])> {
    let rest = l.strip_prefix(b"VA ")?;
    let (len, flags) = split(rest);
    let number = |f| flag(flags, f).and_then(signed);
    Some((
        dec(len)?,
        u32::try_from(number(b'f')?).ok()?,
        number(b't')?,
        flag(flags, b'c').and_then(dec)?,
        flags,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn value_heads() {
        assert_eq!(
            parse_va(b"VA 5 f7 t-1 c42 O3 kk"),
            Some((5, 7, -1, 42, &b"f7 t-1 c42 O3 kk"[..]))
        );
        assert_eq!(parse_va(b"VA 5 t-1 c42"), None);
        assert_eq!(parse_va(b"VA x f7 t-1 c42"), None);
        assert_eq!(parse_va(b"VA 5 f4294967296 t-1 c42"), None);
        assert_eq!(parse_va(b"HD c1"), None);
    }
}
