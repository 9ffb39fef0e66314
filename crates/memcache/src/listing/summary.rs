//! What a listing reports besides its keys: how the keys were listed, the server's item
//! count, the lines skipped; and the choices a caller makes (the deadline, the memory of the
//! duplicate check, the bound on a pass).

use ketama_keyset::Sizes;

/// How a server's keys were listed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    /// `lru_crawler metadump all`: every key, with CAS, expiry and size.
    Metadump,
    /// `stats cachedump`: at most about 2 MB of listing per slab class (memcached's limit),
    /// and on servers with a segmented LRU (1.5+) only each class's HOT part: keys may be
    /// missing, and their CAS, expiry and size are unknown.
    Cachedump,
}

impl Method {
    /// The command, for messages.
    pub fn command(self) -> &'static str {
        match self {
            Method::Metadump => "lru_crawler metadump all",
            Method::Cachedump => "stats cachedump",
        }
    }
}

/// How to list a server's keys.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ListOptions {
    /// Which time the timeout bounds.
    pub pace: Pace,
    /// What the duplicate check of repeated passes may hold in memory.
    pub sizes: Sizes,
}

/// Which time the timeout bounds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pace {
    /// The whole listing, from the connect on (a server that trickles its listing fails).
    Whole,
    /// Each reply line (a listing of millions of keys may take minutes).
    EachLine,
}

/// A listing line that was skipped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BadLine {
    /// Its number in the reply (1 = the first line), in the pass that saw it.
    pub line: u64,
    /// Why it was skipped.
    pub reason: String,
}

/// What [`Conn::list_keys`](crate::Conn::list_keys) found besides the keys it handed on.
#[derive(Clone, Debug)]
pub struct Listing {
    /// The command used.
    pub method: Method,
    /// The distinct keys handed on.
    pub keys: u64,
    /// `curr_items` from `stats` before listing (it also counts expired items not yet
    /// reclaimed, so it may exceed the keys listed).
    pub items: u64,
    /// The first bad lines of the last pass, in order.
    pub bad: Vec<BadLine>,
    /// How many bad lines the last pass had in all.
    pub bad_count: u64,
}

impl Listing {
    /// Whether every key the server holds was listed as far as the listing can tell: by
    /// metadump, with no line skipped. What an incomplete listing lacks cannot be taken for
    /// gone.
    pub fn is_complete(&self) -> bool {
        self.method == Method::Metadump && self.bad_count == 0
    }
}

/// The most lines one pass of a listing may have on a server that counts `items` items:
/// twice as many and 100,000 more (a busy server adds keys while it is listed; an endless
/// listing is refused).
pub fn line_limit(items: u64) -> u64 {
    items.saturating_mul(2).saturating_add(100_000)
}
