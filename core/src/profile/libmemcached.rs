//! The C libraries' rows: libketama, libmemcached (php-memcached and pylibmc use it) with its
//! ketama modes, and libmemcached's modulo distribution.

use super::keys::{KeyRewrite, KeyTag, ANY_KEY, MEMCACHED_KEY};
use super::knobs::{
    Bound, Failover, Order, Placement, PointHash, Removal, StringForm, Ties, ZeroWeight,
};
use super::row::Profile;
use crate::hash::Hash;
use crate::options::rules::{LIBMEMCACHED_OPTIONS, NO_OPTIONS};
use crate::server::NodeForm;
use crate::weight::{Count, Formula};

/// libmemcached's key hashes (`MEMCACHED_BEHAVIOR_HASH`), its default one_at_a_time first.
const LIBMEMCACHED_HASHES: &[Hash] = &[
    Hash::OneAtATime,
    Hash::Md5,
    Hash::Crc,
    Hash::Fnv1_64,
    Hash::Fnv1a64,
    Hash::Fnv1_32,
    Hash::Fnv1a32,
    Hash::Hsieh,
    Hash::Murmur,
    Hash::Murmur3,
    Hash::Jenkins,
];

/// libmemcached's key hashes with md5 (the weighted ketama default) first.
const LIBMEMCACHED_HASHES_MD5_FIRST: &[Hash] = &[
    Hash::Md5,
    Hash::OneAtATime,
    Hash::Crc,
    Hash::Fnv1_64,
    Hash::Fnv1a64,
    Hash::Fnv1_32,
    Hash::Fnv1a32,
    Hash::Hsieh,
    Hash::Murmur,
    Hash::Murmur3,
    Hash::Jenkins,
];

/// How the two libmemcached-spy rows are checked.
const LIBMEMCACHED_SPY_VERIFIED: &str = "libmemcached 1.1.4 (settings: `CONSISTENT_KETAMA_SPY` (+ \
    `KETAMA_WEIGHTED`))";

