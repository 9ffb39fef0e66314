//! `simulate` with a list of algorithms: placement algorithms compared on the same keys and
//! fleet changes ([`super::algos`]), and drawn with `--plot` ([`super::plot`]).

use ketama_core::{Profile, Server};

use super::algos::{self, KeySet, Setup};
use super::algos_render;
use super::args::SimulateArgs;
use super::inputs::{fleet, load_keys, new_nodes};
use super::placement::Algorithm;
use super::plot;
use crate::keys;
use crate::output::Format;
use crate::shared::Fail;

/// The names of `--algorithms` (trimmed, duplicates kept for [`run`] to drop), or `None`
/// when the hash experiment runs.
pub(crate) fn algorithm_list(a: &SimulateArgs) -> Option<Vec<String>> {
    if a.algorithms.is_empty() {
        return None;
    }
    Some(
        a.algorithms
            .iter()
            .map(|s| s.trim().to_string())
            .filter(|s| !s.is_empty())
            .collect(),
    )
}

/// Refuses a `--profile` that names algorithms (a list, or an algorithm that is no profile)
/// with the flag that compares them.
pub(crate) fn refuse_algorithms_as_profile(a: &SimulateArgs) -> Result<(), Fail> {
    let p = a.profile.trim();
    if p.contains(',') {
        return Err(Fail::new(format!(
            "--profile takes one profile; to compare placement algorithms use --algorithms {p}"
        )));
    }
    if Profile::by_name(p).is_err() && Algorithm::from_name(p).is_ok() {
        return Err(Fail::new(format!(
            "'{p}' is an algorithm, not a profile: to compare placement algorithms use --algorithms {p}"
        )));
    }
    Ok(())
}

/// `simulate --algorithms A,B,...`: see [`super::algos`].
pub(crate) fn run(a: &SimulateArgs, names: &[String], f: Format) -> Result<String, Fail> {
    if a.hash.is_some() {
        return Err(Fail::new(
            "--hash applies to one profile's hash comparison, not to a list of algorithms (each uses its own hash)",
        ));
    }
    if a.live {
        return Err(Fail::new(
            "--live applies to one profile's hash comparison, not to a list of algorithms",
        ));
    }
    if names.is_empty() {
        return Err(Fail::new("--algorithms: empty list"));
    }
    if let Some(path) = &a.plot {
        plot::svg::check_writable(path)?;
    }
    let mut algorithms: Vec<(String, Algorithm)> = Vec::new();
    for n in names {
        let alg = Algorithm::from_name(n)?;
        if !algorithms.iter().any(|(_, x)| *x == alg) {
            algorithms.push((n.clone(), alg));
        }
    }
    let (source, keys) = if a.keys.is_some() || a.text.is_some() {
        let (source, keys) = load_keys(a)?;
        (source, KeySet::from_keys(&keys))
    } else {
        let n = a.key_count.unwrap_or(keys::GENERATED_KEYS);
        if n == 0 || n > u32::MAX as usize {
            return Err(Fail::new(format!(
                "--key-count {n}: expected 1 to {}",
                u32::MAX
            )));
        }
        (
            format!("generated key:0 .. key:{}", n - 1),
            KeySet::generated(n),
        )
    };
    // The comparison's base fleet is unweighted (its `weighted` change sets the weights).
    let fleet: Vec<Server> = fleet(a)?
        .servers()
        .into_iter()
        .map(|mut s| {
            s.weight = 1;
            s
        })
        .collect();
    let n = fleet.len();
    let add = a.add.unwrap_or(2);
    let remove = if a.remove > 0 {
        a.remove
    } else {
        add.max(1).min(n.saturating_sub(1))
    };
    let added = new_nodes(&fleet, add)?;
    let report = algos::compare(&Setup {
        algorithms,
        source,
        keys,
        fleet,
        added,
        remove,
    })?;
    if let Some(path) = &a.plot {
        plot::algorithms::write(&report, path)?;
    }
    Ok(algos_render::render(&report, f))
}
