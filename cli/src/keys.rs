//! Where keys come from: arguments, stdin, keys files, word counts of a text, the built-in
//! corpus and the built-in generated key set.

use std::io::Read;

use crate::progress::{Progress, Unit};
use crate::Fail;

/// The built-in corpus: the King James Version of Genesis and Exodus (public domain), as
/// Debian's `bible-kjv-text` 4.38 ships it (see `cli/corpus/README.md`).
pub const DEFAULT_CORPUS: &str = include_str!("../corpus/kjv-genesis-exodus.txt");

/// How the built-in corpus is named in output.
pub const DEFAULT_CORPUS_NAME: &str = "built-in corpus: KJV Genesis + Exodus (public domain)";

/// Size of the built-in generated key set.
pub const GENERATED_KEYS: usize = 100_000;

/// Splits bytes into lines (keys): `\n` separated, one trailing `\r` dropped, no empty last
/// line after a final newline. Empty lines in the middle are empty keys.
pub fn lines(bytes: &[u8]) -> Vec<Vec<u8>> {
    if bytes.is_empty() {
        return Vec::new();
    }
    let body = bytes.strip_suffix(b"\n").unwrap_or(bytes);
    body.split(|&b| b == b'\n')
        .map(|l| l.strip_suffix(b"\r").unwrap_or(l).to_vec())
        .collect()
}

/// All of stdin, as keys.
pub fn stdin_keys() -> Result<Vec<Vec<u8>>, Fail> {
    let mut buf = Vec::new();
    std::io::stdin()
        .read_to_end(&mut buf)
        .map_err(|e| Fail::new(format!("cannot read keys from stdin: {e}")))?;
    Ok(lines(&buf))
}

/// A keys file: one key per line. A large file shows a progress bar on a terminal's stderr
/// while it is read.
pub fn file_keys(path: &str) -> Result<Vec<Vec<u8>>, Fail> {
    let fail = |e: std::io::Error| Fail::new(format!("{path}: cannot read keys file: {e}"));
    let mut file = std::fs::File::open(path).map_err(fail)?;
    let size = file.metadata().map(|m| m.len()).unwrap_or(0);
    let mut bytes = Vec::with_capacity(usize::try_from(size).unwrap_or(0));
    let mut bar = Progress::new(size, format!("reading {path}"), Unit::Bytes);
    let mut chunk = vec![0u8; 1 << 20];
    loop {
        match file.read(&mut chunk) {
            Ok(0) => break,
            Ok(n) => {
                bytes.extend_from_slice(&chunk[..n]);
                bar.inc(n as u64);
            }
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(fail(e)),
        }
    }
    bar.finish();
    Ok(lines(&bytes))
}

/// Keys given on the command line, as their bytes.
pub fn arg_keys(args: &[std::ffi::OsString]) -> Vec<Vec<u8>> {
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
pub fn generated() -> Vec<Vec<u8>> {
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
pub fn word_count(text: &str) -> Vec<(String, usize)> {
    let mut order: Vec<(String, usize)> = Vec::new();
    let mut index: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
    let chars: Vec<char> = text.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        if !chars[i].is_alphabetic() {
            i += 1;
            continue;
        }
        let mut word = String::new();
        while i < chars.len() {
            let c = chars[i];
            if c.is_alphabetic() {
                word.extend(c.to_lowercase());
                i += 1;
            } else if (c == '\'' || c == '\u{2019}')
                && i + 1 < chars.len()
                && chars[i + 1].is_alphabetic()
            {
                word.push('\'');
                i += 1;
            } else {
                break;
            }
        }
        match index.get(&word) {
            Some(&at) => order[at].1 += 1,
            None => {
                index.insert(word.clone(), order.len());
                order.push((word, 1));
            }
        }
    }
    order
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_splitting() {
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
}
