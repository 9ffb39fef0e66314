//! Point generation: how many point strings each server gets, how each is spelled and how it
//! becomes one or more positions on the continuum.

use alloc::vec::Vec;
use core::ops::Range;

use super::entry::Entry;
use super::key::wide64;
use crate::decimal::push_decimal;
use crate::error::Error;
use crate::hash::md5::{self, lanes, lanes::Lanes};
use crate::hash::{sha1, Hash};
use crate::profile::{Bound, PointHash, Profile, StringForm, ZeroWeight};
use crate::weight::Count;

/// The most points one continuum may hold: 2^23 = 8,388,608 (e.g. 52,428 equal servers on a
/// 160-point ketama profile, or 1,000 xmemcached servers of weight 52). A build or change that
/// would need more is refused at once with [`Error::TooManyPoints`], before any hashing,
/// rather than exhausting memory.
pub const MAX_POINTS: u64 = 1 << 23;

/// One point before it is stored (`wide` is 0 except on 128-bit rings).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Point {
    pub(super) value: u32,
    pub(super) wide: u128,
    pub(super) owner: u32,
}

/// Where generated points go: a vector of points, or (fresh builds of 32-bit rings) their
/// sort keys directly, so the large intermediate is 8 bytes per point rather than 32.
pub(super) trait Sink {
    /// Takes one point.
    fn push(&mut self, p: Point);
}

impl Sink for Vec<Point> {
    #[inline]
    fn push(&mut self, p: Point) {
        Vec::push(self, p);
    }
}

/// The weight as the profile counts it.
fn effective_weight(profile: &Profile, w: u32) -> u32 {
    match (w, profile.zero_weight) {
        (0, ZeroWeight::AsOne) => 1,
        (0, ZeroWeight::AsHundred) => 100,
        _ => w,
    }
}

/// Positions one point string yields.
fn per_string(profile: &Profile) -> u64 {
    // Java KETAMA_HASH rings hash 4 strings per digest, one position per string all the same.
    match profile.points {
        PointHash::Md5Words { per } => u64::from(per),
        _ => 1,
    }
}

/// How many points `counts` strings make (to size the points vector once).
pub(super) fn point_total(profile: &Profile, counts: &[u32]) -> usize {
    let strings: u64 = counts.iter().map(|&c| u64::from(c)).sum();
    usize::try_from(strings * per_string(profile)).unwrap_or(0)
}

/// How many strings each entry should have; refused when the points would exceed
/// [`MAX_POINTS`] (checked before anything is hashed).
pub(super) fn targets(profile: &Profile, entries: &[Entry]) -> Result<Vec<u32>, Error> {
    counts(profile, entries.iter().map(|e| e.server.weight))
}

/// How many strings servers of these weights (in order) should have; refused when the points
/// would exceed [`MAX_POINTS`] (checked before anything is hashed).
pub(super) fn counts(
    profile: &Profile,
    weights: impl Iterator<Item = u32> + Clone,
) -> Result<Vec<u32>, Error> {
    let n = weights.clone().count();
    if !profile.is_ring() {
        return Ok(alloc::vec![0; n]);
    }
    let total: u64 = weights
        .clone()
        .map(|w| u64::from(effective_weight(profile, w)))
        .sum();
    let targets: Vec<u32> = weights
        .map(|w| {
            let w = effective_weight(profile, w);
            match profile.count {
                Count::Relative(_) if w == 0 => 0,
                c => c.strings(w, total, n),
            }
        })
        .collect();
    let per = per_string(profile);
    let points: u64 = targets.iter().map(|&t| u64::from(t) * per).sum();
    if points > MAX_POINTS {
        return Err(Error::TooManyPoints);
    }
    Ok(targets)
}

