//! Runs the real `ketama` binary: every command, every format, error exits, and the
//! simulate numbers the done-when asks for.

use std::path::{Path, PathBuf};
use std::process::Output;

use serde_json::Value;

mod common;
use common::ketama_stdin;

fn ketama(args: &[&str]) -> Output {
    ketama_stdin(args, None)
}

/// Runs and expects success; returns stdout.
fn ok(args: &[&str]) -> String {
    common::stdout_of(args, ketama(args))
}

fn json(args: &[&str]) -> Value {
    serde_json::from_str(&ok(args)).unwrap_or_else(|e| panic!("{args:?}: not JSON: {e}"))
}

/// Runs and expects exit 2 with one line on stderr containing every `needle`.
fn fails(args: &[&str], needles: &[&str]) {
    let out = ketama(args);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(
        out.status.code(),
        Some(2),
        "{args:?} should exit 2; stderr: {err}"
    );
    assert_eq!(
        err.lines().count(),
        1,
        "{args:?}: one-line message expected, got: {err}"
    );
    assert!(err.starts_with("ketama: "), "{err}");
    for n in needles {
        assert!(
            err.contains(n),
            "{args:?}: message {err:?} should mention {n:?}"
        );
    }
    assert!(
        out.stdout.is_empty(),
        "{args:?}: nothing on stdout on failure"
    );
}

struct Dir(PathBuf);

