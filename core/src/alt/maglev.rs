//! Google's Maglev lookup table (Eisenbud et al., NSDI 2016).

use alloc::vec;
use alloc::vec::Vec;

/// Table size: a prime well above 100 x the server counts this is used with.
pub const SIZE: u32 = 65_537;

/// Fills the lookup table from each server's (offset, skip) pair; entry = server index.
/// `node_hashes[i]` is a 64-bit hash of server i's node string; an empty input gives an empty
/// table.
pub fn table(node_hashes: &[u64]) -> Vec<u32> {
    if node_hashes.is_empty() {
        return Vec::new();
    }
    let m = u64::from(SIZE);
    let perms: Vec<(u64, u64)> = node_hashes
        .iter()
        .map(|&s| ((s >> 32) % m, (s & 0xffff_ffff) % (m - 1) + 1))
        .collect();
    let mut next = vec![0u64; node_hashes.len()];
    let mut entry = vec![u32::MAX; SIZE as usize];
    let mut filled = 0u32;
    while filled < SIZE {
        for (i, &(offset, skip)) in perms.iter().enumerate() {
            let mut c = (offset + next[i] * skip) % m;
            while entry[c as usize] != u32::MAX {
                next[i] += 1;
                c = (offset + next[i] * skip) % m;
            }
            entry[c as usize] = i as u32;
            next[i] += 1;
            filled += 1;
            if filled == SIZE {
                break;
            }
        }
    }
    entry
}
