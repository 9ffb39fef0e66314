//! CRC-based hashes: the full IEEE CRC-32, libhashkit's 15-bit `crc`, twemproxy's `crc16`.

/// Standard CRC-32 (IEEE, reflected 0xEDB88320, init and final xor 0xFFFFFFFF): PHP `crc32()`,
/// pecl memcache `crc32`, twemproxy `crc32a`, Go `crc32.ChecksumIEEE`.
#[inline]
pub fn crc32a(key: &[u8]) -> u32 {
    crc32fast::hash(key)
}

/// libhashkit `HASHKIT_HASH_CRC`, twemproxy `crc32`, spymemcached `CRC_HASH`, xmemcached
/// `CRC32_HASH`: `(crc32 >> 16) & 0x7fff`, only 15 bits.
#[inline]
pub fn crc15(key: &[u8]) -> u32 {
    (crc32a(key) >> 16) & 0x7fff
}

const fn xmodem_table() -> [u32; 256] {
    let mut t = [0u32; 256];
    let mut i = 0;
    while i < 256 {
        let mut c = (i as u32) << 8;
        let mut k = 0;
        while k < 8 {
            c = if c & 0x8000 != 0 {
                (c << 1) ^ 0x1021
            } else {
                c << 1
            };
            k += 1;
        }
        t[i] = c & 0xFFFF;
        i += 1;
    }
    t
}

static XMODEM: [u32; 256] = xmodem_table();

/// twemproxy `crc16`: the CRC-16/XMODEM table step on a 32-bit accumulator that is never
/// truncated, so only the low 16 bits equal the XMODEM CRC.
#[inline]
pub fn crc16(key: &[u8]) -> u32 {
    key.iter().fold(0u32, |c, &b| {
        (c << 8) ^ XMODEM[((c >> 8) ^ u32::from(b)) as usize & 0xff]
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_answers() {
        assert_eq!(crc32a(b"123456789"), 0xCBF4_3926);
        assert_eq!(crc32a(b"apple"), 2_838_417_488);
        assert_eq!(crc15(b"apple"), 10_542);
        assert_eq!(crc16(b"123456789"), 2_257_596_867);
        assert_eq!(crc16(b"apple"), 3_662_830_516);
    }
}
