//! `ketama simulate --profile A,B,...`: placement algorithms side by side on the same keys and
//! the same fleet changes.
//!
//! The fleet is `--nodes` servers (or `--servers`), weight 1. Each algorithm is built on it
//! once (build time, memory, load per server, lookup time), then on four changed fleets:
//!
//! - `add k`: `--add` new servers at the end (ideal: `k / (n + k)` of the keys move);
//! - `remove k`: the last `--remove` servers removed (ideal `k / n`);
//! - `fail 1`: the server in the middle of the list (index `n / 2`) removed (ideal `1 / n`):
//!   what jump and its kin cannot do without disturbing another server (see [`super::placement`]);
//! - `weighted`: every fourth server (index 0, 4, 8, ...) gets weight 2 (ideal: the total
//!   variation distance between the equal and the weighted shares); algorithms that ignore
//!   weights move nothing and stay unbalanced against the weighted shares.
//!
//! Loads are compared with each server's share of the keys (`keys x weight / total weight`):
//! peak-to-mean is the largest ratio, sd the standard deviation of the ratios.

use std::time::Instant;

use ketama_core::Server;

use super::heap;
use super::placement::{Algorithm, Ids, Placer};
use crate::progress::{Progress, Unit};
use crate::shared::Fail;

/// Keys in one buffer (ten million keys without ten million allocations).
#[derive(Clone, Debug, Default)]
pub(crate) struct KeySet {
    bytes: Vec<u8>,
    ends: Vec<usize>,
}

impl KeySet {
    /// The keys `key:0` .. `key:<n-1>`.
    pub(crate) fn generated(n: usize) -> KeySet {
        use std::io::Write;
        let mut s = KeySet {
            bytes: Vec::with_capacity(n.saturating_mul(11)),
            ends: Vec::with_capacity(n),
        };
        for i in 0..n {
            // Writing into a Vec cannot fail.
            let _ = write!(s.bytes, "key:{i}");
            s.ends.push(s.bytes.len());
        }
        s
    }

    /// These keys, in order.
    pub(crate) fn from_keys(keys: &[Vec<u8>]) -> KeySet {
        let mut s = KeySet::default();
        for k in keys {
            s.bytes.extend_from_slice(k);
            s.ends.push(s.bytes.len());
        }
        s
    }

    /// The number of keys.
    pub(crate) fn len(&self) -> usize {
        self.ends.len()
    }

    /// Whether there is no key.
    pub(crate) fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// The keys in order.
    pub(crate) fn iter(&self) -> impl Iterator<Item = &[u8]> + '_ {
        let starts = std::iter::once(0).chain(self.ends.iter().copied());
        starts.zip(&self.ends).map(|(a, &b)| &self.bytes[a..b])
    }
}

/// The inputs of one comparison.
#[derive(Clone, Debug)]
pub(crate) struct Setup {
    /// Algorithms as the user spelled them, resolved.
    pub(crate) algorithms: Vec<(String, Algorithm)>,
    /// Where the keys came from.
    pub(crate) source: String,
    /// The keys.
    pub(crate) keys: KeySet,
    /// The fleet before any change (weights are ignored: every server gets weight 1).
    pub(crate) fleet: Vec<Server>,
    /// Servers added by the `add` change.
    pub(crate) added: Vec<Server>,
    /// How many servers the `remove` change takes off the end.
    pub(crate) remove: usize,
}

/// One fleet change.
#[derive(Clone, Debug)]
pub(crate) struct Change {
    /// Short name (`add 2`, `remove 2`, `fail 1`, `weighted`).
    pub(crate) name: String,
    /// What it does, in words.
    pub(crate) description: String,
    /// The fraction of keys that must move at least.
    pub(crate) ideal: f64,
    /// The fleet after the change.
    pub(crate) fleet: Vec<Server>,
    kind: Kind,
}

#[derive(Clone, Debug)]
enum Kind {
    Add(Vec<Server>),
    Remove(Vec<String>),
    Rebuild,
}

