//! The shared bad-input matrix (tests/bad-input.json) through the Rust core and the
//! CLI's servers-file parser: each case gives its typed error (or succeeds), and a failed call
//! leaves the ring as it was. The same table is read by the C, Python and PHP tests.

use ketama_core::{Error, Profile, Ring, Server};
use serde_json::Value;

fn table() -> Value {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/bad-input.json");
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// A byte string of the table: a string, `{"hex"}` or `{"repeat", "times", "then"}`.
fn bytes(v: &Value) -> Vec<u8> {
    match v {
        Value::String(s) => s.as_bytes().to_vec(),
        Value::Object(o) if o.contains_key("hex") => {
            let h = o["hex"].as_str().unwrap();
            (0..h.len())
                .step_by(2)
                .map(|i| u8::from_str_radix(&h[i..i + 2], 16).unwrap())
                .collect()
        }
        Value::Object(o) => {
            let mut out = o["repeat"]
                .as_str()
                .unwrap()
                .repeat(o["times"].as_u64().unwrap() as usize)
                .into_bytes();
            if let Some(t) = o.get("then") {
                out.extend_from_slice(t.as_str().unwrap().as_bytes());
            }
            out
        }
        _ => panic!("not a byte string: {v}"),
    }
}

/// A label as Rust text (every label a Rust case uses is UTF-8).
fn text(v: &Value) -> String {
    String::from_utf8(bytes(v)).expect("a Rust case with a non-UTF-8 string")
}

/// `(label, weight)` for each entry of a servers list.
fn servers(v: &Value) -> Vec<(String, u32)> {
    match v {
        Value::Array(a) => a
            .iter()
            .map(|e| match e {
                Value::Array(p) => (text(&p[0]), p[1].as_u64().unwrap() as u32),
                other => (text(other), 1),
            })
            .collect(),
        Value::Object(o) => {
            let f = o["format"].as_str().unwrap();
            (1..=o["count"].as_u64().unwrap())
                .map(|i| (f.replace("{i}", &i.to_string()), 1))
                .collect()
        }
        _ => panic!("bad servers list {v}"),
    }
}

fn parse_all(list: &[(String, u32)]) -> Result<Vec<Server>, Error> {
    list.iter().map(|(l, w)| Server::parse(l, *w)).collect()
}

type Snapshot = (Vec<(String, u32)>, Vec<(u32, usize)>);

fn snapshot(r: &Ring) -> Snapshot {
    (
        r.servers().map(|s| (s.label.clone(), s.weight)).collect(),
        r.points().collect(),
    )
}

/// Runs one case; `Ok(())` or the error name.
fn run(case: &Value, base: &Value) -> Result<(), String> {
    let name = |e: Error| e.name().to_string();
    let profile_name = case.get("profile").map_or("libketama".into(), text);
    let profile = Profile::by_name(&profile_name).map_err(name)?;
    let hash = match case.get("hash") {
        Some(Value::Null) | None => None,
        Some(h) => Some(profile.hash_from_name(&text(h)).map_err(name)?),
    };
    if case["op"] == "create" {
        return Ok(());
    }
    let initial = servers(case.get("servers").unwrap_or(base));
    let mut ring = Ring::with_servers(profile, hash, parse_all(&initial).unwrap()).unwrap();
    let before = snapshot(&ring);
    let weight = || case["weight"].as_u64().unwrap() as u32;
    let result = match case["op"].as_str().unwrap() {
        "lookup" => ring.locate(&bytes(&case["key"])).map(|_| ()),
        "add" => Server::parse(&text(&case["label"]), weight()).and_then(|s| ring.add(s)),
        "remove" => ring.remove(&text(&case["label"])).map(|_| ()),
        "set_weight" => ring.set_weight(&text(&case["label"]), weight()),
        "add_many" => {
            let mut all = initial.clone();
            all.extend(servers(&case["add"]));
            parse_all(&all).and_then(|s| Ring::with_servers(profile, hash, s).map(|_| ()))
        }
        op => panic!("unknown op {op}"),
    };
    if result.is_err() {
        assert_eq!(snapshot(&ring), before, "{}: ring changed", case["id"]);
    }
    result.map_err(name)
}

fn runs_here(case: &Value) -> bool {
    case.get("langs")
        .and_then(Value::as_array)
        .is_none_or(|l| l.iter().any(|x| x == "rust"))
}

fn expected(case: &Value) -> Option<String> {
    let e = case
        .get("expect")
        .and_then(|x| x.get("rust"))
        .unwrap_or(&case["error"]);
    e.as_str().map(str::to_string)
}

#[test]
fn core_cases() {
    let t = table();
    let mut ran = 0;
    for case in t["cases"].as_array().unwrap() {
        if !runs_here(case) || case["op"] == "servers_file" {
            continue;
        }
        let got = run(case, &t["base"]).err();
        assert_eq!(got, expected(case), "case {}", case["id"]);
        ran += 1;
    }
    assert!(ran >= 30, "only {ran} cases ran");
}

/// Servers-file lines: the error names the file and the line (`names`).
#[test]
fn servers_file_cases() {
    let t = table();
    let mut ran = 0;
    for case in t["cases"].as_array().unwrap() {
        if !runs_here(case) || case["op"] != "servers_file" {
            continue;
        }
        let err = ketama_cli::servers::parse("servers.txt", &bytes(&case["text"]))
            .err()
            .unwrap_or_else(|| panic!("case {} accepted", case["id"]));
        let want = case["names"].as_str().unwrap();
        assert!(
            err.0.contains(want),
            "case {}: {:?} lacks {want:?}",
            case["id"],
            err.0
        );
        ran += 1;
    }
    assert!(ran >= 5);
}

/// Every error name the table expects of Rust is a core error name.
#[test]
fn names_are_core_errors() {
    let t = table();
    for case in t["cases"].as_array().unwrap() {
        if case["op"] == "servers_file" {
            continue;
        }
        if let (true, Some(e)) = (runs_here(case), expected(case)) {
            assert!(
                Error::ALL.iter().any(|x| x.name() == e),
                "case {}: {e} is not an Error name",
                case["id"]
            );
        }
    }
}
