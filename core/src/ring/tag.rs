//! Hash tags: the part of a key a client hashes instead of the whole key, found by each
//! client's own rule ([`TagRule`]) between an opening and a closing delimiter.

use crate::profile::TagRule;

/// The bytes `rule` hashes for `key` with the delimiters `[o, c]`: its tag, or the whole key
/// when the rule finds none.
pub(super) fn tag(rule: TagRule, key: &[u8], [o, c]: [u8; 2]) -> &[u8] {
    let found = match rule {
        TagRule::FirstNonEmpty => first_non_empty(key, o, c),
        TagRule::FirstUpToNul => {
            let text = key.iter().position(|&b| b == 0).map_or(key, |n| &key[..n]);
            first(text, o, c)
        }
        TagRule::LineStart => line_start(key, o, c),
        TagRule::GreedyLast => greedy_last(key, o, c),
        TagRule::LazyFind => lazy_find(key, o, c),
    };
    found.unwrap_or(key)
}

/// The first `o`, then the first `c` after it: the bytes between (maybe none).
fn first(key: &[u8], o: u8, c: u8) -> Option<&[u8]> {
    let start = key.iter().position(|&b| b == o)? + 1;
    let len = key[start..].iter().position(|&b| b == c)?;
    Some(&key[start..start + len])
}

/// [`first`] when at least one byte lies between the delimiters.
fn first_non_empty(key: &[u8], o: u8, c: u8) -> Option<&[u8]> {
    first(key, o, c).filter(|t| !t.is_empty())
}

/// Ruby's `/^o(.+?)c/`: an `o` at the start of a line, then at least one byte and up to the
/// first `c`, none of them `\n`; the first line start that matches.
fn line_start(key: &[u8], o: u8, c: u8) -> Option<&[u8]> {
    (0..key.len())
        .filter(|&p| key[p] == o && (p == 0 || key[p - 1] == b'\n'))
        .find_map(|p| lazy_from(key, p, c, |rest| rest.first() == Some(&b'\n')))
}

/// From the `o` at `p`: at least one byte, then up to the first `c`, failing at a line end
/// (`ends_line` of the rest of the key) before that `c`; the bytes between.
fn lazy_from(key: &[u8], p: usize, c: u8, ends_line: impl Fn(&[u8]) -> bool) -> Option<&[u8]> {
    let start = p + 1;
    if start >= key.len() || ends_line(&key[start..]) {
        return None;
    }
    let mut q = start + 1;
    while q < key.len() {
        if ends_line(&key[q..]) {
            return None;
        }
        if key[q] == c {
            return Some(&key[start..q]);
        }
        q += 1;
    }
    None
}

/// Python's `re.match('.*o(.*)c.*')`: within the first line, the bytes between the last `o`
/// that has a `c` after it and the last `c` (maybe none).
fn greedy_last(key: &[u8], o: u8, c: u8) -> Option<&[u8]> {
    let line = key
        .iter()
        .position(|&b| b == b'\n')
        .map_or(key, |n| &key[..n]);
    let end = line.iter().rposition(|&b| b == c)?;
    let start = line[..end].iter().rposition(|&b| b == o)? + 1;
    Some(&line[start..end])
}

/// Java's `Pattern.compile("o(.+?)c").matcher(key).find()`: the first `o` followed by at
/// least one character and a `c`, with no Java line terminator in between.
fn lazy_find(key: &[u8], o: u8, c: u8) -> Option<&[u8]> {
    (0..key.len())
        .filter(|&p| key[p] == o)
        .find_map(|p| lazy_from(key, p, c, java_line_terminator))
}

/// Whether `rest` starts with a character Java's `.` does not match: `\n`, `\r`, U+0085,
/// U+2028 or U+2029 (in UTF-8).
fn java_line_terminator(rest: &[u8]) -> bool {
    matches!(
        rest,
        [b'\n' | b'\r', ..] | [0xC2, 0x85, ..] | [0xE2, 0x80, 0xA8 | 0xA9, ..]
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    const BRACES: [u8; 2] = *b"{}";

    fn all(key: &str) -> [&str; 5] {
        [
            TagRule::FirstNonEmpty,
            TagRule::FirstUpToNul,
            TagRule::LineStart,
            TagRule::GreedyLast,
            TagRule::LazyFind,
        ]
        .map(|r| core::str::from_utf8(tag(r, key.as_bytes(), BRACES)).unwrap())
    }

    /// The clients' tags side by side (`shared/families4`, recorded by each client's
    /// oracle): Predis, phpredis, redis-rb, redis-shard, Jedis with its default pattern.
    #[test]
    fn each_rule_as_its_client_applies_it() {
        let cases: [(&str, [&str; 5]); 11] = [
            (
                "user:{42}:profile",
                ["42", "42", "user:{42}:profile", "42", "42"],
            ),
            ("{}", ["{}", "", "{}", "", "{}"]),
            ("a{}b", ["a{}b", "", "a{}b", "", "a{}b"]),
            ("{}{42}", ["{}{42}", "", "}{42", "42", "}{42"]),
            ("{a}{b}", ["a", "a", "a", "b", "a"]),
            (
                "pre{tag}mid{other}post",
                ["tag", "tag", "pre{tag}mid{other}post", "other", "tag"],
            ),
            ("}42{", ["}42{"; 5]),
            ("a{b", ["a{b"; 5]),
            ("{a{b}", ["a{b", "a{b", "a{b", "b", "a{b"]),
            ("{{x}}", ["{x", "{x", "{x", "x}", "{x"]),
            ("{x}}", ["x", "x", "x", "x}", "x"]),
        ];
        for (key, want) in cases {
            assert_eq!(all(key), want, "{key:?}");
        }
    }

    #[test]
    fn lines_and_nul_bytes() {
        // Ruby's ^ starts every line; its `.` stops at \n.
        assert_eq!(all("x\n{t}y")[2], "t");
        assert_eq!(all("{a\nb}")[2], "{a\nb}");
        // Python's match stays on the first line.
        assert_eq!(all("{a}\n{b}")[3], "a");
        assert_eq!(all("x\n{b}")[3], "x\n{b}");
        // Java's `.` stops at \r and U+2028 too; the next `{` may still match.
        assert_eq!(all("{a\rb}")[4], "{a\rb}");
        assert_eq!(all("{a\u{2028}b}{c}")[4], "c");
        // phpredis reads the key as a C string.
        assert_eq!(all("a\0{b}")[1], "a\0{b}");
        assert_eq!(all("{a\0}")[1], "{a\0}");
        assert_eq!(all("{a}\0")[1], "a");
        // twemproxy's `hash_tag`, with other delimiters too, and a Jedis pattern.
        let twemproxy = |k: &'static [u8], t: [u8; 2]| tag(TagRule::FirstNonEmpty, k, t);
        assert_eq!(twemproxy(b"{user1}:x", BRACES), b"user1");
        assert_eq!(twemproxy(b"plain", BRACES), b"plain");
        assert_eq!(twemproxy(b"{a", BRACES), b"{a");
        assert_eq!(twemproxy(b"}a{b}", BRACES), b"b");
        assert_eq!(tag(TagRule::FirstNonEmpty, b"a:b:c", *b"::"), b"b");
        assert_eq!(tag(TagRule::FirstNonEmpty, b"::x", *b"::"), b"::x");
        assert_eq!(tag(TagRule::LazyFind, b"a[b]c", *b"[]"), b"b");
    }
}