impl Dir {
    fn new(name: &str) -> Dir {
        let p = std::env::temp_dir().join(format!("ketama-cli-test-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&p);
        std::fs::create_dir_all(&p).unwrap();
        Dir(p)
    }
    fn file(&self, name: &str, text: &[u8]) -> String {
        let p = self.0.join(name);
        std::fs::write(&p, text).unwrap();
        p.to_string_lossy().into_owned()
    }
}

impl Drop for Dir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// libketama's own servers file format: `ip:port<TAB>memory`.
const LIBKETAMA_SERVERS: &[u8] = b"# libketama ketama.servers\n10.0.1.1:11211\t600\n10.0.1.2:11211\t300\n10.0.1.3:11211\t200\n\n";

#[test]
fn clap_definition_is_consistent() {
    use clap::CommandFactory;
    ketama_cli::Cli::command().debug_assert();
}

#[test]
fn help_and_version_exit_zero() {
    assert!(ok(&["--help"]).contains("simulate"));
    assert!(ok(&["--version"]).contains(ketama_core::VERSION));
    assert!(ok(&["simulate", "--help"]).contains("--nodes"));
    // No command at all is bad usage.
    fails(&[], &["missing command"]);
    fails(&["simulate", "--add", "18446744073709551615"], &["--add"]);
}

#[test]
fn profiles_in_every_format() {
    let table = ok(&["profiles"]);
    for p in ketama_core::Profile::all() {
        assert!(table.contains(p.name), "{}", p.name);
    }
    assert!(table.lines().next().unwrap().starts_with("profile"));
    let v = json(&["profiles", "--format", "json"]);
    assert_eq!(
        v.as_array().unwrap().len(),
        ketama_core::Profile::all().len()
    );
    let pm = v
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == "libmemcached-weighted")
        .unwrap();
    assert!(pm["aliases"]
        .as_array()
        .unwrap()
        .iter()
        .any(|a| a == "php-memcached"));
    let csv = ok(&["--format", "csv", "profiles"]);
    assert_eq!(
        csv.lines().next(),
        Some("profile,aliases,default hash,description")
    );
    assert_eq!(csv.lines().count(), ketama_core::Profile::all().len() + 1);
}

#[test]
fn hashes_in_every_format() {
    let table = ok(&["hashes"]);
    assert!(
        table.contains("one_at_a_time")
            && table.contains("KETAMA_HASH")
            && table.contains("crc32a")
    );
    let v = json(&["hashes", "-f", "json"]);
    let n = ketama_core::Hash::all().count();
    assert_eq!(v.as_array().unwrap().len(), n);
    assert!(v
        .as_array()
        .unwrap()
        .iter()
        .all(|h| h["description"].as_str().is_some_and(|d| !d.is_empty())));
    let csv = ok(&["hashes", "-f", "csv"]);
    assert_eq!(csv.lines().count(), n + 1);
    assert!(csv.starts_with("hash,aliases,description\n"));
}

#[test]
fn hash_command() {
    assert_eq!(
        ok(&["hash", "--hash", "KETAMA_HASH", "apple"]),
        "3195025439\n"
    );
    assert_eq!(
        ok(&["hash", "--hash", "one_at_a_time", "apple"]),
        "2297466611\n"
    );
    // Bare crc32 is ambiguous without a profile, and the message names both choices.
    fails(
        &["hash", "--hash", "crc32", "apple"],
        &["crc32", "'crc'", "'crc32a'"],
    );
    // A profile resolves it: full CRC-32 for PHP's pecl memcache, 15 bits for twemproxy.
    let full: u64 = ok(&[
        "hash",
        "--hash",
        "crc32",
        "--profile",
        "pecl-memcache",
        "apple",
    ])
    .trim()
    .parse()
    .unwrap();
    let crc32a: u64 = ok(&["hash", "--hash", "crc32a", "apple"])
        .trim()
        .parse()
        .unwrap();
    assert_eq!(full, crc32a);
    let short: u64 = ok(&["hash", "--hash", "crc32", "--profile", "twemproxy", "apple"])
        .trim()
        .parse()
        .unwrap();
    assert_eq!(
        short,
        ok(&["hash", "--hash", "crc", "apple"])
            .trim()
            .parse::<u64>()
            .unwrap()
    );
    assert!(short < 1 << 15);
    // Profile default when --hash is absent; stdin keys.
    let out = ketama_stdin(
        &["hash", "--profile", "libketama"],
        Some(b"apple\nbanana\n"),
    );
    assert_eq!(out.status.code(), Some(0));
    let lines: Vec<String> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(String::from)
        .collect();
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[0], "3195025439");
    // Formats.
    let v = json(&["hash", "-H", "md5", "-f", "json", "apple", ""]);
    assert_eq!(v[0]["hash"], 3195025439u32);
    assert_eq!(v[1]["key"], "");
    let t = ok(&["hash", "-H", "md5", "-f", "table", "apple"]);
    assert!(
        t.starts_with("key") && t.contains("apple  3195025439"),
        "{t}"
    );
    assert_eq!(
        ok(&["hash", "-H", "md5", "-f", "csv", "a,b"]),
        "key,md5\n\"a,b\",".to_string() + &ok(&["hash", "-H", "md5", "a,b"])
    );
    // xmemcached refuses the empty key with KETAMA_HASH: '-' and null, still exit 0.
    let out = ketama(&["hash", "-H", "KETAMA_HASH", "-p", "xmemcached", ""]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(String::from_utf8_lossy(&out.stdout), "-\n");
    assert!(String::from_utf8_lossy(&out.stderr).contains("refuses"));
    assert_eq!(
        json(&[
            "hash",
            "-H",
            "KETAMA_HASH",
            "-p",
            "xmemcached",
            "-f",
            "json",
            ""
        ])[0]["hash"],
        Value::Null
    );
    fails(&["hash", "apple"], &["--hash"]);
    fails(
        &["hash", "--hash", "sha3", "apple"],
        &["unknown hash 'sha3'"],
    );
}

#[test]
fn lookup_libketama_servers_file() {
    let d = Dir::new("lookup");
    let servers = d.file("ketama.servers", LIBKETAMA_SERVERS);
    let keys = ["apple", "user:1", "", "日本語", "😀"];
    let out = ok(&[
        &["lookup", "--profile", "libketama", "--servers", &servers][..],
        &keys[..],
    ]
    .concat());
    let labels: Vec<&str> = out.lines().collect();
    assert_eq!(labels.len(), keys.len());
    assert!(labels.iter().all(|l| l.starts_with("10.0.1.")));
    // Same answers from stdin (one key per line, CRLF tolerated).
    let stdin = ketama_stdin(
        &["lookup", "-p", "libketama", "-s", &servers],
        Some("apple\r\nuser:1\n\n日本語\n😀".as_bytes()),
    );
    assert_eq!(String::from_utf8(stdin.stdout).unwrap(), out);
    // The same as the core.
    let ring = ketama_core::Ring::with_servers(
        ketama_core::Profile::by_name("libketama").unwrap(),
        None,
        [
            ("10.0.1.1:11211", 600),
            ("10.0.1.2:11211", 300),
            ("10.0.1.3:11211", 200),
        ]
        .map(|(l, w)| ketama_core::Server::parse(l, w).unwrap()),
    )
    .unwrap();
    for (k, l) in keys.iter().zip(&labels) {
        assert_eq!(ring.locate(k.as_bytes()).unwrap().label, *l, "{k}");
    }
    // Formats.
    let v = json(&[
        "lookup",
        "-p",
        "libketama",
        "-s",
        &servers,
        "-f",
        "json",
        "apple",
    ]);
    assert_eq!(v[0]["key"], "apple");
    assert_eq!(v[0]["label"], labels[0]);
    let csv = ok(&[
        "lookup",
        "-p",
        "libketama",
        "-s",
        &servers,
        "-f",
        "csv",
        "apple",
    ]);
    assert_eq!(csv, format!("key,label\napple,{}\n", labels[0]));
    let table = ok(&[
        "lookup",
        "-p",
        "libketama",
        "-s",
        &servers,
        "-f",
        "table",
        "apple",
    ]);
    assert_eq!(table.lines().count(), 2);
    // Invalid UTF-8 keys on stdin are hashed as bytes.
    let out = ketama_stdin(
        &["lookup", "-p", "libketama", "-s", &servers],
        Some(b"\xff\xfe\n"),
    );
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        String::from_utf8(out.stdout).unwrap().trim(),
        ring.locate(b"\xff\xfe").unwrap().label
    );
}

