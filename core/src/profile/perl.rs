//! The Perl clients' rows: Cache::Memcached::Fast (its ketama ring and its
//! Cache::Memcached-compatible continuum) and Cache::Memcached.

use super::keys::{KeyRewrite, KeyTag, ANY_KEY};
use super::knobs::{
    Bound, Failover, Order, Placement, PointHash, Removal, StringForm, Ties, ZeroWeight,
};
use super::row::Profile;
use crate::hash::Hash;
use crate::options::rules::NO_OPTIONS;
use crate::server::NodeForm;
use crate::weight::Count;

/// How the Perl rows are checked.
const PERL_VERIFIED: &str = "live: the real clients (Debian Cache::Memcached::Fast 0.28, \
    Cache::Memcached 1.30, perl 5.36) set every key against loopback stand-ins at the servers' \
    own addresses in a private network namespace, the stand-in that received it recorded \
    (settings: `servers => [{address, weight}]` with `ketama_points => 150` / `0`, \
    `[['host:port', W], ...]`, no namespace)";

/// The `cache-memcached-fast` row (what it reproduces: its `description`).
pub static CACHE_MEMCACHED_FAST: Profile = Profile {
    name: "cache-memcached-fast",
    aliases: &[],
    description: "Perl Cache::Memcached::Fast 0.28, ketama_points => 150: 150 w crc32 chain \
        points of host NUL port, crc32 keys, first point >= hash, earlier server wins",
    verified_by: PERL_VERIFIED,
    default_hash: Hash::Crc32a,
    hashes: &[Hash::Crc32a],
    crc32: Some(Hash::Crc32a),
    node: NodeForm::HostNulPort,
    names: false,
    strings: StringForm::Bare,
    count: Count::PerWeight(150),
    points: PointHash::Crc32Chain,
    placement: Placement::Ring(Bound::LowerBound),
    ties: Ties::EarlierWins,
    zero_weight: ZeroWeight::AsIs,
    key: KeyRewrite::None,
    key_tag: KeyTag::None,
    single_shortcut: true,
    empty_key_rejected: &[],
    key_limits: ANY_KEY,
    order: Order::Given,
    failover: Failover::Stay,
    removal: Removal::OwnPoints,
    options: NO_OPTIONS,
};

/// The `cache-memcached-fast-compat` row (what it reproduces: its `description`).
pub static CACHE_MEMCACHED_FAST_COMPAT: Profile = Profile {
    name: "cache-memcached-fast-compat",
    aliases: &[],
    description: "Perl Cache::Memcached::Fast 0.28, ketama_points => 0 (Cache::Memcached \
        compatible): one point per server at its weight share, ((crc32 >> 16) & 0x7fff) % W \
        scaled onto them",
    verified_by: PERL_VERIFIED,
    default_hash: Hash::Crc,
    hashes: &[Hash::Crc],
    crc32: Some(Hash::Crc32a),
    node: NodeForm::Label,
    names: false,
    strings: StringForm::Dash,
    count: Count::Fixed(0),
    points: PointHash::Md5Words { per: 4 },
    placement: Placement::ScaledPoints,
    ties: Ties::EarlierWins,
    zero_weight: ZeroWeight::AsIs,
    key: KeyRewrite::None,
    key_tag: KeyTag::None,
    single_shortcut: true,
    empty_key_rejected: &[],
    key_limits: ANY_KEY,
    order: Order::Given,
    failover: Failover::Stay,
    removal: Removal::OwnPoints,
    options: NO_OPTIONS,
};

/// The `cache-memcached` row (what it reproduces: its `description`).
pub static CACHE_MEMCACHED: Profile = Profile {
    name: "cache-memcached",
    aliases: &[],
    description: "Perl Cache::Memcached 1.30: buckets = each server weight times, ((crc32 >> 16) \
        & 0x7fff) % buckets (a hash of 0 stays 0)",
    verified_by: PERL_VERIFIED,
    default_hash: Hash::Crc,
    hashes: &[Hash::Crc],
    crc32: Some(Hash::Crc32a),
    node: NodeForm::Label,
    names: false,
    strings: StringForm::Dash,
    count: Count::Fixed(0),
    points: PointHash::Md5Words { per: 4 },
    placement: Placement::Modula {
        weighted: true,
        high15: false,
    },
    ties: Ties::EarlierWins,
    zero_weight: ZeroWeight::AsIs,
    key: KeyRewrite::None,
    key_tag: KeyTag::None,
    single_shortcut: true,
    empty_key_rejected: &[],
    key_limits: ANY_KEY,
    order: Order::Given,
    failover: Failover::RehashSum { tries: 20 },
    removal: Removal::OwnPoints,
    options: NO_OPTIONS,
};
