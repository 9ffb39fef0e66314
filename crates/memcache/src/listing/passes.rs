//! [`Conn::list_keys`]: the passes of a listing, each a metadump or a cachedump, their lines
//! handed to the caller through the distinct-key set (the rules are in the module above).

use std::time::{Duration, Instant};

use ketama_keyset::Distinct;

use super::item::ListedKey;
use super::lines;
use super::summary::{line_limit, BadLine, ListOptions, Listing, Method, Pace};
use crate::conn::Conn;
use crate::error::{Error, ErrorKind};
use crate::limits::MAX_LISTING_LINE;

/// The most passes of one listing.
pub const MAX_PASSES: u64 = 6;
/// How long after a pass began the next one may begin when the pass found fewer keys than
/// `curr_items`: memcached's LRU maintainer applies the bumps of items fetched while in the
/// COLD segment at its next wake-up, at most a second later, and until then each of them
/// holds a reference that makes the crawler skip it (a pass soon after misses them again).
pub const SETTLE: Duration = Duration::from_millis(1100);
/// The most times a `BUSY` crawler is asked again.
pub const BUSY_TRIES: u64 = 30;
/// Bad listing lines kept for the report (the others are only counted).
const BAD_LINES_KEPT: usize = 10;

/// Why a listing stopped: the server, the key set's scratch files, or the caller.
enum Stop<E> {
    Server(Error),
    Set(ketama_keyset::Error),
    Caller(E),
}

impl<E> From<Error> for Stop<E> {
    fn from(e: Error) -> Stop<E> {
        Stop::Server(e)
    }
}

impl<E> From<ketama_keyset::Error> for Stop<E> {
    fn from(e: ketama_keyset::Error) -> Stop<E> {
        Stop::Set(e)
    }
}

/// The bad lines of one pass.
#[derive(Default)]
struct BadLines {
    kept: Vec<BadLine>,
    count: u64,
}

impl BadLines {
    fn report(&mut self, line: u64, reason: String) {
        self.count += 1;
        if self.kept.len() < BAD_LINES_KEPT {
            self.kept.push(BadLine { line, reason });
        }
    }
}

/// One line of a listing, read.
enum Line {
    End,
    Key(ListedKey),
    Bad(String),
    /// The crawler is serving another request (first line only).
    Busy,
    /// The server has no (enabled) crawler (first line only).
    NoCrawler,
}

/// Where a pass's keys go: the distinct-key set, then the caller.
struct Sink<'a, E, F> {
    keys: &'a mut Distinct<ListedKey>,
    each: &'a mut F,
    stop: std::marker::PhantomData<E>,
}

impl<E, F: FnMut(ListedKey) -> Result<(), E>> Sink<'_, E, F> {
    fn offer(&mut self, k: ListedKey) -> Result<(), Stop<E>> {
        let each = &mut *self.each;
        self.keys.offer(k, &mut |k| each(k).map_err(Stop::Caller))
    }

    fn end_pass(&mut self) -> Result<(), Stop<E>> {
        let each = &mut *self.each;
        self.keys.end_pass(&mut |k| each(k).map_err(Stop::Caller))
    }
}

impl Conn {
    /// Every key the server holds, each given once to `each`: `lru_crawler metadump all`, or
    /// `stats cachedump` per slab class where the crawler is missing or disabled. Reads only.
    /// The rules (passes, memory, length, BUSY, bad lines, deadline) are those of
    /// [`listing`](crate::listing). An error of `each` ends the listing with that error.
    pub fn list_keys<E: From<Error>>(
        &mut self,
        how: ListOptions,
        mut each: impl FnMut(ListedKey) -> Result<(), E>,
    ) -> Result<Listing, E> {
        match self.passes(how, &mut each) {
            Ok(l) => Ok(l),
            Err(Stop::Caller(e)) => Err(e),
            Err(Stop::Server(e)) => Err(e.into()),
            Err(Stop::Set(e)) => Err(Error::listing(&self.name, e).into()),
        }
    }

    fn passes<E, F: FnMut(ListedKey) -> Result<(), E>>(
        &mut self,
        how: ListOptions,
        each: &mut F,
    ) -> Result<Listing, Stop<E>> {
        let pace = how.pace;
        self.pace(pace);
        let first = self.item_count()?;
        let mut items = first;
        let expected = usize::try_from(items).unwrap_or(usize::MAX);
        let mut keys = Distinct::new(expected, how.sizes, self.opts.stop.clone());
        let mut method = Method::Metadump;
        let mut bad = BadLines::default();
        for pass in 0..MAX_PASSES {
            let began = Instant::now();
            let before = keys.len();
            bad = BadLines::default();
            let limit = line_limit(items);
            let mut sink = Sink {
                keys: &mut keys,
                each: &mut *each,
                stop: std::marker::PhantomData,
            };
            if method == Method::Metadump && !self.metadump(pace, limit, &mut sink, &mut bad)? {
                method = Method::Cachedump;
            }
            if method == Method::Cachedump {
                self.cachedump(pace, limit, &mut sink, &mut bad)?;
            }
            self.ours(|_| sink.end_pass())?;
            if pass + 1 == MAX_PASSES || (pass > 0 && keys.len() == before) {
                break;
            }
            self.pace(pace);
            items = self.item_count()?;
            if keys.len() >= items {
                break;
            }
            let wait = Duration::from_millis(100 * (pass + 1));
            self.pause(pace, wait.max(SETTLE.saturating_sub(began.elapsed())))?;
        }
        Ok(Listing {
            method,
            keys: keys.len(),
            items: first,
            bad: bad.kept,
            bad_count: bad.count,
        })
    }