/// Appends the points of strings `range` of `entry` (owner index `owner`); MD5 point strings
/// are hashed with `lanes`.
pub(super) fn generate(
    profile: &Profile,
    hash: Hash,
    node: &[u8],
    owner: u32,
    range: Range<u32>,
    lanes: Lanes,
    out: &mut impl Sink,
) {
    if profile.points == PointHash::Crc32Chain {
        // Each point hashes the node string and the previous point (0 before the first).
        let mut bytes = Vec::with_capacity(node.len() + 4);
        bytes.extend_from_slice(node);
        let base = bytes.len();
        let mut prev = 0u32;
        for i in 0..range.end {
            bytes.truncate(base);
            bytes.extend_from_slice(&prev.to_le_bytes());
            prev = Hash::Crc32a.hash(&bytes);
            if i >= range.start {
                out.push(Point {
                    value: prev,
                    wide: 0,
                    owner,
                });
            }
        }
        return;
    }
    if profile.points == PointHash::KeyHash64 {
        // 64-bit positions in the order the bound compares (signed for Jedis).
        let flip = profile.placement.bound().map_or(0, Bound::flip64);
        let mut s = Vec::with_capacity(node.len() + 16);
        for i in range {
            spell(&mut s, profile.strings, node, i);
            let wide = wide64(hash.hash64(&s), flip);
            out.push(Point {
                value: (wide >> 96) as u32,
                wide,
                owner,
            });
        }
        return;
    }
    if profile.points == PointHash::Murmur3Chain {
        // Each point hashes the previous one: walk the chain from its start.
        let flip = profile.placement.bound().map_or(0, Bound::flip);
        let mut p = Hash::Murmur3_32.hash(node);
        for i in 0..range.end {
            if i > 0 {
                p = Hash::Murmur3_32.hash(&p.to_le_bytes());
            }
            if i >= range.start {
                out.push(Point {
                    value: p ^ flip,
                    wide: 0,
                    owner,
                });
            }
        }
        return;
    }
    // The Java clients hash `KETAMA_HASH` rings 4 strings per digest: string i is word i % 4 of
    // digest i / 4 (their point count is a multiple of 4 for every weight they accept).
    let (strings, per) = match profile.points {
        PointHash::JavaKetama if hash == Hash::Md5 => {
            ((range.start / 4)..range.end.div_ceil(4), 4u8)
        }
        PointHash::Md5Words { per } => (range, per),
        _ => (range, 1),
    };
    // Strings whose points come from their MD5 digest are hashed a chunk at a time in SIMD
    // lanes; the others one by one.
    let digest_per = match profile.points {
        PointHash::Md5Wide => Some(None),
        PointHash::Md5Words { per } => Some(Some(per)),
        PointHash::JavaKetama if per == 4 => Some(Some(4)),
        _ => None,
    };
    if let Some(words) = digest_per {
        digest_points(
            profile.strings,
            &[(node, owner, strings)],
            words,
            lanes,
            out,
        );
        return;
    }
    let mut s = Vec::with_capacity(node.len() + 12);
    for i in strings {
        spell(&mut s, profile.strings, node, i);
        let bytes = &s[..];
        let value = match profile.points {
            PointHash::Sha1Word => sha1::first_word_be(bytes),
            PointHash::Xxh3Word => Hash::Xxh3.hash(bytes),
            PointHash::Md5WordBe => Hash::Md5Be.hash(bytes),
            // One hasher for every string, initialised only after its first hash.
            PointHash::Fnv1aFirstZero if i == 0 => Hash::Fnv1a32Zero.hash(bytes),
            PointHash::Fnv1aFirstZero => Hash::Fnv1a32Unsigned.hash(bytes),
            _ => hash.hash(bytes),
        };
        out.push(Point {
            value,
            wide: 0,
            owner,
        });
    }
}

/// Point string `i` of the node string `node`, in `s` (cleared first).
fn spell(s: &mut Vec<u8>, form: StringForm, node: &[u8], i: u32) {
    s.clear();
    match form {
        StringForm::Dash => {
            s.extend_from_slice(node);
            s.push(b'-');
            push_decimal(s, u64::from(i));
        }
        StringForm::Prefix => {
            push_decimal(s, u64::from(i));
            s.extend_from_slice(node);
        }
        StringForm::Concat => {
            s.extend_from_slice(node);
            push_decimal(s, u64::from(i));
        }
        StringForm::Bare => s.extend_from_slice(node),
        StringForm::Colon => {
            s.extend_from_slice(node);
            s.push(b':');
            push_decimal(s, u64::from(i));
        }
        StringForm::Star => {
            s.extend_from_slice(node);
            s.push(b'*');
            push_decimal(s, u64::from(i));
        }
        StringForm::DashNode => {
            s.extend_from_slice(node);
            s.extend_from_slice(b"-NODE-");
            push_decimal(s, u64::from(i));
        }
    }
}

/// Strings per lane chunk (the widest engine's lane count).
const CHUNK: usize = 8;

/// One server's share of a generation: its node string, its owner index and the range of
/// strings.
pub(super) type Job<'e> = (&'e [u8], u32, Range<u32>);

