//! Placements beyond any one client: jump, rendezvous and Maglev hashing over the servers in
//! order.

use super::keys::{KeyRewrite, KeyTag, ANY_KEY};
use super::knobs::{Failover, Order, Placement, PointHash, Removal, StringForm, Ties, ZeroWeight};
use super::row::Profile;
use crate::hash::Hash;
use crate::options::rules::NO_OPTIONS;
use crate::server::NodeForm;
use crate::weight::Count;

/// How the algorithms no client defines are checked.
const PROPERTY_TESTS_ONLY: &str = "| property tests only";

/// The `jump` row (what it reproduces: its `description`).
pub static JUMP: Profile = Profile {
    name: "jump",
    aliases: &[],
    description:
        "Lamping & Veach jump consistent hash over the servers in order (beyond the ring; \
        weights ignored)",
    verified_by: PROPERTY_TESTS_ONLY,
    default_hash: Hash::Md5,
    hashes: &[Hash::Md5],
    crc32: None,
    node: NodeForm::Label,
    names: false,
    strings: StringForm::Dash,
    count: Count::Fixed(0),
    points: PointHash::Md5Words { per: 4 },
    placement: Placement::Jump,
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

/// The `rendezvous` row (what it reproduces: its `description`).
pub static RENDEZVOUS: Profile = Profile {
    name: "rendezvous",
    aliases: &[],
    description: "rendezvous (highest random weight) hashing, weighted by logarithmic scores \
        (beyond the ring)",
    verified_by: PROPERTY_TESTS_ONLY,
    default_hash: Hash::Md5,
    hashes: &[Hash::Md5],
    crc32: None,
    node: NodeForm::Label,
    names: false,
    strings: StringForm::Dash,
    count: Count::Fixed(0),
    points: PointHash::Md5Words { per: 4 },
    placement: Placement::Rendezvous,
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

/// The `maglev` row (what it reproduces: its `description`).
pub static MAGLEV: Profile = Profile {
    name: "maglev",
    aliases: &[],
    description: "Google Maglev consistent hashing, 65,537-entry lookup table (beyond the ring; \
        weights ignored)",
    verified_by: PROPERTY_TESTS_ONLY,
    default_hash: Hash::Md5,
    hashes: &[Hash::Md5],
    crc32: None,
    node: NodeForm::Label,
    names: false,
    strings: StringForm::Dash,
    count: Count::Fixed(0),
    points: PointHash::Md5Words { per: 4 },
    placement: Placement::Maglev,
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
