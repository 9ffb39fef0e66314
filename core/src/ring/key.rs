//! What a client does to a key before hashing it (refusals and rewriting), and the key point
//! the search compares.

use alloc::vec::Vec;

use super::tag::tag;
use crate::error::Error;
use crate::hash::{md5, Hash};
use crate::options::{Options, MAX_PREFIXED_KEY};
use crate::profile::{KeyChars, KeyRewrite, KeyTag, Profile};

/// Longest key rewrite buffer: dalli's digest form, 212 characters of up to 4 bytes plus
/// `:md5:` and 32 hex digits (pecl memcache truncates to 250 bytes, gomemcache to 256).
pub(super) const KEY_BUF: usize = 212 * 4 + 5 + 32;

/// Scratch space for a rewritten key: a stack buffer, and a heap one only for rewrites that
/// may outgrow it (URL encoding a long key).
pub(super) struct KeyBuf {
    /// Made (zeroed) on first use: most profiles never rewrite a key, and zeroing the
    /// buffer on every lookup costs more than the search.
    inline: Option<[u8; KEY_BUF]>,
    heap: Vec<u8>,
}

impl KeyBuf {
    /// An empty buffer (allocates nothing).
    pub(super) fn new() -> KeyBuf {
        KeyBuf {
            inline: None,
            heap: Vec::new(),
        }
    }

    /// The stack buffer, zeroed the first time.
    // Lazy on purpose: an eager `[0; KEY_BUF]` argument may be built (zeroed) on every call.
    #[allow(clippy::unnecessary_lazy_evaluations)]
    fn inline(&mut self) -> &mut [u8; KEY_BUF] {
        self.inline.get_or_insert_with(|| [0; KEY_BUF])
    }

    /// The bytes `put` writes, at most `max` of them: in the stack buffer when `max` fits it,
    /// else on the heap.
    fn write(&mut self, max: usize, put: impl Fn(&mut dyn FnMut(u8))) -> &[u8] {
        if max <= KEY_BUF {
            let mut n = 0;
            let inline = self.inline();
            put(&mut |b| {
                inline[n] = b;
                n += 1;
            });
            &inline[..n]
        } else {
            self.heap.clear();
            let heap = &mut self.heap;
            put(&mut |b| heap.push(b));
            &self.heap
        }
    }
}

/// `URLEncoder.encode(key, "UTF-8")` over the key's bytes: `a-zA-Z0-9.-*_` kept, space to
/// `+`, every other byte `%XX` (uppercase hex).
fn url_encode<'k>(key: &[u8], buf: &'k mut KeyBuf) -> &'k [u8] {
    const HEX: &[u8; 16] = b"0123456789ABCDEF";
    let put = |out: &mut dyn FnMut(u8)| {
        for &b in key {
            match b {
                b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9' | b'.' | b'-' | b'*' | b'_' => out(b),
                b' ' => out(b'+'),
                _ => {
                    out(b'%');
                    out(HEX[usize::from(b >> 4)]);
                    out(HEX[usize::from(b & 15)]);
                }
            }
        }
    };
    buf.write(key.len() * 3, put)
}

/// Python's `repr(key)` of a `bytes` object (what `f"{key}"` gives): `b` and a quote (`'`,
/// or `"` when the key holds `'` but no `"`), then each byte: `\\`, the quote and `\t`,
/// `\n`, `\r` escaped with a backslash, other bytes below 0x20 or from 0x7f as `\xhh`.
fn py_bytes_repr<'k>(key: &[u8], buf: &'k mut KeyBuf) -> &'k [u8] {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let quote = if key.contains(&b'\'') && !key.contains(&b'"') {
        b'"'
    } else {
        b'\''
    };
    let put = |out: &mut dyn FnMut(u8)| {
        out(b'b');
        out(quote);
        for &b in key {
            match b {
                b'\\' => {
                    out(b'\\');
                    out(b'\\');
                }
                b'\t' | b'\n' | b'\r' => {
                    out(b'\\');
                    out(match b {
                        b'\t' => b't',
                        b'\n' => b'n',
                        _ => b'r',
                    });
                }
                _ if b == quote => {
                    out(b'\\');
                    out(b);
                }
                0x20..=0x7e => out(b),
                _ => {
                    out(b'\\');
                    out(b'x');
                    out(HEX[usize::from(b >> 4)]);
                    out(HEX[usize::from(b & 15)]);
                }
            }
        }
        out(quote);
    };
    buf.write(key.len() * 4 + 3, put)
}

/// dalli's longest key, in characters, before it is shortened.
const DALLI_MAX_CHARS: usize = 250;
/// The characters dalli keeps of a longer key (249 - `:md5:` - 32 hex digits).
const DALLI_KEEP_CHARS: usize = 212;

