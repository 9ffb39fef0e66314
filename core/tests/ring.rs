//! Ring behaviour: incremental changes equal fresh builds, the indexed search equals a naive
//! scan, every error is typed, and libketama's published golden output is reproduced.

use ketama_core::{Error, Hash, Profile, Ring, Server, SharedRing};
use md5::{Digest, Md5};
use proptest::prelude::*;

fn server(i: u32, weight: u32) -> Server {
    Server::parse(
        &format!(
            "10.{}.{}.{}:{}",
            i / 65536 % 256,
            i / 256 % 256,
            i % 256,
            11211 + i % 3
        ),
        weight,
    )
    .unwrap()
}

fn labels_for(ring: &Ring, keys: &[String]) -> Vec<Result<String, Error>> {
    keys.iter()
        .map(|k| ring.locate(k.as_bytes()).map(|s| s.label.clone()))
        .collect()
}

fn points(ring: &Ring) -> Vec<(u32, String)> {
    ring.points()
        .map(|(p, i)| (p, ring.server(i).unwrap().label.clone()))
        .collect()
}

/// The hashes each profile is checked with: its default, and the 15-bit `crc`, whose tiny
/// space forces equal points wherever point strings are hashed with the key hash.
const HASHES: [Option<Hash>; 2] = [None, Some(Hash::Crc)];

/// Servers `0..n` with weights, half of them named, two with the same name (so every point
/// of theirs collides on the profiles that hash names).
fn fleet(weights: &[u32]) -> Vec<Server> {
    weights
        .iter()
        .enumerate()
        .map(|(i, &w)| {
            let name = match i % 4 {
                1 => Some("dup".to_string()),
                3 => Some(format!("node{i}")),
                _ => None,
            };
            server(i as u32, w).with_name(name.as_deref())
        })
        .collect()
}

/// What a client's reference implementation would answer, by a linear scan of the
/// continuum the ring exposes ([`Ring::points`]) with the profile's rules written plainly.
fn naive(ring: &Ring, key: &[u8]) -> Result<usize, Error> {
    use ketama_core::profile::{Bound, KeyRewrite, Placement, PointHash, Ties};
    if ring.is_empty() {
        return Err(Error::EmptyRing);
    }
    let p = ring.profile();
    let h = ring.key_hash(key)?;
    if p.single_shortcut && ring.len() == 1 {
        return Ok(0);
    }
    let pts: Vec<(u32, usize)> = ring.points().collect();
    if pts.is_empty() {
        return Err(Error::NoServer);
    }
    // The owner of the run of equal positions starting at i.
    let owner = |i: usize| {
        let v = pts[i].0;
        let mut run: Vec<usize> = pts.iter().filter(|x| x.0 == v).map(|x| x.1).collect();
        if p.ties == Ties::SortedList && run.len() > 1 {
            run.sort_by(|&a, &b| {
                let (x, y) = (ring.node_string(a).unwrap(), ring.node_string(b).unwrap());
                x.encode_utf16().cmp(y.encode_utf16())
            });
            return run[v as usize % run.len()];
        }
        run[0]
    };
    let first_ge = |x: u32| pts.iter().position(|q| q.0 >= x).unwrap_or(0);
    let first_of = |v: u32| pts.iter().position(|q| q.0 == v).unwrap();
    Ok(match p.placement {
        Placement::Ring(Bound::LowerBound) => owner(first_ge(h)),
        Placement::Ring(Bound::LowerBoundZeroLast) if h == 0 => {
            owner(first_of(pts[pts.len() - 1].0))
        }
        Placement::Ring(Bound::LowerBoundZeroLast) => owner(first_ge(h)),
        Placement::Ring(Bound::UpperBound) if p.points == PointHash::Md5Wide => {
            assert_eq!(p.key, KeyRewrite::None);
            let d: [u8; 16] = Md5::digest(key).into();
            let kw = u128::from_be_bytes(d);
            let wide = ring.wide_points();
            pts[wide.iter().position(|&w| w > kw).unwrap_or(0)].1
        }
        Placement::Ring(Bound::UpperBound) => owner(pts.iter().position(|q| q.0 > h).unwrap_or(0)),
        Placement::Ring(Bound::Floor) => match pts.iter().rposition(|q| q.0 <= h) {
            Some(i) => owner(first_of(pts[i].0)),
            None => {
                let mut distinct: Vec<u32> = pts.iter().map(|q| q.0).collect();
                distinct.dedup();
                let probe = distinct.len() as u32 - 1;
                match pts.iter().position(|q| q.0 == probe) {
                    Some(i) => owner(i),
                    None => return Err(Error::NoServer),
                }
            }
        },
        // 64-bit positions (Jedis): the key's 64-bit hash, in signed order.
        Placement::Ring(Bound::LowerBoundSigned) if p.points == PointHash::KeyHash64 => {
            assert_eq!(p.key, KeyRewrite::None);
            let k = ring.hash().hash64(key) as i64;
            let signed = |w: u128| ((w >> 64) as u64 ^ (1 << 63)) as i64;
            let wide = ring.wide_points();
            let at = wide.iter().position(|&w| signed(w) >= k).unwrap_or(0);
            pts[at].1
        }
        // Positions are stored sign-flipped; the key hash is flipped the same way.
        Placement::Ring(Bound::LowerBoundSigned) => owner(first_ge(h ^ 0x8000_0000)),
        Placement::Ring(Bound::UpperBoundClamp) => match pts.iter().position(|q| q.0 > h) {
            Some(i) => owner(i),
            None => owner(first_of(pts[pts.len() - 1].0)),
        },
        Placement::Ring(Bound::LowerBoundBelowLast) => match pts.iter().position(|q| q.0 >= h) {
            Some(0) if pts[0].0 != h => owner(first_of(pts[pts.len() - 1].0)),
            Some(i) => owner(i),
            None => owner(0),
        },
        Placement::Ring(Bound::FloorWrap) => match pts.iter().rposition(|q| q.0 <= h) {
            Some(i) => owner(first_of(pts[i].0)),
            None => owner(first_of(pts[pts.len() - 1].0)),
        },
        Placement::PeclBuckets => {
            let at = (h % 1024).wrapping_mul(0xFFFF_FFFF / 1024);
            pts[first_ge(at)].1
        }
        _ => unreachable!("not a continuum"),
    })
}

