//! A server as the user wrote it, and the node string each client hashes for it.

use alloc::format;
use alloc::string::{String, ToString};
use core::net::{Ipv4Addr, Ipv6Addr};

use crate::error::Error;

/// memcached's default port; several clients leave it out of the node string
/// (libmemcached, twemproxy, spymemcached's LIBMEMCACHED format, xmemcached-nginx; docs/client-notes.md).
pub const DEFAULT_PORT: u16 = 11211;

/// What kind of host a label names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HostKind {
    /// An IPv4 literal.
    Ipv4(Ipv4Addr),
    /// An IPv6 literal (written `[addr]:port` in labels).
    Ipv6(Ipv6Addr),
    /// A host name (no DNS is ever done).
    Name,
}

/// One memcached server on a ring.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Server {
    /// `host:port` exactly as written: what lookups return.
    pub label: String,
    /// The host part, without IPv6 brackets.
    pub host: String,
    /// The port (11211 when the label has none).
    pub port: u16,
    /// Whether the label spelled a port out.
    pub explicit_port: bool,
    /// The weight (meaning depends on the profile; 1 for unweighted clients).
    pub weight: u32,
    /// An explicit node name (twemproxy's server name; for the Java profiles and groupcache the
    /// exact node string the client hashes, e.g. `cache1/10.0.0.5:11211`).
    pub name: Option<String>,
    /// What the host is.
    pub kind: HostKind,
}

impl Server {
    /// Parses `host:port`, `[ipv6]:port`, `host` or a bare IPv6 address, with a weight.
    ///
    /// Refused with [`Error::BadLabel`]: an empty label, whitespace, control characters or a
    /// byte-order mark (U+FEFF) anywhere; a port that is not 1 to 65535 written in plain
    /// decimal digits (no sign, no leading zero: `:011211` is refused so that one endpoint
    /// cannot be spelt two ways); brackets around anything but an IPv6 literal (`[x]:1`).
    /// Two spellings of one IPv6 address (`[::1]:11211` and `[0:0::1]:11211`) are kept as
    /// written (the label is what the client hashes) but name one endpoint: see
    /// [`Server::endpoint`], which duplicate checks compare.
    ///
    /// ```
    /// use ketama_core::Server;
    /// let s = Server::parse("[::1]:11212", 1).unwrap();
    /// assert_eq!((s.host.as_str(), s.port), ("::1", 11212));
    /// ```
    pub fn parse(label: &str, weight: u32) -> Result<Server, Error> {
        let label_ok = !label.is_empty()
            && !label
                .chars()
                .any(|c| c.is_whitespace() || c.is_control() || c == '\u{feff}');
        if !label_ok {
            return Err(Error::BadLabel);
        }
        let (host, port) = split_host_port(label)?;
        if host.is_empty() {
            return Err(Error::BadLabel);
        }
        let kind = if let Ok(v4) = host.parse::<Ipv4Addr>() {
            HostKind::Ipv4(v4)
        } else if let Ok(v6) = host.parse::<Ipv6Addr>() {
            HostKind::Ipv6(v6)
        } else {
            HostKind::Name
        };
        Ok(Server {
            label: label.to_string(),
            host: host.to_string(),
            port: port.unwrap_or(DEFAULT_PORT),
            explicit_port: port.is_some(),
            weight,
            name: None,
            kind,
        })
    }

    /// The endpoint this server names, for duplicate checks: the label as written, except
    /// that an IPv6 literal is written in its canonical (RFC 5952) form, so `[::1]:11211`,
    /// `[0:0::1]:11211` and `[0000:0:0:0:0:0:0:1]:11211` are one endpoint. The label itself
    /// (what is hashed) never changes.
    pub fn endpoint(&self) -> String {
        match (self.kind, self.explicit_port) {
            (HostKind::Ipv6(ip), true) => format!("[{ip}]:{}", self.port),
            (HostKind::Ipv6(ip), false) => format!("[{ip}]"),
            _ => self.label.clone(),
        }
    }

    /// Whether `self` and `other` name one endpoint ([`Server::endpoint`] equal), without
    /// allocating.
    pub fn same_endpoint(&self, other: &Server) -> bool {
        match (self.kind, other.kind) {
            (HostKind::Ipv6(a), HostKind::Ipv6(b)) => {
                a == b && self.explicit_port == other.explicit_port && self.port == other.port
            }
            _ => self.label == other.label,
        }
    }

    /// The same server with an explicit node name (see [`Server::name`]).
    pub fn with_name(mut self, name: Option<&str>) -> Server {
        self.name = name.filter(|n| !n.is_empty()).map(ToString::to_string);
        self
    }
}