/// The `libketama` row (what it reproduces: its `description`).
pub static LIBKETAMA: Profile = Profile {
    name: "libketama",
    aliases: &[],
    description: "libketama (RJ/ketama 18cf9a7): LK md5 digests x 4 of host:port-i, md5 keys",
    verified_by: "recorded outputs of the real library (4 sets) + upstream `ketama_test` golden \
        MD5 over 1,000,000 keys (settings: `ketama_roll` server file, `ketama_get_server`)",
    default_hash: Hash::Md5,
    hashes: &[Hash::Md5],
    crc32: None,
    node: NodeForm::Label,
    names: false,
    strings: StringForm::Dash,
    count: Count::Relative(Formula::Libketama),
    points: PointHash::Md5Words { per: 4 },
    placement: Placement::Ring(Bound::LowerBound),
    ties: Ties::EarlierWins,
    zero_weight: ZeroWeight::Reject,
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

/// The `libmemcached` row (what it reproduces: its `description`).
pub static LIBMEMCACHED: Profile = Profile {
    name: "libmemcached",
    aliases: &[],
    description: "libmemcached 1.1.4 CONSISTENT_KETAMA, unweighted: 100 key-hash points of \
        host[:port]-i (php-memcached default_consistent_hash, pylibmc ketama)",
    verified_by: "libmemcached 1.1.4 (Debian; a `-DNDEBUG` build of Debian's source for > 100 \
        servers), php-memcached 3.2.0 (settings: `DISTRIBUTION_CONSISTENT_KETAMA`, unweighted, any \
        `BEHAVIOR_HASH`)",
    default_hash: Hash::OneAtATime,
    hashes: LIBMEMCACHED_HASHES,
    crc32: None,
    node: NodeForm::OmitDefaultPort,
    names: false,
    strings: StringForm::Dash,
    count: Count::Fixed(100),
    points: PointHash::KeyHash,
    placement: Placement::Ring(Bound::LowerBound),
    ties: Ties::EarlierWins,
    zero_weight: ZeroWeight::AsOne,
    key: KeyRewrite::None,
    key_tag: KeyTag::None,
    single_shortcut: true,
    empty_key_rejected: &[],
    key_limits: MEMCACHED_KEY,
    order: Order::Given,
    failover: Failover::Walk,
    removal: Removal::OwnPoints,
    options: LIBMEMCACHED_OPTIONS,
};

/// The `libmemcached-weighted` row (what it reproduces: its `description`).
pub static LIBMEMCACHED_WEIGHTED: Profile = Profile {
    name: "libmemcached-weighted",
    aliases: &["php-memcached"],
    description:
        "libmemcached 1.1.4 KETAMA_WEIGHTED / php-memcached 3.2 OPT_LIBKETAMA_COMPATIBLE: \
        LM md5 ring of host[:port]-i, md5 keys",
    verified_by: "both, 1..1000 servers, weights 0..1000 (settings: `KETAMA_WEIGHTED=1` / \
        `OPT_LIBKETAMA_COMPATIBLE`, weights)",
    default_hash: Hash::Md5,
    hashes: LIBMEMCACHED_HASHES_MD5_FIRST,
    crc32: None,
    node: NodeForm::OmitDefaultPort,
    names: false,
    strings: StringForm::Dash,
    count: Count::Relative(Formula::Libmemcached),
    points: PointHash::Md5Words { per: 4 },
    placement: Placement::Ring(Bound::LowerBound),
    ties: Ties::EarlierWins,
    zero_weight: ZeroWeight::AsOne,
    key: KeyRewrite::None,
    key_tag: KeyTag::None,
    single_shortcut: true,
    empty_key_rejected: &[],
    key_limits: MEMCACHED_KEY,
    order: Order::Given,
    failover: Failover::Walk,
    removal: Removal::OwnPoints,
    options: LIBMEMCACHED_OPTIONS,
};

/// The `libmemcached-spy` row (what it reproduces: its `description`).
pub static LIBMEMCACHED_SPY: Profile = Profile {
    name: "libmemcached-spy",
    aliases: &[],
    description: "libmemcached 1.1.4 CONSISTENT_KETAMA_SPY: 100 key-hash points of /host:port-i",
    verified_by: LIBMEMCACHED_SPY_VERIFIED,
    default_hash: Hash::OneAtATime,
    hashes: LIBMEMCACHED_HASHES,
    crc32: None,
    node: NodeForm::SlashLabel,
    names: false,
    strings: StringForm::Dash,
    count: Count::Fixed(100),
    points: PointHash::KeyHash,
    placement: Placement::Ring(Bound::LowerBound),
    ties: Ties::EarlierWins,
    zero_weight: ZeroWeight::AsOne,
    key: KeyRewrite::None,
    key_tag: KeyTag::None,
    single_shortcut: true,
    empty_key_rejected: &[],
    key_limits: MEMCACHED_KEY,
    order: Order::Given,
    failover: Failover::Walk,
    removal: Removal::OwnPoints,
    options: LIBMEMCACHED_OPTIONS,
};

/// The `libmemcached-spy-weighted` row (what it reproduces: its `description`).
pub static LIBMEMCACHED_SPY_WEIGHTED: Profile = Profile {
    name: "libmemcached-spy-weighted",
    aliases: &[],
    description: "libmemcached 1.1.4 CONSISTENT_KETAMA_SPY + KETAMA_WEIGHTED: LM md5 ring of \
        /host:port-i",
    verified_by: LIBMEMCACHED_SPY_VERIFIED,
    default_hash: Hash::Md5,
    hashes: LIBMEMCACHED_HASHES_MD5_FIRST,
    crc32: None,
    node: NodeForm::SlashLabel,
    names: false,
    strings: StringForm::Dash,
    count: Count::Relative(Formula::Libmemcached),
    points: PointHash::Md5Words { per: 4 },
    placement: Placement::Ring(Bound::LowerBound),
    ties: Ties::EarlierWins,
    zero_weight: ZeroWeight::AsOne,
    key: KeyRewrite::None,
    key_tag: KeyTag::None,
    single_shortcut: true,
    empty_key_rejected: &[],
    key_limits: MEMCACHED_KEY,
    order: Order::Given,
    failover: Failover::Walk,
    removal: Removal::OwnPoints,
    options: LIBMEMCACHED_OPTIONS,
};

/// The `modula` row (what it reproduces: its `description`).
pub static MODULA: Profile = Profile {
    name: "modula",
    aliases: &[],
    description:
        "hash % n over the servers in order (libmemcached MODULA, php-memcached default); \
        weights ignored",
    verified_by: "libmemcached 1.1.4, php-memcached 3.2.0 (settings: `hash % n`)",
    default_hash: Hash::OneAtATime,
    hashes: LIBMEMCACHED_HASHES,
    crc32: None,
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
    key: KeyRewrite::None,
    key_tag: KeyTag::None,
    single_shortcut: true,
    empty_key_rejected: &[],
    key_limits: MEMCACHED_KEY,
    order: Order::Given,
    failover: Failover::Walk,
    removal: Removal::OwnPoints,
    options: LIBMEMCACHED_OPTIONS,
};
