//! A memcached text-protocol client that a misbehaving server cannot hang or flood: what
//! `audit` and `simulate --live` need (`set`, multi-key `get`, `delete`, `stats`,
//! `lru_crawler metadump all`, `stats cachedump`, `version`), built on a small pipelining
//! core ([`Conn::write_request`], [`Conn::read_line`], [`Conn::read_data`]) that other
//! commands can use.
//!
//! The rules every call follows:
//! - **One deadline per connection.** [`Conn::connect`] sets it to now + [`Options::timeout`];
//!   it covers the connect and every read and write after it, however the server trickles its
//!   bytes. [`Conn::set_deadline`] moves it (a long job can give each step its own budget).
//! - **Stop within [`POLL`].** No wait blocks longer than [`POLL`] without checking
//!   [`Options::stop`] (the flag Ctrl-C and SIGTERM raise, see [`crate::stop`]).
//! - **Bounded memory.** Every line is bounded ([`MAX_LINE`], [`MAX_LISTING_LINE`]), `stats`
//!   replies in lines and bytes, values by [`Options::max_value`], and a key listing is
//!   streamed to the caller, never collected (only an 8-byte fingerprint per key is kept,
//!   to drop the duplicates of repeated listing passes); a listing longer than the server's
//!   own item count allows is refused.
//! - **Only what memcached can send.** Keys are 1 to 250 bytes without spaces or control
//!   bytes ([`key_ok`]); `%` escapes in a metadump are two hex digits. A listing line that
//!   breaks these rules is reported ([`BadLine`]: its number and why) and skipped; the rest of
//!   the listing is kept.
//! - **Errors say what happened, where.** An [`Error`] names the server, the command and the
//!   cause ("timed out after 10 s waiting for the reply to `stats` from 127.0.0.1:11211").

use std::collections::hash_map::RandomState;
use std::collections::{HashMap, HashSet};
use std::fmt;
use std::hash::BuildHasher;
use std::io::{ErrorKind as IoKind, Read, Write};
use std::net::{SocketAddr, TcpStream, ToSocketAddrs};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// The longest any single wait lasts before the stop flag and the deadline are checked again.
pub const POLL: Duration = Duration::from_millis(100);
/// The default of [`Options::timeout`] (and of `--timeout`).
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(10);
/// The longest reply line accepted outside listings: status, `VALUE` and `STAT` lines.
pub const MAX_LINE: usize = 4096;
/// The longest listing line accepted (`lru_crawler metadump` writes a key of at most 250
/// bytes, at most 750 once `%`-encoded, and a few numeric fields).
pub const MAX_LISTING_LINE: usize = 2048;
/// The most `STAT` lines one `stats` reply may have (memcached sends a few hundred, `stats
/// items` about 20 per slab class).
pub const MAX_STATS_LINES: usize = 100_000;
/// The most bytes one `stats` reply may have.
pub const MAX_STATS_BYTES: usize = 4 << 20;
/// The default of [`Options::max_value`]: memcached's default item size limit (`-I 1m`).
pub const DEFAULT_MAX_VALUE: usize = 1 << 20;
/// Keys per pipelined batch (keeps both directions well inside the socket buffers).
const BATCH: usize = 200;
/// Bad listing lines kept for the report (the others are only counted).
const BAD_LINES_KEPT: usize = 10;

/// Whether a key can be sent in the text protocol (and so whether memcached can hold it):
/// 1 to 250 bytes, no space or control byte.
pub fn key_ok(key: &[u8]) -> bool {
    !key.is_empty() && key.len() <= 250 && key.iter().all(|&b| b > 0x20 && b != 0x7f)
}

/// How a connection waits.
#[derive(Clone, Copy, Debug)]
pub struct Options {
    /// The total time one server may take, from the connect on (see [`Conn::set_deadline`]).
    pub timeout: Duration,
    /// Raised to abandon every wait (within [`POLL`]); see [`crate::stop::flag`].
    pub stop: &'static AtomicBool,
    /// The largest value [`Conn::get_many`] reads back.
    pub max_value: usize,
}

impl Options {
    /// `timeout`, the process-wide stop flag ([`crate::stop::flag`]), memcached's default
    /// value limit.
    pub fn new(timeout: Duration) -> Options {
        Options {
            timeout,
            stop: crate::stop::flag(),
            max_value: DEFAULT_MAX_VALUE,
        }
    }
}

impl Default for Options {
    fn default() -> Options {
        Options::new(DEFAULT_TIMEOUT)
    }
}

/// What went wrong, for callers that react differently (the message says it to people).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorKind {
    /// The name did not resolve.
    Resolve,
    /// The connection was refused or failed.
    Connect,
    /// The deadline passed.
    Timeout,
    /// The stop flag was raised.
    Interrupted,
    /// The server closed the connection (between replies or inside one).
    Closed,
    /// A read or write failed otherwise.
    Io,
    /// The server sent something memcached does not send (too long, malformed, unexpected).
    Protocol,
    /// The server answered with an error line (`SERVER_ERROR ...`, `NOT_STORED`, ...).
    Refused,
}

