//! The 10 -> 12 nodes experiment: the keys placed on the fleet before and after the change
//! under each hash, the hit rate (keys whose server is unchanged) beside the ideal and beside
//! plain `hash % n`, the keys per node, and each hash's speed.

use std::time::{Duration, Instant};

use ketama_core::{Hash, Profile, Ring, Server};

use super::args::{SimulateArgs, DEFAULT_HASHES};
use super::inputs::{fleet, load_keys, new_nodes};
use crate::progress::{Progress, Unit};
use crate::servers::{self, Fleet};
use crate::shared::Fail;

/// The result for one hash.
#[derive(Clone, Debug)]
pub(crate) struct HashResult {
    /// The name as the user spelled it (column header).
    pub(crate) shown: String,
    /// The hash.
    pub(crate) hash: Hash,
    /// Keys placed both before and after.
    pub(crate) placed: usize,
    /// Keys the client refuses (not counted in the rates).
    pub(crate) refused: usize,
    /// Fraction of placed keys whose server is unchanged.
    pub(crate) hit_rate: f64,
    /// The same for `hash % n`.
    pub(crate) modula_hit_rate: f64,
    /// Keys per node before (original fleet order).
    pub(crate) before: Vec<usize>,
    /// Keys per node after (new fleet order).
    pub(crate) after: Vec<usize>,
    /// Nanoseconds per key for the hash alone.
    pub(crate) ns_per_key: f64,
}

/// The whole experiment.
#[derive(Clone, Debug)]
pub(crate) struct Report {
    /// Profile used.
    pub(crate) profile: &'static Profile,
    /// Where the keys came from.
    pub(crate) source: String,
    /// Number of distinct keys.
    pub(crate) keys: usize,
    /// Fleet before.
    pub(crate) old: Vec<Server>,
    /// Fleet after.
    pub(crate) new: Vec<Server>,
    /// Labels added.
    pub(crate) added: Vec<String>,
    /// Labels removed.
    pub(crate) removed: Vec<String>,
    /// The best possible hit rate.
    pub(crate) ideal: f64,
    /// Per hash.
    pub(crate) results: Vec<HashResult>,
}

/// Computes the report.
pub(crate) fn simulate(a: &SimulateArgs) -> Result<Report, Fail> {
    let profile = crate::args::profile(&a.profile)?;
    let hashes = hash_list(a.hash.as_deref(), profile)?;
    let (source, keys) = load_keys(a)?;
    if keys.is_empty() {
        return Err(Fail::new(format!("{source}: no keys")));
    }
    let old_fleet = fleet(a)?;
    let old = old_fleet.servers();
    let n = old.len();
    let add = a.add.unwrap_or(if a.remove > 0 { 0 } else { 2 });
    if a.remove > n {
        return Err(Fail::new(format!(
            "--remove {}: the fleet has only {n} nodes",
            a.remove
        )));
    }
    if a.remove == n && add == 0 {
        return Err(Fail::new(format!(
            "--remove {}: no node would be left",
            a.remove
        )));
    }
    if add == 0 && a.remove == 0 {
        return Err(Fail::new(
            "nothing changes: give --add or --remove a positive number",
        ));
    }
    let added = new_nodes(&old, add)?;
    let mut new: Vec<Server> = old[..n - a.remove].to_vec();
    new.extend(added.iter().cloned());
    let removed: Vec<String> = old[n - a.remove..]
        .iter()
        .map(|s| s.label.clone())
        .collect();
    let kept = (n - a.remove) as f64;
    let ideal = kept / n as f64 * kept / (kept + add as f64);

    let new_fleet = Fleet::from_servers("the changed fleet", new.clone());
    let fleets = (&old_fleet, &new_fleet);
    let mut results = Vec::new();
    let total = (hashes.len() as u64).saturating_mul(keys.len() as u64);
    let mut bar = Progress::new(total, "simulate", Unit::Items);
    for (shown, h) in hashes {
        results.push(one_hash(
            profile,
            &a.options,
            (shown, h),
            fleets,
            &keys,
            &mut bar,
        )?);
    }
    bar.finish();
    Ok(Report {
        profile,
        source,
        keys: keys.len(),
        old,
        new,
        added: added.iter().map(|s| s.label.clone()).collect(),
        removed,
        ideal,
        results,
    })
}

