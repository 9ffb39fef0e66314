//! A small memcached text-protocol client: just what `simulate --live` and `audit` need
//! (`set`, multi-key `get`, `delete`, `stats`, `stats items`, `stats cachedump`,
//! `lru_crawler metadump all`, `version`).
//!
//! Every connect, read and write has a timeout, and every loop over a reply is bounded by the
//! reply itself (it ends at `END`) or by a line-length limit, so a silent or misbehaving server
//! makes a call fail, never hang.

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Write};
use std::net::{SocketAddr, TcpStream, ToSocketAddrs};
use std::time::Duration;

/// How long to wait for a connection.
pub const CONNECT_TIMEOUT: Duration = Duration::from_secs(2);
/// How long one read or write may block.
pub const IO_TIMEOUT: Duration = Duration::from_secs(10);
/// The longest reply line we accept (a metadump line is under 400 bytes).
const MAX_LINE: usize = 64 * 1024;
/// The largest value we read back.
const MAX_VALUE: usize = 2 * 1024 * 1024;
/// Keys per pipelined batch (keeps both directions well inside the socket buffers).
const BATCH: usize = 200;

/// Whether a key can be sent in the text protocol: 1 to 250 bytes, no space or control byte.
pub fn key_ok(key: &[u8]) -> bool {
    !key.is_empty() && key.len() <= 250 && key.iter().all(|&b| b > 0x20 && b != 0x7f)
}

/// One connection to one server.
#[derive(Debug)]
pub struct Conn {
    addr: String,
    r: BufReader<TcpStream>,
    w: TcpStream,
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

/// A server's keys as [`Conn::list_keys`] found them.
#[derive(Clone, Debug)]
pub struct Listed {
    /// The command used.
    pub listing: KeyListing,
    /// The distinct keys listed.
    pub keys: Vec<Vec<u8>>,
    /// `curr_items` from `stats` before listing (it also counts expired items not yet
    /// reclaimed, so it may exceed the keys listed).
    pub items: u64,
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

impl Conn {
    /// Connects to `host:port` (names are resolved; every address is tried in turn).
    pub fn connect(addr: &str) -> Result<Conn, String> {
        let addrs: Vec<SocketAddr> = addr
            .to_socket_addrs()
            .map_err(|e| format!("{addr}: cannot resolve: {e}"))?
            .collect();
        let mut last = format!("{addr}: no address");
        for a in addrs {
            match Conn::connect_addr(a, addr) {
                Ok(c) => return Ok(c),
                Err(e) => last = e,
            }
        }
        Err(last)
    }

    /// Connects to one socket address; `name` is used in messages.
    pub fn connect_addr(a: SocketAddr, name: &str) -> Result<Conn, String> {
        let s = TcpStream::connect_timeout(&a, CONNECT_TIMEOUT)
            .map_err(|e| format!("{name}: cannot connect: {e}"))?;
        let setup = || -> std::io::Result<(TcpStream, TcpStream)> {
            s.set_read_timeout(Some(IO_TIMEOUT))?;
            s.set_write_timeout(Some(IO_TIMEOUT))?;
            s.set_nodelay(true)?;
            Ok((s.try_clone()?, s.try_clone()?))
        };
        let (r, w) = setup().map_err(|e| format!("{name}: {e}"))?;
        Ok(Conn {
            addr: name.to_string(),
            r: BufReader::new(r),
            w,
        })
    }

    fn err(&self, what: impl std::fmt::Display) -> String {
        format!("{}: {what}", self.addr)
    }

    fn send(&mut self, bytes: &[u8]) -> Result<(), String> {
        self.w
            .write_all(bytes)
            .and_then(|_| self.w.flush())
            .map_err(|e| self.err(format!("cannot send: {e}")))
    }

    /// One reply line without its `\r\n`.
    fn line(&mut self) -> Result<Vec<u8>, String> {
        let mut buf = Vec::new();
        let n = std::io::Read::take(&mut self.r, MAX_LINE as u64)
            .read_until(b'\n', &mut buf)
            .map_err(|e| self.err(format!("no reply: {e}")))?;
        if n == 0 {
            return Err(self.err("the server closed the connection"));
        }
        if buf.last() != Some(&b'\n') {
            return Err(self.err("reply line too long"));
        }
        buf.pop();
        if buf.last() == Some(&b'\r') {
            buf.pop();
        }
        Ok(buf)
    }

    /// `version`: the server's version string.
    pub fn version(&mut self) -> Result<String, String> {
        self.send(b"version\r\n")?;
        let l = self.line()?;
        let text = String::from_utf8_lossy(&l).into_owned();
        text.strip_prefix("VERSION ")
            .map(str::to_string)
            .ok_or_else(|| self.err(format!("unexpected reply to version: {text}")))
    }

