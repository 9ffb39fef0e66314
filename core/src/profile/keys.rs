//! How a client treats a key before hashing it: what it rewrites ([`KeyRewrite`]) and what it
//! refuses ([`KeyLimits`], one named constant per rule a row uses).

/// How the client rewrites a key before hashing it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KeyRewrite {
    /// Hash the bytes as given.
    None,
    /// pecl memcache: bytes <= 0x20 become `_`, then truncate to 250 bytes.
    PeclSanitize,
    /// Hash at most the first N bytes (gomemcache: 256).
    Truncate(usize),
    /// dalli: a key longer than 250 characters (code points; bytes that are not UTF-8 count
    /// one each) becomes its first 212 characters + `:md5:` + the lowercase hex MD5 of the
    /// whole key.
    DalliDigest,
    /// whalin's `sanitizeKeys` (on by default): `URLEncoder.encode(key, "UTF-8")`:
    /// `a-zA-Z0-9.-*_` kept, space to `+`, every other byte `%XX` (`~` too).
    UrlEncode,
    /// Python's `repr()` of a `bytes` key, as an f-string formats it (pymemcache with bytes
    /// keys): `b'...'` (`b"..."` when the key holds `'` and no `"`), `\\`, the quote, `\t`,
    /// `\n`, `\r` escaped, other bytes below 0x20 or from 0x7f as `\xhh`.
    PyBytesRepr,
    /// A fixed prefix (Django's default key function with no `KEY_PREFIX` and `VERSION` 1:
    /// `:1:`).
    Prefix(&'static str),
    /// The key's characters (read as UTF-8) as one latin-1 byte each; a key that is not
    /// UTF-8 or has a character above U+00FF is refused ([`crate::Error::KeyRejected`]).
    /// Applied after the hash tag is taken, to what is hashed. The client encodes its node
    /// names the same way, and a name it cannot encode is refused
    /// ([`crate::Error::Unsupported`]) (redis-shard's `b()`: `str.encode('iso-8859-1')`).
    Latin1,
}

/// Where a client finds a key's hash tag: the part of the key it hashes instead of the
/// whole key, between an opening and a closing delimiter (`{` and `}`, or a `--hash-tag`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KeyTag {
    /// The client has no hash tags: the whole key is hashed.
    None,
    /// Tags found by this rule, only with delimiters configured by the user (the ring's
    /// `hash_tag` option: twemproxy's `hash_tag`, a Jedis key-tag pattern).
    Configured(TagRule),
    /// Tags found by this rule between `{` and `}`, always (the Redis clients).
    Braces(TagRule),
}

/// How a client finds the tag between the delimiters `o` and `c` (bytes) in a key; when it
/// finds none, the whole key is hashed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TagRule {
    /// The first `o`, then the first `c` after it; the bytes between them when there is at
    /// least one (twemproxy `hash_tag`, Predis `extractKeyTag`, go-redis `hashtag.Key`).
    FirstNonEmpty,
    /// In the key up to its first NUL byte (C string functions): the first `o`, then the
    /// first `c` after it; the bytes between them, even none (phpredis `ra_extract_key`:
    /// `{}` hashes the empty string).
    FirstUpToNul,
    /// Ruby's `/^\{(.+?)\}/` (redis-rb `key_tag`): an `o` at the start of the key or right
    /// after a `\n`, then at least one byte and up to the first `c`, with no `\n` in between
    /// (Ruby's `.`); the first start that matches.
    LineStart,
    /// Python's `re.match('.*\{(.*)\}.*', key)` (redis-shard): within the key's first line
    /// (up to its first `\n`), the bytes between the last `o` that has a `c` after it and the
    /// last `c`, even none.
    GreedyLast,
    /// Java's `Pattern.compile("\\{(.+?)\\}").matcher(key).find()` (Jedis key-tag patterns
    /// with the delimiters `o` and `c`): the first `o` followed by at least one character
    /// and then a `c`, with no Java line terminator (`\n`, `\r`, U+0085, U+2028, U+2029)
    /// before that `c`; the bytes between them.
    LazyFind,
}

/// Keys the client refuses before hashing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KeyLimits {
    /// The empty key is refused.
    pub empty: bool,
    /// Keys longer than this many bytes are refused.
    pub max_len: Option<usize>,
    /// Bytes (or characters) the client refuses anywhere in a key.
    pub chars: KeyChars,
}

