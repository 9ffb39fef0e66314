//! dgryski/go-maglev: `maglev.New(names, maglev.SmallM).Lookup(input)` with the backends named
//! `backend-0` .. `backend-(N-1)`.
//!
//! Each name's SipHash-2-4 under the key `(0xdeadbeefcafebabe, 0)` gives its permutation of the
//! 65537 slots (offset = high 32 bits mod M, skip = low 32 bits mod (M - 1) + 1); backends claim
//! their next free slot in turn until the table is full (the Maglev paper's populate, which
//! [`crate::alt::maglev::table`] implements), and an input's bucket is `table[input % M]`.

use alloc::vec::Vec;

use super::siphash::siphash24;
use super::DecimalText;

/// go-maglev's `SmallM`, the table size this algorithm uses.
pub const TABLE_SIZE: u32 = crate::alt::maglev::SIZE;

/// The SipHash key go-maglev hashes backend names with.
const NAME_KEY: (u64, u64) = (0xdead_beef_cafe_babe, 0);

/// The filled lookup table for `buckets` backends (`1..=TABLE_SIZE`): entry = backend index.
pub fn table(buckets: u32) -> Vec<u32> {
    let node_hashes: Vec<u64> = (0..buckets)
        .map(|i| {
            let mut name = DecimalText::with_prefix(b"backend-");
            name.push_u64(u64::from(i));
            siphash24(NAME_KEY.0, NAME_KEY.1, name.as_bytes())
        })
        .collect();
    crate::alt::maglev::table(&node_hashes)
}

/// The bucket of `input` in a table from [`table`].
pub fn lookup(table: &[u32], input: u64) -> Option<u32> {
    let len = u64::try_from(table.len()).ok().filter(|&l| l > 0)?;
    // `input % len < len`, which indexes the table.
    table.get(usize::try_from(input % len).ok()?).copied()
}
