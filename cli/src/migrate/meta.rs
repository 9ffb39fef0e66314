//! The meta protocol of memcached 1.6+ (`mg`, `ms`, `md`, `mn`) and a streamed
//! `lru_crawler metadump`, pipelined: requests are queued in a write buffer, sent with one
//! [`MetaConn::flush`], and their replies read back in order.
//!
//! Built on the text client's [`Conn`]: every wait has a deadline ([`MetaConn::flush`] gives
//! each round trip the whole `--timeout` again, a long listing gets it per line), notices
//! Ctrl-C within [`crate::memcache::POLL`], every line is bounded, and a value is read only
//! up to [`MAX_ITEM`]: a silent or misbehaving server makes a call fail with a message naming
//! it, never hang.

use std::io::Write as _;
use std::time::{Duration, Instant};

use super::wire;
use crate::memcache::{Conn, Options, MAX_LINE, MAX_LISTING_LINE};

/// The largest value read (memcached's `-I` maximum item size is 1 GB, its default 1 MB).
pub const MAX_ITEM: usize = 1 << 30;
/// memcached reads an expiry above this many seconds as an absolute Unix time.
pub const RELATIVE_TTL_MAX: i64 = 60 * 60 * 24 * 30;
/// Part of the message of a server without the meta protocol.
pub const NO_META: &str = "has no meta commands";

/// A key as `lru_crawler metadump` lists it, with its metadata.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Listed {
    /// The key's bytes (percent-decoded).
    pub key: Vec<u8>,
    /// Absolute expiry (Unix seconds, the server's clock), `-1` for none.
    pub exp: i64,
    /// The item's CAS (0 when unknown).
    pub cas: u64,
    /// The item's total size in memory (key, value and header), 0 when unknown.
    pub size: u64,
}

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

/// One connection speaking the meta protocol.
#[derive(Debug)]
pub struct MetaConn {
    label: String,
    conn: Conn,
    timeout: Duration,
    /// Requests queued, sent by [`MetaConn::flush`].
    out: Vec<u8>,
    /// The first command queued since the last flush, for messages.
    doing: &'static str,
}

/// One reply line of at most `max` bytes, borrowed from the connection's receive buffer;
/// `label` names the server in messages.
fn line_in<'c>(conn: &'c mut Conn, label: &str, max: usize) -> Result<&'c [u8], String> {
    match conn.read_line_ref(max) {
        Ok(Some(l)) => Ok(l),
        Ok(None) => Err(format!(
            "server {label}: a reply line longer than {max} bytes"
        )),
        Err(e) => Err(e.message),
    }
}

/// The message for reply line `l` to `cmd` that memcached does not send.
fn unexpected(label: &str, cmd: &str, l: &[u8]) -> String {
    format!(
        "server {label}: unexpected reply to {cmd}: {}",
        String::from_utf8_lossy(&l[..l.len().min(200)])
    )
}

impl MetaConn {
    /// Connects to `addr` (`host:port`); `label` names the server in messages. Each round
    /// trip may take up to `opts.timeout` (the connect and TLS handshake too).
    pub fn connect(label: &str, addr: &str, opts: Options) -> Result<MetaConn, String> {
        let timeout = opts.timeout;
        let conn = Conn::connect(addr, opts).map_err(|e| e.message)?;
        Ok(MetaConn {
            label: label.to_string(),
            conn,
            timeout,
            out: Vec::with_capacity(64 * 1024),
            doing: "",
        })
    }

    /// The server's label.
    pub fn label(&self) -> &str {
        &self.label
    }

    fn err(&self, what: impl std::fmt::Display) -> String {
        format!("server {}: {what}", self.label)
    }

    fn queue(&mut self, bytes: &[u8]) -> Result<(), String> {
        self.out.extend_from_slice(bytes);
        Ok(())
    }

    fn command(&mut self, name: &'static str) {
        if self.out.is_empty() {
            self.doing = name;
        }
    }

    /// Sends everything queued; the replies that follow get a fresh deadline.
    pub fn flush(&mut self) -> Result<(), String> {
        self.conn.set_deadline(Instant::now() + self.timeout);
        if self.out.is_empty() {
            return Ok(());
        }
        let r = self.conn.write_request(self.doing, &self.out);
        self.out.clear();
        r.map_err(|e| e.message)
    }

    /// One reply line without its line end.
    fn line(&mut self, buf: &mut Vec<u8>) -> Result<(), String> {
        self.line_max(buf, MAX_LINE)
    }

    fn line_max(&mut self, buf: &mut Vec<u8>, max: usize) -> Result<(), String> {
        match self.conn.read_line(max).map_err(|e| e.message)? {
            Some(l) => {
                *buf = l;
                Ok(())
            }
            None => Err(self.err(format!("a reply line longer than {max} bytes"))),
        }
    }

