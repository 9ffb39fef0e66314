//! The text of a servers file parsed into a [`Fleet`] (the format: the crate's docs).

use std::collections::HashMap;

use ketama_core::Server;

use crate::error::{Error, ErrorKind};
use crate::fleet::{Fleet, Line};

/// Parses the text of a servers file; `path` only names it in messages. The first line
/// that is wrong is refused, with its number.
pub fn parse(path: &str, bytes: &[u8]) -> Result<Fleet, Error> {
    let mut lines = Vec::new();
    // endpoint -> line, so duplicates are found in O(1), not by a scan per server.
    let mut seen: HashMap<String, usize> = HashMap::new();
    for (i, raw) in bytes.split(|&b| b == b'\n').enumerate() {
        let n = i + 1;
        let at = |kind: ErrorKind| Error {
            path: path.to_string(),
            line: Some(n),
            kind,
        };
        let text = std::str::from_utf8(raw).map_err(|_| at(ErrorKind::NotUtf8))?;
        if text.contains('\u{feff}') {
            return Err(at(ErrorKind::ByteOrderMark {
                at_start: n == 1 && text.starts_with('\u{feff}'),
            }));
        }
        let text = strip_comment(text.strip_suffix('\r').unwrap_or(text));
        let fields: Vec<&str> = text.split([' ', '\t']).filter(|f| !f.is_empty()).collect();
        let (label, weight, name) = match fields.as_slice() {
            [] => continue,
            [label] => (*label, None, None),
            [label, weight] => (*label, Some(*weight), None),
            [label, weight, name] => (*label, Some(*weight), Some(*name)),
            [_, _, _, extra, ..] => return Err(at(ErrorKind::ExtraField(extra.to_string()))),
        };
        let weight = match weight {
            None => 1,
            Some(w) => w
                .parse::<u32>()
                .map_err(|_| at(ErrorKind::BadWeight(w.to_string())))?,
        };
        let server = Server::parse(label, weight).map_err(|error| {
            at(ErrorKind::BadServer {
                label: label.to_string(),
                error,
            })
        })?;
        // By endpoint: `[::1]:11211` and `[0:0::1]:11211` are one server.
        if let Some(first) = seen.insert(server.endpoint(), n) {
            return Err(at(ErrorKind::Duplicate {
                label: label.to_string(),
                first,
            }));
        }
        lines.push(Line {
            server: server.with_name(name),
            line: n,
        });
    }
    if lines.is_empty() {
        return Err(Error {
            path: path.to_string(),
            line: None,
            kind: ErrorKind::Empty,
        });
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

#[cfg(test)]
mod tests {
    use super::*;

    fn message(text: &[u8]) -> String {
        parse("s.txt", text).unwrap_err().to_string()
    }

    /// A BOM is refused with file:line, never kept in the first label; bad ports
    /// are refused with the line.
    #[test]
    fn bom_and_bad_ports_refused_with_line() {
        let e = parse("s.txt", "\u{feff}10.0.0.1:11211\n".as_bytes()).unwrap_err();
        assert_eq!(e.line, Some(1));
        assert_eq!(e.kind, ErrorKind::ByteOrderMark { at_start: true });
        assert!(
            e.to_string()
                .starts_with("s.txt:1: the file starts with a UTF-8 byte-order mark"),
            "{e}"
        );
        let e = message("a:1\nb:2\u{feff}\n".as_bytes());
        assert!(
            e.starts_with("s.txt:2: the line contains a UTF-8 byte-order mark"),
            "{e}"
        );
        for (text, line) in [
            ("a:1\nb:0\n", 2),
            ("a:+80\n", 1),
            ("a:1\n\na:01\n", 3),
            ("[x]:1\n", 1),
        ] {
            let e = parse("s.txt", text.as_bytes()).unwrap_err();
            assert!(
                matches!(e.kind, ErrorKind::BadServer { .. }),
                "{text:?}: {e:?}"
            );
            assert!(
                e.to_string()
                    .starts_with(&format!("s.txt:{line}: bad server")),
                "{text:?}: {e}"
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
        assert_eq!(f.path, "f");
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
        assert_eq!(
            message(b"a:1\nb:x\n"),
            "s.txt:2: bad server 'b:x': bad server label (expected host:port, [ipv6]:port or host)"
        );
        assert_eq!(
            message(b"a:1 -3"),
            "s.txt:1: bad weight '-3' (expected an integer from 0 to 4294967295)"
        );
        assert_eq!(
            message(b"a:1 1 n extra"),
            "s.txt:1: unexpected field 'extra' (expected `host:port [weight] [name]`)"
        );
        assert!(message(b"a:1\na:1").starts_with("s.txt:2: duplicate server 'a:1'"));
        assert_eq!(
            message(b"[::1]:11211\n[0:0::1]:11211"),
            "s.txt:2: duplicate server '[0:0::1]:11211' (already on line 1)"
        );
        let e = parse("s.txt", b"# none\n\n").unwrap_err();
        assert_eq!((e.line, &e.kind), (None, &ErrorKind::Empty));
        assert_eq!(e.to_string(), "s.txt: no servers in file");
        assert_eq!(message(b"a:1\n\xff:2\n"), "s.txt:2: not valid UTF-8");
    }
}