/// One hash: every key placed on the fleet before and after (and by `hash % n`), counted.
fn one_hash(
    profile: &'static Profile,
    options: &crate::args::OptionArgs,
    (shown, h): (String, Hash),
    (old_fleet, new_fleet): (&Fleet, &Fleet),
    keys: &[Vec<u8>],
    bar: &mut Progress,
) -> Result<HashResult, Fail> {
    let (old, new) = (old_fleet.servers(), new_fleet.servers());
    let modula = crate::args::profile("modula")?;
    let before_ring = options.apply(servers::ring(profile, Some(h), old_fleet)?)?;
    let after_ring = options.apply(servers::ring(profile, Some(h), new_fleet)?)?;
    let mod_before =
        Ring::with_servers(modula, Some(h), old.clone()).map_err(|e| Fail::new(e.to_string()))?;
    let mod_after =
        Ring::with_servers(modula, Some(h), new.clone()).map_err(|e| Fail::new(e.to_string()))?;
    let mut before = vec![0usize; old.len()];
    let mut after = vec![0usize; new.len()];
    let (mut placed, mut refused, mut hits, mut mod_hits) = (0usize, 0usize, 0usize, 0usize);
    for k in keys {
        bar.inc(1);
        let (b, af) = match (before_ring.locate(k), after_ring.locate(k)) {
            (Ok(b), Ok(af)) => (b, af),
            _ => {
                refused += 1;
                continue;
            }
        };
        placed += 1;
        if let Some(i) = before_ring.position(&b.label) {
            before[i] += 1;
        }
        if let Some(i) = after_ring.position(&af.label) {
            after[i] += 1;
        }
        if b.label == af.label {
            hits += 1;
        }
        if let (Ok(x), Ok(y)) = (mod_before.locate(k), mod_after.locate(k)) {
            if x.label == y.label {
                mod_hits += 1;
            }
        }
    }
    let rate = |x: usize| {
        if placed == 0 {
            0.0
        } else {
            x as f64 / placed as f64
        }
    };
    Ok(HashResult {
        shown,
        hash: h,
        placed,
        refused,
        hit_rate: rate(hits),
        modula_hit_rate: rate(mod_hits),
        before,
        after,
        ns_per_key: speed(h, keys),
    })
}

/// The hashes of `--hash` (a list or `all`), as the profile's client names them; the
/// experiment's five by default.
fn hash_list(spec: Option<&str>, profile: &Profile) -> Result<Vec<(String, Hash)>, Fail> {
    let names: Vec<String> = match spec {
        None => DEFAULT_HASHES.iter().map(|s| s.to_string()).collect(),
        Some("all") => return Ok(Hash::all().map(|h| (h.name().to_string(), h)).collect()),
        Some(list) => list
            .split(',')
            .map(|s| s.trim().to_string())
            .filter(|s| !s.is_empty())
            .collect(),
    };
    if names.is_empty() {
        return Err(Fail::new("--hash: empty list"));
    }
    let mut out: Vec<(String, Hash)> = Vec::new();
    for n in names {
        let h = crate::args::hash(&n, Some(profile))?;
        if !out.iter().any(|(_, x)| *x == h) {
            out.push((n, h));
        }
    }
    Ok(out)
}

/// Nanoseconds per key: passes over all keys until about 20 ms have gone by.
fn speed(h: Hash, keys: &[Vec<u8>]) -> f64 {
    let start = Instant::now();
    let mut n = 0usize;
    let mut acc = 0u32;
    while n == 0 || start.elapsed() < Duration::from_millis(20) {
        for k in keys {
            acc = acc.wrapping_add(h.hash(std::hint::black_box(k)));
        }
        n += keys.len();
    }
    std::hint::black_box(acc);
    start.elapsed().as_nanos() as f64 / n.max(1) as f64
}

impl Report {
    /// Keys on the server `label` before and after the change under one hash (`None` where
    /// the server was not on the ring).
    pub(crate) fn keys_on(&self, x: &HashResult, label: &str) -> (Option<usize>, Option<usize>) {
        let count = |servers: &[Server], counts: &[usize]| {
            servers
                .iter()
                .position(|s| s.label == label)
                .and_then(|i| counts.get(i).copied())
        };
        (count(&self.old, &x.before), count(&self.new, &x.after))
    }
}
