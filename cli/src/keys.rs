//! Where keys come from: arguments, stdin, keys files, word counts of a text, the built-in
//! corpus and the built-in generated key set.

use std::io::Read;

use crate::progress::{Progress, Unit};
use crate::shared::Fail;

/// The built-in corpus: the King James Version of Genesis and Exodus (public domain), as
/// Debian's `bible-kjv-text` 4.38 ships it (see `cli/corpus/README.md`).
pub(crate) const DEFAULT_CORPUS: &str = include_str!("../corpus/kjv-genesis-exodus.txt");

/// How the built-in corpus is named in output.
pub(crate) const DEFAULT_CORPUS_NAME: &str =
    "built-in corpus: KJV Genesis + Exodus (public domain)";

/// Size of the built-in generated key set.
pub(crate) const GENERATED_KEYS: usize = 100_000;

/// Keys from a stream: one per line, `\n` separated, one trailing `\r` dropped, no empty last
/// line after a final newline; empty lines in the middle are empty keys.
fn read_keys(r: impl std::io::BufRead, name: &str) -> Result<Vec<Vec<u8>>, Fail> {
    let mut lines = crate::files::key_lines(r, name, crate::files::KEYS);
    let mut keys = Vec::new();
    let mut buf = Vec::new();
    while crate::files::next_line(&mut lines, &mut buf)? {
        keys.push(buf.clone());
    }
    Ok(keys)
}

/// All of stdin, as keys (each line at most [`KEY_LINE`](crate::files::KEY_LINE) bytes, at
/// most [`KEYS`](crate::files::KEYS) in all).
pub(crate) fn stdin_keys() -> Result<Vec<Vec<u8>>, Fail> {
    read_keys(std::io::stdin().lock(), "-")
}

/// A keys file: one key per line (a regular file of at most [`KEYS`](crate::files::KEYS)
/// bytes, each line at most [`KEY_LINE`](crate::files::KEY_LINE)). A large file shows a
/// progress bar on a terminal's stderr while it is read.
pub(crate) fn file_keys(path: &str) -> Result<Vec<Vec<u8>>, Fail> {
    let file = crate::files::open(std::path::Path::new(path), "keys file")?;
    let size = file.metadata().map(|m| m.len()).unwrap_or(0);
    let mut bar = Progress::new(size, format!("reading {path}"), Unit::Bytes);
    let keys = read_keys(
        std::io::BufReader::with_capacity(1 << 20, Counted(file, &mut bar)),
        path,
    )?;
    bar.finish();
    Ok(keys)
}

/// A reader that advances a progress bar by the bytes it reads.
struct Counted<'a, R>(R, &'a mut Progress);

impl<R: Read> Read for Counted<'_, R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.0.read(buf)?;
        self.1.inc(n as u64);
        Ok(n)
    }
}

/// Keys given on the command line, as their bytes.
pub(crate) fn arg_keys(args: &[std::ffi::OsString]) -> Vec<Vec<u8>> {
    args.iter().map(|a| os_bytes(a)).collect()
}

#[cfg(unix)]
fn os_bytes(a: &std::ffi::OsStr) -> Vec<u8> {
    use std::os::unix::ffi::OsStrExt;
    a.as_bytes().to_vec()
}

#[cfg(not(unix))]
fn os_bytes(a: &std::ffi::OsStr) -> Vec<u8> {
    a.to_string_lossy().into_owned().into_bytes()
}

/// The built-in deterministic key set used when no `--keys` is given: 100,000 keys, the
/// first half `key:0` .. `key:49999`, the second half 16 hex digits of splitmix64(i).
pub(crate) fn generated() -> Vec<Vec<u8>> {
    let half = GENERATED_KEYS / 2;
    let mut keys = Vec::with_capacity(GENERATED_KEYS);
    for i in 0..half {
        keys.push(format!("key:{i}").into_bytes());
    }
    for i in 0..(GENERATED_KEYS - half) as u64 {
        keys.push(format!("{:016x}", splitmix64(i)).into_bytes());
    }
    keys
}

