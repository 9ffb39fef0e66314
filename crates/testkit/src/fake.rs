//! Fake memcached servers on 127.0.0.1 that misbehave, for tests: slow (one byte a second),
//! stalled (accept, never answer), endless (`lru_crawler metadump` or `stats` replies that
//! never end), garbage (invalid lines, 60 KB keys, bad `%` escapes, escape sequences) and
//! killed in the middle of a reply line.
//!
//! Each server answers the commands it is scripted for (by the command's first words) and
//! `ERROR` to the others. It stops by itself when its lifetime ends or when dropped, and so
//! does every connection it accepted: no fixture outlives its test.

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// How long a fixture lives unless told otherwise.
pub const LIFETIME: Duration = Duration::from_secs(30);

/// What a fake server sends for one command.
#[derive(Clone, Debug)]
pub enum Reply {
    /// These bytes at once.
    Bytes(Vec<u8>),
    /// These bytes, one every `interval`.
    Trickle(Vec<u8>, Duration),
    /// Nothing, ever (the connection stays open).
    Silent,
    /// These bytes, then the connection is closed.
    Close(Vec<u8>),
    /// `line(0)`, `line(1)`, ... as fast as the client reads, until it goes away or the
    /// server's lifetime ends.
    Endless(fn(u64) -> Vec<u8>),
    /// The first bytes until this long after the server started, the second ones after.
    Until(Duration, Vec<u8>, Vec<u8>),
}

