//! The Java clients' rows: spymemcached, xmemcached, EVCache, folsom and Finagle.

use super::keys::{KeyRewrite, KeyTag, ANY_KEY, FINAGLE_KEY, FOLSOM_KEY, NON_EMPTY_KEY};
use super::knobs::{
    Bound, Failover, Order, Placement, PointHash, Removal, StringForm, Ties, ZeroWeight,
};
use super::row::Profile;
use crate::hash::Hash;
use crate::options::rules::NO_OPTIONS;
use crate::server::NodeForm;
use crate::weight::{Count, Formula};

/// spymemcached's `DefaultHashAlgorithm` values, KETAMA_HASH first.
const SPYMEMCACHED_HASHES: &[Hash] = &[
    Hash::Md5,
    Hash::Native,
    Hash::Crc,
    Hash::JavaFnv1_64,
    Hash::JavaFnv1a64,
    Hash::JavaFnv1_32,
    Hash::JavaFnv1a32,
];

/// xmemcached's `HashAlgorithm` values, KETAMA_HASH first.
const XMEMCACHED_HASHES: &[Hash] = &[
    Hash::Md5,
    Hash::Native,
    Hash::Crc,
    Hash::JavaFnv1_64,
    Hash::JavaFnv1a64,
    Hash::JavaFnv1_32,
    Hash::JavaFnv1a32,
    Hash::Mysql,
    Hash::Elf,
    Hash::Rs,
    Hash::Lua,
    Hash::Election,
    Hash::OneAtATimeUnsigned,
];

/// How the four spymemcached rows are checked.
const SPYMEMCACHED_VERIFIED: &str = "the jar's own locator on JDK 17, 1..1000 servers (settings: \
    `KetamaNodeLocator`, all 7 hashes, weights, both key formats; `getSequence`)";

/// How the xmemcached and xmemcached-nginx rows are checked.
const XMEMCACHED_VERIFIED: &str = "the jar's own locator on JDK 17, 1..250 servers (settings: \
    `KetamaMemcachedSessionLocator(alg[, true])`, all 13 hashes, weights; `nextHash` failover)";

/// The `spymemcached` row (what it reproduces: its `description`).
pub static SPYMEMCACHED: Profile = Profile {
    name: "spymemcached",
    aliases: &[],
    description: "spymemcached 2.12.3 KetamaNodeLocator, SPYMEMCACHED format, unweighted: \
        ip:port-i, KETAMA_HASH",
    verified_by: SPYMEMCACHED_VERIFIED,
    default_hash: Hash::Md5,
    hashes: SPYMEMCACHED_HASHES,
    crc32: None,
    node: NodeForm::JavaSpy,
    names: true,
    strings: StringForm::Dash,
    count: Count::Fixed(160),
    points: PointHash::JavaKetama,
    placement: Placement::Ring(Bound::LowerBound),
    ties: Ties::LaterWins,
    zero_weight: ZeroWeight::AsIs,
    key: KeyRewrite::None,
    key_tag: KeyTag::None,
    single_shortcut: false,
    empty_key_rejected: &[],
    key_limits: ANY_KEY,
    order: Order::Given,
    failover: Failover::Rehash {
        first_tag: 0,
        bounded_by_servers: false,
    },
    removal: Removal::OwnPoints,
    options: NO_OPTIONS,
};

/// The `spymemcached-libmemcached-format` row (what it reproduces: its `description`).
pub static SPYMEMCACHED_LIBMEMCACHED_FORMAT: Profile = Profile {
    name: "spymemcached-libmemcached-format",
    aliases: &[],
    description: "spymemcached 2.12.3 KetamaNodeLocator, LIBMEMCACHED format: host[:port]-i",
    verified_by: SPYMEMCACHED_VERIFIED,
    default_hash: Hash::Md5,
    hashes: SPYMEMCACHED_HASHES,
    crc32: None,
    node: NodeForm::JavaHostName,
    names: true,
    strings: StringForm::Dash,
    count: Count::Fixed(160),
    points: PointHash::JavaKetama,
    placement: Placement::Ring(Bound::LowerBound),
    ties: Ties::LaterWins,
    zero_weight: ZeroWeight::AsIs,
    key: KeyRewrite::None,
    key_tag: KeyTag::None,
    single_shortcut: false,
    empty_key_rejected: &[],
    key_limits: ANY_KEY,
    order: Order::Given,
    failover: Failover::Rehash {
        first_tag: 0,
        bounded_by_servers: false,
    },
    removal: Removal::OwnPoints,
    options: NO_OPTIONS,
};

