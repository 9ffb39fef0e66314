//! Real redis-server processes for tests: found (installed with tests/lib/need.sh when
//! missing), started on free ports of 127.0.0.1 (with TLS, an ACL, cluster mode as asked),
//! tied to the test process (Linux: SIGKILL when it dies) and killed by their PIDs when the
//! test ends (Drop), so none outlives it. A plain port always stays open for the test's own
//! client (the `redis` crate's), to write and read keys around the tool under test.
//!
//! Where `redis-server` cannot be installed [`redis_server`] says so and the test passes,
//! unless KETAMA_REQUIRE_REDIS=1 (as tests/run-all.sh sets), where it fails.

use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use crate::memcached::free_port;
use crate::packages::need;
use crate::tls::Pem;

/// The redis-server binary, installed when missing; `None` (the test is skipped, saying so)
/// only when it cannot be installed, unless KETAMA_REQUIRE_REDIS=1.
pub fn redis_server() -> Option<String> {
    need("redis-server", "redis-server");
    for p in ["/usr/bin/redis-server", "/usr/local/bin/redis-server"] {
        if Path::new(p).exists() {
            return Some(p.to_string());
        }
    }
    if std::env::var("KETAMA_REQUIRE_REDIS").as_deref() == Ok("1") {
        panic!("redis-server is required (KETAMA_REQUIRE_REDIS=1) but cannot be installed");
    }
    eprintln!(
        "redis-server not installed and not installable: test skipped (set \
         KETAMA_REQUIRE_REDIS=1 to fail)"
    );
    None
}

/// Asks the kernel to SIGKILL the child when the thread that spawned it ends (Linux).
#[cfg(target_os = "linux")]
pub fn die_with_parent(cmd: &mut Command) {
    use std::os::unix::process::CommandExt;
    let parent = std::process::id();
    // SAFETY: the hook runs in the forked child before exec and only makes two
    // async-signal-safe system calls (prctl, getppid) and `_exit`; it touches no memory
    // shared with the parent and allocates nothing.
    unsafe {
        cmd.pre_exec(move || {
            if libc::prctl(
                libc::PR_SET_PDEATHSIG,
                libc::SIGKILL as libc::c_ulong,
                0,
                0,
                0,
            ) != 0
            {
                return Err(std::io::Error::last_os_error());
            }
            if libc::getppid() as u32 != parent {
                libc::_exit(1);
            }
            Ok(())
        });
    }
}

/// Elsewhere the processes are stopped by Drop only.
#[cfg(not(target_os = "linux"))]
pub fn die_with_parent(_cmd: &mut Command) {}

/// TLS for a server: its certificate, and the CA its clients' certificates must chain to
/// (clients are not asked for one unless `require_client`).
#[derive(Clone, Debug)]
pub struct TlsSetup {
    /// The server's certificate and key.
    pub server: Pem,
    /// The CA clients' certificates chain to.
    pub ca: Pem,
    /// Whether clients must show a certificate (`tls-auth-clients yes`).
    pub require_client: bool,
}

/// One redis-server, killed on drop.
#[derive(Debug)]
pub struct Redis {
    bin: String,
    child: Option<Child>,
    /// The plain port (the test's own client uses it).
    pub port: u16,
    /// `127.0.0.1:<port>`, or with TLS `127.0.0.1:<tls port>`: the label the tool is given.
    pub label: String,
    args: Vec<String>,
    dir: PathBuf,
}

impl Drop for Redis {
    fn drop(&mut self) {
        self.stop();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

impl Redis {
    /// A server with `extra` arguments (e.g. `["--cluster-enabled", "yes"]`).
    pub fn start(bin: &str, extra: &[&str]) -> Redis {
        Redis::start_with(bin, extra, None)
    }

    /// A server that also listens with TLS (the label is its TLS port).
    pub fn start_tls(bin: &str, tls: &TlsSetup) -> Redis {
        Redis::start_with(bin, &[], Some(tls))
    }

    fn start_with(bin: &str, extra: &[&str], tls: Option<&TlsSetup>) -> Redis {
        let port = free_port();
        let dir = std::env::temp_dir().join(format!("ketama-redis-{}-{port}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let mut args: Vec<String> = [
            "--port",
            &port.to_string(),
            "--bind",
            "127.0.0.1",
            "--save",
            "",
            "--appendonly",
            "no",
            "--protected-mode",
            "no",
            "--loglevel",
            "warning",
            "--dir",
            dir.to_str().unwrap(),
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        let mut label = format!("127.0.0.1:{port}");
        if let Some(t) = tls {
            let tls_port = free_port();
            label = format!("127.0.0.1:{tls_port}");
            for (k, v) in [
                ("--tls-port", tls_port.to_string()),
                ("--tls-cert-file", t.server.cert().to_string()),
                ("--tls-key-file", t.server.key().to_string()),
                ("--tls-ca-cert-file", t.ca.cert().to_string()),
                (
                    "--tls-auth-clients",
                    if t.require_client { "yes" } else { "no" }.to_string(),
                ),
            ] {
                args.push(k.to_string());
                args.push(v);
            }
        }
        args.extend(extra.iter().map(|s| s.to_string()));
        let mut r = Redis {
            bin: bin.to_string(),
            child: None,
            port,
            label,
            args,
            dir,
        };
        r.spawn();
        r
    }

    fn spawn(&mut self) {
        let mut cmd = Command::new(&self.bin);
        cmd.args(&self.args)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null());
        die_with_parent(&mut cmd);
        let mut c = cmd.spawn().expect("start redis-server");
        let start = Instant::now();
        while TcpStream::connect(("127.0.0.1", self.port)).is_err() {
            if start.elapsed() > Duration::from_secs(10) || c.try_wait().unwrap().is_some() {
                let _ = c.kill();
                let _ = c.wait();
                panic!(
                    "redis-server on {} did not start ({:?})",
                    self.port, self.args
                );
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        self.child = Some(c);
    }

    /// The process id.
    pub fn pid(&self) -> Option<u32> {
        self.child.as_ref().map(Child::id)
    }

    /// Kills the server (SIGKILL).
    pub fn stop(&mut self) {
        if let Some(mut c) = self.child.take() {
            let _ = c.kill();
            let _ = c.wait();
        }
    }

    /// Kills the server and starts it again, empty, on the same ports.
    pub fn restart(&mut self) {
        self.stop();
        self.spawn();
    }

    /// A client of the test's own on the plain port (`AUTH` first when the default user is
    /// off: see [`Redis::client_as`]).
    pub fn client(&self) -> redis::Connection {
        let client = redis::Client::open(format!("redis://127.0.0.1:{}/", self.port)).unwrap();
        let mut last = None;
        // A connect interrupted by a signal (EINTR) is tried again.
        for _ in 0..20 {
            match client.get_connection_with_timeout(Duration::from_secs(5)) {
                Ok(c) => return c,
                Err(e) => last = Some(e),
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        panic!("cannot connect to redis-server on {}: {last:?}", self.port)
    }

    /// A client logged in as `user` with `password`.
    pub fn client_as(&self, user: &str, password: &str) -> redis::Connection {
        let mut c = self.client();
        redis::cmd("AUTH")
            .arg(user)
            .arg(password)
            .query::<()>(&mut c)
            .unwrap();
        c
    }
}

/// `n` plain servers.
pub fn fleet(bin: &str, n: usize) -> Vec<Redis> {
    (0..n).map(|_| Redis::start(bin, &[])).collect()
}

/// The labels of `servers`.
pub fn labels(servers: &[Redis]) -> Vec<String> {
    servers.iter().map(|r| r.label.clone()).collect()
}
