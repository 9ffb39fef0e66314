//! `ketama compare` options.

use clap::Args;

/// `ketama compare` options.
#[derive(Debug, Args)]
pub(crate) struct CompareArgs {
    /// The first client profile (A).
    #[arg(long, short = 'p')]
    pub(crate) profile: String,
    /// The second client profile (B).
    #[arg(long)]
    pub(crate) with: String,
    /// Key hash for A (default: A's).
    #[arg(long = "hash", short = 'H')]
    pub(crate) hash: Option<String>,
    /// Key hash for B (default: B's).
    #[arg(long)]
    pub(crate) with_hash: Option<String>,
    /// Servers file (the same fleet for both).
    #[arg(long, short = 's', value_parser = crate::args::path_arg())]
    pub(crate) servers: String,
    /// Placement options of `--profile`'s client; the `--with` side gets them too when its
    /// client has them.
    #[command(flatten)]
    pub(crate) options: crate::args::OptionArgs,
    /// Keys file, one key per line (default: 100,000 built-in generated keys).
    #[arg(long, value_parser = crate::args::path_arg())]
    pub(crate) keys: Option<String>,
}
