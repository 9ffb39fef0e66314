//! What moves: the continuum's ranges that change owner, and the keys (given, or the built-in
//! generated set) located on both rings, counted per (old, new) server pair.

use std::collections::BTreeMap;

use ketama_core::Ring;

use super::ownership::{moves, name, ownership, Move, Ownership};
use crate::keys;
use crate::output::key_text;
use crate::shared::Fail;

/// Everything `diff` reports.
#[derive(Clone, Debug)]
pub(crate) struct Diff {
    /// Where the keys came from.
    pub(crate) key_source: String,
    /// Keys located.
    pub(crate) keys: usize,
    /// Keys whose server changes.
    pub(crate) moved: usize,
    /// With `--list-keys`: each moved key (shown), its old and new server.
    pub(crate) moved_keys: Vec<(String, String, String)>,
    /// Per (old, new) server: the hash values (or buckets) and the keys that go that way.
    pub(crate) flows: BTreeMap<(String, String), (u64, usize)>,
    /// Ring profiles: the old ownership map and the ranges that change owner.
    pub(crate) ring: Option<(Ownership, Vec<Move>)>,
}

impl Diff {
    /// The share of the hash space `x` values are (`None` without a continuum).
    pub(crate) fn frac(&self, x: u64) -> Option<f64> {
        self.ring.as_ref().map(|(o, _)| x as f64 / o.space as f64)
    }

    /// The share of the keys `x` keys are (0 without keys).
    pub(crate) fn key_frac(&self, x: usize) -> f64 {
        if self.keys == 0 {
            0.0
        } else {
            x as f64 / self.keys as f64
        }
    }

    /// The hash values (or buckets) that change owner (`None` without a continuum).
    pub(crate) fn ring_moved(&self) -> Option<u64> {
        self.ring
            .as_ref()
            .map(|(_, mv)| mv.iter().map(|m| m.end - m.start).sum())
    }
}

/// Measures the change from `old` to `new` on the keys of `keys_file` (default: the
/// built-in generated keys).
pub(crate) fn measure(
    old: &Ring,
    new: &Ring,
    keys_file: Option<&str>,
    list_keys: bool,
) -> Result<Diff, Fail> {
    let (key_source, keys) = match keys_file {
        Some(p) => (p.to_string(), keys::file_keys(p)?),
        None => (
            format!("{} built-in generated keys", keys::GENERATED_KEYS),
            keys::generated(),
        ),
    };
    let ring = match (ownership(old), ownership(new)) {
        (Some(o), Some(n)) => {
            let mv = moves(&o, &n);
            Some((o, mv))
        }
        _ => None,
    };
    let mut d = Diff {
        key_source,
        keys: keys.len(),
        moved: 0,
        moved_keys: Vec::new(),
        flows: BTreeMap::new(),
        ring,
    };
    for k in &keys {
        let from = old.locate(k).ok().map(|s| s.label.clone());
        let to = new.locate(k).ok().map(|s| s.label.clone());
        if from != to {
            d.moved += 1;
            d.flows.entry((name(&from), name(&to))).or_default().1 += 1;
            if list_keys {
                d.moved_keys.push((key_text(k), name(&from), name(&to)));
            }
        }
    }
    if let Some((_, mv)) = &d.ring {
        for m in mv {
            d.flows.entry((name(&m.from), name(&m.to))).or_default().0 += m.end - m.start;
        }
    }
    Ok(d)
}
