//! Runs the real `ketama` binary: `simulate`'s numbers (the measurement it reproduces), its
//! formats and options, a big text streamed.

use serde_json::Value;

use crate::common;
use common::run::*;

fn simulate_json(args: &[&str]) -> Value {
    json(&[&["simulate", "--format", "json"][..], args].concat())
}

fn result<'a>(v: &'a Value, hash: &str) -> &'a Value {
    v["results"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["hash"] == hash)
        .unwrap_or_else(|| panic!("{hash}"))
}

/// The done-when: KETAMA_HASH within 3 points of the ideal 83.3%, and NATIVE_HASH
/// piles nearly all keys onto one node, as the xmemcached author measured.
#[test]
fn simulate_reproduces_the_seed_measurement() {
    let v = simulate_json(&[]);
    assert_eq!(v["profile"], "xmemcached");
    let keys = v["keys"].as_u64().unwrap();
    assert!(
        (3000..4000).contains(&keys),
        "about 3,000 distinct words: {keys}"
    );
    assert_eq!(v["nodes_before"].as_array().unwrap().len(), 10);
    assert_eq!(v["nodes_before"][0], "192.168.0.100:12000");
    assert_eq!(
        v["added"],
        serde_json::json!(["192.168.0.100:12010", "192.168.0.100:12011"])
    );
    let ideal = v["ideal_hit_rate"].as_f64().unwrap();
    assert!((ideal - 10.0 / 12.0).abs() < 1e-12);
    let names: Vec<&str> = v["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["hash"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "CRC32_HASH",
            "KETAMA_HASH",
            "FNV1_32_HASH",
            "NATIVE_HASH",
            "MYSQL_HASH"
        ]
    );

    let ketama = result(&v, "KETAMA_HASH");
    let hit = ketama["hit_rate"].as_f64().unwrap();
    assert!(
        (hit - ideal).abs() <= 0.03,
        "KETAMA_HASH hit rate {hit} vs ideal {ideal}"
    );
    // Balanced: every node within 0.5x..1.5x of the mean.
    for n in ketama["before"].as_array().unwrap() {
        let c = n["keys"].as_u64().unwrap() as f64;
        assert!(
            c > keys as f64 / 10.0 * 0.5 && c < keys as f64 / 10.0 * 1.5,
            "{n}"
        );
    }

    let native = result(&v, "NATIVE_HASH");
    let max = native["before"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n["keys"].as_u64().unwrap())
        .max()
        .unwrap();
    assert!(
        max as f64 >= 0.95 * keys as f64,
        "NATIVE_HASH puts {max} of {keys} keys on one node"
    );
    assert_eq!(
        native["before"][0]["keys"].as_u64().unwrap(),
        max,
        "the first node, as in the experiment's reference table"
    );
    assert!(native["hit_rate"].as_f64().unwrap() > 0.95);

    // Modulo loses most keys (it keeps about 1 in 6 when going from 10 to 12 nodes).
    for r in v["results"].as_array().unwrap() {
        assert!(
            r["modula_hit_rate"].as_f64().unwrap() < 0.3,
            "{}",
            r["hash"]
        );
        let before: u64 = r["before"]
            .as_array()
            .unwrap()
            .iter()
            .map(|n| n["keys"].as_u64().unwrap())
            .sum();
        let after: u64 = r["after"]
            .as_array()
            .unwrap()
            .iter()
            .map(|n| n["keys"].as_u64().unwrap())
            .sum();
        assert_eq!((before, after), (keys, keys));
        assert!(r["ns_per_key"].as_f64().unwrap() > 0.0);
    }
    // Deterministic apart from the timings.
    let again = simulate_json(&[]);
    for h in names {
        assert_eq!(result(&v, h)["hit_rate"], result(&again, h)["hit_rate"]);
        assert_eq!(result(&v, h)["after"], result(&again, h)["after"]);
    }
}

