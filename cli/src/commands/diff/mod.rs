//! `ketama diff`: what moves where when the fleet changes from OLD to NEW.
//!
//! For ring profiles the continuum is cut into the hash ranges each server owns (by the
//! profile's search rule), old and new are overlaid, and every range whose owner changes is
//! one step of the migration plan: `[start, end) old -> new`. Keys (given, or the built-in
//! generated set) are located on both rings and counted.
//!
//! Modules, each using only those listed before it: [`args`], [`ownership`], [`measure`],
//! [`render`].

pub(crate) mod args;
pub(crate) mod measure;
pub(crate) mod ownership;
pub(crate) mod render;

use crate::args::ring_from;
use crate::output::Format;
use crate::servers;
use crate::shared::Fail;
use args::DiffArgs;

/// Runs `ketama diff`.
pub(crate) fn run(a: &DiffArgs, f: Format) -> Result<String, Fail> {
    let old = ring_from(&a.ring)?;
    let new = crate::args::apply_options(
        servers::ring(old.profile(), Some(old.hash()), &servers::load(&a.to)?)?,
        *old.options(),
    )?;
    let d = measure::measure(&old, &new, a.keys.as_deref(), a.list_keys)?;
    Ok(render::render(a, &old, &new, &d, f))
}
