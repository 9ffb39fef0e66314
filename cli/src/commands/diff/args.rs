//! `ketama diff` options.

use clap::Args;

use crate::args::RingArgs;

/// `ketama diff` options.
#[derive(Debug, Args)]
pub(crate) struct DiffArgs {
    /// Profile, hash and the servers file before the change.
    #[command(flatten)]
    pub(crate) ring: RingArgs,
    /// The servers file after the change.
    #[arg(long, value_parser = crate::args::path_arg())]
    pub(crate) to: String,
    /// Keys file, one key per line (default: 100,000 built-in generated keys).
    #[arg(long, value_parser = crate::args::path_arg())]
    pub(crate) keys: Option<String>,
    /// Also list every key that moves.
    #[arg(long)]
    pub(crate) list_keys: bool,
}
