//! `ketama profiles --format spec`: core's profile and hash tables as data for the ports.
//!
//! This module is the one place where core's knobs get their exported names (schema in
//! `spec/README.md`). Every match below is exhaustive over core's enums, so a new knob value
//! cannot reach the ports unnamed. Placements are exported as objects
//! (`{"kind": "ring", "bound": "lower_bound"}`), formulas by the client that defines them
//! (`libketama`, `libmemcached`, `node_hashring`, `integer_div`, `dalli`, `whalin`).

use ketama_core::options::{OptionRules, HASH_TAG_LEN, MAX_PREFIX, MAX_PREFIXED_KEY};
use ketama_core::profile::{
    Bound, Failover, Join, KeyChars, KeyLimits, KeyRewrite, KeyTag, Order, Placement, PointHash,
    Removal, ScoreTies, StringForm, TagRule, Ties, ZeroWeight,
};
use ketama_core::ring::Shape;
use ketama_core::server::NodeForm;
use ketama_core::weight::{Count, Formula};
use ketama_core::{Error, Hash, Profile};
use serde_json::{json, Value};

/// The schema version of the exported document; bumped when a field changes meaning.
pub(crate) const SCHEMA: u32 = 1;

/// The whole spec document: schema version, error names, hashes and profiles.
pub(crate) fn document() -> Value {
    let hashes: Vec<Value> = Hash::all().map(hash).collect();
    let profiles: Vec<Value> = Profile::all().iter().map(|p| profile(p)).collect();
    json!({
        "schema": SCHEMA,
        "generator": "ketama profiles --format spec",
        "errors": Error::ALL.iter().map(|e| json!({"name": e.name(), "message": e.as_str()})).collect::<Vec<_>>(),
        "knobs": knobs(&hashes, &profiles),
        "hashes": hashes,
        "options": option_limits(),
        "profiles": profiles,
    })
}

/// Where each knob's value sits in an exported profile (or hash) object.
const KNOBS: &[(&str, &[&str])] = &[
    ("node", &["node"]),
    ("strings", &["strings"]),
    ("count", &["count", "kind"]),
    ("formula", &["count", "formula"]),
    ("points", &["points", "kind"]),
    ("placement", &["placement", "kind"]),
    ("bound", &["placement", "bound"]),
    ("join", &["placement", "join"]),
    ("score_ties", &["placement", "ties"]),
    ("layout", &["layout", "kind"]),
    ("ties", &["ties"]),
    ("zero_weight", &["zero_weight"]),
    ("key", &["key", "kind"]),
    ("key_tag", &["key_tag", "kind"]),
    ("tag_rule", &["key_tag", "rule"]),
    ("chars", &["key_limits", "chars"]),
    ("order", &["order"]),
    ("failover", &["failover", "kind"]),
    ("removal", &["removal"]),
];

/// The knob vocabulary (`spec/README.md`, "knobs"): every value each knob takes in the
/// exported rows, sorted; hash `input` from the hash rows. What a port implements, no more.
fn knobs(hashes: &[Value], profiles: &[Value]) -> Value {
    let values = |rows: &[Value], path: &[&str]| -> Vec<String> {
        let mut out: Vec<String> = rows
            .iter()
            .filter_map(|r| path.iter().try_fold(r, |v, k| v.get(k)))
            .filter_map(|v| v.as_str().map(str::to_owned))
            .collect();
        out.sort_unstable();
        out.dedup();
        out
    };
    let mut map = serde_json::Map::new();
    for (knob, path) in KNOBS {
        map.insert((*knob).to_owned(), json!(values(profiles, path)));
    }
    map.insert("input".to_owned(), json!(values(hashes, &["input"])));
    Value::Object(map)
}

/// The limits of the placement options (`spec/README.md`, "options").
fn option_limits() -> Value {
    json!({
        "hash_tag_bytes": HASH_TAG_LEN,
        "prefix_key_max_bytes": MAX_PREFIX,
        "prefixed_key_max_bytes": MAX_PREFIXED_KEY,
    })
}