/// Large continua (over 65,536 points: the coarse index, its wide windows and the
/// batches' fetching ahead) answer as the naive scan does, one key at a time and in batches
/// on every MD5 engine, for every continuum profile and both of its test hashes.
#[test]
fn large_rings_search_equals_naive_scan() {
    use ketama_core::hash::md5::lanes::Lanes;
    let keys: Vec<String> = (0..24).map(|i| format!("large:{i}")).collect();
    let refs: Vec<&[u8]> = keys.iter().map(|k| k.as_bytes()).collect();
    let many: Vec<String> = (0..2_000).map(|i| format!("k{i}")).collect();
    let many: Vec<&[u8]> = many.iter().map(|k| k.as_bytes()).collect();
    let mut checked = 0;
    for p in Profile::all().iter().filter(|p| p.is_ring()) {
        for h in HASHES {
            let weights: Vec<u32> = (0..700).map(|i| 1 + i % 2).collect();
            let Ok(ring) = Ring::with_servers(p, h, fleet(&weights)) else {
                continue;
            };
            if ring.point_count() <= 1 << 16 {
                continue;
            }
            checked += 1;
            for k in &refs {
                assert_eq!(
                    ring.locate_index(k),
                    naive(&ring, k),
                    "{} {h:?} key {k:?}",
                    p.name
                );
            }
            let single: Vec<_> = many.iter().map(|k| ring.locate_index(k)).collect();
            for lanes in Lanes::ALL {
                let mut got = vec![Err(Error::NoServer); many.len()];
                ring.locate_batch_with(lanes, many.iter().copied(), |i, r| got[i] = r);
                assert_eq!(got, single, "{} {h:?} {lanes:?}", p.name);
            }
        }
    }
    assert!(checked >= 40, "only {checked} large rings");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(16))]

    /// Removing a server, re-adding it, changing a weight and adding one give exactly the
    /// ring a fresh build of the resulting server list gives, for every profile, with forced
    /// point collisions (equal names, a 15-bit key hash).
    #[test]
    fn incremental_changes_equal_fresh_builds(
        weights in proptest::collection::vec(1u32..6, 2..10),
        victim in any::<prop::sample::Index>(),
        new_weight in 1u32..6,
    ) {
        let keys: Vec<String> = (0..300).map(|i| format!("key-{i}")).collect();
        for p in Profile::all() {
            if p.removal == ketama_core::profile::Removal::ClearsItsPositions {
                continue; // flexihash: removal unsets shared positions (its own test below)
            }
            for h in HASHES {
                let name = p.name;
                let servers = fleet(&weights);
                let Ok(mut ring) = Ring::with_servers(p, h, servers.clone()) else {
                    continue; // e.g. xmemcached-nginx refuses host names: not this property
                };
                let gone = victim.index(servers.len());
                ring.remove(&servers[gone].label).unwrap();
                let mut rest = servers.clone();
                let back = rest.remove(gone);
                let fresh = Ring::with_servers(p, h, rest.clone()).unwrap();
                prop_assert_eq!(points(&ring), points(&fresh), "{} {:?} after remove", name, h);
                prop_assert_eq!(labels_for(&ring, &keys), labels_for(&fresh, &keys), "{} {:?} after remove", name, h);

                ring.set_weight(&rest[0].label, new_weight).unwrap();
                rest[0].weight = new_weight;
                ring.add(back.clone()).unwrap();
                rest.push(back);
                ring.add(server(999, new_weight)).unwrap();
                rest.push(server(999, new_weight));
                let fresh = Ring::with_servers(p, h, rest).unwrap();
                prop_assert_eq!(points(&ring), points(&fresh), "{} {:?} after re-add + set_weight + add", name, h);
                prop_assert_eq!(labels_for(&ring, &keys), labels_for(&fresh, &keys), "{} {:?} after re-add + set_weight + add", name, h);
            }
        }
    }

    /// The same through [`SharedRing`], whose changes write into the arrays of the snapshot
    /// the previous change retired: a change, its undo and a second change, each equal to a
    /// fresh build of its server list, for every profile.
    #[test]
    fn shared_changes_in_reused_memory_equal_fresh_builds(
        weights in proptest::collection::vec(1u32..6, 2..10),
        victim in any::<prop::sample::Index>(),
    ) {
        for p in Profile::all() {
            if p.removal == ketama_core::profile::Removal::ClearsItsPositions {
                continue; // flexihash: see incremental_changes_equal_fresh_builds
            }
            for h in HASHES {
                let servers = fleet(&weights);
                let Ok(ring) = Ring::with_servers(p, h, servers.clone()) else {
                    continue;
                };
                let shared = SharedRing::new(ring, ());
                let gone = victim.index(servers.len());
                let mut rest = servers.clone();
                let back = rest.remove(gone);
                for round in 0..3 {
                    shared.remove(&back.label).unwrap();
                    let fresh = Ring::with_servers(p, h, rest.clone()).unwrap();
                    prop_assert_eq!(points(&shared.load().ring), points(&fresh), "{} {:?} remove {}", p.name, h, round);
                    shared.add(back.clone()).unwrap();
                    let mut with_back = rest.clone();
                    with_back.push(back.clone());
                    let fresh = Ring::with_servers(p, h, with_back).unwrap();
                    prop_assert_eq!(points(&shared.load().ring), points(&fresh), "{} {:?} add {}", p.name, h, round);
                    // A fresh build published the same way (into reused memory too).
                    shared.update(|_, _| Ring::with_servers(p, h, servers.clone()).map(|r| (r, ()))).unwrap();
                    let fresh = Ring::with_servers(p, h, servers.clone()).unwrap();
                    prop_assert_eq!(points(&shared.load().ring), points(&fresh), "{} {:?} rebuilt {}", p.name, h, round);
                }
            }
        }
    }

    /// Every continuum profile's indexed search (and tie rules) equals a plain linear scan.
    #[test]
    fn indexed_search_equals_naive_scan(
        weights in proptest::collection::vec(1u32..4, 1..16),
        keys in proptest::collection::vec(any::<u32>(), 40),
    ) {
        for p in Profile::all().iter().filter(|p| p.is_ring()) {
            for h in HASHES {
                let Ok(ring) = Ring::with_servers(p, h, fleet(&weights)) else { continue };
                for k in &keys {
                    let key = k.to_string();
                    prop_assert_eq!(ring.locate_index(key.as_bytes()), naive(&ring, key.as_bytes()), "{} {:?} key {}", p.name, h, key);
                }
            }
        }
    }

    /// Hashes never panic and never allocate-fail on arbitrary bytes, including invalid UTF-8.
    #[test]
    fn hashes_accept_any_bytes(key in proptest::collection::vec(any::<u8>(), 0..600)) {
        for h in Hash::all() {
            let _ = h.hash(&key);
        }
    }
}

