//! `--tls` and its companions, shared by every command that talks to memcached servers
//! (`#[command(flatten)] tls: TlsArgs`).

use std::path::PathBuf;
use std::sync::Arc;

use clap::Args;

use ketama_memcache::tls::{Settings, Tls};

/// TLS to the servers (memcached -Z; managed caches with in-transit encryption).
#[derive(Debug, Args, Clone, Default)]
pub(crate) struct TlsArgs {
    /// Speak TLS to every server; its certificate is verified (against --tls-ca, else the
    /// system's trust store) and must hold the host of the server's label (or --tls-name).
    #[arg(long, help_heading = "TLS")]
    pub(crate) tls: bool,
    /// PEM file of the certificate authorities to trust instead of the system's.
    #[arg(long, help_heading = "TLS", value_name = "FILE", requires = "tls")]
    pub(crate) tls_ca: Option<PathBuf>,
    /// The name the servers' certificates must hold, instead of each label's host (for
    /// servers addressed by IP whose certificates name a host).
    #[arg(long, help_heading = "TLS", value_name = "NAME", requires = "tls")]
    pub(crate) tls_name: Option<String>,
    /// PEM client certificate (chain), for servers that require one.
    #[arg(long, help_heading = "TLS", value_name = "FILE", requires_all = ["tls", "tls_key"])]
    pub(crate) tls_cert: Option<PathBuf>,
    /// PEM private key of --tls-cert.
    #[arg(long, help_heading = "TLS", value_name = "FILE", requires_all = ["tls", "tls_cert"])]
    pub(crate) tls_key: Option<PathBuf>,
    /// Do not verify the servers' certificates (the traffic is encrypted, but anyone on the
    /// path can pose as a server). Warns on stderr.
    #[arg(long, help_heading = "TLS", requires = "tls", conflicts_with_all = ["tls_ca", "tls_name"])]
    pub(crate) tls_insecure: bool,
}

/// Printed on stderr when certificates go unverified.
pub(crate) const INSECURE_WARNING: &str = "warning: --tls-insecure: the servers' certificates are not verified; the traffic is encrypted, but anyone on the path can pose as a server";

impl TlsArgs {
    /// The TLS configuration these flags ask for (`None` without `--tls`), warning on stderr
    /// when certificates go unverified. Fails with a message naming the file at fault.
    pub(crate) fn load(&self) -> Result<Option<Arc<Tls>>, String> {
        if !self.tls {
            return Ok(None);
        }
        let tls = Tls::new(&Settings {
            ca: self.tls_ca.clone(),
            name: self.tls_name.clone(),
            cert: self.tls_cert.clone(),
            key: self.tls_key.clone(),
            insecure: self.tls_insecure,
        })?;
        if tls.insecure() {
            eprintln!("{INSECURE_WARNING}");
        }
        Ok(Some(Arc::new(tls)))
    }
}
