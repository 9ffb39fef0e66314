//! Placement options against the values each real client accepts
//! (`tests/vectors/extra/*-rules.json`, recorded from nutcracker and php-memcached), and
//! against the profiles whose clients have them. The placements themselves are checked on
//! `tests/vectors/options/` by `vectors.rs`.

use std::path::PathBuf;

use ketama_core::{Error, Options, Profile, Ring, Server};
use serde_json::Value;

fn rules(name: &str) -> Value {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/vectors/extra")
        .join(name);
    serde_json::from_str(&std::fs::read_to_string(p).expect("rules file")).expect("json")
}

#[test]
fn hash_tags_twemproxy_accepts_are_accepted() {
    let v = rules("twemproxy-hash-tag-rules.json");
    let cases = v["cases"].as_array().expect("cases");
    assert!(cases.len() >= 10);
    for c in cases {
        let tag = c["value"].as_str().unwrap();
        let ours = Options::new().with_hash_tag(tag.as_bytes());
        assert_eq!(
            ours.is_ok(),
            c["accepted"].as_bool().unwrap(),
            "hash_tag {tag:?}"
        );
        if let Err(e) = ours {
            assert_eq!(e, Error::BadOption);
        }
    }
}

/// A prefix is taken exactly when php-memcached (binary protocol, which checks no bytes)
/// ends up with that very prefix: its silent cuts (at a NUL) and silent ignores (128..250
/// bytes) are refused here instead.
#[test]
fn prefixes_php_memcached_sets_are_accepted() {
    let v = rules("php-memcached-prefix-rules.json");
    let cases = v["cases"].as_array().expect("cases");
    let mut checked = 0;
    for c in cases.iter().filter(|c| c["binary"].as_bool() == Some(true)) {
        let value = c["value"].as_str().unwrap();
        let kept = c["set"].as_bool().unwrap() && c["prefix_after"].as_str() == Some(value);
        let ours = Options::new().with_prefix_key(value.as_bytes());
        assert_eq!(
            ours.is_ok(),
            kept,
            "prefix {value:?} ({} bytes)",
            value.len()
        );
        if kept {
            assert_eq!(ours.unwrap().prefix_key(), value.as_bytes());
        }
        checked += 1;
    }
    assert!(checked >= 20);
}

#[test]
fn only_the_clients_that_have_an_option_take_it() {
    let tag = Options::new().with_hash_tag(b"{}").unwrap();
    let prefix = Options::new()
        .with_prefix_key(b"p:")
        .unwrap()
        .with_hash_with_prefix(true);
    for p in Profile::all() {
        let ring = Ring::new(p, None);
        assert_eq!(
            ring.clone().with_options(tag).is_ok(),
            p.options.hash_tag,
            "{}",
            p.name
        );
        assert_eq!(
            ring.with_options(prefix).is_ok(),
            p.options.prefix_key,
            "{}",
            p.name
        );
    }
    for name in ["twemproxy", "twemproxy-modula", "nutcracker"] {
        assert!(Profile::by_name(name).unwrap().options.hash_tag, "{name}");
    }
    for name in [
        "php-memcached",
        "libmemcached",
        "modula",
        "libmemcached-spy",
    ] {
        assert!(Profile::by_name(name).unwrap().options.prefix_key, "{name}");
    }
    // a refused option leaves the ring as it was
    let servers = ["10.0.0.1:11211", "10.0.0.2:11211"].map(|l| Server::parse(l, 1).unwrap());
    let mut ring =
        Ring::with_servers(Profile::by_name("libketama").unwrap(), None, servers).unwrap();
    assert_eq!(ring.set_options(tag), Err(Error::BadOption));
    assert!(ring.options().is_empty());
}

/// Options survive ring changes (they belong to the ring, not to a snapshot's points).
#[test]
fn options_survive_changes() {
    let p = Profile::by_name("twemproxy").unwrap();
    let tag = Options::new().with_hash_tag(b"{}").unwrap();
    let mut ring = Ring::new(p, None).with_options(tag).unwrap();
    for i in 1..=5 {
        ring.add(Server::parse(&format!("10.0.0.{i}:11211"), 1).unwrap())
            .unwrap();
    }
    ring.remove("10.0.0.3:11211").unwrap();
    assert_eq!(ring.options().hash_tag(), Some(*b"{}"));
    let ring = ring
        .with_added_many([Server::parse("10.0.0.9:11211", 1).unwrap()])
        .unwrap();
    assert_eq!(ring.options().hash_tag(), Some(*b"{}"));
    let ring = ring.with_weight("10.0.0.9:11211", 3).unwrap();
    assert_eq!(ring.options().hash_tag(), Some(*b"{}"));
    for k in ["a", "bb", "user:1"] {
        let tagged = format!("x{{{k}}}y");
        assert_eq!(
            ring.locate(tagged.as_bytes()).unwrap(),
            ring.locate(k.as_bytes()).unwrap()
        );
    }
}

/// Without its options, a ring disagrees with the client on the option files (so the vector
/// suite's agreement there is the options' doing).
#[test]
fn the_option_files_need_their_options() {
    for (file, options) in [
        (
            "twemproxy-hash-tag-braces-default-fnv1a_64-n10-equal.json",
            Options::new().with_hash_tag(b"{}").unwrap(),
        ),
        (
            "php-memcached-prefix-hashed-ketama-skewed10.json",
            Options::new()
                .with_prefix_key(b"p:")
                .unwrap()
                .with_hash_with_prefix(true),
        ),
        (
            "php-memcached-hash-with-prefix-only-ketama-mixed10.json",
            Options::new().with_hash_with_prefix(true),
        ),
    ] {
        let p = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("../tests/vectors/options")
            .join(file);
        let v: Value = serde_json::from_str(&std::fs::read_to_string(p).unwrap()).unwrap();
        let profile = Profile::by_name(v["profile"].as_str().unwrap()).unwrap();
        let servers: Vec<Server> = v["servers"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| {
                Server::parse(
                    s["label"].as_str().unwrap(),
                    s["weight"].as_u64().unwrap() as u32,
                )
                .unwrap()
                .with_name(s["name"].as_str())
            })
            .collect();
        let plain = Ring::with_servers(profile, None, servers).unwrap();
        let with = plain.clone().with_options(options).unwrap();
        let (mut plain_bad, mut with_bad) = (0, 0);
        for (k, e) in v["keys"]
            .as_array()
            .unwrap()
            .iter()
            .zip(v["expect"].as_array().unwrap())
        {
            let k = k.as_str().unwrap().as_bytes();
            let label = |r: &Ring| r.locate(k).map(|s| s.label.clone()).ok();
            plain_bad += usize::from(label(&plain).as_deref() != e.as_str());
            with_bad += usize::from(label(&with).as_deref() != e.as_str());
        }
        assert_eq!(with_bad, 0, "{file}");
        assert!(plain_bad > 0, "{file}: the options change nothing");
    }
}
