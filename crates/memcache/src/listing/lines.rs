//! The lines of a listing, read straight from the bytes: a metadump line's key and fields, a
//! cachedump line's key; or why the line is not one memcached sends.

use crate::error::printable;
use crate::key::{key_ok, uri_decode};
use crate::wire::{dec, signed};

use super::item::ListedKey;

/// A metadump line `key=<uri-encoded> exp=<t> la=<t> cas=<n> fetch=<yes|no> cls=.. size=<n>`
/// (`cls` is not read; a missing field is unknown). memcached writes the key `%`-escaped, so the token has no raw byte below 0x21
/// or above 0x7e; decoded, it is any key of 1 to 250 bytes: binary keys (spaces, control
/// bytes), which meta clients store, included.
pub(crate) fn metadump(l: &[u8]) -> Result<ListedKey, String> {
    let mut fields = l.split(|&b| b == b' ');
    let first = fields.next().unwrap_or_default();
    let Some(enc) = first.strip_prefix(b"key=") else {
        return Err(format!("not a metadump line: {}", printable(l)));
    };
    if let Some(&raw) = enc.iter().find(|&&b| !(0x21..0x7f).contains(&b)) {
        return Err(format!(
            "a raw byte 0x{raw:02x} in key={} (memcached escapes it)",
            printable(enc)
        ));
    }
    let key = uri_decode(enc).ok_or_else(|| format!("a bad %-escape in key={}", printable(enc)))?;
    if key.is_empty() || key.len() > 250 {
        return Err(format!("not a memcached key: {}", bad_key(&key)));
    }
    let mut item = ListedKey {
        key,
        exp: -1,
        cas: 0,
        size: 0,
        la: -1,
        fetched: None,
    };
    for f in fields {
        let bad = || format!("a bad field {}", printable(f));
        if let Some(v) = f.strip_prefix(b"exp=") {
            item.exp = signed(v).ok_or_else(bad)?;
        } else if let Some(v) = f.strip_prefix(b"cas=") {
            item.cas = dec(v).ok_or_else(bad)?;
        } else if let Some(v) = f.strip_prefix(b"size=") {
            item.size = dec(v).ok_or_else(bad)?;
        } else if let Some(v) = f.strip_prefix(b"la=") {
            item.la = signed(v).ok_or_else(bad)?;
        } else if let Some(v) = f.strip_prefix(b"fetch=") {
            item.fetched = match v {
                b"yes" => Some(true),
                b"no" => Some(false),
                _ => return Err(bad()),
            };
        }
    }
    Ok(item)
}

/// The key of a cachedump line `ITEM <key> [<size> b; <time> s]`, with the size of its value
/// (0 when the line does not say; its expiry and CAS are unknown).
pub(crate) fn cachedump(l: &[u8]) -> Result<ListedKey, String> {
    let mut words = l
        .strip_prefix(b"ITEM ")
        .ok_or_else(|| format!("not a cachedump line: {}", printable(l)))?
        .split(|&b| b == b' ');
    let key = words.next().unwrap_or_default();
    let size = words
        .next()
        .and_then(|w| w.strip_prefix(b"["))
        .and_then(dec)
        .unwrap_or(0);
    if !key_ok(key) {
        return Err(format!("not a memcached key: {}", bad_key(key)));
    }
    Ok(ListedKey {
        key: key.to_vec(),
        exp: -1,
        cas: 0,
        size,
        la: -1,
        fetched: None,
    })
}

/// Why `k` is not a key memcached can hold.
fn bad_key(k: &[u8]) -> String {
    if k.is_empty() {
        "empty".into()
    } else if k.len() > 250 {
        format!("{} bytes (the limit is 250)", k.len())
    } else {
        format!("'{}' has a space or control byte", printable(k))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(l: &[u8]) -> Result<Vec<u8>, String> {
        metadump(l).map(|k| k.key)
    }

    #[test]
    fn metadump_lines() {
        let l = b"key=a%25b%3A1 exp=1796154051 la=1796153951 cas=2 fetch=no cls=1 size=68";
        let it = metadump(l).unwrap();
        assert_eq!(it.key, b"a%b:1");
        assert_eq!((it.exp, it.cas, it.size), (1796154051, 2, 68));
        assert_eq!((it.la, it.fetched), (1796153951, Some(false)));
        let never = metadump(b"key=k exp=-1 la=1 cas=9 fetch=yes cls=1 size=66").unwrap();
        assert_eq!(never.exp, -1);
        assert_eq!((never.la, never.fetched), (1, Some(true)));
        let bare = metadump(b"key=k exp=-1 cas=9").unwrap();
        assert_eq!((bare.la, bare.fetched), (-1, None));
        assert!(metadump(b"key=k fetch=maybe").is_err());
        assert!(metadump(b"key=k la=x").is_err());
        assert_eq!(key(b"key=abc").as_deref(), Ok(&b"abc"[..]));
        assert!(key(b"key=ab%2").is_err());
        assert!(key(b"key=ab%zz").is_err());
        assert!(key(b"key=%+1").is_err(), "from_str_radix takes +1");
        assert!(key(b"key=%-1").is_err());
        assert_eq!(key(b"key=a%20b%1Bc").unwrap(), b"a b\x1bc", "a binary key");
        assert!(
            key(b"key=\x1b[2J").is_err(),
            "memcached escapes control bytes"
        );
        assert!(key(b"key=caf\xc3\xa9").is_err(), "and bytes above 0x7e");
        assert!(key(b"key=").is_err());
        assert!(key(format!("key={}", "k".repeat(251)).as_bytes()).is_err());
        assert!(key(b"exp=1").is_err());
        assert!(metadump(b"key=k exp=x").is_err());
        assert!(metadump(b"key=k cas=+1").is_err());
        assert!(metadump(b"key=k size=99999999999999999999999").is_err());
    }

    #[test]
    fn cachedump_lines() {
        let it = cachedump(b"ITEM k:1 [5 b; 0 s]").unwrap();
        assert_eq!((it.key.as_slice(), it.size), (&b"k:1"[..], 5));
        assert_eq!(cachedump(b"ITEM k:1 [x b; 0 s]").unwrap().size, 0);
        assert!(cachedump(b"ITEM").is_err());
        assert!(cachedump(b"key=k").is_err());
    }
}