    /// Stores each `(key, value)` (`set`, no expiry, flags 0), pipelined. Every key must pass
    /// [`key_ok`]. Fails on any reply other than `STORED`.
    pub fn set_many(&mut self, items: &[(&[u8], &[u8])]) -> Result<(), String> {
        for chunk in items.chunks(BATCH) {
            let mut out = Vec::with_capacity(chunk.len() * 48);
            for (k, v) in chunk {
                if !key_ok(k) {
                    return Err(self.err("a key the text protocol cannot carry"));
                }
                out.extend_from_slice(b"set ");
                out.extend_from_slice(k);
                out.extend_from_slice(format!(" 0 0 {}\r\n", v.len()).as_bytes());
                out.extend_from_slice(v);
                out.extend_from_slice(b"\r\n");
            }
            self.send(&out)?;
            for _ in chunk {
                let l = self.line()?;
                if l != b"STORED" {
                    return Err(self.err(format!("set failed: {}", String::from_utf8_lossy(&l))));
                }
            }
        }
        Ok(())
    }

    /// Multi-key `get`: the keys found, with their values. Keys that fail [`key_ok`] are
    /// never sent (and so never found).
    pub fn get_many(&mut self, keys: &[&[u8]]) -> Result<HashMap<Vec<u8>, Vec<u8>>, String> {
        let mut found = HashMap::new();
        let keys: Vec<&[u8]> = keys.iter().copied().filter(|k| key_ok(k)).collect();
        for chunk in keys.chunks(BATCH) {
            let mut out = b"get".to_vec();
            for k in chunk {
                out.push(b' ');
                out.extend_from_slice(k);
            }
            out.extend_from_slice(b"\r\n");
            self.send(&out)?;
            // At most one VALUE per key sent, then END.
            for _ in 0..=chunk.len() {
                let l = self.line()?;
                if l == b"END" {
                    break;
                }
                let (key, len) = parse_value_line(&l).ok_or_else(|| {
                    self.err(format!(
                        "unexpected reply to get: {}",
                        String::from_utf8_lossy(&l)
                    ))
                })?;
                if len > MAX_VALUE {
                    return Err(self.err("value too large"));
                }
                let mut v = vec![0u8; len + 2];
                std::io::Read::read_exact(&mut self.r, &mut v)
                    .map_err(|e| self.err(format!("short value: {e}")))?;
                v.truncate(len);
                found.insert(key, v);
            }
        }
        Ok(found)
    }

    /// `delete` of each key; returns how many existed.
    pub fn delete_many(&mut self, keys: &[&[u8]]) -> Result<usize, String> {
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
            self.send(&out)?;
            for _ in 0..sent {
                match self.line()?.as_slice() {
                    b"DELETED" => deleted += 1,
                    b"NOT_FOUND" => {}
                    l => {
                        return Err(
                            self.err(format!("delete failed: {}", String::from_utf8_lossy(l)))
                        )
                    }
                }
            }
        }
        Ok(deleted)
    }

    /// `stats` or `stats <group>`: the `STAT name value` lines, in order.
    pub fn stats(&mut self, group: &str) -> Result<Vec<(String, String)>, String> {
        let cmd = if group.is_empty() {
            "stats\r\n".to_string()
        } else {
            format!("stats {group}\r\n")
        };
        self.send(cmd.as_bytes())?;
        let mut out = Vec::new();
        loop {
            let l = self.line()?;
            if l == b"END" {
                return Ok(out);
            }
            let text = String::from_utf8_lossy(&l).into_owned();
            let Some(rest) = text.strip_prefix("STAT ") else {
                return Err(self.err(format!("unexpected reply to stats {group}: {text}")));
            };
            let (k, v) = rest.split_once(' ').unwrap_or((rest, ""));
            out.push((k.to_string(), v.to_string()));
            if out.len() > 1_000_000 {
                return Err(self.err("stats reply too long"));
            }
        }
    }

    /// `curr_items` from `stats`.
    pub fn item_count(&mut self) -> Result<u64, String> {
        let stats = self.stats("")?;
        stats
            .iter()
            .find(|(k, _)| k == "curr_items")
            .and_then(|(_, v)| v.parse().ok())
            .ok_or_else(|| self.err("stats has no curr_items"))
    }

