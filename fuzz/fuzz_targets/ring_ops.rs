//! A random sequence of add / remove / set_weight / lookup on a `ketama_core::Ring`, checked
//! after every step against a reference model: the list of (label, weight) in insertion
//! order. For every profile whose removal is `OwnPoints` (a server's points depend on that
//! server alone), the ring after any sequence must equal `Ring::with_servers(model)`: same
//! servers in the same order, same points, same answers; a refused step leaves it unchanged.
#![no_main]

use ketama_core::profile::Removal;
use ketama_core::{Error, Profile, Ring, Server};
use libfuzzer_sys::fuzz_target;

const LABELS: [&str; 12] = [
    "10.0.0.1:11211",
    "10.0.0.2:11211",
    "10.0.0.3:11212",
    "10.0.0.4",
    "cache-a:11211",
    "cache-b:11211",
    "cache-c",
    "[::1]:11211",
    "[fe80::2]:11300",
    "192.168.1.10:6379",
    "m1.example:1",
    "m2.example:65535",
];

/// Everything observable about a ring that must match the reference.
fn snapshot(ring: &Ring) -> (Vec<(String, u32)>, Vec<(u32, String)>) {
    let servers = ring
        .servers()
        .map(|s| (s.label.clone(), s.weight))
        .collect();
    let points = ring
        .points()
        .map(|(pos, i)| (pos, ring.server(i).unwrap().label.clone()))
        .collect();
    (servers, points)
}

fn reference(ring: &Ring, model: &[(usize, u32)]) -> Result<Ring, Error> {
    Ring::with_servers(
        ring.profile(),
        Some(ring.hash()),
        model
            .iter()
            .map(|&(l, w)| Server::parse(LABELS[l], w).unwrap()),
    )
}

fuzz_target!(|data: &[u8]| {
    let Some((&pick, mut ops)) = data.split_first() else {
        return;
    };
    let profiles: Vec<&'static Profile> = Profile::all()
        .iter()
        .copied()
        .filter(|p| p.removal == Removal::OwnPoints)
        .collect();
    let profile = profiles[pick as usize % profiles.len()];
    let mut ring = Ring::new(profile, None);
    let mut model: Vec<(usize, u32)> = Vec::new();
    while let [op, arg, rest @ ..] = ops {
        ops = rest;
        let label = (*arg as usize) % LABELS.len();
        let weight = u32::from(*arg >> 4) % 6;
        let at = model.iter().position(|&(l, _)| l == label);
        let before = snapshot(&ring);
        let candidate: Option<Vec<(usize, u32)>> = match op % 4 {
            0 => {
                let got = ring.add(Server::parse(LABELS[label], weight).unwrap());
                if at.is_some() {
                    // Refused; a bad weight may be named before the duplicate.
                    assert!(
                        matches!(got, Err(Error::DuplicateServer | Error::BadWeight)),
                        "{got:?}"
                    );
                    None
                } else {
                    let mut m = model.clone();
                    m.push((label, weight));
                    match reference(&ring, &m) {
                        Ok(_) => {
                            assert_eq!(got, Ok(()), "add refused what a build accepts");
                            Some(m)
                        }
                        Err(e) => {
                            assert_eq!(got, Err(e), "add and build disagree");
                            None
                        }
                    }
                }
            }
            1 => {
                let got = ring.remove(LABELS[label]).map(|s| s.label);
                match at {
                    None => {
                        assert_eq!(got, Err(Error::MissingServer));
                        None
                    }
                    Some(i) => {
                        assert_eq!(got.as_deref(), Ok(LABELS[label]));
                        let mut m = model.clone();
                        m.remove(i);
                        Some(m)
                    }
                }
            }
            2 => {
                let got = ring.set_weight(LABELS[label], weight);
                match at {
                    None => {
                        assert_eq!(got, Err(Error::MissingServer));
                        None
                    }
                    Some(i) => {
                        let mut m = model.clone();
                        m[i].1 = weight;
                        match reference(&ring, &m) {
                            Ok(_) => {
                                assert_eq!(got, Ok(()), "set_weight refused what a build accepts");
                                Some(m)
                            }
                            Err(e) => {
                                assert_eq!(got, Err(e));
                                None
                            }
                        }
                    }
                }
            }
            _ => {
                let key = &rest[..rest.len().min(usize::from(*arg % 16))];
                let expect = reference(&ring, &model).expect("model builds");
                let got = ring.locate(key).map(|s| s.label.clone());
                let want = expect.locate(key).map(|s| s.label.clone());
                assert_eq!(got, want, "lookup differs from the reference ring");
                None
            }
        };
        match candidate {
            Some(m) => model = m,
            None => assert_eq!(snapshot(&ring), before, "a refused step changed the ring"),
        }
        let expect = reference(&ring, &model).expect("model builds");
        assert_eq!(snapshot(&ring), snapshot(&expect), "ring differs from the reference");
    }
});