/// A failed call: which server, what kind, and a sentence that says it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    /// The server, as the caller named it.
    pub server: String,
    /// What kind of failure.
    pub kind: ErrorKind,
    /// The whole message (it names the server).
    pub message: String,
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Error {}

impl From<Error> for String {
    fn from(e: Error) -> String {
        e.message
    }
}

/// How a server's keys were listed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KeyListing {
    /// `lru_crawler metadump all`: every key.
    Metadump,
    /// `stats cachedump`: at most about 2 MB of listing per slab class (memcached's limit),
    /// and on servers with a segmented LRU (1.5+) only each class's HOT part: keys may be
    /// missing.
    Cachedump,
}

impl KeyListing {
    /// The command, for messages.
    pub fn command(self) -> &'static str {
        match self {
            KeyListing::Metadump => "lru_crawler metadump all",
            KeyListing::Cachedump => "stats cachedump",
        }
    }
}

/// A listing line that was skipped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BadLine {
    /// Its number in the reply (1 = the first line), in the pass that saw it.
    pub line: u64,
    /// Why it was skipped.
    pub reason: String,
}

/// What [`Conn::list_keys`] found besides the keys it streamed.
#[derive(Clone, Debug)]
pub struct Listed {
    /// The command used.
    pub listing: KeyListing,
    /// The distinct keys listed (each given once to the caller).
    pub keys: u64,
    /// `curr_items` from `stats` before listing (it also counts expired items not yet
    /// reclaimed, so it may exceed the keys listed).
    pub items: u64,
    /// The first bad lines, in order.
    pub bad: Vec<BadLine>,
    /// How many bad lines there were in all.
    pub bad_count: u64,
}

/// One connection to one server.
#[derive(Debug)]
pub struct Conn {
    name: String,
    stream: TcpStream,
    opts: Options,
    deadline: Instant,
    /// Received bytes not yet consumed: `buf[start..]`.
    buf: Vec<u8>,
    start: usize,
    /// The request whose reply is being read, for messages.
    doing: String,
}

/// How a wait ended early.
enum Wait {
    Timeout,
    Stopped,
}

impl Conn {
    /// Connects to `host:port` (names are resolved; every address is tried in turn, all within
    /// one deadline of `opts.timeout`).
    pub fn connect(addr: &str, opts: Options) -> Result<Conn, Error> {
        let deadline = Instant::now() + opts.timeout;
        let addrs: Vec<SocketAddr> = addr
            .to_socket_addrs()
            .map_err(|e| {
                error(
                    addr,
                    ErrorKind::Resolve,
                    format!("cannot resolve {addr}: {e}"),
                )
            })?
            .collect();
        let mut last = error(
            addr,
            ErrorKind::Resolve,
            format!("{addr} resolves to no address"),
        );
        for a in addrs {
            match Conn::open(a, addr, opts, deadline) {
                Ok(c) => return Ok(c),
                Err(e) if e.kind == ErrorKind::Connect => last = e,
                Err(e) => return Err(e),
            }
        }
        Err(last)
    }

    /// Connects to one socket address; `name` is used in messages.
    pub fn connect_addr(a: SocketAddr, name: &str, opts: Options) -> Result<Conn, Error> {
        Conn::open(a, name, opts, Instant::now() + opts.timeout)
    }

