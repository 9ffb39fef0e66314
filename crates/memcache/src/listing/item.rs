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
}

impl Record for ListedKey {
    fn key(&self) -> &[u8] {
        &self.key
    }

    fn write_to<W: Write>(&self, w: &mut W) -> io::Result<()> {
        write_keyed(w, &self.key, [self.cas, self.exp as u64, self.size])
    }

    fn read_from<R: Read>(r: &mut R) -> io::Result<Option<ListedKey>> {
        Ok(read_keyed(r)?.map(|(key, [cas, exp, size])| ListedKey {
            key,
            exp: exp as i64,
            cas,
            size,
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
        };
        let mut buf = Vec::new();
        k.write_to(&mut buf).unwrap();
        let mut r = &buf[..];
        assert_eq!(ListedKey::read_from(&mut r).unwrap(), Some(k));
        assert_eq!(ListedKey::read_from(&mut r).unwrap(), None);
    }
}
