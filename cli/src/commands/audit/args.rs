//! `ketama audit` options.

use std::time::Duration;

use clap::Args;

use crate::backend_args::BackendArgs;
use crate::tls_args::TlsArgs;

/// Exit status of an audit that could not reach every server.
pub(crate) const EXIT_PARTIAL: i32 = 3;

/// `ketama audit` options.
#[derive(Debug, Args)]
pub(crate) struct AuditArgs {
    /// Servers file: `host:port [weight] [name]` per line, as the clients are configured.
    #[arg(long, short = 's', value_parser = crate::args::path_arg())]
    pub(crate) servers: String,
    /// The profile to check the keys against (see `ketama profiles`).
    #[arg(
        long,
        short = 'p',
        required_unless_present = "detect",
        conflicts_with = "detect"
    )]
    pub(crate) profile: Option<String>,
    /// Key hash for --profile (default: the profile's).
    #[arg(long = "hash", short = 'H', requires = "profile")]
    pub(crate) hash: Option<String>,
    /// Placement options of --profile's client.
    #[command(flatten)]
    pub(crate) options: crate::args::OptionArgs,
    /// Rank every profile (with its default hash and the hashes its client offers) by the
    /// share of keys that sit where it would put them.
    #[arg(long)]
    pub(crate) detect: bool,
    /// Misplaced keys listed in the table (JSON lists them all, as they are found).
    #[arg(long, default_value_t = 20, value_name = "N")]
    pub(crate) show: usize,
    /// The longest one server may take, in seconds, from the connect to the end of its
    /// listing; a server that takes longer is reported unreachable (the others are still
    /// audited).
    #[arg(long, value_name = "SECONDS", default_value = "10", value_parser = crate::args::seconds)]
    pub(crate) timeout: Duration,
    #[command(flatten)]
    pub(crate) tls: TlsArgs,
    #[command(flatten)]
    pub(crate) servers_kind: BackendArgs,
}
