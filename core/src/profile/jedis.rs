//! The Jedis rows (Java, Redis): `ShardedJedis` with unnamed and named shards (3.x, and 2.x's
//! named point strings), and 4.x's `JedisSharding`. Every mode hashes with MurmurHash64A and
//! searches its 64-bit points in signed order; key tags only with a configured pattern.

use super::keys::{KeyRewrite, KeyTag, TagRule, ANY_KEY};
use super::knobs::{
    Bound, Failover, Order, Placement, PointHash, Removal, StringForm, Ties, ZeroWeight,
};
use super::row::Profile;
use crate::hash::Hash;
use crate::options::rules::HASH_TAG_OPTIONS;
use crate::server::NodeForm;
use crate::weight::Count;

/// How the Jedis rows are checked.
const JEDIS_VERIFIED: &str =
    "Jedis from Maven Central on JDK 17: `ShardedJedis.getShardInfo(key)` \
    (3.10.0 unnamed and named shards, 2.9.3 named), `JedisSharding`'s provider `getNode` \
    (4.4.8) (settings: `JedisShardInfo(host, port, ..., weight)` / `(host, name, port, ..., \
    weight)`, `HostAndPort` list; without and with `DEFAULT_KEY_TAG_PATTERN` (`--hash-tag \
    {}`))";

/// Jedis's only tag rule: a `Pattern` whose first group is hashed, found anywhere in the key.
const JEDIS_TAG: KeyTag = KeyTag::Configured(TagRule::LazyFind);

/// The `jedis` row (what it reproduces: its `description`).
pub static JEDIS: Profile = Profile {
    name: "jedis",
    aliases: &[],
    description: "Jedis 3.x ShardedJedis, unnamed shards: 160 w MurmurHash64A points of \
        SHARD-<place>-NODE-n (the list position, not the address), first point >= hash in \
        signed 64-bit order",
    verified_by: JEDIS_VERIFIED,
    default_hash: Hash::Murmur64A,
    hashes: &[Hash::Murmur64A],
    crc32: None,
    node: NodeForm::ShardPlace,
    names: false,
    strings: StringForm::DashNode,
    count: Count::PerWeightInt(160),
    points: PointHash::KeyHash64,
    placement: Placement::Ring(Bound::LowerBoundSigned),
    ties: Ties::LaterWins,
    zero_weight: ZeroWeight::AsIs,
    key: KeyRewrite::None,
    key_tag: JEDIS_TAG,
    single_shortcut: false,
    empty_key_rejected: &[],
    key_limits: ANY_KEY,
    order: Order::Given,
    failover: Failover::Stay,
    removal: Removal::OwnPoints,
    options: HASH_TAG_OPTIONS,
};

/// The `jedis-named` row (what it reproduces: its `description`).
pub static JEDIS_NAMED: Profile = Profile {
    name: "jedis-named",
    aliases: &[],
    description: "Jedis 3.x (and 2.10) ShardedJedis, named shards: 160 w MurmurHash64A points of \
        name*n, first point >= hash in signed 64-bit order",
    verified_by: JEDIS_VERIFIED,
    default_hash: Hash::Murmur64A,
    hashes: &[Hash::Murmur64A],
    crc32: None,
    node: NodeForm::Label,
    names: true,
    strings: StringForm::Star,
    count: Count::PerWeightInt(160),
    points: PointHash::KeyHash64,
    placement: Placement::Ring(Bound::LowerBoundSigned),
    ties: Ties::LaterWins,
    zero_weight: ZeroWeight::AsIs,
    key: KeyRewrite::None,
    key_tag: JEDIS_TAG,
    single_shortcut: false,
    empty_key_rejected: &[],
    key_limits: ANY_KEY,
    order: Order::Given,
    failover: Failover::Stay,
    removal: Removal::OwnPoints,
    options: HASH_TAG_OPTIONS,
};

/// The `jedis-2-named` row (what it reproduces: its `description`).
pub static JEDIS_2_NAMED: Profile = Profile {
    name: "jedis-2-named",
    aliases: &[],
    description: "Jedis 2.9 ShardedJedis, named shards: 160 w MurmurHash64A points of \
        name*<weight>n (the weight in the string, dropped in 2.10), signed 64-bit order",
    verified_by: JEDIS_VERIFIED,
    default_hash: Hash::Murmur64A,
    hashes: &[Hash::Murmur64A],
    crc32: None,
    node: NodeForm::NameStarWeight,
    names: true,
    strings: StringForm::Concat,
    count: Count::PerWeightInt(160),
    points: PointHash::KeyHash64,
    placement: Placement::Ring(Bound::LowerBoundSigned),
    ties: Ties::LaterWins,
    zero_weight: ZeroWeight::AsIs,
    key: KeyRewrite::None,
    key_tag: JEDIS_TAG,
    single_shortcut: false,
    empty_key_rejected: &[],
    key_limits: ANY_KEY,
    order: Order::Given,
    failover: Failover::Stay,
    removal: Removal::OwnPoints,
    options: HASH_TAG_OPTIONS,
};

/// The `jedis-4` row (what it reproduces: its `description`).
pub static JEDIS_4: Profile = Profile {
    name: "jedis-4",
    aliases: &[],
    description: "Jedis 4.x JedisSharding: 160 MurmurHash64A points of SHARD-<place>-NODE-n, \
        signed 64-bit order; weights ignored (= jedis when every weight is 1)",
    verified_by: JEDIS_VERIFIED,
    default_hash: Hash::Murmur64A,
    hashes: &[Hash::Murmur64A],
    crc32: None,
    node: NodeForm::ShardPlace,
    names: false,
    strings: StringForm::DashNode,
    count: Count::Fixed(160),
    points: PointHash::KeyHash64,
    placement: Placement::Ring(Bound::LowerBoundSigned),
    ties: Ties::LaterWins,
    zero_weight: ZeroWeight::AsIs,
    key: KeyRewrite::None,
    key_tag: JEDIS_TAG,
    single_shortcut: false,
    empty_key_rejected: &[],
    key_limits: ANY_KEY,
    order: Order::Given,
    failover: Failover::Stay,
    removal: Removal::OwnPoints,
    options: HASH_TAG_OPTIONS,
};