#[test]
fn servers_file_forms() {
    let d = Dir::new("forms");
    // Spaces, tabs, weights, names, comments, IPv6 and host names.
    let f = d.file(
        "s.txt",
        b"  # fleet\n10.0.0.1:11211 1 alpha   # first\n10.0.0.2:11211\t1\tbeta\n[2001:db8::1]:11211 2\ncache.lan:11311\n",
    );
    let pts = ok(&["points", "-p", "twemproxy", "-s", &f]);
    let labels: std::collections::BTreeSet<&str> =
        pts.lines().map(|l| l.split('\t').nth(1).unwrap()).collect();
    assert_eq!(
        labels.into_iter().collect::<Vec<_>>(),
        [
            "10.0.0.1:11211",
            "10.0.0.2:11211",
            "[2001:db8::1]:11211",
            "cache.lan:11311"
        ]
    );
    // Errors name the file and the line.
    let bad = d.file("bad.txt", b"10.0.0.1:11211\n10.0.0.2:notaport\n");
    fails(
        &["lookup", "-p", "libketama", "-s", &bad, "k"],
        &["bad.txt:2", "10.0.0.2:notaport"],
    );
    let bad = d.file("w.txt", b"10.0.0.1:11211 heavy\n");
    fails(
        &["lookup", "-p", "libketama", "-s", &bad, "k"],
        &["w.txt:1", "bad weight 'heavy'"],
    );
    let dup = d.file("dup.txt", b"10.0.0.1:11211\n# x\n10.0.0.1:11211\n");
    fails(
        &["points", "-p", "libketama", "-s", &dup],
        &["dup.txt:3", "duplicate"],
    );
    let extra = d.file("x.txt", b"10.0.0.1:11211 1 n more\n");
    fails(
        &["points", "-p", "libketama", "-s", &extra],
        &["x.txt:1", "'more'"],
    );
    let empty = d.file("empty.txt", b"# nothing\n\n");
    fails(
        &["points", "-p", "libketama", "-s", &empty],
        &["empty.txt", "no servers"],
    );
    let zero = d.file("zero.txt", b"10.0.0.1:11211 1\n10.0.0.2:11211 0\n");
    fails(
        &["points", "-p", "libketama", "-s", &zero],
        &["zero.txt:2", "weight 0"],
    );
    let utf = d.file("utf.txt", b"10.0.0.1:11211\n\xff\n");
    fails(
        &["points", "-p", "libketama", "-s", &utf],
        &["utf.txt:2", "UTF-8"],
    );
    fails(
        &["points", "-p", "libketama", "-s", "/nonexistent/servers"],
        &["/nonexistent/servers", "cannot read"],
    );
    // xmemcached-nginx needs IP addresses.
    let names = d.file("names.txt", b"10.0.0.1:11211\ncache.lan:11211\n");
    fails(
        &["points", "-p", "xmemcached-nginx", "-s", &names],
        &["names.txt:2", "cache.lan:11211"],
    );
}

