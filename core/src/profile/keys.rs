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
