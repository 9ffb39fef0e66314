//! Every supported client as one row of data: what differs between them, and nothing else.
//!
//! | profile | client | node string | points per server | key hash | search, ties |
//! |---|---|---|---|---|---|
//! | `libketama` | RJ/ketama 18cf9a7 | `host:port` | `LK` digests x 4 md5 | md5 | >=, earlier |
//! | `libmemcached` | libmemcached 1.1.4 CONSISTENT | `host[:port]` | 100 x key hash | one_at_a_time | >=, earlier |
//! | `libmemcached-weighted` (`php-memcached`) | libmemcached 1.1.4 KETAMA_WEIGHTED, php-memcached 3.2 | `host[:port]` | `LM` x 4 md5 | md5 | >=, earlier |
//! | `libmemcached-spy` | libmemcached CONSISTENT_KETAMA_SPY | `/host:port` | 100 x key hash | one_at_a_time | >=, earlier |
//! | `libmemcached-spy-weighted` | SPY + KETAMA_WEIGHTED | `/host:port` | `LM` x 4 md5 | md5 | >=, earlier |
//! | `twemproxy` | nutcracker 0.5.0 ketama | name or `host[:port]` | `LM` x 4 md5 | fnv1a_64 | >=, earlier |
//! | `pecl-memcache` | pecl memcache 4.0.5.2 consistent | `host:port` | 160w x key hash | crc32a | 1024 buckets |
//! | `pecl-memcache-standard` | pecl memcache standard | - | weight slots | crc32a >> 16 | modulo |
//! | `spymemcached` | spymemcached 2.12.3 | `ip:port` | 40 x 4 md5, else 160 x hash | KETAMA_HASH | >=, later |
//! | `xmemcached` | xmemcached 2.4.9 | `/ip:port` | 40w x 4 md5, else 160w x hash | KETAMA_HASH | >=, sorted list |
//! | `uhashring` | uhashring 2.5 | `label` | 160w x md5 (128-bit) | md5 (128-bit) | >, later |
//! | `uhashring-ketama` | uhashring 2.5 ketama | `label` | `INT` x 4 md5 | md5 | >, later |
//! | `hash_ring` | hash_ring 1.3.1 | `label` | `INT` x 3 md5 | md5 | >, later |
//! | `node-hashring` | npm hashring 3.2.0 | `label` | `ND` x 4 md5 | md5 | >=, earlier |
//! | `go-ketama` | dgryski/go-ketama | `label` | `LK` x 4 md5 | md5 | >= (0 goes last) |
//! | `groupcache` | golang/groupcache consistenthash | `i` + label | 50 x crc32a | crc32a | >=, later |
//! | `flexihash` | pda/flexihash 3.0.0 | label + `i` | 64w x crc32a | crc32a | >, later |
//! | `flexihash-seed` | the seed PHP class | label | 1 x toHash | seed_tohash | <= (floor) |
//! | `modula`, `gomemcache` | `hash % n` | - | - | one_at_a_time / crc32a | modulo |
//! | `jump`, `rendezvous`, `maglev` | beyond the ring | - | - | md5 | - |

use crate::error::Error;
use crate::hash::Hash;
use crate::server::NodeForm;
use crate::weight::{Count, Formula};

/// How the `i`-th point string of node string `S` is spelled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StringForm {
    /// `S-i` (ketama and almost everyone).
    Dash,
    /// `iS` (groupcache: `strconv.Itoa(i) + key`).
    Prefix,
    /// `Si` (flexihash: `$target . $i`, no separator).
    Concat,
    /// `S` alone (one point per server).
    Bare,
}