/// flexihash `removeTarget` unsets every position of the removed target, also where a later
/// target had won it: with targets `server1` and `server11`, `server1` + `10` and
/// `server11` + `0` are the same string, so removing `server1` takes those positions from
/// `server11` as well. Without such collisions removal equals a fresh build.
#[test]
fn flexihash_removal_unsets_shared_positions() {
    let p = Profile::by_name("flexihash").unwrap();
    let labels = ["server1", "server11", "server2"];
    let mut ring =
        Ring::with_servers(p, None, labels.map(|l| Server::parse(l, 1).unwrap())).unwrap();
    let shared: Vec<u32> = ["server110", "server111"]
        .iter()
        .map(|s| Hash::Crc32a.hash(s.as_bytes()))
        .collect();
    let owner_at = |ring: &Ring, v: u32| {
        ring.points()
            .filter(|&(p, _)| p == v)
            .map(|(_, i)| ring.server(i).unwrap().label.clone())
            .collect::<Vec<_>>()
    };
    assert_eq!(
        owner_at(&ring, shared[0])[0],
        "server11",
        "the later target wins the shared position"
    );
    ring.remove("server1").unwrap();
    assert!(owner_at(&ring, shared[0]).is_empty() && owner_at(&ring, shared[1]).is_empty());
    assert_eq!(ring.point_count(), 2 * 64 - 10);

    let others = ["10.0.0.1:11211", "10.0.0.2:11211", "10.0.0.3:11211"];
    let mut ring =
        Ring::with_servers(p, None, others.map(|l| Server::parse(l, 1).unwrap())).unwrap();
    ring.remove(others[1]).unwrap();
    let fresh = Ring::with_servers(
        p,
        None,
        [others[0], others[2]].map(|l| Server::parse(l, 1).unwrap()),
    )
    .unwrap();
    assert_eq!(points(&ring), points(&fresh));
}

