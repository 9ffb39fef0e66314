//! Tables rendered as aligned text or CSV; JSON is built with `serde_json` by each command.

use std::fmt::Write as _;

/// A table: a header row and data rows of the same width.
#[derive(Clone, Debug, Default)]
pub struct Table {
    /// Column names.
    pub headers: Vec<String>,
    /// Cells, row by row.
    pub rows: Vec<Vec<String>>,
}

impl Table {
    /// A table with these column names.
    pub fn new<S: AsRef<str>>(headers: &[S]) -> Table {
        Table {
            headers: headers.iter().map(|h| h.as_ref().to_string()).collect(),
            rows: Vec::new(),
        }
    }

    /// Appends a row.
    pub fn row(&mut self, cells: Vec<String>) {
        self.rows.push(cells);
    }

    /// Aligned text: columns separated by two spaces, numbers right-aligned.
    pub fn text(&self) -> String {
        let cols = self.headers.len();
        let mut width = vec![0usize; cols];
        let mut numeric = vec![true; cols];
        for (c, h) in self.headers.iter().enumerate() {
            width[c] = h.chars().count();
        }
        for r in &self.rows {
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
        for r in &self.rows {
            line(r);
        }
        out
    }

    /// RFC 4180 CSV with a header line.
    pub fn csv(&self) -> String {
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
pub fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) || s.starts_with(' ') || s.ends_with(' ') {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

/// A fraction as a percentage with two decimals.
pub fn pct(x: f64) -> String {
    format!("{:.2}%", x * 100.0)
}

/// Pretty JSON text with a final newline.
pub fn json(v: &serde_json::Value) -> String {
    let mut s = serde_json::to_string_pretty(v).unwrap_or_else(|_| "null".into());
    s.push('\n');
    s
}

/// A key for display: its UTF-8 text, invalid bytes replaced.
pub fn key_text(key: &[u8]) -> String {
    String::from_utf8_lossy(key).into_owned()
}
