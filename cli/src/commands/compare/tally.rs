//! The keys both clients place, and how often they agree: the share, the verdict, and where
//! the disagreeing keys go.

use std::collections::BTreeMap;

use ketama_core::Ring;

use super::differences::Difference;
use crate::keys;
use crate::shared::Fail;

/// The keys of `--keys`, or the built-in generated ones, with where they came from.
pub(crate) fn keys(path: Option<&str>) -> Result<(String, Vec<Vec<u8>>), Fail> {
    Ok(match path {
        Some(p) => (p.to_string(), keys::file_keys(p)?),
        None => (
            format!("{} built-in generated keys", keys::GENERATED_KEYS),
            keys::generated(),
        ),
    })
}

/// How the two rings placed the keys.
#[derive(Clone, Debug)]
pub(crate) struct Tally {
    /// Keys placed on the same server (or refused by both).
    pub(crate) agree: usize,
    /// Keys tried.
    pub(crate) total: usize,
    /// `agree / total` (1 without keys).
    pub(crate) agreement: f64,
    /// The verdict in words.
    pub(crate) verdict: String,
    /// (A's server, B's server) with its keys, most keys first (`-`: no server).
    pub(crate) flows: Vec<((String, String), usize)>,
}

/// Places every key on both rings.
pub(crate) fn tally(a: &Ring, b: &Ring, keys: &[Vec<u8>], diffs: &[Difference]) -> Tally {
    let mut agree = 0usize;
    let mut flows: BTreeMap<(String, String), usize> = BTreeMap::new();
    for k in keys {
        let x = a.locate(k).ok().map(|s| s.label.as_str());
        let y = b.locate(k).ok().map(|s| s.label.as_str());
        if x == y {
            agree += 1;
        } else {
            *flows
                .entry((x.unwrap_or("-").to_string(), y.unwrap_or("-").to_string()))
                .or_default() += 1;
        }
    }
    let total = keys.len();
    let agreement = if total == 0 {
        1.0
    } else {
        agree as f64 / total as f64
    };
    let mut flows: Vec<((String, String), usize)> = flows.into_iter().collect();
    flows.sort_by(|x, y| y.1.cmp(&x.1).then(x.0.cmp(&y.0)));
    Tally {
        agree,
        total,
        agreement,
        verdict: verdict(agree, total, agreement, diffs),
        flows,
    }
}

/// The verdict: agreement, and whether the differences found explain it.
fn verdict(agree: usize, total: usize, agreement: f64, diffs: &[Difference]) -> String {
    let effective = diffs.iter().any(|d| d.effective);
    if agree == total && !effective {
        "the same placement for every key"
    } else if agree == total {
        "agree on every key tried, despite the differences below"
    } else if agreement >= 0.9999 {
        "agree on nearly every key"
    } else if effective {
        "disagree, for the structural reasons below"
    } else {
        "disagree, with no structural difference found in the profiles' data"
    }
    .to_string()
}
