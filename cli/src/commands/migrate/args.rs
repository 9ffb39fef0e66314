//! `ketama migrate` options: the verbs and their flags.

use std::time::Duration;

use clap::{Args, Subcommand};

use super::scale_args::{KeyArgs, ScaleArgs};
use crate::backend_args::BackendArgs;
use crate::shared::Fail;
use crate::tls_args::{TlsArgs, ToTlsArgs};

/// `ketama migrate` verbs.
#[derive(Debug, Subcommand)]
pub(crate) enum MigrateCommand {
    /// What a migration would copy (read-only): keys and bytes that stay, that move (from
    /// which server to which), keys already misplaced under the OLD placement, time at --rate.
    Plan(PlanArgs),
    /// Copy each moving key from its OLD owner to its NEW owner (add mode: never overwrites);
    /// with --state, a later run syncs what changed since.
    Run(RunArgs),
    /// Check that every key held by a NEW server is where the NEW placement looks for it.
    Verify(PlaceArgs),
    /// Sum the JSON reports of `run --shard I/N --format json` (one file per shard) into one
    /// report of the whole run, as a table or JSON.
    Report(ReportArgs),
}

/// `ketama migrate report`.
#[derive(Debug, Args)]
pub(crate) struct ReportArgs {
    /// The JSON reports of the shards' runs (`run --shard I/N --format json > FILE`).
    #[arg(required = true, value_name = "FILE", value_parser = crate::args::path_arg())]
    pub(crate) files: Vec<String>,
}

/// `ketama migrate`.
#[derive(Debug, Args)]
pub(crate) struct MigrateArgs {
    #[command(subcommand)]
    pub(crate) command: MigrateCommand,
}

/// The two placements: OLD and NEW.
#[derive(Debug, Args, Clone)]
pub(crate) struct PlaceArgs {
    /// OLD servers file (the fleet as today's clients see it).
    #[arg(long, short = 's', value_name = "OLD")]
    pub(crate) servers: String,
    /// NEW servers file (the fleet as tomorrow's clients will see it).
    #[arg(long, value_name = "NEW")]
    pub(crate) to: String,
    /// Today's client profile (see `ketama profiles`).
    #[arg(long, short = 'p')]
    pub(crate) profile: String,
    /// Today's key hash (default: the profile's).
    #[arg(long = "hash", short = 'H')]
    pub(crate) hash: Option<String>,
    /// Placement options of the clients (both sides: the NEW profile's client when it has
    /// them).
    #[command(flatten)]
    pub(crate) options: crate::args::OptionArgs,
    /// Tomorrow's client profile (default: --profile).
    #[arg(long = "to-profile")]
    pub(crate) to_profile: Option<String>,
    /// Tomorrow's key hash (default: --hash when the profile is the same, else the NEW
    /// profile's default).
    #[arg(long = "to-hash")]
    pub(crate) to_hash: Option<String>,
    /// The longest one round trip to a server may take, in seconds (a listing: per line); a
    /// server that takes longer is reported as failed.
    #[arg(long, value_name = "SECONDS", default_value = "10", value_parser = crate::args::seconds)]
    pub(crate) timeout: Duration,
    #[command(flatten)]
    pub(crate) tls: TlsArgs,
    #[command(flatten)]
    pub(crate) to_tls: ToTlsArgs,
    #[command(flatten)]
    pub(crate) servers_kind: BackendArgs,
}

/// `ketama migrate plan`.
#[derive(Debug, Args)]
pub(crate) struct PlanArgs {
    #[command(flatten)]
    pub(crate) place: PlaceArgs,
    /// Copy rate (keys per second) for the time estimate.
    #[arg(long, value_name = "KEYS_PER_S")]
    pub(crate) rate: Option<u64>,
    #[command(flatten)]
    pub(crate) keys: KeyArgs,
}

/// `ketama migrate run`.
#[derive(Debug, Args)]
pub(crate) struct RunArgs {
    #[command(flatten)]
    pub(crate) place: PlaceArgs,
    /// State file: records each copy, so a later run syncs (copies new keys, updates copies
    /// whose source changed, deletes copies whose source is gone, never touches a copy a
    /// client changed).
    #[arg(long, value_name = "FILE")]
    pub(crate) state: Option<String>,
    /// At most this many keys per second (all connections together).
    #[arg(long, value_name = "KEYS_PER_S")]
    pub(crate) rate: Option<u64>,
    /// Parallel connections (each pipelines many requests).
    #[arg(long, default_value_t = 4, value_name = "N")]
    pub(crate) concurrency: usize,
    /// List and count what would be copied; write nothing.
    #[arg(long)]
    pub(crate) dry_run: bool,
    /// After the clients switched: delete each moved key from its OLD server, but only where
    /// its NEW owner holds it.
    #[arg(long)]
    pub(crate) delete_moved: bool,
    /// Only the OLD servers whose position (0-based, file order) is I mod N.
    #[arg(long, value_name = "I/N")]
    pub(crate) shard: Option<String>,
    #[command(flatten)]
    pub(crate) scale: ScaleArgs,
    /// Repeat the sync (needs --state) until a pass changes fewer than N keys (copies,
    /// updates, deletes), at most --max-passes passes: the last run before the switch, as
    /// short as the writers allow; the last pass's changes are the residual to expect.
    #[arg(long, value_name = "N", requires = "state", conflicts_with_all = ["dry_run", "delete_moved"])]
    pub(crate) until_quiet: Option<u64>,
    /// With --until-quiet: the most passes.
    #[arg(long, value_name = "M", default_value_t = 10, requires = "until_quiet")]
    pub(crate) max_passes: usize,
}

/// Parses `--shard I/N`.
pub(crate) fn parse_shard(s: &str) -> Result<(usize, usize), Fail> {
    let bad = || {
        Fail::new(format!(
            "--shard '{s}': expected I/N with 0 <= I < N (e.g. 0/4)"
        ))
    };
    let (i, n) = s.split_once('/').ok_or_else(bad)?;
    let (i, n): (usize, usize) = (i.parse().map_err(|_| bad())?, n.parse().map_err(|_| bad())?);
    if n == 0 || i >= n {
        return Err(bad());
    }
    Ok((i, n))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards() {
        assert_eq!(parse_shard("0/1").unwrap(), (0, 1));
        assert_eq!(parse_shard("3/4").unwrap(), (3, 4));
        for bad in ["4/4", "1/0", "x/2", "1", "-1/2", "1/2/3"] {
            assert!(parse_shard(bad).is_err(), "{bad}");
        }
    }
}
