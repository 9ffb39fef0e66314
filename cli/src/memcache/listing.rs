//! Listing every key a server holds: `lru_crawler metadump all`, or `stats cachedump` per
//! slab class where the crawler is missing; streamed to the caller, repeated until the
//! distinct keys reach the server's item count, bad lines reported and skipped.

use std::collections::hash_map::RandomState;
use std::collections::HashSet;
use std::hash::BuildHasher;
use std::time::{Duration, Instant};

use super::error::{printable, Error, ErrorKind};
use super::{key_ok, Conn, MAX_LISTING_LINE};

/// Bad listing lines kept for the report (the others are only counted).
const BAD_LINES_KEPT: usize = 10;

/// The most lines one pass of a listing may have on a server that counts `items` items:
/// twice as many and 100,000 more (a busy server adds keys while it is listed; an endless
/// listing is refused).
pub fn line_limit(items: u64) -> u64 {
    items.saturating_mul(2).saturating_add(100_000)
}

/// Why a listing of more than `lines` lines is refused.
pub fn too_long(lines: u64) -> String {
    format!("more than {lines} lines, though the server counts fewer items")
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

impl Conn {
    /// Every key the server holds, each given once to `each`: `lru_crawler metadump all`, or
    /// `stats cachedump` per slab class where the crawler is missing or disabled. Reads only.
    ///
    /// Neither command is a snapshot: while the server's LRU maintainer moves items between
    /// its queues (e.g. just after many reads), a crawl can miss some. So the listing is
    /// repeated, a few times at most, until the distinct keys seen reach the server's
    /// `curr_items` (read first). The time `each` takes does not count against the
    /// deadline (it is the caller's, not the server's). One pass may list at most `2 * curr_items + 100000` lines
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
        let limit = line_limit(items);
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
                        Ok(k) => self.hand_over(&k, sink),
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

    /// Gives a listed key to the caller; the time its callback takes is not the server's,
    /// so it moves the deadline.
    fn hand_over(&mut self, key: &[u8], sink: &mut dyn FnMut(&[u8])) {
        let t = Instant::now();
        sink(key);
        self.deadline += t.elapsed();
    }

    fn listing_too_long(&self, n: u64) -> Error {
        self.protocol(too_long(n - 1))
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
                        Ok(k) => self.hand_over(k, sink),
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

/// The key of a metadump line `key=<uri-encoded> exp=... la=... ...`, or why the line is not
/// one memcached sends.
pub(super) fn metadump_key(l: &[u8]) -> Result<Vec<u8>, String> {
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
pub fn uri_decode(s: &[u8]) -> Option<Vec<u8>> {
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
