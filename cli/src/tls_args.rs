//! `--tls` and its companions, shared by every command that talks to memcached servers
//! (`#[command(flatten)] tls: TlsArgs`), and `--to-tls` and its companions, the NEW fleet's
//! own settings for `ketama migrate` (`ToTlsArgs`).

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
        load(&Settings {
            ca: self.tls_ca.clone(),
            name: self.tls_name.clone(),
            cert: self.tls_cert.clone(),
            key: self.tls_key.clone(),
            insecure: self.tls_insecure,
        })
    }
}

/// A TLS configuration, warning on stderr when certificates go unverified.
fn load(settings: &Settings) -> Result<Option<Arc<Tls>>, String> {
    let tls = Tls::new(settings)?;
    if tls.insecure() {
        eprintln!("{INSECURE_WARNING}");
    }
    Ok(Some(Arc::new(tls)))
}

/// The NEW fleet's own TLS settings (`ketama migrate`): without any of them NEW is reached as
/// OLD is (`--tls` and its companions); with `--to-tls` only by these; with `--to-plain`
/// without TLS. So a plain fleet moves to a TLS one (`--to-tls`), a TLS fleet to a plain one
/// (`--tls --to-plain`), or a fleet to one with another CA or client certificate.
#[derive(Debug, Args, Clone, Default)]
pub(crate) struct ToTlsArgs {
    /// Speak TLS to the NEW servers, with the --to-tls-* settings below (not the --tls-*
    /// ones of OLD).
    #[arg(
        long,
        help_heading = "TLS of the NEW servers",
        conflicts_with = "to_plain"
    )]
    pub(crate) to_tls: bool,
    /// PEM file of the certificate authorities the NEW servers' certificates chain to.
    #[arg(
        long,
        help_heading = "TLS of the NEW servers",
        value_name = "FILE",
        requires = "to_tls"
    )]
    pub(crate) to_tls_ca: Option<PathBuf>,
    /// The name the NEW servers' certificates must hold, instead of each label's host.
    #[arg(
        long,
        help_heading = "TLS of the NEW servers",
        value_name = "NAME",
        requires = "to_tls"
    )]
    pub(crate) to_tls_name: Option<String>,
    /// PEM client certificate (chain) for NEW servers that require one.
    #[arg(long, help_heading = "TLS of the NEW servers", value_name = "FILE", requires_all = ["to_tls", "to_tls_key"])]
    pub(crate) to_tls_cert: Option<PathBuf>,
    /// PEM private key of --to-tls-cert.
    #[arg(long, help_heading = "TLS of the NEW servers", value_name = "FILE", requires_all = ["to_tls", "to_tls_cert"])]
    pub(crate) to_tls_key: Option<PathBuf>,
    /// Do not verify the NEW servers' certificates. Warns on stderr.
    #[arg(long, help_heading = "TLS of the NEW servers", requires = "to_tls", conflicts_with_all = ["to_tls_ca", "to_tls_name"])]
    pub(crate) to_tls_insecure: bool,
    /// Reach the NEW servers without TLS, even with --tls (a TLS fleet moving to a plain
    /// one).
    #[arg(long, help_heading = "TLS of the NEW servers")]
    pub(crate) to_plain: bool,
}

impl ToTlsArgs {
    /// The NEW fleet's TLS configuration: `old` (OLD's, as loaded) unless these flags say
    /// otherwise.
    pub(crate) fn load(&self, old: Option<Arc<Tls>>) -> Result<Option<Arc<Tls>>, String> {
        if self.to_plain {
            return Ok(None);
        }
        if !self.to_tls {
            return Ok(old);
        }
        load(&Settings {
            ca: self.to_tls_ca.clone(),
            name: self.to_tls_name.clone(),
            cert: self.to_tls_cert.clone(),
            key: self.to_tls_key.clone(),
            insecure: self.to_tls_insecure,
        })
    }
}