#[test]
fn every_error_is_typed() {
    let p = |n: &str| Profile::by_name(n).unwrap();
    assert_eq!(Profile::by_name("nope").unwrap_err(), Error::UnknownProfile);
    assert_eq!(Hash::from_name("nope").unwrap_err(), Error::UnknownHash);
    assert_eq!(Hash::from_name("crc32").unwrap_err(), Error::AmbiguousHash);
    assert_eq!(p("twemproxy").hash_from_name("crc32"), Ok(Hash::Crc));
    assert_eq!(p("pecl-memcache").hash_from_name("crc32"), Ok(Hash::Crc32a));

    let mut ring = Ring::new(p("libketama"), None);
    assert_eq!(ring.locate(b"k").unwrap_err(), Error::EmptyRing);
    assert_eq!(ring.add(server(1, 0)).unwrap_err(), Error::BadWeight);
    ring.add(server(1, 1)).unwrap();
    assert_eq!(ring.add(server(1, 5)).unwrap_err(), Error::DuplicateServer);
    assert_eq!(ring.remove("10.9.9.9:1").unwrap_err(), Error::MissingServer);
    assert_eq!(Server::parse("bad label", 1).unwrap_err(), Error::BadLabel);

    let mut x = Ring::new(p("xmemcached"), None);
    x.add(server(1, 1)).unwrap();
    assert_eq!(x.locate(b"").unwrap_err(), Error::KeyRejected);
    let mut nginx = Ring::new(p("xmemcached-nginx"), None);
    assert_eq!(
        nginx
            .add(Server::parse("cache1.lan:11211", 1).unwrap())
            .unwrap_err(),
        Error::Unsupported
    );

    // A weight that would need billions of points is refused, not allocated.
    let mut huge = Ring::new(p("xmemcached"), None);
    assert_eq!(
        huge.add(server(1, u32::MAX)).unwrap_err(),
        Error::TooManyPoints
    );
    assert_eq!(huge.len(), 0);
    assert_eq!(
        Ring::with_servers(p("pecl-memcache"), None, [server(1, 1 << 20)]).unwrap_err(),
        Error::TooManyPoints
    );
    assert!(Ring::with_servers(p("libketama"), None, [server(1, u32::MAX), server(2, 1)]).is_ok());

    let mut lm = Ring::new(p("libmemcached"), None);
    lm.add(server(1, 1)).unwrap();
    assert_eq!(lm.locate(&[b'k'; 251]).unwrap_err(), Error::KeyRejected);
    assert!(lm.locate(&[b'k'; 250]).is_ok());

    // The seed class falls off its list below its smallest point and returns null.
    let seed = Ring::with_servers(p("flexihash-seed"), None, [server(1, 1)]).unwrap();
    let below = (0..10_000)
        .map(|i| i.to_string())
        .find(|k| seed.locate(k.as_bytes()).is_err());
    assert_eq!(
        below.map(|k| seed.locate(k.as_bytes()).unwrap_err()),
        Some(Error::NoServer)
    );
}