/// [`generate`] for several entries at once: on MD5-digest profiles the strings of all the
/// jobs share the SIMD lanes (a change that gives each of 10,000 servers one more string
/// hashes them 8 at a time, not one per call).
pub(super) fn generate_jobs(
    profile: &Profile,
    hash: Hash,
    jobs: &[Job<'_>],
    lanes: Lanes,
    out: &mut impl Sink,
) {
    let java4 = profile.points == PointHash::JavaKetama && hash == Hash::Md5;
    let words = match profile.points {
        PointHash::Md5Wide => Some(None),
        PointHash::Md5Words { per } => Some(Some(per)),
        _ if java4 => Some(Some(4)),
        _ => None,
    };
    match words {
        Some(words) if java4 => {
            let strings: Vec<Job<'_>> = jobs
                .iter()
                .map(|(e, o, r)| (*e, *o, (r.start / 4)..r.end.div_ceil(4)))
                .collect();
            digest_points(profile.strings, &strings, words, lanes, out);
        }
        Some(words) => digest_points(profile.strings, jobs, words, lanes, out),
        None => {
            for (node, o, r) in jobs {
                generate(profile, hash, node, *o, r.clone(), lanes, out);
            }
        }
    }
}

/// The points of the jobs' strings (already in string numbers) whose positions are MD5
/// digest words: `words` little-endian words per digest, or with `None` the whole digest as a
/// 128-bit position. Strings of all jobs are hashed a lane chunk at a time.
fn digest_points(
    form: StringForm,
    jobs: &[Job<'_>],
    words: Option<u8>,
    lanes: Lanes,
    out: &mut impl Sink,
) {
    // Empty strings allocate nothing: a change that adds one string allocates one buffer.
    let mut bufs: [Vec<u8>; CHUNK] = Default::default();
    let mut owners = [0u32; CHUNK];
    let mut n = 0;
    for (node, owner, strings) in jobs {
        for i in strings.clone() {
            spell(&mut bufs[n], form, node, i);
            owners[n] = *owner;
            n += 1;
            if n == CHUNK {
                emit(&bufs, &owners, words, lanes, out);
                n = 0;
            }
        }
    }
    emit(&bufs[..n], &owners[..n], words, lanes, out);
}

/// Hashes `bufs` (at most [`CHUNK`]) in lanes and pushes their points, owned by `owners`.
fn emit(bufs: &[Vec<u8>], owners: &[u32], words: Option<u8>, lanes: Lanes, out: &mut impl Sink) {
    let n = bufs.len().min(CHUNK);
    let mut digests = [[0u8; 16]; CHUNK];
    let msgs: [&[u8]; CHUNK] = core::array::from_fn(|j| bufs.get(j).map_or(&[][..], |s| &s[..]));
    lanes::digest_many(lanes, &msgs[..n], &mut digests[..n]);
    for (d, &owner) in digests[..n].iter().zip(owners) {
        if let Some(words) = words {
            for g in 0..usize::from(words) {
                out.push(Point {
                    value: md5::word_le(d, g),
                    wide: 0,
                    owner,
                });
            }
        } else {
            let wide = u128::from_be_bytes(*d);
            out.push(Point {
                value: (wide >> 96) as u32,
                wide,
                owner,
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::server::Server;
    use core::fmt::Write;

    #[test]
    fn spelling_equals_format() {
        for i in [0u32, 1, 9, 10, 99, 100, 159, 4_294_967_295] {
            let mut s = Vec::new();
            spell(&mut s, StringForm::Dash, b"h:1", i);
            let mut w = alloc::string::String::new();
            write!(w, "h:1-{i}").unwrap();
            assert_eq!(s, w.as_bytes());
            spell(&mut s, StringForm::Prefix, b"h", i);
            assert_eq!(s, alloc::format!("{i}h").as_bytes());
            spell(&mut s, StringForm::Concat, b"h", i);
            assert_eq!(s, alloc::format!("h{i}").as_bytes());
            spell(&mut s, StringForm::Colon, b"h", i);
            assert_eq!(s, alloc::format!("h:{i}").as_bytes());
            spell(&mut s, StringForm::Bare, b"h", i);
            assert_eq!(s, b"h");
            spell(&mut s, StringForm::Star, b"h", i);
            assert_eq!(s, alloc::format!("h*{i}").as_bytes());
            spell(&mut s, StringForm::DashNode, b"SHARD-2", i);
            assert_eq!(s, alloc::format!("SHARD-2-NODE-{i}").as_bytes());
        }
    }

    /// Every profile's points are the same whichever MD5 engine hashes them, for string
    /// ranges that start and end off the lane chunks.
    #[test]
    fn every_engine_generates_the_same_points() {
        for profile in crate::profile::PROFILES.iter().filter(|p| p.is_ring()) {
            let server = Server::parse("10.1.2.3:11211", 3).unwrap();
            let entry = Entry::new(profile, server, 0).unwrap();
            let other =
                Entry::new(profile, Server::parse("10.9.8.7:11211", 1).unwrap(), 1).unwrap();
            let hash = profile.default_hash;
            let mut want = Vec::new();
            generate(
                profile,
                hash,
                entry.node.as_bytes(),
                7,
                3..61,
                Lanes::Scalar,
                &mut want,
            );
            generate(
                profile,
                hash,
                other.node.as_bytes(),
                2,
                0..13,
                Lanes::Scalar,
                &mut want,
            );
            for lanes in Lanes::ALL.into_iter().filter(|l| l.is_supported()) {
                let mut got = Vec::new();
                generate(
                    profile,
                    hash,
                    entry.node.as_bytes(),
                    7,
                    3..61,
                    lanes,
                    &mut got,
                );
                generate(
                    profile,
                    hash,
                    other.node.as_bytes(),
                    2,
                    0..13,
                    lanes,
                    &mut got,
                );
                assert_eq!(got, want, "{} {lanes:?}", profile.name);
                // The same strings as jobs sharing lanes.
                let mut jobs = Vec::new();
                generate_jobs(
                    profile,
                    hash,
                    &[
                        (entry.node.as_bytes(), 7, 3..61),
                        (other.node.as_bytes(), 2, 0..13),
                    ],
                    lanes,
                    &mut jobs,
                );
                assert_eq!(jobs, want, "{} {lanes:?} jobs", profile.name);
            }
        }
    }
}
