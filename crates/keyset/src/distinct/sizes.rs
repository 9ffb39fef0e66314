//! The sizes of a key set: what stays in memory, how the set splits on disk, how often its
//! work on disk looks at the stop flag.

/// What one key set may hold in memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sizes {
    /// Fingerprints kept in memory at most before the set moves to disk (8 bytes each in a
    /// table at most 3/4 full), and the most waiting records of one part compared in memory
    /// at once.
    pub memory_keys: usize,
    /// Bits of the Bloom filter of a set on disk.
    pub filter_bits: usize,
    /// The buffer of each scratch file read or written (up to 2 x [`FAN`] files are open at
    /// once during a pass).
    pub buffer: usize,
}

impl Sizes {
    /// One listing at a time (`migrate`): a 4 MB table, then a 4 MB filter and 32 KB buffers;
    /// past 3 million keys more and more new keys wait for the end of their pass.
    pub const ONE_LISTING: Sizes = Sizes {
        memory_keys: MEMORY_KEYS,
        filter_bits: FILTER_BITS,
        buffer: 32 * 1024,
    };
    /// Many listings at once (`audit` asks up to 16 servers in parallel): a 1 MB table, then
    /// a 1 MB filter (about 3% of new keys wait at a million keys) and 8 KB buffers.
    pub const MANY_LISTINGS: Sizes = Sizes {
        memory_keys: 1 << 16,
        filter_bits: 1 << 23,
        buffer: 8 * 1024,
    };
}

/// Fingerprints one listing at a time keeps in memory at most (a table of 4 MB), and the most
/// waiting records of one part compared in memory at once (two such tables).
pub const MEMORY_KEYS: usize = 1 << 18;
/// Bits of the filter of a listing on disk (4 MB): past 3 million keys, more and more new
/// keys wait for the end of their pass.
pub const FILTER_BITS: usize = 1 << 25;
/// Bits of the fingerprint one split uses.
pub const FAN_BITS: u32 = 6;
/// Parts one split makes.
pub const FAN: usize = 1 << FAN_BITS;
/// Records handled between two looks at the stop flag.
pub const STOP_EVERY: u64 = 4096;