/// The document as committed in `spec/profiles.json` (pretty JSON, a final newline).
pub(crate) fn text() -> String {
    crate::output::json(&document())
}

/// One hash: our name, the client names [`Hash::from_name`] accepts, how it reads a key.
pub(crate) fn hash(h: Hash) -> Value {
    json!({
        "name": h.name(),
        "aliases": h.aliases(),
        "input": input(h),
        "description": h.description(),
    })
}

/// How a hash reads the key's bytes (`spec/README.md`, "hashes").
fn input(h: Hash) -> &'static str {
    if h.is_java_utf16() {
        return "utf16_units";
    }
    match h {
        Hash::OneAtATime
        | Hash::Fnv1_64
        | Hash::Fnv1a64
        | Hash::Fnv1_32
        | Hash::Fnv1a32
        | Hash::Hsieh => "signed_bytes",
        Hash::OneAtATimeUnsigned
        | Hash::Fnv1_64Unsigned
        | Hash::Fnv1a64Unsigned
        | Hash::Fnv1_32Unsigned
        | Hash::Fnv1a32Unsigned
        | Hash::HsiehUnsigned
        | Hash::Fnv1a32Zero => "unsigned_bytes",
        _ => "bytes",
    }
}

/// One profile: every field of [`Profile`].
pub(crate) fn profile(p: &Profile) -> Value {
    json!({
        "name": p.name,
        "aliases": p.aliases,
        "description": p.description,
        "default_hash": p.default_hash.name(),
        "hashes": p.hashes.iter().map(|h| h.name()).collect::<Vec<_>>(),
        "crc32": p.crc32.map(Hash::name),
        "node": node(p.node),
        "names": p.names,
        "strings": strings(p.strings),
        "count": count(p.count),
        "points": points(p.points),
        "placement": placement(p.placement),
        "ties": ties(p.ties),
        "zero_weight": zero_weight(p.zero_weight),
        "key": key(p.key),
        "key_tag": key_tag(p.key_tag),
        "single_shortcut": p.single_shortcut,
        "empty_key_rejected": p.empty_key_rejected.iter().map(|h| h.name()).collect::<Vec<_>>(),
        "key_limits": key_limits(p.key_limits),
        "order": order(p.order),
        "failover": failover(p.failover),
        "removal": removal(p.removal),
        "options": options(p.options),
        "layout": layout(p),
        "is_ring": p.is_ring(),
        "uses_weights": p.uses_weights(),
    })
}

/// Which placement options the profile's client has.
fn options(o: OptionRules) -> Value {
    let OptionRules {
        hash_tag,
        prefix_key,
    } = o;
    json!({"hash_tag": hash_tag, "prefix_key": prefix_key})
}

fn node(n: NodeForm) -> &'static str {
    match n {
        NodeForm::Label => "label",
        NodeForm::OmitDefaultPort => "omit_default_port",
        NodeForm::SlashLabel => "slash_label",
        NodeForm::JavaSpy => "java_spy",
        NodeForm::JavaXmc => "java_xmc",
        NodeForm::JavaNginx => "java_nginx",
        NodeForm::Bare => "bare",
        NodeForm::JavaHostName => "java_host_name",
        NodeForm::HostPort => "host_port",
        NodeForm::JavaHostNamePort => "java_host_name_port",
        NodeForm::NginxHostNulPort => "nginx_host_nul_port",
        NodeForm::HostThenPort => "host_then_port",
        NodeForm::HostSlashHostPort => "host_slash_host_port",
        NodeForm::JavaEvcache => "java_evcache",
        NodeForm::RedisUrlDb => "redis_url_db",
        NodeForm::RedisUrl => "redis_url",
        NodeForm::ShardPlace => "shard_place",
        NodeForm::NameStarWeight => "name_star_weight",
        NodeForm::HostNulPort => "host_nul_port",
        NodeForm::IpEndPoint => "ip_end_point",
    }
}

