//! `ketama profiles`: the profiles (client families) with their aliases, default hashes and
//! descriptions; `--format spec` prints the whole table as data ([`crate::spec`]).

use ketama_core::Profile;
use serde_json::{json, Value};

use crate::output::{self, render, Format, Table};

/// Runs `ketama profiles`.
pub(crate) fn run(f: Format) -> String {
    let all = Profile::all();
    if f == Format::Json {
        return output::json(&Value::Array(
            all.iter()
                .map(|p| {
                    json!({"name": p.name, "aliases": p.aliases, "default_hash": p.default_hash.name(),
                           "description": p.description})
                })
                .collect(),
        ));
    }
    let mut t = Table::new(&["profile", "aliases", "default hash", "description"]);
    for p in all {
        t.row(vec![
            p.name.into(),
            p.aliases.join(" "),
            p.default_hash.name().into(),
            p.description.into(),
        ]);
    }
    render(&t, f)
}