#[test]
fn points_command() {
    let d = Dir::new("points");
    let servers = d.file("s", LIBKETAMA_SERVERS);
    let out = ok(&["points", "-p", "libketama", "-s", &servers]);
    let pts: Vec<(u32, String)> = out
        .lines()
        .map(|l| {
            let (p, label) = l.split_once('\t').unwrap();
            (p.parse().unwrap(), label.to_string())
        })
        .collect();
    assert!(pts.windows(2).all(|w| w[0].0 <= w[1].0), "ascending");
    assert_eq!(pts.len(), 472); // libketama: 600/300/200 -> 264 + 132 + 76 (its float formula)
    let v = json(&["points", "-p", "libketama", "-s", &servers, "-f", "json"]);
    assert_eq!(v.as_array().unwrap().len(), pts.len());
    assert_eq!(v[0]["point"], pts[0].0);
    let csv = ok(&["points", "-p", "libketama", "-s", &servers, "-f", "csv"]);
    assert_eq!(csv.lines().count(), pts.len() + 1);
    assert!(csv.starts_with("point,label\n"));
    assert!(
        ok(&["points", "-p", "libketama", "-s", &servers, "-f", "table"])
            .trim_start()
            .starts_with("point")
    );
    // A different key hash moves the points of profiles that hash points with it.
    let a = ok(&["points", "-p", "libmemcached", "-s", &servers]);
    let b = ok(&[
        "points",
        "-p",
        "libmemcached",
        "-H",
        "fnv1a_32",
        "-s",
        &servers,
    ]);
    assert_ne!(a, b);
    fails(
        &["points", "-p", "modula", "-s", &servers],
        &["modula", "hash % n"],
    );
}

#[test]
fn usage_errors_exit_2_with_one_line() {
    let d = Dir::new("usage");
    let servers = d.file("s", LIBKETAMA_SERVERS);
    fails(
        &["lookup", "-p", "nope", "-s", &servers, "k"],
        &["unknown profile 'nope'"],
    );
    fails(
        &[
            "lookup",
            "-p",
            "libketama",
            "-H",
            "nope",
            "-s",
            &servers,
            "k",
        ],
        &["unknown hash 'nope'"],
    );
    fails(
        &[
            "lookup",
            "-p",
            "libketama",
            "-H",
            "crc32",
            "-s",
            &servers,
            "k",
        ],
        &["crc32", "'crc'", "'crc32a'"],
    );
    fails(&["lookup", "-p", "libketama"], &["--servers"]);
    fails(&["frobnicate"], &["frobnicate"]);
    fails(&["profiles", "--format", "xml"], &["xml"]);
    fails(&["simulate", "--nodes", "0"], &["--nodes"]);
    fails(&["simulate", "--nodes", "many"], &["many"]);
    fails(&["simulate", "--remove", "11"], &["--remove"]);
    fails(&["simulate", "--add", "0"], &["nothing changes"]);
    fails(
        &["simulate", "--hash", "KETAMA_HASH,bogus"],
        &["unknown hash 'bogus'"],
    );
    fails(
        &["simulate", "--text", "/nonexistent/text"],
        &["/nonexistent/text"],
    );
    fails(
        &[
            "diff",
            "-p",
            "libketama",
            "-s",
            &servers,
            "--to",
            "/nonexistent/new",
        ],
        &["/nonexistent/new"],
    );
    fails(
        &[
            "compare",
            "-p",
            "libketama",
            "--with",
            "nope",
            "-s",
            &servers,
        ],
        &["unknown profile 'nope'"],
    );
}

