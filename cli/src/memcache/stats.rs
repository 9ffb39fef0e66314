//! `stats` replies, bounded in lines and bytes.

use super::error::Error;
use super::{Conn, MAX_LINE, MAX_STATS_BYTES, MAX_STATS_LINES};

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

    /// `curr_items` from `stats`.
    pub fn item_count(&mut self) -> Result<u64, Error> {
        let stats = self.stats("")?;
        stats
            .iter()
            .find(|(k, _)| k == "curr_items")
            .and_then(|(_, v)| v.parse().ok())
            .ok_or_else(|| self.protocol("no curr_items"))
    }
}
