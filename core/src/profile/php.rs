//! The PHP clients' rows: pecl memcache, flexihash, Predis and phpredis's `RedisArray`.

use super::keys::{KeyRewrite, KeyTag, TagRule, ANY_KEY, NON_EMPTY_KEY};
use super::knobs::{
    Bound, Failover, Order, Placement, PointHash, Removal, StringForm, Ties, ZeroWeight,
};
use super::row::Profile;
use crate::hash::Hash;
use crate::options::rules::NO_OPTIONS;
use crate::server::NodeForm;
use crate::weight::{Count, Formula};

/// pecl memcache's `memcache.hash_function` values, crc32 first.
const PECL_HASHES: &[Hash] = &[Hash::Crc32a, Hash::Fnv1a32];

/// How both pecl memcache rows are checked.
const PECL_VERIFIED: &str =
    "`MemcachePool::findServer`, checked against live storage on every key \
    (settings: `hash_strategy` consistent / standard, `hash_function` crc32 / fnv)";

/// The `pecl-memcache` row (what it reproduces: its `description`).
pub static PECL_MEMCACHE: Profile = Profile {
    name: "pecl-memcache",
    aliases: &[],
    description: "pecl memcache 4.0.5.2 hash_strategy=consistent: 160w crc32 points of \
        host:port-i, 1024-bucket table",
    verified_by: PECL_VERIFIED,
    default_hash: Hash::Crc32a,
    hashes: PECL_HASHES,
    crc32: Some(Hash::Crc32a),
    node: NodeForm::Label,
    names: false,
    strings: StringForm::Dash,
    count: Count::PerWeight(160),
    points: PointHash::KeyHash,
    placement: Placement::PeclBuckets,
    ties: Ties::EarlierWins,
    zero_weight: ZeroWeight::Reject,
    key: KeyRewrite::PeclSanitize,
    key_tag: KeyTag::None,
    single_shortcut: true,
    empty_key_rejected: &[],
    key_limits: NON_EMPTY_KEY,
    order: Order::Given,
    failover: Failover::RehashKeyDash { tries: 21 },
    removal: Removal::OwnPoints,
    options: NO_OPTIONS,
};

/// The `pecl-memcache-standard` row (what it reproduces: its `description`).
pub static PECL_MEMCACHE_STANDARD: Profile = Profile {
    name: "pecl-memcache-standard",
    aliases: &[],
    description: "pecl memcache 4.0.5.2 hash_strategy=standard: weight slots, ((crc32 >> 16) & \
        0x7fff) % slots",
    verified_by: PECL_VERIFIED,
    default_hash: Hash::Crc32a,
    hashes: PECL_HASHES,
    crc32: Some(Hash::Crc32a),
    node: NodeForm::Label,
    names: false,
    strings: StringForm::Dash,
    count: Count::Fixed(0),
    points: PointHash::Md5Words { per: 4 },
    placement: Placement::Modula {
        weighted: true,
        high15: true,
    },
    ties: Ties::EarlierWins,
    zero_weight: ZeroWeight::Reject,
    key: KeyRewrite::PeclSanitize,
    key_tag: KeyTag::None,
    single_shortcut: true,
    empty_key_rejected: &[],
    key_limits: NON_EMPTY_KEY,
    order: Order::Given,
    failover: Failover::RehashKeyDash { tries: 21 },
    removal: Removal::OwnPoints,
    options: NO_OPTIONS,
};

/// The `flexihash` row (what it reproduces: its `description`).
pub static FLEXIHASH: Profile = Profile {
    name: "flexihash",
    aliases: &[],
    description: "pda/flexihash 3.0.0, Crc32Hasher, 64 replicas: crc32(label . i), first point > h",
    verified_by: "**not installable here**: the 4 concrete answers of its upstream README, \
        transcribed (not run) (settings: `Crc32Hasher`, 64 replicas)",
    default_hash: Hash::Crc32a,
    hashes: &[Hash::Crc32a],
    crc32: Some(Hash::Crc32a),
    node: NodeForm::Label,
    names: false,
    strings: StringForm::Concat,
    count: Count::PerWeight(64),
    points: PointHash::KeyHash,
    placement: Placement::Ring(Bound::UpperBound),
    ties: Ties::LaterWins,
    zero_weight: ZeroWeight::AsIs,
    key: KeyRewrite::None,
    key_tag: KeyTag::None,
    single_shortcut: true,
    empty_key_rejected: &[],
    key_limits: ANY_KEY,
    order: Order::Given,
    failover: Failover::Walk,
    removal: Removal::ClearsItsPositions,
    options: NO_OPTIONS,
};

