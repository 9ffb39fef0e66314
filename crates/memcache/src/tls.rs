//! TLS settings for connections to memcached (`memcached -Z`, managed caches with in-transit
//! encryption): which certificate authorities to trust, which name the server's certificate
//! must hold, an optional client certificate, and what each TLS failure means in words.
//!
//! The server's certificate is always verified, against the CA file given or else the
//! system's trust store, and its name checked against the host of the server's label (or one
//! name given for all servers, for fleets addressed by IP whose certificates hold a DNS
//! name). The only way around the check is [`Settings::insecure`], which still checks that
//! the server holds the key of the certificate it shows (the handshake signatures), not who
//! it is.

use std::fmt;
use std::io;
use std::path::PathBuf;
use std::sync::Arc;

use rustls::client::danger::{HandshakeSignatureValid, ServerCertVerified, ServerCertVerifier};
use rustls::crypto::{verify_tls12_signature, verify_tls13_signature, CryptoProvider};
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer, ServerName, UnixTime};
use rustls::{
    AlertDescription, CertificateError, ClientConfig, ClientConnection, DigitallySignedStruct,
    RootCertStore, SignatureScheme,
};

use crate::error::{io_text, is_closed, ErrorKind};

/// What the user asked for (see `--tls-*`).
#[derive(Clone, Debug, Default)]
pub struct Settings {
    /// A PEM file of the certificate authorities to trust (`None`: the system's).
    pub ca: Option<PathBuf>,
    /// The name every server's certificate must hold (`None`: the host of its label).
    pub name: Option<String>,
    /// A PEM client certificate chain, sent when the server asks for one.
    pub cert: Option<PathBuf>,
    /// The PEM private key of [`Settings::cert`].
    pub key: Option<PathBuf>,
    /// Accept any server certificate (encrypts, but anyone on the path can pose as the
    /// server).
    pub insecure: bool,
}

/// A ready TLS client configuration, shared by every connection of a run.
pub struct Tls {
    config: Arc<ClientConfig>,
    name: Option<ServerName<'static>>,
    client_cert: bool,
    insecure: bool,
}

impl fmt::Debug for Tls {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Tls")
            .field("name", &self.name)
            .field("client_cert", &self.client_cert)
            .field("insecure", &self.insecure)
            .finish_non_exhaustive()
    }
}

/// The crypto provider: `ring` (no C toolchain beyond cc, no cmake).
fn provider() -> Arc<CryptoProvider> {
    Arc::new(rustls::crypto::ring::default_provider())
}

/// The largest certificate or key file read (a CA bundle of every public CA is about 200 KB).
const PEM_FILE: u64 = 16 << 20;

/// A PEM file: a regular file (never a FIFO or a device) of at most [`PEM_FILE`] bytes.
fn read(what: &str, path: &std::path::Path) -> Result<Vec<u8>, String> {
    ketama_files::read_regular(path, what, PEM_FILE)
        .map_err(|e| format!("cannot read the {what} {}: {}", path.display(), e.reason))
}

/// The certificates of a PEM file (at least one).
fn certificates(
    what: &str,
    path: &std::path::Path,
) -> Result<Vec<CertificateDer<'static>>, String> {
    let bytes = read(what, path)?;
    let certs = CertificateDer::pem_slice_iter(&bytes)
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| format!("the {what} {} is not valid PEM: {e}", path.display()))?;
    if certs.is_empty() {
        return Err(format!(
            "the {what} {} holds no PEM certificate (-----BEGIN CERTIFICATE-----)",
            path.display()
        ));
    }
    Ok(certs)
}

/// The trust anchors: the CA file, or the system's trust store.
fn roots(ca: Option<&std::path::Path>) -> Result<RootCertStore, String> {
    let mut roots = RootCertStore::empty();
    match ca {
        Some(path) => {
            for (i, c) in certificates("CA file", path)?.into_iter().enumerate() {
                roots.add(c).map_err(|e| {
                    format!(
                        "certificate {} of the CA file {} is not a usable CA certificate: {e}",
                        i + 1,
                        path.display()
                    )
                })?;
            }
        }
        None => {
            let found = rustls_native_certs::load_native_certs();
            roots.add_parsable_certificates(found.certs);
            if roots.is_empty() {
                return Err(
                    "the system has no trusted CA certificates (install ca-certificates, or \
                     give the CA with --tls-ca)"
                        .into(),
                );
            }
        }
    }
    Ok(roots)
}

