//! uhashring's 128-bit ring on keys whose digest equals a point's: the search compares the
//! top 32 bits first and the whole digest only on a tie of those, so a key that ties a
//! point must still land on the first point strictly above its digest, on one key and in
//! batches (every MD5 engine), on a small ring and on one large enough for the coarse index.

use ketama_core::hash::md5::lanes::Lanes;
use ketama_core::{Profile, Ring, Server};
use md5::{Digest, Md5};

fn ring(servers: u32) -> Ring {
    let servers = (0..servers).map(|i| {
        let label = format!("10.{}.{}.{}:11211", i / 65536 % 256, i / 256 % 256, i % 256);
        Server::parse(&label, 1).unwrap()
    });
    Ring::with_servers(Profile::by_name("uhashring").unwrap(), None, servers).unwrap()
}

/// The server of the first point whose 128-bit position is above `w` (the first point
/// when none is): uhashring's rule, read off the ring's own points.
fn first_above(ring: &Ring, w: u128) -> usize {
    let wide = ring.wide_points();
    let p = wide.iter().position(|&x| x > w).unwrap_or(0);
    ring.points().nth(p).unwrap().1
}

fn check(servers: u32) {
    let ring = ring(servers);
    // point strings `label-i`: each key's digest is a point's position
    let keys: Vec<String> = (0..servers)
        .step_by((servers as usize / 40).max(1))
        .flat_map(|s| {
            let label = ring.server(s as usize).unwrap().label.clone();
            [0, 1, 159].map(move |i| format!("{label}-{i}"))
        })
        .collect();
    let mut want = Vec::new();
    for k in &keys {
        let w = u128::from_be_bytes(Md5::digest(k.as_bytes()).into());
        assert!(ring.wide_points().contains(&w), "{k} is a point string");
        want.push(first_above(&ring, w));
    }
    let got: Vec<usize> = keys
        .iter()
        .map(|k| ring.locate_index(k.as_bytes()).unwrap())
        .collect();
    assert_eq!(got, want, "{servers} servers, one key at a time");
    for lanes in Lanes::ALL {
        let mut got = vec![usize::MAX; keys.len()];
        ring.locate_batch_with(lanes, keys.iter().map(|k| k.as_bytes()), |i, r| {
            got[i] = r.unwrap()
        });
        assert_eq!(got, want, "{servers} servers, batch, {lanes:?}");
    }
}

#[test]
fn a_key_equal_to_a_point_lands_on_the_next_point() {
    check(5);
}

#[test]
fn a_key_equal_to_a_point_lands_on_the_next_point_on_a_large_ring() {
    // 160 points a server: above 65,536 points the search takes the coarse index and
    // batches fetch ahead
    check(500);
}
