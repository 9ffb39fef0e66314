//! The structural reasons two profiles place keys differently on one fleet, read from the
//! profiles' data and the two rings built on it.

use ketama_core::profile::{Bound, KeyLimits, Placement};
use ketama_core::server::DEFAULT_PORT;
use ketama_core::{Profile, Ring, Server};

use super::slots::{point_rule, slot_input, SlotRead};

/// One structural difference between the two profiles on this fleet.
#[derive(Clone, Debug)]
pub(crate) struct Difference {
    /// What differs.
    pub(crate) aspect: &'static str,
    /// A's side.
    pub(crate) a: String,
    /// B's side.
    pub(crate) b: String,
    /// Why it matters, in words (with an example where there is one).
    pub(crate) note: String,
    /// Whether it changes placement on this fleet (false: differs only in principle).
    pub(crate) effective: bool,
}

/// Explains why two node strings of the same server differ.
pub(crate) fn node_note(an: &str, a: &str, bn: &str, b: &str, s: &Server) -> String {
    let mut notes = Vec::new();
    let (a0, b0) = (
        a.strip_prefix('/').unwrap_or(a),
        b.strip_prefix('/').unwrap_or(b),
    );
    if a.starts_with('/') != b.starts_with('/') {
        let who = if a.starts_with('/') { an } else { bn };
        notes.push(format!(
            "leading '/' kept by {who} (Java InetSocketAddress.toString())"
        ));
    }
    let hp = format!("{}:{}", s.host, s.port);
    let bracketed = format!("[{}]:{}", s.host, s.port);
    let full = |x: &str| x == hp || x == bracketed;
    if s.port == DEFAULT_PORT && (a0 == s.host) != (b0 == s.host) && (full(a0) || full(b0)) {
        let who = if a0 == s.host { an } else { bn };
        notes.push(format!("port {DEFAULT_PORT} omitted by {who}"));
    }
    for (n, x) in [(an, a), (bn, b)] {
        if x.contains("/<unresolved>") {
            notes.push(format!(
                "{n} spells the host name as Java's unresolved address"
            ));
        }
        if x.contains('\0') {
            notes.push(format!(
                "{n} hashes host and port joined by a NUL byte (nginx `hash consistent`)"
            ));
        }
        if s.name.as_deref() == Some(x) {
            notes.push(format!("{n} hashes the server's name"));
        }
    }
    if notes.is_empty() {
        notes.push(format!("{an} hashes '{a}', {bn} hashes '{b}'"));
    }
    notes.join("; ")
}

fn points_per_server(r: &Ring) -> Vec<usize> {
    let mut c = vec![0usize; r.len()];
    for (_, o) in r.points() {
        if let Some(x) = c.get_mut(o) {
            *x += 1;
        }
    }
    c
}

fn has_ties(r: &Ring) -> bool {
    let mut last = None;
    for (v, _) in r.points() {
        if last == Some(v) {
            return true;
        }
        last = Some(v);
    }
    false
}

/// The differences found so far, and the names of the two sides for notes.
struct Found {
    out: Vec<Difference>,
    an: String,
    bn: String,
}

impl Found {
    fn add(&mut self, aspect: &'static str, a: String, b: String, note: String, effective: bool) {
        self.out.push(Difference {
            aspect,
            a,
            b,
            note,
            effective,
        });
    }
}