impl Tls {
    /// Loads the files `s` names. Fails, with a message naming the file, on a file that is
    /// missing, unreadable or not PEM, a key that does not go with its certificate, and on
    /// settings that contradict each other.
    pub fn new(s: &Settings) -> Result<Tls, String> {
        let provider = provider();
        let builder = ClientConfig::builder_with_provider(provider.clone())
            .with_safe_default_protocol_versions()
            .map_err(|e| format!("TLS setup: {e}"))?;
        let builder = if s.insecure {
            if s.ca.is_some() {
                return Err("--tls-insecure verifies nothing: it cannot go with --tls-ca".into());
            }
            builder
                .dangerous()
                .with_custom_certificate_verifier(Arc::new(Unverified(provider)))
        } else {
            builder.with_root_certificates(roots(s.ca.as_deref())?)
        };
        let config = match (&s.cert, &s.key) {
            (Some(cert), Some(key)) => {
                let chain = certificates("client certificate file", cert)?;
                let k =
                    PrivateKeyDer::from_pem_slice(&read("client key file", key)?).map_err(|e| {
                        format!(
                            "the client key file {} holds no usable PEM private key: {e}",
                            key.display()
                        )
                    })?;
                builder.with_client_auth_cert(chain, k).map_err(|e| {
                    format!(
                        "the client key {} does not go with the certificate {}: {e}",
                        key.display(),
                        cert.display()
                    )
                })?
            }
            (None, None) => builder.with_no_client_auth(),
            (Some(_), None) => return Err("--tls-cert needs --tls-key".into()),
            (None, Some(_)) => return Err("--tls-key needs --tls-cert".into()),
        };
        let name = s
            .name
            .as_deref()
            .map(|n| {
                ServerName::try_from(n.to_string())
                    .map_err(|_| format!("'{n}' is not a host name or IP address (--tls-name)"))
            })
            .transpose()?;
        Ok(Tls {
            config: Arc::new(config),
            name,
            client_cert: s.cert.is_some(),
            insecure: s.insecure,
        })
    }

    /// Whether server certificates go unverified (the caller warns).
    pub fn insecure(&self) -> bool {
        self.insecure
    }

    /// A client for a server whose label has this host; also the name checked, for
    /// messages.
    pub(crate) fn client(&self, host: &str) -> Result<(ClientConnection, String), String> {
        let name = match &self.name {
            Some(n) => n.clone(),
            None => ServerName::try_from(host.to_string()).map_err(|_| {
                format!("'{host}' is not a host name or IP address a certificate can hold (give the name with --tls-name)")
            })?,
        };
        let checked = name.to_str().into_owned();
        let conn = ClientConnection::new(self.config.clone(), name)
            .map_err(|e| format!("TLS setup: {e}"))?;
        Ok((conn, checked))
    }

    /// What an io error of a TLS stream means, for `name` (the server's label), whose
    /// certificate was checked for the name `checked`; `handshake`: during the handshake.
    pub(crate) fn explain(
        &self,
        e: &io::Error,
        name: &str,
        checked: &str,
        handshake: bool,
    ) -> (ErrorKind, String) {
        let during = if handshake {
            format!("the TLS handshake with {name}")
        } else {
            format!("the TLS connection to {name}")
        };
        let Some(t) = rustls_error(e) else {
            if is_closed(e) {
                let hint = if handshake {
                    ": does it speak TLS? (a memcached needs -Z; check the port)"
                } else {
                    ""
                };
                return (
                    ErrorKind::Closed,
                    format!("connection closed by {name} during {during}{hint}"),
                );
            }
            return (ErrorKind::Io, format!("{during} failed: {}", io_text(e)));
        };
        let why = match t {
            rustls::Error::InvalidCertificate(c) => certificate(c, checked),
            rustls::Error::InvalidMessage(_) => {
                "the server did not answer in TLS: is it a plain memcached (without -Z)? \
                 Then drop --tls"
                    .to_string()
            }
            rustls::Error::AlertReceived(a) => self.alert(*a),
            other => other.to_string(),
        };
        (ErrorKind::Tls, format!("{during} failed: {why}"))
    }

    fn alert(&self, a: AlertDescription) -> String {
        let about_us = matches!(
            a,
            AlertDescription::CertificateRequired
                | AlertDescription::HandshakeFailure
                | AlertDescription::BadCertificate
                | AlertDescription::UnknownCA
                | AlertDescription::CertificateUnknown
                | AlertDescription::AccessDenied
                | AlertDescription::DecryptError
        );
        if !about_us {
            return format!("the server sent the alert {a:?}");
        }
        if self.client_cert {
            format!(
                "the server refused our client certificate (alert {a:?}): is --tls-cert \
                 signed by a CA the server trusts?"
            )
        } else {
            format!(
                "the server refused the connection (alert {a:?}): it probably requires a \
                 client certificate: give one with --tls-cert and --tls-key"
            )
        }
    }
}

/// The rustls error inside an io error, if any.
pub(crate) fn rustls_error(e: &io::Error) -> Option<&rustls::Error> {
    e.get_ref()?.downcast_ref::<rustls::Error>()
}

