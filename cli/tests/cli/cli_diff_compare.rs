//! Runs the real `ketama` binary: `diff` (what moves where) and `compare` (where two clients
//! disagree, and why).

use serde_json::Value;

use crate::common;
use common::run::*;

#[test]
fn diff_command() {
    let d = Dir::new("diff");
    let old = d.file("old", LIBKETAMA_SERVERS);
    let new = d.file(
        "new",
        b"10.0.1.1:11211\t600\n10.0.1.2:11211\t300\n10.0.1.3:11211\t200\n10.0.1.4:11211\t300\n",
    );
    let v = json(&[
        "diff",
        "-p",
        "libketama",
        "-s",
        &old,
        "--to",
        &new,
        "-f",
        "json",
    ]);
    let ring = v["ring"]["moved_fraction"].as_f64().unwrap();
    let keys = v["keys"]["moved_fraction"].as_f64().unwrap();
    assert_eq!(v["keys"]["total"], 100_000);
    // The new server takes about 300/1400 of the ring, and the keys follow the ring.
    assert!((0.15..0.3).contains(&ring), "{ring}");
    assert!((ring - keys).abs() < 0.01, "ring {ring} vs keys {keys}");
    let ranges = v["ring"]["ranges"].as_array().unwrap();
    let total: u64 = ranges
        .iter()
        .map(|r| r["end"].as_u64().unwrap() - r["start"].as_u64().unwrap())
        .sum();
    assert_eq!(total, v["ring"]["moved"].as_u64().unwrap());
    assert!(ranges.iter().all(|r| r["from"] != r["to"]));
    assert!(ranges
        .windows(2)
        .all(|w| w[0]["end"].as_u64() <= w[1]["start"].as_u64()));
    // Flows add up to the keys that moved.
    let flow_keys: u64 = v["flows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["keys"].as_u64().unwrap())
        .sum();
    assert_eq!(flow_keys, v["keys"]["moved"].as_u64().unwrap());

    let t = ok(&["diff", "-p", "libketama", "-s", &old, "--to", &new]);
    assert!(
        t.contains("migration plan") && t.contains("10.0.1.4:11211"),
        "{t}"
    );
    let csv = ok(&[
        "diff",
        "-p",
        "libketama",
        "-s",
        &old,
        "--to",
        &new,
        "-f",
        "csv",
    ]);
    assert!(csv.starts_with("record,start,end,from,to,ring_fraction,keys,key\ntotal,"));
    assert!(csv.lines().any(|l| l.starts_with("range,")));

    // Given keys, listed.
    let keyfile = d.file("keys", b"apple\nbanana\ncherry\nuser:1\nuser:2\n");
    let v = json(&[
        "diff",
        "-p",
        "libketama",
        "-s",
        &old,
        "--to",
        &new,
        "--keys",
        &keyfile,
        "--list-keys",
        "-f",
        "json",
    ]);
    assert_eq!(v["keys"]["total"], 5);
    assert_eq!(
        v["moved_keys"].as_array().unwrap().len() as u64,
        v["keys"]["moved"].as_u64().unwrap()
    );

    // Nothing changes.
    let v = json(&[
        "diff",
        "-p",
        "libketama",
        "-s",
        &old,
        "--to",
        &old,
        "-f",
        "json",
    ]);
    assert_eq!(v["ring"]["moved"], 0);
    assert_eq!(v["keys"]["moved"], 0);
    assert!(ok(&["diff", "-p", "libketama", "-s", &old, "--to", &old]).contains("nothing moves"));

    // Modulo has no continuum; keys still tell.
    let v = json(&[
        "diff", "-p", "modula", "-s", &old, "--to", &new, "-f", "json",
    ]);
    assert_eq!(v["ring"], Value::Null);
    assert!(v["keys"]["moved_fraction"].as_f64().unwrap() > 0.5);
    // pecl memcache: 1024 buckets.
    let v = json(&[
        "diff",
        "-p",
        "pecl-memcache",
        "-s",
        &old,
        "--to",
        &new,
        "-f",
        "json",
    ]);
    assert_eq!(v["ring"]["unit"], "bucket");
    let b = v["ring"]["moved_fraction"].as_f64().unwrap();
    let k = v["keys"]["moved_fraction"].as_f64().unwrap();
    assert!((b - k).abs() < 0.02, "buckets {b} vs keys {k}");
    // Other search rules agree with the keys as well.
    for p in [
        "hash_ring",
        "uhashring-ketama",
        "go-ketama",
        "flexihash",
        "groupcache",
        "xmemcached",
    ] {
        let v = json(&["diff", "-p", p, "-s", &old, "--to", &new, "-f", "json"]);
        let r = v["ring"]["moved_fraction"].as_f64().unwrap();
        let k = v["keys"]["moved_fraction"].as_f64().unwrap();
        assert!((r - k).abs() < 0.02, "{p}: ring {r} vs keys {k}");
    }
}

#[test]
fn compare_command() {
    let d = Dir::new("compare");
    let fleet = d.file("f", b"10.0.0.1:11211\n10.0.0.2:11211\n10.0.0.3:11211\n");
    // The done-when: php-memcached vs libketama with port 11211.
    let t = ok(&[
        "compare",
        "--profile",
        "php-memcached",
        "--with",
        "libketama",
        "--servers",
        &fleet,
    ]);
    assert!(t.contains("port 11211 omitted by A (php-memcached)"), "{t}");
    assert!(t.contains("10.0.0.1:11211"), "{t}");
    let v = json(&[
        "compare",
        "-p",
        "php-memcached",
        "--with",
        "libketama",
        "-s",
        &fleet,
        "-f",
        "json",
    ]);
    assert!(v["agreement"].as_f64().unwrap() < 0.9);
    let node = v["differences"]
        .as_array()
        .unwrap()
        .iter()
        .find(|x| x["aspect"] == "node string")
        .unwrap();
    assert_eq!(
        (node["a"].as_str(), node["b"].as_str()),
        (Some("10.0.0.1"), Some("10.0.0.1:11211"))
    );
    // 25 equal servers: libmemcached's float formula gives 156 points, libketama's 160.
    let lines: String = (1..=25).map(|i| format!("10.0.0.{i}:11211\n")).collect();
    let f25 = d.file("f25", lines.as_bytes());
    let v = json(&[
        "compare",
        "-p",
        "libmemcached-weighted",
        "--with",
        "libketama",
        "-s",
        &f25,
        "-f",
        "json",
    ]);
    let pts = v["differences"]
        .as_array()
        .unwrap()
        .iter()
        .find(|x| x["aspect"] == "points per server")
        .unwrap();
    assert_eq!(
        (pts["a"].as_str(), pts["b"].as_str()),
        (Some("156"), Some("160"))
    );
    // Different key hash.
    let other = d.file("o", b"10.0.0.1:12000\n10.0.0.2:12000\n");
    let v = json(&[
        "compare",
        "-p",
        "libmemcached",
        "--with",
        "libmemcached",
        "--with-hash",
        "fnv1a_32",
        "-s",
        &other,
        "-f",
        "json",
    ]);
    assert!(v["differences"]
        .as_array()
        .unwrap()
        .iter()
        .any(|x| x["aspect"] == "key hash"));
    // The same client agrees with itself, and an alias with its profile.
    let v = json(&[
        "compare",
        "-p",
        "php-memcached",
        "--with",
        "libmemcached-weighted",
        "-s",
        &fleet,
        "-f",
        "json",
    ]);
    assert_eq!(v["agreement"], 1.0);
    assert_eq!(v["differences"], serde_json::json!([]));
    // Equal-weight fleets without port 11211: libmemcached-weighted and libketama agree here.
    let v = json(&[
        "compare",
        "-p",
        "libmemcached-weighted",
        "--with",
        "libketama",
        "-s",
        &other,
        "-f",
        "json",
    ]);
    assert_eq!(v["agreement"], 1.0);
    let csv = ok(&[
        "compare",
        "-p",
        "php-memcached",
        "--with",
        "libketama",
        "-s",
        &fleet,
        "-f",
        "csv",
        "--keys",
        &d.file("k", b"a\nb\n"),
    ]);
    assert!(csv.starts_with("aspect,a,b,effective,note\nagreement,"));
    assert!(csv.contains("node string,10.0.0.1,10.0.0.1:11211,true,"));
}
