//! Every vector file in `tests/vectors/` (recorded from the real clients) must match 100%.
//! Rings are built twice, in one pass and server by server, and both must agree with the
//! client on every key.

use std::path::PathBuf;

use ketama_core::hash::md5::lanes::Lanes;
use ketama_core::{Error, Hash, Options, Profile, Ring, Server};
use serde_json::Value;

fn vectors_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/vectors")
}

/// The top level's files, then `options/`'s (files recorded with client options).
fn vector_files() -> Vec<PathBuf> {
    let mut all = Vec::new();
    for sub in ["", "options"] {
        let dir = vectors_dir().join(sub);
        let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
            .expect("tests/vectors exists")
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "json"))
            .collect();
        files.sort();
        all.extend(files);
    }
    all
}

/// A file's name as `MANIFEST.tsv` lists it (`options/<file>` for the options folder).
fn listed_name(f: &std::path::Path) -> String {
    f.strip_prefix(vectors_dir())
        .unwrap_or(f)
        .to_string_lossy()
        .into_owned()
}

/// The file's `options` object as core options (none when absent).
fn options(v: &Value) -> Result<Options, Error> {
    let o = &v["options"];
    let mut out = Options::new();
    if let Some(t) = o["hash_tag"].as_str() {
        out = out.with_hash_tag(t.as_bytes())?;
    }
    if let Some(p) = o["prefix_key"].as_str() {
        out = out.with_prefix_key(p.as_bytes())?;
    }
    if let Some(h) = o["hash_with_prefix"].as_bool() {
        out = out.with_hash_with_prefix(h);
    }
    Ok(out)
}

fn servers(v: &Value) -> Result<Vec<Server>, Error> {
    v["servers"]
        .as_array()
        .map(Vec::as_slice)
        .unwrap_or_default()
        .iter()
        .map(|s| {
            let label = s["label"].as_str().unwrap_or_default();
            let weight = s["weight"].as_u64().unwrap_or(1) as u32;
            Server::parse(label, weight).map(|x| x.with_name(s["name"].as_str()))
        })
        .collect()
}

fn keys(v: &Value) -> Vec<&str> {
    v["keys"]
        .as_array()
        .map(|k| k.iter().map(|x| x.as_str().unwrap_or_default()).collect())
        .unwrap_or_default()
}

/// Returns (checked, mismatches with a few examples).
fn check_file(v: &Value) -> Result<(usize, Vec<String>), String> {
    let kind = v["kind"].as_str().unwrap_or("locate");
    let keys = keys(v);
    let expect = v["expect"].as_array().ok_or("no expect")?;
    let mut bad = Vec::new();
    match kind {
        "hash" => {
            let name = v["hash"].as_str().ok_or("hash vector without hash")?;
            let profile = v["profile"]
                .as_str()
                .map(Profile::by_name)
                .transpose()
                .map_err(|e| e.to_string())?;
            let hash = match profile {
                Some(p) => p.hash_from_name(name),
                None => Hash::from_name(name),
            }
            .map_err(|e| format!("{name}: {e}"))?;
            for (k, e) in keys.iter().zip(expect) {
                let got = match profile {
                    Some(p) => Ring::new(p, Some(hash)).key_hash(k.as_bytes()).ok(),
                    None => Some(hash.hash(k.as_bytes())),
                };
                if got.map(u64::from) != e.as_u64() {
                    bad.push(format!("{k:?}: got {got:?}, want {e}"));
                }
            }
        }
        "locate" | "sequence" => {
            let profile = Profile::by_name(v["profile"].as_str().ok_or("no profile")?)
                .map_err(|e| e.to_string())?;
            let hash = v["hash"]
                .as_str()
                .map(|h| profile.hash_from_name(h))
                .transpose()
                .map_err(|e| e.to_string())?;
            let servers = servers(v).map_err(|e| e.to_string())?;
            let options = options(v).map_err(|e| e.to_string())?;
            // options set after a one-pass build, and before a server-by-server one
            let fresh = Ring::with_servers(profile, hash, servers.clone())
                .and_then(|r| r.with_options(options))
                .map_err(|e| e.to_string())?;
            let mut stepwise = Ring::new(profile, hash)
                .with_options(options)
                .map_err(|e| e.to_string())?;
            for s in servers {
                stepwise.add(s).map_err(|e| e.to_string())?;
            }
            let n = v["n"].as_u64().unwrap_or(1) as usize;
            for (k, e) in keys.iter().zip(expect) {
                for ring in [&fresh, &stepwise] {
                    let got: Value = if kind == "sequence" {
                        match ring.failover(k.as_bytes(), n) {
                            Ok(list) => Value::from(
                                list.iter()
                                    .filter_map(|&i| ring.server(i))
                                    .map(|s| s.label.clone())
                                    .collect::<Vec<_>>(),
                            ),
                            Err(_) => Value::Null,
                        }
                    } else {
                        match ring.locate(k.as_bytes()) {
                            Ok(s) => Value::from(s.label.clone()),
                            Err(_) => Value::Null,
                        }
                    };
                    if &got != e {
                        bad.push(format!("{k:?}: got {got}, want {e}"));
                        break;
                    }
                }
            }
            // The batch path, on every MD5 engine this CPU has (scalar forced included).
            if kind == "locate" {
                for lanes in Lanes::ALL.into_iter().filter(|l| l.is_supported()) {
                    let mut got = vec![Value::Null; keys.len()];
                    fresh.locate_batch_with(lanes, keys.iter().map(|k| k.as_bytes()), |i, r| {
                        if let Some(s) = r.ok().and_then(|i| fresh.server(i)) {
                            got[i] = Value::from(s.label.clone());
                        }
                    });
                    for ((k, e), g) in keys.iter().zip(expect).zip(&got) {
                        if g != e {
                            bad.push(format!(
                                "{k:?} (batch, {}): got {g}, want {e}",
                                lanes.name()
                            ));
                            break;
                        }
                    }
                }
            }
        }
        other => return Err(format!("unknown kind {other}")),
    }
    Ok((keys.len(), bad))
}