/// What one change did under one algorithm.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Moved {
    /// Fraction of the placed keys whose server changed.
    pub(crate) moved: f64,
    /// Peak-to-mean load after the change (against the weighted shares).
    pub(crate) peak_to_mean: f64,
}

/// One algorithm's figures.
#[derive(Clone, Debug)]
pub(crate) struct AlgoResult {
    /// The name as given.
    pub(crate) shown: String,
    /// Milliseconds to build it on the fleet.
    pub(crate) build_ms: f64,
    /// Heap bytes it holds per server (`None` where the C library gives no heap figure).
    pub(crate) bytes_per_server: Option<f64>,
    /// Nanoseconds per lookup (hashing the key included): the fastest of the passes over all
    /// keys (the fleet and each changed fleet), which keeps a busy machine's noise out.
    pub(crate) ns_per_key: f64,
    /// Keys the algorithm refuses.
    pub(crate) refused: usize,
    /// Keys per server of the fleet, in fleet order.
    pub(crate) loads: Vec<u64>,
    /// Largest load / mean load.
    pub(crate) peak_to_mean: f64,
    /// Standard deviation of the loads / mean load.
    pub(crate) sd: f64,
    /// Per change, in [`Report::changes`] order.
    pub(crate) changes: Vec<Moved>,
}

/// The whole comparison.
#[derive(Clone, Debug)]
pub(crate) struct Report {
    /// Where the keys came from.
    pub(crate) source: String,
    /// Number of keys.
    pub(crate) keys: usize,
    /// Servers before the changes.
    pub(crate) servers: usize,
    /// AnchorHash's bucket count.
    pub(crate) anchor_capacity: u32,
    /// The changes.
    pub(crate) changes: Vec<Change>,
    /// Per algorithm.
    pub(crate) results: Vec<AlgoResult>,
}

/// Load statistics against each server's share: (peak-to-mean, sd / mean).
pub(crate) fn balance(loads: &[u64], weights: &[u32]) -> (f64, f64) {
    let total: u64 = loads.iter().sum();
    let wsum: u64 = weights.iter().map(|&w| u64::from(w)).sum();
    if total == 0 || wsum == 0 || loads.is_empty() {
        return (0.0, 0.0);
    }
    let ratios: Vec<f64> = loads
        .iter()
        .zip(weights)
        .map(|(&l, &w)| l as f64 / (total as f64 * f64::from(w) / wsum as f64))
        .collect();
    let n = ratios.len() as f64;
    let mean = ratios.iter().sum::<f64>() / n;
    let var = ratios.iter().map(|r| (r - mean) * (r - mean)).sum::<f64>() / n;
    let peak = ratios.iter().copied().fold(0.0, f64::max);
    (peak, var.sqrt())
}

fn changes(s: &Setup) -> Result<Vec<Change>, Fail> {
    let n = s.fleet.len();
    let mut out = Vec::new();
    if !s.added.is_empty() {
        let k = s.added.len();
        let mut fleet = s.fleet.clone();
        fleet.extend(s.added.iter().cloned());
        out.push(Change {
            name: format!("add {k}"),
            description: format!("{k} servers added at the end"),
            ideal: k as f64 / (n + k) as f64,
            fleet,
            kind: Kind::Add(s.added.clone()),
        });
    }
    if s.remove > 0 {
        let k = s.remove;
        out.push(Change {
            name: format!("remove {k}"),
            description: format!("the last {k} servers removed"),
            ideal: k as f64 / n as f64,
            fleet: s.fleet[..n - k].to_vec(),
            kind: Kind::Remove(s.fleet[n - k..].iter().map(|x| x.label.clone()).collect()),
        });
    }
    let mid = n / 2;
    let mut fleet = s.fleet.clone();
    let gone = fleet.remove(mid);
    out.push(Change {
        name: "fail 1".into(),
        description: format!("server {} (index {mid} of {n}) fails", gone.label),
        ideal: 1.0 / n as f64,
        fleet,
        kind: Kind::Remove(vec![gone.label]),
    });
    let weighted: Vec<Server> = s
        .fleet
        .iter()
        .enumerate()
        .map(|(i, x)| {
            let mut x = x.clone();
            x.weight = if i % 4 == 0 { 2 } else { 1 };
            x
        })
        .collect();
    let wsum: f64 = weighted.iter().map(|x| f64::from(x.weight)).sum();
    let ideal = weighted
        .iter()
        .map(|x| (1.0 / n as f64 - f64::from(x.weight) / wsum).max(0.0))
        .sum();
    out.push(Change {
        name: "weighted".into(),
        description: "every 4th server (index 0, 4, ...) gets weight 2".into(),
        ideal,
        fleet: weighted,
        kind: Kind::Rebuild,
    });
    Ok(out)
}

