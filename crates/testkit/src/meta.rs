//! A tiny meta-protocol client of its own (one connection per call), so tests write and read
//! what the tool copies without going through the client under test.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::time::Duration;

/// A tiny meta-protocol client for the tests (one connection per call).
pub fn talk(addr: &str, req: &[u8]) -> Vec<u8> {
    let mut s = TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
    s.write_all(req).unwrap();
    s.write_all(b"mn\r\n").unwrap();
    let mut r = BufReader::new(s);
    let mut out = Vec::new();
    loop {
        let mut l = Vec::new();
        r.read_until(b'\n', &mut l).unwrap();
        if l == b"MN\r\n" {
            return out;
        }
        if l.starts_with(b"VA ") {
            let n: usize = std::str::from_utf8(&l[3..])
                .unwrap()
                .split([' ', '\r'])
                .next()
                .unwrap()
                .parse()
                .unwrap();
            out.extend_from_slice(&l);
            let mut v = vec![0; n + 2];
            r.read_exact(&mut v).unwrap();
            out.extend_from_slice(&v);
            continue;
        }
        out.extend_from_slice(&l);
    }
}

/// The key token and its flag: plain when the text protocol carries it, else base64 and `b`.
pub fn tok(key: &[u8]) -> (String, &'static str) {
    if key.len() <= 250 && key.iter().all(|&b| b > 0x20 && b != 0x7f) {
        (String::from_utf8(key.to_vec()).unwrap(), "")
    } else {
        (b64(key), " b")
    }
}

/// Standard base64 (RFC 4648, with padding), written apart from the client under test.
pub fn b64(bytes: &[u8]) -> String {
    const A: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut s = String::new();
    for c in bytes.chunks(3) {
        let n = (c[0] as u32) << 16
            | (*c.get(1).unwrap_or(&0) as u32) << 8
            | *c.get(2).unwrap_or(&0) as u32;
        for i in 0..4 {
            s.push(if i <= c.len() {
                A[(n >> (18 - 6 * i) & 63) as usize] as char
            } else {
                '='
            });
        }
    }
    s
}

/// Stores with `ms` (base64 key): flags, TTL (0 = none).
pub fn store(addr: &str, key: &[u8], value: &[u8], flags: u32, ttl: i64) {
    let mut req = format!(
        "ms {} {}{} F{flags} T{ttl}\r\n",
        tok(key).0,
        value.len(),
        tok(key).1
    )
    .into_bytes();
    req.extend_from_slice(value);
    req.extend_from_slice(b"\r\n");
    let r = talk(addr, &req);
    assert_eq!(
        r,
        b"HD\r\n",
        "store on {addr}: {:?} -> {}",
        String::from_utf8_lossy(&req[..req.len().min(300)]),
        String::from_utf8_lossy(&r)
    );
}

/// Stores many keys with `ms` on one connection, pipelined (quiet mode: only a failure would
/// answer), each with its flags and no TTL.
pub fn store_many(addr: &str, items: impl Iterator<Item = (Vec<u8>, Vec<u8>, u32)>) {
    let mut req = Vec::new();
    for (k, v, flags) in items {
        let (t, b) = tok(&k);
        req.extend_from_slice(format!("ms {t} {}{b} F{flags} T0 q\r\n", v.len()).as_bytes());
        req.extend_from_slice(&v);
        req.extend_from_slice(b"\r\n");
    }
    let r = talk(addr, &req);
    assert!(
        r.is_empty(),
        "store on {addr}: {}",
        String::from_utf8_lossy(&r)
    );
}

/// `(value, flags, ttl)` of a key, or None.
pub fn fetch(addr: &str, key: &[u8]) -> Option<(Vec<u8>, u32, i64)> {
    let r = talk(
        addr,
        format!("mg {}{} v f t\r\n", tok(key).0, tok(key).1).as_bytes(),
    );
    if r == b"EN\r\n" {
        return None;
    }
    let end = r.windows(2).position(|w| w == b"\r\n").unwrap();
    let head = std::str::from_utf8(&r[..end]).unwrap();
    let mut flags = 0;
    let mut ttl = 0;
    for t in head.split(' ').skip(2) {
        match t.as_bytes()[0] {
            b'f' => flags = t[1..].parse().unwrap(),
            b't' => ttl = t[1..].parse().unwrap(),
            _ => {}
        }
    }
    Some((r[end + 2..r.len() - 2].to_vec(), flags, ttl))
}

/// Deletes a key with `md`.
pub fn delete(addr: &str, key: &[u8]) {
    talk(
        addr,
        format!("md {}{}\r\n", tok(key).0, tok(key).1).as_bytes(),
    );
}