fn strings(s: StringForm) -> &'static str {
    match s {
        StringForm::Dash => "dash",
        StringForm::Prefix => "prefix",
        StringForm::Concat => "concat",
        StringForm::Bare => "bare",
        StringForm::Colon => "colon",
        StringForm::Star => "star",
        StringForm::DashNode => "dash_node",
    }
}

fn formula(f: Formula) -> &'static str {
    match f {
        Formula::Libketama => "libketama",
        Formula::Libmemcached => "libmemcached",
        Formula::NodeHashring => "node_hashring",
        Formula::IntegerDiv => "integer_div",
        Formula::Dalli => "dalli",
        Formula::Whalin => "whalin",
        Formula::Predis => "predis",
        Formula::PredisKetama => "predis_ketama",
        Formula::Finagle => "finagle",
    }
}

fn count(c: Count) -> Value {
    match c {
        Count::Fixed(k) => json!({"kind": "fixed", "strings": k}),
        Count::PerWeight(k) => json!({"kind": "per_weight", "strings": k}),
        Count::Relative(f) => json!({"kind": "relative", "formula": formula(f)}),
        Count::PerWeightInt(k) => json!({"kind": "per_weight_int", "strings": k}),
    }
}

fn points(p: PointHash) -> Value {
    match p {
        PointHash::Md5Words { per } => json!({"kind": "md5_words", "per": per}),
        PointHash::KeyHash => json!({"kind": "key_hash"}),
        PointHash::JavaKetama => json!({"kind": "java_ketama"}),
        PointHash::Md5Wide => json!({"kind": "md5_wide"}),
        PointHash::Crc32Chain => json!({"kind": "crc32_chain"}),
        PointHash::Murmur3Chain => json!({"kind": "murmur3_chain"}),
        PointHash::Sha1Word => json!({"kind": "sha1_word"}),
        PointHash::Xxh3Word => json!({"kind": "xxh3_word"}),
        PointHash::Md5WordBe => json!({"kind": "md5_word_be"}),
        PointHash::KeyHash64 => json!({"kind": "key_hash64"}),
        PointHash::Fnv1aFirstZero => json!({"kind": "fnv1a_first_zero"}),
    }
}

/// Core's resolved layout of the profile's rings ([`Shape`]) and the bound its continuum is
/// searched by (`null` without a continuum).
fn layout(p: &Profile) -> Value {
    let kind = match Shape::of(p) {
        Shape::Sorted => "sorted",
        Shape::Wide => "wide",
        Shape::Wide64 => "wide64",
        Shape::TieRuns => "tie_runs",
        Shape::Buckets => "buckets",
        Shape::Slots => "slots",
        Shape::Jump => "jump",
        Shape::JumpXxh3 => "jump_xxh3",
        Shape::Furc => "furc",
        Shape::Rendezvous => "rendezvous",
        Shape::Maglev => "maglev",
        Shape::Scored => "scored",
        Shape::Mixed => "mixed",
        Shape::Scaled => "scaled",
    };
    json!({"kind": kind, "bound": Shape::bound(p).map(bound)})
}

fn bound(b: Bound) -> &'static str {
    match b {
        Bound::LowerBound => "lower_bound",
        Bound::UpperBound => "upper_bound",
        Bound::LowerBoundZeroLast => "lower_bound_zero_last",
        Bound::Floor => "floor",
        Bound::FloorWrap => "floor_wrap",
        Bound::LowerBoundSigned => "lower_bound_signed",
        Bound::UpperBoundClamp => "upper_bound_clamp",
        Bound::LowerBoundBelowLast => "lower_bound_below_last",
    }
}