    /// Every key the server holds: `lru_crawler metadump all`, or `stats cachedump` per slab
    /// class where the crawler is missing or disabled. Reads only.
    ///
    /// Neither command is a snapshot: while the server's LRU maintainer moves items between
    /// its queues (e.g. just after many reads), a crawl can miss some. So the listing is
    /// repeated, a few times at most, until the union of the keys seen reaches the server's
    /// `curr_items` (read first, returned too).
    pub fn list_keys(&mut self) -> Result<Listed, String> {
        let items = self.item_count()?;
        let mut seen = std::collections::HashSet::new();
        let mut keys = Vec::new();
        let mut listing = KeyListing::Metadump;
        for pass in 0..6u64 {
            let batch = match self.metadump()? {
                Some(k) => k,
                None => {
                    listing = KeyListing::Cachedump;
                    self.cachedump()?
                }
            };
            for k in batch {
                if seen.insert(k.clone()) {
                    keys.push(k);
                }
            }
            if keys.len() as u64 >= items {
                break;
            }
            std::thread::sleep(Duration::from_millis(100 * (pass + 1)));
        }
        Ok(Listed {
            listing,
            keys,
            items,
        })
    }

    /// `None` when the server has no (enabled) LRU crawler.
    fn metadump(&mut self) -> Result<Option<Vec<Vec<u8>>>, String> {
        // The crawler serves one request at a time; BUSY means another one is running.
        for attempt in 0..20 {
            self.send(b"lru_crawler metadump all\r\n")?;
            let first = self.line()?;
            if first.starts_with(b"BUSY") {
                std::thread::sleep(Duration::from_millis(100 * (attempt + 1)));
                continue;
            }
            if first == b"ERROR"
                || first.starts_with(b"CLIENT_ERROR")
                || first.starts_with(b"SERVER_ERROR")
            {
                return Ok(None);
            }
            let mut keys = Vec::new();
            let mut l = first;
            loop {
                if l == b"END" {
                    return Ok(Some(keys));
                }
                keys.push(metadump_key(&l).ok_or_else(|| {
                    self.err(format!(
                        "unexpected metadump line: {}",
                        String::from_utf8_lossy(&l)
                    ))
                })?);
                l = self.line()?;
            }
        }
        Err(self.err("the LRU crawler stayed busy"))
    }

    fn cachedump(&mut self) -> Result<Vec<Vec<u8>>, String> {
        let mut classes: Vec<u32> = self
            .stats("items")?
            .iter()
            .filter_map(|(k, _)| k.strip_prefix("items:")?.split(':').next()?.parse().ok())
            .collect();
        classes.sort_unstable();
        classes.dedup();
        let mut keys = Vec::new();
        for c in classes {
            self.send(format!("stats cachedump {c} 0\r\n").as_bytes())?;
            loop {
                let l = self.line()?;
                if l == b"END" {
                    break;
                }
                // ITEM <key> [<size> b; <time> s]
                let key = l
                    .strip_prefix(b"ITEM ")
                    .and_then(|r| r.split(|&b| b == b' ').next())
                    .ok_or_else(|| {
                        self.err(format!(
                            "unexpected cachedump line: {}",
                            String::from_utf8_lossy(&l)
                        ))
                    })?;
                keys.push(key.to_vec());
            }
        }
        Ok(keys)
    }
}

/// `VALUE <key> <flags> <bytes> [<cas>]` -> (key, bytes).
fn parse_value_line(l: &[u8]) -> Option<(Vec<u8>, usize)> {
    let mut parts = l.split(|&b| b == b' ');
    if parts.next()? != b"VALUE" {
        return None;
    }
    let key = parts.next()?.to_vec();
    let _flags = parts.next()?;
    let len = std::str::from_utf8(parts.next()?).ok()?.parse().ok()?;
    Some((key, len))
}

/// The key of a metadump line `key=<uri-encoded> exp=... la=... ...`.
fn metadump_key(l: &[u8]) -> Option<Vec<u8>> {
    let field = l.split(|&b| b == b' ').next()?.strip_prefix(b"key=")?;
    uri_decode(field)
}

/// memcached's `uriencode` reversed: `%XX` is a byte, everything else is itself.
fn uri_decode(s: &[u8]) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(s.len());
    let mut i = 0;
    while i < s.len() {
        if s[i] == b'%' {
            let hex = s.get(i + 1..i + 3)?;
            let v = u8::from_str_radix(std::str::from_utf8(hex).ok()?, 16).ok()?;
            out.push(v);
            i += 3;
        } else {
            out.push(s[i]);
            i += 1;
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

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
        let l = b"key=user%3A1%20x exp=-1 la=1700000000 cas=2 fetch=no cls=1 size=70";
        assert_eq!(metadump_key(l).as_deref(), Some(&b"user:1 x"[..]));
        assert_eq!(metadump_key(b"key=abc").as_deref(), Some(&b"abc"[..]));
        assert_eq!(metadump_key(b"key=ab%2"), None);
        assert_eq!(metadump_key(b"key=ab%zz"), None);
        assert_eq!(metadump_key(b"exp=1"), None);
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
    }
}