/// The structural differences between rings `a` and `b` (same servers, same order).
/// `an`, `bn` name the two sides in notes.
pub(crate) fn differences(a: &Ring, b: &Ring, an: &str, bn: &str) -> Vec<Difference> {
    let pa: &Profile = a.profile();
    // Every knob of a profile, named with the step that compares it: a new knob does not
    // compile here until it is compared (or said to be irrelevant).
    let Profile {
        name: _,               // names differ by definition
        aliases: _,            // names only
        description: _,        // words only
        verified_by: _,        // words only
        default_hash: _,       // the ring's actual hash: `key_hash`
        hashes: _,             // what users may choose; the ring's actual hash: `key_hash`
        crc32: _,              // only how the name "crc32" resolves; the hash: `key_hash`
        node: _,               // through the node strings it produces: `continuum`
        names: _,              // `fleet`
        strings: _,            // `continuum`
        count: _,              // `continuum`
        points: _,             // `continuum`
        placement: _,          // `placement`, `search`
        ties: _,               // `continuum`
        zero_weight: _,        // `fleet`
        key: _,                // `key_rewrite`
        key_tag: _,            // `key_rewrite`
        single_shortcut: _,    // `fleet`
        empty_key_rejected: _, // `key_limits`
        key_limits: _,         // `key_limits`
        order: _,              // `continuum`
        failover: _,           // `changes`
        removal: _,            // `changes`
        options: _,            // which options the client has; those in use: `key_rewrite`
    } = *pa;
    let mut found = Found {
        out: Vec::new(),
        an: format!("A ({an})"),
        bn: format!("B ({bn})"),
    };
    let same_slot_hash = placement(&mut found, a, b);
    if a.profile().is_ring() && b.profile().is_ring() {
        continuum(&mut found, a, b);
    }
    if !same_slot_hash {
        key_hash(&mut found, a, b);
    }
    search(&mut found, a, b);
    key_rewrite(&mut found, a, b);
    fleet(&mut found, a, b);
    key_limits(&mut found, a, b);
    changes(&mut found, a, b);
    found.out
}

/// Different algorithms altogether (a ring against another placement, or two others), or two
/// slot lists reducing the same hash of the key read differently. True when both are slot
/// lists reducing the same hash: the key hash is then not a difference of its own.
fn placement(found: &mut Found, a: &Ring, b: &Ring) -> bool {
    let (pa, pb) = (a.profile(), b.profile());
    let rings = pa.is_ring() && pb.is_ring();
    let (sa, sb) = (
        slot_input(pa.placement, a.hash()),
        slot_input(pb.placement, b.hash()),
    );
    let same_slot_hash = matches!((sa, sb), (Some(x), Some(y))
        if x.weighted == y.weighted && x.hash == y.hash);
    if same_slot_hash {
        let (x, y) = (sa.map(|s| s.read), sb.map(|s| s.read));
        let zero = [x, y].contains(&Some(SlotRead::ZeroAsOne));
        let plain = [x, y].contains(&Some(SlotRead::Plain));
        if x != y {
            found.add(
                "placement",
                pa.placement.to_string(),
                pb.placement.to_string(),
                if zero && plain {
                    "the same slot for every key except those whose 15-bit hash is 0 (1 in \
                     32,768), which one client reads as 1"
                        .into()
                } else {
                    "the same key hash read differently before the modulo: some keys can differ"
                        .into()
                },
                true,
            );
        }
    } else if pa.is_ring() != pb.is_ring() || (!rings && pa.placement != pb.placement) {
        found.add(
            "placement",
            pa.placement.to_string(),
            pb.placement.to_string(),
            "the two clients use different algorithms: nearly every key can differ".into(),
            true,
        );
    }
    same_slot_hash
}

/// Two continuums: node strings, point strings, points per server, point hash, ties.
fn continuum(found: &mut Found, a: &Ring, b: &Ring) {
    let (pa, pb) = (a.profile(), b.profile());
    node_strings(found, a, b);
    if pa.strings != pb.strings {
        found.add(
            "point strings",
            pa.strings.to_string(),
            pb.strings.to_string(),
            "the i-th point string is spelled differently (S = node string)".into(),
            true,
        );
    }
    point_counts(found, a, b);
    if point_rule(pa.points, a.hash()) != point_rule(pb.points, b.hash()) {
        found.add(
            "point hash",
            pa.points.to_string(),
            pb.points.to_string(),
            "point strings become positions differently".into(),
            true,
        );
    }
    if pa.ties != pb.ties || pa.order != pb.order {
        let effective = has_ties(a) || has_ties(b);
        found.add(
            "ties",
            format!("{}, servers {}", pa.ties, pa.order),
            format!("{}, servers {}", pb.ties, pb.order),
            if effective {
                "equal points exist on this fleet".into()
            } else {
                "no equal points on this fleet".into()
            },
            effective,
        );
    }
}

