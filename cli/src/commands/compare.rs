//! `ketama compare`: how often two client families pick the same server on the same fleet,
//! and, from the two profiles' data, the structural reasons they differ.

use std::collections::BTreeMap;

use clap::Args;
use ketama_core::profile::{Bound, Placement, PointHash};
use ketama_core::server::DEFAULT_PORT;
use ketama_core::{Hash, Profile, Ring, Server};
use serde_json::json;

use crate::output::Format;
use crate::output::{pct, Table};
use crate::shared::Fail;
use crate::{keys, servers};

/// `ketama compare` options.
#[derive(Debug, Args)]
pub struct CompareArgs {
    /// The first client profile (A).
    #[arg(long, short = 'p')]
    pub profile: String,
    /// The second client profile (B).
    #[arg(long)]
    pub with: String,
    /// Key hash for A (default: A's).
    #[arg(long = "hash", short = 'H')]
    pub hash: Option<String>,
    /// Key hash for B (default: B's).
    #[arg(long)]
    pub with_hash: Option<String>,
    /// Servers file (the same fleet for both).
    #[arg(long, short = 's', value_parser = crate::args::path_arg())]
    pub servers: String,
    /// Placement options of `--profile`'s client; the `--with` side gets them too when its
    /// client has them.
    #[command(flatten)]
    pub options: crate::args::OptionArgs,
    /// Keys file, one key per line (default: 100,000 built-in generated keys).
    #[arg(long, value_parser = crate::args::path_arg())]
    pub keys: Option<String>,
}

/// One structural difference between the two profiles on this fleet.
#[derive(Clone, Debug)]
pub struct Difference {
    /// What differs.
    pub aspect: &'static str,
    /// A's side.
    pub a: String,
    /// B's side.
    pub b: String,
    /// Why it matters, in words (with an example where there is one).
    pub note: String,
    /// Whether it changes placement on this fleet (false: differs only in principle).
    pub effective: bool,
}

/// Explains why two node strings of the same server differ.
pub fn node_note(an: &str, a: &str, bn: &str, b: &str, s: &Server) -> String {
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

/// The number a slot-list client reduces modulo its slot count, in one canonical spelling, so
/// that two placements that compute the same number compare equal whatever their knobs say.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct SlotInput {
    /// Servers repeated `weight` times.
    weighted: bool,
    /// The hash whose value is reduced.
    hash: Hash,
    /// How the value is read before `% slots`.
    read: SlotRead,
}

/// How a slot-list client reads the hash value before `% slots`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum SlotRead {
    /// As it is (unsigned).
    Plain,
    /// pecl memcache standard on a hash that is not CRC-32: `(h >> 16) & 0x7fff`, 0 -> 1.
    High15,
    /// `(crc32 >> 16) & 0x7fff` = the `crc` hash, but 0 read as 1 (pecl memcache standard).
    ZeroAsOne,
    /// Sign-extended to 64 bits and made non-negative (whalin, memjs) on a hash that can
    /// reach 2^31; below 2^31 this is [`SlotRead::Plain`].
    AbsSigned,
}

/// The point rule in one canonical spelling: the Java clients' rule is 4 md5 words per digest
/// under `KETAMA_HASH` (our md5) and one point per string with the key hash otherwise.
fn point_rule(p: PointHash, h: Hash) -> PointHash {
    match p {
        PointHash::JavaKetama if h == Hash::Md5 => PointHash::Md5Words { per: 4 },
        PointHash::JavaKetama => PointHash::KeyHash,
        other => other,
    }
}

