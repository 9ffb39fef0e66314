//! One listed key as the scratch files hold it: key length (`u16`), CAS (`u64`), absolute
//! expiry (`i64`, -1 for none), item size (`u64`), all little-endian, then the key's bytes.

use std::io::{self, ErrorKind, Read, Write};

use super::meta::Listed;

/// Bytes before the key.
const HEAD: usize = 26;

/// Writes one record.
pub fn write(w: &mut impl Write, it: &Listed) -> io::Result<()> {
    // memcached keys are at most 250 bytes.
    let len = u16::try_from(it.key.len()).map_err(|_| {
        io::Error::new(
            ErrorKind::InvalidInput,
            format!("a listed key of {} bytes", it.key.len()),
        )
    })?;
    let mut head = [0u8; HEAD];
    head[..2].copy_from_slice(&len.to_le_bytes());
    head[2..10].copy_from_slice(&it.cas.to_le_bytes());
    head[10..18].copy_from_slice(&it.exp.to_le_bytes());
    head[18..26].copy_from_slice(&it.size.to_le_bytes());
    w.write_all(&head)?;
    w.write_all(&it.key)
}

/// Reads the next record; `None` at the end (a record cut short is an error).
pub fn read(r: &mut impl Read) -> io::Result<Option<Listed>> {
    let mut head = [0u8; HEAD];
    match r.read_exact(&mut head[..1]) {
        Ok(()) => {}
        Err(e) if e.kind() == ErrorKind::UnexpectedEof => return Ok(None),
        Err(e) => return Err(e),
    }
    r.read_exact(&mut head[1..])?;
    let n = |i: usize| {
        let mut b = [0u8; 8];
        b.copy_from_slice(&head[i..i + 8]);
        b
    };
    let len = usize::from(u16::from_le_bytes([head[0], head[1]]));
    let mut key = vec![0u8; len];
    r.read_exact(&mut key)?;
    Ok(Some(Listed {
        key,
        cas: u64::from_le_bytes(n(2)),
        exp: i64::from_le_bytes(n(10)),
        size: u64::from_le_bytes(n(18)),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_round_trip_and_a_cut_one_is_an_error() {
        let items = [
            Listed {
                key: b"a\0%\xff".to_vec(),
                exp: -1,
                cas: u64::MAX,
                size: 7,
            },
            Listed {
                key: vec![b'k'; 250],
                exp: 1_700_000_000,
                cas: 0,
                size: 0,
            },
        ];
        let mut buf = Vec::new();
        for it in &items {
            write(&mut buf, it).unwrap();
        }
        let mut r = &buf[..];
        assert_eq!(read(&mut r).unwrap().as_ref(), Some(&items[0]));
        assert_eq!(read(&mut r).unwrap().as_ref(), Some(&items[1]));
        assert!(read(&mut r).unwrap().is_none());
        let mut cut = &buf[..buf.len() - 1];
        read(&mut cut).unwrap();
        assert_eq!(read(&mut cut).unwrap_err().kind(), ErrorKind::UnexpectedEof);
        let long = Listed {
            key: vec![0; 70_000],
            exp: -1,
            cas: 0,
            size: 0,
        };
        assert_eq!(
            write(&mut Vec::new(), &long).unwrap_err().kind(),
            ErrorKind::InvalidInput
        );
    }
}