/// The `flexihash-seed` row (what it reproduces: its `description`).
pub static FLEXIHASH_SEED: Profile = Profile {
    name: "flexihash-seed",
    aliases: &[],
    description: "the user's PHP FlexiHash class: one toHash(label) point per server, largest \
        point <= h, else null",
    verified_by: "the class itself, run with PHP 8.2 (settings: `addServer`, `lookup` (`$md5[$i]` \
        for PHP 8))",
    default_hash: Hash::PhpToHash,
    hashes: &[Hash::PhpToHash],
    crc32: None,
    node: NodeForm::Bare,
    names: false,
    strings: StringForm::Bare,
    count: Count::Fixed(1),
    points: PointHash::KeyHash,
    placement: Placement::Ring(Bound::Floor),
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

/// How both Predis rows are checked.
const PREDIS_VERIFIED: &str = "Predis 1.1.10 (Debian) on PHP 8.2, \
    `$client->getConnection()->getConnectionByKey($key)` (settings: `tcp://host:port?weight=W`, \
    cluster `predis` with `HashRing` / `KetamaRing`; key tags always on)";

/// How both phpredis rows are checked.
const PHPREDIS_VERIFIED: &str = "phpredis 5.3.7 (Debian) on PHP 8.2, `$ra->_target($key)` \
    (settings: `new RedisArray(['host:port', ...], ['lazy_connect' => true])`, with and without \
    `'consistent' => true`; key tags always on)";

/// The `predis` row (what it reproduces: its `description`).
pub static PREDIS: Profile = Profile {
    name: "predis",
    aliases: &[],
    description: "Predis 1.1 client-side sharding, default HashRing: round(w / W n 128) crc32 \
        points of host:port:i, crc32 keys, largest point <= hash (wrapping to the largest), \
        {tag}",
    verified_by: PREDIS_VERIFIED,
    default_hash: Hash::Crc32a,
    hashes: &[Hash::Crc32a],
    crc32: Some(Hash::Crc32a),
    node: NodeForm::HostPort,
    names: false,
    strings: StringForm::Colon,
    count: Count::Relative(Formula::Predis),
    points: PointHash::KeyHash,
    placement: Placement::Ring(Bound::FloorWrap),
    ties: Ties::LaterWins,
    zero_weight: ZeroWeight::AsHundred,
    key: KeyRewrite::None,
    key_tag: KeyTag::Braces(TagRule::FirstNonEmpty),
    single_shortcut: false,
    empty_key_rejected: &[],
    key_limits: ANY_KEY,
    order: Order::Given,
    failover: Failover::Stay,
    removal: Removal::OwnPoints,
    options: NO_OPTIONS,
};

/// The `predis-ketama` row (what it reproduces: its `description`).
pub static PREDIS_KETAMA: Profile = Profile {
    name: "predis-ketama",
    aliases: &[],
    description: "Predis 1.1 client-side sharding with KetamaRing: floor(w / W n 40) md5 digests \
        x 4 of host:port-i, md5 keys, first point >= hash, {tag}",
    verified_by: PREDIS_VERIFIED,
    default_hash: Hash::Md5,
    hashes: &[Hash::Md5],
    crc32: None,
    node: NodeForm::HostPort,
    names: false,
    strings: StringForm::Dash,
    count: Count::Relative(Formula::PredisKetama),
    points: PointHash::Md5Words { per: 4 },
    placement: Placement::Ring(Bound::LowerBound),
    ties: Ties::LaterWins,
    zero_weight: ZeroWeight::AsHundred,
    key: KeyRewrite::None,
    key_tag: KeyTag::Braces(TagRule::FirstNonEmpty),
    single_shortcut: false,
    empty_key_rejected: &[],
    key_limits: ANY_KEY,
    order: Order::Given,
    failover: Failover::Stay,
    removal: Removal::OwnPoints,
    options: NO_OPTIONS,
};

/// The `phpredis-array` row (what it reproduces: its `description`).
pub static PHPREDIS_ARRAY: Profile = Profile {
    name: "phpredis-array",
    aliases: &[],
    description: "phpredis 5.3 RedisArray: server (crc32 n) / (2^32 - 1) in the given order, \
        {tag} even empty; weights ignored",
    verified_by: PHPREDIS_VERIFIED,
    default_hash: Hash::Crc32a,
    hashes: &[Hash::Crc32a],
    crc32: Some(Hash::Crc32a),
    node: NodeForm::Label,
    names: false,
    strings: StringForm::Dash,
    count: Count::Fixed(0),
    points: PointHash::Md5Words { per: 4 },
    placement: Placement::Proportional,
    ties: Ties::EarlierWins,
    zero_weight: ZeroWeight::AsIs,
    key: KeyRewrite::None,
    key_tag: KeyTag::Braces(TagRule::FirstUpToNul),
    single_shortcut: false,
    empty_key_rejected: &[],
    key_limits: ANY_KEY,
    order: Order::Given,
    failover: Failover::Stay,
    removal: Removal::OwnPoints,
    options: NO_OPTIONS,
};

/// The `phpredis-array-consistent` row (what it reproduces: its `description`).
pub static PHPREDIS_ARRAY_CONSISTENT: Profile = Profile {
    name: "phpredis-array-consistent",
    aliases: &[],
    description: "phpredis 5.3 RedisArray consistent => true: 40 md5 digests x 4 of host:port-j, \
        keys ~crc32, first point >= hash, {tag} even empty; weights ignored",
    verified_by: PHPREDIS_VERIFIED,
    default_hash: Hash::Crc32Raw,
    hashes: &[Hash::Crc32Raw],
    crc32: None,
    node: NodeForm::Label,
    names: false,
    strings: StringForm::Dash,
    count: Count::Fixed(40),
    points: PointHash::Md5Words { per: 4 },
    placement: Placement::Ring(Bound::LowerBound),
    ties: Ties::EarlierWins,
    zero_weight: ZeroWeight::AsIs,
    key: KeyRewrite::None,
    key_tag: KeyTag::Braces(TagRule::FirstUpToNul),
    single_shortcut: false,
    empty_key_rejected: &[],
    key_limits: ANY_KEY,
    order: Order::Given,
    failover: Failover::Stay,
    removal: Removal::OwnPoints,
    options: NO_OPTIONS,
};
