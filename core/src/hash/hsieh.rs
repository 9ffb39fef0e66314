//! Paul Hsieh's SuperFastHash as libhashkit and twemproxy implement it.

#[inline]
fn le16(p: &[u8]) -> u32 {
    u32::from(p[0]) | (u32::from(p[1]) << 8)
}

/// SuperFastHash with `h = 0` (not the length) as the initial value. `signed_tail` selects the
/// x86 reading of the third byte of a 3-byte tail (the only place `char` signedness shows).
pub fn hsieh(key: &[u8], signed_tail: bool) -> u32 {
    if key.is_empty() {
        return 0;
    }
    let mut h: u32 = 0;
    let mut blocks = key.chunks_exact(4);
    for p in &mut blocks {
        h = h.wrapping_add(le16(p));
        let t = (le16(&p[2..]) << 11) ^ h;
        h = (h << 16) ^ t;
        h = h.wrapping_add(h >> 11);
    }
    let tail = blocks.remainder();
    match tail.len() {
        3 => {
            h = h.wrapping_add(le16(tail));
            h ^= h << 16;
            let b = if signed_tail {
                tail[2] as i8 as i32 as u32
            } else {
                u32::from(tail[2])
            };
            h ^= b << 18;
            h = h.wrapping_add(h >> 11);
        }
        2 => {
            h = h.wrapping_add(le16(tail));
            h ^= h << 11;
            h = h.wrapping_add(h >> 17);
        }
        1 => {
            h = h.wrapping_add(u32::from(tail[0]));
            h ^= h << 10;
            h = h.wrapping_add(h >> 1);
        }
        _ => {}
    }
    h ^= h << 3;
    h = h.wrapping_add(h >> 5);
    h ^= h << 4;
    h = h.wrapping_add(h >> 17);
    h ^= h << 25;
    h.wrapping_add(h >> 6)
}

#[cfg(test)]
mod tests {
    #[test]
    fn known_answers() {
        assert_eq!(super::hsieh(b"apple", true), 3_738_850_110);
        assert_eq!(super::hsieh(b"", true), 0);
    }
}
