//! Runs the real `ketama` binary: `lookup`, `hash` and `points`, servers files in every
//! form, the vector files of the real clients through `lookup`, dead servers.

use std::path::Path;

use serde_json::Value;

use crate::common;
use common::ketama_stdin;
use common::run::*;

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
