//! Benchmarks and timing examples of `ketama-core`, kept out of its dev-dependencies:
//! `cargo bench -p ketama-bench` (criterion; `--bench lookup|change|buckets|md5|layouts`) and
//! `cargo run --release -p ketama-bench --example changeloop|changetime|scale|large`.
//!
//! The library holds what they share: the rings each family is measured on, and the
//! reference search the large-ring measurements compare against.

use ketama_core::{Profile, Ring, Server};

/// One profile per shape of continuum: (tag, profile). md5 keys and points, a one-hash ring
/// (one_at_a_time), 128-bit positions, and tie runs.
pub const FAMILIES: [(&str, &str); 4] = [
    ("md5", "libketama"),
    ("oaat", "libmemcached"),
    ("wide", "uhashring"),
    ("ties", "xmemcached"),
];

/// `n` servers with distinct addresses for any `n` up to 2^24 (`10.a.b.c:11211`).
pub fn servers(n: usize) -> Vec<Server> {
    (0..n)
        .map(|i| {
            let label = format!("10.{}.{}.{}:11211", i >> 16 & 255, i >> 8 & 255, i & 255);
            Server::parse(&label, 1).expect("a valid label")
        })
        .collect()
}

/// The ring of profile `name` over [`servers`]`(n)`.
pub fn ring(name: &str, n: usize) -> Ring {
    let profile = Profile::by_name(name).expect("a known profile");
    Ring::with_servers(profile, None, servers(n)).expect("a ring")
}

/// `n` keys `user:N:profile`.
pub fn keys(n: usize) -> Vec<String> {
    (0..n).map(|i| format!("user:{i}:profile")).collect()
}

/// The reference search: a ring's points in Eytzinger order (the sorted points as a
/// breadth-first binary tree, 1-based), searched without branches, prefetching the 16
/// descendants four levels down at each step; the owner of the first point for keys past
/// the last point. The classic fast search over sorted 32-bit values; as many bytes per
/// point as our continuum without its index.
#[derive(Debug)]
pub struct Eytzinger {
    value: Vec<u32>,
    owner: Vec<u32>,
    first_owner: u32,
    /// First point `> h` (else `>= h`).
    upper: bool,
}

impl Eytzinger {
    /// The reference over `ring`'s points (`upper`: the first point `> h` is the answer).
    pub fn new(ring: &Ring, upper: bool) -> Eytzinger {
        let points: Vec<(u32, usize)> = ring.points().collect();
        let n = points.len();
        let mut e = Eytzinger {
            value: vec![0; n + 1],
            owner: vec![0; n + 1],
            first_owner: points.first().map_or(0, |p| p.1 as u32),
            upper,
        };
        let mut i = 0;
        e.fill(&points, &mut i, 1);
        e
    }

    fn fill(&mut self, sorted: &[(u32, usize)], i: &mut usize, k: usize) {
        if k < self.value.len() {
            self.fill(sorted, i, 2 * k);
            self.value[k] = sorted[*i].0;
            self.owner[k] = sorted[*i].1 as u32;
            *i += 1;
            self.fill(sorted, i, 2 * k + 1);
        }
    }

    /// The owner of the first point `>= h` (`> h` when `upper`), wrapping.
    #[inline]
    pub fn search(&self, h: u32) -> usize {
        let n = self.value.len() - 1;
        let mut k = 1usize;
        while k <= n {
            prefetch(self.value.as_ptr().wrapping_add(16 * k));
            let v = self.value[k];
            k = 2 * k + usize::from(if self.upper { v <= h } else { v < h });
        }
        k >>= (!k).trailing_zeros() + 1;
        if k == 0 {
            self.first_owner as usize
        } else {
            self.owner[k] as usize
        }
    }
}

#[inline(always)]
fn prefetch(p: *const u32) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch is a hint: it never faults, whatever the address.
    unsafe {
        core::arch::x86_64::_mm_prefetch(p.cast::<i8>(), core::arch::x86_64::_MM_HINT_T0);
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = p;
}
