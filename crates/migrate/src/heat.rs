//! How recently a key was read, as its server tracks it, and what "hot" means: the order of
//! `--hot-first` and the hot keys of a plan.
//!
//! - memcached: the metadump's `la` (last access, the server's clock) and `fetch` (read since
//!   stored). memcached sets `la` when an item is stored and moves it on a read of an item
//!   read before (with its segmented LRU, not on the first read, and at most once a minute),
//!   so the idle time of a key read at least once is the server's time minus `la`, within a
//!   minute; a key never read since stored is [`Heat::Unread`].
//! - Redis: `OBJECT IDLETIME` (seconds since the key was last touched) under every eviction
//!   policy but the LFU ones, where `OBJECT FREQ` gives the LFU counter instead (5 for a new
//!   key, more once read, decaying by one per `lfu-decay-time` minutes untouched).
//!
//! A key is **hot** when it was read within the window (`--hot-window`, seconds): idle at
//! most that long; under an LFU policy, when its counter is above a new key's (read since
//! written and not decayed back since, which takes a minute per step by default). Keys are
//! copied hottest first by [`RANKS`] ranks: the hot ones, then idle up to 4, 16 and 64
//! windows, then older, then never read, then unknown.

/// How recently a key was read.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Heat {
    /// Not asked for, or the server did not tell.
    #[default]
    Unknown,
    /// Seconds since it was last read (or written).
    Idle(u64),
    /// Never read since it was stored (memcached's `fetch=no`).
    Unread,
    /// The LFU access counter (Redis under an LFU eviction policy).
    Freq(u8),
}

/// The counter Redis gives a new key under an LFU policy.
const LFU_NEW: u8 = 5;

/// How many ranks [`Heat::rank`] gives (0 the hottest).
pub const RANKS: usize = 7;

/// The default hot window, seconds.
pub const DEFAULT_WINDOW: u64 = 600;

const TAG_IDLE: u64 = 1 << 62;
const TAG_UNREAD: u64 = 2 << 62;
const TAG_FREQ: u64 = 3 << 62;
const TAG_MASK: u64 = 3 << 62;

impl Heat {
    /// Whether the key was read within `window` seconds.
    pub fn is_hot(self, window: u64) -> bool {
        match self {
            Heat::Idle(s) => s <= window,
            Heat::Freq(f) => f > LFU_NEW,
            Heat::Unread | Heat::Unknown => false,
        }
    }

    /// Its rank in the copy order of `--hot-first`, 0 (hot) to `RANKS - 1` (unknown).
    pub fn rank(self, window: u64) -> usize {
        let w = window.max(1);
        match self {
            _ if self.is_hot(window) => 0,
            Heat::Idle(s) if s <= w.saturating_mul(4) => 1,
            Heat::Idle(s) if s <= w.saturating_mul(16) => 2,
            Heat::Idle(s) if s <= w.saturating_mul(64) => 3,
            Heat::Idle(_) => 4,
            Heat::Freq(f) if f == LFU_NEW => 4,
            Heat::Freq(_) | Heat::Unread => 5,
            Heat::Unknown => 6,
        }
    }

    /// As one number (for a spool record): 0 unknown, else a tag in the top 2 bits.
    pub fn pack(self) -> u64 {
        match self {
            Heat::Unknown => 0,
            Heat::Idle(s) => TAG_IDLE | s.min(!TAG_MASK),
            Heat::Unread => TAG_UNREAD,
            Heat::Freq(f) => TAG_FREQ | u64::from(f),
        }
    }

    /// What [`pack`](Self::pack) made.
    pub fn unpack(n: u64) -> Heat {
        match n & TAG_MASK {
            TAG_IDLE => Heat::Idle(n & !TAG_MASK),
            TAG_UNREAD => Heat::Unread,
            TAG_FREQ => Heat::Freq((n & 0xff) as u8),
            _ => Heat::Unknown,
        }
    }

    /// A memcached item's heat from its metadump fields, `now` the server's time.
    pub fn memcached(la: i64, fetched: Option<bool>, now: i64) -> Heat {
        match fetched {
            Some(false) => Heat::Unread,
            Some(true) if la >= 0 => Heat::Idle(now.saturating_sub(la).max(0) as u64),
            _ => Heat::Unknown,
        }
    }

    /// A Redis key's heat from what its listing said.
    pub fn redis(a: ketama_redis::Access) -> Heat {
        match a {
            ketama_redis::Access::Idle(s) => Heat::Idle(s),
            ketama_redis::Access::Freq(f) => Heat::Freq(f),
            ketama_redis::Access::Unknown => Heat::Unknown,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hot_ranks_and_records() {
        let w = 600;
        assert!(Heat::Idle(0).is_hot(w) && Heat::Idle(600).is_hot(w));
        assert!(!Heat::Idle(601).is_hot(w));
        assert!(Heat::Freq(6).is_hot(w) && !Heat::Freq(5).is_hot(w));
        assert!(!Heat::Unread.is_hot(w) && !Heat::Unknown.is_hot(w));
        let order = [
            Heat::Idle(10),
            Heat::Idle(2_000),
            Heat::Idle(9_000),
            Heat::Idle(30_000),
            Heat::Idle(100_000),
            Heat::Unread,
            Heat::Unknown,
        ];
        for (i, h) in order.iter().enumerate() {
            assert_eq!(h.rank(w), i, "{h:?}");
        }
        assert_eq!(Heat::Freq(200).rank(w), 0);
        assert_eq!(Heat::Freq(5).rank(w), 4);
        assert_eq!(Heat::Freq(0).rank(w), 5);
        for h in order.into_iter().chain([Heat::Freq(0), Heat::Freq(255)]) {
            assert_eq!(Heat::unpack(h.pack()), h);
        }
        assert_eq!(Heat::memcached(100, Some(true), 160), Heat::Idle(60));
        assert_eq!(Heat::memcached(100, Some(false), 160), Heat::Unread);
        assert_eq!(Heat::memcached(-1, None, 160), Heat::Unknown);
        assert_eq!(Heat::memcached(200, Some(true), 160), Heat::Idle(0));
    }
}
