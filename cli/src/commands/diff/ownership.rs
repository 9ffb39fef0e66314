//! Who owns which part of the key-hash space on a ring, and the ranges that change owner
//! when the fleet changes.

use ketama_core::{Ring, Unit};

/// A stretch of the key-hash space and who owns it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Span {
    /// First hash value (inclusive).
    pub(crate) start: u64,
    /// End (exclusive).
    pub(crate) end: u64,
    /// Owner label; `None` where no server owns it.
    pub(crate) owner: Option<String>,
}

/// Who owns which part of the key-hash space.
#[derive(Clone, Debug)]
pub(crate) struct Ownership {
    /// What the numbers count: "hash" values or pecl memcache's 1024 "bucket"s.
    pub(crate) unit: &'static str,
    /// Size of the space (keys' hash values lie in `[0, space)`).
    pub(crate) space: u64,
    /// Contiguous spans covering `[0, space)`.
    pub(crate) spans: Vec<Span>,
    /// A caveat to print (approximations).
    pub(crate) note: Option<&'static str>,
}

/// The ownership map of a ring profile (from core's [`Ring::spans`], which applies the
/// profile's own search and tie rules); `None` for modulo, jump, rendezvous and maglev.
pub(crate) fn ownership(ring: &Ring) -> Option<Ownership> {
    let map = ring.spans()?;
    let label = |i: Option<usize>| i.and_then(|i| ring.server(i)).map(|s| s.label.clone());
    Some(Ownership {
        unit: match map.unit {
            Unit::Hash => "hash",
            Unit::Bucket => "bucket",
        },
        space: map.space,
        spans: map
            .spans
            .iter()
            .map(|s| Span {
                start: s.start,
                end: s.end,
                owner: label(s.owner),
            })
            .collect(),
        note: map
            .approximate
            .then_some("128-bit continuum shown at 32-bit resolution"),
    })
}

/// A moved range: `[start, end)` goes from `from` to `to`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Move {
    /// Start (inclusive).
    pub(crate) start: u64,
    /// End (exclusive).
    pub(crate) end: u64,
    /// Old owner.
    pub(crate) from: Option<String>,
    /// New owner.
    pub(crate) to: Option<String>,
}

/// Overlays two ownership maps of the same space; returns the ranges that change owner.
pub(crate) fn moves(old: &Ownership, new: &Ownership) -> Vec<Move> {
    let mut out: Vec<Move> = Vec::new();
    let (mut i, mut j) = (0, 0);
    let mut at = 0u64;
    while i < old.spans.len() && j < new.spans.len() {
        let (a, b) = (&old.spans[i], &new.spans[j]);
        let end = a.end.min(b.end);
        if a.owner != b.owner && at < end {
            match out.last_mut() {
                Some(m) if m.end == at && m.from == a.owner && m.to == b.owner => m.end = end,
                _ => out.push(Move {
                    start: at,
                    end,
                    from: a.owner.clone(),
                    to: b.owner.clone(),
                }),
            }
        }
        at = end;
        if a.end == end {
            i += 1;
        }
        if b.end == end {
            j += 1;
        }
    }
    out
}

/// An owner's label, `-` for none.
pub(crate) fn name(o: &Option<String>) -> String {
    o.clone().unwrap_or_else(|| "-".into())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn own(spans: &[(u64, u64, &str)]) -> Ownership {
        Ownership {
            unit: "hash",
            space: spans.last().map_or(0, |s| s.1),
            spans: spans
                .iter()
                .map(|&(a, b, o)| Span {
                    start: a,
                    end: b,
                    owner: Some(o.to_string()),
                })
                .collect(),
            note: None,
        }
    }

    #[test]
    fn overlay() {
        let a = own(&[(0, 10, "x"), (10, 20, "y")]);
        let b = own(&[(0, 5, "x"), (5, 15, "z"), (15, 20, "y")]);
        let m = moves(&a, &b);
        assert_eq!(m.len(), 2);
        assert_eq!(
            (m[0].start, m[0].end, m[0].to.as_deref()),
            (5, 10, Some("z"))
        );
        assert_eq!(
            (m[1].start, m[1].end, m[1].from.as_deref()),
            (10, 15, Some("y"))
        );
    }

    /// For every ring profile (and xmemcached with its 15-bit CRC, full of equal points), the
    /// spans say exactly where each key goes.
    #[test]
    fn spans_agree_with_locate() {
        let servers: Vec<ketama_core::Server> = (0..10)
            .map(|i| {
                ketama_core::Server::parse(&format!("192.168.0.100:{}", 12000 + i), 1).unwrap()
            })
            .collect();
        let keys = crate::keys::generated();
        let cases: Vec<(&str, Option<&str>)> = ketama_core::Profile::all()
            .iter()
            .filter(|p| p.is_ring() && p.name != "xmemcached-nginx")
            .map(|p| (p.name, None))
            .chain([
                ("xmemcached", Some("CRC32_HASH")),
                ("spymemcached", Some("CRC_HASH")),
                ("xmemcached", Some("NATIVE_HASH")),
            ])
            .collect();
        for (name, hash) in cases {
            let p = ketama_core::Profile::by_name(name).unwrap();
            let h = hash.map(|n| p.hash_from_name(n).unwrap());
            let ring = Ring::with_servers(p, h, servers.clone()).unwrap();
            let o = ownership(&ring).unwrap();
            assert_eq!(o.spans.first().unwrap().start, 0, "{name}");
            assert_eq!(o.spans.last().unwrap().end, o.space, "{name}");
            assert!(o.spans.windows(2).all(|w| w[0].end == w[1].start), "{name}");
            if o.note.is_some() {
                continue; // 128-bit ring: spans are an approximation
            }
            for k in keys.iter().step_by(7) {
                let Ok(hv) = ring.key_hash(k) else { continue };
                let hv = if o.unit == "bucket" {
                    u64::from(hv % 1024)
                } else {
                    u64::from(hv)
                };
                let span = o
                    .spans
                    .iter()
                    .find(|s| s.start <= hv && hv < s.end)
                    .unwrap();
                let want = ring.locate(k).ok().map(|s| s.label.clone());
                assert_eq!(
                    span.owner,
                    want,
                    "{name} {hash:?} key {:?}",
                    String::from_utf8_lossy(k)
                );
            }
        }
    }
}