    fn open(a: SocketAddr, name: &str, opts: Options, deadline: Instant) -> Result<Conn, Error> {
        let stream = loop {
            if opts.stop.load(Ordering::SeqCst) {
                return Err(error(
                    name,
                    ErrorKind::Interrupted,
                    format!("interrupted while connecting to {name}"),
                ));
            }
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return Err(error(
                    name,
                    ErrorKind::Timeout,
                    format!(
                        "timed out after {} connecting to {name}",
                        secs(opts.timeout)
                    ),
                ));
            }
            match TcpStream::connect_timeout(&a, left.min(POLL)) {
                Ok(s) => break s,
                Err(e) if is_wait(&e) => continue,
                Err(e) => {
                    return Err(error(
                        name,
                        ErrorKind::Connect,
                        format!("cannot connect to {name}: {}", io_text(&e)),
                    ))
                }
            }
        };
        stream
            .set_nodelay(true)
            .map_err(|e| error(name, ErrorKind::Io, format!("{name}: {}", io_text(&e))))?;
        Ok(Conn {
            name: name.to_string(),
            stream,
            opts,
            deadline,
            buf: Vec::with_capacity(16 * 1024),
            start: 0,
            doing: String::new(),
        })
    }

    /// The server's name in messages.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Moves this connection's deadline (e.g. `Instant::now() + timeout` before each step of
    /// a long job).
    pub fn set_deadline(&mut self, deadline: Instant) {
        self.deadline = deadline;
    }

    /// The current deadline.
    pub fn deadline(&self) -> Instant {
        self.deadline
    }

    fn fail(&self, kind: ErrorKind, what: impl fmt::Display) -> Error {
        error(&self.name, kind, what.to_string())
    }

    /// "the reply to `stats` from 127.0.0.1:11211", for messages.
    fn reply_to(&self) -> String {
        if self.doing.is_empty() {
            format!("a reply from {}", self.name)
        } else {
            format!("the reply to `{}` from {}", self.doing, self.name)
        }
    }

    fn protocol(&self, what: impl fmt::Display) -> Error {
        self.fail(
            ErrorKind::Protocol,
            format!("{what} in {} (memcached never sends that)", self.reply_to()),
        )
    }

    fn waited(&self, w: Wait, doing: &str) -> Error {
        match w {
            Wait::Timeout => self.fail(
                ErrorKind::Timeout,
                format!("timed out after {} {doing}", secs(self.opts.timeout)),
            ),
            Wait::Stopped => self.fail(ErrorKind::Interrupted, format!("interrupted {doing}")),
        }
    }

    /// How long the next blocking call may wait, or why it may not.
    fn slice(&self) -> Result<Duration, Wait> {
        if self.opts.stop.load(Ordering::SeqCst) {
            return Err(Wait::Stopped);
        }
        let left = self.deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Err(Wait::Timeout);
        }
        Ok(left.min(POLL))
    }

    /// Sends one or more requests (pipelining: write several, then read their replies in
    /// order). `command` names them in messages (e.g. `get`).
    pub fn write_request(&mut self, command: &str, mut bytes: &[u8]) -> Result<(), Error> {
        self.doing = command.to_string();
        while !bytes.is_empty() {
            let t = self
                .slice()
                .map_err(|w| self.waited(w, &format!("sending `{command}` to {}", self.name)))?;
            self.stream
                .set_write_timeout(Some(t))
                .map_err(|e| self.fail(ErrorKind::Io, io_text(&e)))?;
            match self.stream.write(bytes) {
                Ok(0) => {
                    return Err(self.fail(
                        ErrorKind::Closed,
                        format!(
                            "connection closed by {} while sending `{command}`",
                            self.name
                        ),
                    ))
                }
                Ok(n) => bytes = &bytes[n..],
                Err(e) if is_wait(&e) => {}
                Err(e) => {
                    return Err(self.fail(
                        if is_closed(&e) {
                            ErrorKind::Closed
                        } else {
                            ErrorKind::Io
                        },
                        format!("cannot send `{command}` to {}: {}", self.name, io_text(&e)),
                    ))
                }
            }
        }
        Ok(())
    }

    /// Reads more bytes into the buffer; `Ok(false)` at end of stream.
    fn fill(&mut self) -> Result<bool, Error> {
        if self.start > 0 && self.start == self.buf.len() {
            self.buf.clear();
            self.start = 0;
        } else if self.start > self.buf.capacity() / 2 {
            self.buf.drain(..self.start);
            self.start = 0;
        }
        let mut chunk = [0u8; 16 * 1024];
        loop {
            let t = self
                .slice()
                .map_err(|w| self.waited(w, &format!("waiting for {}", self.reply_to())))?;
            self.stream
                .set_read_timeout(Some(t))
                .map_err(|e| self.fail(ErrorKind::Io, io_text(&e)))?;
            match self.stream.read(&mut chunk) {
                Ok(0) => return Ok(false),
                Ok(n) => {
                    self.buf.extend_from_slice(&chunk[..n]);
                    return Ok(true);
                }
                Err(e) if is_wait(&e) => {}
                Err(e) => {
                    return Err(self.fail(
                        if is_closed(&e) {
                            ErrorKind::Closed
                        } else {
                            ErrorKind::Io
                        },
                        format!("cannot read {}: {}", self.reply_to(), io_text(&e)),
                    ))
                }
            }
        }
    }

    fn closed(&self, mid_line: bool) -> Error {
        self.fail(
            ErrorKind::Closed,
            if mid_line {
                format!(
                    "connection closed by {} in the middle of a reply line ({})",
                    self.name,
                    self.reply_to()
                )
            } else {
                format!(
                    "connection closed by {} before {}",
                    self.name,
                    self.reply_to()
                )
            },
        )
    }

    /// One reply line without its `\r\n`, at most `max` bytes. `Ok(None)`: the line was
    /// longer; it has been read past and dropped (the next call reads the line after it).
    pub fn read_line(&mut self, max: usize) -> Result<Option<Vec<u8>>, Error> {
        let mut searched = 0;
        let mut too_long = false;
        loop {
            let pending = &self.buf[self.start..];
            if let Some(i) = pending[searched..].iter().position(|&b| b == b'\n') {
                let end = searched + i;
                let mut line = &pending[..end];
                if line.last() == Some(&b'\r') {
                    line = &line[..line.len() - 1];
                }
                let out = (!too_long && line.len() <= max).then(|| line.to_vec());
                self.start += end + 1;
                return Ok(out);
            }
            searched = pending.len();
            if searched > max + 1 {
                // Drop what is read of an overlong line; keep looking for its end.
                too_long = true;
                self.start = self.buf.len();
                searched = 0;
            }
            if !self.fill()? {
                return Err(self.closed(too_long || self.start < self.buf.len()));
            }
        }
    }

    /// A reply line that must fit in `max` bytes (an overlong one is an error).
    fn line(&mut self, max: usize) -> Result<Vec<u8>, Error> {
        match self.read_line(max)? {
            Some(l) => Ok(l),
            None => Err(self.protocol(format!("a line longer than {max} bytes"))),
        }
    }

    /// Exactly `len` bytes of data followed by `\r\n` (a `VALUE`'s data block).
    pub fn read_data(&mut self, len: usize) -> Result<Vec<u8>, Error> {
        while self.buf.len() - self.start < len + 2 {
            if !self.fill()? {
                return Err(self.fail(
                    ErrorKind::Closed,
                    format!(
                        "connection closed by {} in the middle of a value ({})",
                        self.name,
                        self.reply_to()
                    ),
                ));
            }
        }
        let block = &self.buf[self.start..self.start + len + 2];
        if &block[len..] != b"\r\n" {
            return Err(self.protocol("a data block not ended by \\r\\n"));
        }
        let v = block[..len].to_vec();
        self.start += len + 2;
        Ok(v)
    }

    /// An error for an unexpected reply line: the server's own error, or garbage.
    fn unexpected(&self, l: &[u8]) -> Error {
        if l.starts_with(b"SERVER_ERROR")
            || l.starts_with(b"CLIENT_ERROR")
            || l == b"ERROR"
            || l == b"NOT_STORED"
        {
            self.fail(
                ErrorKind::Refused,
                format!(
                    "{} answered `{}` with {}",
                    self.name,
                    self.doing,
                    printable(l)
                ),
            )
        } else {
            self.protocol(format!("unexpected line {}", printable(l)))
        }
    }

    /// `version`: the server's version string.
    pub fn version(&mut self) -> Result<String, Error> {
        self.write_request("version", b"version\r\n")?;
        let l = self.line(MAX_LINE)?;
        match l.strip_prefix(b"VERSION ") {
            Some(v) => Ok(String::from_utf8_lossy(v).into_owned()),
            None => Err(self.unexpected(&l)),
        }
    }

    /// Stores each `(key, value)` (`set`, no expiry, flags 0), pipelined. Every key must pass
    /// [`key_ok`]. Fails on any reply other than `STORED`.
    pub fn set_many(&mut self, items: &[(&[u8], &[u8])]) -> Result<(), Error> {
        for chunk in items.chunks(BATCH) {
            let mut out = Vec::with_capacity(chunk.len() * 48);
            for (k, v) in chunk {
                if !key_ok(k) {
                    return Err(self.fail(
                        ErrorKind::Protocol,
                        format!(
                            "a key the text protocol cannot carry ('{}'), not sent to {}",
                            printable(k),
                            self.name
                        ),
                    ));
                }
                out.extend_from_slice(b"set ");
                out.extend_from_slice(k);
                out.extend_from_slice(format!(" 0 0 {}\r\n", v.len()).as_bytes());
                out.extend_from_slice(v);
                out.extend_from_slice(b"\r\n");
            }
            self.write_request("set", &out)?;
            for _ in chunk {
                let l = self.line(MAX_LINE)?;
                if l != b"STORED" {
                    return Err(self.unexpected(&l));
                }
            }
        }
        Ok(())
    }

    /// Multi-key `get`: the keys found, with their values. Keys that fail [`key_ok`] are
    /// never sent (and so never found).
    pub fn get_many(&mut self, keys: &[&[u8]]) -> Result<HashMap<Vec<u8>, Vec<u8>>, Error> {
        let mut found = HashMap::new();
        let keys: Vec<&[u8]> = keys.iter().copied().filter(|k| key_ok(k)).collect();
        for chunk in keys.chunks(BATCH) {
            let mut out = b"get".to_vec();
            for k in chunk {
                out.push(b' ');
                out.extend_from_slice(k);
            }
            out.extend_from_slice(b"\r\n");
            self.write_request("get", &out)?;
            // At most one VALUE per key sent, then END.
            let mut ended = false;
            for _ in 0..=chunk.len() {
                let l = self.line(MAX_LINE)?;
                if l == b"END" {
                    ended = true;
                    break;
                }
                let Some((key, len)) = parse_value_line(&l) else {
                    return Err(self.unexpected(&l));
                };
                if !chunk.contains(&key.as_slice()) {
                    return Err(
                        self.protocol(format!("a key not asked for ('{}')", printable(&key)))
                    );
                }
                if len > self.opts.max_value {
                    return Err(self.protocol(format!(
                        "a value of {len} bytes (the limit is {})",
                        self.opts.max_value
                    )));
                }
                let v = self.read_data(len)?;
                found.insert(key, v);
            }
            if !ended {
                return Err(self.protocol("more values than keys asked for"));
            }
        }
        Ok(found)
    }

    /// `delete` of each key; returns how many existed. Keys that fail [`key_ok`] are never
    /// sent.
    pub fn delete_many(&mut self, keys: &[&[u8]]) -> Result<usize, Error> {
        let mut deleted = 0;
        for chunk in keys.chunks(BATCH) {
            let mut out = Vec::new();
            let mut sent = 0;
            for k in chunk.iter().filter(|k| key_ok(k)) {
                out.extend_from_slice(b"delete ");
                out.extend_from_slice(k);
                out.extend_from_slice(b"\r\n");
                sent += 1;
            }
            self.write_request("delete", &out)?;
            for _ in 0..sent {
                let l = self.line(MAX_LINE)?;
                match l.as_slice() {
                    b"DELETED" => deleted += 1,
                    b"NOT_FOUND" => {}
                    _ => return Err(self.unexpected(&l)),
                }
            }
        }
        Ok(deleted)
    }

    /// `stats` or `stats <group>`: the `STAT name value` lines, in order (at most
    /// [`MAX_STATS_LINES`] lines and [`MAX_STATS_BYTES`] bytes).
    pub fn stats(&mut self, group: &str) -> Result<Vec<(String, String)>, Error> {
        let cmd = if group.is_empty() {
            "stats".to_string()
        } else {
            format!("stats {group}")
        };
        self.write_request(&cmd, format!("{cmd}\r\n").as_bytes())?;
        let mut out = Vec::new();
        let mut bytes = 0usize;
        loop {
            let l = self.line(MAX_LINE)?;
            if l == b"END" {
                return Ok(out);
            }
            let Some(rest) = l.strip_prefix(b"STAT ") else {
                return Err(self.unexpected(&l));
            };
            let text = String::from_utf8_lossy(rest);
            let (k, v) = text.split_once(' ').unwrap_or((&text, ""));
            bytes += l.len() + 2;
            out.push((k.to_string(), v.to_string()));
            if out.len() > MAX_STATS_LINES || bytes > MAX_STATS_BYTES {
                return Err(self.protocol(format!(
                    "more than {MAX_STATS_LINES} lines or {} MB",
                    MAX_STATS_BYTES >> 20
                )));
            }
        }
    }

    /// `curr_items` from `stats`.
    pub fn item_count(&mut self) -> Result<u64, Error> {
        let stats = self.stats("")?;
        stats
            .iter()
            .find(|(k, _)| k == "curr_items")
            .and_then(|(_, v)| v.parse().ok())
            .ok_or_else(|| self.protocol("no curr_items"))
    }

    /// Every key the server holds, each given once to `each`: `lru_crawler metadump all`, or
    /// `stats cachedump` per slab class where the crawler is missing or disabled. Reads only.
    ///
    /// Neither command is a snapshot: while the server's LRU maintainer moves items between
    /// its queues (e.g. just after many reads), a crawl can miss some. So the listing is
    /// repeated, a few times at most, until the distinct keys seen reach the server's
    /// `curr_items` (read first). One pass may list at most `2 * curr_items + 100000` lines
    /// (a busy server adds keys while it is listed; an endless listing is refused).
    pub fn list_keys(&mut self, mut each: impl FnMut(&[u8])) -> Result<Listed, Error> {
        let items = self.item_count()?;
        let fingerprints = RandomState::new();
        let mut seen = HashSet::new();
        let mut listed = Listed {
            listing: KeyListing::Metadump,
            keys: 0,
            items,
            bad: Vec::new(),
            bad_count: 0,
        };
        let limit = items.saturating_mul(2).saturating_add(100_000);
        for pass in 0..6u64 {
            let mut sink = |key: &[u8]| {
                if seen.insert(fingerprints.hash_one(key)) {
                    listed.keys += 1;
                    each(key);
                }
            };
            let mut bad = Vec::new();
            let mut bad_count = 0u64;
            let mut report = |line: u64, reason: String| {
                bad_count += 1;
                if bad.len() < BAD_LINES_KEPT {
                    bad.push(BadLine { line, reason });
                }
            };
            if !self.metadump(limit, &mut sink, &mut report)? {
                listed.listing = KeyListing::Cachedump;
                self.cachedump(limit, &mut sink, &mut report)?;
            }
            // Bad lines of the last pass only: each pass lists the same server again.
            listed.bad = bad;
            listed.bad_count = bad_count;
            if listed.keys >= items {
                break;
            }
            self.pause(Duration::from_millis(100 * (pass + 1)))?;
        }
        Ok(listed)
    }

    /// Sleeps, unless the stop flag or the deadline comes first.
    fn pause(&self, d: Duration) -> Result<(), Error> {
        let until = Instant::now() + d;
        while Instant::now() < until {
            let t = self
                .slice()
                .map_err(|w| self.waited(w, &format!("listing the keys of {}", self.name)))?;
            std::thread::sleep(t.min(until.saturating_duration_since(Instant::now())));
        }
        Ok(())
    }

    /// `false` when the server has no (enabled) LRU crawler.
    fn metadump(
        &mut self,
        limit: u64,
        sink: &mut dyn FnMut(&[u8]),
        report: &mut dyn FnMut(u64, String),
    ) -> Result<bool, Error> {
        const CMD: &str = "lru_crawler metadump all";
        // The crawler serves one request at a time; BUSY means another one is running.
        for attempt in 0..20 {
            self.write_request(CMD, b"lru_crawler metadump all\r\n")?;
            let mut n = 1u64;
            let mut l = self.read_line(MAX_LISTING_LINE)?;
            if let Some(first) = &l {
                if first.starts_with(b"BUSY") {
                    self.pause(Duration::from_millis(100 * (attempt + 1)))?;
                    continue;
                }
                if first == b"ERROR"
                    || first.starts_with(b"CLIENT_ERROR")
                    || first.starts_with(b"SERVER_ERROR")
                {
                    return Ok(false);
                }
            }
            loop {
                match &l {
                    Some(line) if line == b"END" => return Ok(true),
                    Some(line) => match metadump_key(line) {
                        Ok(k) => sink(&k),
                        Err(why) => report(n, why),
                    },
                    None => report(n, format!("longer than {MAX_LISTING_LINE} bytes")),
                }
                if n > limit {
                    return Err(self.listing_too_long(n));
                }
                l = self.read_line(MAX_LISTING_LINE)?;
                n += 1;
            }
        }
        Err(self.fail(
            ErrorKind::Refused,
            format!("the LRU crawler of {} stayed busy", self.name),
        ))
    }

    fn listing_too_long(&self, n: u64) -> Error {
        self.protocol(format!(
            "more than {} lines, though the server counts fewer items",
            n - 1
        ))
    }

    fn cachedump(
        &mut self,
        limit: u64,
        sink: &mut dyn FnMut(&[u8]),
        report: &mut dyn FnMut(u64, String),
    ) -> Result<(), Error> {
        let mut classes: Vec<u32> = self
            .stats("items")?
            .iter()
            .filter_map(|(k, _)| k.strip_prefix("items:")?.split(':').next()?.parse().ok())
            .collect();
        classes.sort_unstable();
        classes.dedup();
        let mut n = 0u64;
        for c in classes {
            let cmd = format!("stats cachedump {c} 0");
            self.write_request(&cmd, format!("{cmd}\r\n").as_bytes())?;
            loop {
                n += 1;
                match self.read_line(MAX_LISTING_LINE)? {
                    Some(l) if l == b"END" => break,
                    Some(l) => match cachedump_key(&l) {
                        Ok(k) => sink(k),
                        Err(why) => report(n, why),
                    },
                    None => report(n, format!("longer than {MAX_LISTING_LINE} bytes")),
                }
                if n > limit {
                    return Err(self.listing_too_long(n));
                }
            }
        }
        Ok(())
    }
}

