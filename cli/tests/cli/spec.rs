//! `spec/profiles.json` is exactly what `ketama profiles --format spec` prints, so the ports
//! that embed it implement core's table as it is.

use crate::common;

use common::{ketama_stdin, stdout_of};
use serde_json::Value;

/// Writes the spec and every port's copy of it.
const REGENERATE: &str = "bash tests/gen-tables.sh";

fn committed() -> String {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../spec/profiles.json");
    std::fs::read_to_string(path).unwrap_or_default()
}

#[test]
fn committed_spec_equals_what_core_says() {
    let args = ["profiles", "--format", "spec"];
    let printed = stdout_of(&args, ketama_stdin(&args, None));
    assert!(
        committed() == printed,
        "spec/profiles.json differs from core's table; regenerate it with:\n    {REGENERATE}"
    );
}

#[test]
fn spec_lists_every_profile_with_its_knobs() {
    let args = ["profiles", "--format", "spec"];
    let v: Value = serde_json::from_str(&stdout_of(&args, ketama_stdin(&args, None))).unwrap();
    let listed = stdout_of(&["profiles"], ketama_stdin(&["profiles"], None));
    let profiles = v["profiles"].as_array().unwrap();
    // `ketama profiles` prints a header line and one line per profile.
    assert_eq!(profiles.len() + 1, listed.lines().count());
    let knobs = [
        "name",
        "aliases",
        "description",
        "default_hash",
        "hashes",
        "crc32",
        "node",
        "names",
        "strings",
        "count",
        "points",
        "placement",
        "ties",
        "zero_weight",
        "key",
        "key_tag",
        "single_shortcut",
        "empty_key_rejected",
        "key_limits",
        "order",
        "failover",
        "removal",
        "options",
        "layout",
        "is_ring",
        "uses_weights",
    ];
    for p in profiles {
        let o = p.as_object().unwrap();
        let mut have: Vec<&str> = o.keys().map(String::as_str).collect();
        have.sort_unstable();
        let mut want = knobs.to_vec();
        want.sort_unstable();
        assert_eq!(have, want, "{}", p["name"]);
    }
    let twemproxy = profiles.iter().find(|p| p["name"] == "twemproxy").unwrap();
    assert_eq!(twemproxy["crc32"], "crc");
    assert_eq!(twemproxy["order"], "node_length_then_bytes");
    assert_eq!(twemproxy["count"]["formula"], "libmemcached");
    let folsom = profiles.iter().find(|p| p["name"] == "folsom").unwrap();
    assert_eq!(folsom["placement"]["bound"], "lower_bound_signed");
    assert_eq!(twemproxy["options"]["hash_tag"], true);
    assert_eq!(twemproxy["options"]["prefix_key"], false);
    let php = profiles
        .iter()
        .find(|p| p["name"] == "libmemcached-weighted")
        .unwrap();
    assert_eq!(php["options"]["prefix_key"], true);
    let predis = profiles.iter().find(|p| p["name"] == "predis").unwrap();
    assert_eq!(predis["key_tag"]["kind"], "braces");
    assert_eq!(predis["key_tag"]["rule"], "first_non_empty");
    let jedis = profiles.iter().find(|p| p["name"] == "jedis").unwrap();
    assert_eq!(jedis["key_tag"]["kind"], "configured");
    assert_eq!(jedis["options"]["hash_tag"], true);
    assert_eq!(twemproxy["key_tag"]["rule"], "first_non_empty");
    assert_eq!(v["options"]["hash_tag_bytes"], 2);
    assert_eq!(v["options"]["prefix_key_max_bytes"], 127);
    assert_eq!(v["schema"], 1);
    // The resolved layouts: uhashring's 128-bit ring, pecl's table searched lower-bound.
    let layout = |name: &str| &profiles.iter().find(|p| p["name"] == name).unwrap()["layout"];
    assert_eq!(layout("uhashring")["kind"], "wide");
    assert_eq!(layout("pecl-memcache")["kind"], "buckets");
    assert_eq!(layout("pecl-memcache")["bound"], "lower_bound");
    assert_eq!(layout("xmemcached")["kind"], "tie_runs");
    assert!(layout("jump")["bound"].is_null());
    let knobs = v["knobs"].as_object().unwrap();
    assert!(knobs["layout"].as_array().unwrap().contains(&"wide".into()));
    assert_eq!(knobs["input"].as_array().unwrap().len(), 4);
}

#[test]
fn format_spec_is_only_for_profiles() {
    let out = ketama_stdin(&["hashes", "--format", "spec"], None);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("only for `ketama profiles`"));
}
