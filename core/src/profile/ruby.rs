//! The Ruby clients' rows: Dalli and redis-rb's `Redis::Distributed` (4.x and 5.x).

use super::keys::{KeyRewrite, KeyTag, TagRule, ANY_KEY, NON_EMPTY_KEY};
use super::knobs::{
    Bound, Failover, Order, Placement, PointHash, Removal, StringForm, Ties, ZeroWeight,
};
use super::row::Profile;
use crate::hash::Hash;
use crate::options::rules::NO_OPTIONS;
use crate::server::NodeForm;
use crate::weight::{Count, Formula};

/// The `dalli` row (what it reproduces: its `description`).
pub static DALLI: Profile = Profile {
    name: "dalli",
    aliases: &[],
    description: "Ruby Dalli 3.0.6: floor(160 n w / W) sha1 points of host:port:i, crc32 keys, \
        largest point <= hash (wrapping to the largest)",
    verified_by: "Dalli itself on Ruby 3.1, 1..250 servers, weights (11 files) (settings: \
        `Dalli::Client.new(['host:port:weight', ...])`, `ring.server_for_key(validate_key(key))`, \
        no namespace)",
    default_hash: Hash::Crc32a,
    hashes: &[Hash::Crc32a],
    crc32: Some(Hash::Crc32a),
    node: NodeForm::HostPort,
    names: false,
    strings: StringForm::Colon,
    count: Count::Relative(Formula::Dalli),
    points: PointHash::Sha1Word,
    placement: Placement::Ring(Bound::FloorWrap),
    ties: Ties::EarlierWins,
    zero_weight: ZeroWeight::AsIs,
    key: KeyRewrite::DalliDigest,
    key_tag: KeyTag::None,
    single_shortcut: true,
    empty_key_rejected: &[],
    key_limits: NON_EMPTY_KEY,
    order: Order::Given,
    failover: Failover::RehashKey { tries: 20 },
    removal: Removal::OwnPoints,
    options: NO_OPTIONS,
};

/// How both redis-rb rows are checked.
const REDIS_RB_VERIFIED: &str = "`Redis::Distributed#node_for(key)` of redis-rb 4.8.0 (Debian) \
    and 5.4.1 with redis-client 0.30.0 (their git tags, unmodified) on Ruby 3.1 (settings: \
    `Redis::Distributed.new(['redis://host:port', ...])`, `{url:, id: name}` where a server \
    has a name; key tags always on)";

/// The `redis-rb` row (what it reproduces: its `description`).
pub static REDIS_RB: Profile = Profile {
    name: "redis-rb",
    aliases: &[],
    description: "redis-rb 4.x Redis::Distributed: 160 crc32 points of redis://host:port/0:i \
        (or id:i), crc32 keys, largest point <= hash (wrapping to the largest), ^{tag}",
    verified_by: REDIS_RB_VERIFIED,
    default_hash: Hash::Crc32a,
    hashes: &[Hash::Crc32a],
    crc32: Some(Hash::Crc32a),
    node: NodeForm::RedisUrlDb,
    names: true,
    strings: StringForm::Colon,
    count: Count::Fixed(160),
    points: PointHash::KeyHash,
    placement: Placement::Ring(Bound::FloorWrap),
    ties: Ties::LaterWins,
    zero_weight: ZeroWeight::AsIs,
    key: KeyRewrite::None,
    key_tag: KeyTag::Braces(TagRule::LineStart),
    single_shortcut: false,
    empty_key_rejected: &[],
    key_limits: ANY_KEY,
    order: Order::Given,
    failover: Failover::Stay,
    removal: Removal::OwnPoints,
    options: NO_OPTIONS,
};

/// The `redis-rb-5` row (what it reproduces: its `description`).
pub static REDIS_RB_5: Profile = Profile {
    name: "redis-rb-5",
    aliases: &[],
    description: "redis-rb 5.x Redis::Distributed: 160 points md5(redis://host:port:i) (or \
        id:i), first word big-endian, crc32 keys, largest point <= hash (wrapping to the \
        largest), ^{tag}",
    verified_by: REDIS_RB_VERIFIED,
    default_hash: Hash::Crc32a,
    hashes: &[Hash::Crc32a],
    crc32: Some(Hash::Crc32a),
    node: NodeForm::RedisUrl,
    names: true,
    strings: StringForm::Colon,
    count: Count::Fixed(160),
    points: PointHash::Md5WordBe,
    placement: Placement::Ring(Bound::FloorWrap),
    ties: Ties::LaterWins,
    zero_weight: ZeroWeight::AsIs,
    key: KeyRewrite::None,
    key_tag: KeyTag::Braces(TagRule::LineStart),
    single_shortcut: false,
    empty_key_rejected: &[],
    key_limits: ANY_KEY,
    order: Order::Given,
    failover: Failover::Stay,
    removal: Removal::OwnPoints,
    options: NO_OPTIONS,
};