fn error(server: &str, kind: ErrorKind, message: String) -> Error {
    Error {
        server: server.to_string(),
        kind,
        message,
    }
}

/// `10 s`, `1.5 s`.
fn secs(d: Duration) -> String {
    format!("{} s", d.as_secs_f64())
}

fn is_wait(e: &std::io::Error) -> bool {
    matches!(
        e.kind(),
        IoKind::WouldBlock | IoKind::TimedOut | IoKind::Interrupted
    )
}

fn is_closed(e: &std::io::Error) -> bool {
    matches!(
        e.kind(),
        IoKind::ConnectionReset | IoKind::ConnectionAborted | IoKind::BrokenPipe
    )
}

/// An io error without the `(os error N)` tail.
fn io_text(e: &std::io::Error) -> String {
    let s = e.to_string();
    match s.find(" (os error") {
        Some(i) => s[..i].to_lowercase(),
        None => s,
    }
}

/// Server bytes for a message: printable ASCII as is, the rest as `\xNN`, at most 80 bytes.
pub fn printable(b: &[u8]) -> String {
    let mut s = String::new();
    for &c in b.iter().take(80) {
        if (0x20..0x7f).contains(&c) && c != b'\\' {
            s.push(c as char);
        } else {
            s.push_str(&format!("\\x{c:02x}"));
        }
    }
    if b.len() > 80 {
        s.push_str(&format!("... ({} bytes)", b.len()));
    }
    s
}

