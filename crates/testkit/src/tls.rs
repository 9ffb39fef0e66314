//! TLS fixtures: a certificate authority, server and client certificates made with the
//! `openssl` command (installed with tests/lib/need.sh when missing), and `memcached -Z`
//! processes on 127.0.0.1, each with a plain (`notls`) second port the test itself uses to
//! write and read keys. Every process is killed by its PID on drop.

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use crate::memcached::free_port;
use crate::packages::need;

fn openssl(dir: &Path, args: &[&str]) {
    need("openssl", "openssl");
    let out = Command::new("openssl")
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .output()
        .expect("run openssl");
    assert!(
        out.status.success(),
        "openssl {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// A PEM certificate and its key, as files.
#[derive(Clone, Debug)]
pub struct Pem {
    /// The certificate's file.
    pub cert: PathBuf,
    /// Its private key's file.
    pub key: PathBuf,
}

impl Pem {
    /// The certificate's path, as a string for command lines.
    pub fn cert(&self) -> &str {
        self.cert.to_str().unwrap()
    }

    /// The key's path, as a string for command lines.
    pub fn key(&self) -> &str {
        self.key.to_str().unwrap()
    }
}

/// A new certificate authority `name` in `dir` (P-256, valid two days).
pub fn ca(dir: &Path, name: &str) -> Pem {
    openssl(
        dir,
        &[
            "req",
            "-x509",
            "-newkey",
            "ec",
            "-pkeyopt",
            "ec_paramgen_curve:P-256",
            "-nodes",
            "-keyout",
            &format!("{name}.key"),
            "-out",
            &format!("{name}.pem"),
            "-days",
            "2",
            "-subj",
            &format!("/CN=ketama test {name}"),
            "-addext",
            "basicConstraints=critical,CA:TRUE",
            "-addext",
            "keyUsage=critical,keyCertSign,cRLSign",
        ],
    );
    Pem {
        cert: dir.join(format!("{name}.pem")),
        key: dir.join(format!("{name}.key")),
    }
}

/// A certificate `name` signed by `ca`, for `san` (e.g. `IP:127.0.0.1`) and the extended key
/// usage `eku` (`serverAuth` or `clientAuth`).
pub fn leaf(dir: &Path, name: &str, ca: &Pem, san: &str, eku: &str) -> Pem {
    openssl(
        dir,
        &[
            "req",
            "-newkey",
            "ec",
            "-pkeyopt",
            "ec_paramgen_curve:P-256",
            "-nodes",
            "-keyout",
            &format!("{name}.key"),
            "-out",
            &format!("{name}.csr"),
            "-subj",
            &format!("/CN={name}"),
        ],
    );
    std::fs::write(
        dir.join(format!("{name}.ext")),
        format!(
            "subjectAltName={san}\nbasicConstraints=CA:FALSE\nkeyUsage=digitalSignature\nextendedKeyUsage={eku}\n"
        ),
    )
    .unwrap();
    openssl(
        dir,
        &[
            "x509",
            "-req",
            "-in",
            &format!("{name}.csr"),
            "-CA",
            ca.cert(),
            "-CAkey",
            ca.key(),
            "-CAcreateserial",
            "-out",
            &format!("{name}.pem"),
            "-days",
            "2",
            "-extfile",
            &format!("{name}.ext"),
        ],
    );
    Pem {
        cert: dir.join(format!("{name}.pem")),
        key: dir.join(format!("{name}.key")),
    }
}

/// One `memcached -Z`, killed on drop.
#[derive(Debug)]
pub struct TlsMemcached {
    child: Child,
    /// `127.0.0.1:<TLS port>`: the label the tool is given.
    pub label: String,
    /// `127.0.0.1:<plain port>`: the same server without TLS, for the test's own requests.
    pub plain: String,
}

impl Drop for TlsMemcached {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl TlsMemcached {
    /// Starts memcached with TLS on one port (certificate `server`) and plain text on
    /// another; with `client_ca`, TLS clients must show a certificate that CA signed.
    pub fn start(mc: &str, server: &Pem, client_ca: Option<&Pem>) -> TlsMemcached {
        let (tls, plain) = (free_port(), free_port());
        let mut ssl = format!("ssl_chain_cert={},ssl_key={}", server.cert(), server.key());
        if let Some(ca) = client_ca {
            // 2: require a peer certificate.
            ssl.push_str(&format!(",ssl_ca_cert={},ssl_verify_mode=2", ca.cert()));
        }
        let mut child = Command::new(mc)
            .args(["-Z", "-o", &ssl])
            .args(["-l", &format!("127.0.0.1:{tls}")])
            .args(["-l", &format!("notls:127.0.0.1:{plain}")])
            .args(["-U", "0", "-m", "64", "-t", "1"])
            .args(["-u", "root"]) // ignored unless root, where it is required
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let plain = format!("127.0.0.1:{plain}");
        let start = Instant::now();
        while TcpStream::connect(&plain).is_err() || TcpStream::connect(("127.0.0.1", tls)).is_err()
        {
            if start.elapsed() > Duration::from_secs(10) || child.try_wait().unwrap().is_some() {
                let _ = child.kill();
                let _ = child.wait();
                panic!("memcached -Z on {tls}/{plain} did not start");
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        TlsMemcached {
            child,
            label: format!("127.0.0.1:{tls}"),
            plain,
        }
    }
}

/// Sends `req` on the plain port of a server; the reply up to and including `end`.
pub fn talk(addr: &str, req: &[u8], end: &[u8]) -> Vec<u8> {
    let mut s = TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
    s.write_all(req).unwrap();
    let mut out = Vec::new();
    let mut buf = [0u8; 64 * 1024];
    while !out.ends_with(end) {
        let n = s.read(&mut buf).unwrap();
        assert!(n > 0, "{addr} closed");
        out.extend_from_slice(&buf[..n]);
    }
    out
}

/// Stores `keys` (value = key, TTL 0) through the plain port.
pub fn store(addr: &str, keys: &[String]) {
    let mut req = Vec::new();
    for k in keys {
        req.extend_from_slice(format!("set {k} 5 0 {}\r\n{k}\r\n", k.len()).as_bytes());
    }
    let reply = talk(addr, &req, &b"STORED\r\n".repeat(keys.len()));
    assert_eq!(reply, b"STORED\r\n".repeat(keys.len()));
}

/// Stores `key` with `value` (flags 7, TTL 0) through the plain port.
pub fn store_value(addr: &str, key: &str, value: &[u8]) {
    let mut req = format!("set {key} 7 0 {}\r\n", value.len()).into_bytes();
    req.extend_from_slice(value);
    req.extend_from_slice(b"\r\n");
    assert_eq!(talk(addr, &req, b"\r\n"), b"STORED\r\n");
}

/// The flags and value of `key` (through the plain port), if the server holds it.
pub fn get(addr: &str, key: &str) -> Option<(u32, Vec<u8>)> {
    let r = talk(addr, format!("get {key}\r\n").as_bytes(), b"END\r\n");
    let head_end = r.windows(2).position(|w| w == b"\r\n")?;
    let head = std::str::from_utf8(&r[..head_end]).ok()?;
    let f: Vec<&str> = head.split(' ').collect();
    if f.first() != Some(&"VALUE") {
        return None;
    }
    let len: usize = f[3].parse().unwrap();
    let value = r[head_end + 2..head_end + 2 + len].to_vec();
    Some((f[2].parse().unwrap(), value))
}

/// `curr_items` of a server, through its plain port.
pub fn items(addr: &str) -> u64 {
    let r = String::from_utf8(talk(addr, b"stats\r\n", b"END\r\n")).unwrap();
    r.lines()
        .find_map(|l| l.strip_prefix("STAT curr_items ")?.trim().parse().ok())
        .unwrap()
}

/// A TCP server that accepts and reads, and never answers: a handshake that stalls.
pub fn silent() -> (String, std::thread::JoinHandle<()>) {
    let l = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = l.local_addr().unwrap().to_string();
    let h = std::thread::spawn(move || {
        // Serves two connections, each until its client goes away.
        for _ in 0..2 {
            let Ok((mut s, _)) = l.accept() else { return };
            let mut buf = [0u8; 4096];
            while s.read(&mut buf).is_ok_and(|n| n > 0) {}
        }
    });
    (addr, h)
}
