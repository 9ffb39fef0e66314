//! Rendezvous (highest random weight) hashing with weights by the logarithmic method:
//! score = -w / ln(u), u uniform in (0, 1) from a 64-bit mix of the server's and the key's hash.

/// SplitMix64's finaliser: a good 64-bit mixer.
#[inline]
pub fn mix64(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// Natural logarithm for x in (0, 1], without std: x = m * 2^e with m in [1, 2), then
/// ln(m) = 2 atanh((m-1)/(m+1)) by its series (|t| <= 1/3, 20 terms: far below f64 rounding).
fn ln(x: f64) -> f64 {
    let bits = x.to_bits();
    let e = ((bits >> 52) & 0x7ff) as i64 - 1023;
    let m = f64::from_bits((bits & 0x000f_ffff_ffff_ffff) | 0x3ff0_0000_0000_0000);
    let t = (m - 1.0) / (m + 1.0);
    let t2 = t * t;
    let mut term = t;
    let mut sum = 0.0;
    let mut k = 1.0;
    for _ in 0..20 {
        sum += term / k;
        term *= t2;
        k += 2.0;
    }
    2.0 * sum + e as f64 * core::f64::consts::LN_2
}

/// The score of a server (its node hash and weight) for a key hash; the highest wins.
#[inline]
pub fn score(node_hash: u64, weight: u32, key_hash: u32) -> f64 {
    if weight == 0 {
        return f64::NEG_INFINITY;
    }
    let h = mix64(node_hash ^ mix64(u64::from(key_hash)));
    // u in (0, 1): 53 random bits, never 0.
    let u = ((h >> 11) as f64 + 0.5) / (1u64 << 53) as f64;
    -f64::from(weight) / ln(u)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ln_is_accurate() {
        for (x, want) in [
            (0.5, -core::f64::consts::LN_2),
            (1.0, 0.0),
            (0.1, -core::f64::consts::LN_10),
        ] {
            assert!((ln(x) - want).abs() < 1e-12, "{x}");
        }
    }
}