/// How point strings become ring positions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PointHash {
    /// MD5 of each string, `per` little-endian words of the digest (4 ketama, 3 hash_ring).
    Md5Words {
        /// Points per digest.
        per: u8,
    },
    /// One point per string, hashed with the ring's key hash (so `--hash` moves the points).
    KeyHash,
    /// The Java clients: exactly `KETAMA_HASH` gives `strings / 4` digests x 4 md5 words;
    /// any other hash (`ELECTION_HASH` included) one point per string with that hash.
    JavaKetama,
    /// The whole MD5 digest as a 128-bit integer (uhashring's default ring).
    Md5Wide,
}

/// How a key's hash picks a server.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Search {
    /// First point >= h, else the first point.
    LowerBound,
    /// First point > h, else the first point.
    UpperBound,
    /// As `LowerBound`, but a key hash of exactly 0 goes to the last point (go-ketama's
    /// unsigned underflow, kept on purpose upstream).
    LowerBoundZeroLast,
    /// The largest point <= h; below the smallest point PHP reads `list[count - 1]`, which is
    /// a server only if some point equals `count - 1`, else null (the seed class).
    Floor,
    /// pecl memcache: a 1024-entry table, `bucket[b]` = owner of lower_bound(b * 4194303);
    /// key -> `bucket[h % 1024]`.
    Buckets1024,
    /// `hash % slots` over the servers in order (each repeated `w` times when weighted).
    Modula {
        /// Each server fills `weight` consecutive slots.
        weighted: bool,
        /// pecl memcache standard: `h = (h >> 16) & 0x7fff`, 0 becomes 1.
        high15: bool,
    },
    /// Lamping & Veach jump consistent hash over the servers in order.
    Jump,
    /// Rendezvous (highest random weight); weights scale the score (logarithmic method).
    Rendezvous,
    /// Google Maglev lookup table (65,537 entries).
    Maglev,
}

/// Which server owns a position several servers' points share.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ties {
    /// The server given first (stable sort of an array; libmemcached, libketama, twemproxy).
    EarlierWins,
    /// The server given last (a sorted map filled in order: spymemcached, uhashring, Go maps).
    LaterWins,
    /// xmemcached: the colliding servers sorted by node string (UTF-16 order), owner
    /// `list[point % len]`.
    SortedList,
}

/// What a weight of 0 means.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ZeroWeight {
    /// Counted as 1 in both `w` and the total (libmemcached, go-ketama).
    AsOne,
    /// The server gets no points (but stays on the ring).
    NoPoints,
    /// Rejected with [`Error::BadWeight`] (twemproxy, libketama).
    Reject,
}

/// How the client rewrites a key before hashing it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KeyRewrite {
    /// Hash the bytes as given.
    None,
    /// pecl memcache: bytes <= 0x20 become `_`, then truncate to 250 bytes.
    PeclSanitize,
    /// Hash at most the first N bytes (gomemcache: 256).
    Truncate(usize),
}

/// The order a client keeps its servers in (it decides ties and modulo slots).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Order {
    /// The order they were given (added).
    Given,
    /// twemproxy: sorted by node string, shorter first, then bytewise.
    NodeLengthThenBytes,
}

/// What a client does when the server it picked is down.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Failover {
    /// Walk the continuum (or the server list) on to the next distinct servers.
    Walk,
    /// Rehash the key and look again: `hv = (hv + H(str(t) + key)) mod 2^32` for
    /// t = `first_tag`, `first_tag + 1`, ..., each `hv` looked up on the ring (servers may
    /// repeat). spymemcached's `KetamaIterator` starts at 0 with no bound of its own;
    /// xmemcached's `nextHash` starts at 1 and gives up after as many tries as servers.
    Rehash {
        /// The first `t`.
        first_tag: u32,
        /// At most as many rehashes as there are servers.
        bounded_by_servers: bool,
    },
}

/// What removing a server does to the points it shares with others.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Removal {
    /// Only the removed server's points go; a position it shared stays with the others
    /// (the ring equals a fresh build without the server).
    OwnPoints,
    /// flexihash `removeTarget`: every position the server had is unset, even where another
    /// server had won it, so the others lose those positions too.
    ClearsItsPositions,
}

