//! The output formats: tables rendered as aligned text or CSV; JSON is built with
//! `serde_json` by each command.

use std::fmt::Write as _;

use clap::ValueEnum;
use serde_json::Value;

/// Output format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum Format {
    /// Aligned columns with a header line.
    Table,
    /// JSON.
    Json,
    /// CSV with a header line.
    Csv,
}

/// Renders a table as text, CSV or JSON (an array of objects, one per row, keyed by the
/// column names; commands with richer JSON build their own).
pub(crate) fn render(t: &Table, f: Format) -> String {
    match f {
        Format::Csv => t.csv(),
        Format::Table => t.text(),
        Format::Json => {
            let rows: Vec<Value> = t
                .rows
                .iter()
                .map(|r| {
                    Value::Object(
                        t.headers
                            .iter()
                            .cloned()
                            .zip(r.iter().map(|c| Value::String(c.clone())))
                            .collect(),
                    )
                })
                .collect();
            json(&Value::Array(rows))
        }
    }
}

/// A table: a header row and data rows of the same width.
#[derive(Clone, Debug, Default)]
pub(crate) struct Table {
    /// Column names.
    pub(crate) headers: Vec<String>,
    /// Cells, row by row.
    pub(crate) rows: Vec<Vec<String>>,
}

impl Table {
    /// A table with these column names.
    pub(crate) fn new<S: AsRef<str>>(headers: &[S]) -> Table {
        Table {
            headers: headers.iter().map(|h| h.as_ref().to_string()).collect(),
            rows: Vec::new(),
        }
    }

    /// Appends a row.
    pub(crate) fn row(&mut self, cells: Vec<String>) {
        self.rows.push(cells);
    }

    /// Aligned text: columns separated by two spaces, numbers right-aligned.
    pub(crate) fn text(&self) -> String {
        let cols = self.headers.len();
        let mut width = vec![0usize; cols];
        let mut numeric = vec![true; cols];
        let safe: Vec<Vec<String>> = self
            .rows
            .iter()
            .map(|r| r.iter().map(|c| cell_text(c).into_owned()).collect())
            .collect();
        for (c, h) in self.headers.iter().enumerate() {
            width[c] = h.chars().count();
        }
        for r in &safe {
            for (c, cell) in r.iter().enumerate().take(cols) {
                width[c] = width[c].max(cell.chars().count());
                if !looks_numeric(cell) {
                    numeric[c] = false;
                }
            }
        }
        let mut out = String::new();
        let any_rows = !self.rows.is_empty();
        let mut line = |cells: &[String]| {
            let mut s = String::new();
            for (c, cell) in cells.iter().enumerate().take(cols) {
                let pad = width[c].saturating_sub(cell.chars().count());
                let last = c + 1 == cols;
                if c > 0 {
                    s.push_str("  ");
                }
                if numeric[c] && any_rows {
                    s.push_str(&" ".repeat(pad));
                    s.push_str(cell);
                } else {
                    s.push_str(cell);
                    if !last {
                        s.push_str(&" ".repeat(pad));
                    }
                }
            }
            out.push_str(s.trim_end());
            out.push('\n');
        };
        line(&self.headers);
        for r in &safe {
            line(r);
        }
        out
    }

    /// RFC 4180 CSV with a header line.
    pub(crate) fn csv(&self) -> String {
        let mut out = String::new();
        let line = |cells: &[String], out: &mut String| {
            let joined: Vec<String> = cells.iter().map(|c| csv_field(c)).collect();
            let _ = writeln!(out, "{}", joined.join(","));
        };
        line(&self.headers, &mut out);
        for r in &self.rows {
            line(r, &mut out);
        }
        out
    }
}

fn looks_numeric(s: &str) -> bool {
    let t = s.trim_end_matches('%');
    !t.is_empty() && (t == "-" || t.parse::<f64>().is_ok())
}