#[test]
fn failed_updates_leave_the_ring_unchanged() {
    let p = Profile::by_name("twemproxy").unwrap();
    let mut ring = Ring::with_servers(p, None, (0..5).map(|i| server(i, 1))).unwrap();
    let before = points(&ring);
    assert_eq!(ring.add(server(9, 0)).unwrap_err(), Error::BadWeight);
    assert_eq!(ring.add(server(2, 3)).unwrap_err(), Error::DuplicateServer);
    assert_eq!(
        ring.set_weight("10.0.0.2:11213", 0).unwrap_err(),
        Error::BadWeight
    );
    assert_eq!(points(&ring), before);
}

#[test]
fn locate_n_gives_distinct_servers_in_ring_order() {
    for p in Profile::all() {
        let name = &p.name;
        let ring = Ring::with_servers(p, None, (0..6).map(|i| server(i, 1))).unwrap();
        for k in ["a", "b", "user:1"] {
            let Ok(list) = ring.locate_n(k.as_bytes(), 10) else {
                continue;
            };
            let mut labels: Vec<&str> = list.iter().map(|s| s.label.as_str()).collect();
            assert_eq!(
                labels[0],
                ring.locate(k.as_bytes()).unwrap().label,
                "{name}"
            );
            labels.sort_unstable();
            labels.dedup();
            assert_eq!(labels.len(), list.len(), "{name}: duplicates");
            if *name != "flexihash-seed" {
                assert_eq!(list.len(), 6, "{name}");
            }
        }
    }
}

/// libketama's own `ketama_test` over its bundled `ketama.servers` prints `ketama_error()`
/// (an empty line), then `"<ketama_hashi(i)> <point> <address>"` for i in 0..1000000; the MD5
/// of that output is published upstream (docs/client-notes.md section 5).
#[test]
fn libketama_published_golden_output() {
    let memories = [600u32, 300, 200, 350, 1000, 800, 950, 100];
    let servers = memories
        .iter()
        .enumerate()
        .map(|(i, &m)| Server::parse(&format!("10.0.1.{}:11211", i + 1), m).unwrap());
    let ring = Ring::with_servers(Profile::by_name("libketama").unwrap(), None, servers).unwrap();
    let mut md5 = Md5::new();
    md5.update(b"\n");
    let mut line = String::new();
    for i in 0..1_000_000u32 {
        let key = i.to_string();
        let (point, owner) = ring.locate_point(key.as_bytes()).unwrap();
        line.clear();
        use std::fmt::Write;
        writeln!(
            line,
            "{} {} {}",
            Hash::Md5.hash(key.as_bytes()),
            point,
            ring.server(owner).unwrap().label
        )
        .unwrap();
        md5.update(line.as_bytes());
    }
    let hex: String = md5.finalize().iter().map(|b| format!("{b:02x}")).collect();
    assert_eq!(hex, "5672b131391f5aa2b280936aec1eea74");
}

/// go-ketama's upstream `TestKetama` (generated with Perl Algorithm::ConsistentHash::Ketama):
/// buckets `server0..server9` weight 1, keys `foo0..foo99999`, published hits per server.
/// go-ketama itself is not in the Go module proxy (see tests/oracles/go/README.md).
#[test]
fn go_ketama_upstream_counts() {
    let servers = (0..10).map(|i| Server::parse(&format!("server{i}"), 1).unwrap());
    let ring = Ring::with_servers(Profile::by_name("go-ketama").unwrap(), None, servers).unwrap();
    let mut hits = [0u32; 10];
    for i in 0..100_000 {
        hits[ring.locate_index(format!("foo{i}").as_bytes()).unwrap()] += 1;
    }
    assert_eq!(
        hits,
        [9478, 9029, 10863, 10011, 9734, 9444, 10756, 10021, 10762, 9902]
    );
}