#[test]
fn no_panic_on_garbage() {
    let d = Dir::new("garbage");
    let mut seed = 0x1234_5678_9abc_def0u64;
    for i in 0..40 {
        let mut bytes = Vec::new();
        for _ in 0..(i * 7 % 90) {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            const ALPHABET: &[u8] = b"ab1:.[] \t\n#09x\xff";
            bytes.push(ALPHABET[(seed % ALPHABET.len() as u64) as usize]);
        }
        let f = d.file(&format!("g{i}"), &bytes);
        for profile in ["libketama", "xmemcached", "flexihash-seed", "pecl-memcache"] {
            let out = ketama_stdin(&["lookup", "-p", profile, "-s", &f], Some(&bytes));
            assert!(
                matches!(out.status.code(), Some(0 | 2)),
                "{profile} {bytes:?}"
            );
        }
    }
}

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

/// End to end through the CLI: vector files from the real clients, their servers written as
/// a servers file, every key through `ketama lookup`, compared with `expect`.
#[test]
fn lookup_matches_real_client_vectors() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/vectors");
    let files = [
        "libketama-bundled-servers.json",
        "libmemcached-weighted-skewed10.json",
        "twemproxy-default-fnv1a_64-n8-named-skewed.json",
        "xmemcached-crc32-names-12-weighted.json",
        "pymemcache-bytes-ten-mixed.json",
        "django-pymemcache-ipv6.json",
        "emcache-ten-mixed.json",
        "python-memcached-skewed.json",
        "evcache-same-host-ports.json",
        "evcache-hostnames.json",
        // Recorded with servers that refuse connections: `--dead` follows the client's failover.
        "extra/dalli-dead-five-three-dead.json",
        "extra/python-memcached-dead-five-three-dead.json",
        "extra/pymemcache-dead-ten-mixed-three-dead.json",
        "extra/dalli-dead-one-dead.json",
        "extra/pecl-memcache-dead-ten-nine-dead.json",
        "extra/pecl-memcache-standard-dead-ten-nine-dead.json",
        // Recorded with client options: --hash-tag, --prefix-key, --hash-with-prefix.
        "options/twemproxy-hash-tag-braces-md5-n8-named-skewed.json",
        "options/twemproxy-hash-tag-e-acute-default-fnv1a_64-n10-equal.json",
        "options/twemproxy-hash-tag-braces-modula-default-fnv1a_64-n7-skewed.json",
        "options/php-memcached-prefix-hashed-ketama-skewed10.json",
        "options/php-memcached-prefix-127-hashed-ketama-mixed10.json",
        "options/php-memcached-prefix-ketama-skewed10.json",
        "options/php-memcached-prefix-hashed-modula.json",
    ];
    let d = Dir::new("vectors");
    let mut failures = Vec::new();
    for name in files {
        let v: Value =
            serde_json::from_str(&std::fs::read_to_string(dir.join(name)).unwrap()).unwrap();
        let mut servers = String::new();
        for s in v["servers"].as_array().unwrap() {
            servers.push_str(&format!(
                "{} {}",
                s["label"].as_str().unwrap(),
                s["weight"].as_u64().unwrap_or(1)
            ));
            if let Some(n) = s["name"].as_str() {
                assert!(
                    !n.contains([' ', '\t', '#']),
                    "{name}: name {n:?} does not fit a servers file"
                );
                servers.push_str(&format!(" {n}"));
            }
            servers.push('\n');
        }
        let sf = d.file(
            &format!("{}.servers", name.replace('/', "-")),
            servers.as_bytes(),
        );
        // NUL keys cannot be arguments: left out with their answers.
        let (keys, expect): (Vec<&str>, Vec<&Value>) = v["keys"]
            .as_array()
            .unwrap()
            .iter()
            .map(|k| k.as_str().unwrap())
            .zip(v["expect"].as_array().unwrap())
            .filter(|(k, _)| !k.contains('\0'))
            .unzip();
        let dead = v["dead"].as_array().map(|d| {
            d.iter()
                .map(|l| l.as_str().unwrap())
                .collect::<Vec<_>>()
                .join(",")
        });
        let mut args = vec![
            "lookup",
            "--format",
            "json",
            "--profile",
            v["profile"].as_str().unwrap(),
            "--servers",
            &sf,
        ];
        if let Some(h) = v["hash"].as_str() {
            args.extend(["--hash", h]);
        }
        if let Some(d) = &dead {
            args.extend(["--dead", d]);
        }
        let o = &v["options"];
        if let Some(t) = o["hash_tag"].as_str() {
            args.extend(["--hash-tag", t]);
        }
        if let Some(p) = o["prefix_key"].as_str() {
            args.extend(["--prefix-key", p]);
        }
        if o["hash_with_prefix"].as_bool() == Some(true) {
            args.push("--hash-with-prefix");
        }
        args.push("--");
        args.extend(keys.iter().copied());
        let got = json(&args);
        let got = got.as_array().unwrap();
        assert_eq!(got.len(), keys.len());
        let bad = got
            .iter()
            .zip(expect)
            .filter(|(g, e)| g["label"] != **e)
            .count();
        if bad > 0 {
            failures.push(format!("{name}: {bad} of {} keys differ", keys.len()));
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}

/// Options the profile's client lacks, or values it refuses, are usage errors naming the flag.
#[test]
fn placement_options_are_checked() {
    let d = Dir::new("options");
    let s = d.file("servers", b"10.0.0.1:11211\n10.0.0.2:11211\n");
    for (args, says) in [
        (
            &["-p", "libketama", "--hash-tag", "{}"][..],
            "--hash-tag option",
        ),
        (
            &["-p", "twemproxy", "--hash-tag", "{"][..],
            "exactly 2 bytes",
        ),
        (
            &["-p", "twemproxy", "--hash-tag", "«»"][..],
            "exactly 2 bytes",
        ),
        (
            &["-p", "twemproxy", "--prefix-key", "p:"][..],
            "--prefix-key",
        ),
        (
            &["-p", "dalli", "--hash-with-prefix"][..],
            "--prefix-key/--hash-with-prefix",
        ),
    ] {
        let mut a = vec!["lookup", "-s", &s];
        a.extend(args);
        a.push("k");
        let out = ketama_stdin(&a, None);
        assert!(!out.status.success(), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(says), "{args:?}: {err}");
    }
    let long = "x".repeat(128);
    let out = ketama_stdin(
        &[
            "lookup",
            "-s",
            &s,
            "-p",
            "php-memcached",
            "--prefix-key",
            &long,
            "k",
        ],
        None,
    );
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("1..127 bytes"));
    // a tagged key and its tag go to one server
    let tagged = json(&[
        "lookup",
        "--format",
        "json",
        "-p",
        "twemproxy",
        "-s",
        &s,
        "--hash-tag",
        "{}",
        "--",
        "{user:1}:a",
        "user:1",
        "x{user:1}",
    ]);
    let labels: Vec<&Value> = tagged
        .as_array()
        .unwrap()
        .iter()
        .map(|g| &g["label"])
        .collect();
    assert!(labels.iter().all(|l| *l == labels[0]), "{labels:?}");
}

