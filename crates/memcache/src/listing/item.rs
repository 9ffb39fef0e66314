//! One listed key with what the listing says about it.

use std::io::{self, Read, Write};

use ketama_keyset::{read_keyed, write_keyed, Record};

/// A key as a listing shows it, with its metadata (metadump gives all of it; `stats
/// cachedump` only the key).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ListedKey {
    /// The key's bytes (percent-decoded).
    pub key: Vec<u8>,
    /// Absolute expiry (Unix seconds, the server's clock), `-1` for none or unknown.
    pub exp: i64,
    /// The item's CAS (0 when unknown).
    pub cas: u64,
    /// The item's total size in memory (key, value and header), 0 when unknown.
    pub size: u64,
    /// When the item was last accessed (metadump `la`: Unix seconds, the server's clock;
    /// memcached moves it when the item is stored, and when it is read again after its
    /// first read), `-1` when unknown.
    pub la: i64,
    /// Whether the item was read since it was stored (metadump `fetch`), `None` when
    /// unknown.
    pub fetched: Option<bool>,
}

/// `la` and `fetch` in one number: bits 0-1 the fetch flag (0 unknown, 1 no, 2 yes), the
/// rest `la + 1` (0: unknown).
fn pack_access(la: i64, fetched: Option<bool>) -> u64 {
    let f = match fetched {
        None => 0,
        Some(false) => 1,
        Some(true) => 2,
    };
    ((la.max(-1) + 1) as u64) << 2 | f
}

fn unpack_access(n: u64) -> (i64, Option<bool>) {
    let fetched = match n & 3 {
        1 => Some(false),
        2 => Some(true),
        _ => None,
    };
    ((n >> 2) as i64 - 1, fetched)
}

impl Record for ListedKey {
    fn key(&self) -> &[u8] {
        &self.key
    }

    fn write_to<W: Write>(&self, w: &mut W) -> io::Result<()> {
        let access = pack_access(self.la, self.fetched);
        write_keyed(w, &self.key, [self.cas, self.exp as u64, self.size, access])
    }

    fn read_from<R: Read>(r: &mut R) -> io::Result<Option<ListedKey>> {
        Ok(read_keyed(r)?.map(|(key, [cas, exp, size, access])| {
            let (la, fetched) = unpack_access(access);
            ListedKey {
                key,
                exp: exp as i64,
                cas,
                size,
                la,
                fetched,
            }
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_listed_key_survives_the_trip_to_disk() {
        let k = ListedKey {
            key: b"a\0%\xff".to_vec(),
            exp: -1,
            cas: u64::MAX,
            size: 7,
            la: 1_700_000_123,
            fetched: Some(true),
        };
        let unknown = ListedKey {
            la: -1,
            fetched: None,
            ..k.clone()
        };
        let unread = ListedKey {
            la: 0,
            fetched: Some(false),
            ..k.clone()
        };
        let mut buf = Vec::new();
        for x in [&k, &unknown, &unread] {
            x.write_to(&mut buf).unwrap();
        }
        let mut r = &buf[..];
        for x in [k, unknown, unread] {
            assert_eq!(ListedKey::read_from(&mut r).unwrap(), Some(x));
        }
        assert_eq!(ListedKey::read_from(&mut r).unwrap(), None);
    }
}
