//! The client against scripted misbehaving servers: deadlines, stops, endless and garbled
//! listings, TLS where there is none.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use ketama_testkit::fake::{metadump_line, stats_reply, Fake, Reply, LIFETIME};

use ketama_memcache::{
    tls, Conn, Error, ErrorKind, ListOptions, Listing, Options, Pace, Sizes, POLL, SETTLE,
};

fn opts(ms: u64) -> Options {
    Options::new(Duration::from_millis(ms), Arc::new(AtomicBool::new(false)))
}

fn list(f: &Fake, ms: u64) -> (Result<Listing, Error>, Vec<Vec<u8>>) {
    let mut keys = Vec::new();
    let r = Conn::connect(f.addr(), opts(ms)).and_then(|mut c| {
        let how = ListOptions {
            pace: Pace::Whole,
            sizes: Sizes::MANY_LISTINGS,
        };
        c.list_keys(how, |k| {
            keys.push(k.key);
            Ok::<(), Error>(())
        })
    });
    (r, keys)
}

#[test]
fn a_slow_server_gets_one_deadline_for_everything() {
    let f = Fake::slow();
    let t = Instant::now();
    let (r, _) = list(&f, 1500);
    let e = r.unwrap_err();
    assert_eq!(e.kind, ErrorKind::Timeout, "{e}");
    assert!(
        t.elapsed() < Duration::from_millis(1900),
        "{:?}",
        t.elapsed()
    );
    assert_eq!(
        e.message,
        format!(
            "timed out after 1.5 s waiting for the reply to `stats` from {}",
            f.addr()
        )
    );
}

#[test]
fn a_stalled_server_times_out_and_a_stop_interrupts_within_a_poll() {
    let f = Fake::stalled();
    let t = Instant::now();
    let e = list(&f, 300).0.unwrap_err();
    assert_eq!(e.kind, ErrorKind::Timeout);
    assert!(t.elapsed() < Duration::from_millis(600));

    let o = opts(60_000);
    let stop = o.stop.clone();
    let mut c = Conn::connect(f.addr(), o).unwrap();
    let raise = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(200));
        stop.store(true, Ordering::SeqCst);
    });
    let t = Instant::now();
    let e = c.version().unwrap_err();
    raise.join().unwrap();
    assert_eq!(e.kind, ErrorKind::Interrupted, "{e}");
    assert!(
        t.elapsed() < Duration::from_millis(200) + POLL * 2,
        "{:?}",
        t.elapsed()
    );
    assert!(e.message.contains("`version`"), "{e}");
}

#[test]
fn endless_replies_are_refused_not_collected() {
    let f = Fake::endless_metadump();
    let (r, keys) = list(&f, 20_000);
    let e = r.unwrap_err();
    assert_eq!(e.kind, ErrorKind::Protocol, "{e}");
    assert!(e.message.contains("more than 100020 lines"), "{e}");
    assert!(e.message.contains(f.addr()), "{e}");
    // No line past the limit is handed on; past 65,536 keys the few the key set's filter
    // holds back until the end of the pass (which never comes) are not handed on either.
    assert!(
        (100_000..=100_020).contains(&keys.len()),
        "{} keys handed on",
        keys.len()
    );

    let f = Fake::endless_stats();
    let mut c = Conn::connect(f.addr(), opts(20_000)).unwrap();
    let e = c.stats("").unwrap_err();
    assert_eq!(e.kind, ErrorKind::Protocol, "{e}");
    assert!(e.message.contains("`stats`"), "{e}");
}

#[test]
fn bad_listing_lines_are_reported_and_skipped() {
    let f = Fake::garbage();
    let (r, keys) = list(&f, 5000);
    let l = r.unwrap();
    assert_eq!(keys, [&b"good:1"[..], b"good:2", b"good:3"]);
    assert_eq!(l.keys, 3);
    assert!(!l.is_complete());
    assert_eq!(l.bad_count, 5);
    let lines: Vec<u64> = l.bad.iter().map(|b| b.line).collect();
    assert_eq!(lines, [2, 4, 6, 7, 8]);
    assert!(l.bad[0].reason.contains("bad %-escape"), "{:?}", l.bad);
    assert!(l.bad[1].reason.contains("longer than 2048"), "{:?}", l.bad);
    assert!(
        l.bad[2].reason.contains("not a metadump line"),
        "{:?}",
        l.bad
    );
    assert!(
        l.bad[3].reason.contains("251 bytes (the limit is 250)"),
        "{:?}",
        l.bad
    );
    assert!(l.bad[4].reason.contains("raw byte 0x1b"), "{:?}", l.bad);
    assert!(l.bad[4].reason.contains("\\x1b[2J"), "{:?}", l.bad);
}

#[test]
fn a_connection_closed_mid_line_says_so() {
    let f = Fake::killed_mid_reply();
    let (r, keys) = list(&f, 5000);
    let e = r.unwrap_err();
    assert_eq!(e.kind, ErrorKind::Closed);
    assert_eq!(
        e.message,
        format!(
            "connection closed by {0} in the middle of a reply line (the reply to `lru_crawler metadump all` from {0})",
            f.addr()
        )
    );
    assert_eq!(keys, [b"first".to_vec()]);
}