fn placement(p: Placement) -> Value {
    match p {
        Placement::Ring(b) => json!({"kind": "ring", "bound": bound(b)}),
        Placement::PeclBuckets => json!({"kind": "pecl_buckets"}),
        Placement::Modula { weighted, high15 } => {
            json!({"kind": "modula", "weighted": weighted, "high15": high15})
        }
        Placement::JavaAbsModulo {
            weighted,
            old_compat,
        } => json!({"kind": "java_abs_modulo", "weighted": weighted, "old_compat": old_compat}),
        Placement::Furc { weighted } => json!({"kind": "furc", "weighted": weighted}),
        Placement::Jump => json!({"kind": "jump"}),
        Placement::Rendezvous => json!({"kind": "rendezvous"}),
        Placement::Maglev => json!({"kind": "maglev"}),
        Placement::JumpXxh3 => json!({"kind": "jump_xxh3"}),
        Placement::HashRendezvous { join, ties } => {
            json!({"kind": "hash_rendezvous", "join": join_name(join), "ties": score_ties(ties)})
        }
        Placement::Proportional => json!({"kind": "proportional"}),
        Placement::MixRendezvous => json!({"kind": "mix_rendezvous"}),
        Placement::ScaledPoints => json!({"kind": "scaled_points"}),
    }
}

fn join_name(j: Join) -> &'static str {
    match j {
        Join::NodeDashKey => "node_dash_key",
        Join::KeyNode => "key_node",
    }
}

fn score_ties(t: ScoreTies) -> &'static str {
    match t {
        ScoreTies::GreaterNode => "greater_node",
        ScoreTies::GreaterNodeHash => "greater_node_hash",
    }
}

fn ties(t: Ties) -> &'static str {
    match t {
        Ties::EarlierWins => "earlier_wins",
        Ties::LaterWins => "later_wins",
        Ties::SortedList => "sorted_list",
    }
}

fn zero_weight(z: ZeroWeight) -> &'static str {
    match z {
        ZeroWeight::AsOne => "as_one",
        ZeroWeight::AsIs => "as_is",
        ZeroWeight::Reject => "reject",
        ZeroWeight::AsHundred => "as_hundred",
    }
}

fn key(k: KeyRewrite) -> Value {
    match k {
        KeyRewrite::None => json!({"kind": "none"}),
        KeyRewrite::PeclSanitize => json!({"kind": "pecl_sanitize"}),
        KeyRewrite::Truncate(n) => json!({"kind": "truncate", "bytes": n}),
        KeyRewrite::DalliDigest => json!({"kind": "dalli_digest"}),
        KeyRewrite::UrlEncode => json!({"kind": "url_encode"}),
        KeyRewrite::PyBytesRepr => json!({"kind": "py_bytes_repr"}),
        KeyRewrite::Prefix(p) => json!({"kind": "prefix", "prefix": p}),
        KeyRewrite::Latin1 => json!({"kind": "latin1"}),
    }
}

fn key_tag(t: KeyTag) -> Value {
    match t {
        KeyTag::None => json!({"kind": "none"}),
        KeyTag::Configured(r) => json!({"kind": "configured", "rule": tag_rule(r)}),
        KeyTag::Braces(r) => json!({"kind": "braces", "rule": tag_rule(r)}),
    }
}

fn tag_rule(r: TagRule) -> &'static str {
    match r {
        TagRule::FirstNonEmpty => "first_non_empty",
        TagRule::FirstUpToNul => "first_up_to_nul",
        TagRule::LineStart => "line_start",
        TagRule::GreedyLast => "greedy_last",
        TagRule::LazyFind => "lazy_find",
    }
}

fn key_limits(l: KeyLimits) -> Value {
    json!({"empty": l.empty, "max_len": l.max_len, "chars": key_chars(l.chars)})
}

fn key_chars(c: KeyChars) -> &'static str {
    match c {
        KeyChars::Any => "any",
        KeyChars::Controls => "controls",
        KeyChars::ControlsDel => "controls_del",
        KeyChars::PyWhitespace => "py_whitespace",
        KeyChars::PyWhitespaceAscii => "py_whitespace_ascii",
        KeyChars::PythonMemcached => "python_memcached",
        KeyChars::SpaceNewlineNul => "space_newline_nul",
    }
}

fn order(o: Order) -> &'static str {
    match o {
        Order::Given => "given",
        Order::NodeLengthThenBytes => "node_length_then_bytes",
    }
}