    /// Checks that the server speaks the meta protocol; the refusal names its version.
    pub fn check_meta(&mut self) -> Result<String, String> {
        self.command("version");
        self.queue(b"version\r\nmn\r\n")?;
        self.flush()?;
        let mut l = Vec::new();
        self.line(&mut l)?;
        let version =
            String::from_utf8_lossy(l.strip_prefix(b"VERSION ").unwrap_or(&l)).into_owned();
        self.line(&mut l)?;
        if l == b"MN" {
            Ok(version)
        } else {
            Err(self.err(format!(
                "memcached {version} {NO_META} (`mn` answered {}): migrate needs memcached 1.6 or later",
                String::from_utf8_lossy(&l)
            )))
        }
    }

    /// The server's clock (`time` of `stats`), Unix seconds.
    pub fn server_time(&mut self) -> Result<i64, String> {
        self.command("stats");
        self.queue(b"stats\r\n")?;
        self.flush()?;
        let mut l = Vec::new();
        let mut time = None;
        for _ in 0..10_000 {
            self.line(&mut l)?;
            if l == b"END" {
                return time.ok_or_else(|| self.err("stats has no time"));
            }
            if let Some(v) = l.strip_prefix(b"STAT time ") {
                time = std::str::from_utf8(v).ok().and_then(|v| v.parse().ok());
            }
        }
        Err(self.err("stats reply too long"))
    }

    /// `curr_items` of `stats`.
    pub fn curr_items(&mut self) -> Result<u64, String> {
        self.command("stats");
        self.queue(b"stats\r\n")?;
        self.flush()?;
        let mut l = Vec::new();
        let mut n = None;
        for _ in 0..10_000 {
            self.line(&mut l)?;
            if l == b"END" {
                return n.ok_or_else(|| self.err("stats has no curr_items"));
            }
            if let Some(v) = l.strip_prefix(b"STAT curr_items ") {
                n = std::str::from_utf8(v).ok().and_then(|v| v.parse().ok());
            }
        }
        Err(self.err("stats reply too long"))
    }

    /// Streams `lru_crawler metadump all` to `each`; `Ok(false)` when the server has no
    /// (enabled) LRU crawler. Waits while the crawler is busy with another request. A listing
    /// of more than `limit` lines is refused.
    pub fn metadump(
        &mut self,
        limit: u64,
        mut each: impl FnMut(Listed) -> Result<(), String>,
    ) -> Result<bool, String> {
        let mut l = Vec::new();
        for attempt in 0..30u64 {
            self.command("lru_crawler metadump all");
            self.queue(b"lru_crawler metadump all\r\n")?;
            self.flush()?;
            self.line_max(&mut l, MAX_LISTING_LINE)?;
            if l.starts_with(b"BUSY") {
                std::thread::sleep(std::time::Duration::from_millis(100 * (attempt + 1).min(5)));
                continue;
            }
            if l == b"ERROR" || l.starts_with(b"CLIENT_ERROR") || l.starts_with(b"SERVER_ERROR") {
                return Ok(false);
            }
            // `true` at the end of the listing.
            let mut lines = 0u64;
            let mut one = |l: &[u8], label: &str| -> Result<bool, String> {
                if l == b"END" {
                    return Ok(true);
                }
                lines += 1;
                if lines > limit {
                    return Err(format!(
                        "server {label}: {}",
                        crate::memcache::too_long(limit)
                    ));
                }
                each(wire::parse_metadump(l).ok_or_else(|| unexpected(label, "metadump", l))?)?;
                Ok(false)
            };
            if one(&l, &self.label)? {
                return Ok(true);
            }
            loop {
                self.conn.set_deadline(Instant::now() + self.timeout);
                let label = &self.label;
                if one(line_in(&mut self.conn, label, MAX_LISTING_LINE)?, label)? {
                    return Ok(true);
                }
            }
        }
        Err(self.err("the LRU crawler stayed busy"))
    }

    /// Queues `mg <key> <flags>`: the key's token, ` b` when it travels in base64, then
    /// `flags` (each request one line, written straight into the send buffer).
    fn queue_mg(&mut self, key: &[u8], flags: &[u8]) {
        self.command("mg");
        self.out.extend_from_slice(b"mg ");
        if wire::key_token(key, &mut self.out) {
            self.out.extend_from_slice(b" b");
        }
        self.out.extend_from_slice(flags);
        self.out.extend_from_slice(b"\r\n");
    }

    /// Queues `mg` for the value, client flags, remaining TTL and CAS, without bumping the
    /// item in the LRU.
    pub fn queue_get(&mut self, key: &[u8]) -> Result<(), String> {
        self.queue_mg(key, b" v f t c u");
        Ok(())
    }

