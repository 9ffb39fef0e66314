//! The proxies' rows: twemproxy, nginx's upstream hash, mcrouter and memcached's own proxy.

use super::keys::{KeyRewrite, KeyTag, TagRule, ANY_KEY, MEMCACHED_KEY};
use super::knobs::{
    Bound, Failover, Order, Placement, PointHash, Removal, StringForm, Ties, ZeroWeight,
};
use super::row::Profile;
use crate::hash::Hash;
use crate::options::rules::{NO_OPTIONS, TWEMPROXY_OPTIONS};
use crate::server::NodeForm;
use crate::weight::{Count, Formula};

/// twemproxy's `hash:` values, its default fnv1a_64 first.
const TWEMPROXY_HASHES: &[Hash] = &[
    Hash::Fnv1a64,
    Hash::OneAtATime,
    Hash::Md5,
    Hash::Crc16,
    Hash::Crc,
    Hash::Crc32a,
    Hash::Fnv1_64,
    Hash::Fnv1_32,
    Hash::Fnv1a32,
    Hash::Hsieh,
    Hash::Murmur,
    Hash::Jenkins,
];

/// How both mcrouter rows are checked.
const MCROUTER_VERIFIED: &str = "mcrouter's own `furc_hash` / `WeightedCh3HashFunc` code compiled \
    by the oracle (7 + 9 files, up to 1000 servers, + spooky32 hashes) (settings: `Ch3HashFunc`, \
    `WeightedCh3HashFunc` with weights w / max(w))";

/// The `twemproxy` row (what it reproduces: its `description`).
pub static TWEMPROXY: Profile = Profile {
    name: "twemproxy",
    aliases: &["nutcracker"],
    description: "twemproxy (nutcracker) 0.5.0 distribution ketama: LM md5 ring of name-i or \
        host[:port]-i, fnv1a_64 keys",
    verified_by: "live: keys stored through nutcracker into memcached on loopback, found on the \
        daemons (settings: `distribution: ketama`, all 12 key hashes, names, weights)",
    default_hash: Hash::Fnv1a64,
    hashes: TWEMPROXY_HASHES,
    crc32: Some(Hash::Crc),
    node: NodeForm::OmitDefaultPort,
    names: true,
    strings: StringForm::Dash,
    count: Count::Relative(Formula::Libmemcached),
    points: PointHash::Md5Words { per: 4 },
    placement: Placement::Ring(Bound::LowerBound),
    ties: Ties::EarlierWins,
    zero_weight: ZeroWeight::Reject,
    key: KeyRewrite::None,
    key_tag: KeyTag::Configured(TagRule::FirstNonEmpty),
    single_shortcut: true,
    empty_key_rejected: &[],
    key_limits: MEMCACHED_KEY,
    order: Order::NodeLengthThenBytes,
    failover: Failover::Walk,
    removal: Removal::OwnPoints,
    options: TWEMPROXY_OPTIONS,
};

/// The `twemproxy-modula` row (what it reproduces: its `description`).
pub static TWEMPROXY_MODULA: Profile = Profile {
    name: "twemproxy-modula",
    aliases: &[],
    description: "twemproxy (nutcracker) 0.5.0 distribution modula: each server fills weight \
        slots, slot[h % W]",
    verified_by: "live, as above (settings: `distribution: modula`)",
    default_hash: Hash::Fnv1a64,
    hashes: TWEMPROXY_HASHES,
    crc32: Some(Hash::Crc),
    node: NodeForm::OmitDefaultPort,
    names: true,
    strings: StringForm::Dash,
    count: Count::Fixed(0),
    points: PointHash::Md5Words { per: 4 },
    placement: Placement::Modula {
        weighted: true,
        high15: false,
    },
    ties: Ties::EarlierWins,
    zero_weight: ZeroWeight::Reject,
    key: KeyRewrite::None,
    key_tag: KeyTag::Configured(TagRule::FirstNonEmpty),
    single_shortcut: true,
    empty_key_rejected: &[],
    key_limits: MEMCACHED_KEY,
    order: Order::NodeLengthThenBytes,
    failover: Failover::Walk,
    removal: Removal::OwnPoints,
    options: TWEMPROXY_OPTIONS,
};

/// The `nginx` row (what it reproduces: its `description`).
pub static NGINX: Profile = Profile {
    name: "nginx",
    aliases: &[],
    description: "nginx 1.22.1 upstream hash $key consistent: 160w crc32 chain points of host NUL \
        port, crc32 keys, >=, earlier wins",
    verified_by: "live nginx on loopback, the upstream that received each request (11 files, ties \
        both ways) (settings: `upstream { hash $key consistent; server host:port weight=w; }`)",
    default_hash: Hash::Crc32a,
    hashes: &[Hash::Crc32a],
    crc32: Some(Hash::Crc32a),
    node: NodeForm::NginxHostNulPort,
    names: false,
    strings: StringForm::Bare,
    count: Count::PerWeight(160),
    points: PointHash::Crc32Chain,
    placement: Placement::Ring(Bound::LowerBound),
    ties: Ties::EarlierWins,
    zero_weight: ZeroWeight::Reject,
    key: KeyRewrite::None,
    key_tag: KeyTag::None,
    single_shortcut: true,
    empty_key_rejected: &[],
    key_limits: ANY_KEY,
    order: Order::Given,
    failover: Failover::Walk,
    removal: Removal::OwnPoints,
    options: NO_OPTIONS,
};

