//! How slot-list clients (servers repeated by weight, `hash % slots`) read the key hash, and
//! the point rule, each in one canonical spelling, so that two profiles whose knobs differ but
//! compute the same number compare equal.

use ketama_core::profile::{Placement, PointHash};
use ketama_core::Hash;

/// The number a slot-list client reduces modulo its slot count, in one canonical spelling, so
/// that two placements that compute the same number compare equal whatever their knobs say.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct SlotInput {
    /// Servers repeated `weight` times.
    pub(crate) weighted: bool,
    /// The hash whose value is reduced.
    pub(crate) hash: Hash,
    /// How the value is read before `% slots`.
    pub(crate) read: SlotRead,
}

/// How a slot-list client reads the hash value before `% slots`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum SlotRead {
    /// As it is (unsigned).
    Plain,
    /// pecl memcache standard on a hash that is not CRC-32: `(h >> 16) & 0x7fff`, 0 -> 1.
    High15,
    /// `(crc32 >> 16) & 0x7fff` = the `crc` hash, but 0 read as 1 (pecl memcache standard).
    ZeroAsOne,
    /// Sign-extended to 64 bits and made non-negative (whalin, memjs) on a hash that can
    /// reach 2^31; below 2^31 this is [`SlotRead::Plain`].
    AbsSigned,
}

/// The point rule in one canonical spelling: the Java clients' rule is 4 md5 words per digest
/// under `KETAMA_HASH` (our md5) and one point per string with the key hash otherwise.
pub(crate) fn point_rule(p: PointHash, h: Hash) -> PointHash {
    match p {
        PointHash::JavaKetama if h == Hash::Md5 => PointHash::Md5Words { per: 4 },
        PointHash::JavaKetama => PointHash::KeyHash,
        other => other,
    }
}

/// The slot input of a modulo placement with key hash `h`, `None` for other placements.
pub(crate) fn slot_input(p: Placement, h: Hash) -> Option<SlotInput> {
    let (weighted, hash, read) = match p {
        Placement::Modula {
            weighted,
            high15: false,
        } => (weighted, h, SlotRead::Plain),
        // `Hash::Crc` is by definition `(crc32a >> 16) & 0x7fff`.
        Placement::Modula {
            weighted,
            high15: true,
        } if h == Hash::Crc32a => (weighted, Hash::Crc, SlotRead::ZeroAsOne),
        Placement::Modula {
            weighted,
            high15: true,
        } => (weighted, h, SlotRead::High15),
        Placement::JavaAbsModulo {
            weighted,
            old_compat: false,
        } if h.bits() < 32 => (weighted, h, SlotRead::Plain),
        Placement::JavaAbsModulo {
            weighted,
            old_compat: false,
        } => (weighted, h, SlotRead::AbsSigned),
        _ => return None,
    };
    Some(SlotInput {
        weighted,
        hash,
        read,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::commands::compare::differences::differences;
    use ketama_core::{Profile, Ring, Server};

    fn ring(name: &str, labels: &[&str]) -> Ring {
        let servers: Vec<Server> = labels
            .iter()
            .map(|l| Server::parse(l, 1).unwrap())
            .collect();
        Ring::build(Profile::by_name(name).unwrap(), None, servers).unwrap()
    }

    fn aspects(a: &str, b: &str, labels: &[&str]) -> Vec<&'static str> {
        let (x, y) = (ring(a, labels), ring(b, labels));
        differences(&x, &y, a, b)
            .into_iter()
            .filter(|d| d.effective)
            .map(|d| d.aspect)
            .collect()
    }

    const FLEET: &[&str] = &["10.0.0.1:11211", "10.0.0.2:11211", "10.0.0.3:11211"];

    #[test]
    fn slot_lists_reducing_the_same_hash_are_one_placement() {
        // `hash % slots` and `|signed hash| % slots` of a 15-bit hash: the same slot.
        let d = aspects("python-memcached", "whalin-new-compat", FLEET);
        assert!(
            !d.contains(&"placement") && !d.contains(&"key hash"),
            "{d:?}"
        );
        // pecl standard reads crc32 as the 15-bit crc, but 0 as 1: a placement difference
        // only, not a key hash one.
        let d = aspects("python-memcached", "pecl-memcache-standard", FLEET);
        assert!(
            d.contains(&"placement") && !d.contains(&"key hash"),
            "{d:?}"
        );
        // A full 32-bit hash read signed is not the unsigned read.
        let plain = Placement::Modula {
            weighted: true,
            high15: false,
        };
        let signed = Placement::JavaAbsModulo {
            weighted: true,
            old_compat: false,
        };
        assert_ne!(
            slot_input(plain, Hash::Crc32a),
            slot_input(signed, Hash::Crc32a)
        );
        assert_eq!(slot_input(plain, Hash::Crc), slot_input(signed, Hash::Crc));
    }

    #[test]
    fn java_ketama_points_under_md5_are_md5_words() {
        let d = aspects("memcached-proxy-ring-evcache", "evcache", FLEET);
        assert!(!d.contains(&"point hash"), "{d:?}");
    }
}