/// Keys the client refuses before hashing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KeyLimits {
    /// The empty key is refused.
    pub empty: bool,
    /// Keys longer than this many bytes are refused.
    pub max_len: Option<usize>,
}

/// No key is refused.
pub const ANY_KEY: KeyLimits = KeyLimits {
    empty: false,
    max_len: None,
};
/// memcached's text protocol limit as libmemcached and twemproxy enforce it: 1..=250 bytes.
pub const MEMCACHED_KEY: KeyLimits = KeyLimits {
    empty: true,
    max_len: Some(250),
};

/// One client family, as data. See the module docs for the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Profile {
    /// Our name (DESIGN.md).
    pub name: &'static str,
    /// Other names that select this profile.
    pub aliases: &'static [&'static str],
    /// One line: the client, version and settings this profile reproduces.
    pub description: &'static str,
    /// The key hash when none is chosen.
    pub default_hash: Hash,
    /// What `crc32` means for this client, if it has such a name.
    pub crc32: Option<Hash>,
    /// How a server becomes its node string.
    pub node: NodeForm,
    /// Whether a server's explicit name replaces the node string.
    pub names: bool,
    /// How the `i`-th string is spelled.
    pub strings: StringForm,
    /// How many strings a server gets.
    pub count: Count,
    /// How strings become points.
    pub points: PointHash,
    /// How a key finds its server.
    pub search: Search,
    /// Who owns shared positions.
    pub ties: Ties,
    /// What weight 0 means.
    pub zero_weight: ZeroWeight,
    /// How the key is rewritten before hashing.
    pub key: KeyRewrite,
    /// One server is returned without hashing the key.
    pub single_shortcut: bool,
    /// Hashes for which the client refuses the empty key.
    pub empty_key_rejected: &'static [Hash],
    /// Keys the client refuses whatever the hash.
    pub key_limits: KeyLimits,
    /// The order the client keeps servers in.
    pub order: Order,
    /// The client's failover sequence ([`crate::Ring::failover`]).
    pub failover: Failover,
    /// What removing a server does to shared positions.
    pub removal: Removal,
}

const RING: Profile = Profile {
    name: "",
    aliases: &[],
    description: "",
    default_hash: Hash::Md5,
    crc32: None,
    node: NodeForm::Label,
    names: false,
    strings: StringForm::Dash,
    count: Count::Relative(Formula::Lk),
    points: PointHash::Md5Words { per: 4 },
    search: Search::LowerBound,
    ties: Ties::EarlierWins,
    zero_weight: ZeroWeight::NoPoints,
    key: KeyRewrite::None,
    single_shortcut: false,
    empty_key_rejected: &[],
    key_limits: ANY_KEY,
    order: Order::Given,
    failover: Failover::Walk,
    removal: Removal::OwnPoints,
};

const MODULA: Profile = Profile {
    count: Count::Fixed(0),
    search: Search::Modula {
        weighted: false,
        high15: false,
    },
    single_shortcut: true,
    ..RING
};

const LIBMEMCACHED: Profile = Profile {
    name: "libmemcached",
    description: "libmemcached 1.1.4 CONSISTENT_KETAMA, unweighted: 100 key-hash points of host[:port]-i (php-memcached default_consistent_hash, pylibmc ketama)",
    default_hash: Hash::OneAtATime,
    node: NodeForm::OmitDefaultPort,
    count: Count::Fixed(100),
    points: PointHash::KeyHash,
    zero_weight: ZeroWeight::AsOne,
    single_shortcut: true,
    key_limits: MEMCACHED_KEY,
    ..RING
};

const LIBMEMCACHED_WEIGHTED: Profile = Profile {
    name: "libmemcached-weighted",
    aliases: &["php-memcached"],
    description: "libmemcached 1.1.4 KETAMA_WEIGHTED / php-memcached 3.2 OPT_LIBKETAMA_COMPATIBLE: LM md5 ring of host[:port]-i, md5 keys",
    default_hash: Hash::Md5,
    count: Count::Relative(Formula::Lm),
    points: PointHash::Md5Words { per: 4 },
    ..LIBMEMCACHED
};

