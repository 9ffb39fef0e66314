//! How many point strings each server gets: every client's own arithmetic (docs/client-notes.md 3.1).

/// A per-server string count rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Count {
    /// The same number for every server; weights ignored.
    Fixed(u32),
    /// `k * w` (absolute weights: xmemcached, pecl memcache, uhashring; flexihash's
    /// `round(k * w)` is the same for integer weights).
    PerWeight(u32),
    /// Relative weights: digests from `w`, the total `W` and the server count `n`.
    Relative(Formula),
    /// `k * w` as a Java `int`: the product wraps at 32 bits and a negative count gives no
    /// strings (Jedis 2.x / 3.x: `for (int n = 0; n < 160 * weight; n++)`).
    PerWeightInt(u32),
}

/// The relative-weight formulas, named as in docs/client-notes.md.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Formula {
    /// libketama, go-ketama: `floorf((double)(float)(w/W) * 40.0 * (float)n)`.
    Libketama,
    /// libmemcached, twemproxy, spymemcached weighted: all in float,
    /// `floorf((float)(w/W) * 160 / 4 * (float)n)`.
    Libmemcached,
    /// node-hashring: `floor(w / W * 40 * n)` in double.
    NodeHashring,
    /// uhashring ketama mode, hash_ring: `(40 * n * w) div W` in integers.
    IntegerDiv,
    /// dalli: `floor(f64(n * 160 * w) / f64(W))` (exact integer product, double division);
    /// strings, not digests (one point each).
    Dalli,
    /// whalin Java client: `floor((double)(int)(w * 40 * n) / (double)(int)W)`, the
    /// product and the total wrapping as Java `int`s (a negative product gives 0).
    Whalin,
    /// Predis `HashRing`: `(int) round(w / W * n * 128)` in double, with PHP 8.2's `round()`
    /// (half away from zero after a pre-rounding to 15 significant digits); strings, one
    /// point each.
    Predis,
    /// Predis `KetamaRing`: `(int) floor(w / W * n * 40)` in double (`160 / 4`).
    PredisKetama,
    /// Finagle `ConsistentHashingDistributor`: `(int)((double) w / W * n * 40 + 1e-10)`, the
    /// weights and their total as Java `int`s (the total wrapping; a negative count gives 0).
    Finagle,
}

impl Formula {
    /// Digests (strings) for a server of weight `w` among `n` servers totalling `total`.
    pub fn digests(self, w: u32, total: u64, n: usize) -> u32 {
        if total == 0 {
            return 0;
        }
        let clamp = |x: f64| {
            if x.is_finite() && x > 0.0 {
                x.min(u32::MAX as f64) as u32
            } else {
                0
            }
        };
        match self {
            Formula::Libketama => {
                let p = w as f32 / total as f32;
                let x = f64::from(p) * 40.0 * f64::from(n as f32);
                clamp(f64::from(libm_floorf(x as f32)))
            }
            Formula::Libmemcached => {
                let p = w as f32 / total as f32;
                let a = p * 160.0_f32;
                let b = a / 4.0_f32;
                let c = b * n as f32;
                clamp(f64::from(libm_floorf(c + 0.000_000_000_1_f32)))
            }
            Formula::NodeHashring => {
                clamp(libm_floor(f64::from(w) / total as f64 * 40.0 * n as f64))
            }
            Formula::IntegerDiv => {
                let d = 40u128 * n as u128 * u128::from(w) / u128::from(total);
                d.min(u128::from(u32::MAX)) as u32
            }
            Formula::Whalin => {
                let p = (w as i32).wrapping_mul((40 * n as u64) as i32);
                let t = total as i32;
                if t == 0 {
                    return 0;
                }
                clamp(libm_floor(f64::from(p) / f64::from(t)))
            }
            Formula::Dalli => {
                let p = 160u128 * n as u128 * u128::from(w);
                clamp(libm_floor(p as f64 / total as f64))
            }
            Formula::Predis => clamp(php_round(f64::from(w) / total as f64 * n as f64 * 128.0)),
            Formula::PredisKetama => {
                clamp(libm_floor(f64::from(w) / total as f64 * n as f64 * 40.0))
            }
            Formula::Finagle => {
                let t = total as i32;
                if t == 0 {
                    return 0;
                }
                clamp(f64::from(w as i32) / f64::from(t) * n as f64 * 40.0 + 0.000_000_000_1)
            }
        }
    }
}