/// The `spymemcached-weighted` row (what it reproduces: its `description`).
pub static SPYMEMCACHED_WEIGHTED: Profile = Profile {
    name: "spymemcached-weighted",
    aliases: &[],
    description: "spymemcached 2.12.3 KetamaNodeLocator with a weight map: LM md5 ring whatever \
        the key hash",
    verified_by: SPYMEMCACHED_VERIFIED,
    default_hash: Hash::Md5,
    hashes: SPYMEMCACHED_HASHES,
    crc32: None,
    node: NodeForm::JavaSpy,
    names: true,
    strings: StringForm::Dash,
    count: Count::Relative(Formula::Libmemcached),
    points: PointHash::Md5Words { per: 4 },
    placement: Placement::Ring(Bound::LowerBound),
    ties: Ties::LaterWins,
    zero_weight: ZeroWeight::AsIs,
    key: KeyRewrite::None,
    key_tag: KeyTag::None,
    single_shortcut: false,
    empty_key_rejected: &[],
    key_limits: ANY_KEY,
    order: Order::Given,
    failover: Failover::Rehash {
        first_tag: 0,
        bounded_by_servers: false,
    },
    removal: Removal::OwnPoints,
    options: NO_OPTIONS,
};

/// The `spymemcached-weighted-libmemcached-format` row (what it reproduces: its `description`).
pub static SPYMEMCACHED_WEIGHTED_LIBMEMCACHED_FORMAT: Profile = Profile {
    name: "spymemcached-weighted-libmemcached-format",
    aliases: &[],
    description: "spymemcached 2.12.3 weighted, LIBMEMCACHED format (= libmemcached-weighted for \
        the same strings)",
    verified_by: SPYMEMCACHED_VERIFIED,
    default_hash: Hash::Md5,
    hashes: SPYMEMCACHED_HASHES,
    crc32: None,
    node: NodeForm::JavaHostName,
    names: true,
    strings: StringForm::Dash,
    count: Count::Relative(Formula::Libmemcached),
    points: PointHash::Md5Words { per: 4 },
    placement: Placement::Ring(Bound::LowerBound),
    ties: Ties::LaterWins,
    zero_weight: ZeroWeight::AsIs,
    key: KeyRewrite::None,
    key_tag: KeyTag::None,
    single_shortcut: false,
    empty_key_rejected: &[],
    key_limits: ANY_KEY,
    order: Order::Given,
    failover: Failover::Rehash {
        first_tag: 0,
        bounded_by_servers: false,
    },
    removal: Removal::OwnPoints,
    options: NO_OPTIONS,
};

/// The `xmemcached` row (what it reproduces: its `description`).
pub static XMEMCACHED: Profile = Profile {
    name: "xmemcached",
    aliases: &[],
    description: "xmemcached 2.4.9 KetamaMemcachedSessionLocator: /ip:port-i, 160w points, \
        KETAMA_HASH",
    verified_by: XMEMCACHED_VERIFIED,
    default_hash: Hash::Md5,
    hashes: XMEMCACHED_HASHES,
    crc32: None,
    node: NodeForm::JavaXmc,
    names: true,
    strings: StringForm::Dash,
    count: Count::PerWeight(160),
    points: PointHash::JavaKetama,
    placement: Placement::Ring(Bound::LowerBound),
    ties: Ties::SortedList,
    zero_weight: ZeroWeight::Reject,
    key: KeyRewrite::None,
    key_tag: KeyTag::None,
    single_shortcut: false,
    empty_key_rejected: &[Hash::Md5, Hash::Crc, Hash::Election],
    key_limits: ANY_KEY,
    order: Order::Given,
    failover: Failover::Rehash {
        first_tag: 1,
        bounded_by_servers: true,
    },
    removal: Removal::OwnPoints,
    options: NO_OPTIONS,
};

/// The `xmemcached-nginx` row (what it reproduces: its `description`).
pub static XMEMCACHED_NGINX: Profile = Profile {
    name: "xmemcached-nginx",
    aliases: &[],
    description: "xmemcached 2.4.9 KetamaMemcachedSessionLocator(alg, true): ip[:port]-i, nginx \
        upstream compatible",
    verified_by: XMEMCACHED_VERIFIED,
    default_hash: Hash::Md5,
    hashes: XMEMCACHED_HASHES,
    crc32: None,
    node: NodeForm::JavaNginx,
    names: true,
    strings: StringForm::Dash,
    count: Count::PerWeight(160),
    points: PointHash::JavaKetama,
    placement: Placement::Ring(Bound::LowerBound),
    ties: Ties::SortedList,
    zero_weight: ZeroWeight::Reject,
    key: KeyRewrite::None,
    key_tag: KeyTag::None,
    single_shortcut: false,
    empty_key_rejected: &[Hash::Md5, Hash::Crc, Hash::Election],
    key_limits: ANY_KEY,
    order: Order::Given,
    failover: Failover::Rehash {
        first_tag: 1,
        bounded_by_servers: true,
    },
    removal: Removal::OwnPoints,
    options: NO_OPTIONS,
};

