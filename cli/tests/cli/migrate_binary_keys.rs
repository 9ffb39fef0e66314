//! Binary keys at the meta protocol's limit, on real memcached: keys of any bytes written with
//! memcached's binary protocol (as a libmemcached client with BINARY_PROTOCOL does). A binary
//! key of 186 bytes (base64: 248) is copied; one of 187 (252) or more cannot be named by the
//! meta protocol and is counted as unsendable, as the report says; a key with line ends and
//! spaces is copied.

use crate::common;

use std::io::{Read, Write};
use std::net::TcpStream;

use common::memcached::{memcached, tmpdir, Fleet};
use common::migrate::{fetch, ketama};

/// `set` with memcached's binary protocol: any key bytes, flags 0, no expiry.
fn binary_set(addr: &str, key: &[u8], value: &[u8]) {
    let mut s = TcpStream::connect(addr).unwrap();
    let body = 8 + key.len() + value.len();
    let mut req = vec![0x80, 0x01];
    req.extend_from_slice(&(key.len() as u16).to_be_bytes());
    req.extend_from_slice(&[8, 0, 0, 0]);
    req.extend_from_slice(&(body as u32).to_be_bytes());
    req.extend_from_slice(&[0; 12]); // opaque, CAS
    req.extend_from_slice(&[0; 8]); // flags, expiry
    req.extend_from_slice(key);
    req.extend_from_slice(value);
    s.write_all(&req).unwrap();
    let mut head = [0u8; 24];
    s.read_exact(&mut head).unwrap();
    assert_eq!(
        (head[0], head[6], head[7]),
        (0x81, 0, 0),
        "binary set refused"
    );
}

#[test]
fn a_186_byte_binary_key_is_copied_and_187_bytes_are_unsendable() {
    let Some(mc) = memcached() else { return };
    let fleet = Fleet::start(&mc, 2, &["-m", "16"]);
    let dir = tmpdir("binkeys", "limit");
    let (old, new) = (dir.join("old"), dir.join("new"));
    std::fs::write(&old, format!("{}\n", fleet.labels[0])).unwrap();
    std::fs::write(&new, format!("{}\n", fleet.labels[1])).unwrap();
    let mut keys: Vec<Vec<u8>> = [186usize, 187, 250]
        .iter()
        .map(|&n| (0..n).map(|i| (i % 7) as u8).collect())
        .collect();
    // Line ends and spaces in a key: memcached would echo them raw.
    keys.push(b"bin\r\nkey with spaces\n".to_vec());
    for k in &keys {
        binary_set(&fleet.labels[0], k, b"v");
    }
    let args = [
        "migrate",
        "run",
        "--servers",
        old.to_str().unwrap(),
        "--to",
        new.to_str().unwrap(),
        "--profile",
        "libketama",
    ];
    let out = ketama(&args);
    let table = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let row = |name: &str| -> String {
        table
            .lines()
            .find(|l| l.starts_with(name))
            .unwrap_or_default()
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
    };
    assert!(row("copied").starts_with("copied 2 "), "{table}");
    assert!(
        row("unsendable").starts_with("unsendable 2 binary keys over 186 bytes"),
        "{table}"
    );
    assert!(
        fetch(&fleet.labels[1], &keys[0]).is_some(),
        "the 186-byte key is copied"
    );
}
