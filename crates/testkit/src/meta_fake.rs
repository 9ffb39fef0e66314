//! A fake memcached that speaks enough of the meta protocol for a migration (`version`, `mn`,
//! `stats`, `stats settings`, `lru_crawler metadump all`, `mg`, `ms`, `md`) and misbehaves
//! as told: it answers pipelined requests out of order, lists sizes smaller than its values,
//! announces values larger than it says it can hold, or never answers a read.
//!
//! Its values are made from their key when asked for (never stored), so a fake can serve
//! hundreds of megabytes; what it is sent with `ms` is read and dropped (a sink: every write
//! succeeds). It echoes the opaque token (`O`) and the key (`k`) a request asks for, as
//! memcached 1.6.18 does. It stops when dropped or after [`LIFETIME`].

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use crate::fake::LIFETIME;

/// What the fake holds and how it misbehaves.
#[derive(Clone, Debug)]
pub struct Script {
    /// Its keys, each with the length of its value.
    pub keys: Vec<(String, usize)>,
    /// The `size=` its listing gives each key (`None`: the value's length plus 50).
    pub listed_size: Option<u64>,
    /// Answers the `mg` requests of each read in reverse order (the others in order).
    pub reorder: bool,
    /// Announces values of this many bytes (`VA <n>`) and sends none of them.
    pub announce: Option<u64>,
    /// `item_size_max` of its `stats settings`.
    pub item_size_max: u64,
    /// Never answers an `mg` of a value (the connection stays open).
    pub silent_reads: bool,
}

impl Script {
    /// `n` keys `key:0` .. with values of `len` bytes, listed truthfully, answered in order,
    /// memcached's default item size limit.
    pub fn keys(n: usize, len: usize) -> Script {
        Script {
            keys: (0..n).map(|i| (format!("key:{i}"), len)).collect(),
            listed_size: None,
            reorder: false,
            announce: None,
            item_size_max: 1 << 20,
            silent_reads: false,
        }
    }
}

/// The value the fake holds for `key`: `value-of-<key>-` repeated to `len` bytes.
pub fn value_of(key: &str, len: usize) -> Vec<u8> {
    let mut v = format!("value-of-{key}-").into_bytes();
    v.reserve(len);
    while v.len() < len {
        v.extend_from_within(..v.len().min(len - v.len()));
    }
    v.truncate(len);
    v
}

/// A running fake.
#[derive(Debug)]
pub struct MetaFake {
    addr: String,
    stop: Arc<AtomicBool>,
    writes: Arc<AtomicU64>,
    thread: Option<JoinHandle<()>>,
}

