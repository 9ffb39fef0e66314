//! The bounds every call keeps.

/// The most bytes one reply may take, but for a `DUMP` payload: `INFO`, a `SCAN` page of
/// keys, a digest.
pub const MAX_REPLY: usize = 64 << 20;
/// The most bytes one reply carrying a `DUMP` payload may take: Redis's own limit on one
/// argument (`proto-max-bulk-len`, 512 MB by default), so a payload over it could not be
/// given back to `RESTORE` anyway, and a little for the reply around it.
pub const MAX_PAYLOAD: usize = (512 << 20) + 4096;
/// The longest key a listing hands on (what a scratch record holds); a longer one is
/// skipped and reported, and the listing is then incomplete.
pub const MAX_KEY: usize = 65_535;
/// Keys asked of `SCAN` per call (its `COUNT` hint).
pub const SCAN_COUNT: usize = 1000;
/// The oldest server accepted: `MEMORY USAGE` (4.0) and `RESTORE ... ABSTTL` (5.0).
pub const MIN_VERSION: (u32, u32) = (5, 0);
