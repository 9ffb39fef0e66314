//! The [`Profile`] row type: one client family as data, and what can be read off a row alone.

use crate::error::Error;
use crate::hash::Hash;
use crate::options::rules::OptionRules;
use crate::server::NodeForm;
use crate::weight::Count;

use super::keys::{KeyLimits, KeyRewrite, KeyTag};
use super::knobs::{Failover, Order, Placement, PointHash, Removal, StringForm, Ties, ZeroWeight};

/// One client family, as data. See the [`crate::profile`] docs for the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Profile {
    /// Our name (what `--profile` and `Profile::by_name` take).
    pub name: &'static str,
    /// Other names that select this profile.
    pub aliases: &'static [&'static str],
    /// One line: the client, version and settings this profile reproduces (the one place
    /// this is written: the README, the crate docs and `docs/compat.md` are generated from it).
    pub description: &'static str,
    /// How the profile is checked against the real client: what ran (or was transcribed) to
    /// record its vector files, and with which settings.
    pub verified_by: &'static str,
    /// The key hash when none is chosen.
    pub default_hash: Hash,
    /// The key hashes the client lets its users choose, the default first (what
    /// `ketama audit --detect` tries).
    pub hashes: &'static [Hash],
    /// What `crc32` means for this client, if it has such a name.
    pub crc32: Option<Hash>,
    /// How a server becomes its node string.
    pub node: NodeForm,
    /// Whether a server's explicit name replaces the node string.
    pub names: bool,
    /// How the `i`-th string is spelled.
    pub strings: StringForm,
    /// How many strings a server gets.
    pub count: Count,
    /// How strings become points.
    pub points: PointHash,
    /// How a key finds its server: the algorithm, and for rings the comparison.
    pub placement: Placement,
    /// Who owns shared positions.
    pub ties: Ties,
    /// What weight 0 means.
    pub zero_weight: ZeroWeight,
    /// How the key is rewritten before hashing.
    pub key: KeyRewrite,
    /// Where the client finds a key's hash tag (the part it hashes instead of the key).
    pub key_tag: KeyTag,
    /// One server is returned without hashing the key.
    pub single_shortcut: bool,
    /// Hashes for which the client refuses the empty key.
    pub empty_key_rejected: &'static [Hash],
    /// Keys the client refuses whatever the hash.
    pub key_limits: KeyLimits,
    /// The order the client keeps servers in.
    pub order: Order,
    /// The client's failover sequence ([`crate::Ring::failover`]).
    pub failover: Failover,
    /// What removing a server does to shared positions.
    pub removal: Removal,
    /// Which placement options the client has ([`crate::options::Options`]).
    pub options: OptionRules,
}

impl Profile {
    /// Resolves a hash name as this client means it: `crc32` becomes the client's own CRC
    /// (15-bit in twemproxy, full CRC-32 in PHP and Go), other names as [`Hash::from_name`].
    pub fn hash_from_name(&self, name: &str) -> Result<Hash, Error> {
        match (name, self.crc32) {
            ("crc32", Some(h)) => Ok(h),
            _ => Hash::from_name(name),
        }
    }

    /// Whether this profile builds a continuum of points (as opposed to modulo, jump,
    /// rendezvous or maglev).
    pub fn is_ring(&self) -> bool {
        self.placement.bound().is_some()
    }

    /// Whether a server's weight changes where keys go.
    pub fn uses_weights(&self) -> bool {
        match self.placement {
            Placement::Modula { weighted, .. } | Placement::JavaAbsModulo { weighted, .. } => {
                weighted
            }
            Placement::Rendezvous => true,
            Placement::Furc { weighted } => weighted,
            Placement::ScaledPoints => true,
            Placement::Jump
            | Placement::JumpXxh3
            | Placement::Maglev
            | Placement::Proportional
            | Placement::MixRendezvous
            | Placement::HashRendezvous { .. } => false,
            Placement::Ring(_) | Placement::PeclBuckets => !matches!(self.count, Count::Fixed(_)),
        }
    }
}