#[test]
fn simulate_table_and_csv() {
    let t = ok(&["simulate"]);
    assert!(t.contains("ideal hit rate 83.33%"), "{t}");
    for h in [
        "CRC32_HASH",
        "KETAMA_HASH",
        "FNV1_32_HASH",
        "NATIVE_HASH",
        "MYSQL_HASH",
        "192.168.0.100:12011",
        "ns/key",
        "modula",
    ] {
        assert!(t.contains(h), "{h}");
    }
    let csv = ok(&["simulate", "--format", "csv"]);
    assert!(csv.starts_with(
        "hash,hit_rate,ideal_hit_rate,modula_hit_rate,ns_per_key,node,keys_before,keys_after\n"
    ));
    assert_eq!(csv.lines().count(), 1 + 5 * 12);
}

#[test]
fn simulate_options() {
    let d = Dir::new("simulate");
    // --hash all, a list, and names resolved by the profile.
    let all = simulate_json(&["--hash", "all"]);
    assert_eq!(
        all["results"].as_array().unwrap().len(),
        ketama_core::Hash::all().count()
    );
    let two = simulate_json(&["--hash", "KETAMA_HASH,FNV1A_32_HASH"]);
    assert_eq!(two["results"].as_array().unwrap().len(), 2);
    // Removing nodes: ideal = (n - r) / n.
    let rm = simulate_json(&["--remove", "2", "--hash", "KETAMA_HASH"]);
    assert_eq!(rm["nodes_after"].as_array().unwrap().len(), 8);
    assert!((rm["ideal_hit_rate"].as_f64().unwrap() - 0.8).abs() < 1e-12);
    assert!(
        rm["results"][0]["hit_rate"].as_f64().unwrap() <= 0.8 + 1e-12,
        "removing can't beat the ideal"
    );
    // --nodes / --add, another profile.
    let v = simulate_json(&[
        "--nodes",
        "4",
        "--add",
        "1",
        "--profile",
        "libmemcached-weighted",
        "--hash",
        "md5",
    ]);
    assert_eq!(v["nodes_after"].as_array().unwrap().len(), 5);
    assert!((v["ideal_hit_rate"].as_f64().unwrap() - 0.8).abs() < 1e-12);
    // --text and --keys.
    let text = d.file("t.txt", b"the cat and the hat; The CAT's hat");
    let v = simulate_json(&["--text", &text, "--hash", "KETAMA_HASH"]);
    assert_eq!(v["keys"], 5); // the cat and hat cat's
    let keys = d.file("k.txt", b"a\nb\na\n\nc\n");
    let v = simulate_json(&["--keys", &keys, "--hash", "KETAMA_HASH"]);
    assert_eq!(v["keys"], 3);
    // --servers: added nodes continue after the highest port.
    let servers = d.file("s.txt", b"10.1.0.1:11211\n10.1.0.2:11212\n");
    let v = simulate_json(&["--servers", &servers, "--add", "1", "--hash", "KETAMA_HASH"]);
    assert_eq!(v["added"], serde_json::json!(["10.1.0.2:11213"]));
}

#[test]
fn simulate_text_streams_a_big_file() {
    let d = Dir::new("bigtext");
    // 16 MB of 1,000 distinct words.
    let words: String = (0..1000).map(|i| format!("w{} ", keyword(i))).collect();
    let mut text = String::with_capacity(16 << 20);
    while text.len() < 16 << 20 {
        text.push_str(&words);
        text.push('\n');
    }
    let path = d.file("big.txt", text.as_bytes());
    drop(text);
    let (out, kb) = common::peak(&["simulate", "--text", &path, "--format", "json"]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["keys"], 1000, "{}", v);
    // The file is 16 MB; reading it whole took about 6 times that.
    assert!(kb < 16 * 1024, "peak RSS {kb} kB");
}

/// A distinct alphabetic word for `i`.
fn keyword(mut i: usize) -> String {
    let mut s = String::new();
    loop {
        s.push((b'a' + (i % 26) as u8) as char);
        i /= 26;
        if i == 0 {
            return s;
        }
    }
}
