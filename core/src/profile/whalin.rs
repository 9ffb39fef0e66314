//! The whalin Memcached-Java-Client rows: its consistent ring and its three bucket hashes.

use super::keys::{KeyRewrite, KeyTag, ANY_KEY};
use super::knobs::{
    Bound, Failover, Order, Placement, PointHash, Removal, StringForm, Ties, ZeroWeight,
};
use super::row::Profile;
use crate::hash::Hash;
use crate::options::rules::NO_OPTIONS;
use crate::server::NodeForm;
use crate::weight::{Count, Formula};

/// How whalin's two consistent rows are checked.
const WHALIN_CONSISTENT_VERIFIED: &str = "the jar on JDK 17 (14 files, one with int-overflowing \
    weights) (settings: `SchoonerSockIOPool` `CONSISTENT_HASH`, weights; sanitized = the default \
    `sanitizeKeys` (URL-encoded keys))";

/// How whalin's three bucket-list rows are checked.
const WHALIN_MODULO_VERIFIED: &str = "the jar on JDK 17 (6 files each) (settings: `NATIVE_HASH` \
    (the pool default), `OLD_COMPAT_HASH`, `NEW_COMPAT_HASH`, weights)";

/// The `whalin-consistent` row (what it reproduces: its `description`).
pub static WHALIN_CONSISTENT: Profile = Profile {
    name: "whalin-consistent",
    aliases: &[],
    description: "whalin Memcached-Java-Client 3.0.2 CONSISTENT_HASH, sanitizeKeys off: \
        floor((int)(40 n w) / W) md5 digests x 4 of host:port-j, md5 keys",
    verified_by: WHALIN_CONSISTENT_VERIFIED,
    default_hash: Hash::Md5,
    hashes: &[Hash::Md5],
    crc32: None,
    node: NodeForm::Label,
    names: false,
    strings: StringForm::Dash,
    count: Count::Relative(Formula::Whalin),
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
    failover: Failover::RehashKeyUntried,
    removal: Removal::OwnPoints,
    options: NO_OPTIONS,
};

/// The `whalin-consistent-sanitized` row (what it reproduces: its `description`).
pub static WHALIN_CONSISTENT_SANITIZED: Profile = Profile {
    name: "whalin-consistent-sanitized",
    aliases: &[],
    description: "whalin Memcached-Java-Client 3.0.2 CONSISTENT_HASH with the default \
        sanitizeKeys: keys URL-encoded, then as whalin-consistent",
    verified_by: WHALIN_CONSISTENT_VERIFIED,
    default_hash: Hash::Md5,
    hashes: &[Hash::Md5],
    crc32: None,
    node: NodeForm::Label,
    names: false,
    strings: StringForm::Dash,
    count: Count::Relative(Formula::Whalin),
    points: PointHash::Md5Words { per: 4 },
    placement: Placement::Ring(Bound::LowerBound),
    ties: Ties::LaterWins,
    zero_weight: ZeroWeight::AsIs,
    key: KeyRewrite::UrlEncode,
    key_tag: KeyTag::None,
    single_shortcut: false,
    empty_key_rejected: &[],
    key_limits: ANY_KEY,
    order: Order::Given,
    failover: Failover::RehashKeyUntried,
    removal: Removal::OwnPoints,
    options: NO_OPTIONS,
};

/// The `whalin-native` row (what it reproduces: its `description`).
pub static WHALIN_NATIVE: Profile = Profile {
    name: "whalin-native",
    aliases: &[],
    description: "whalin Memcached-Java-Client 3.0.2 NATIVE_HASH (the pool default): |(long) \
        key.hashCode()| % buckets, each server weight times",
    verified_by: WHALIN_MODULO_VERIFIED,
    default_hash: Hash::Native,
    hashes: &[Hash::Native],
    crc32: None,
    node: NodeForm::Label,
    names: false,
    strings: StringForm::Dash,
    count: Count::Fixed(0),
    points: PointHash::Md5Words { per: 4 },
    placement: Placement::JavaAbsModulo {
        weighted: true,
        old_compat: false,
    },
    ties: Ties::EarlierWins,
    zero_weight: ZeroWeight::AsIs,
    key: KeyRewrite::None,
    key_tag: KeyTag::None,
    single_shortcut: false,
    empty_key_rejected: &[],
    key_limits: ANY_KEY,
    order: Order::Given,
    failover: Failover::RehashKeyUntried,
    removal: Removal::OwnPoints,
    options: NO_OPTIONS,
};

/// The `whalin-old-compat` row (what it reproduces: its `description`).
pub static WHALIN_OLD_COMPAT: Profile = Profile {
    name: "whalin-old-compat",
    aliases: &[],
    description: "whalin Memcached-Java-Client 3.0.2 OLD_COMPAT_HASH: |h = 33 h + u (64-bit)| % \
        buckets, each server weight times",
    verified_by: WHALIN_MODULO_VERIFIED,
    default_hash: Hash::Native,
    hashes: &[Hash::Native],
    crc32: None,
    node: NodeForm::Label,
    names: false,
    strings: StringForm::Dash,
    count: Count::Fixed(0),
    points: PointHash::Md5Words { per: 4 },
    placement: Placement::JavaAbsModulo {
        weighted: true,
        old_compat: true,
    },
    ties: Ties::EarlierWins,
    zero_weight: ZeroWeight::AsIs,
    key: KeyRewrite::None,
    key_tag: KeyTag::None,
    single_shortcut: false,
    empty_key_rejected: &[],
    key_limits: ANY_KEY,
    order: Order::Given,
    failover: Failover::RehashKeyUntried,
    removal: Removal::OwnPoints,
    options: NO_OPTIONS,
};

/// The `whalin-new-compat` row (what it reproduces: its `description`).
pub static WHALIN_NEW_COMPAT: Profile = Profile {
    name: "whalin-new-compat",
    aliases: &[],
    description: "whalin Memcached-Java-Client 3.0.2 NEW_COMPAT_HASH: ((crc32 >> 16) & 0x7fff) % \
        buckets, each server weight times",
    verified_by: WHALIN_MODULO_VERIFIED,
    default_hash: Hash::Crc,
    hashes: &[Hash::Crc],
    crc32: None,
    node: NodeForm::Label,
    names: false,
    strings: StringForm::Dash,
    count: Count::Fixed(0),
    points: PointHash::Md5Words { per: 4 },
    placement: Placement::JavaAbsModulo {
        weighted: true,
        old_compat: false,
    },
    ties: Ties::EarlierWins,
    zero_weight: ZeroWeight::AsIs,
    key: KeyRewrite::None,
    key_tag: KeyTag::None,
    single_shortcut: false,
    empty_key_rejected: &[],
    key_limits: ANY_KEY,
    order: Order::Given,
    failover: Failover::RehashKeyUntried,
    removal: Removal::OwnPoints,
    options: NO_OPTIONS,
};