fn splitmix64(i: u64) -> u64 {
    let mut z = i.wrapping_add(1).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A word count: the distinct words of `text` in order of first appearance, with counts.
///
/// A word is a maximal run of alphabetic characters; an apostrophe (`'` or `’`) between two
/// letters stays inside the word (`father's`). Words are lowercased.
pub(crate) fn word_count(text: &str) -> Vec<(String, usize)> {
    let mut w = WordCounter::default();
    w.feed(text);
    w.finish()
}

/// [`word_count`] over a text given in pieces (a word may span two pieces): memory grows
/// with the distinct words only.
#[derive(Debug, Default)]
pub(crate) struct WordCounter {
    order: Vec<(String, usize)>,
    index: std::collections::HashMap<String, usize>,
    word: String,
    /// An apostrophe right after a letter: kept if a letter follows.
    apostrophe: bool,
}

impl WordCounter {
    /// Counts the words of the next piece of text.
    pub(crate) fn feed(&mut self, text: &str) {
        for c in text.chars() {
            if c.is_alphabetic() {
                if self.apostrophe {
                    self.word.push('\'');
                    self.apostrophe = false;
                }
                if c.is_ascii() {
                    self.word.push(c.to_ascii_lowercase());
                } else {
                    self.word.extend(c.to_lowercase());
                }
            } else if (c == '\'' || c == '\u{2019}') && !self.word.is_empty() && !self.apostrophe {
                self.apostrophe = true;
            } else {
                self.end_word();
            }
        }
    }

    fn end_word(&mut self) {
        self.apostrophe = false;
        if self.word.is_empty() {
            return;
        }
        match self.index.get(&self.word) {
            Some(&at) => self.order[at].1 += 1,
            None => {
                self.index.insert(self.word.clone(), self.order.len());
                self.order.push((self.word.clone(), 1));
            }
        }
        self.word.clear();
    }

    /// The distinct words in order of first appearance, with counts.
    pub(crate) fn finish(mut self) -> Vec<(String, usize)> {
        self.end_word();
        self.order
    }

    /// Counts the words of a file read in pieces (invalid UTF-8 separates words, as U+FFFD
    /// would).
    pub(crate) fn read(
        mut self,
        mut r: impl std::io::Read,
    ) -> std::io::Result<Vec<(String, usize)>> {
        let mut buf = vec![0u8; 1 << 16];
        let mut kept = 0; // bytes of an incomplete character carried to the next read
        loop {
            let n = match r.read(&mut buf[kept..]) {
                Ok(n) => n,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            let end = kept + n;
            let mut at = 0;
            kept = 0;
            while at < end {
                match std::str::from_utf8(&buf[at..end]) {
                    Ok(t) => {
                        self.feed(t);
                        at = end;
                    }
                    Err(e) => {
                        let ok = e.valid_up_to();
                        // The bytes before valid_up_to are valid UTF-8.
                        self.feed(std::str::from_utf8(&buf[at..at + ok]).unwrap_or_default());
                        at += ok;
                        match e.error_len() {
                            Some(bad) => {
                                self.end_word();
                                at += bad;
                            }
                            None if n > 0 => {
                                kept = end - at;
                                buf.copy_within(at..end, 0);
                                at = end;
                            }
                            None => {
                                self.end_word();
                                at = end;
                            }
                        }
                    }
                }
            }
            if n == 0 {
                return Ok(self.finish());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_splitting() {
        let lines = |b: &[u8]| read_keys(b, "-").unwrap();
        assert_eq!(lines(b""), Vec::<Vec<u8>>::new());
        assert_eq!(
            lines(b"a\r\n\nb"),
            vec![b"a".to_vec(), vec![], b"b".to_vec()]
        );
        assert_eq!(lines(b"\n"), vec![Vec::<u8>::new()]);
    }

    #[test]
    fn words() {
        let w = word_count("The father's house; the HOUSE 12 ’tis");
        let got: Vec<(&str, usize)> = w.iter().map(|(s, n)| (s.as_str(), *n)).collect();
        assert_eq!(got, [("the", 2), ("father's", 1), ("house", 2), ("tis", 1)]);
    }

    #[test]
    fn generated_is_stable() {
        let k = generated();
        assert_eq!(k.len(), GENERATED_KEYS);
        assert_eq!(k[0], b"key:0");
        assert_eq!(k[50_000], format!("{:016x}", splitmix64(0)).into_bytes());
        let distinct: std::collections::HashSet<&Vec<u8>> = k.iter().collect();
        assert_eq!(distinct.len(), GENERATED_KEYS);
    }

    /// Yields one byte per read: every word, apostrophe and character is split.
    struct Trickle<'a>(&'a [u8]);

    impl std::io::Read for Trickle<'_> {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            match self.0.split_first() {
                Some((b, rest)) if !buf.is_empty() => {
                    buf[0] = *b;
                    self.0 = rest;
                    Ok(1)
                }
                _ => Ok(0),
            }
        }
    }

    #[test]
    fn words_read_in_pieces_are_the_words_of_the_whole() {
        let mut text =
            "The father\u{2019}s h\u{f6}use; the HOUSE 12 \u{2019}tis a''b don't' \u{e9}t\u{e9}"
                .as_bytes()
                .to_vec();
        text.extend_from_slice(b" bad\xffbytes end\xe2\x80");
        let whole = word_count(&String::from_utf8_lossy(&text));
        let pieces = WordCounter::default().read(Trickle(&text)).unwrap();
        assert_eq!(pieces, whole);
        let big = WordCounter::default().read(&text[..]).unwrap();
        assert_eq!(big, whole);
        assert!(whole
            .iter()
            .any(|(w, _)| w == "father\u{2019}s" || w == "father's"));
    }
}
