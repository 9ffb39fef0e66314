//! `ketama simulate`: the xmemcached author's experiment (the user's original notes; see README).
//!
//! Word-count a text, take the distinct words as keys, place them on 10 nodes
//! (`192.168.0.100:12000`..`12009`, as xmemcached sees them), add 2 nodes, and report for each
//! hash the hit rate after the change (keys whose server is unchanged), the keys per node
//! before and after, the min~max range, the ideal hit rate, the hit rate of plain
//! `hash % n` with the same hash, and the hash's speed.

//!
//! `--plot FILE.svg` draws the experiment's figures ([`plot::experiment`]). With
//! `--algorithms A,B,...`, placement algorithms are compared instead ([`algorithms`]).
//! Modules, each using only those listed before it: [`placement`], [`heap`], [`args`],
//! [`algos`], [`algos_render`], [`inputs`], [`experiment`], [`live`], [`render`], [`plot`],
//! [`algorithms`].

pub(crate) mod algorithms;
pub(crate) mod algos;
pub(crate) mod algos_render;
pub(crate) mod args;
pub(crate) mod experiment;
pub(crate) mod heap;
pub(crate) mod inputs;
pub(crate) mod live;
pub(crate) mod placement;
pub(crate) mod plot;
pub(crate) mod render;

use crate::output::Format;
use crate::shared::Fail;
use args::SimulateArgs;

/// Runs `ketama simulate`.
pub(crate) fn run(a: &SimulateArgs, f: Format) -> Result<String, Fail> {
    if let Some(names) = algorithms::algorithm_list(a) {
        return algorithms::run(a, &names, f);
    }
    algorithms::refuse_algorithms_as_profile(a)?;
    if let Some(path) = &a.plot {
        plot::svg::check_writable(path)?;
    }
    let report = experiment::simulate(a)?;
    let live = if a.live {
        let (_, keys) = inputs::load_keys(a)?;
        Some(live::run(a, &report, &keys)?)
    } else {
        None
    };
    if let Some(path) = &a.plot {
        plot::experiment::write(&report, path)?;
    }
    Ok(render::render(&report, live.as_ref(), f))
}