const SPYMEMCACHED: Profile = Profile {
    name: "spymemcached",
    description: "spymemcached 2.12.3 KetamaNodeLocator, SPYMEMCACHED format, unweighted: ip:port-i, KETAMA_HASH",
    default_hash: Hash::Md5,
    node: NodeForm::JavaSpy,
    names: true,
    count: Count::Fixed(160),
    points: PointHash::JavaKetama,
    ties: Ties::LaterWins,
    failover: Failover::Rehash { first_tag: 0, bounded_by_servers: false },
    ..RING
};

const SPYMEMCACHED_WEIGHTED: Profile = Profile {
    name: "spymemcached-weighted",
    description:
        "spymemcached 2.12.3 KetamaNodeLocator with a weight map: LM md5 ring whatever the key hash",
    count: Count::Relative(Formula::Lm),
    points: PointHash::Md5Words { per: 4 },
    ..SPYMEMCACHED
};

const XMEMCACHED: Profile = Profile {
    name: "xmemcached",
    description:
        "xmemcached 2.4.9 KetamaMemcachedSessionLocator: /ip:port-i, 160w points, KETAMA_HASH",
    default_hash: Hash::Md5,
    node: NodeForm::JavaXmc,
    names: true,
    count: Count::PerWeight(160),
    points: PointHash::JavaKetama,
    ties: Ties::SortedList,
    empty_key_rejected: &[Hash::Md5, Hash::Crc, Hash::Election],
    zero_weight: ZeroWeight::Reject,
    failover: Failover::Rehash {
        first_tag: 1,
        bounded_by_servers: true,
    },
    ..RING
};

const UHASHRING_KETAMA: Profile = Profile {
    name: "uhashring-ketama",
    description:
        "uhashring 2.5 HashRing(hash_fn='ketama'): INT md5 digests x 4 of label-i, first point > h",
    count: Count::Relative(Formula::Int),
    search: Search::UpperBound,
    ties: Ties::LaterWins,
    ..RING
};

