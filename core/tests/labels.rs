//! Label parsing refusals: a byte-order mark, port 0, a signed port, a
//! port with a leading zero and brackets around a non-IPv6 host are refused; accepted labels
//! keep parsing as before.

use ketama_core::{Error, Profile, Ring, Server};

#[test]
fn refused_labels() {
    for l in [
        "\u{feff}10.0.0.1:11211",
        "10.0.0.1:11211\u{feff}",
        "cache\u{feff}a:11211",
        "host:0",
        "host:00",
        "host:+80",
        "host:-80",
        "host:011211",
        "host:0080",
        "host:65536",
        "host:",
        "[x]:1",
        "[x]",
        "[cache-a]:11211",
        "[10.0.0.1]:11211",
        "[::1]:0",
        "[::1]:+1",
        "[::1]:011211",
    ] {
        assert_eq!(Server::parse(l, 1), Err(Error::BadLabel), "{l:?} accepted");
    }
}

#[test]
fn accepted_labels() {
    for (l, host, port) in [
        ("10.0.0.1:11211", "10.0.0.1", 11211),
        ("host:1", "host", 1),
        ("host:65535", "host", 65535),
        ("host", "host", 11211),
        ("[::1]:11212", "::1", 11212),
        ("[::1]", "::1", 11211),
        ("[fe80::2]:10", "fe80::2", 10),
        ("::1", "::1", 11211),
    ] {
        let s = Server::parse(l, 1).unwrap_or_else(|e| panic!("{l:?}: {e:?}"));
        assert_eq!((s.host.as_str(), s.port), (host, port), "{l:?}");
    }
}

/// `:11211` and `:011211` can no longer be two servers for one endpoint: the second spelling
/// is refused outright.
#[test]
fn one_endpoint_one_spelling() {
    let p = Profile::by_name("libketama").unwrap();
    let mut ring = Ring::new(p, None);
    ring.add(Server::parse("10.0.0.1:11211", 1).unwrap())
        .unwrap();
    assert_eq!(Server::parse("10.0.0.1:011211", 1), Err(Error::BadLabel));
    assert_eq!(ring.len(), 1);
}

/// One IPv6 endpoint written two ways is one server (a duplicate), in a
/// fresh build, in `add` and in the bucket algorithms; the label hashed stays as written.
#[test]
fn ipv6_spellings_are_one_server() {
    use ketama_core::alt::{anchor::Anchor, memento::Memento};
    let p = Profile::by_name("libketama").unwrap();
    let s = |l: &str| Server::parse(l, 1).unwrap();
    for (a, b) in [
        ("[::1]:11211", "[0:0::1]:11211"),
        (
            "[::1]:11211",
            "[0000:0000:0000:0000:0000:0000:0000:0001]:11211",
        ),
        ("[2001:db8::1]:1", "[2001:DB8:0:0::1]:1"),
        ("::1", "[0::1]"),
    ] {
        let built = Ring::build(p, None, [s(a), s(b)]).unwrap_err();
        assert_eq!(
            (built.error, built.server),
            (Error::DuplicateServer, Some(1)),
            "{a} {b}"
        );
        let mut r = Ring::with_servers(p, None, [s(a)]).unwrap();
        let before: Vec<(u32, usize)> = r.points().collect();
        assert_eq!(r.add(s(b)), Err(Error::DuplicateServer), "{a} {b}");
        assert_eq!(r.points().collect::<Vec<_>>(), before);
        assert_eq!(r.servers().next().unwrap().label, a);
        let mut anchor = Anchor::new(4, [a]).unwrap();
        assert_eq!(anchor.add(b), Err(Error::DuplicateServer));
        let mut m = Memento::new([a]).unwrap();
        assert_eq!(m.add(b), Err(Error::DuplicateServer));
    }
    // Different ports, or one with and one without a port, stay two servers.
    Ring::with_servers(p, None, [s("[::1]:1"), s("[::1]:2"), s("[::1]")]).unwrap();
}