/// `VALUE <key> <flags> <bytes> [<cas>]` -> (key, bytes).
fn parse_value_line(l: &[u8]) -> Option<(Vec<u8>, usize)> {
    let mut parts = l.split(|&b| b == b' ');
    if parts.next()? != b"VALUE" {
        return None;
    }
    let key = parts.next()?.to_vec();
    let _flags = parts.next()?;
    let len = std::str::from_utf8(parts.next()?).ok()?;
    if !len.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some((key, len.parse().ok()?))
}

/// The key of a metadump line `key=<uri-encoded> exp=... la=... ...`, or why the line is not
/// one memcached sends.
fn metadump_key(l: &[u8]) -> Result<Vec<u8>, String> {
    let field = l.split(|&b| b == b' ').next().unwrap_or_default();
    let Some(enc) = field.strip_prefix(b"key=") else {
        return Err(format!("not a metadump line: {}", printable(l)));
    };
    let key = uri_decode(enc).ok_or_else(|| format!("a bad %-escape in key={}", printable(enc)))?;
    if !key_ok(&key) {
        return Err(format!("not a memcached key: {}", bad_key(&key)));
    }
    Ok(key)
}

/// The key of a cachedump line `ITEM <key> [<size> b; <time> s]`.
fn cachedump_key(l: &[u8]) -> Result<&[u8], String> {
    let key = l
        .strip_prefix(b"ITEM ")
        .and_then(|r| r.split(|&b| b == b' ').next())
        .ok_or_else(|| format!("not a cachedump line: {}", printable(l)))?;
    if !key_ok(key) {
        return Err(format!("not a memcached key: {}", bad_key(key)));
    }
    Ok(key)
}