/// [`Server::endpoint`] of a label that parses, else the label itself (for the bucket
/// algorithms, which take any string as a server name).
pub fn endpoint_key(label: &str) -> String {
    match Server::parse(label, 1) {
        Ok(s) => s.endpoint(),
        Err(_) => label.to_string(),
    }
}

fn split_host_port(label: &str) -> Result<(&str, Option<u16>), Error> {
    let parse_port = |p: &str| {
        let digits = !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit());
        if !digits || p.starts_with('0') {
            return Err(Error::BadLabel); // sign, junk, leading zero or port 0
        }
        p.parse::<u16>().map_err(|_| Error::BadLabel)
    };
    if let Some(rest) = label.strip_prefix('[') {
        let (host, after) = rest.split_once(']').ok_or(Error::BadLabel)?;
        if host.parse::<Ipv6Addr>().is_err() {
            return Err(Error::BadLabel);
        }
        return match after {
            "" => Ok((host, None)),
            _ => Ok((
                host,
                Some(parse_port(after.strip_prefix(':').ok_or(Error::BadLabel)?)?),
            )),
        };
    }
    match label.matches(':').count() {
        0 => Ok((label, None)),
        1 => {
            let (host, port) = label.split_once(':').ok_or(Error::BadLabel)?;
            Ok((host, Some(parse_port(port)?)))
        }
        // A bare IPv6 address (no port); anything else with several colons is ambiguous.
        _ if label.parse::<Ipv6Addr>().is_ok() => Ok((label, None)),
        _ => Err(Error::BadLabel),
    }
}

/// Java's `Inet6Address.getHostAddress()`: eight groups, lowercase hex, no compression.
fn java_ipv6(a: &Ipv6Addr) -> String {
    let g = a.segments();
    format!(
        "{:x}:{:x}:{:x}:{:x}:{:x}:{:x}:{:x}:{:x}",
        g[0], g[1], g[2], g[3], g[4], g[5], g[6], g[7]
    )
}

/// How a client turns a server into the node string `S` it hashes (docs/client-notes.md 3.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NodeForm {
    /// The label verbatim (libketama, pecl memcache, uhashring, node-hashring, go-ketama, ...).
    Label,
    /// `host`, plus `:port` unless the port is 11211 (libmemcached, twemproxy,
    /// spymemcached LIBMEMCACHED format).
    OmitDefaultPort,
    /// `/host:port`, port always (libmemcached `CONSISTENT_KETAMA_SPY`).
    SlashLabel,
    /// spymemcached: `InetSocketAddress.toString()` (JDK >= 14) minus one leading `/`:
    /// `10.0.0.1:11211`, `cache1/<unresolved>:11211`, `[0:0:0:0:0:0:0:1]:11211`.
    JavaSpy,
    /// xmemcached: `InetSocketAddress.toString()` with its `/`: `/10.0.0.1:11211`,
    /// `cache1/<unresolved>:11211`, `/[0:0:0:0:0:0:0:1]:11211`.
    JavaXmc,
    /// xmemcached nginx-compatible: IP text (IPv6 uncompressed, no brackets), plus `:port`
    /// unless 11211; host names cannot be placed without DNS.
    JavaNginx,
    /// The label alone, no index appended (the user's PHP FlexiHash class hashes the server string itself).
    Bare,
    /// spymemcached LIBMEMCACHED format: `getHostName()` (IP text, IPv6 uncompressed without
    /// brackets, or the host name as written) plus `:port` unless 11211.
    JavaHostName,
    /// `host:port` with the host as written and IPv6 brackets dropped (dalli's
    /// `"#{hostname}:#{port}"`: `2001:db8::1:11211`).
    HostPort,
    /// xmemcached gwhalin mode: `getHostName() + ":" + port` with no PTR records: IP text
    /// (IPv6 uncompressed, no brackets) or the host name as written, port always.
    JavaHostNamePort,
    /// nginx `hash ... consistent`: the label as written split into host and port (the
    /// trailing digits after the last `:`, IPv6 brackets kept), joined by a NUL byte:
    /// `10.0.0.1\011211`, `[2001:db8::1]\011211`.
    NginxHostNulPort,
    /// emcache: `f"{host}{port}"`, no separator, the host as written (IPv6 without brackets):
    /// `10.0.0.111211`.
    HostThenPort,
    /// memcached proxy `omode = "evcache"`: `addr/addr:port` (the host twice).
    HostSlashHostPort,
    /// EVCache `EVCacheKetamaNodeLocatorConfiguration`: `getHostName() + "/" +
    /// getHostAddress() + ":11211"`, the port always written as 11211 whatever it is; with no
    /// PTR record the host name of an IP is its text (IPv6 uncompressed, no brackets):
    /// `10.0.0.1/10.0.0.1:11211`. A host name needs the address it resolves to, so it is
    /// placed only through an explicit name (`cache1/10.0.0.5:11211`).
    JavaEvcache,
    /// redis-rb 4.x `Redis#id`: `redis://host:port/0` (the host as written, IPv6 without
    /// brackets; db 0).
    RedisUrlDb,
    /// redis-rb 5.x `Redis#id` (redis-client's `server_url`): `redis://host:port`, IPv6
    /// in brackets, no db.
    RedisUrl,
    /// Jedis unnamed shards: `SHARD-<place>`, the server's place in the list from 0 (its host
    /// and port are not hashed; removing a server renames every later one).
    ShardPlace,
    /// Jedis 2.x named shards: the name (or the label), `*`, the weight (`name + "*" +
    /// weight`, the point strings appending the point number).
    NameStarWeight,
    /// Cache::Memcached::Fast: the host (IPv6 without brackets, as the client takes it), a
    /// NUL byte, the port: `10.0.0.1\011211`.
    HostNulPort,
    /// .NET `IPEndPoint.ToString()` (Enyim): `a.b.c.d:port`, IPv6 `[addr]:port` in its
    /// compressed form; a host name needs the address DNS gives it, so it is placed only
    /// through an explicit name.
    IpEndPoint,
}

