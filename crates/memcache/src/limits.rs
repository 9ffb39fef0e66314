//! The bounds every call keeps: how long one wait lasts, how long a line or a reply may be,
//! how large a value.

use std::time::Duration;

/// The longest any single wait lasts before the stop flag and the deadline are checked again.
pub const POLL: Duration = Duration::from_millis(100);
/// The default of [`Options::timeout`](crate::Options::timeout).
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(10);
/// The longest reply line accepted outside listings: status, `VALUE`, `VA` and `STAT` lines.
pub const MAX_LINE: usize = 4096;
/// The longest listing line accepted (`lru_crawler metadump` writes a key of at most 250
/// bytes, at most 750 once `%`-encoded, and a few numeric fields).
pub const MAX_LISTING_LINE: usize = 2048;
/// The most `STAT` lines one `stats` reply may have (memcached sends a few hundred, `stats
/// items` about 20 per slab class).
pub const MAX_STATS_LINES: usize = 100_000;
/// The most bytes one `stats` reply may have.
pub const MAX_STATS_BYTES: usize = 4 << 20;
/// The default of [`Options::max_value`](crate::Options::max_value): memcached's default
/// item size limit (`-I 1m`).
pub const DEFAULT_MAX_VALUE: usize = 1 << 20;
/// The largest value any connection reads back, whatever a server says its item size limit
/// is (memcached's `-I` maximum item size is 1 GB).
pub const MAX_ITEM: usize = 1 << 30;
/// memcached reads an expiry above this many seconds as an absolute Unix time.
pub const RELATIVE_TTL_MAX: i64 = 60 * 60 * 24 * 30;