fn bad_key(k: &[u8]) -> String {
    if k.is_empty() {
        "empty".into()
    } else if k.len() > 250 {
        format!("{} bytes (the limit is 250)", k.len())
    } else {
        format!("'{}' has a space or control byte", printable(k))
    }
}

/// memcached's `uriencode` reversed: `%XX` (two hex digits) is a byte, everything else is
/// itself.
fn uri_decode(s: &[u8]) -> Option<Vec<u8>> {
    fn hex(b: u8) -> Option<u8> {
        match b {
            b'0'..=b'9' => Some(b - b'0'),
            b'a'..=b'f' => Some(b - b'a' + 10),
            b'A'..=b'F' => Some(b - b'A' + 10),
            _ => None,
        }
    }
    let mut out = Vec::with_capacity(s.len());
    let mut i = 0;
    while i < s.len() {
        if s[i] == b'%' {
            let hi = hex(*s.get(i + 1)?)?;
            let lo = hex(*s.get(i + 2)?)?;
            out.push(hi << 4 | lo);
            i += 3;
        } else {
            out.push(s[i]);
            i += 1;
        }
    }
    Some(out)
}

#[cfg(test)]
#[path = "../tests/common/fake.rs"]
mod fake;

#[cfg(test)]
mod tests {
    use super::*;
    use fake::Fake;

