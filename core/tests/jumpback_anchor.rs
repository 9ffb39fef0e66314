//! JumpBackAnchorHash against hash4j: every operation of `tests/vectors/jumpback-anchor/
//! hash4j.json` (recorded from hash4j 0.30.0 by `tests/oracles/jumpback-anchor/`) replayed on
//! [`JumpBackAnchor`], answer by answer, and every recorded state read back.

use ketama_core::alt::jumpback_anchor::{BadState, JumpBackAnchor};
use ketama_core::Error;
use serde_json::Value;

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn unhex(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
        .collect()
}

#[test]
fn matches_hash4j() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../tests/vectors/jumpback-anchor/hash4j.json"
    );
    let doc: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let (mut gets, mut removes, mut states) = (0, 0, 0);
    for (s, seq) in doc["sequences"].as_array().unwrap().iter().enumerate() {
        let mut set = JumpBackAnchor::new();
        for (i, row) in seq.as_array().unwrap().iter().enumerate() {
            let row = row.as_array().unwrap();
            let op = row[0].as_str().unwrap();
            let want = row.last().unwrap();
            let at = format!("sequence {s} row {i}: {row:?}");
            match op {
                "add" => {
                    let want = want.as_str().unwrap().parse::<u32>().unwrap();
                    assert_eq!(set.add_bucket().unwrap(), want, "{at}");
                }
                "remove" => {
                    let b = row[1].as_u64().unwrap() as u32;
                    assert_eq!(
                        set.remove_bucket(b).to_string(),
                        want.as_str().unwrap(),
                        "{at}"
                    );
                    removes += 1;
                }
                "get" => {
                    let h: u64 = row[1].as_str().unwrap().parse().unwrap();
                    let got = match set.bucket(h) {
                        Ok(b) => b.to_string(),
                        Err(Error::EmptyRing) => "empty".to_string(),
                        Err(e) => panic!("{at}: {e}"),
                    };
                    assert_eq!(got, want.as_str().unwrap(), "{at}");
                    gets += 1;
                }
                "state" => {
                    let want = want.as_str().unwrap();
                    assert_eq!(hex(&set.state()), want, "{at}");
                    // hash4j's setState rebuilds the same placement.
                    let back = JumpBackAnchor::from_state(&unhex(want)).unwrap();
                    for k in 0..50u64 {
                        let k = k.wrapping_mul(0x9E37_79B9_7F4A_7C15);
                        assert_eq!(back.bucket(k), set.bucket(k), "{at}");
                    }
                    states += 1;
                }
                _ => panic!("{at}: unknown operation"),
            }
        }
    }
    assert!(
        gets > 3000 && removes > 200 && states > 50,
        "{gets} {removes} {states}"
    );
}

#[test]
fn bad_states_are_refused() {
    for bad in [
        &[][..],
        &[1, 0, 0][..],
        &[0xff, 0xff, 0xff, 0xff][..],
        &[2, 0, 0, 0, 2, 0, 0, 0][..],
        &[2, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0][..],
    ] {
        assert_eq!(
            JumpBackAnchor::from_state(bad).err(),
            Some(BadState),
            "{bad:?}"
        );
    }
}
