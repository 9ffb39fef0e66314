//! The Go clients' rows: go-ketama, groupcache, gomemcache and go-redis's `Ring` (v7, v9).

use super::keys::{KeyRewrite, KeyTag, TagRule, ANY_KEY};
use super::knobs::{
    Bound, Failover, Order, Placement, PointHash, Removal, StringForm, Ties, ZeroWeight,
};
use super::row::Profile;
use crate::hash::Hash;
use crate::options::rules::NO_OPTIONS;
use crate::server::NodeForm;
use crate::weight::{Count, Formula};

/// The `go-ketama` row (what it reproduces: its `description`).
pub static GO_KETAMA: Profile = Profile {
    name: "go-ketama",
    aliases: &[],
    description: "github.com/dgryski/go-ketama: LK md5 digests x 4 of label-i; key hash 0 goes to \
        the last point",
    verified_by: "**not runnable here** (the Go module proxy refuses it); upstream `TestKetama` \
        per-server counts over 100,000 keys reproduced exactly (settings: `New(buckets)`)",
    default_hash: Hash::Md5,
    hashes: &[Hash::Md5],
    crc32: None,
    node: NodeForm::Label,
    names: false,
    strings: StringForm::Dash,
    count: Count::Relative(Formula::Libketama),
    points: PointHash::Md5Words { per: 4 },
    placement: Placement::Ring(Bound::LowerBoundZeroLast),
    ties: Ties::EarlierWins,
    zero_weight: ZeroWeight::AsOne,
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

/// The `groupcache` row (what it reproduces: its `description`).
pub static GROUPCACHE: Profile = Profile {
    name: "groupcache",
    aliases: &[],
    description: "github.com/golang/groupcache consistenthash, 50 replicas: crc32(i + label), \
        later Add wins",
    verified_by: "groupcache (Go module proxy) (settings: `New(50, nil)`, HTTPPool URLs as names)",
    default_hash: Hash::Crc32a,
    hashes: &[Hash::Crc32a],
    crc32: Some(Hash::Crc32a),
    node: NodeForm::Label,
    names: true,
    strings: StringForm::Prefix,
    count: Count::Fixed(50),
    points: PointHash::KeyHash,
    placement: Placement::Ring(Bound::LowerBound),
    ties: Ties::LaterWins,
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

/// The `gomemcache` row (what it reproduces: its `description`).
pub static GOMEMCACHE: Profile = Profile {
    name: "gomemcache",
    aliases: &[],
    description: "github.com/bradfitz/gomemcache ServerList: crc32 of the first 256 key bytes % n",
    verified_by: "gomemcache (Go module proxy; same code as Debian's) (settings: \
        `ServerList.PickServer`)",
    default_hash: Hash::Crc32a,
    hashes: &[Hash::Crc32a],
    crc32: Some(Hash::Crc32a),
    node: NodeForm::Label,
    names: false,
    strings: StringForm::Dash,
    count: Count::Fixed(0),
    points: PointHash::Md5Words { per: 4 },
    placement: Placement::Modula {
        weighted: false,
        high15: false,
    },
    ties: Ties::EarlierWins,
    zero_weight: ZeroWeight::AsIs,
    key: KeyRewrite::Truncate(256),
    key_tag: KeyTag::None,
    single_shortcut: true,
    empty_key_rejected: &[],
    key_limits: ANY_KEY,
    order: Order::Given,
    failover: Failover::Walk,
    removal: Removal::OwnPoints,
    options: NO_OPTIONS,
};

/// How both go-redis rows are checked.
const GO_REDIS_VERIFIED: &str = "go-redis v9.23.0 `Ring` (`GetShardClientForKey`) and v7.4.1 \
    `Ring` (the shard `Watch` picks) from the Go module proxy (settings: `RingOptions{Addrs: \
    {name: addr, ...}}`, names = the servers' names or labels, default hash and replicas; key \
    tags always on)";

/// The `go-redis` row (what it reproduces: its `description`).
pub static GO_REDIS: Profile = Profile {
    name: "go-redis",
    aliases: &[],
    description: "go-redis v8/v9 Ring: rendezvous of xxh64(key) with xxh64(shard name), \
        greatest xorshift-multiply score, {tag}; weights ignored",
    verified_by: GO_REDIS_VERIFIED,
    default_hash: Hash::Xxh64,
    hashes: &[Hash::Xxh64],
    crc32: None,
    node: NodeForm::Label,
    names: true,
    strings: StringForm::Dash,
    count: Count::Fixed(0),
    points: PointHash::Md5Words { per: 4 },
    placement: Placement::MixRendezvous,
    ties: Ties::EarlierWins,
    zero_weight: ZeroWeight::AsIs,
    key: KeyRewrite::None,
    key_tag: KeyTag::Braces(TagRule::FirstNonEmpty),
    single_shortcut: false,
    empty_key_rejected: &[],
    key_limits: ANY_KEY,
    order: Order::Given,
    failover: Failover::Walk,
    removal: Removal::OwnPoints,
    options: NO_OPTIONS,
};

/// The `go-redis-v7` row (what it reproduces: its `description`).
pub static GO_REDIS_V7: Profile = Profile {
    name: "go-redis-v7",
    aliases: &[],
    description: "go-redis v7 Ring: 100 crc32 points of i + shard name (consistenthash), crc32 \
        keys, first point >= hash, {tag}; weights ignored",
    verified_by: GO_REDIS_VERIFIED,
    default_hash: Hash::Crc32a,
    hashes: &[Hash::Crc32a],
    crc32: Some(Hash::Crc32a),
    node: NodeForm::Label,
    names: true,
    strings: StringForm::Prefix,
    count: Count::Fixed(100),
    points: PointHash::KeyHash,
    placement: Placement::Ring(Bound::LowerBound),
    ties: Ties::LaterWins,
    zero_weight: ZeroWeight::AsIs,
    key: KeyRewrite::None,
    key_tag: KeyTag::Braces(TagRule::FirstNonEmpty),
    single_shortcut: false,
    empty_key_rejected: &[],
    key_limits: ANY_KEY,
    order: Order::Given,
    failover: Failover::Walk,
    removal: Removal::OwnPoints,
    options: NO_OPTIONS,
};
