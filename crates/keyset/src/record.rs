//! How a listed key waits on disk: a [`Record`] knows its key and writes and reads itself.
//! [`write_keyed`] and [`read_keyed`] give every record the same layout: key length (`u16`),
//! the record's `N` 64-bit numbers (its own fixed count), all little-endian, then the key's
//! bytes.

use std::io::{self, ErrorKind, Read, Write};

/// A listed key with whatever the listing said about it, as scratch files hold it.
pub trait Record: Sized {
    /// The key (what makes two records the same).
    fn key(&self) -> &[u8];
    /// Appends the record to `w`.
    fn write_to<W: Write>(&self, w: &mut W) -> io::Result<()>;
    /// Reads the next record; `None` at the end (a record cut short is an error).
    fn read_from<R: Read>(r: &mut R) -> io::Result<Option<Self>>;
}

/// The most numbers a record carries.
const MAX_NUMS: usize = 6;
/// Bytes before the key, at most: the key length and the numbers.
const MAX_HEAD: usize = 2 + 8 * MAX_NUMS;

/// Writes `key` and `N` numbers (at most 6). A key longer than 65,535 bytes is refused (cache
/// keys are far shorter: memcached's at most 250 bytes).
pub fn write_keyed<W: Write, const N: usize>(
    w: &mut W,
    key: &[u8],
    nums: [u64; N],
) -> io::Result<()> {
    const { assert!(N <= MAX_NUMS) };
    let len = u16::try_from(key.len()).map_err(|_| {
        io::Error::new(
            ErrorKind::InvalidInput,
            format!("a listed key of {} bytes", key.len()),
        )
    })?;
    let mut head = [0u8; MAX_HEAD];
    head[..2].copy_from_slice(&len.to_le_bytes());
    for (i, n) in nums.iter().enumerate() {
        head[2 + 8 * i..10 + 8 * i].copy_from_slice(&n.to_le_bytes());
    }
    w.write_all(&head[..2 + 8 * N])?;
    w.write_all(key)
}

/// Reads what [`write_keyed`] wrote with the same `N`; `None` at the end (a record cut short
/// is an error).
pub fn read_keyed<R: Read, const N: usize>(r: &mut R) -> io::Result<Option<(Vec<u8>, [u64; N])>> {
    const { assert!(N <= MAX_NUMS) };
    let mut head = [0u8; MAX_HEAD];
    let head = &mut head[..2 + 8 * N];
    match r.read_exact(&mut head[..1]) {
        Ok(()) => {}
        Err(e) if e.kind() == ErrorKind::UnexpectedEof => return Ok(None),
        Err(e) => return Err(e),
    }
    r.read_exact(&mut head[1..])?;
    let nums = std::array::from_fn(|i| {
        let mut b = [0u8; 8];
        b.copy_from_slice(&head[2 + 8 * i..10 + 8 * i]);
        u64::from_le_bytes(b)
    });
    let len = usize::from(u16::from_le_bytes([head[0], head[1]]));
    let mut key = vec![0u8; len];
    r.read_exact(&mut key)?;
    Ok(Some((key, nums)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_round_trip_and_a_cut_one_is_an_error() {
        let items: [(&[u8], [u64; 3]); 2] = [
            (b"a\0%\xff", [u64::MAX, u64::MAX, 7]),
            (&[b'k'; 250], [0, 1_700_000_000, 0]),
        ];
        let mut buf = Vec::new();
        for (k, n) in &items {
            write_keyed(&mut buf, k, *n).unwrap();
        }
        let mut r = &buf[..];
        for (k, n) in &items {
            assert_eq!(read_keyed(&mut r).unwrap(), Some((k.to_vec(), *n)));
        }
        assert!(read_keyed::<_, 3>(&mut r).unwrap().is_none());
        let mut cut = &buf[..buf.len() - 1];
        read_keyed::<_, 3>(&mut cut).unwrap();
        assert_eq!(
            read_keyed::<_, 3>(&mut cut).unwrap_err().kind(),
            ErrorKind::UnexpectedEof
        );
        assert_eq!(
            write_keyed(&mut Vec::new(), &[0; 70_000], [0; 3])
                .unwrap_err()
                .kind(),
            ErrorKind::InvalidInput
        );
    }

    #[test]
    fn records_of_other_counts_round_trip() {
        let mut buf = Vec::new();
        write_keyed(&mut buf, b"k", [1, 2, 3, 4]).unwrap();
        write_keyed(&mut buf, b"kk", [5, 6, 7, 8]).unwrap();
        assert_eq!(buf.len(), 2 * (2 + 32) + 3);
        let mut r = &buf[..];
        assert_eq!(
            read_keyed(&mut r).unwrap(),
            Some((b"k".to_vec(), [1, 2, 3, 4]))
        );
        assert_eq!(
            read_keyed(&mut r).unwrap(),
            Some((b"kk".to_vec(), [5, 6, 7, 8]))
        );
        assert_eq!(read_keyed::<_, 4>(&mut r).unwrap(), None);
    }
}