    /// Gives the next wait the whole timeout when each line gets it.
    fn pace(&mut self, pace: Pace) {
        if pace == Pace::EachLine {
            self.renew_deadline();
        }
    }

    /// Runs `work` of our own (the caller's callback, the key set's disk work): its time is
    /// not the server's, so it moves the deadline.
    fn ours<T>(&mut self, work: impl FnOnce(&mut Self) -> T) -> T {
        let t = Instant::now();
        let out = work(self);
        self.deadline += t.elapsed();
        out
    }

    /// Sleeps, unless the stop flag or the deadline comes first.
    fn pause(&mut self, pace: Pace, d: Duration) -> Result<(), Error> {
        self.pace(pace);
        let until = Instant::now() + d;
        while Instant::now() < until {
            let t = self
                .slice()
                .map_err(|w| self.waited(w, &format!("listing the keys of {}", self.name)))?;
            std::thread::sleep(t.min(until.saturating_duration_since(Instant::now())));
        }
        Ok(())
    }

    /// Reads one listing line; `first`: the first line of a reply, which may say the
    /// crawler is busy or missing.
    fn listing_line(
        &mut self,
        first: bool,
        parse: fn(&[u8]) -> Result<ListedKey, String>,
    ) -> Result<Line, Error> {
        Ok(match self.read_line_ref(MAX_LISTING_LINE)? {
            None => Line::Bad(format!("longer than {MAX_LISTING_LINE} bytes")),
            Some(b"END") => Line::End,
            Some(l) if first && l.starts_with(b"BUSY") => Line::Busy,
            Some(l)
                if first
                    && (l == b"ERROR"
                        || l.starts_with(b"CLIENT_ERROR")
                        || l.starts_with(b"SERVER_ERROR")) =>
            {
                Line::NoCrawler
            }
            Some(l) => match parse(l) {
                Ok(k) => Line::Key(k),
                Err(why) => Line::Bad(why),
            },
        })
    }

    /// One metadump pass; `false` when the server has no (enabled) LRU crawler.
    fn metadump<E, F: FnMut(ListedKey) -> Result<(), E>>(
        &mut self,
        pace: Pace,
        limit: u64,
        sink: &mut Sink<'_, E, F>,
        bad: &mut BadLines,
    ) -> Result<bool, Stop<E>> {
        const CMD: &str = "lru_crawler metadump all";
        for attempt in 0..BUSY_TRIES {
            self.pace(pace);
            self.write_request(CMD, b"lru_crawler metadump all\r\n")?;
            let mut n = 1u64;
            let mut line = self.listing_line(true, lines::metadump)?;
            loop {
                match line {
                    Line::Busy => break,
                    Line::NoCrawler => return Ok(false),
                    Line::End => return Ok(true),
                    _ if n > limit => return Err(self.listing_too_long(limit).into()),
                    Line::Key(k) => self.ours(|_| sink.offer(k))?,
                    Line::Bad(why) => bad.report(n, why),
                }
                self.pace(pace);
                line = self.listing_line(false, lines::metadump)?;
                n += 1;
            }
            self.pause(pace, Duration::from_millis(100 * (attempt + 1).min(5)))?;
        }
        Err(self
            .fail(
                ErrorKind::Refused,
                format!("the LRU crawler of {} stayed busy", self.name),
            )
            .into())
    }

    /// One cachedump pass: `stats cachedump <class> 0` for each slab class of `stats items`.
    fn cachedump<E, F: FnMut(ListedKey) -> Result<(), E>>(
        &mut self,
        pace: Pace,
        limit: u64,
        sink: &mut Sink<'_, E, F>,
        bad: &mut BadLines,
    ) -> Result<(), Stop<E>> {
        self.pace(pace);
        let mut classes: Vec<u32> = self
            .stats("items")?
            .iter()
            .filter_map(|(k, _)| k.strip_prefix("items:")?.split(':').next()?.parse().ok())
            .collect();
        classes.sort_unstable();
        classes.dedup();
        let mut n = 0u64;
        for c in classes {
            self.pace(pace);
            let cmd = format!("stats cachedump {c} 0");
            self.write_request(&cmd, format!("{cmd}\r\n").as_bytes())?;
            loop {
                n += 1;
                self.pace(pace);
                match self.listing_line(false, lines::cachedump)? {
                    Line::End => break,
                    _ if n > limit => return Err(self.listing_too_long(limit).into()),
                    Line::Key(k) => self.ours(|_| sink.offer(k))?,
                    Line::Bad(why) => bad.report(n, why),
                    Line::Busy | Line::NoCrawler => {}
                }
            }
        }
        Ok(())
    }

    fn listing_too_long(&self, limit: u64) -> Error {
        self.protocol(format!(
            "more than {limit} lines, though the server counts fewer items"
        ))
    }
}
