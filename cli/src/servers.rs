//! The servers file.
//!
//! One server per line: `host:port [weight] [name]`, fields separated by spaces or tabs (so
//! libketama's `ip:port<TAB>memory` files load as they are). `#` starts a comment (a whole line,
//! or the rest of a line after whitespace); blank lines are skipped. IPv6 is written
//! `[addr]:port`. A server's label is `host:port` exactly as written; `name` becomes
//! [`Server::with_name`] (twemproxy's server name, the Java clients' node string). Every
//! error names the file and the line.
//!
//! A UTF-8 byte-order mark is refused, not stripped (`file:1: the file starts with a UTF-8
//! byte-order mark ...`): stripping it would make the file mean something other than what a
//! client reading the same file sees (libketama would hash the mark into the first label).
//! Nothing else is stripped from a label: only `\r` before the newline, comments and the
//! blanks between fields.

use ketama_core::{Error, Hash, Profile, Ring, Server};

use crate::shared::Fail;

/// One server and the line it came from.
#[derive(Clone, Debug)]
pub struct Line {
    /// The parsed server.
    pub server: Server,
    /// 1-based line number in the file.
    pub line: usize,
}

/// A parsed servers file.
#[derive(Clone, Debug)]
pub struct Fleet {
    /// The file name as given (used in messages).
    pub path: String,
    /// The servers in file order.
    pub lines: Vec<Line>,
}

impl Fleet {
    /// A fleet made in memory (no file): `origin` names it in messages.
    pub fn from_servers(origin: &str, servers: Vec<Server>) -> Fleet {
        Fleet {
            path: origin.to_string(),
            lines: servers
                .into_iter()
                .enumerate()
                .map(|(i, server)| Line {
                    server,
                    line: i + 1,
                })
                .collect(),
        }
    }

    /// The servers, in order.
    pub fn servers(&self) -> Vec<Server> {
        self.lines.iter().map(|l| l.server.clone()).collect()
    }
}

/// Reads and parses a servers file.
pub fn load(path: &str) -> Result<Fleet, Fail> {
    let bytes = crate::files::read(
        std::path::Path::new(path),
        "servers file",
        crate::files::SERVERS_FILE,
    )?;
    parse(path, &bytes)
}

/// Parses the text of a servers file; `path` only names it in messages.
pub fn parse(path: &str, bytes: &[u8]) -> Result<Fleet, Fail> {
    let mut lines = Vec::new();
    // endpoint -> line, so duplicates are found in O(log n), not by a scan per server.
    let mut seen: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
    for (i, raw) in bytes.split(|&b| b == b'\n').enumerate() {
        let n = i + 1;
        let at = |msg: String| Fail::new(format!("{path}:{n}: {msg}"));
        let text = std::str::from_utf8(raw).map_err(|_| at("not valid UTF-8".into()))?;
        if text.contains('\u{feff}') {
            let where_ = if n == 1 && text.starts_with('\u{feff}') {
                "the file starts with"
            } else {
                "the line contains"
            };
            return Err(at(format!(
                "{where_} a UTF-8 byte-order mark (U+FEFF); save the file without it"
            )));
        }
        let text = strip_comment(text.strip_suffix('\r').unwrap_or(text));
        let fields: Vec<&str> = text.split([' ', '\t']).filter(|f| !f.is_empty()).collect();
        let (label, weight, name) = match fields.as_slice() {
            [] => continue,
            [label] => (*label, None, None),
            [label, weight] => (*label, Some(*weight), None),
            [label, weight, name] => (*label, Some(*weight), Some(*name)),
            [_, _, _, extra, ..] => {
                return Err(at(format!(
                    "unexpected field '{extra}' (expected `host:port [weight] [name]`)"
                )))
            }
        };
        let weight = match weight {
            None => 1,
            Some(w) => w.parse::<u32>().map_err(|_| {
                at(format!(
                    "bad weight '{w}' (expected an integer from 0 to {})",
                    u32::MAX
                ))
            })?,
        };
        let server =
            Server::parse(label, weight).map_err(|e| at(format!("bad server '{label}': {e}")))?;
        // By endpoint: `[::1]:11211` and `[0:0::1]:11211` are one server.
        if let Some(prev) = seen.insert(server.endpoint(), n) {
            return Err(at(format!(
                "duplicate server '{label}' (already on line {prev})"
            )));
        }
        lines.push(Line {
            server: server.with_name(name),
            line: n,
        });
    }
    if lines.is_empty() {
        return Err(Fail::new(format!("{path}: no servers in file")));
    }
    Ok(Fleet {
        path: path.to_string(),
        lines,
    })
}

