//! Batch lookups and the MD5 lanes against the one-key paths, on arbitrary keys: for every
//! continuum profile, on a small ring (a few servers) and a large one (over 65,536 points:
//! the coarse index and the batches' fetching ahead), `Ring::locate_batch_with` on every MD5
//! engine gives each key exactly what `Ring::locate_index` gives it; and every engine's
//! `digest_many` equals the scalar digest of each message.
#![no_main]

use std::sync::{Mutex, OnceLock};

use ketama_core::hash::md5::{self, lanes, lanes::Lanes};
use ketama_core::{Profile, Ring, Server};
use libfuzzer_sys::fuzz_target;

fn servers(n: usize) -> Vec<Server> {
    (0..n)
        .map(|i| {
            Server::parse(
                &format!("10.{}.{}.{}:11211", i >> 16 & 255, i >> 8 & 255, i & 255),
                1 + i as u32 % 3,
            )
            .unwrap()
        })
        .collect()
}

/// The continuum profiles, and each one's large ring once built (built on first use).
fn large(i: usize) -> Option<Ring> {
    static RINGS: OnceLock<Mutex<Vec<Option<Option<Ring>>>>> = OnceLock::new();
    let rings = RINGS.get_or_init(|| Mutex::new(vec![None; ring_profiles().len()]));
    let mut rings = rings.lock().unwrap();
    rings[i]
        .get_or_insert_with(|| {
            Ring::with_servers(ring_profiles()[i], None, servers(700))
                .ok()
                .filter(|r| r.point_count() > 1 << 16)
        })
        .clone()
}

fn ring_profiles() -> Vec<&'static Profile> {
    Profile::all()
        .iter()
        .copied()
        .filter(|p| p.is_ring())
        .collect()
}

fuzz_target!(|data: &[u8]| {
    let [pick, size, rest @ ..] = data else {
        return;
    };
    // keys: a length byte (up to 79), then that many bytes
    let mut keys: Vec<&[u8]> = Vec::new();
    let mut at = rest;
    while let [len, tail @ ..] = at {
        let n = (*len as usize % 80).min(tail.len());
        keys.push(&tail[..n]);
        at = &tail[n..];
    }
    let mut digests = vec![[0u8; 16]; keys.len()];
    for l in Lanes::ALL {
        lanes::digest_many(l, &keys, &mut digests);
        for (k, d) in keys.iter().zip(&digests) {
            assert_eq!(*d, md5::digest(k), "{l:?} {k:?}");
        }
    }
    let profiles = ring_profiles();
    let i = *pick as usize % profiles.len();
    let ring = if size & 1 == 1 {
        match large(i) {
            Some(r) => r,
            None => return,
        }
    } else {
        match Ring::with_servers(profiles[i], None, servers(1 + *size as usize / 2 % 8)) {
            Ok(r) => r,
            Err(_) => return,
        }
    };
    let single: Vec<_> = keys.iter().map(|k| ring.locate_index(k)).collect();
    for l in Lanes::ALL {
        let mut got = vec![None; keys.len()];
        ring.locate_batch_with(l, keys.iter().copied(), |j, r| got[j] = Some(r));
        for (j, (g, s)) in got.iter().zip(&single).enumerate() {
            assert_eq!(
                g.as_ref(),
                Some(s),
                "{} {l:?} key {:?}",
                profiles[i].name,
                keys[j]
            );
        }
    }
});