/// A running fake server.
#[derive(Debug)]
pub struct Fake {
    addr: String,
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl Drop for Fake {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// A `stats` reply with this `curr_items`.
pub fn stats_reply(items: u64) -> Vec<u8> {
    format!("STAT pid 1\r\nSTAT uptime 10\r\nSTAT curr_items {items}\r\nEND\r\n").into_bytes()
}

/// A metadump line for this (already encoded) key.
pub fn metadump_line(encoded_key: &str) -> String {
    format!("key={encoded_key} exp=-1 la=1700000000 cas=1 fetch=no cls=1 size=64\r\n")
}

impl Fake {
    /// A server answering each command that starts with a route's prefix with its reply
    /// (the first matching route), `ERROR` otherwise; it stops after `lifetime`.
    pub fn start(routes: Vec<(&'static str, Reply)>, lifetime: Duration) -> Fake {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind a fake server");
        listener.set_nonblocking(true).unwrap();
        let addr = listener.local_addr().unwrap().to_string();
        let stop = Arc::new(AtomicBool::new(false));
        let flag = stop.clone();
        let started = Instant::now();
        let until = started + lifetime;
        let thread = std::thread::spawn(move || {
            let mut conns = Vec::new();
            while !flag.load(Ordering::SeqCst) && Instant::now() < until {
                match listener.accept() {
                    Ok((s, _)) => {
                        let routes = routes.clone();
                        let flag = flag.clone();
                        conns.push(std::thread::spawn(move || {
                            serve(s, &routes, &flag, (started, until))
                        }));
                    }
                    Err(_) => std::thread::sleep(Duration::from_millis(10)),
                }
            }
            flag.store(true, Ordering::SeqCst);
            for c in conns {
                let _ = c.join();
            }
        });
        Fake {
            addr,
            stop,
            thread: Some(thread),
        }
    }

    /// `host:port` of the server.
    pub fn addr(&self) -> &str {
        &self.addr
    }

    /// Sends every reply one byte a second.
    pub fn slow() -> Fake {
        let mut listing = Vec::new();
        for i in 0..1000 {
            listing.extend_from_slice(metadump_line(&format!("k{i}")).as_bytes());
        }
        listing.extend_from_slice(b"END\r\n");
        let second = Duration::from_secs(1);
        Fake::start(
            vec![
                ("stats", Reply::Trickle(stats_reply(1000), second)),
                ("lru_crawler", Reply::Trickle(listing, second)),
                (
                    "version",
                    Reply::Trickle(b"VERSION 1.6.0\r\n".to_vec(), second),
                ),
            ],
            LIFETIME,
        )
    }

    /// Accepts connections and never answers.
    pub fn stalled() -> Fake {
        Fake::start(vec![("", Reply::Silent)], LIFETIME)
    }

    /// A sound `stats`, then a metadump that never ends.
    pub fn endless_metadump() -> Fake {
        Fake::start(
            vec![
                ("stats", Reply::Bytes(stats_reply(10))),
                (
                    "lru_crawler",
                    Reply::Endless(|i| metadump_line(&format!("key:{i}")).into_bytes()),
                ),
            ],
            LIFETIME,
        )
    }

    /// A `stats` reply that never ends.
    pub fn endless_stats() -> Fake {
        Fake::start(
            vec![(
                "stats",
                Reply::Endless(|i| format!("STAT counter_{i} {i}\r\n").into_bytes()),
            )],
            LIFETIME,
        )
    }

    /// A listing of `good` keys and, between them, lines memcached never sends (`bad`).
    pub fn listing(good: &[&str], bad: &[&[u8]]) -> Fake {
        let mut l = Vec::new();
        for (i, k) in good.iter().enumerate() {
            l.extend_from_slice(metadump_line(k).as_bytes());
            if let Some(b) = bad.get(i) {
                l.extend_from_slice(b);
                l.extend_from_slice(b"\r\n");
            }
        }
        for b in bad.iter().skip(good.len()) {
            l.extend_from_slice(b);
            l.extend_from_slice(b"\r\n");
        }
        l.extend_from_slice(b"END\r\n");
        Fake::start(
            vec![
                ("stats", Reply::Bytes(stats_reply(good.len() as u64))),
                ("lru_crawler", Reply::Bytes(l)),
            ],
            LIFETIME,
        )
    }

    /// A listing of 3 good keys around garbage: a bad `%` escape, a 60 KB line, a line
    /// without `key=`, a key of 251 bytes and a raw escape sequence.
    pub fn garbage() -> Fake {
        let long = format!("key={} exp=-1", "x".repeat(60 * 1024));
        let over = format!("key={} exp=-1", "k".repeat(251));
        Fake::listing(
            &["good:1", "good:2", "good:3"],
            &[
                b"key=%+1 exp=-1 la=1",
                long.as_bytes(),
                b"hello world",
                over.as_bytes(),
                b"key=\x1b[2J\x1b[H exp=-1",
            ],
        )
    }

    /// A sound `stats` (3 items), then a listing cut in the middle of its second line.
    pub fn killed_mid_reply() -> Fake {
        let mut l = metadump_line("first").into_bytes();
        l.extend_from_slice(b"key=second exp=-1 la=17");
        Fake::start(
            vec![
                ("stats", Reply::Bytes(stats_reply(3))),
                ("lru_crawler", Reply::Close(l)),
            ],
            LIFETIME,
        )
    }
}

/// Serves one connection until the client leaves, the server stops or its lifetime ends.
fn serve(
    mut s: TcpStream,
    routes: &[(&'static str, Reply)],
    stop: &AtomicBool,
    (started, until): (Instant, Instant),
) {
    let _ = s.set_read_timeout(Some(Duration::from_millis(50)));
    let _ = s.set_write_timeout(Some(Duration::from_millis(200)));
    let live = || !stop.load(Ordering::SeqCst) && Instant::now() < until;
    let mut pending = Vec::new();
    let mut buf = [0u8; 4096];
    while live() {
        let n = match s.read(&mut buf) {
            Ok(0) => return,
            Ok(n) => n,
            Err(e) if is_timeout(&e) => continue,
            Err(_) => return,
        };
        pending.extend_from_slice(&buf[..n]);
        while let Some(end) = pending.iter().position(|&b| b == b'\n') {
            let line: Vec<u8> = pending.drain(..=end).collect();
            let cmd = String::from_utf8_lossy(&line).trim_end().to_string();
            let reply = routes
                .iter()
                .find(|(p, _)| cmd.starts_with(p))
                .map(|(_, r)| r.clone())
                .unwrap_or(Reply::Bytes(b"ERROR\r\n".to_vec()));
            match reply {
                Reply::Until(after, early, late) => {
                    let b = if started.elapsed() < after {
                        early
                    } else {
                        late
                    };
                    if write(&mut s, &b, &live).is_err() {
                        return;
                    }
                }
                Reply::Bytes(b) => {
                    if write(&mut s, &b, &live).is_err() {
                        return;
                    }
                }
                Reply::Trickle(b, every) => {
                    for byte in b {
                        if write(&mut s, &[byte], &live).is_err() {
                            return;
                        }
                        let next = Instant::now() + every;
                        while Instant::now() < next {
                            if !live() {
                                return;
                            }
                            std::thread::sleep(Duration::from_millis(20));
                        }
                    }
                }
                Reply::Silent => {
                    while live() {
                        std::thread::sleep(Duration::from_millis(20));
                    }
                    return;
                }
                Reply::Close(b) => {
                    let _ = write(&mut s, &b, &live);
                    return;
                }
                Reply::Endless(line) => {
                    let mut i = 0u64;
                    let mut chunk = Vec::new();
                    loop {
                        chunk.clear();
                        while chunk.len() < 64 * 1024 {
                            chunk.extend_from_slice(&line(i));
                            i += 1;
                        }
                        if write(&mut s, &chunk, &live).is_err() {
                            return;
                        }
                    }
                }
            }
        }
    }
}

/// Writes all of `b`, giving up when the client is gone or the server stops.
fn write(s: &mut TcpStream, mut b: &[u8], live: &dyn Fn() -> bool) -> Result<(), ()> {
    while !b.is_empty() {
        if !live() {
            return Err(());
        }
        match s.write(b) {
            Ok(0) => return Err(()),
            Ok(n) => b = &b[n..],
            Err(e) if is_timeout(&e) => {}
            Err(_) => return Err(()),
        }
    }
    Ok(())
}

fn is_timeout(e: &std::io::Error) -> bool {
    matches!(
        e.kind(),
        std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
    )
}
