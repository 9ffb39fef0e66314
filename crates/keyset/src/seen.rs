//! The keys a listing has seen, as 64-bit fingerprints (random keyed hashes of the keys), in
//! one open-addressing table with linear probing: a lookup usually touches one cache line,
//! which is what a listing of millions of keys spends its time on.

/// Fingerprints seen.
#[derive(Debug)]
pub struct Seen {
    /// Power-of-two table; 0 is an empty slot.
    slots: Vec<u64>,
    /// Whether fingerprint 0 (which cannot sit in a slot) was seen.
    zero: bool,
    len: usize,
}

/// Slots per entry at most: the table holds at most 3/4 of its slots.
fn slots_for(n: usize) -> usize {
    n.saturating_mul(4).div_ceil(3).max(16).next_power_of_two()
}

impl Seen {
    /// An empty set with room for `n` fingerprints before it grows.
    pub fn with_capacity(n: usize) -> Seen {
        Seen {
            slots: vec![0; slots_for(n)],
            zero: false,
            len: 0,
        }
    }

    /// How many distinct fingerprints were inserted.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Inserts `fp`; `true` when it was not there yet.
    pub fn insert(&mut self, fp: u64) -> bool {
        if fp == 0 {
            let new = !self.zero;
            self.zero = true;
            self.len += usize::from(new);
            return new;
        }
        if (self.len + 1) * 4 > self.slots.len() * 3 {
            self.grow();
        }
        if place(&mut self.slots, fp) {
            self.len += 1;
            true
        } else {
            false
        }
    }

    /// Whether `fp` was inserted.
    pub fn contains(&self, fp: u64) -> bool {
        if fp == 0 {
            return self.zero;
        }
        let mask = self.slots.len() - 1;
        let mut i = fp as usize & mask;
        loop {
            match self.slots[i] {
                0 => return false,
                s if s == fp => return true,
                _ => i = (i + 1) & mask,
            }
        }
    }

    /// Every fingerprint inserted, in no order.
    pub fn iter(&self) -> impl Iterator<Item = u64> + '_ {
        let zero = self.zero.then_some(0);
        zero.into_iter()
            .chain(self.slots.iter().copied().filter(|&f| f != 0))
    }

    fn grow(&mut self) {
        let bigger = vec![0; self.slots.len() * 2];
        let old = std::mem::replace(&mut self.slots, bigger);
        for fp in old.into_iter().filter(|&f| f != 0) {
            place(&mut self.slots, fp);
        }
    }
}

/// Puts non-zero `fp` in the first free slot from its home; `false` when it is already there.
fn place(slots: &mut [u64], fp: u64) -> bool {
    let mask = slots.len() - 1;
    // Fingerprints are uniformly random, so their low bits spread them.
    let mut i = fp as usize & mask;
    loop {
        match slots[i] {
            0 => {
                slots[i] = fp;
                return true;
            }
            s if s == fp => return false,
            _ => i = (i + 1) & mask,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_fingerprint_counts_once_across_growth() {
        let mut s = Seen::with_capacity(0);
        // Multiples of 64 share their low bits: long probe runs, and wrapping at the end.
        let fps: Vec<u64> = (0..5000u64).map(|i| i * 64).chain([u64::MAX, 1]).collect();
        for &f in &fps {
            assert!(s.insert(f), "{f}");
        }
        for &f in &fps {
            assert!(s.contains(f), "{f}");
            assert!(!s.insert(f), "{f} again");
        }
        assert!(!s.contains(5));
        assert!(!Seen::with_capacity(0).contains(0));
        assert_eq!(s.len(), fps.len());
        let mut back: Vec<u64> = s.iter().collect();
        back.sort_unstable();
        let mut want = fps.clone();
        want.sort_unstable();
        assert_eq!(back, want);
        assert!(s.slots.len() * 3 >= s.len() * 4);
    }

    #[test]
    fn sized_once_for_what_it_was_told() {
        let mut s = Seen::with_capacity(1000);
        let before = s.slots.len();
        for f in 1..=1000u64 {
            s.insert(f.wrapping_mul(0x9e37_79b9_7f4a_7c15));
        }
        assert_eq!(s.slots.len(), before);
        assert_eq!(s.len(), 1000);
    }
}