impl NodeForm {
    /// Whether a server's node string depends on its place in the list or on its weight
    /// (Jedis's `SHARD-<place>` and `name*weight`): a change renames servers, so the ring is
    /// rebuilt rather than merged.
    pub fn follows_place_or_weight(self) -> bool {
        matches!(self, NodeForm::ShardPlace | NodeForm::NameStarWeight)
    }

    /// The node string for `s`, the server at `place` (from 0) in the client's list; `names`
    /// says whether an explicit [`Server::name`] replaces it (or, for
    /// [`NodeForm::NameStarWeight`], the label in it).
    pub fn node_string(self, s: &Server, names: bool, place: usize) -> Result<String, Error> {
        let name = s.name.as_deref().filter(|_| names);
        match self {
            NodeForm::ShardPlace => return Ok(format!("SHARD-{place}")),
            NodeForm::NameStarWeight => {
                return Ok(format!("{}*{}", name.unwrap_or(&s.label), s.weight));
            }
            _ => {}
        }
        if let Some(name) = name {
            return Ok(name.to_string());
        }
        let host_port = |host: &str| format!("{host}:{}", s.port);
        Ok(match self {
            NodeForm::Label | NodeForm::Bare => s.label.clone(),
            NodeForm::OmitDefaultPort if s.port == DEFAULT_PORT => s.host.clone(),
            NodeForm::OmitDefaultPort => host_port(&s.host),
            NodeForm::SlashLabel => format!("/{}", host_port(&s.host)),
            NodeForm::HostPort => host_port(&s.host),
            NodeForm::HostThenPort => format!("{}{}", s.host, s.port),
            NodeForm::HostNulPort => format!("{}\0{}", s.host, s.port),
            NodeForm::HostSlashHostPort => format!("{}/{}", s.host, host_port(&s.host)),
            NodeForm::NginxHostNulPort => {
                let l = s.label.as_str();
                let digits = l.len() - l.trim_end_matches(|c: char| c.is_ascii_digit()).len();
                let cut = l.len() - digits;
                match l[..cut].strip_suffix(':') {
                    Some(host) => format!("{host}\0{}", &l[cut..]),
                    None => format!("{l}\0"),
                }
            }
            NodeForm::JavaSpy | NodeForm::JavaXmc => {
                let slash = if self == NodeForm::JavaXmc { "/" } else { "" };
                match s.kind {
                    HostKind::Ipv4(ip) => format!("{slash}{ip}:{}", s.port),
                    HostKind::Ipv6(ip) => format!("{slash}[{}]:{}", java_ipv6(&ip), s.port),
                    HostKind::Name => format!("{}/<unresolved>:{}", s.host, s.port),
                }
            }
            NodeForm::JavaEvcache => {
                let ip = match s.kind {
                    HostKind::Ipv4(ip) => ip.to_string(),
                    HostKind::Ipv6(ip) => java_ipv6(&ip),
                    HostKind::Name => return Err(Error::Unsupported),
                };
                format!("{ip}/{ip}:{DEFAULT_PORT}")
            }
            NodeForm::RedisUrlDb => format!("redis://{}/0", host_port(&s.host)),
            NodeForm::RedisUrl => match s.kind {
                HostKind::Ipv6(_) => format!("redis://[{}]:{}", s.host, s.port),
                _ => format!("redis://{}", host_port(&s.host)),
            },
            NodeForm::ShardPlace | NodeForm::NameStarWeight => s.label.clone(),
            NodeForm::IpEndPoint => match s.kind {
                HostKind::Ipv4(ip) => format!("{ip}:{}", s.port),
                HostKind::Ipv6(ip) => format!("[{ip}]:{}", s.port),
                HostKind::Name => return Err(Error::Unsupported),
            },
            NodeForm::JavaHostNamePort => match s.kind {
                HostKind::Ipv4(ip) => format!("{ip}:{}", s.port),
                HostKind::Ipv6(ip) => format!("{}:{}", java_ipv6(&ip), s.port),
                HostKind::Name => host_port(&s.host),
            },
            NodeForm::JavaNginx | NodeForm::JavaHostName => {
                let ip = match s.kind {
                    HostKind::Ipv4(ip) => ip.to_string(),
                    HostKind::Ipv6(ip) => java_ipv6(&ip),
                    HostKind::Name if self == NodeForm::JavaHostName => s.host.clone(),
                    HostKind::Name => return Err(Error::Unsupported),
                };
                if s.port == DEFAULT_PORT {
                    ip
                } else {
                    format!("{ip}:{}", s.port)
                }
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn node(form: NodeForm, label: &str) -> String {
        form.node_string(&Server::parse(label, 1).unwrap(), true, 0)
            .unwrap()
    }

    #[test]
    fn node_strings_match_compat_table() {
        assert_eq!(
            node(NodeForm::OmitDefaultPort, "10.0.0.1:11211"),
            "10.0.0.1"
        );
        assert_eq!(
            node(NodeForm::OmitDefaultPort, "10.0.0.2:12000"),
            "10.0.0.2:12000"
        );
        assert_eq!(
            node(NodeForm::SlashLabel, "cache1.lan:11211"),
            "/cache1.lan:11211"
        );
        assert_eq!(node(NodeForm::JavaSpy, "10.0.0.1:11211"), "10.0.0.1:11211");
        assert_eq!(
            node(NodeForm::JavaSpy, "cache1.lan:11211"),
            "cache1.lan/<unresolved>:11211"
        );
        assert_eq!(node(NodeForm::JavaXmc, "10.0.0.1:11211"), "/10.0.0.1:11211");
        assert_eq!(
            node(NodeForm::JavaEvcache, "10.0.0.1:11212"),
            "10.0.0.1/10.0.0.1:11211"
        );
        assert_eq!(
            node(NodeForm::JavaEvcache, "[2001:db8::1]:11311"),
            "2001:db8:0:0:0:0:0:1/2001:db8:0:0:0:0:0:1:11211"
        );
        assert!(NodeForm::JavaEvcache
            .node_string(&Server::parse("cache1.lan:11211", 1).unwrap(), true, 0)
            .is_err());
        assert_eq!(
            node(NodeForm::JavaXmc, "[::1]:11211"),
            "/[0:0:0:0:0:0:0:1]:11211"
        );
        assert_eq!(
            node(NodeForm::JavaNginx, "10.0.0.2:12000"),
            "10.0.0.2:12000"
        );
        assert_eq!(node(NodeForm::JavaNginx, "10.0.0.1:11211"), "10.0.0.1");
    }

    #[test]
    fn ipv6_spellings_are_one_endpoint() {
        let e = |l: &str| Server::parse(l, 1).unwrap().endpoint();
        assert_eq!(e("[::1]:11211"), e("[0:0::1]:11211"));
        assert_eq!(e("[::1]:11211"), e("[0000:0:0:0:0:0:0:1]:11211"));
        assert_eq!(e("[2001:DB8::1]:1"), e("[2001:db8:0::1]:1"));
        assert_eq!(e("::1"), e("[::1]"));
        assert_ne!(e("[::1]:11211"), e("[::1]:11212"));
        assert_ne!(e("[::1]:11211"), e("[::1]"));
        assert_eq!(e("Cache1:11211"), "Cache1:11211");
        // The label (what is hashed) stays as written.
        assert_eq!(
            Server::parse("[0:0::1]:11211", 1).unwrap().label,
            "[0:0::1]:11211"
        );
        assert_eq!(endpoint_key("not a label"), "not a label");
        assert_eq!(endpoint_key("[0::1]:5"), "[::1]:5");
    }

    #[test]
    fn bad_labels() {
        for l in [
            "",
            "a b:1",
            "h:notaport",
            "h:70000",
            "[::1",
            "[::1]x",
            "a:b:c:",
            "::1:11211x",
        ] {
            assert_eq!(Server::parse(l, 1), Err(Error::BadLabel), "{l}");
        }
    }
}
