//! The sizes of a key set: what stays in memory, how the set splits on disk, how often its
//! work on disk looks at the stop flag.

/// Fingerprints a listing keeps in memory at most (a table of 4 MB), and the most waiting
/// records of one part compared in memory at once (two such tables).
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