/// The first server whose node strings differ, explained.
fn node_strings(found: &mut Found, a: &Ring, b: &Ring) {
    let differing: Vec<usize> = (0..a.len())
        .filter(|&i| a.node_string(i) != b.node_string(i))
        .collect();
    let Some(&i) = differing.first() else { return };
    let (x, y) = (
        a.node_string(i).unwrap_or(""),
        b.node_string(i).unwrap_or(""),
    );
    let note = a
        .server(i)
        .map_or(String::new(), |s| node_note(&found.an, x, &found.bn, y, s));
    // A NUL byte (nginx) is shown escaped.
    let shown = |v: &str| v.replace('\0', "\\0");
    let note = format!(
        "{note} ({} of {} servers; first: line {})",
        differing.len(),
        a.len(),
        i + 1
    );
    found.add("node string", shown(x), shown(y), note, true);
}

/// Points per server, or the count rule when the counts agree on this fleet.
fn point_counts(found: &mut Found, a: &Ring, b: &Ring) {
    let (pa, pb) = (a.profile(), b.profile());
    let (ca, cb) = (points_per_server(a), points_per_server(b));
    let differing: Vec<usize> = (0..ca.len().min(cb.len()))
        .filter(|&i| ca[i] != cb[i])
        .collect();
    if let Some(&i) = differing.first() {
        let label = a.server(i).map_or(String::new(), |s| s.label.clone());
        let note = format!(
            "{label}: {} vs {} points ({} of {} servers differ; {} vs {})",
            ca[i],
            cb[i],
            differing.len(),
            ca.len(),
            pa.count,
            pb.count
        );
        found.add(
            "points per server",
            ca[i].to_string(),
            cb[i].to_string(),
            note,
            true,
        );
    } else if pa.count != pb.count {
        found.add(
            "point count rule",
            pa.count.to_string(),
            pb.count.to_string(),
            "same counts on this fleet; other weights or sizes may differ".into(),
            false,
        );
    }
}

/// The key hash itself.
fn key_hash(found: &mut Found, a: &Ring, b: &Ring) {
    if a.hash() != b.hash() {
        let note = format!(
            "{} hashes keys with {}, {} with {}",
            found.an,
            a.hash().name(),
            found.bn,
            b.hash().name()
        );
        found.add(
            "key hash",
            a.hash().name().into(),
            b.hash().name().into(),
            note,
            true,
        );
    }
}

/// The key rewrite (prefixes, encodings) before hashing.
fn key_rewrite(found: &mut Found, a: &Ring, b: &Ring) {
    let (pa, pb) = (a.profile(), b.profile());
    if pa.key != pb.key {
        found.add(
            "key rewrite",
            pa.key.to_string(),
            pb.key.to_string(),
            "some keys are hashed differently".into(),
            true,
        );
    }
    if pa.key_tag != pb.key_tag {
        found.add(
            "hash tags",
            pa.key_tag.to_string(),
            pb.key_tag.to_string(),
            "keys holding a tag are hashed differently (keys without one are not)".into(),
            true,
        );
    }
    if a.options() != b.options() {
        found.add(
            "options",
            format!("{:?}", a.options()),
            format!("{:?}", b.options()),
            "the placement options differ: keys they rewrite are hashed differently".into(),
            true,
        );
    }
}

