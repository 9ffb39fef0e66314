//! The JavaScript clients' rows: node-hashring and memjs.

use super::keys::{KeyRewrite, KeyTag, ANY_KEY};
use super::knobs::{
    Bound, Failover, Order, Placement, PointHash, Removal, StringForm, Ties, ZeroWeight,
};
use super::row::Profile;
use crate::hash::Hash;
use crate::options::rules::NO_OPTIONS;
use crate::server::NodeForm;
use crate::weight::{Count, Formula};

/// The `node-hashring` row (what it reproduces: its `description`).
pub static NODE_HASHRING: Profile = Profile {
    name: "node-hashring",
    aliases: &[],
    description: "npm hashring 3.2.0 md5: ND md5 digests x 4 of label-i, first point >= h",
    verified_by: "hashring 3.2.0 on Node 20 (settings: `new HashRing({label: {weight}}, 'md5')`, \
        `'default port'`)",
    default_hash: Hash::Md5,
    hashes: &[Hash::Md5],
    crc32: None,
    node: NodeForm::Label,
    names: true,
    strings: StringForm::Dash,
    count: Count::Relative(Formula::NodeHashring),
    points: PointHash::Md5Words { per: 4 },
    placement: Placement::Ring(Bound::LowerBound),
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

/// The `memjs` row (what it reproduces: its `description`).
pub static MEMJS: Profile = Profile {
    name: "memjs",
    aliases: &[],
    description: "npm memjs 1.3.2: |String hashCode| % n over the servers in order; weights \
        ignored",
    verified_by: "memjs on Node 20 (6 files) (settings: `Client.create('h:p,...').server(key)`)",
    default_hash: Hash::Native,
    hashes: &[Hash::Native],
    crc32: None,
    node: NodeForm::Label,
    names: false,
    strings: StringForm::Dash,
    count: Count::Fixed(0),
    points: PointHash::Md5Words { per: 4 },
    placement: Placement::JavaAbsModulo {
        weighted: false,
        old_compat: false,
    },
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