/// Runs the comparison.
pub(crate) fn compare(s: &Setup) -> Result<Report, Fail> {
    let n = s.fleet.len();
    if n < 2 {
        return Err(Fail::new(
            "comparing algorithms needs at least 2 servers (one fails)",
        ));
    }
    if s.remove >= n {
        return Err(Fail::new(format!(
            "--remove {}: the fleet has only {n} servers",
            s.remove
        )));
    }
    if s.keys.is_empty() {
        return Err(Fail::new(format!("{}: no keys", s.source)));
    }
    let ids: Ids = s
        .fleet
        .iter()
        .chain(&s.added)
        .enumerate()
        .map(|(i, x)| (x.label.clone(), i as u32))
        .collect();
    if ids.len() != n + s.added.len() {
        return Err(Fail::new("the fleet names a server twice"));
    }
    let capacity =
        u32::try_from((2 * n).max(n + s.added.len())).map_err(|_| Fail::new("too many servers"))?;
    let changes = changes(s)?;
    let keys = s.keys.len();
    let total = (s.algorithms.len() * (1 + changes.len())) as u64 * keys as u64;
    let mut bar = Progress::new(total, "simulate", Unit::Items);
    let mut results = Vec::new();
    for (shown, alg) in &s.algorithms {
        results.push(one(shown, *alg, s, &ids, capacity, &changes, &mut bar)?);
    }
    bar.finish();
    Ok(Report {
        source: s.source.clone(),
        keys,
        servers: n,
        anchor_capacity: capacity,
        changes,
        results,
    })
}