/// Two rings searched by different rules.
fn search(found: &mut Found, a: &Ring, b: &Ring) {
    let (pa, pb) = (a.profile(), b.profile());
    if pa.placement == pb.placement || !(pa.is_ring() && pb.is_ring()) {
        return;
    }
    let both = [pa.placement, pb.placement];
    let only_zero = both.contains(&Placement::Ring(Bound::LowerBound))
        && both.contains(&Placement::Ring(Bound::LowerBoundZeroLast));
    let backwards = both.contains(&Placement::Ring(Bound::FloorWrap));
    let only_below = both.contains(&Placement::Ring(Bound::LowerBound))
        && both.contains(&Placement::Ring(Bound::LowerBoundBelowLast));
    let only_past = both.contains(&Placement::Ring(Bound::UpperBound))
        && both.contains(&Placement::Ring(Bound::UpperBoundClamp));
    let (note, effective) = if only_below {
        (
            "only keys hashing below the first point are placed differently (the last \
             point's server rather than the first's)"
                .to_string(),
            true,
        )
    } else if only_past {
        (
            "only keys hashing past the last point are placed differently (the last point's \
             server rather than the first's)"
                .to_string(),
            true,
        )
    } else if only_zero {
        (
            "only a key hash of exactly 0 is placed differently".to_string(),
            false,
        )
    } else if backwards {
        (
            "opposite search directions (dalli takes the largest point <= hash, wrapping to \
             the largest): a key goes to the point before the one the other picks"
                .to_string(),
            true,
        )
    } else {
        (
            "keys whose hash equals a point, or all keys, go to different points".to_string(),
            true,
        )
    };
    found.add(
        "search",
        pa.placement.to_string(),
        pb.placement.to_string(),
        note,
        effective,
    );
}

/// Rules that matter only for some fleets: one server, weight 0, server names.
fn fleet(found: &mut Found, a: &Ring, b: &Ring) {
    let (pa, pb) = (a.profile(), b.profile());
    if pa.single_shortcut != pb.single_shortcut && a.len() == 1 {
        found.add(
            "single server",
            pa.single_shortcut.to_string(),
            pb.single_shortcut.to_string(),
            "one client skips hashing with one server".into(),
            true,
        );
    }
    if pa.zero_weight != pb.zero_weight && a.servers().any(|s| s.weight == 0) {
        found.add(
            "zero weight",
            pa.zero_weight.to_string(),
            pb.zero_weight.to_string(),
            "weight 0 is treated differently".into(),
            true,
        );
    }
    if pa.names != pb.names && a.servers().any(|s| s.name.is_some()) {
        found.add(
            "server names",
            pa.names.to_string(),
            pb.names.to_string(),
            "only one client hashes the servers' names".into(),
            true,
        );
    }
}

/// Keys one client refuses and the other places (limits, the empty key under some hashes).
fn key_limits(found: &mut Found, a: &Ring, b: &Ring) {
    let (pa, pb) = (a.profile(), b.profile());
    let refused =
        |p: &Profile, r: &Ring| p.key_limits.empty || p.empty_key_rejected.contains(&r.hash());
    if pa.key_limits == pb.key_limits && refused(pa, a) == refused(pb, b) {
        return;
    }
    let lim = |l: KeyLimits, e: bool| {
        format!(
            "{l}{}",
            if e && !l.empty {
                ", not the empty key"
            } else {
                ""
            }
        )
    };
    found.add(
        "key limits",
        lim(pa.key_limits, refused(pa, a)),
        lim(pb.key_limits, refused(pb, b)),
        "one client refuses keys the other places".into(),
        true,
    );
}

/// What happens when the fleet changes: failover and removal (not a cause of disagreement on
/// a healthy fleet).
fn changes(found: &mut Found, a: &Ring, b: &Ring) {
    let (pa, pb) = (a.profile(), b.profile());
    if pa.failover != pb.failover {
        found.add(
            "failover",
            pa.failover.to_string(),
            pb.failover.to_string(),
            "when a server is down, the two clients try different servers next".into(),
            false,
        );
    }
    if pa.removal != pb.removal {
        found.add(
            "removal",
            pa.removal.to_string(),
            pb.removal.to_string(),
            "removing a server can leave different rings".into(),
            false,
        );
    }
}
