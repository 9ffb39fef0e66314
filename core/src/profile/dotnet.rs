//! The .NET clients' rows: EnyimMemcached's two node locators.

use super::keys::{KeyRewrite, KeyTag, ENYIM_KEY};
use super::knobs::{
    Bound, Failover, Order, Placement, PointHash, Removal, StringForm, Ties, ZeroWeight,
};
use super::row::Profile;
use crate::hash::Hash;
use crate::options::rules::NO_OPTIONS;
use crate::server::NodeForm;
use crate::weight::Count;

/// How both Enyim rows are checked.
const ENYIM_VERIFIED: &str = "EnyimMemcached's locator, key-transformer and endpoint sources \
    (github enyim/EnyimMemcached 485b5fe6) compiled unchanged with Debian mono-mcs 6.8, after \
    Enyim's own `KetamaTest` vectors (settings: `ConfigurationHelper.ResolveToEndPoint`, \
    `locator.Initialize(nodes)`, `DefaultKeyTransformer`, `Locate(key)`)";

/// The `enyim` row (what it reproduces: its `description`).
pub static ENYIM: Profile = Profile {
    name: "enyim",
    aliases: &[],
    description: "EnyimMemcached DefaultNodeLocator: 100 FNV-1a points of ip:port-i (the first \
        from state 0), FNV-1a keys from state 0, first point >= hash, below the first point \
        the last; weights ignored",
    verified_by: ENYIM_VERIFIED,
    default_hash: Hash::Fnv1a32Zero,
    hashes: &[Hash::Fnv1a32Zero],
    crc32: None,
    node: NodeForm::IpEndPoint,
    names: true,
    strings: StringForm::Dash,
    count: Count::Fixed(100),
    points: PointHash::Fnv1aFirstZero,
    placement: Placement::Ring(Bound::LowerBoundBelowLast),
    ties: Ties::LaterWins,
    zero_weight: ZeroWeight::AsIs,
    key: KeyRewrite::None,
    key_tag: KeyTag::None,
    single_shortcut: false,
    empty_key_rejected: &[],
    key_limits: ENYIM_KEY,
    order: Order::Given,
    failover: Failover::Walk,
    removal: Removal::OwnPoints,
    options: NO_OPTIONS,
};

/// The `enyim-ketama` row (what it reproduces: its `description`).
pub static ENYIM_KETAMA: Profile = Profile {
    name: "enyim-ketama",
    aliases: &[],
    description: "EnyimMemcached KetamaNodeLocator (MD5): 40 md5 digests x 4 of ip:port-i, md5 \
        keys, first point >= hash, below the first point the last; weights ignored",
    verified_by: ENYIM_VERIFIED,
    default_hash: Hash::Md5,
    hashes: &[Hash::Md5],
    crc32: None,
    node: NodeForm::IpEndPoint,
    names: true,
    strings: StringForm::Dash,
    count: Count::Fixed(40),
    points: PointHash::Md5Words { per: 4 },
    placement: Placement::Ring(Bound::LowerBoundBelowLast),
    ties: Ties::LaterWins,
    zero_weight: ZeroWeight::AsIs,
    key: KeyRewrite::None,
    key_tag: KeyTag::None,
    single_shortcut: true,
    empty_key_rejected: &[],
    key_limits: ENYIM_KEY,
    order: Order::Given,
    failover: Failover::RehashDoubled,
    removal: Removal::OwnPoints,
    options: NO_OPTIONS,
};
