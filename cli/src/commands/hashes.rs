//! `ketama hashes`: the hash functions with their aliases and descriptions.

use ketama_core::Hash;
use serde_json::{json, Value};

use crate::output::{self, render, Format, Table};

/// Runs `ketama hashes`.
pub(crate) fn run(f: Format) -> String {
    if f == Format::Json {
        return output::json(&Value::Array(
            Hash::all()
                .map(|h| json!({"name": h.name(), "aliases": h.aliases(), "description": h.description()}))
                .collect(),
        ));
    }
    let mut t = Table::new(&["hash", "aliases", "description"]);
    for h in Hash::all() {
        t.row(vec![
            h.name().into(),
            h.aliases().join(" "),
            h.description().into(),
        ]);
    }
    render(&t, f)
}
