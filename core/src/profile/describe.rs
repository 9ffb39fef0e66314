//! One-line descriptions of every knob, for tools (`ketama compare`, `ketama profiles`) and the
//! generated tables.

use core::fmt;

use super::keys::{KeyChars, KeyLimits, KeyRewrite, KeyTag, TagRule};
use super::knobs::{
    Bound, Failover, Join, Order, Placement, PointHash, Removal, ScoreTies, StringForm, Ties,
    ZeroWeight,
};

impl fmt::Display for StringForm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            StringForm::Dash => "S-i",
            StringForm::Prefix => "iS",
            StringForm::Concat => "Si",
            StringForm::Bare => "S",
            StringForm::Colon => "S:i",
            StringForm::Star => "S*i",
            StringForm::DashNode => "S-NODE-i",
        })
    }
}

impl fmt::Display for PointHash {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PointHash::Md5Words { per } => write!(f, "md5, {per} points per digest"),
            PointHash::KeyHash => f.write_str("the key hash, 1 point per string"),
            PointHash::JavaKetama => f.write_str("md5 x 4 with KETAMA_HASH, else the key hash"),
            PointHash::Md5Wide => f.write_str("md5 as a 128-bit number"),
            PointHash::Crc32Chain => {
                f.write_str("crc32 chain, each point over S and the previous one")
            }
            PointHash::Murmur3Chain => {
                f.write_str("murmur3_32 chain, each point hashing the previous one")
            }
            PointHash::Sha1Word => f.write_str("sha1, first word big-endian, 1 point per string"),
            PointHash::Xxh3Word => f.write_str("xxh3, low 32 bits, 1 point per string"),
            PointHash::Md5WordBe => f.write_str("md5, first word big-endian, 1 point per string"),
            PointHash::KeyHash64 => f.write_str("the key hash's 64 bits, 1 point per string"),
            PointHash::Fnv1aFirstZero => {
                f.write_str("fnv1a_32, the first string from state 0, 1 point per string")
            }
        }
    }
}

impl fmt::Display for Bound {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Bound::LowerBound => "first point >= hash",
            Bound::UpperBound => "first point > hash",
            Bound::LowerBoundZeroLast => "first point >= hash (hash 0 to the last point)",
            Bound::Floor => "largest point <= hash",
            Bound::FloorWrap => "largest point <= hash, else the largest point (backwards)",
            Bound::LowerBoundSigned => "first point >= hash in signed order",
            Bound::UpperBoundClamp => "first point > hash, else the last point (no wrap)",
            Bound::LowerBoundBelowLast => "first point >= hash (below the first point: the last)",
        })
    }
}

impl fmt::Display for Placement {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Placement::Ring(b) => fmt::Display::fmt(b, f),
            Placement::JavaAbsModulo {
                weighted,
                old_compat,
            } => write!(
                f,
                "|{}| % {}",
                if *old_compat {
                    "64-bit old-compat hash"
                } else {
                    "signed hash"
                },
                if *weighted { "total weight" } else { "n" }
            ),
            Placement::PeclBuckets => f.write_str("1024-bucket table"),
            Placement::Modula {
                weighted: false, ..
            } => f.write_str("hash % n"),
            Placement::Modula {
                weighted: true,
                high15: false,
            } => f.write_str("hash % total weight (weight slots)"),
            Placement::Modula {
                weighted: true,
                high15: true,
            } => f.write_str("((hash >> 16) & 0x7fff) % total weight"),
            Placement::Jump => f.write_str("jump consistent hash"),
            Placement::Furc { weighted: false } => f.write_str("mcrouter furc_hash (CH3)"),
            Placement::Furc { weighted: true } => {
                f.write_str("mcrouter WeightedCh3 (furc_hash + spooky draws, weights / max)")
            }
            Placement::Rendezvous => f.write_str("rendezvous hashing"),
            Placement::Maglev => f.write_str("a Maglev table"),
            Placement::JumpXxh3 => f.write_str("jump consistent hash over 64-bit XXH3 of the key"),
            Placement::Proportional => f.write_str("(hash * n) / (2^32 - 1): a range per server"),
            Placement::MixRendezvous => f.write_str(
                "rendezvous: highest mix(H64(key) ^ H64(S)), ties to the earlier server",
            ),
            Placement::ScaledPoints => {
                f.write_str("one point per server at its weight share; hash % W scaled onto it")
            }
            Placement::HashRendezvous { join, ties } => write!(
                f,
                "rendezvous: highest hash of {}, ties to the {}",
                match join {
                    Join::NodeDashKey => "S-key",
                    Join::KeyNode => "key + S",
                },
                match ties {
                    ScoreTies::GreaterNode => "greater node string",
                    ScoreTies::GreaterNodeHash => "greater node hash, then the earlier server",
                }
            ),
        }
    }
}

