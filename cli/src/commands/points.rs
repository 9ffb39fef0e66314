//! `ketama points`: a ring's continuum, `point<TAB>label`, ascending.

use serde_json::{json, Value};

use crate::args::{ring_from, RingArgs};
use crate::output::{self, render, Format, Table};
use crate::shared::Fail;

/// Runs `ketama points`; `None` prints plain lines.
pub(crate) fn run(a: &RingArgs, f: Option<Format>) -> Result<String, Fail> {
    let ring = ring_from(a)?;
    if !ring.profile().is_ring() {
        return Err(Fail::new(format!(
            "profile {} has no continuum (it places keys by {}), so it has no points",
            ring.profile().name,
            ring.profile().placement
        )));
    }
    let label = |i: usize| ring.server(i).map_or("?", |s| s.label.as_str());
    Ok(match f {
        None => {
            let mut s = String::with_capacity(ring.point_count() * 24);
            for (p, i) in ring.points() {
                s.push_str(&format!("{p}\t{}\n", label(i)));
            }
            s
        }
        Some(Format::Json) => output::json(&Value::Array(
            ring.points()
                .map(|(p, i)| json!({"point": p, "label": label(i)}))
                .collect(),
        )),
        Some(fmt) => {
            let mut t = Table::new(&["point", "label"]);
            for (p, i) in ring.points() {
                t.row(vec![p.to_string(), label(i).to_string()]);
            }
            render(&t, fmt)
        }
    })
}