#[derive(Debug, Clone)]
enum Op {
    Add(String, u32),
    Remove(String),
    Weight(String, u32),
    Locate(Vec<u8>),
}

fn op() -> impl Strategy<Value = Op> {
    let label = prop_oneof![
        "[a-z0-9.]{1,12}:[0-9]{1,5}",
        "\\[[0-9a-f:]{2,12}\\]:[0-9]{1,6}",
        ".{0,16}",
        Just("10.0.0.1:11211".to_string()),
    ];
    let weight = prop_oneof![Just(0u32), 1u32..5, Just(u32::MAX), any::<u32>()];
    prop_oneof![
        (label.clone(), weight.clone()).prop_map(|(l, w)| Op::Add(l, w)),
        label.clone().prop_map(Op::Remove),
        (label, weight).prop_map(|(l, w)| Op::Weight(l, w)),
        proptest::collection::vec(any::<u8>(), 0..300).prop_map(Op::Locate),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(40))]

    /// Arbitrary labels, weights (0, huge), keys and operation orders never panic, in any
    /// profile: every outcome is a value or a typed error, and a failed change keeps the ring.
    #[test]
    fn arbitrary_operations_never_panic(ops in proptest::collection::vec(op(), 1..25)) {
        for p in Profile::all() {
            let mut ring = Ring::new(p, None);
            for o in &ops {
                let before = ring.point_count();
                let changed = match o {
                    Op::Add(l, w) => Server::parse(l, *w).and_then(|s| ring.add(s)).is_ok(),
                    Op::Remove(l) => ring.remove(l).is_ok(),
                    Op::Weight(l, w) => ring.set_weight(l, *w).is_ok(),
                    Op::Locate(k) => {
                        let _ = ring.locate(k);
                        let _ = ring.locate_n(k, 3);
                        let _ = ring.failover(k, 3);
                        false
                    }
                };
                if !changed {
                    prop_assert_eq!(ring.point_count(), before, "{}: failed op changed the ring", p.name);
                }
            }
        }
    }
}

/// Each refusal names itself: a change of a ring from explicit points, a call that needs a
/// 32-bit continuum, a key hash where the client reads the key, current loads that do not
/// match the servers.
#[test]
fn each_refusal_has_its_own_error() {
    let p = |name: &str| Profile::by_name(name).unwrap();
    let s = |label: &str| Server::parse(label, 1).unwrap();
    let mut fixed = Ring::from_points(
        p("libketama"),
        None,
        [s("a:1"), s("b:1")],
        &[(5, 0), (9, 1)],
    )
    .unwrap();
    assert_eq!(fixed.add(s("c:1")).unwrap_err(), Error::FixedPoints);
    assert_eq!(fixed.remove("a:1").unwrap_err(), Error::FixedPoints);
    assert_eq!(fixed.set_weight("a:1", 2).unwrap_err(), Error::FixedPoints);

    for name in ["modula", "jump", "rendezvous", "maglev", "uhashring"] {
        let e = Ring::from_points(p(name), None, [s("a:1")], &[(5, 0)]).unwrap_err();
        assert_eq!(e.error, Error::NotAContinuum, "{name}");
    }
    for name in ["modula", "jump", "maglev"] {
        let ring = Ring::with_servers(p(name), None, [s("a:1"), s("b:1")]).unwrap();
        assert_eq!(
            ring.locate_point(b"k").unwrap_err(),
            Error::NotAContinuum,
            "{name}"
        );
    }

    for name in ["mcrouter-ch3", "pymemcache", "uhashring"] {
        let ring = Ring::with_servers(p(name), None, [s("a:1"), s("b:1")]).unwrap();
        assert_eq!(ring.locate_hash(7).unwrap_err(), Error::NeedsKey, "{name}");
        assert!(ring.locate(b"k").is_ok(), "{name}");
    }

    let ring = Ring::with_servers(p("libketama"), None, [s("a:1"), s("b:1")]).unwrap();
    assert_eq!(
        ketama_core::ring::BoundedLoads::with_loads(&ring, 125, 100, &[1]).err(),
        Some(Error::BadLoads)
    );
}