/// Drops a `#` comment: the whole line when it starts with `#`, else from a `#` that follows
/// whitespace.
fn strip_comment(text: &str) -> &str {
    let t = text.trim_start_matches([' ', '\t']);
    if t.starts_with('#') {
        return "";
    }
    let bytes = text.as_bytes();
    for (i, &b) in bytes.iter().enumerate() {
        if b == b'#' && i > 0 && (bytes[i - 1] == b' ' || bytes[i - 1] == b'\t') {
            return &text[..i];
        }
    }
    text
}

/// Builds the ring; a server the profile cannot place is reported with its file and line.
pub fn ring(profile: &'static Profile, hash: Option<Hash>, fleet: &Fleet) -> Result<Ring, Fail> {
    Ring::build(profile, hash, fleet.servers()).map_err(|e| {
        // Core names the server to blame (by its place in the list) when there is one.
        match e.server.and_then(|i| fleet.lines.get(i)) {
            Some(l) => Fail::new(format!(
                "{}:{}: server '{}': {} (profile {})",
                fleet.path,
                l.line,
                l.server.label,
                explain(e.error),
                profile.name
            )),
            None => Fail::new(format!(
                "{}: {} (profile {})",
                fleet.path,
                explain(e.error),
                profile.name
            )),
        }
    })
}

fn explain(e: Error) -> String {
    match e {
        Error::BadWeight => "weight 0 is not accepted by this client".into(),
        Error::Unsupported => "this client needs an IP address here, not a host name".into(),
        e => e.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A BOM is refused with file:line, never kept in the first label; bad ports
    /// are refused with the line.
    #[test]
    fn bom_and_bad_ports_refused_with_line() {
        let e = parse("s.txt", "\u{feff}10.0.0.1:11211\n".as_bytes()).unwrap_err();
        assert!(
            e.0.starts_with("s.txt:1: the file starts with a UTF-8 byte-order mark"),
            "{}",
            e.0
        );
        let e = parse("s.txt", "a:1\nb:2\u{feff}\n".as_bytes()).unwrap_err();
        assert!(
            e.0.starts_with("s.txt:2: the line contains a UTF-8 byte-order mark"),
            "{}",
            e.0
        );
        for (text, line) in [
            ("a:1\nb:0\n", 2),
            ("a:+80\n", 1),
            ("a:1\n\na:01\n", 3),
            ("[x]:1\n", 1),
        ] {
            let e = parse("s.txt", text.as_bytes()).unwrap_err();
            assert!(
                e.0.starts_with(&format!("s.txt:{line}: bad server")),
                "{text:?}: {}",
                e.0
            );
        }
        // labels come back exactly as written (nothing stripped but \r, comments, blanks)
        let f = parse("s.txt", b"a.b-c_d:1 2 n\r\n").unwrap();
        assert_eq!(f.lines[0].server.label, "a.b-c_d:1");
    }

    #[test]
    fn formats() {
        let f = parse(
            "f",
            b"# fleet\n10.0.0.1:11211\t600\n\n  10.0.0.2:11212 2 cache2 # c\n[::1]:11211\r\nhost#1:1\n",
        )
        .unwrap();
        let got: Vec<(&str, u32, Option<&str>, usize)> = f
            .lines
            .iter()
            .map(|l| {
                (
                    l.server.label.as_str(),
                    l.server.weight,
                    l.server.name.as_deref(),
                    l.line,
                )
            })
            .collect();
        assert_eq!(
            got,
            [
                ("10.0.0.1:11211", 600, None, 2),
                ("10.0.0.2:11212", 2, Some("cache2"), 4),
                ("[::1]:11211", 1, None, 5),
                ("host#1:1", 1, None, 6)
            ]
        );
    }

    #[test]
    fn errors_name_file_and_line() {
        let e = |t: &[u8]| parse("s.txt", t).unwrap_err().0;
        assert_eq!(
            e(b"a:1\nb:x\n"),
            "s.txt:2: bad server 'b:x': bad server label (expected host:port, [ipv6]:port or host)"
        );
        assert!(e(b"a:1 -3").starts_with("s.txt:1: bad weight '-3'"));
        assert!(e(b"a:1 1 n extra").starts_with("s.txt:1: unexpected field 'extra'"));
        assert!(e(b"a:1\na:1").starts_with("s.txt:2: duplicate server 'a:1'"));
        assert!(e(b"[::1]:11211\n[0:0::1]:11211")
            .starts_with("s.txt:2: duplicate server '[0:0::1]:11211' (already on line 1)"));
        assert_eq!(e(b"# none\n\n"), "s.txt: no servers in file");
        assert_eq!(e(b"a:1\n\xff:2\n"), "s.txt:2: not valid UTF-8");
    }
}
