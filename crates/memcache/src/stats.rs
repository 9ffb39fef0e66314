//! `stats` replies, bounded in lines and bytes (the one reader of every `stats` request),
//! and the numbers callers read from them.

use crate::conn::Conn;
use crate::error::Error;
use crate::limits::{MAX_ITEM, MAX_LINE, MAX_STATS_BYTES, MAX_STATS_LINES};

/// Who a server is, from its `stats`: one process at one address has one pid and start time,
/// whatever name a servers file gives it; a restart changes the start time.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Identity {
    /// The server's process id (`pid`).
    pub pid: u64,
    /// When it started, Unix seconds on its own clock (`time - uptime`).
    pub started: i64,
}

impl Conn {
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

    /// The numbers `names` of one `stats` reply, in that order; a missing or non-numeric one
    /// is an error naming it.
    fn numbers<const N: usize>(&mut self, names: [&str; N]) -> Result<[i64; N], Error> {
        let stats = self.stats("")?;
        let mut out = [0i64; N];
        for (slot, name) in out.iter_mut().zip(names) {
            *slot = stats
                .iter()
                .find(|(k, _)| k == name)
                .and_then(|(_, v)| v.parse().ok())
                .ok_or_else(|| self.protocol(format!("no {name}")))?;
        }
        Ok(out)
    }

    /// `curr_items` from `stats`: the items the server holds (expired ones not yet reclaimed
    /// included).
    pub fn item_count(&mut self) -> Result<u64, Error> {
        let [n] = self.numbers(["curr_items"])?;
        u64::try_from(n).map_err(|_| self.protocol("a negative curr_items"))
    }

    /// The server's clock (`time` of `stats`), Unix seconds.
    pub fn server_time(&mut self) -> Result<i64, Error> {
        let [t] = self.numbers(["time"])?;
        Ok(t)
    }

    /// The server's item size limit (`item_size_max` of `stats settings`): no value it
    /// holds is larger. `None` when the server does not say (a proxy, a server without
    /// `stats settings`).
    pub fn item_size_max(&mut self) -> Result<Option<u64>, Error> {
        let settings = match self.stats("settings") {
            Ok(s) => s,
            Err(e) if e.kind == crate::ErrorKind::Refused => return Ok(None),
            Err(e) => return Err(e),
        };
        Ok(settings
            .iter()
            .find(|(k, _)| k == "item_size_max")
            .and_then(|(_, v)| v.parse().ok()))
    }

    /// Sets the largest value this connection reads back ([`Options::max_value`], at most
    /// [`MAX_ITEM`]): e.g. the server's own [`item_size_max`](Self::item_size_max).
    ///
    /// [`Options::max_value`]: crate::Options::max_value
    pub fn set_max_value(&mut self, bytes: u64) {
        self.opts.max_value = usize::try_from(bytes).unwrap_or(MAX_ITEM).min(MAX_ITEM);
    }

    /// Who the server is ([`Identity`]).
    pub fn identity(&mut self) -> Result<Identity, Error> {
        let [pid, time, uptime] = self.numbers(["pid", "time", "uptime"])?;
        Ok(Identity {
            pid: u64::try_from(pid).map_err(|_| self.protocol("a negative pid"))?,
            started: time - uptime,
        })
    }
}