/// One CSV field, quoted when needed.
pub(crate) fn csv_field(s: &str) -> String {
    let s = &*cell_text(s);
    if s.contains([',', '"', '\n', '\r']) || s.starts_with(' ') || s.ends_with(' ') {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

/// A fraction as a percentage with two decimals.
pub(crate) fn pct(x: f64) -> String {
    format!("{:.2}%", x * 100.0)
}

/// Pretty JSON text with a final newline.
pub(crate) fn json(v: &serde_json::Value) -> String {
    let mut s = serde_json::to_string_pretty(v).unwrap_or_else(|_| "null".into());
    s.push('\n');
    s
}

/// Whether a character may reach a terminal as it is: not a control character (C0, DEL,
/// C1) and not an invisible format character that reorders or hides text (bidi controls,
/// zero-width characters, line/paragraph separators, BOM).
pub(crate) fn is_printable(c: char) -> bool {
    !(c.is_control()
        || matches!(c,
            '\u{200b}'..='\u{200f}'
            | '\u{2028}'..='\u{202e}'
            | '\u{2060}'..='\u{2069}'
            | '\u{feff}'))
}

/// A key for display (text, CSV, messages): a UTF-8 key of printable characters
/// ([`is_printable`]) as it is; any other key with each backslash doubled, each invalid byte
/// and each ASCII control byte as `\xNN`, and each other non-printable character as
/// `\u{NNNN}`, so that no server byte reaches a terminal raw, and two different escaped keys
/// never print the same (no U+FFFD replacement). JSON output gives the exact key (see
/// [`key_fields`]).
pub(crate) fn key_text(key: &[u8]) -> String {
    if let Ok(text) = core::str::from_utf8(key) {
        if text.chars().all(is_printable) {
            return text.to_string();
        }
    }
    let mut out = String::with_capacity(key.len() + 8);
    for chunk in key.utf8_chunks() {
        for c in chunk.valid().chars() {
            escape_char(&mut out, c);
        }
        for b in chunk.invalid() {
            let _ = write!(out, "\\x{b:02x}");
        }
    }
    out
}

fn escape_char(out: &mut String, c: char) {
    match c {
        '\\' => out.push_str("\\\\"),
        c if is_printable(c) => out.push(c),
        c if (c as u32) < 0x80 => {
            let _ = write!(out, "\\x{:02x}", c as u32);
        }
        c => {
            let _ = write!(out, "\\u{{{:04x}}}", c as u32);
        }
    }
}

/// A table cell made safe for a terminal: non-printable characters escaped as in
/// [`key_text`] (cells that are printable are left as they are).
pub(crate) fn cell_text(s: &str) -> std::borrow::Cow<'_, str> {
    if s.chars().all(is_printable) {
        std::borrow::Cow::Borrowed(s)
    } else {
        let mut out = String::with_capacity(s.len() + 8);
        for c in s.chars() {
            escape_char(&mut out, c);
        }
        std::borrow::Cow::Owned(out)
    }
}

/// Lowercase hex of `bytes`.
pub(crate) fn hex(bytes: &[u8]) -> String {
    let mut s = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        let _ = write!(s, "{b:02x}");
    }
    s
}

/// A key's JSON fields: `key` (the key itself when it is UTF-8, else [`key_text`]), and
/// `key_hex` (its bytes in hex) when the key is not UTF-8.
pub(crate) fn key_fields(o: &mut serde_json::Map<String, serde_json::Value>, key: &[u8]) {
    match core::str::from_utf8(key) {
        // JSON escapes control characters itself: the key stays exact.
        Ok(text) => {
            o.insert("key".into(), text.into());
        }
        Err(_) => {
            o.insert("key".into(), key_text(key).into());
            o.insert("key_hex".into(), hex(key).into());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn non_utf8_keys_stay_distinct() {
        assert_eq!(key_text(b"plain \\ key"), "plain \\ key");
        assert_eq!(key_text(b"a\xff"), "a\\xff");
        assert_eq!(key_text(b"a\xfe"), "a\\xfe");
        assert_eq!(key_text(b"\\\xff"), "\\\\\\xff");
        assert_ne!(key_text(b"\xff"), key_text(b"\xfe"));
        // Control and invisible characters never print raw, and stay distinct.
        assert_eq!(key_text(b"a\x1b[2Jb"), "a\\x1b[2Jb");
        assert_eq!(key_text("a\u{9b}2J".as_bytes()), "a\\u{009b}2J");
        assert_eq!(key_text("x\u{202e}y".as_bytes()), "x\\u{202e}y");
        assert_eq!(key_text(b"a\\x1b\x07"), "a\\\\x1b\\x07");
        assert_eq!(key_text("caf\u{e9}".as_bytes()), "caf\u{e9}");
        let mut t = Table::new(&["k"]);
        t.row(vec!["a\u{1b}[2J".into()]);
        assert_eq!(t.text(), "k\na\\x1b[2J\n");
        assert_eq!(t.csv(), "k\na\\x1b[2J\n");
        let mut o = serde_json::Map::new();
        key_fields(&mut o, b"k\x1b");
        assert_eq!(o["key"], "k\u{1b}");
        assert!(!o.contains_key("key_hex"));
        let mut o = serde_json::Map::new();
        key_fields(&mut o, b"k\xff");
        assert_eq!(o["key_hex"], "6bff");
        let mut o = serde_json::Map::new();
        key_fields(&mut o, b"k");
        assert!(!o.contains_key("key_hex"));
    }
}