    static NEVER: AtomicBool = AtomicBool::new(false);

    fn opts(ms: u64) -> Options {
        Options {
            timeout: Duration::from_millis(ms),
            stop: &NEVER,
            max_value: DEFAULT_MAX_VALUE,
        }
    }

    fn list(f: &Fake, ms: u64) -> (Result<Listed, Error>, Vec<Vec<u8>>) {
        let mut keys = Vec::new();
        let r = Conn::connect(f.addr(), opts(ms))
            .and_then(|mut c| c.list_keys(|k| keys.push(k.to_vec())));
        (r, keys)
    }

    #[test]
    fn keys_the_protocol_carries() {
        assert!(key_ok(b"user:1"));
        assert!(key_ok("caf\u{e9}".as_bytes()));
        assert!(key_ok(&[b'k'; 250]));
        assert!(!key_ok(&[b'k'; 251]));
        assert!(!key_ok(b""));
        assert!(!key_ok(b"a b"));
        assert!(!key_ok(b"a\tb"));
        assert!(!key_ok(b"a\x7f"));
    }

    #[test]
    fn metadump_lines() {
        let l = b"key=user%3A1%2Fx exp=-1 la=1700000000 cas=2 fetch=no cls=1 size=70";
        assert_eq!(metadump_key(l).as_deref(), Ok(&b"user:1/x"[..]));
        assert_eq!(metadump_key(b"key=abc").as_deref(), Ok(&b"abc"[..]));
        assert!(metadump_key(b"key=ab%2").is_err());
        assert!(metadump_key(b"key=ab%zz").is_err());
        assert!(metadump_key(b"key=%+1").is_err(), "from_str_radix takes +1");
        assert!(metadump_key(b"key=%-1").is_err());
        assert!(
            metadump_key(b"key=a%20b").is_err(),
            "memcached keys have no space"
        );
        assert!(metadump_key(b"key=a%1bb").is_err());
        assert!(metadump_key(b"key=").is_err());
        assert!(metadump_key(format!("key={}", "k".repeat(251)).as_bytes()).is_err());
        assert!(metadump_key(b"exp=1").is_err());
    }