/// The `mcrouter-ch3` row (what it reproduces: its `description`).
pub static MCROUTER_CH3: Profile = Profile {
    name: "mcrouter-ch3",
    aliases: &[],
    description:
        "mcrouter CH3 (Ch3HashFunc): furc_hash(routing key, n) over the servers in order; \
        weights ignored, at most 2^23 servers",
    verified_by: MCROUTER_VERIFIED,
    default_hash: Hash::Spooky32,
    hashes: &[Hash::Spooky32],
    crc32: None,
    node: NodeForm::Label,
    names: false,
    strings: StringForm::Dash,
    count: Count::Fixed(0),
    points: PointHash::Md5Words { per: 4 },
    placement: Placement::Furc { weighted: false },
    ties: Ties::EarlierWins,
    zero_weight: ZeroWeight::AsIs,
    key: KeyRewrite::None,
    key_tag: KeyTag::None,
    single_shortcut: true,
    empty_key_rejected: &[],
    key_limits: ANY_KEY,
    order: Order::Given,
    failover: Failover::Walk,
    removal: Removal::OwnPoints,
    options: NO_OPTIONS,
};

/// The `mcrouter-wch3` row (what it reproduces: its `description`).
pub static MCROUTER_WCH3: Profile = Profile {
    name: "mcrouter-wch3",
    aliases: &[],
    description: "mcrouter WeightedCh3HashFunc: furc_hash + SpookyHash32 draws against weight / \
        max weight, 32 salted tries",
    verified_by: MCROUTER_VERIFIED,
    default_hash: Hash::Spooky32,
    hashes: &[Hash::Spooky32],
    crc32: None,
    node: NodeForm::Label,
    names: false,
    strings: StringForm::Dash,
    count: Count::Fixed(0),
    points: PointHash::Md5Words { per: 4 },
    placement: Placement::Furc { weighted: true },
    ties: Ties::EarlierWins,
    zero_weight: ZeroWeight::AsIs,
    key: KeyRewrite::None,
    key_tag: KeyTag::None,
    single_shortcut: true,
    empty_key_rejected: &[],
    key_limits: ANY_KEY,
    order: Order::Given,
    failover: Failover::Walk,
    removal: Removal::OwnPoints,
    options: NO_OPTIONS,
};

/// The `memcached-proxy` row (what it reproduces: its `description`).
pub static MEMCACHED_PROXY: Profile = Profile {
    name: "memcached-proxy",
    aliases: &[],
    description: "memcached 1.6.45 proxy, default pool: jump hash over the key's 64-bit XXH3, by \
        backend position",
    verified_by: "memcached 1.6.45's own `proxy_jump_hash.c`, `proxy_xxhash.c`, `xxhash.h` \
        compiled in a harness (settings: `mcp.pool(backends)`, default `dist_jump_hash`, \
        `XXH3_64bits_withSeed` seed 0)",
    default_hash: Hash::Xxh3,
    hashes: &[Hash::Xxh3],
    crc32: None,
    node: NodeForm::Label,
    names: false,
    strings: StringForm::Dash,
    count: Count::Fixed(0),
    points: PointHash::Md5Words { per: 4 },
    placement: Placement::JumpXxh3,
    ties: Ties::EarlierWins,
    zero_weight: ZeroWeight::AsIs,
    key: KeyRewrite::None,
    key_tag: KeyTag::None,
    single_shortcut: false,
    empty_key_rejected: &[],
    key_limits: ANY_KEY,
    order: Order::Given,
    failover: Failover::Walk,
    removal: Removal::OwnPoints,
    options: NO_OPTIONS,
};

/// The `memcached-proxy-ring` row (what it reproduces: its `description`).
pub static MEMCACHED_PROXY_RING: Profile = Profile {
    name: "memcached-proxy-ring",
    aliases: &[],
    description: "memcached 1.6.45 proxy dist_ring_hash omode default: 160 XXH3 points of \
        addr:port-k, XXH3 keys (fixed in 1.6.45)",
    verified_by: "memcached 1.6.45's own `proxy_ring_hash.c`, `md5.c` compiled in a harness \
        (settings: `dist_ring_hash`, omode default)",
    default_hash: Hash::Xxh3,
    hashes: &[Hash::Xxh3, Hash::Md5],
    crc32: None,
    node: NodeForm::HostPort,
    names: false,
    strings: StringForm::Dash,
    count: Count::Fixed(160),
    points: PointHash::Xxh3Word,
    placement: Placement::Ring(Bound::LowerBound),
    ties: Ties::EarlierWins,
    zero_weight: ZeroWeight::AsIs,
    key: KeyRewrite::None,
    key_tag: KeyTag::None,
    single_shortcut: false,
    empty_key_rejected: &[],
    key_limits: ANY_KEY,
    order: Order::Given,
    failover: Failover::Walk,
    removal: Removal::OwnPoints,
    options: NO_OPTIONS,
};