    /// Reads the reply to one [`queue_get`](Self::queue_get): `None` on a miss.
    pub fn read_get(&mut self) -> Result<Option<Got>, String> {
        let label = &self.label;
        let l = line_in(&mut self.conn, label, MAX_LINE)?;
        if l == b"EN" {
            return Ok(None);
        }
        let bad = || unexpected(label, "mg", l);
        let rest = l.strip_prefix(b"VA ").ok_or_else(bad)?;
        let (len, flags) =
            rest.split_at(rest.iter().position(|&b| b == b' ').unwrap_or(rest.len()));
        let len = wire::dec(len).ok_or_else(bad)?;
        if len > MAX_ITEM as u64 {
            return Err(format!(
                "server {label}: a value of {len} bytes is larger than {MAX_ITEM}"
            ));
        }
        let number = |f| wire::flag(flags, f).and_then(wire::signed).ok_or_else(bad);
        let client_flags = u32::try_from(number(b'f')?).map_err(|_| bad())?;
        let ttl = number(b't')?;
        let cas = wire::flag(flags, b'c')
            .and_then(wire::dec)
            .ok_or_else(bad)?;
        let value = self.conn.read_data(len as usize).map_err(|e| e.message)?;
        Ok(Some(Got {
            value,
            flags: client_flags,
            ttl,
            cas,
        }))
    }

    /// Queues an `mg` that only asks whether the key exists.
    pub fn queue_has(&mut self, key: &[u8]) -> Result<(), String> {
        self.queue_mg(key, b" u");
        Ok(())
    }

    /// Reads the reply to one [`queue_has`](Self::queue_has).
    pub fn read_has(&mut self) -> Result<bool, String> {
        let label = &self.label;
        match line_in(&mut self.conn, label, MAX_LINE)? {
            b"EN" => Ok(false),
            x if x == b"HD" || x.starts_with(b"HD ") => Ok(true),
            x => Err(unexpected(label, "mg", x)),
        }
    }

    /// Queues an `mg` that asks for the item's CAS only.
    pub fn queue_cas(&mut self, key: &[u8]) -> Result<(), String> {
        self.queue_mg(key, b" c u");
        Ok(())
    }

    /// Reads the reply to one [`queue_cas`](Self::queue_cas): the CAS, `None` on a miss.
    pub fn read_cas(&mut self) -> Result<Option<u64>, String> {
        let label = &self.label;
        let l = line_in(&mut self.conn, label, MAX_LINE)?;
        if l == b"EN" {
            return Ok(None);
        }
        l.strip_prefix(b"HD ")
            .and_then(|flags| wire::flag(flags, b'c'))
            .and_then(wire::dec)
            .map(Some)
            .ok_or_else(|| unexpected(label, "mg", l))
    }

    /// Queues an `ms` of `value` with client `flags` and expiry token `exp` (memcached's
    /// `T`: 0 none, up to 30 days relative, else absolute), returning the CAS it gets.
    pub fn queue_set(
        &mut self,
        key: &[u8],
        value: &[u8],
        flags: u32,
        exp: i64,
        mode: Mode,
        compare: Option<u64>,
    ) -> Result<(), String> {
        self.command("ms");
        let out = &mut self.out;
        out.extend_from_slice(b"ms ");
        let b = wire::key_token(key, out);
        out.push(b' ');
        wire::push_num(out, value.len() as i64);
        if b {
            out.extend_from_slice(b" b");
        }
        out.extend_from_slice(b" F");
        wire::push_num(out, i64::from(flags));
        out.extend_from_slice(b" T");
        wire::push_num(out, exp);
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
        Ok(())
    }

    /// Reads the reply to one [`queue_set`](Self::queue_set).
    pub fn read_set(&mut self) -> Result<SetReply, String> {
        let label = &self.label;
        let l = line_in(&mut self.conn, label, MAX_LINE)?;
        let (word, flags) = l.split_at(l.iter().position(|&b| b == b' ').unwrap_or(l.len()));
        match word {
            b"HD" => wire::flag(flags.get(1..).unwrap_or_default(), b'c')
                .and_then(wire::dec)
                .map(SetReply::Stored)
                .ok_or_else(|| unexpected(label, "ms", l)),
            b"NS" => Ok(SetReply::NotStored),
            b"EX" => Ok(SetReply::Exists),
            b"NF" => Ok(SetReply::NotFound),
            b"SERVER_ERROR" => Ok(SetReply::Refused),
            _ => Err(unexpected(label, "ms", l)),
        }
    }

    /// Queues an `md`, only if the item's CAS is `compare` when one is given.
    pub fn queue_delete(&mut self, key: &[u8], compare: Option<u64>) -> Result<(), String> {
        self.command("md");
        let out = &mut self.out;
        out.extend_from_slice(b"md ");
        if wire::key_token(key, out) {
            out.extend_from_slice(b" b");
        }
        if let Some(c) = compare {
            let _ = write!(out, " C{c}");
        }
        out.extend_from_slice(b"\r\n");
        Ok(())
    }

    /// Reads the reply to one [`queue_delete`](Self::queue_delete).
    pub fn read_delete(&mut self) -> Result<DeleteReply, String> {
        let label = &self.label;
        let l = line_in(&mut self.conn, label, MAX_LINE)?;
        match l.split(|&b| b == b' ').next() {
            Some(b"HD") => Ok(DeleteReply::Deleted),
            Some(b"NF") => Ok(DeleteReply::NotFound),
            Some(b"EX") => Ok(DeleteReply::Exists),
            _ => Err(unexpected(label, "md", l)),
        }
    }
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
}