    #[test]
    fn value_lines() {
        assert_eq!(parse_value_line(b"VALUE k 0 12"), Some((b"k".to_vec(), 12)));
        assert_eq!(
            parse_value_line(b"VALUE k 3 0 99"),
            Some((b"k".to_vec(), 0))
        );
        assert_eq!(parse_value_line(b"VALUE k 0"), None);
        assert_eq!(parse_value_line(b"VALUX k 0 1"), None);
        assert_eq!(parse_value_line(b"VALUE k 0 -1"), None);
        assert_eq!(parse_value_line(b"VALUE k 0 +1"), None);
    }

    #[test]
    fn a_slow_server_gets_one_deadline_for_everything() {
        let f = Fake::slow();
        let t = Instant::now();
        let (r, _) = list(&f, 1500);
        let e = r.unwrap_err();
        assert_eq!(e.kind, ErrorKind::Timeout, "{e}");
        assert!(
            t.elapsed() < Duration::from_millis(1900),
            "{:?}",
            t.elapsed()
        );
        assert_eq!(
            e.message,
            format!(
                "timed out after 1.5 s waiting for the reply to `stats` from {}",
                f.addr()
            )
        );
    }

    #[test]
    fn a_stalled_server_times_out_and_a_stop_interrupts_within_a_poll() {
        let f = Fake::stalled();
        let t = Instant::now();
        let e = list(&f, 300).0.unwrap_err();
        assert_eq!(e.kind, ErrorKind::Timeout);
        assert!(t.elapsed() < Duration::from_millis(600));

        static STOP: AtomicBool = AtomicBool::new(false);
        let mut c = Conn::connect(
            f.addr(),
            Options {
                stop: &STOP,
                ..opts(60_000)
            },
        )
        .unwrap();
        let raise = std::thread::spawn(|| {
            std::thread::sleep(Duration::from_millis(200));
            STOP.store(true, Ordering::SeqCst);
        });
        let t = Instant::now();
        let e = c.version().unwrap_err();
        raise.join().unwrap();
        assert_eq!(e.kind, ErrorKind::Interrupted, "{e}");
        assert!(
            t.elapsed() < Duration::from_millis(200) + POLL * 2,
            "{:?}",
            t.elapsed()
        );
        assert!(e.message.contains("`version`"), "{e}");
    }

    #[test]
    fn endless_replies_are_refused_not_collected() {
        let f = Fake::endless_metadump();
        let (r, keys) = list(&f, 20_000);
        let e = r.unwrap_err();
        assert_eq!(e.kind, ErrorKind::Protocol, "{e}");
        assert!(e.message.contains("more than 100020 lines"), "{e}");
        assert!(e.message.contains(f.addr()), "{e}");
        assert_eq!(keys.len(), 100_021);

        let f = Fake::endless_stats();
        let mut c = Conn::connect(f.addr(), opts(20_000)).unwrap();
        let e = c.stats("").unwrap_err();
        assert_eq!(e.kind, ErrorKind::Protocol, "{e}");
        assert!(e.message.contains("`stats`"), "{e}");
    }

    #[test]
    fn bad_listing_lines_are_reported_and_skipped() {
        let f = Fake::garbage();
        let (r, keys) = list(&f, 5000);
        let l = r.unwrap();
        assert_eq!(keys, [&b"good:1"[..], b"good:2", b"good:3"]);
        assert_eq!(l.keys, 3);
        assert_eq!(l.bad_count, 5);
        let lines: Vec<u64> = l.bad.iter().map(|b| b.line).collect();
        assert_eq!(lines, [2, 4, 6, 7, 8]);
        assert!(l.bad[0].reason.contains("bad %-escape"), "{:?}", l.bad);
        assert!(l.bad[1].reason.contains("longer than 2048"), "{:?}", l.bad);
        assert!(
            l.bad[2].reason.contains("not a metadump line"),
            "{:?}",
            l.bad
        );
        assert!(l.bad[3].reason.contains("space or control"), "{:?}", l.bad);
        assert!(l.bad[4].reason.contains("\\x1b[2J"), "{:?}", l.bad);
    }

    #[test]
    fn a_connection_closed_mid_line_says_so() {
        let f = Fake::killed_mid_reply();
        let (r, keys) = list(&f, 5000);
        let e = r.unwrap_err();
        assert_eq!(e.kind, ErrorKind::Closed);
        assert_eq!(
            e.message,
            format!(
                "connection closed by {0} in the middle of a reply line (the reply to `lru_crawler metadump all` from {0})",
                f.addr()
            )
        );
        assert_eq!(keys, [b"first".to_vec()]);
    }

    #[test]
    fn a_refused_connection_names_the_server() {
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let addr = format!("127.0.0.1:{port}");
        let e = Conn::connect(&addr, opts(1000)).unwrap_err();
        assert_eq!(e.kind, ErrorKind::Connect);
        assert_eq!(
            e.message,
            format!("cannot connect to {addr}: connection refused")
        );
    }
}