/// The `memcached-proxy-ring-ketama` row (what it reproduces: its `description`).
pub static MEMCACHED_PROXY_RING_KETAMA: Profile = Profile {
    name: "memcached-proxy-ring-ketama",
    aliases: &[],
    description: "memcached 1.6.45 proxy dist_ring_hash omode ketama: 40 md5 digests x 4 of \
        addr:port-k, XXH3 keys (md5 with hash = dist_ring_hash.hash)",
    verified_by: "memcached 1.6.45's own `proxy_ring_hash.c`, `md5.c` compiled in a harness \
        (settings: `dist_ring_hash`, omode ketama; `--hash md5` = `hash = \
        mcp.dist_ring_hash.hash`)",
    default_hash: Hash::Xxh3,
    hashes: &[Hash::Xxh3, Hash::Md5],
    crc32: None,
    node: NodeForm::HostPort,
    names: false,
    strings: StringForm::Dash,
    count: Count::Fixed(40),
    points: PointHash::Md5Words { per: 4 },
    placement: Placement::Ring(Bound::LowerBound),
    ties: Ties::EarlierWins,
    zero_weight: ZeroWeight::AsIs,
    key: KeyRewrite::None,
    key_tag: KeyTag::None,
    single_shortcut: false,
    empty_key_rejected: &[],
    key_limits: ANY_KEY,
    order: Order::Given,
    failover: Failover::Walk,
    removal: Removal::OwnPoints,
    options: NO_OPTIONS,
};

/// The `memcached-proxy-ring-twemproxy` row (what it reproduces: its `description`).
pub static MEMCACHED_PROXY_RING_TWEMPROXY: Profile = Profile {
    name: "memcached-proxy-ring-twemproxy",
    aliases: &[],
    description: "memcached 1.6.45 proxy dist_ring_hash omode twemproxy: 40 md5 digests x 4 of \
        addr[:port]-k (port 11211 dropped), XXH3 keys",
    verified_by: "memcached 1.6.45's own `proxy_ring_hash.c`, `md5.c` compiled in a harness \
        (settings: `dist_ring_hash`, omode twemproxy; `--hash md5` = `hash = \
        mcp.dist_ring_hash.hash`)",
    default_hash: Hash::Xxh3,
    hashes: &[Hash::Xxh3, Hash::Md5],
    crc32: None,
    node: NodeForm::OmitDefaultPort,
    names: false,
    strings: StringForm::Dash,
    count: Count::Fixed(40),
    points: PointHash::Md5Words { per: 4 },
    placement: Placement::Ring(Bound::LowerBound),
    ties: Ties::EarlierWins,
    zero_weight: ZeroWeight::AsIs,
    key: KeyRewrite::None,
    key_tag: KeyTag::None,
    single_shortcut: false,
    empty_key_rejected: &[],
    key_limits: ANY_KEY,
    order: Order::Given,
    failover: Failover::Walk,
    removal: Removal::OwnPoints,
    options: NO_OPTIONS,
};

/// The `memcached-proxy-ring-evcache` row (what it reproduces: its `description`).
pub static MEMCACHED_PROXY_RING_EVCACHE: Profile = Profile {
    name: "memcached-proxy-ring-evcache",
    aliases: &[],
    description: "memcached 1.6.45 proxy dist_ring_hash omode evcache: 40 md5 digests x 4 of \
        addr/addr:port-k, XXH3 keys",
    verified_by: "memcached 1.6.45's own `proxy_ring_hash.c`, `md5.c` compiled in a harness \
        (settings: `dist_ring_hash`, omode evcache; `--hash md5` = `hash = \
        mcp.dist_ring_hash.hash`)",
    default_hash: Hash::Xxh3,
    hashes: &[Hash::Xxh3, Hash::Md5],
    crc32: None,
    node: NodeForm::HostSlashHostPort,
    names: false,
    strings: StringForm::Dash,
    count: Count::Fixed(40),
    points: PointHash::Md5Words { per: 4 },
    placement: Placement::Ring(Bound::LowerBound),
    ties: Ties::EarlierWins,
    zero_weight: ZeroWeight::AsIs,
    key: KeyRewrite::None,
    key_tag: KeyTag::None,
    single_shortcut: false,
    empty_key_rejected: &[],
    key_limits: ANY_KEY,
    order: Order::Given,
    failover: Failover::Walk,
    removal: Removal::OwnPoints,
    options: NO_OPTIONS,
};
