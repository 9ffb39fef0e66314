//! `ketama simulate --live --tls`: a throwaway certificate authority and a server certificate
//! for 127.0.0.1, made at run time, so the local memcached processes speak TLS (`-Z`) and the
//! experiment's connections verify them exactly as `--tls --tls-ca` does for a real fleet.
//!
//! The certificates are generated in memory (ECDSA P-256, signed with `ring`) and written to
//! a private directory (mode 0700, the files 0600) that memcached reads at start; the
//! directory and everything in it is removed when [`LiveTls`] is dropped. Nothing is ever
//! trusted but this run's own CA, and the name checked is 127.0.0.1, where the processes
//! listen (the node labels are only what the ring hashes).

use std::fs::{self, OpenOptions};
use std::io::Write;
use std::net::{IpAddr, Ipv4Addr};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{SystemTime, UNIX_EPOCH};

use rcgen::{
    BasicConstraints, CertificateParams, DistinguishedName, DnType, ExtendedKeyUsagePurpose, IsCa,
    KeyPair, KeyUsagePurpose, SanType,
};

use crate::shared::Fail;
use ketama_memcache::tls::{Settings, Tls};

/// The certificates of one run and the private directory holding them.
#[derive(Debug)]
pub(crate) struct LiveTls {
    dir: PathBuf,
    chain: PathBuf,
    key: PathBuf,
    client: Arc<Tls>,
}

fn fail(what: &str, e: impl std::fmt::Display) -> Fail {
    Fail::new(format!("--live --tls: {what}: {e}"))
}

/// Creates `path` for writing by its owner only (0600), refusing one that exists.
fn write_private(path: &Path, bytes: &[u8]) -> Result<(), Fail> {
    let mut o = OpenOptions::new();
    o.write(true).create_new(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        o.mode(0o600);
    }
    let mut f = o
        .open(path)
        .map_err(|e| fail(&format!("cannot create {}", path.display()), e))?;
    f.write_all(bytes)
        .and_then(|()| f.sync_all())
        .map_err(|e| fail(&format!("cannot write {}", path.display()), e))
}

/// A new directory only its owner can enter, under the system's temporary directory.
fn private_dir() -> Result<PathBuf, Fail> {
    let base = std::env::temp_dir();
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos());
    let mut last = None;
    for attempt in 0..16u32 {
        let dir = base.join(format!(
            "ketama-live-tls-{}-{nanos:x}-{attempt}",
            std::process::id()
        ));
        let mut b = fs::DirBuilder::new();
        #[cfg(unix)]
        {
            use std::os::unix::fs::DirBuilderExt;
            b.mode(0o700);
        }
        match b.create(&dir) {
            Ok(()) => return Ok(dir),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => last = Some(e),
            Err(e) => {
                return Err(fail(
                    &format!("cannot create a directory in {}", base.display()),
                    e,
                ))
            }
        }
    }
    Err(fail(
        &format!("cannot create a directory in {}", base.display()),
        last.map_or_else(String::new, |e| e.to_string()),
    ))
}

fn name(common: &str) -> DistinguishedName {
    let mut dn = DistinguishedName::new();
    dn.push(DnType::CommonName, common);
    dn
}

/// The PEM of a new CA and of a server certificate for 127.0.0.1 signed by it, with the
/// server's private key: `(ca, chain, key)`.
fn generate() -> Result<(String, String, String), rcgen::Error> {
    let ca_key = KeyPair::generate()?;
    let mut ca = CertificateParams::default();
    ca.distinguished_name = name("ketama simulate --live throwaway CA");
    ca.is_ca = IsCa::Ca(BasicConstraints::Constrained(0));
    ca.key_usages = vec![KeyUsagePurpose::KeyCertSign, KeyUsagePurpose::CrlSign];
    let ca_cert = ca.self_signed(&ca_key)?;

    let server_key = KeyPair::generate()?;
    let mut server = CertificateParams::default();
    server.distinguished_name = name("127.0.0.1");
    server.subject_alt_names = vec![SanType::IpAddress(IpAddr::V4(Ipv4Addr::LOCALHOST))];
    server.key_usages = vec![KeyUsagePurpose::DigitalSignature];
    server.extended_key_usages = vec![ExtendedKeyUsagePurpose::ServerAuth];
    let server_cert = server.signed_by(&server_key, &ca_cert, &ca_key)?;
    Ok((ca_cert.pem(), server_cert.pem(), server_key.serialize_pem()))
}

impl LiveTls {
    /// Makes the CA and the server certificate, writes them to a new private directory, and
    /// builds the client configuration that trusts that CA only and checks the name
    /// 127.0.0.1.
    pub(crate) fn new() -> Result<LiveTls, Fail> {
        let (ca, chain_pem, key_pem) =
            generate().map_err(|e| fail("cannot make the certificates", e))?;
        let dir = private_dir()?;
        let ca_path = dir.join("ca.pem");
        let chain = dir.join("server.pem");
        let key = dir.join("server.key");
        let made = write_private(&ca_path, ca.as_bytes())
            .and_then(|()| write_private(&chain, chain_pem.as_bytes()))
            .and_then(|()| write_private(&key, key_pem.as_bytes()))
            .and_then(|()| {
                Tls::new(&Settings {
                    ca: Some(ca_path),
                    name: Some(Ipv4Addr::LOCALHOST.to_string()),
                    ..Settings::default()
                })
                .map_err(|e| fail("TLS setup", e))
            });
        let client = match made {
            Ok(c) => Arc::new(c),
            Err(e) => {
                let _ = fs::remove_dir_all(&dir);
                return Err(e);
            }
        };
        let t = LiveTls {
            dir,
            chain,
            key,
            client,
        };
        Ok(t)
    }

    /// The memcached arguments that turn TLS on with this run's certificate.
    pub(crate) fn server_args(&self) -> [String; 3] {
        [
            "-Z".into(),
            "-o".into(),
            format!(
                "ssl_chain_cert={},ssl_key={}",
                self.chain.display(),
                self.key.display()
            ),
        ]
    }

    /// The client configuration for the experiment's connections.
    pub(crate) fn client(&self) -> Arc<Tls> {
        self.client.clone()
    }

    /// Where memcached process number `n` writes its stderr (read when it fails to start).
    pub(crate) fn stderr_path(&self, n: usize) -> PathBuf {
        self.dir.join(format!("memcached-{n}.err"))
    }

    /// The private directory.
    #[cfg(test)]
    fn dir(&self) -> &Path {
        &self.dir
    }
}

impl Drop for LiveTls {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.dir);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn files_are_private_and_removed() {
        let t = LiveTls::new().unwrap();
        let dir = t.dir().to_path_buf();
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = |p: &Path| fs::metadata(p).unwrap().permissions().mode() & 0o777;
            assert_eq!(mode(&dir), 0o700);
            assert_eq!(mode(&t.key), 0o600);
            assert_eq!(mode(&t.chain), 0o600);
        }
        let key = fs::read_to_string(&t.key).unwrap();
        assert!(key.contains("PRIVATE KEY"), "{key}");
        drop(t);
        assert!(!dir.exists());
    }
}