/// Every profile, in documentation order.
pub static PROFILES: &[Profile] = &[
    Profile {
        name: "libketama",
        description: "libketama (RJ/ketama 18cf9a7): LK md5 digests x 4 of host:port-i, md5 keys",
        zero_weight: ZeroWeight::Reject,
        ..RING
    },
    LIBMEMCACHED,
    LIBMEMCACHED_WEIGHTED,
    Profile {
        name: "libmemcached-spy",
        description: "libmemcached 1.1.4 CONSISTENT_KETAMA_SPY: 100 key-hash points of /host:port-i",
        node: NodeForm::SlashLabel,
        ..LIBMEMCACHED
    },
    Profile {
        name: "libmemcached-spy-weighted",
        description: "libmemcached 1.1.4 CONSISTENT_KETAMA_SPY + KETAMA_WEIGHTED: LM md5 ring of /host:port-i",
        node: NodeForm::SlashLabel,
        ..LIBMEMCACHED_WEIGHTED
    },
    Profile {
        name: "twemproxy",
        aliases: &["nutcracker"],
        description: "twemproxy (nutcracker) 0.5.0 distribution ketama: LM md5 ring of name-i or host[:port]-i, fnv1a_64 keys",
        default_hash: Hash::Fnv1a64,
        crc32: Some(Hash::Crc),
        names: true,
        zero_weight: ZeroWeight::Reject,
        order: Order::NodeLengthThenBytes,
        ..LIBMEMCACHED_WEIGHTED
    },
    Profile {
        name: "twemproxy-modula",
        description: "twemproxy (nutcracker) 0.5.0 distribution modula: each server fills weight slots, slot[h % W]",
        default_hash: Hash::Fnv1a64,
        crc32: Some(Hash::Crc),
        node: NodeForm::OmitDefaultPort,
        names: true,
        search: Search::Modula { weighted: true, high15: false },
        zero_weight: ZeroWeight::Reject,
        key_limits: MEMCACHED_KEY,
        order: Order::NodeLengthThenBytes,
        ..MODULA
    },
    Profile {
        name: "pecl-memcache",
        description: "pecl memcache 4.0.5.2 hash_strategy=consistent: 160w crc32 points of host:port-i, 1024-bucket table",
        default_hash: Hash::Crc32a,
        crc32: Some(Hash::Crc32a),
        count: Count::PerWeight(160),
        points: PointHash::KeyHash,
        search: Search::Buckets1024,
        key: KeyRewrite::PeclSanitize,
        single_shortcut: true,
        zero_weight: ZeroWeight::Reject,
        key_limits: KeyLimits { empty: true, max_len: None },
        ..RING
    },
    Profile {
        name: "pecl-memcache-standard",
        description: "pecl memcache 4.0.5.2 hash_strategy=standard: weight slots, ((crc32 >> 16) & 0x7fff) % slots",
        default_hash: Hash::Crc32a,
        crc32: Some(Hash::Crc32a),
        search: Search::Modula { weighted: true, high15: true },
        key: KeyRewrite::PeclSanitize,
        zero_weight: ZeroWeight::Reject,
        key_limits: KeyLimits { empty: true, max_len: None },
        ..MODULA
    },
    SPYMEMCACHED,
    Profile {
        name: "spymemcached-libmemcached-format",
        description: "spymemcached 2.12.3 KetamaNodeLocator, LIBMEMCACHED format: host[:port]-i",
        node: NodeForm::JavaHostName,
        ..SPYMEMCACHED
    },
    SPYMEMCACHED_WEIGHTED,
    Profile {
        name: "spymemcached-weighted-libmemcached-format",
        description: "spymemcached 2.12.3 weighted, LIBMEMCACHED format (= libmemcached-weighted for the same strings)",
        node: NodeForm::JavaHostName,
        ..SPYMEMCACHED_WEIGHTED
    },
    XMEMCACHED,
    Profile {
        name: "xmemcached-nginx",
        description: "xmemcached 2.4.9 KetamaMemcachedSessionLocator(alg, true): ip[:port]-i, nginx upstream compatible",
        node: NodeForm::JavaNginx,
        ..XMEMCACHED
    },
    Profile {
        name: "uhashring",
        description: "uhashring 2.5 HashRing default: 160w points int(md5(label-i).hexdigest(), 16), 128-bit",
        count: Count::PerWeight(160),
        points: PointHash::Md5Wide,
        ..UHASHRING_KETAMA
    },
    UHASHRING_KETAMA,
    Profile {
        name: "hash_ring",
        description: "Python hash_ring 1.3.1 (and node-hashring hash_ring mode): INT md5 digests x 3 of label-i",
        points: PointHash::Md5Words { per: 3 },
        ..UHASHRING_KETAMA
    },
    Profile {
        name: "node-hashring",
        description: "npm hashring 3.2.0 md5: ND md5 digests x 4 of label-i, first point >= h",
        count: Count::Relative(Formula::Nd),
        names: true,
        zero_weight: ZeroWeight::AsOne,
        ..RING
    },
    Profile {
        name: "go-ketama",
        description: "github.com/dgryski/go-ketama: LK md5 digests x 4 of label-i; key hash 0 goes to the last point",
        search: Search::LowerBoundZeroLast,
        zero_weight: ZeroWeight::AsOne,
        ..RING
    },
    Profile {
        name: "groupcache",
        description: "github.com/golang/groupcache consistenthash, 50 replicas: crc32(i + label), later Add wins",
        default_hash: Hash::Crc32a,
        crc32: Some(Hash::Crc32a),
        names: true,
        strings: StringForm::Prefix,
        count: Count::Fixed(50),
        points: PointHash::KeyHash,
        ties: Ties::LaterWins,
        ..RING
    },
    Profile {
        name: "flexihash",
        description: "pda/flexihash 3.0.0, Crc32Hasher, 64 replicas: crc32(label . i), first point > h",
        default_hash: Hash::Crc32a,
        crc32: Some(Hash::Crc32a),
        strings: StringForm::Concat,
        count: Count::RoundPerWeight(64),
        points: PointHash::KeyHash,
        search: Search::UpperBound,
        ties: Ties::LaterWins,
        single_shortcut: true,
        removal: Removal::ClearsItsPositions,
        ..RING
    },
    Profile {
        name: "flexihash-seed",
        description: "the seed PHP FlexiHash class: one toHash(label) point per server, largest point <= h, else null",
        default_hash: Hash::SeedToHash,
        node: NodeForm::Bare,
        strings: StringForm::Bare,
        count: Count::Fixed(1),
        points: PointHash::KeyHash,
        search: Search::Floor,
        ..RING
    },
    Profile {
        name: "modula",
        description: "hash % n over the servers in order (libmemcached MODULA, php-memcached default); weights ignored",
        default_hash: Hash::OneAtATime,
        key_limits: MEMCACHED_KEY,
        ..MODULA
    },
    Profile {
        name: "gomemcache",
        description: "github.com/bradfitz/gomemcache ServerList: crc32 of the first 256 key bytes % n",
        default_hash: Hash::Crc32a,
        crc32: Some(Hash::Crc32a),
        key: KeyRewrite::Truncate(256),
        ..MODULA
    },
    Profile {
        name: "jump",
        description: "Lamping & Veach jump consistent hash over the servers in order (beyond the ring; weights ignored)",
        search: Search::Jump,
        ..MODULA
    },
    Profile {
        name: "rendezvous",
        description: "rendezvous (highest random weight) hashing, weighted by logarithmic scores (beyond the ring)",
        search: Search::Rendezvous,
        ..MODULA
    },
    Profile {
        name: "maglev",
        description: "Google Maglev consistent hashing, 65,537-entry lookup table (beyond the ring; weights ignored)",
        search: Search::Maglev,
        ..MODULA
    },
];