/// Byte length of each character of `key` as Ruby counts characters: UTF-8 sequences, and
/// every byte that is not part of one counts as one character.
fn char_ends(key: &[u8]) -> impl Iterator<Item = usize> + '_ {
    let mut at = 0usize;
    core::iter::from_fn(move || {
        if at >= key.len() {
            return None;
        }
        let b = key[at];
        let want = match b {
            0x00..=0x7f => 1,
            0xc2..=0xdf => 2,
            0xe0..=0xef => 3,
            0xf0..=0xf4 => 4,
            _ => 1,
        };
        let len = if want > 1
            && at + want <= key.len()
            && core::str::from_utf8(&key[at..at + want]).is_ok()
        {
            want
        } else {
            1
        };
        at += len;
        Some(at)
    })
}

/// dalli's long-key rewrite into `buf`, or `None` when the key is kept as it is.
fn dalli_digest<'k>(key: &[u8], buf: &'k mut [u8; KEY_BUF]) -> Option<&'k [u8]> {
    let mut keep = 0usize;
    let mut chars = 0usize;
    for end in char_ends(key) {
        chars += 1;
        if chars == DALLI_KEEP_CHARS {
            keep = end;
        }
        if chars > DALLI_MAX_CHARS {
            break;
        }
    }
    if chars <= DALLI_MAX_CHARS {
        return None;
    }
    const HEX: &[u8; 16] = b"0123456789abcdef";
    buf[..keep].copy_from_slice(&key[..keep]);
    buf[keep..keep + 5].copy_from_slice(b":md5:");
    let d = md5::digest(key);
    for (i, b) in d.iter().enumerate() {
        buf[keep + 5 + 2 * i] = HEX[usize::from(b >> 4)];
        buf[keep + 6 + 2 * i] = HEX[usize::from(b & 15)];
    }
    Some(&buf[..keep + 37])
}

/// A key as the client hashes it: the bytes, or a fixed hash where the client hashes nothing.
#[derive(Clone, Copy, Debug)]
pub(super) struct Prepared<'k> {
    /// The bytes to hash.
    pub(super) bytes: &'k [u8],
    /// libmemcached with `OPT_HASH_WITH_PREFIX_KEY`: `prefix + key` longer than 250 bytes is
    /// not hashed, its hash is 0.
    pub(super) zero: bool,
}

impl<'k> Prepared<'k> {
    /// Bytes hashed as they are.
    #[inline]
    pub(super) fn bytes(bytes: &'k [u8]) -> Prepared<'k> {
        Prepared { bytes, zero: false }
    }

    /// The key's 32-bit hash with `hash`.
    #[inline]
    pub(super) fn hash(self, hash: Hash) -> u32 {
        if self.zero {
            0
        } else {
            hash.hash(self.bytes)
        }
    }
}

/// The bytes the client hashes for `key`, or [`Error::KeyRejected`]. Rewritten keys are built
/// in `buf` (no allocation but for long keys some rewrites lengthen). Inlined: most profiles
/// only check the key's length here; the rest is out of line ([`tagged`], [`rewrite`],
/// [`with_prefix`]). Refusals are on the key as given; then the hash tag is taken (the
/// profile's own braces, or the ring's `hash_tag` option), then the key rewritten.
#[inline(always)]
pub(super) fn prepare<'k>(
    profile: &Profile,
    hash: Hash,
    options: &Options,
    key: &'k [u8],
    buf: &'k mut KeyBuf,
) -> Result<Prepared<'k>, Error> {
    let limits = profile.key_limits;
    // `KeyChars::Any` (most profiles) decided here, without a call.
    let refused = (key.is_empty() && (limits.empty || profile.empty_key_rejected.contains(&hash)))
        || limits.max_len.is_some_and(|m| key.len() > m)
        || (limits.chars != KeyChars::Any && !limits.chars.allows(key));
    if refused {
        return Err(Error::KeyRejected);
    }
    let key = match profile.key_tag {
        KeyTag::None => key,
        rule => tagged(rule, options, key),
    };
    if options.hash_with_prefix() {
        return Ok(match with_prefix(options, key, buf) {
            Some(bytes) => Prepared::bytes(bytes),
            None => Prepared {
                bytes: key,
                zero: true,
            },
        });
    }
    match profile.key {
        KeyRewrite::None => Ok(Prepared::bytes(key)),
        rule => Ok(Prepared::bytes(rewrite(rule, key, buf)?)),
    }
}

/// The key's hash tag by the profile's rule: between its client's braces, or the ring's
/// `hash_tag` option where the client takes one (twemproxy, Jedis).
#[inline(never)]
fn tagged<'k>(rule: KeyTag, options: &Options, key: &'k [u8]) -> &'k [u8] {
    match (rule, options.hash_tag()) {
        (KeyTag::Braces(rule), _) => tag(rule, key, *b"{}"),
        (KeyTag::Configured(rule), Some(delimiters)) => tag(rule, key, delimiters),
        _ => key,
    }
}