#[test]
fn a_refused_connection_names_the_server() {
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let addr = format!("127.0.0.1:{port}");
    let e = Conn::connect(&addr, opts(1000)).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Connect);
    assert_eq!(
        e.message,
        format!("cannot connect to {addr}: connection refused")
    );
}

fn insecure_tls() -> Option<std::sync::Arc<tls::Tls>> {
    let s = tls::Settings {
        insecure: true,
        ..tls::Settings::default()
    };
    Some(std::sync::Arc::new(tls::Tls::new(&s).unwrap()))
}

#[test]
fn the_tls_handshake_counts_against_the_deadline_and_a_stop_ends_it() {
    let f = Fake::stalled();
    let t = Instant::now();
    let e = Conn::connect(f.addr(), opts(300).with_tls(insecure_tls())).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Timeout, "{e}");
    assert!(
        t.elapsed() < Duration::from_millis(600),
        "{:?}",
        t.elapsed()
    );
    assert_eq!(
        e.message,
        format!(
            "timed out after 0.3 s in the TLS handshake with {} (a server without TLS never \
             answers one: was --tls meant?)",
            f.addr()
        )
    );

    let o = opts(60_000).with_tls(insecure_tls());
    let stop = o.stop.clone();
    let raise = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(200));
        stop.store(true, Ordering::SeqCst);
    });
    let t = Instant::now();
    let e = Conn::connect(f.addr(), o).unwrap_err();
    raise.join().unwrap();
    assert_eq!(e.kind, ErrorKind::Interrupted, "{e}");
    assert!(
        t.elapsed() < Duration::from_millis(200) + POLL * 2,
        "{:?}",
        t.elapsed()
    );
}

/// A server that answers the first bytes it gets with `reply`, then closes.
fn answers_once(reply: &'static [u8]) -> (String, std::thread::JoinHandle<()>) {
    use std::io::{Read, Write};
    let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = l.local_addr().unwrap().to_string();
    let h = std::thread::spawn(move || {
        let (mut s, _) = l.accept().unwrap();
        let mut buf = [0u8; 512];
        let _ = s.read(&mut buf);
        let _ = s.write_all(reply);
    });
    (addr, h)
}

#[test]
fn a_tls_answer_to_a_plain_client_suggests_tls() {
    // A TLS alert record (fatal, unexpected_message), as a TLS server sends to plain text.
    let (addr, h) = answers_once(b"\x15\x03\x03\x00\x02\x02\x0a");
    let mut c = Conn::connect(&addr, opts(2000)).unwrap();
    let e = c.version().unwrap_err();
    h.join().unwrap();
    assert!(e.message.contains("add --tls"), "{e}");
    assert!(e.message.contains(&addr), "{e}");
}

#[test]
fn a_plain_answer_to_the_handshake_is_named() {
    let (addr, h) = answers_once(b"ERROR\r\nERROR\r\n");
    let e = Conn::connect(&addr, opts(2000).with_tls(insecure_tls())).unwrap_err();
    h.join().unwrap();
    assert_eq!(e.kind, ErrorKind::Tls, "{e}");
    assert_eq!(
        e.message,
        format!(
            "the TLS handshake with {addr} failed: the server did not answer in TLS: is it a \
             plain memcached (without -Z)? Then drop --tls"
        )
    );
}

#[test]
fn plain_replies_get_no_tls_hint() {
    let (addr, h) = answers_once(b"VERSION 1.6.18\r\n");
    let mut c = Conn::connect(&addr, opts(2000)).unwrap();
    assert_eq!(c.version().unwrap(), "1.6.18");
    let e = c.version().unwrap_err();
    h.join().unwrap();
    assert_eq!(e.kind, ErrorKind::Closed, "{e}");
    assert!(!e.message.contains("--tls"), "{e}");
}

/// memcached's crawler skips an item while an LRU bump of it is pending (items fetched in the
/// COLD segment, until the LRU maintainer wakes, up to a second later): the server's passes
/// list 6 of its 10 keys for 0.8 s, then all 10. Passes 100 ms apart stop at 6 (the second
/// finds nothing new); the listing waits for the maintainer before its second pass.
#[test]
fn keys_skipped_while_their_bumps_are_pending_are_listed_by_the_next_pass() {
    let dump = |n: usize| {
        let mut b = Vec::new();
        for i in 0..n {
            b.extend_from_slice(metadump_line(&format!("k{i}")).as_bytes());
        }
        b.extend_from_slice(b"END\r\n");
        b
    };
    let early = Duration::from_millis(800);
    assert!(early < SETTLE);
    let f = Fake::start(
        vec![
            ("stats", Reply::Bytes(stats_reply(10))),
            ("lru_crawler", Reply::Until(early, dump(6), dump(10))),
        ],
        LIFETIME,
    );
    let (r, keys) = list(&f, 5000);
    let listing = r.unwrap();
    assert_eq!(keys.len(), 10, "{keys:?}");
    assert_eq!(listing.keys, 10);
    assert!(listing.is_complete());
}