/// PHP's `round($x)` (no precision argument, `PHP_ROUND_HALF_UP`) as PHP 8.0 to 8.3 compute it
/// for a non-negative finite `x`: when `x` has a place to spare below 10^15, it is first
/// rounded to 15 significant digits (`x * 10^p`, rounded half up, divided back), then rounded
/// half up to an integer.
pub(crate) fn php_round(x: f64) -> f64 {
    if !x.is_finite() || x <= 0.0 {
        return x.max(0.0);
    }
    let places = 14 - php_intlog10(x);
    let pre = if places > 0 && places < 15 {
        let f = php_pow10(places);
        round_half_up(x * f) / f
    } else if x >= 1e15 {
        return x;
    } else {
        x
    };
    round_half_up(pre)
}

/// `floor(value + 0.5)`: PHP's `php_round_helper` for a non-negative value.
fn round_half_up(x: f64) -> f64 {
    libm_floor(x + 0.5)
}

/// `floor(log10(x))` for `1e-8 <= x <= 1e22` as PHP finds it (by comparing with exact
/// powers of ten), else through a power search that gives the same answer for the values
/// `php_round` meets.
fn php_intlog10(x: f64) -> i32 {
    let mut e = -8;
    while e < 23 && php_pow10(e + 1) <= x {
        e += 1;
    }
    e
}

/// `10^e` as the nearest double (exact for `0 <= e <= 22`).
fn php_pow10(e: i32) -> f64 {
    let mut p = 1.0f64;
    for _ in 0..e.unsigned_abs() {
        p *= 10.0;
    }
    if e < 0 {
        1.0 / p
    } else {
        p
    }
}

impl Count {
    /// Strings for a server of weight `w` (already mapped by the profile's zero-weight rule).
    pub fn strings(self, w: u32, total: u64, n: usize) -> u32 {
        match self {
            Count::Fixed(k) => k,
            Count::PerWeight(k) => k.saturating_mul(w),
            Count::Relative(f) => f.digests(w, total, n),
            Count::PerWeightInt(k) => u32::try_from((k as i32).wrapping_mul(w as i32)).unwrap_or(0),
        }
    }
}

// `f32::floor`/`f64::floor` live in std; these no_std equivalents are exact for the
// non-negative values used here.
fn libm_floorf(x: f32) -> f32 {
    if !x.is_finite() || x.abs() >= 8_388_608.0 {
        return x;
    }
    let t = x as i32 as f32;
    if t > x {
        t - 1.0
    } else {
        t
    }
}

fn libm_floor(x: f64) -> f64 {
    if !x.is_finite() || x.abs() >= 4_503_599_627_370_496.0 {
        return x;
    }
    let t = x as i64 as f64;
    if t > x {
        t - 1.0
    } else {
        t
    }
}

impl core::fmt::Display for Count {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            Count::Fixed(k) => write!(f, "{k} strings per server"),
            Count::PerWeight(k) => write!(f, "{k} x weight strings"),
            Count::Relative(x) => write!(f, "relative weight, {}", x.name()),
            Count::PerWeightInt(k) => write!(f, "{k} x weight strings (a Java int)"),
        }
    }
}