impl fmt::Display for Ties {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Ties::EarlierWins => "earlier server wins",
            Ties::LaterWins => "later server wins",
            Ties::SortedList => "xmemcached sorted list",
        })
    }
}

impl fmt::Display for ZeroWeight {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ZeroWeight::AsOne => "weight 0 counts as 1",
            ZeroWeight::AsIs => "weight 0 goes to the count rule as it is",
            ZeroWeight::Reject => "weight 0 is refused",
            ZeroWeight::AsHundred => "weight 0 counts as 100",
        })
    }
}

impl fmt::Display for KeyRewrite {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            KeyRewrite::None => f.write_str("bytes as given"),
            KeyRewrite::PeclSanitize => f.write_str("bytes <= 0x20 become '_', 250 bytes max"),
            KeyRewrite::Truncate(n) => write!(f, "first {n} bytes"),
            KeyRewrite::UrlEncode => f.write_str("URL-encoded (java.net.URLEncoder)"),
            KeyRewrite::DalliDigest => {
                f.write_str("over 250 characters: first 212 + ':md5:' + md5 hex")
            }
            KeyRewrite::PyBytesRepr => f.write_str("Python repr of the bytes: b'...'"),
            KeyRewrite::Prefix(p) => write!(f, "prefixed with '{p}'"),
            KeyRewrite::Latin1 => f.write_str("characters as latin-1 bytes, none above U+00FF"),
        }
    }
}

impl fmt::Display for Order {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Order::Given => "as given",
            Order::NodeLengthThenBytes => "sorted by node string, shorter first",
        })
    }
}

impl fmt::Display for Failover {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Failover::Walk => f.write_str("walk on to the next servers"),
            Failover::Rehash {
                first_tag,
                bounded_by_servers,
            } => write!(
                f,
                "rehash str(t) + key from t = {first_tag}{}",
                if *bounded_by_servers {
                    ", at most as many times as servers"
                } else {
                    ""
                }
            ),
            Failover::RehashKey { tries } => {
                write!(
                    f,
                    "rehash str(t) + key from t = 0, {tries} lookups, then give up"
                )
            }
            Failover::RehashHash { tries } => write!(
                f,
                "rehash str(hash) + str(t) from t = 0, {tries} lookups, then give up"
            ),
            Failover::RehashKeyDash { tries } => write!(
                f,
                "rehash key + \"-\" + str(t) from t = 0, {tries} lookups, then give up"
            ),
            Failover::RehashKeyUntried => f.write_str(
                "rehash str(t) + key from t = 0 until an untried server, each server once, then \
                 give up",
            ),
            Failover::Stay => f.write_str("keep the dead server (the key fails)"),
            Failover::RehashDoubled => {
                f.write_str("rehash 2 H(str(t) + key) from t = 0, once per server, then give up")
            }
            Failover::RehashSum { tries } => write!(
                f,
                "rehash hash + H(str(t) + key) from t = 1, {tries} lookups, then give up"
            ),
        }
    }
}

impl fmt::Display for Removal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Removal::OwnPoints => "only the server's own points go",
            Removal::ClearsItsPositions => "every position the server had is unset",
        })
    }
}

impl fmt::Display for KeyLimits {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.empty, self.max_len) {
            (false, None) => f.write_str("any key"),
            (true, None) => f.write_str("non-empty keys"),
            (false, Some(m)) => write!(f, "keys of at most {m} bytes"),
            (true, Some(m)) => write!(f, "keys of 1..={m} bytes"),
        }?;
        f.write_str(match self.chars {
            KeyChars::Any => "",
            KeyChars::Controls => ", no byte 0x00..=0x20",
            KeyChars::SpaceNewlineNul => ", no space, \\n, \\r or NUL",
            KeyChars::ControlsDel => ", no byte 0x00..=0x20 or 0x7f",
            KeyChars::PyWhitespace => ", no NUL, no ASCII whitespace in a non-blank key",
            KeyChars::PyWhitespaceAscii => {
                ", ASCII only, no NUL, no ASCII whitespace in a non-blank key"
            }
            KeyChars::PythonMemcached => ", no byte 0x00..=0x20 or 0x7f but one final newline",
        })
    }
}

impl fmt::Display for TagRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            TagRule::FirstNonEmpty => "first o, first c after it, at least one byte between",
            TagRule::FirstUpToNul => "first o, first c after it, before any NUL, even empty",
            TagRule::LineStart => "o at a line start, at least one byte, first c (Ruby ^o(.+?)c)",
            TagRule::GreedyLast => "last o before the last c of the first line, even empty",
            TagRule::LazyFind => "first o(.+?)c match, no line terminator inside (Java)",
        })
    }
}

impl fmt::Display for KeyTag {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            KeyTag::None => f.write_str("no hash tags"),
            KeyTag::Configured(r) => write!(f, "tags with --hash-tag oc only: {r}"),
            KeyTag::Braces(r) => write!(f, "{{tag}} always: {r}"),
        }
    }
}
