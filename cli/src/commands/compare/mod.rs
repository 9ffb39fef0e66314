//! `ketama compare`: how often two client families pick the same server on the same fleet,
//! and, from the two profiles' data, the structural reasons they differ.
//!
//! Modules, each using only those listed before it: [`args`], [`slots`], [`differences`],
//! [`tally`], [`render`].

pub(crate) mod args;
pub(crate) mod differences;
pub(crate) mod render;
pub(crate) mod slots;
pub(crate) mod tally;

use ketama_core::Ring;

use crate::args::{hash, profile};
use crate::output::Format;
use crate::servers;
use crate::shared::Fail;
use args::CompareArgs;

/// Runs `ketama compare`.
pub(crate) fn run(c: &CompareArgs, f: Format) -> Result<String, Fail> {
    let (a, b) = rings(c)?;
    let (key_source, keys) = tally::keys(c.keys.as_deref())?;
    let diffs = differences::differences(&a, &b, &c.profile, &c.with);
    let t = tally::tally(&a, &b, &keys, &diffs);
    Ok(render::render(c, &a, &b, &key_source, &t, &diffs, f))
}

/// The two rings on the fleet of `--servers`.
fn rings(c: &CompareArgs) -> Result<(Ring, Ring), Fail> {
    let pa = profile(&c.profile)?;
    let pb = profile(&c.with)?;
    let ha = c.hash.as_deref().map(|n| hash(n, Some(pa))).transpose()?;
    let hb = c
        .with_hash
        .as_deref()
        .map(|n| hash(n, Some(pb)))
        .transpose()?;
    let fleet = servers::load(&c.servers)?;
    let options = c.options.options()?;
    let a = crate::args::apply_options(servers::ring(pa, ha, &fleet)?, options)?;
    let b = servers::ring(pb, hb, &fleet)?;
    // The `--with` side gets the options only when its client has them.
    let b = if options.check(pb.options).is_ok() {
        b.with_options(options)
            .map_err(|e| Fail::new(e.to_string()))?
    } else {
        b
    };
    Ok((a, b))
}