#[test]
fn control_characters_never_reach_the_terminal_raw() {
    let d = Dir::new("escapes");
    let s = d.file("servers", b"10.0.0.1:11211\n10.0.0.2:11211\n");
    // ESC [2J (clear screen), a C1 CSI, a bidi override.
    let keys = "a\x1b[2Jb\nc\u{9b}2Jd\nx\u{202e}y\n";
    for f in ["table", "csv"] {
        let out = ketama_stdin(
            &["lookup", "-p", "libketama", "-s", &s, "--format", f],
            Some(keys.as_bytes()),
        );
        let text = common::stdout_of(&[f], out);
        assert!(
            !text.contains('\x1b') && !text.contains('\u{9b}') && !text.contains('\u{202e}'),
            "{f}: {text:?}"
        );
        assert!(text.contains("a\\x1b[2Jb"), "{f}: {text}");
        assert!(text.contains("c\\u{009b}2Jd"), "{f}: {text}");
        assert!(text.contains("x\\u{202e}y"), "{f}: {text}");
    }
    // JSON keeps the exact key (escaped by JSON itself).
    let out = ketama_stdin(
        &["lookup", "-p", "libketama", "-s", &s, "--format", "json"],
        Some(keys.as_bytes()),
    );
    let v: serde_json::Value = serde_json::from_str(&common::stdout_of(&["json"], out)).unwrap();
    assert_eq!(v[0]["key"], "a\x1b[2Jb");
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

#[test]
fn file_names_that_are_not_utf8_are_refused_naming_the_option() {
    use std::os::unix::ffi::OsStrExt;
    let bad = std::ffi::OsStr::from_bytes(b"/tmp/servers-\xff");
    for (sub, opt) in [
        (&["lookup", "-p", "libketama", "-s"][..], "--servers"),
        (&["simulate", "--plot"][..], "--plot"),
        (&["simulate", "--keys"][..], "--keys"),
        (&["audit", "--detect", "-s"][..], "--servers"),
    ] {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_ketama"))
            .args(sub)
            .arg(bad)
            .stdin(std::process::Stdio::null())
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{sub:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains(opt) && err.contains("is not UTF-8"),
            "{sub:?}: {err}"
        );
    }
}

#[test]
fn help_that_cannot_be_written_fails_and_help_help_succeeds() {
    let full = std::fs::File::create("/dev/full").unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_ketama"))
        .arg("--help")
        .stdout(full)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot write output"));
    let out = ketama(&["help", "--help"]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("Usage: ketama"));
}

#[test]
fn audit_help_lists_only_the_formats_audit_accepts() {
    let audit = String::from_utf8(ketama(&["audit", "--help"]).stdout).unwrap();
    let line = audit
        .lines()
        .find(|l| l.contains("--format"))
        .unwrap()
        .to_string();
    assert!(
        line.contains("table") || audit.contains("table or json"),
        "{audit}"
    );
    assert!(!audit.contains("csv"), "{audit}");
    let lookup = String::from_utf8(ketama(&["lookup", "--help"]).stdout).unwrap();
    assert!(lookup.contains("csv"), "{lookup}");
}

/// `--dead` names servers of the servers file; a key whose client gives up prints `-`.
#[test]
fn lookup_dead_servers() {
    let d = Dir::new("dead");
    let sf = d.file("s", b"10.0.0.1:11211\n10.0.0.2:11211\n");
    fails(
        &[
            "lookup",
            "-p",
            "dalli",
            "-s",
            &sf,
            "--dead",
            "10.0.0.9:11211",
            "k",
        ],
        &["--dead 10.0.0.9:11211", "no server with this label"],
    );
    // emcache keeps sending to its pick: with that server dead the key fails.
    let all = "10.0.0.1:11211,10.0.0.2:11211";
    for p in [
        "emcache",
        "dalli",
        "python-memcached",
        "pymemcache",
        "libmemcached",
    ] {
        assert_eq!(
            ok(&["lookup", "-p", p, "-s", &sf, "--dead", all, "k"]),
            "-\n",
            "{p}"
        );
    }
    let alive = ok(&["lookup", "-p", "pymemcache", "-s", &sf, "k"]);
    let other = if alive.trim() == "10.0.0.1:11211" {
        "10.0.0.2:11211"
    } else {
        "10.0.0.1:11211"
    };
    assert_eq!(
        ok(&[
            "lookup",
            "-p",
            "pymemcache",
            "-s",
            &sf,
            "--dead",
            alive.trim(),
            "k"
        ]),
        format!("{other}\n")
    );
}
