//! `tests/vectors/extra/*.json` of kind `dead` (recorded from the real clients with servers
//! that do not answer): with the listed servers down, `Ring::locate_alive` must pick the
//! server the client picked, and refuse exactly where the client gave up.

use std::path::PathBuf;

use ketama_core::{Profile, Ring, Server};
use serde_json::Value;

fn dead_files() -> Vec<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/vectors/extra");
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("tests/vectors/extra exists")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .filter(|p| {
            let v: Value = serde_json::from_str(&std::fs::read_to_string(p).unwrap()).unwrap();
            v["kind"] == "dead"
        })
        .collect();
    files.sort();
    files
}

#[test]
fn dead_servers_as_the_real_clients_fail_over() {
    let files = dead_files();
    assert!(
        files.len() >= 12,
        "dead-server recordings missing: {}",
        files.len()
    );
    let mut failures = Vec::new();
    for f in &files {
        let v: Value = serde_json::from_str(&std::fs::read_to_string(f).unwrap()).unwrap();
        let profile = Profile::by_name(v["profile"].as_str().unwrap()).unwrap();
        let servers: Vec<Server> = v["servers"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| {
                let w = s["weight"].as_u64().unwrap_or(1) as u32;
                Server::parse(s["label"].as_str().unwrap(), w).unwrap()
            })
            .collect();
        let ring = Ring::with_servers(profile, None, servers).unwrap();
        let dead: Vec<usize> = v["dead"]
            .as_array()
            .unwrap()
            .iter()
            .map(|l| {
                ring.servers()
                    .position(|s| s.label == l.as_str().unwrap())
                    .unwrap()
            })
            .collect();
        let keys = v["keys"].as_array().unwrap();
        let expect = v["expect"].as_array().unwrap();
        let mut bad = 0;
        for (k, e) in keys.iter().zip(expect) {
            let got = ring
                .locate_alive(k.as_str().unwrap().as_bytes(), &dead)
                .ok()
                .and_then(|i| ring.server(i))
                .map(|s| Value::from(s.label.clone()))
                .unwrap_or(Value::Null);
            if &got != e {
                if bad < 3 {
                    failures.push(format!("{}: {k}: got {got}, want {e}", f.display()));
                }
                bad += 1;
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