fn failover(f: Failover) -> Value {
    match f {
        Failover::Walk => json!({"kind": "walk"}),
        Failover::Rehash {
            first_tag,
            bounded_by_servers,
        } => {
            json!({"kind": "rehash", "first_tag": first_tag, "bounded_by_servers": bounded_by_servers})
        }
        Failover::RehashKey { tries } => json!({"kind": "rehash_key", "tries": tries}),
        Failover::RehashKeyDash { tries } => json!({"kind": "rehash_key_dash", "tries": tries}),
        Failover::RehashHash { tries } => json!({"kind": "rehash_hash", "tries": tries}),
        Failover::RehashKeyUntried => json!({"kind": "rehash_key_untried"}),
        Failover::Stay => json!({"kind": "stay"}),
        Failover::RehashSum { tries } => json!({"kind": "rehash_sum", "tries": tries}),
        Failover::RehashDoubled => json!({"kind": "rehash_doubled"}),
    }
}

fn removal(r: Removal) -> &'static str {
    match r {
        Removal::OwnPoints => "own_points",
        Removal::ClearsItsPositions => "clears_its_positions",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_profile_and_hash_is_exported_once() {
        let d = document();
        let profiles = d["profiles"].as_array().map_or(0, Vec::len);
        assert_eq!(profiles, Profile::all().len());
        let hashes: Vec<&str> = d["hashes"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|h| h["name"].as_str())
            .collect();
        assert_eq!(hashes.len(), Hash::all().count());
        for h in &hashes {
            assert!(Hash::from_name(h).is_ok(), "{h}");
        }
        // Every hash a profile names is in the hash table.
        for p in d["profiles"].as_array().into_iter().flatten() {
            let mut named = vec![&p["default_hash"]];
            named.extend(p["hashes"].as_array().into_iter().flatten());
            named.extend(p["empty_key_rejected"].as_array().into_iter().flatten());
            if !p["crc32"].is_null() {
                named.push(&p["crc32"]);
            }
            for n in named {
                assert!(hashes.contains(&n.as_str().unwrap_or("?")), "{n}");
            }
        }
    }

    #[test]
    fn placement_uses_the_exported_names() {
        let p = profile(&ketama_core::profile::LIBKETAMA);
        assert_eq!(
            p["placement"],
            json!({"kind": "ring", "bound": "lower_bound"})
        );
        assert_eq!(
            p["count"],
            json!({"kind": "relative", "formula": "libketama"})
        );
        let p = profile(&ketama_core::profile::PECL_MEMCACHE_STANDARD);
        assert_eq!(
            p["placement"],
            json!({"kind": "modula", "weighted": true, "high15": true})
        );
        assert_eq!(input(Hash::OneAtATime), "signed_bytes");
        assert_eq!(input(Hash::Native), "utf16_units");
    }

    #[test]
    fn python_and_proxy_knobs_use_the_exported_names() {
        let p = profile(&ketama_core::profile::DJANGO_PYMEMCACHE);
        assert_eq!(
            p["placement"],
            json!({"kind": "hash_rendezvous", "join": "node_dash_key", "ties": "greater_node"})
        );
        assert_eq!(p["key"], json!({"kind": "prefix", "prefix": ":1:"}));
        assert_eq!(
            p["key_limits"],
            json!({"empty": false, "max_len": 247, "chars": "controls_del"})
        );
        let p = profile(&ketama_core::profile::EMCACHE);
        assert_eq!(p["node"], "host_then_port");
        assert_eq!(p["failover"], json!({"kind": "stay"}));
        let p = profile(&ketama_core::profile::PYTHON_MEMCACHED);
        assert_eq!(p["failover"], json!({"kind": "rehash_hash", "tries": 10}));
        assert_eq!(
            profile(&ketama_core::profile::DALLI)["failover"],
            json!({"kind": "rehash_key", "tries": 20})
        );
        let p = profile(&ketama_core::profile::MEMCACHED_PROXY_RING);
        assert_eq!(p["points"], json!({"kind": "xxh3_word"}));
        assert_eq!(
            profile(&ketama_core::profile::MEMCACHED_PROXY)["placement"],
            json!({"kind": "jump_xxh3"})
        );
    }
}