impl Formula {
    /// A short name of the formula.
    pub fn name(self) -> &'static str {
        match self {
            Formula::Libketama => "libketama float formula",
            Formula::Libmemcached => "libmemcached float formula",
            Formula::NodeHashring => "node-hashring double formula",
            Formula::IntegerDiv => "integer formula",
            Formula::Whalin => "whalin Java int formula (40 n w / W)",
            Formula::Dalli => "dalli double formula (160 n w / W)",
            Formula::Predis => "Predis PHP round formula (round(w / W n 128))",
            Formula::PredisKetama => "Predis double formula (floor(w / W n 40))",
            Formula::Finagle => "Finagle double formula ((int)(w / W n 40 + 1e-10))",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn equal_40(f: Formula, n: usize) -> u32 {
        f.digests(1, n as u64, n)
    }

    #[test]
    fn the_156_point_lists() {
        let lm: std::vec::Vec<usize> = (1..=200)
            .filter(|&n| equal_40(Formula::Libmemcached, n) != 40)
            .collect();
        assert_eq!(
            lm,
            [
                25, 47, 50, 55, 61, 71, 94, 100, 107, 109, 110, 115, 122, 142, 159, 163, 188, 193,
                200
            ]
        );
        let lk: std::vec::Vec<usize> = (1..=200)
            .filter(|&n| equal_40(Formula::Libketama, n) != 40)
            .collect();
        assert_eq!(lk, [61, 122]);
        let nd: std::vec::Vec<usize> = (1..=200)
            .filter(|&n| equal_40(Formula::NodeHashring, n) != 40)
            .collect();
        assert_eq!(nd, [7, 14, 28, 49, 56, 98, 103, 112, 141, 147, 161, 196]);
        assert!((1..=200).all(|n| equal_40(Formula::IntegerDiv, n) == 40));
    }

    /// PHP 8.2's `round()` first rounds to 15 significant digits: 61 / 1792 * 7 * 128 is
    /// 30.499999999999996 in double, which PHP rounds to 31 (checked with `php -r`; plain
    /// half-up rounding gives 30).
    #[test]
    fn predis_rounds_as_php_does() {
        assert_eq!(Formula::Predis.digests(61, 1792, 7), 31);
        assert_eq!(Formula::Predis.digests(115, 1792, 7), 58);
        assert_eq!(Formula::Predis.digests(1, 2, 2), 128);
        assert_eq!(php_round(2.5), 3.0);
        // floor(x + 0.5), as PHP: 0.49999999999999994 + 0.5 is 1.0 in double.
        assert_eq!(php_round(0.49999999999999994), 1.0);
        assert_eq!(Formula::PredisKetama.digests(1, 3, 3), 40);
        // Java ints: 160 * 13421773 overflows to a negative count, 160 * 26843546 wraps to 64.
        assert_eq!(Count::PerWeightInt(160).strings(13_421_773, 0, 1), 0);
        assert_eq!(Count::PerWeightInt(160).strings(26_843_546, 0, 1), 64);
        assert_eq!(Count::PerWeightInt(160).strings(3, 0, 1), 480);
    }

    #[test]
    fn skewed_weights() {
        let w = [1680u32, 308, 1212];
        let total: u64 = w.iter().map(|&x| u64::from(x)).sum();
        let got = |f: Formula| w.map(|x| f.digests(x, total, 3));
        assert_eq!(got(Formula::Libketama), [62, 11, 45]);
        assert_eq!(got(Formula::Libmemcached), [63, 11, 45]);
        assert_eq!(got(Formula::NodeHashring), [63, 11, 45]);
        assert_eq!(got(Formula::IntegerDiv), [63, 11, 45]);
        let lk8 = [600u32, 300, 200, 350, 1000, 800, 950, 100];
        let t8: u64 = lk8.iter().map(|&x| u64::from(x)).sum();
        assert_eq!(
            lk8.map(|x| Formula::Libketama.digests(x, t8, 8) * 4),
            [176, 88, 56, 104, 296, 236, 280, 28]
        );
        assert_eq!(
            lk8.map(|x| Formula::Libmemcached.digests(x, t8, 8) * 4),
            [176, 88, 56, 104, 296, 236, 280, 28]
        );
    }
}