#[test]
fn every_vector_file_matches_the_real_client() {
    let files = vector_files();
    let listed = manifest().len();
    assert_eq!(
        files.len(),
        listed,
        "tests/vectors/MANIFEST.tsv and the folder differ"
    );
    let mut failures = Vec::new();
    let mut total = 0;
    for f in &files {
        let name = listed_name(f);
        let parsed = std::fs::read_to_string(f)
            .map_err(|e| e.to_string())
            .and_then(|t| serde_json::from_str::<Value>(&t).map_err(|e| e.to_string()));
        let v = match parsed {
            Ok(v) => v,
            Err(e) => {
                failures.push(format!("{name}: {e}"));
                continue;
            }
        };
        match check_file(&v) {
            Ok((n, bad)) => {
                total += n;
                if !bad.is_empty() {
                    failures.push(format!(
                        "{name}: {} of {n} differ, e.g. {}",
                        bad.len(),
                        bad[..bad.len().min(3)].join("; ")
                    ));
                }
            }
            Err(e) => failures.push(format!("{name}: {e}")),
        }
    }
    println!("{} vector files, {total} keys", files.len());
    assert!(
        failures.is_empty(),
        "{} of {} vector files differ:\n{}",
        failures.len(),
        files.len(),
        failures.join("\n")
    );
}

/// Profiles no real client can vouch for, each with the reason.
const WITHOUT_CLIENT_FILES: &[(&str, &str)] = &[
    ("go-ketama", "dgryski/go-ketama is not in the Go module proxy; its upstream counts test is reproduced in core/tests/ring.rs"),
    ("jump", "beyond the ring: no memcached client ships jump over md5 keys"),
    ("rendezvous", "beyond the ring: no memcached client to compare with"),
    ("maglev", "beyond the ring: no memcached client to compare with"),
];

/// `MANIFEST.tsv` rows: file -> (kind, profile, generator).
fn manifest() -> std::collections::BTreeMap<String, (String, String, String)> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/vectors/MANIFEST.tsv");
    let text = std::fs::read_to_string(path).expect("tests/vectors/MANIFEST.tsv exists");
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            (
                f[0].to_string(),
                (f[1].to_string(), f[2].to_string(), f[4].to_string()),
            )
        })
        .collect()
}

/// The manifest lists exactly the files in the folder, with their real kind, profile and
/// generator, and every profile has a file from its real client (or a reason above).
#[test]
fn manifest_matches_the_folder_and_covers_every_profile() {
    let rows = manifest();
    let mut covered = std::collections::BTreeSet::new();
    for f in vector_files() {
        let name = listed_name(&f);
        let v: Value = serde_json::from_str(&std::fs::read_to_string(&f).unwrap()).unwrap();
        let (kind, profile, generator) = rows.get(&name).unwrap_or_else(|| {
            panic!("{name} is not in MANIFEST.tsv (run tests/vectors/manifest.py)")
        });
        assert_eq!(kind, v["kind"].as_str().unwrap_or("locate"), "{name}");
        assert_eq!(profile, v["profile"].as_str().unwrap_or(""), "{name}");
        assert_eq!(generator, v["generator"].as_str().unwrap_or(""), "{name}");
        assert!(
            generator.starts_with("tests/oracles/") || name.starts_with("libketama-"),
            "{name}: not from an oracle"
        );
        if kind != "hash" {
            if let Ok(p) = Profile::by_name(profile) {
                covered.insert(p.name);
            }
        }
    }
    assert_eq!(
        rows.len(),
        vector_files().len(),
        "MANIFEST.tsv lists files that are gone"
    );
    for p in Profile::all() {
        let excused = WITHOUT_CLIENT_FILES.iter().any(|(n, _)| *n == p.name);
        assert!(
            covered.contains(p.name) != excused,
            "{}: {}",
            p.name,
            if excused {
                "has client files now: drop it from WITHOUT_CLIENT_FILES"
            } else {
                "no vector file from its real client"
            }
        );
    }
}
