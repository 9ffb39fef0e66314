//! The text protocol's requests: `version`, pipelined `set`, multi-key `get` and `delete`,
//! in batches of [`BATCH`] keys.

use std::collections::HashMap;

use crate::conn::Conn;
use crate::error::{printable, Error, ErrorKind};
use crate::key::key_ok;
use crate::limits::MAX_LINE;

/// Keys per pipelined batch (keeps both directions well inside the socket buffers).
const BATCH: usize = 200;

impl Conn {
    /// `version`: the server's version string.
    pub fn version(&mut self) -> Result<String, Error> {
        self.write_request("version", b"version\r\n")?;
        let l = self.line(MAX_LINE)?;
        match l.strip_prefix(b"VERSION ") {
            Some(v) => Ok(printable(v)),
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
}

/// `VALUE <key> <flags> <bytes> [<cas>]` -> (key, bytes).
pub(crate) fn parse_value_line(l: &[u8]) -> Option<(Vec<u8>, usize)> {
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

#[cfg(test)]
mod tests {
    use super::*;

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
}