/// A server certificate that failed verification, in words.
fn certificate(c: &CertificateError, checked: &str) -> String {
    match c {
        CertificateError::NotValidForName | CertificateError::NotValidForNameContext { .. } => {
            format!(
                "the server's certificate is not valid for the name '{checked}' (give the name \
                 it holds with --tls-name)"
            )
        }
        CertificateError::Expired | CertificateError::ExpiredContext { .. } => {
            "the server's certificate has expired".into()
        }
        CertificateError::NotValidYet | CertificateError::NotValidYetContext { .. } => {
            "the server's certificate is not valid yet (check the clocks)".into()
        }
        other => {
            let why = match other {
                CertificateError::UnknownIssuer => "no trusted CA signed it".to_string(),
                CertificateError::BadSignature => "its signature does not verify".to_string(),
                other => format!("{other:?}"),
            };
            format!(
                "certificate not trusted ({why}): is --tls-ca the CA that signed the server's \
                 certificate?"
            )
        }
    }
}

/// Accepts any server certificate; still checks the handshake signatures (so the server
/// holds the key of the certificate it shows).
#[derive(Debug)]
struct Unverified(Arc<CryptoProvider>);

impl ServerCertVerifier for Unverified {
    fn verify_server_cert(
        &self,
        _end_entity: &CertificateDer<'_>,
        _intermediates: &[CertificateDer<'_>],
        _server_name: &ServerName<'_>,
        _ocsp_response: &[u8],
        _now: UnixTime,
    ) -> Result<ServerCertVerified, rustls::Error> {
        Ok(ServerCertVerified::assertion())
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        verify_tls12_signature(
            message,
            cert,
            dss,
            &self.0.signature_verification_algorithms,
        )
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        verify_tls13_signature(
            message,
            cert,
            dss,
            &self.0.signature_verification_algorithms,
        )
    }

    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.0.signature_verification_algorithms.supported_schemes()
    }
}

/// The host part of a `host:port` label (`[::1]:11211` -> `::1`).
pub fn host_of(label: &str) -> &str {
    let host = label.rsplit_once(':').map_or(label, |(h, _)| h);
    host.strip_prefix('[')
        .and_then(|h| h.strip_suffix(']'))
        .unwrap_or(host)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hosts_of_labels() {
        assert_eq!(host_of("cache-1.example:11211"), "cache-1.example");
        assert_eq!(host_of("127.0.0.1:11211"), "127.0.0.1");
        assert_eq!(host_of("[::1]:11211"), "::1");
        assert_eq!(host_of("cache"), "cache");
    }

    fn settings(ca: &std::path::Path) -> Settings {
        Settings {
            ca: Some(ca.to_path_buf()),
            ..Settings::default()
        }
    }

    #[test]
    fn bad_ca_files_are_named() {
        let d = std::env::temp_dir().join(format!("ketama-tls-unit-{}", std::process::id()));
        std::fs::create_dir_all(&d).unwrap();
        let missing = d.join("missing.pem");
        let e = Tls::new(&settings(&missing)).unwrap_err();
        assert_eq!(
            e,
            format!(
                "cannot read the CA file {}: no such file or directory",
                missing.display()
            )
        );
        let text = d.join("notes.txt");
        std::fs::write(&text, "not a certificate\n").unwrap();
        let e = Tls::new(&settings(&text)).unwrap_err();
        assert!(e.contains("holds no PEM certificate"), "{e}");
        assert!(e.contains("notes.txt"), "{e}");
        let broken = d.join("broken.pem");
        std::fs::write(
            &broken,
            "-----BEGIN CERTIFICATE-----\nnot base64 at all!\n-----END CERTIFICATE-----\n",
        )
        .unwrap();
        let e = Tls::new(&settings(&broken)).unwrap_err();
        assert!(e.contains("broken.pem"), "{e}");
        std::fs::remove_dir_all(&d).unwrap();
    }

    #[test]
    fn contradictory_settings_are_refused() {
        let only_cert = Settings {
            cert: Some("c.pem".into()),
            insecure: true,
            ..Settings::default()
        };
        assert_eq!(
            Tls::new(&only_cert).unwrap_err(),
            "--tls-cert needs --tls-key"
        );
        let both = Settings {
            ca: Some("ca.pem".into()),
            insecure: true,
            ..Settings::default()
        };
        assert!(Tls::new(&both)
            .unwrap_err()
            .contains("cannot go with --tls-ca"));
        let bad_name = Settings {
            name: Some("not a name".into()),
            insecure: true,
            ..Settings::default()
        };
        assert!(Tls::new(&bad_name).unwrap_err().contains("--tls-name"));
    }
}