impl Profile {
    /// Looks a profile up by name or alias.
    ///
    /// ```
    /// use ketama_core::Profile;
    /// assert_eq!(Profile::by_name("php-memcached").unwrap().name, "libmemcached-weighted");
    /// assert!(Profile::by_name("nope").is_err());
    /// ```
    pub fn by_name(name: &str) -> Result<&'static Profile, Error> {
        PROFILES
            .iter()
            .find(|p| p.name == name || p.aliases.contains(&name))
            .ok_or(Error::UnknownProfile)
    }

    /// Every profile.
    pub fn all() -> &'static [Profile] {
        PROFILES
    }

    /// Resolves a hash name as this client means it: `crc32` becomes the client's own CRC
    /// (15-bit in twemproxy, full CRC-32 in PHP and Go), other names as [`Hash::from_name`].
    pub fn hash_from_name(&self, name: &str) -> Result<Hash, Error> {
        match (name, self.crc32) {
            ("crc32", Some(h)) => Ok(h),
            _ => Hash::from_name(name),
        }
    }

    /// Whether this profile builds a continuum of points (as opposed to modulo, jump,
    /// rendezvous or maglev).
    pub fn is_ring(&self) -> bool {
        !matches!(
            self.search,
            Search::Modula { .. } | Search::Jump | Search::Rendezvous | Search::Maglev
        )
    }

    /// Whether a server's weight changes where keys go.
    pub fn uses_weights(&self) -> bool {
        match self.search {
            Search::Modula { weighted, .. } => weighted,
            Search::Rendezvous => true,
            Search::Jump | Search::Maglev => false,
            _ => !matches!(self.count, Count::Fixed(_)),
        }
    }
}