/// The key with libmemcached's hashed prefix (only profiles whose key is not rewritten take
/// it), written with the key into the stack buffer as `strncpy` copies it (the key's bytes
/// after a NUL become NUL); `prefix + key` over 250 bytes hashes as 0 (`None`; returned in
/// registers, so the caller's fast path keeps its key out of memory).
#[inline(never)]
fn with_prefix<'k>(options: &Options, key: &'k [u8], buf: &'k mut KeyBuf) -> Option<&'k [u8]> {
    let prefix = options.prefix_key();
    let len = prefix.len() + key.len();
    if len > MAX_PREFIXED_KEY {
        return None;
    }
    let inline = buf.inline();
    inline[..prefix.len()].copy_from_slice(prefix);
    let mut nul = false;
    for (dst, &b) in inline[prefix.len()..len].iter_mut().zip(key) {
        nul |= b == 0;
        *dst = if nul { 0 } else { b };
    }
    Some(&inline[..len])
}

/// A key rewritten by `rule` (built in `buf` when it differs from `key`), or
/// [`Error::KeyRejected`] where the client cannot rewrite it.
#[inline(never)]
fn rewrite<'k>(rule: KeyRewrite, key: &'k [u8], buf: &'k mut KeyBuf) -> Result<&'k [u8], Error> {
    Ok(match rule {
        KeyRewrite::None => key,
        KeyRewrite::Truncate(n) => &key[..key.len().min(n)],
        KeyRewrite::PeclSanitize => {
            let n = key.len().min(250);
            let inline = buf.inline();
            for (dst, &b) in inline.iter_mut().zip(&key[..n]) {
                *dst = if b <= 0x20 { b'_' } else { b };
            }
            &inline[..n]
        }
        KeyRewrite::DalliDigest => match dalli_digest(key, buf.inline()) {
            Some(k) => k,
            None => key,
        },
        KeyRewrite::UrlEncode => url_encode(key, buf),
        KeyRewrite::PyBytesRepr => py_bytes_repr(key, buf),
        KeyRewrite::Prefix(p) => {
            let p = p.as_bytes();
            if p.len() + key.len() <= KEY_BUF {
                let inline = buf.inline();
                inline[..p.len()].copy_from_slice(p);
                inline[p.len()..p.len() + key.len()].copy_from_slice(key);
                &inline[..p.len() + key.len()]
            } else {
                buf.heap.clear();
                buf.heap.extend_from_slice(p);
                buf.heap.extend_from_slice(key);
                &buf.heap
            }
        }
        KeyRewrite::Latin1 => latin1(key, buf).ok_or(Error::KeyRejected)?,
    })
}

/// The characters of UTF-8 `text` as one latin-1 byte each (`str.encode('iso-8859-1')`), in
/// `buf`; `None` when `text` is not UTF-8 or has a character above U+00FF.
fn latin1<'k>(text: &'k [u8], buf: &'k mut KeyBuf) -> Option<&'k [u8]> {
    let text = core::str::from_utf8(text).ok()?;
    if text.chars().any(|ch| u32::from(ch) > 0xFF) {
        return None;
    }
    // Each character is one byte, so the result is no longer than `text`.
    Some(buf.write(text.len(), |out| {
        for ch in text.chars() {
            out(u32::from(ch) as u8);
        }
    }))
}

/// [`latin1`] for a node name, owned (once per server, when it joins).
pub(super) fn latin1_owned(text: &str) -> Option<Vec<u8>> {
    text.chars()
        .map(|ch| u8::try_from(u32::from(ch)).ok())
        .collect()
}

/// A 64-bit position in the top half of a 128-bit one, its sign bit flipped by `flip` (`2^63`
/// for signed order, else 0): how a 64-bit ring stores points and compares key hashes on
/// the 128-bit continuum uhashring's ring also uses.
#[inline]
pub(super) fn wide64(h: u64, flip: u64) -> u128 {
    u128::from(h ^ flip) << 64
}

/// A key's hash in the form the search compares: 32 bits, a signed 64-bit `long` (whalin's
/// old-compat hash), or 128 bits on uhashring's ring.
#[derive(Clone, Copy, Debug)]
pub(super) enum KeyPoint {
    /// A 32-bit key hash.
    Narrow(u32),
    /// A signed 64-bit key hash (the whalin Java client's `long`).
    Long(i64),
    /// A whole MD5 digest as a 128-bit number.
    Wide(u128),
}

impl KeyPoint {
    /// The 32 bits a 32-bit search compares: the hash, the low half of a `long`, the top
    /// of a 128-bit point.
    #[inline]
    pub(super) fn narrow(self) -> u32 {
        match self {
            KeyPoint::Narrow(h) => h,
            KeyPoint::Wide(w) => (w >> 96) as u32,
            KeyPoint::Long(h) => h as u32,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn latin1_keys_and_names() {
        let mut buf = KeyBuf::new();
        assert_eq!(
            latin1("é-ÿ".as_bytes(), &mut buf),
            Some(&[0xE9, b'-', 0xFF][..])
        );
        assert_eq!(latin1("ключ".as_bytes(), &mut buf), None);
        assert_eq!(latin1(b"\xff", &mut buf), None);
        assert_eq!(
            latin1_owned("último"),
            Some(alloc::vec![0xFA, b'l', b't', b'i', b'm', b'o'])
        );
        assert_eq!(latin1_owned("€"), None);
    }
}
