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

use crate::memcache::{key_ok, Conn, Options, MAX_LINE, MAX_LISTING_LINE};

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

/// Standard base64 (RFC 4648, with padding): how `b`-flagged keys travel.
pub fn base64(bytes: &[u8]) -> String {
    const A: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for c in bytes.chunks(3) {
        let n = (u32::from(c[0]) << 16)
            | (u32::from(*c.get(1).unwrap_or(&0)) << 8)
            | u32::from(*c.get(2).unwrap_or(&0));
        for i in 0..4 {
            if i <= c.len() {
                out.push(char::from(A[(n >> (18 - 6 * i) & 63) as usize]));
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// memcached's `uriencode` reversed: `%XX` is a byte, everything else is itself.
pub fn uri_decode(s: &[u8]) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(s.len());
    let mut i = 0;
    while i < s.len() {
        if s[i] == b'%' {
            let hex = std::str::from_utf8(s.get(i + 1..i + 3)?).ok()?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(s[i]);
            i += 1;
        }
    }
    Some(out)
}

/// Parses a metadump line `key=<uri> exp=<t> la=.. cas=<n> fetch=.. cls=.. size=<n>`.
pub fn parse_metadump(l: &[u8]) -> Option<Listed> {
    let mut it = l.split(|&b| b == b' ');
    let key = uri_decode(it.next()?.strip_prefix(b"key=")?)?;
    let mut item = Listed {
        key,
        exp: -1,
        cas: 0,
        size: 0,
    };
    for f in it {
        let text = std::str::from_utf8(f).ok()?;
        let Some((name, v)) = text.split_once('=') else {
            continue;
        };
        match name {
            "exp" => item.exp = v.parse().ok()?,
            "cas" => item.cas = v.parse().ok()?,
            "size" => item.size = v.parse().ok()?,
            _ => {}
        }
    }
    Some(item)
}

/// Whether the meta protocol can name `key`: as it is, or in base64 (the server limits the
/// token, encoded or not, to 250 bytes: binary keys up to 187 bytes).
pub fn sendable(key: &[u8]) -> bool {
    key_ok(key) || (!key.is_empty() && key.len().div_ceil(3) * 4 <= 250)
}

/// The key as a request token: itself when the text protocol carries it, else base64 with
/// the `b` flag to add.
fn key_token(key: &[u8], out: &mut Vec<u8>) -> bool {
    if key_ok(key) {
        out.extend_from_slice(key);
        false
    } else {
        out.extend_from_slice(base64(key).as_bytes());
        true
    }
}

/// The flag value of token `c<digits>` etc. in a reply line.
fn token<T: std::str::FromStr>(tokens: &[&[u8]], flag: u8) -> Option<T> {
    tokens
        .iter()
        .find(|t| t.first() == Some(&flag))
        .and_then(|t| std::str::from_utf8(&t[1..]).ok()?.parse().ok())
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

    fn unexpected(&self, cmd: &str, l: &[u8]) -> String {
        self.err(format!(
            "unexpected reply to {cmd}: {}",
            String::from_utf8_lossy(&l[..l.len().min(200)])
        ))
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
    /// (enabled) LRU crawler. Waits while the crawler is busy with another request.
    pub fn metadump(
        &mut self,
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
            loop {
                if l == b"END" {
                    return Ok(true);
                }
                let item = parse_metadump(&l).ok_or_else(|| self.unexpected("metadump", &l))?;
                each(item)?;
                self.conn.set_deadline(Instant::now() + self.timeout);
                self.line_max(&mut l, MAX_LISTING_LINE)?;
            }
        }
        Err(self.err("the LRU crawler stayed busy"))
    }

    /// Queues `mg <key> <flags>`: the key's token, ` b` when it travels in base64, then
    /// `flags` (each request one line, written straight into the send buffer).
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
    pub fn queue_get(&mut self, key: &[u8]) -> Result<(), String> {
        self.queue_mg(key, b" v f t c u");
        Ok(())
    }

    /// Reads the reply to one [`queue_get`](Self::queue_get): `None` on a miss.
    pub fn read_get(&mut self) -> Result<Option<Got>, String> {
        let mut l = Vec::new();
        self.line(&mut l)?;
        if l == b"EN" {
            return Ok(None);
        }
        let tokens: Vec<&[u8]> = l.split(|&b| b == b' ').collect();
        if tokens.first() != Some(&&b"VA"[..]) || tokens.len() < 2 {
            return Err(self.unexpected("mg", &l));
        }
        let len: usize = std::str::from_utf8(tokens[1])
            .ok()
            .and_then(|v| v.parse().ok())
            .ok_or_else(|| self.unexpected("mg", &l))?;
        if len > MAX_ITEM {
            return Err(self.err(format!("a value of {len} bytes is larger than {MAX_ITEM}")));
        }
        let rest = &tokens[2..];
        let (Some(flags), Some(ttl), Some(cas)) =
            (token(rest, b'f'), token(rest, b't'), token(rest, b'c'))
        else {
            return Err(self.unexpected("mg", &l));
        };
        let value = self.conn.read_data(len).map_err(|e| e.message)?;
        Ok(Some(Got {
            value,
            flags,
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
        let mut l = Vec::new();
        self.line(&mut l)?;
        match l.as_slice() {
            b"EN" => Ok(false),
            x if x == b"HD" || x.starts_with(b"HD ") => Ok(true),
            x => Err(self.unexpected("mg", x)),
        }
    }

    /// Queues an `mg` that asks for the item's CAS only.
    pub fn queue_cas(&mut self, key: &[u8]) -> Result<(), String> {
        self.queue_mg(key, b" c u");
        Ok(())
    }

    /// Reads the reply to one [`queue_cas`](Self::queue_cas): the CAS, `None` on a miss.
    pub fn read_cas(&mut self) -> Result<Option<u64>, String> {
        let mut l = Vec::new();
        self.line(&mut l)?;
        if l == b"EN" {
            return Ok(None);
        }
        let tokens: Vec<&[u8]> = l.split(|&b| b == b' ').collect();
        match (tokens[0], token(&tokens[1..], b'c')) {
            (b"HD", Some(c)) => Ok(Some(c)),
            _ => Err(self.unexpected("mg", &l)),
        }
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
        let b = key_token(key, out);
        // Writing into a Vec cannot fail.
        let _ = write!(out, " {}", value.len());
        if b {
            out.extend_from_slice(b" b");
        }
        let _ = write!(out, " F{flags} T{exp} c");
        out.extend_from_slice(match mode {
            Mode::Add => b" ME",
            Mode::Set => b" MS",
        });
        if let Some(c) = compare {
            let _ = write!(out, " C{c}");
        }
        out.extend_from_slice(b"\r\n");
        out.extend_from_slice(value);
        out.extend_from_slice(b"\r\n");
        Ok(())
    }

    /// Reads the reply to one [`queue_set`](Self::queue_set).
    pub fn read_set(&mut self) -> Result<SetReply, String> {
        let mut l = Vec::new();
        self.line(&mut l)?;
        let tokens: Vec<&[u8]> = l.split(|&b| b == b' ').collect();
        match tokens[0] {
            b"HD" => Ok(SetReply::Stored(
                token(&tokens[1..], b'c').ok_or_else(|| self.unexpected("ms", &l))?,
            )),
            b"NS" => Ok(SetReply::NotStored),
            b"EX" => Ok(SetReply::Exists),
            b"NF" => Ok(SetReply::NotFound),
            b"SERVER_ERROR" => Ok(SetReply::Refused),
            _ => Err(self.unexpected("ms", &l)),
        }
    }

    /// Queues an `md`, only if the item's CAS is `compare` when one is given.
    pub fn queue_delete(&mut self, key: &[u8], compare: Option<u64>) -> Result<(), String> {
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
        Ok(())
    }

    /// Reads the reply to one [`queue_delete`](Self::queue_delete).
    pub fn read_delete(&mut self) -> Result<DeleteReply, String> {
        let mut l = Vec::new();
        self.line(&mut l)?;
        match l.split(|&b| b == b' ').next() {
            Some(b"HD") => Ok(DeleteReply::Deleted),
            Some(b"NF") => Ok(DeleteReply::NotFound),
            Some(b"EX") => Ok(DeleteReply::Exists),
            _ => Err(self.unexpected("md", &l)),
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
    fn base64_matches_rfc4648() {
        assert_eq!(base64(b""), "");
        assert_eq!(base64(b"f"), "Zg==");
        assert_eq!(base64(b"fo"), "Zm8=");
        assert_eq!(base64(b"foo"), "Zm9v");
        assert_eq!(base64(b"foobar"), "Zm9vYmFy");
        assert_eq!(base64(&[0, 1, 2]), "AAEC");
        assert_eq!(base64(&[0xff, 0xfe]), "//4=");
    }

    #[test]
    fn metadump_lines_parse() {
        let l = b"key=a%25b%00 exp=1796154051 la=1796153951 cas=2 fetch=no cls=1 size=68";
        let it = parse_metadump(l).unwrap();
        assert_eq!(it.key, b"a%b\0");
        assert_eq!((it.exp, it.cas, it.size), (1796154051, 2, 68));
        let never = parse_metadump(b"key=k exp=-1 la=1 cas=9 fetch=no cls=1 size=66").unwrap();
        assert_eq!(never.exp, -1);
        assert!(parse_metadump(b"key=ab%2 exp=1").is_none());
        assert!(parse_metadump(b"exp=1").is_none());
        assert!(parse_metadump(b"key=k exp=x").is_none());
    }

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
    fn keys_the_text_protocol_cannot_carry_travel_in_base64() {
        let mut out = Vec::new();
        assert!(!key_token(b"user:1", &mut out));
        assert_eq!(out, b"user:1");
        out.clear();
        assert!(key_token(b"a b", &mut out));
        assert_eq!(out, b"YSBi");
    }
}