/// Which bytes a client refuses in a key.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KeyChars {
    /// Any byte.
    Any,
    /// No byte 0x00..=0x20 (control bytes, space): folsom.
    Controls,
    /// No byte 0x00..=0x20 or 0x7f: emcache `is_key_valid`, Django's memcached key check.
    ControlsDel,
    /// No NUL, and no ASCII whitespace (space, `\t`, `\n`, `\v`, `\f`, `\r`: what
    /// `bytes.split()` splits on) unless the key is whitespace only (`key.split()` is then
    /// empty and passes the check): pymemcache `check_key_helper` with Unicode or bytes keys.
    PyWhitespace,
    /// As [`KeyChars::PyWhitespace`], and no byte >= 0x80 (pymemcache's default refuses keys
    /// that are not ASCII).
    PyWhitespaceAscii,
    /// No space, `\n`, `\r` or NUL byte (Finagle memcached's `KeyValidation`).
    SpaceNewlineNul,
    /// python-memcached `[\x21-\x7e\x80-\xff]+$`: no byte 0x00..=0x20 or 0x7f, except one
    /// final `\n` (a regex `$` also matches before a final newline).
    PythonMemcached,
}

impl KeyChars {
    /// Whether a key passes this rule.
    pub fn allows(self, key: &[u8]) -> bool {
        let ctl = |b: &u8| *b <= 0x20 || *b == 0x7f;
        let ws = |b: &u8| matches!(*b, b' ' | b'\t' | b'\n' | 0x0b | 0x0c | b'\r');
        match self {
            KeyChars::Any => true,
            KeyChars::Controls => !key.iter().any(|&b| b <= 0x20),
            KeyChars::SpaceNewlineNul => !key.iter().any(|b| matches!(b, b' ' | b'\n' | b'\r' | 0)),
            KeyChars::ControlsDel => !key.iter().any(ctl),
            KeyChars::PyWhitespace | KeyChars::PyWhitespaceAscii => {
                let ascii = self == KeyChars::PyWhitespace || key.is_ascii();
                ascii && !key.contains(&0) && (key.iter().all(ws) || !key.iter().any(ws))
            }
            KeyChars::PythonMemcached => {
                let body = key.strip_suffix(b"\n").unwrap_or(key);
                !body.is_empty() && !body.iter().any(ctl)
            }
        }
    }
}

/// No key is refused.
pub const ANY_KEY: KeyLimits = KeyLimits {
    empty: false,
    max_len: None,
    chars: KeyChars::Any,
};
/// memcached's text protocol limit as libmemcached and twemproxy enforce it: 1..=250 bytes.
pub const MEMCACHED_KEY: KeyLimits = KeyLimits {
    empty: true,
    max_len: Some(250),
    chars: KeyChars::Any,
};
/// Only the empty key is refused (pecl memcache, Dalli, xmemcached-gwhalin).
pub const NON_EMPTY_KEY: KeyLimits = KeyLimits {
    empty: true,
    max_len: None,
    chars: KeyChars::Any,
};
/// folsom: 1..=250 bytes, none of them a control byte or space.
pub const FOLSOM_KEY: KeyLimits = KeyLimits {
    empty: true,
    max_len: Some(250),
    chars: KeyChars::Controls,
};
/// pymemcache's default `check_key_helper`: ASCII, at most 250 bytes.
pub const PYMEMCACHE_KEY: KeyLimits = KeyLimits {
    empty: false,
    max_len: Some(250),
    chars: KeyChars::PyWhitespaceAscii,
};
/// pymemcache with `allow_unicode_keys` or bytes keys: at most 250 UTF-8 bytes.
pub const PYMEMCACHE_UNICODE_KEY: KeyLimits = KeyLimits {
    empty: false,
    max_len: Some(250),
    chars: KeyChars::PyWhitespace,
};
/// Django's memcached key check (250 bytes with its `:1:` prefix).
pub const DJANGO_KEY: KeyLimits = KeyLimits {
    empty: false,
    max_len: Some(247),
    chars: KeyChars::ControlsDel,
};
/// emcache's `is_key_valid`.
pub const EMCACHE_KEY: KeyLimits = KeyLimits {
    empty: false,
    max_len: Some(250),
    chars: KeyChars::ControlsDel,
};
/// python-memcached's `check_key`.
pub const PYTHON_MEMCACHED_KEY: KeyLimits = KeyLimits {
    empty: true,
    max_len: Some(250),
    chars: KeyChars::PythonMemcached,
};
/// Enyim's `DefaultKeyTransformer`: no character 0x00..=0x20.
pub const ENYIM_KEY: KeyLimits = KeyLimits {
    empty: false,
    max_len: None,
    chars: KeyChars::Controls,
};
/// Finagle memcached's `KeyValidation`: at most 250 bytes (the empty key passes), no space,
/// `\n`, `\r` or NUL.
pub const FINAGLE_KEY: KeyLimits = KeyLimits {
    empty: false,
    max_len: Some(250),
    chars: KeyChars::SpaceNewlineNul,
};