/// The slot input of a modulo placement with key hash `h`, `None` for other placements.
fn slot_input(p: Placement, h: Hash) -> Option<SlotInput> {
    let (weighted, hash, read) = match p {
        Placement::Modula {
            weighted,
            high15: false,
        } => (weighted, h, SlotRead::Plain),
        // `Hash::Crc` is by definition `(crc32a >> 16) & 0x7fff`.
        Placement::Modula {
            weighted,
            high15: true,
        } if h == Hash::Crc32a => (weighted, Hash::Crc, SlotRead::ZeroAsOne),
        Placement::Modula {
            weighted,
            high15: true,
        } => (weighted, h, SlotRead::High15),
        Placement::JavaAbsModulo {
            weighted,
            old_compat: false,
        } if h.bits() < 32 => (weighted, h, SlotRead::Plain),
        Placement::JavaAbsModulo {
            weighted,
            old_compat: false,
        } => (weighted, h, SlotRead::AbsSigned),
        _ => return None,
    };
    Some(SlotInput {
        weighted,
        hash,
        read,
    })
}

/// The structural differences between rings `a` and `b` (same servers, same order).
/// `an`, `bn` name the two sides in notes.
pub fn differences(a: &Ring, b: &Ring, an: &str, bn: &str) -> Vec<Difference> {
    let (pa, pb): (&Profile, &Profile) = (a.profile(), b.profile());
    // Every knob of a profile, named: a new knob does not compile here until it is compared
    // (or said to be irrelevant).
    let Profile {
        name: _,         // names differ by definition
        aliases: _,      // names only
        description: _,  // words only
        verified_by: _,  // words only
        default_hash: _, // the ring's actual hash is compared below
        hashes: _,       // what users may choose; the ring's actual hash is compared below
        crc32: _,        // only how the name "crc32" resolves; the hash itself is compared
        node: _,         // compared through the node strings it produces
        names,
        strings,
        count,
        points,
        placement,
        ties,
        zero_weight,
        key,
        single_shortcut,
        empty_key_rejected,
        key_limits,
        order,
        failover,
        removal,
        options: _, // which options the client has; the options in use are compared below
    } = *pa;
    let (an, bn) = (format!("A ({an})"), format!("B ({bn})"));
    let mut out = Vec::new();
    let mut add = |aspect, x: String, y: String, note: String, effective| {
        out.push(Difference {
            aspect,
            a: x,
            b: y,
            note,
            effective,
        });
    };
    let rings = pa.is_ring() && pb.is_ring();
    let (sa, sb) = (
        slot_input(pa.placement, a.hash()),
        slot_input(pb.placement, b.hash()),
    );
    // Two slot lists that reduce the same hash of the key: compared below by how they read it,
    // and the key hash is then not a difference of its own.
    let same_slot_hash = matches!((sa, sb), (Some(x), Some(y))
        if x.weighted == y.weighted && x.hash == y.hash);
    if same_slot_hash {
        let (x, y) = (sa.map(|s| s.read), sb.map(|s| s.read));
        let zero = [x, y].contains(&Some(SlotRead::ZeroAsOne));
        let plain = [x, y].contains(&Some(SlotRead::Plain));
        if x != y {
            add(
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
        add(
            "placement",
            pa.placement.to_string(),
            pb.placement.to_string(),
            "the two clients use different algorithms: nearly every key can differ".into(),
            true,
        );
    }
    if pa.is_ring() && pb.is_ring() {
        // Node strings.
        let differing: Vec<usize> = (0..a.len())
            .filter(|&i| a.node_string(i) != b.node_string(i))
            .collect();
        if let Some(&i) = differing.first() {
            let (x, y) = (
                a.node_string(i).unwrap_or(""),
                b.node_string(i).unwrap_or(""),
            );
            let s = a.server(i).cloned();
            let note = s.map_or(String::new(), |s| node_note(&an, x, &bn, y, &s));
            // A NUL byte (nginx) is shown escaped.
            let shown = |v: &str| v.replace('\0', "\\0");
            add(
                "node string",
                shown(x),
                shown(y),
                format!(
                    "{note} ({} of {} servers; first: line {})",
                    differing.len(),
                    a.len(),
                    i + 1
                ),
                true,
            );
        }
        if strings != pb.strings {
            add(
                "point strings",
                strings.to_string(),
                pb.strings.to_string(),
                "the i-th point string is spelled differently (S = node string)".into(),
                true,
            );
        }
        let (ca, cb) = (points_per_server(a), points_per_server(b));
        let differing: Vec<usize> = (0..ca.len().min(cb.len()))
            .filter(|&i| ca[i] != cb[i])
            .collect();
        if let Some(&i) = differing.first() {
            let label = a.server(i).map_or(String::new(), |s| s.label.clone());
            add(
                "points per server",
                ca[i].to_string(),
                cb[i].to_string(),
                format!(
                    "{label}: {} vs {} points ({} of {} servers differ; {} vs {})",
                    ca[i],
                    cb[i],
                    differing.len(),
                    ca.len(),
                    count,
                    pb.count
                ),
                true,
            );
        } else if count != pb.count {
            add(
                "point count rule",
                count.to_string(),
                pb.count.to_string(),
                "same counts on this fleet; other weights or sizes may differ".into(),
                false,
            );
        }
        if point_rule(points, a.hash()) != point_rule(pb.points, b.hash()) {
            add(
                "point hash",
                points.to_string(),
                pb.points.to_string(),
                "point strings become positions differently".into(),
                true,
            );
        }
        if ties != pb.ties || order != pb.order {
            let effective = has_ties(a) || has_ties(b);
            add(
                "ties",
                format!("{ties}, servers {order}"),
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
    if a.hash() != b.hash() && !same_slot_hash {
        add(
            "key hash",
            a.hash().name().into(),
            b.hash().name().into(),
            format!(
                "{} hashes keys with {}, {} with {}",
                an,
                a.hash().name(),
                bn,
                b.hash().name()
            ),
            true,
        );
    }
    if placement != pb.placement && rings {
        let zero = [placement, pb.placement];
        let only_zero = zero.contains(&Placement::Ring(Bound::LowerBound))
            && zero.contains(&Placement::Ring(Bound::LowerBoundZeroLast));
        let backwards = zero.contains(&Placement::Ring(Bound::FloorWrap));
        let (note, effective) = if only_zero {
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
        add(
            "search",
            placement.to_string(),
            pb.placement.to_string(),
            note,
            effective,
        );
    }
    if key != pb.key {
        add(
            "key rewrite",
            key.to_string(),
            pb.key.to_string(),
            "some keys are hashed differently".into(),
            true,
        );
    }
    if a.options() != b.options() {
        add(
            "options",
            format!("{:?}", a.options()),
            format!("{:?}", b.options()),
            "the placement options differ: keys they rewrite are hashed differently".into(),
            true,
        );
    }
    if single_shortcut != pb.single_shortcut && a.len() == 1 {
        add(
            "single server",
            single_shortcut.to_string(),
            pb.single_shortcut.to_string(),
            "one client skips hashing with one server".into(),
            true,
        );
    }
    if zero_weight != pb.zero_weight && a.servers().any(|s| s.weight == 0) {
        add(
            "zero weight",
            zero_weight.to_string(),
            pb.zero_weight.to_string(),
            "weight 0 is treated differently".into(),
            true,
        );
    }
    if names != pb.names && a.servers().any(|s| s.name.is_some()) {
        add(
            "server names",
            names.to_string(),
            pb.names.to_string(),
            "only one client hashes the servers' names".into(),
            true,
        );
    }
    let refused =
        |p: &Profile, r: &Ring| p.key_limits.empty || p.empty_key_rejected.contains(&r.hash());
    if key_limits != pb.key_limits || refused(pa, a) != refused(pb, b) {
        let lim = |l: ketama_core::profile::KeyLimits, e: bool| {
            format!(
                "{l}{}",
                if e && !l.empty {
                    ", not the empty key"
                } else {
                    ""
                }
            )
        };
        add(
            "key limits",
            lim(key_limits, refused(pa, a)),
            lim(pb.key_limits, refused(pb, b)),
            "one client refuses keys the other places".into(),
            true,
        );
    }
    let _ = empty_key_rejected; // compared through `refused` above
    if failover != pb.failover {
        add(
            "failover",
            failover.to_string(),
            pb.failover.to_string(),
            "when a server is down, the two clients try different servers next".into(),
            false,
        );
    }
    if removal != pb.removal {
        add(
            "removal",
            removal.to_string(),
            pb.removal.to_string(),
            "removing a server can leave different rings".into(),
            false,
        );
    }
    out
}

/// Runs `ketama compare`.
pub fn run(c: &CompareArgs, f: Format) -> Result<String, Fail> {
    let pa = crate::args::profile(&c.profile)?;
    let pb = crate::args::profile(&c.with)?;
    let ha = c
        .hash
        .as_deref()
        .map(|n| crate::args::hash(n, Some(pa)))
        .transpose()?;
    let hb = c
        .with_hash
        .as_deref()
        .map(|n| crate::args::hash(n, Some(pb)))
        .transpose()?;
    let fleet = servers::load(&c.servers)?;
    let options = c.options.options()?;
    let a = crate::args::apply_options(servers::ring(pa, ha, &fleet)?, options)?;
    let b = servers::ring(pb, hb, &fleet)?;
    let b = if options.check(pb).is_ok() {
        b.with_options(options)
            .map_err(|e| Fail::new(e.to_string()))?
    } else {
        b
    };
    let (key_source, keys) = match &c.keys {
        Some(p) => (p.clone(), keys::file_keys(p)?),
        None => (
            format!("{} built-in generated keys", keys::GENERATED_KEYS),
            keys::generated(),
        ),
    };
    let mut agree = 0usize;
    let mut flows: BTreeMap<(String, String), usize> = BTreeMap::new();
    for k in &keys {
        let x = a.locate(k).ok().map(|s| s.label.as_str());
        let y = b.locate(k).ok().map(|s| s.label.as_str());
        if x == y {
            agree += 1;
        } else {
            *flows
                .entry((x.unwrap_or("-").to_string(), y.unwrap_or("-").to_string()))
                .or_default() += 1;
        }
    }
    let total = keys.len();
    let agreement = if total == 0 {
        1.0
    } else {
        agree as f64 / total as f64
    };
    let shown = |given: &str, p: &Profile| {
        if given == p.name {
            p.name.to_string()
        } else {
            format!("{given} (= {})", p.name)
        }
    };
    let (an, bn) = (shown(&c.profile, pa), shown(&c.with, pb));
    let diffs = differences(&a, &b, &c.profile, &c.with);
    let verdict = if agree == total && diffs.iter().all(|d| !d.effective) {
        "the same placement for every key".to_string()
    } else if agree == total {
        "agree on every key tried, despite the differences below".to_string()
    } else if agreement >= 0.9999 {
        "agree on nearly every key".to_string()
    } else if diffs.iter().any(|d| d.effective) {
        "disagree, for the structural reasons below".to_string()
    } else {
        "disagree, with no structural difference found in the profiles' data".to_string()
    };
    let mut flow_list: Vec<((String, String), usize)> = flows.into_iter().collect();
    flow_list.sort_by(|x, y| y.1.cmp(&x.1).then(x.0.cmp(&y.0)));

    Ok(match f {
        Format::Json => crate::output::json(&json!({
            "a": {"profile": pa.name, "given": c.profile, "hash": a.hash().name()},
            "b": {"profile": pb.name, "given": c.with, "hash": b.hash().name()},
            "servers": {"file": c.servers, "count": a.len()},
            "keys": {"source": key_source, "total": total},
            "agree": agree,
            "agreement": agreement,
            "verdict": verdict,
            "differences": diffs.iter().map(|d| json!({
                "aspect": d.aspect, "a": d.a, "b": d.b, "note": d.note, "effective": d.effective
            })).collect::<Vec<_>>(),
            "disagreements": flow_list.iter().map(|((x, y), n)| json!({"a": x, "b": y, "keys": n})).collect::<Vec<_>>(),
        })),
        Format::Csv => {
            let mut t = Table::new(&["aspect", "a", "b", "effective", "note"]);
            t.row(vec![
                "agreement".into(),
                format!("{agreement:.6}"),
                format!("{agree}/{total}"),
                String::new(),
                verdict,
            ]);
            t.row(vec![
                "profile".into(),
                pa.name.into(),
                pb.name.into(),
                String::new(),
                String::new(),
            ]);
            for d in &diffs {
                t.row(vec![
                    d.aspect.into(),
                    d.a.clone(),
                    d.b.clone(),
                    d.effective.to_string(),
                    d.note.clone(),
                ]);
            }
            t.csv()
        }
        Format::Table => {
            let mut out = format!(
                "A = {} (hash {}), B = {} (hash {}), {} servers from {}\n",
                an,
                a.hash().name(),
                bn,
                b.hash().name(),
                a.len(),
                c.servers
            );
            out.push_str(&format!("keys: {total} ({key_source})\n"));
            out.push_str(&format!(
                "agreement: {} ({agree} of {total} keys): {verdict}\n",
                pct(agreement)
            ));
            if !diffs.is_empty() {
                out.push_str("\nstructural differences:\n");
                let mut t = Table::new(&["aspect", "A", "B", "why"]);
                for d in &diffs {
                    let why = if d.effective {
                        d.note.clone()
                    } else {
                        format!("{} (not a cause here)", d.note)
                    };
                    t.row(vec![d.aspect.into(), d.a.clone(), d.b.clone(), why]);
                }
                out.push_str(&t.text());
            }
            if !flow_list.is_empty() {
                out.push_str("\nwhere they disagree (top 10):\n");
                let mut t = Table::new(&["A says", "B says", "keys"]);
                for ((x, y), n) in flow_list.iter().take(10) {
                    t.row(vec![x.clone(), y.clone(), n.to_string()]);
                }
                out.push_str(&t.text());
            }
            out
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ring(name: &str, labels: &[&str]) -> Ring {
        let servers: Vec<Server> = labels
            .iter()
            .map(|l| Server::parse(l, 1).unwrap())
            .collect();
        Ring::build(Profile::by_name(name).unwrap(), None, servers).unwrap()
    }

    fn aspects(a: &str, b: &str, labels: &[&str]) -> Vec<&'static str> {
        let (x, y) = (ring(a, labels), ring(b, labels));
        differences(&x, &y, a, b)
            .into_iter()
            .filter(|d| d.effective)
            .map(|d| d.aspect)
            .collect()
    }

    const FLEET: &[&str] = &["10.0.0.1:11211", "10.0.0.2:11211", "10.0.0.3:11211"];

    #[test]
    fn slot_lists_reducing_the_same_hash_are_one_placement() {
        // `hash % slots` and `|signed hash| % slots` of a 15-bit hash: the same slot.
        let d = aspects("python-memcached", "whalin-new-compat", FLEET);
        assert!(
            !d.contains(&"placement") && !d.contains(&"key hash"),
            "{d:?}"
        );
        // pecl standard reads crc32 as the 15-bit crc, but 0 as 1: a placement difference
        // only, not a key hash one.
        let d = aspects("python-memcached", "pecl-memcache-standard", FLEET);
        assert!(
            d.contains(&"placement") && !d.contains(&"key hash"),
            "{d:?}"
        );
        // A full 32-bit hash read signed is not the unsigned read.
        let plain = Placement::Modula {
            weighted: true,
            high15: false,
        };
        let signed = Placement::JavaAbsModulo {
            weighted: true,
            old_compat: false,
        };
        assert_ne!(
            slot_input(plain, Hash::Crc32a),
            slot_input(signed, Hash::Crc32a)
        );
        assert_eq!(slot_input(plain, Hash::Crc), slot_input(signed, Hash::Crc));
    }

    #[test]
    fn java_ketama_points_under_md5_are_md5_words() {
        let d = aspects("memcached-proxy-ring-evcache", "evcache", FLEET);
        assert!(!d.contains(&"point hash"), "{d:?}");
    }
}
