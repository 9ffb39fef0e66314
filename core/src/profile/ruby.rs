//! The Ruby clients' rows: Dalli.

use super::keys::{KeyRewrite, NON_EMPTY_KEY};
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
    single_shortcut: true,
    empty_key_rejected: &[],
    key_limits: NON_EMPTY_KEY,
    order: Order::Given,
    failover: Failover::RehashKey { tries: 20 },
    removal: Removal::OwnPoints,
    options: NO_OPTIONS,
};