impl Drop for MetaFake {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

impl MetaFake {
    /// Starts a fake on a free port of 127.0.0.1.
    pub fn start(script: Script) -> MetaFake {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind a fake server");
        listener.set_nonblocking(true).unwrap();
        let addr = listener.local_addr().unwrap().to_string();
        let stop = Arc::new(AtomicBool::new(false));
        let writes = Arc::new(AtomicU64::new(0));
        let (flag, count) = (stop.clone(), writes.clone());
        let until = Instant::now() + LIFETIME;
        let script = Arc::new(script);
        let thread = std::thread::spawn(move || {
            let mut conns = Vec::new();
            while !flag.load(Ordering::SeqCst) && Instant::now() < until {
                match listener.accept() {
                    Ok((s, _)) => {
                        let (script, flag, count) = (script.clone(), flag.clone(), count.clone());
                        conns.push(std::thread::spawn(move || {
                            serve(s, &script, &flag, &count, until)
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
        MetaFake {
            addr,
            stop,
            writes,
            thread: Some(thread),
        }
    }

    /// `host:port` of the fake.
    pub fn addr(&self) -> &str {
        &self.addr
    }

    /// How many `ms` it was sent.
    pub fn writes(&self) -> u64 {
        self.writes.load(Ordering::SeqCst)
    }
}

/// The reply to one request line (and its data block, for `ms`, already read) of the fake on
/// `port` (its pid in `stats`: each fake is a server of its own).
fn reply(script: &Script, port: u16, line: &str, writes: &AtomicU64) -> Vec<u8> {
    let words: Vec<&str> = line.split(' ').collect();
    let echo = |flags: &[&str]| -> String {
        let mut e = String::new();
        for f in flags {
            if f.starts_with('O') {
                e.push(' ');
                e.push_str(f);
            }
        }
        if flags.contains(&"k") {
            e.push_str(&format!(" k{}", words.get(1).unwrap_or(&"")));
        }
        e
    };
    match words.as_slice() {
        ["version"] => b"VERSION 1.6.18\r\n".to_vec(),
        ["mn"] => b"MN\r\n".to_vec(),
        ["stats"] => {
            let now = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_secs());
            format!(
                "STAT pid {}\r\nSTAT uptime 100\r\nSTAT time {now}\r\nSTAT curr_items {}\r\nEND\r\n",
                port,
                script.keys.len()
            )
            .into_bytes()
        }
        ["stats", "settings"] => {
            format!("STAT item_size_max {}\r\nEND\r\n", script.item_size_max).into_bytes()
        }
        ["lru_crawler", "metadump", "all"] => {
            let mut out = Vec::new();
            for (i, (k, len)) in script.keys.iter().enumerate() {
                let size = script.listed_size.unwrap_or(*len as u64 + 50);
                out.extend_from_slice(
                    format!(
                        "key={k} exp=-1 la=1 cas={} fetch=no cls=1 size={size}\r\n",
                        i + 1
                    )
                    .as_bytes(),
                );
            }
            out.extend_from_slice(b"END\r\n");
            out
        }
        ["mg", key, flags @ ..] => {
            let Some(i) = script.keys.iter().position(|(k, _)| k == key) else {
                return format!("EN{}\r\n", echo(flags)).into_bytes();
            };
            let len = script.keys[i].1;
            if !flags.contains(&"v") {
                return format!("HD c{}{}\r\n", i + 1, echo(flags)).into_bytes();
            }
            if script.silent_reads {
                return Vec::new();
            }
            if let Some(n) = script.announce {
                return format!("VA {n} f0 t-1 c{}{}\r\n", i + 1, echo(flags)).into_bytes();
            }
            let mut out = format!("VA {len} f0 t-1 c{}{}\r\n", i + 1, echo(flags)).into_bytes();
            out.extend_from_slice(&value_of(key, len));
            out.extend_from_slice(b"\r\n");
            out
        }
        ["ms", _, _, flags @ ..] => {
            let n = writes.fetch_add(1, Ordering::SeqCst);
            format!("HD c{}{}\r\n", 1_000_000 + n, echo(flags)).into_bytes()
        }
        ["md", _, flags @ ..] => format!("HD{}\r\n", echo(flags)).into_bytes(),
        _ => b"ERROR\r\n".to_vec(),
    }
}

/// The length of the data block an `ms` line announces.
fn data_len(line: &str) -> Option<usize> {
    let mut w = line.split(' ');
    (w.next()? == "ms").then_some(())?;
    w.nth(1)?.parse().ok()
}

/// Serves one connection until the client leaves or the fake stops.
fn serve(mut s: TcpStream, script: &Script, stop: &AtomicBool, writes: &AtomicU64, until: Instant) {
    let port = s.local_addr().map_or(0, |a| a.port());
    let _ = s.set_read_timeout(Some(Duration::from_millis(50)));
    let _ = s.set_write_timeout(Some(Duration::from_millis(200)));
    let live = || !stop.load(Ordering::SeqCst) && Instant::now() < until;
    let mut pending: Vec<u8> = Vec::new();
    let mut buf = vec![0u8; 1 << 16];
    while live() {
        let n = match s.read(&mut buf) {
            Ok(0) => return,
            Ok(n) => n,
            Err(e)
                if matches!(
                    e.kind(),
                    std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                ) =>
            {
                continue
            }
            Err(_) => return,
        };
        pending.extend_from_slice(&buf[..n]);
        let mut replies = Vec::new();
        let mut gets = Vec::new();
        while let Some(end) = pending.iter().position(|&b| b == b'\n') {
            let line = String::from_utf8_lossy(&pending[..end])
                .trim_end()
                .to_string();
            let data = data_len(&line).map_or(0, |l| l + 2);
            if pending.len() < end + 1 + data {
                break;
            }
            pending.drain(..end + 1 + data);
            let r = reply(script, port, &line, writes);
            if script.reorder && line.starts_with("mg ") {
                gets.push(r);
            } else {
                replies.push(r);
            }
        }
        replies.extend(gets.into_iter().rev());
        for r in replies {
            let mut b = r.as_slice();
            while !b.is_empty() {
                if !live() {
                    return;
                }
                match s.write(b) {
                    Ok(0) => return,
                    Ok(n) => b = &b[n..],
                    Err(e)
                        if matches!(
                            e.kind(),
                            std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                        ) => {}
                    Err(_) => return,
                }
            }
        }
    }
}