/// The `xmemcached-gwhalin` row (what it reproduces: its `description`).
pub static XMEMCACHED_GWHALIN: Profile = Profile {
    name: "xmemcached-gwhalin",
    aliases: &[],
    description: "xmemcached 2.4.9 KetamaMemcachedSessionLocator(alg, false, true) (gwhalin \
        compatible): getHostName():port-i, 160w points, KETAMA_HASH whatever alg",
    verified_by: "the jar on JDK 17 (8 files, IPv6 by `getHostName()`) (settings: \
        `KetamaMemcachedSessionLocator(alg, false, true)` (alg ignored: always KETAMA_HASH))",
    default_hash: Hash::Md5,
    hashes: XMEMCACHED_HASHES,
    crc32: None,
    node: NodeForm::JavaHostNamePort,
    names: false,
    strings: StringForm::Dash,
    count: Count::PerWeight(160),
    points: PointHash::JavaKetama,
    placement: Placement::Ring(Bound::LowerBound),
    ties: Ties::SortedList,
    zero_weight: ZeroWeight::Reject,
    key: KeyRewrite::None,
    key_tag: KeyTag::None,
    single_shortcut: false,
    empty_key_rejected: &[],
    key_limits: NON_EMPTY_KEY,
    order: Order::Given,
    failover: Failover::Rehash {
        first_tag: 1,
        bounded_by_servers: true,
    },
    removal: Removal::OwnPoints,
    options: NO_OPTIONS,
};

/// The `evcache` row (what it reproduces: its `description`).
pub static EVCACHE: Profile = Profile {
    name: "evcache",
    aliases: &[],
    description: "Netflix EVCache 5.9.0 EVCacheNodeLocator: host/ip:11211-i (the port always \
        11211), 160 KETAMA_HASH points, no weights",
    verified_by: "the jar's own `EVCacheNodeLocator` and `EVCacheKetamaNodeLocatorConfiguration` \
        (evcache-core 5.9.0, spymemcached 2.11.4) on JDK 17, 1..250 servers (settings: the default \
        bucket size 160, `hash.on.partial.key` off)",
    default_hash: Hash::Md5,
    hashes: &[Hash::Md5],
    crc32: None,
    node: NodeForm::JavaEvcache,
    names: true,
    strings: StringForm::Dash,
    count: Count::Fixed(160),
    points: PointHash::JavaKetama,
    placement: Placement::Ring(Bound::LowerBound),
    ties: Ties::LaterWins,
    zero_weight: ZeroWeight::AsIs,
    key: KeyRewrite::None,
    key_tag: KeyTag::None,
    single_shortcut: false,
    empty_key_rejected: &[],
    key_limits: ANY_KEY,
    order: Order::Given,
    failover: Failover::Stay,
    removal: Removal::OwnPoints,
    options: NO_OPTIONS,
};

/// The `folsom` row (what it reproduces: its `description`).
pub static FOLSOM: Profile = Profile {
    name: "folsom",
    aliases: &[],
    description: "Spotify folsom 1.21.0 ketama: 100 murmur3_32 chain points of host:port, signed \
        order, murmur3_32 keys of 1..=250 bytes without blanks; weights ignored",
    verified_by: "the jar's own classes on JDK 17 (6 locate files + murmur3_32 key hashes) \
        (settings: `ketama.Continuum`, `encodeKey(key, UTF_8, 250)`)",
    default_hash: Hash::Murmur3_32,
    hashes: &[Hash::Murmur3_32],
    crc32: None,
    node: NodeForm::Label,
    names: false,
    strings: StringForm::Dash,
    count: Count::Fixed(100),
    points: PointHash::Murmur3Chain,
    placement: Placement::Ring(Bound::LowerBoundSigned),
    ties: Ties::LaterWins,
    zero_weight: ZeroWeight::AsIs,
    key: KeyRewrite::None,
    key_tag: KeyTag::None,
    single_shortcut: true,
    empty_key_rejected: &[],
    key_limits: FOLSOM_KEY,
    order: Order::Given,
    failover: Failover::Walk,
    removal: Removal::OwnPoints,
    options: NO_OPTIONS,
};

/// The `finagle` row (what it reproduces: its `description`).
pub static FINAGLE: Profile = Profile {
    name: "finagle",
    aliases: &[],
    description: "Twitter Finagle memcached (util-hashing ConsistentHashingDistributor, the old \
        KetamaDistributor): (int)(w / W n 40 + 1e-10) md5 digests x 4 of host[:port]-i, md5 \
        keys, first point >= hash",
    verified_by: "util-hashing 24.2.0 (Maven Central) on JDK 17: `ConsistentHashingDistributor` \
        and `KeyHasher.KETAMA` as shipped, the node identifiers as finagle-memcached 24.2.0 \
        builds them (settings: `NumReps` 160, `HashNodeKey(host, port, weight).identifier`)",
    default_hash: Hash::Md5,
    hashes: &[Hash::Md5],
    crc32: None,
    node: NodeForm::JavaHostName,
    names: false,
    strings: StringForm::Dash,
    count: Count::Relative(Formula::Finagle),
    points: PointHash::Md5Words { per: 4 },
    placement: Placement::Ring(Bound::LowerBound),
    ties: Ties::LaterWins,
    zero_weight: ZeroWeight::AsIs,
    key: KeyRewrite::None,
    key_tag: KeyTag::None,
    single_shortcut: false,
    empty_key_rejected: &[],
    key_limits: FINAGLE_KEY,
    order: Order::Given,
    failover: Failover::Stay,
    removal: Removal::OwnPoints,
    options: NO_OPTIONS,
};