fn one(
    shown: &str,
    alg: Algorithm,
    s: &Setup,
    ids: &Ids,
    capacity: u32,
    changes: &[Change],
    bar: &mut Progress,
) -> Result<AlgoResult, Fail> {
    let n = s.fleet.len();
    let before = heap::live_bytes();
    let t = Instant::now();
    let base = Placer::build(alg, &s.fleet, ids, capacity)?;
    let build_ms = t.elapsed().as_secs_f64() * 1e3;
    let bytes_per_server = before
        .zip(heap::live_bytes())
        .map(|(b, a)| a.saturating_sub(b) as f64 / n as f64);

    // The base pass: where every key goes, timed.
    let mut at = vec![u32::MAX; s.keys.len()];
    let t = Instant::now();
    for (slot, k) in at.iter_mut().zip(s.keys.iter()) {
        if let Some(id) = base.locate(k) {
            *slot = id;
        }
        bar.inc(1);
    }
    let mut ns_per_key = t.elapsed().as_nanos() as f64 / s.keys.len() as f64;
    let refused = at.iter().filter(|&&x| x == u32::MAX).count();
    let mut by_id = vec![0u64; ids.len()];
    for &id in &at {
        if id != u32::MAX {
            by_id[id as usize] += 1;
        }
    }
    let loads: Vec<u64> = (0..n).map(|i| by_id[i]).collect();
    let (peak_to_mean, sd) = balance(&loads, &vec![1; n]);

    let mut moved = Vec::new();
    for c in changes {
        let after = match &c.kind {
            Kind::Add(added) => base.with_added(&c.fleet, added, ids)?,
            Kind::Remove(gone) => {
                let gone: Vec<&str> = gone.iter().map(String::as_str).collect();
                base.with_removed(&c.fleet, &gone, ids)?
            }
            Kind::Rebuild => Placer::build(alg, &c.fleet, ids, capacity)?,
        };
        let mut by_id = vec![0u64; ids.len()];
        let (mut placed, mut changed) = (0u64, 0u64);
        let t = Instant::now();
        for (&was, k) in at.iter().zip(s.keys.iter()) {
            bar.inc(1);
            let Some(now) = after.locate(k) else { continue };
            by_id[now as usize] += 1;
            if was != u32::MAX {
                placed += 1;
                if was != now {
                    changed += 1;
                }
            }
        }
        ns_per_key = ns_per_key.min(t.elapsed().as_nanos() as f64 / s.keys.len() as f64);
        let mut loads = Vec::with_capacity(c.fleet.len());
        let mut weights = Vec::with_capacity(c.fleet.len());
        for x in &c.fleet {
            loads.push(ids.get(&x.label).map_or(0, |&i| by_id[i as usize]));
            weights.push(x.weight);
        }
        moved.push(Moved {
            moved: if placed == 0 {
                0.0
            } else {
                changed as f64 / placed as f64
            },
            peak_to_mean: balance(&loads, &weights).0,
        });
    }
    Ok(AlgoResult {
        shown: shown.to_string(),
        build_ms,
        bytes_per_server,
        ns_per_key,
        refused,
        loads,
        peak_to_mean,
        sd,
        changes: moved,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keyset_round_trips() {
        let k = KeySet::generated(3);
        let v: Vec<&[u8]> = k.iter().collect();
        assert_eq!(v, [&b"key:0"[..], b"key:1", b"key:2"]);
        let k = KeySet::from_keys(&[b"a".to_vec(), Vec::new(), b"bc".to_vec()]);
        assert_eq!(k.iter().collect::<Vec<_>>(), [&b"a"[..], b"", b"bc"]);
    }

    #[test]
    fn balance_against_weights() {
        assert_eq!(balance(&[10, 10, 20], &[1, 1, 2]), (1.0, 0.0));
        let (p, sd) = balance(&[30, 10], &[1, 1]);
        assert_eq!(p, 1.5);
        assert!((sd - 0.5).abs() < 1e-12);
    }

    fn setup(names: &[&str]) -> Setup {
        let fleet: Vec<Server> = (0..8)
            .map(|i| Server::parse(&format!("10.0.0.1:{}", 11211 + i), 1).unwrap())
            .collect();
        let added = vec![Server::parse("10.0.0.1:12000", 1).unwrap()];
        Setup {
            algorithms: names
                .iter()
                .map(|n| (n.to_string(), Algorithm::from_name(n).unwrap()))
                .collect(),
            source: "test".into(),
            keys: KeySet::generated(20_000),
            fleet,
            added,
            remove: 1,
        }
    }

    /// Anchor and memento move exactly the failed server's keys; jump (swap-remove) moves
    /// about twice as many; libketama about the ideal; rendezvous honours the weights.
    #[test]
    fn moves_against_the_ideal() {
        let r = compare(&setup(&[
            "anchor",
            "memento",
            "jump",
            "libketama",
            "rendezvous",
        ]))
        .unwrap();
        let names: Vec<&str> = r.changes.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(names, ["add 1", "remove 1", "fail 1", "weighted"]);
        let fail = 2;
        let loads = |x: &AlgoResult| x.loads[4] as f64 / r.keys as f64;
        for x in &r.results[..2] {
            assert!(
                (x.changes[fail].moved - loads(x)).abs() < 1e-12,
                "{}",
                x.shown
            );
            assert_eq!(x.changes[3].moved, 0.0, "{} ignores weights", x.shown);
        }
        let jump = &r.results[2];
        assert!(jump.changes[fail].moved > 1.6 * r.changes[fail].ideal);
        assert!(r.results[4].changes[3].moved > 0.5 * r.changes[3].ideal);
        assert!(r.results[4].changes[3].peak_to_mean < 1.2);
        for x in &r.results {
            assert_eq!(x.loads.iter().sum::<u64>(), r.keys as u64);
            assert!(x.peak_to_mean >= 1.0 && x.peak_to_mean < 1.6, "{}", x.shown);
        }
    }
}
