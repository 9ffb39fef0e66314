//! Every vector file in `tests/vectors/` (recorded from the real clients) must match 100%.
//! Rings are built twice, in one pass and server by server, and both must agree with the
//! client on every key.

use std::path::PathBuf;

use ketama_core::{Error, Hash, Profile, Ring, Server};
use serde_json::Value;

fn vector_files() -> Vec<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/vectors");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("tests/vectors exists")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    files
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
            let fresh =
                Ring::with_servers(profile, hash, servers.clone()).map_err(|e| e.to_string())?;
            let mut stepwise = Ring::new(profile, hash);
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
        }
        other => return Err(format!("unknown kind {other}")),
    }
    Ok((keys.len(), bad))
}

#[test]
fn every_vector_file_matches_the_real_client() {
    let files = vector_files();
    assert!(files.len() >= 4, "vector files missing");
    let mut failures = Vec::new();
    let mut total = 0;
    for f in &files {
        let name = f
            .file_name()
            .unwrap_or_default()
            .to_string_lossy()
            .into_owned();
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
