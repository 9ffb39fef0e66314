//! `ketama migrate plan | run | verify`: copy exactly the keys whose server changes when a
//! fleet is resized or its clients switch placement, before the clients switch.
//!
//! OLD is the fleet as today's clients see it (servers file `--servers`, profile `--profile`,
//! hash `--hash`); NEW as tomorrow's clients will (`--to`, `--to-profile`, `--to-hash`,
//! defaulting to the OLD profile and hash). A label in both files is the same memcached. A key
//! listed on OLD server S *moves* when the OLD placement names S for it (else it is *stale*:
//! no client finds it there, so it is not copied) and the NEW placement names another server.
//!
//! Exit status: 0 on success, 1 when `verify` finds keys that NEW clients cannot reach, 3 when
//! a server did not answer (or, for `run`, some keys could not be copied), 2 on bad usage or
//! input, or when interrupted.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use clap::{Args, Subcommand};
use ketama_core::Ring;

use crate::memcache::tls::Tls;
use crate::memcache::{Options, TlsArgs};
use crate::output::Format;
use crate::servers::{self, Fleet};
use crate::shared::Fail;

mod distinct;
mod filter;
pub mod meta;
pub mod plan;
mod record;
pub mod run;
mod scratch;
mod seen;
pub mod state;
pub mod verify;
pub mod wire;

/// Exit status when a server did not answer or keys could not be copied.
pub const EXIT_SERVER: i32 = 3;
/// Exit status of `verify` when some keys are not where NEW clients look.
pub const EXIT_UNREACHABLE_KEYS: i32 = 1;

/// `ketama migrate` verbs.
#[derive(Debug, Subcommand)]
pub enum MigrateCommand {
    /// What a migration would copy (read-only): keys and bytes that stay, that move (from
    /// which server to which), keys already misplaced under the OLD placement, time at --rate.
    Plan(PlanArgs),
    /// Copy each moving key from its OLD owner to its NEW owner (add mode: never overwrites);
    /// with --state, a later run syncs what changed since.
    Run(RunArgs),
    /// Check that every key held by a NEW server is where the NEW placement looks for it.
    Verify(PlaceArgs),
}

/// `ketama migrate`.
#[derive(Debug, Args)]
pub struct MigrateArgs {
    #[command(subcommand)]
    pub command: MigrateCommand,
}

/// The two placements: OLD and NEW.
#[derive(Debug, Args, Clone)]
pub struct PlaceArgs {
    /// OLD servers file (the fleet as today's clients see it).
    #[arg(long, short = 's', value_name = "OLD")]
    pub servers: String,
    /// NEW servers file (the fleet as tomorrow's clients will see it).
    #[arg(long, value_name = "NEW")]
    pub to: String,
    /// Today's client profile (see `ketama profiles`).
    #[arg(long, short = 'p')]
    pub profile: String,
    /// Today's key hash (default: the profile's).
    #[arg(long = "hash", short = 'H')]
    pub hash: Option<String>,
    /// Placement options of the clients (both sides: the NEW profile's client when it has
    /// them).
    #[command(flatten)]
    pub options: crate::args::OptionArgs,
    /// Tomorrow's client profile (default: --profile).
    #[arg(long = "to-profile")]
    pub to_profile: Option<String>,
    /// Tomorrow's key hash (default: --hash when the profile is the same, else the NEW
    /// profile's default).
    #[arg(long = "to-hash")]
    pub to_hash: Option<String>,
    /// The longest one round trip to a server may take, in seconds (a listing: per line); a
    /// server that takes longer is reported as failed.
    #[arg(long, value_name = "SECONDS", default_value = "10", value_parser = crate::args::seconds)]
    pub timeout: Duration,
    #[command(flatten)]
    pub tls: TlsArgs,
}

/// `ketama migrate plan`.
#[derive(Debug, Args)]
pub struct PlanArgs {
    #[command(flatten)]
    pub place: PlaceArgs,
    /// Copy rate (keys per second) for the time estimate.
    #[arg(long, value_name = "KEYS_PER_S")]
    pub rate: Option<u64>,
}

/// `ketama migrate run`.
#[derive(Debug, Args)]
pub struct RunArgs {
    #[command(flatten)]
    pub place: PlaceArgs,
    /// State file: records each copy, so a later run syncs (copies new keys, updates copies
    /// whose source changed, deletes copies whose source is gone, never touches a copy a
    /// client changed).
    #[arg(long, value_name = "FILE")]
    pub state: Option<String>,
    /// At most this many keys per second (all connections together).
    #[arg(long, value_name = "KEYS_PER_S")]
    pub rate: Option<u64>,
    /// Parallel connections (each pipelines many requests).
    #[arg(long, default_value_t = 4, value_name = "N")]
    pub concurrency: usize,
    /// List and count what would be copied; write nothing.
    #[arg(long)]
    pub dry_run: bool,
    /// After the clients switched: delete each moved key from its OLD server, but only where
    /// its NEW owner holds it.
    #[arg(long)]
    pub delete_moved: bool,
    /// Only the OLD servers whose position (0-based, file order) is I mod N.
    #[arg(long, value_name = "I/N")]
    pub shard: Option<String>,
}

/// What happens to a key listed on an OLD server.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fate {
    /// The OLD placement looks elsewhere: no client finds it here; not copied.
    Stale,
    /// Both placements name this server.
    Stays,
    /// The NEW placement names this server (position in the NEW file).
    Moves(usize),
    /// The NEW placement has no server for it (the NEW client refuses the key).
    NoNewOwner,
}

/// OLD and NEW fleets with their rings.
#[derive(Debug)]
pub struct Placement {
    /// OLD servers file.
    pub old: Fleet,
    /// NEW servers file.
    pub new: Fleet,
    /// OLD ring.
    pub old_ring: Ring,
    /// NEW ring.
    pub new_ring: Ring,
    /// OLD labels, file order.
    pub old_labels: Vec<String>,
    /// NEW labels, file order.
    pub new_labels: Vec<String>,
    /// OLD addresses to connect to, file order.
    pub old_addrs: Vec<String>,
    /// NEW addresses to connect to, file order.
    pub new_addrs: Vec<String>,
    /// For each OLD server, its position in NEW (same label).
    pub old_in_new: Vec<Option<usize>>,
    /// The longest one round trip may take.
    pub timeout: Duration,
    /// TLS to every server (`None`: plain TCP).
    pub tls: Option<Arc<Tls>>,
    old_pos: Vec<usize>,
    new_pos: Vec<usize>,
}

fn positions(ring: &Ring, labels: &[String]) -> Vec<usize> {
    let by_label: HashMap<&str, usize> = labels
        .iter()
        .enumerate()
        .map(|(i, l)| (l.as_str(), i))
        .collect();
    (0..ring.len())
        .map(|i| {
            ring.server(i)
                .and_then(|s| by_label.get(s.label.as_str()).copied())
                .unwrap_or(usize::MAX)
        })
        .collect()
}

impl Placement {
    /// Loads both files and builds both rings.
    pub fn load(a: &PlaceArgs) -> Result<Placement, Fail> {
        let p = crate::args::profile(&a.profile)?;
        let h = a
            .hash
            .as_deref()
            .map(|n| crate::args::hash(n, Some(p)))
            .transpose()?;
        let q = match &a.to_profile {
            Some(n) => crate::args::profile(n)?,
            None => p,
        };
        let h2 = match (&a.to_hash, &a.to_profile) {
            (Some(n), _) => Some(crate::args::hash(n, Some(q))?),
            (None, None) => h,
            (None, Some(_)) => None,
        };
        let old = servers::load(&a.servers)?;
        let new = servers::load(&a.to)?;
        let options = a.options.options()?;
        let old_ring = crate::args::apply_options(servers::ring(p, h, &old)?, options)?;
        let new_ring = servers::ring(q, h2, &new)?;
        let new_ring = match options.check(q.options) {
            Ok(()) => crate::args::apply_options(new_ring, options)?,
            Err(_) => new_ring,
        };
        let labels =
            |f: &Fleet| -> Vec<String> { f.lines.iter().map(|l| l.server.label.clone()).collect() };
        let addrs =
            |f: &Fleet| -> Vec<String> { f.lines.iter().map(|l| address(&l.server)).collect() };
        let old_labels = labels(&old);
        let new_labels = labels(&new);
        let old_in_new = old_labels
            .iter()
            .map(|l| new_labels.iter().position(|n| n == l))
            .collect();
        Ok(Placement {
            old_pos: positions(&old_ring, &old_labels),
            new_pos: positions(&new_ring, &new_labels),
            old_addrs: addrs(&old),
            new_addrs: addrs(&new),
            old,
            new,
            old_ring,
            new_ring,
            old_labels,
            new_labels,
            old_in_new,
            timeout: a.timeout,
            tls: a.tls.load().map_err(Fail::new)?,
        })
    }

    /// The placement between two rings built elsewhere; `address` maps each label to where
    /// its server listens (e.g. `simulate --live`'s local processes).
    pub fn from_rings(
        old_ring: Ring,
        new_ring: Ring,
        address: impl Fn(&str) -> String,
        timeout: Duration,
    ) -> Placement {
        let labels = |r: &Ring| -> Vec<String> { r.servers().map(|s| s.label.clone()).collect() };
        let old_labels = labels(&old_ring);
        let new_labels = labels(&new_ring);
        let old_in_new = old_labels
            .iter()
            .map(|l| new_labels.iter().position(|n| n == l))
            .collect();
        let fleet =
            |name: &str, r: &Ring| Fleet::from_servers(name, r.servers().cloned().collect());
        Placement {
            old: fleet("the fleet", &old_ring),
            new: fleet("the changed fleet", &new_ring),
            old_pos: (0..old_labels.len()).collect(),
            new_pos: (0..new_labels.len()).collect(),
            old_addrs: old_labels.iter().map(|l| address(l)).collect(),
            new_addrs: new_labels.iter().map(|l| address(l)).collect(),
            old_ring,
            new_ring,
            old_labels,
            new_labels,
            old_in_new,
            timeout,
            tls: None,
        }
    }

    /// How to connect to the servers: [`Placement::timeout`] per round trip, TLS when
    /// configured.
    pub fn net(&self) -> Options {
        Options::new(self.timeout).with_tls(self.tls.clone())
    }

    /// What happens to `key` listed on OLD server `src`.
    pub fn fate(&self, src: usize, key: &[u8]) -> Fate {
        match self.old_ring.locate_index(key) {
            Ok(i) if self.old_pos[i] == src => {}
            _ => return Fate::Stale,
        }
        match self.new_ring.locate_index(key) {
            Ok(j) => {
                let j = self.new_pos[j];
                if Some(j) == self.old_in_new[src] {
                    Fate::Stays
                } else {
                    Fate::Moves(j)
                }
            }
            Err(_) => Fate::NoNewOwner,
        }
    }

    /// The NEW server (file position) the NEW placement names for `key`.
    pub fn new_owner(&self, key: &[u8]) -> Option<usize> {
        self.new_ring
            .locate_index(key)
            .ok()
            .map(|j| self.new_pos[j])
    }

    /// A one-line description: "OLD (n servers, profile P, hash H) -> NEW (...)".
    pub fn describe(&self) -> String {
        format!(
            "{} ({} servers, {} / {}) -> {} ({} servers, {} / {})",
            self.old.path,
            self.old_labels.len(),
            self.old_ring.profile().name,
            self.old_ring.hash().name(),
            self.new.path,
            self.new_labels.len(),
            self.new_ring.profile().name,
            self.new_ring.hash().name()
        )
    }

    /// Whether nothing can move: same servers, same placement.
    pub fn is_identity(&self) -> bool {
        self.old_labels == self.new_labels
            && self.old_ring.profile().name == self.new_ring.profile().name
            && self.old_ring.hash() == self.new_ring.hash()
            && self
                .old
                .lines
                .iter()
                .zip(&self.new.lines)
                .all(|(a, b)| a.server == b.server)
    }
}

/// The address to connect to for a server of a servers file.
pub fn address(s: &ketama_core::Server) -> String {
    if s.host.contains(':') {
        format!("[{}]:{}", s.host, s.port)
    } else {
        format!("{}:{}", s.host, s.port)
    }
}

/// How one OLD server's keys were listed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Listing {
    /// `lru_crawler metadump all`: every key, with CAS, expiry and size.
    Metadump,
    /// `stats cachedump`: keys may be missing (the server has no enabled LRU crawler).
    Cachedump,
}

impl Listing {
    /// The command, for reports.
    pub fn command(self) -> &'static str {
        match self {
            Listing::Metadump => "lru_crawler metadump all",
            Listing::Cachedump => "stats cachedump",
        }
    }
}

/// Said when some server was listed with `stats cachedump`.
pub const CACHEDUMP_NOTE: &str = "note: servers without an enabled LRU crawler were listed with `stats cachedump`, which shows at most about 2 MB per slab class and, with a segmented LRU, only the HOT part: keys may have been missed there";

/// Lists every key of one server to `each`: metadump, else the `stats cachedump` fallback
/// (keys only: CAS, expiry and size unknown).
pub fn list_server(
    label: &str,
    addr: &str,
    opts: Options,
    mut each: impl FnMut(meta::Listed) -> Result<(), String>,
) -> Result<Listing, String> {
    let mut c = meta::MetaConn::connect(label, addr, opts.clone())?;
    // A crawl is not a snapshot: items the LRU maintainer moves between its queues while it
    // runs (e.g. just after many reads) can be missed. So it is repeated, a few times at most,
    // until the distinct keys seen reach `curr_items` (read again after each pass); the keys
    // seen are kept in bounded memory ([`distinct`]).
    // Each pass may list at most `line_limit` of the item count read before it.
    let mut items = c.curr_items()?;
    let expected = usize::try_from(items).unwrap_or(usize::MAX);
    let mut keys = distinct::Distinct::new(expected, opts.stop);
    let mut crawler = false;
    for pass in 0..6u64 {
        let before = keys.len();
        let limit = crate::memcache::line_limit(items);
        let has_crawler = c.metadump(limit, |it| keys.offer(it, &mut each))?;
        keys.end_pass(&mut each)?;
        if !has_crawler {
            break;
        }
        crawler = true;
        items = c.curr_items()?;
        // Expired items not yet reclaimed count in `curr_items` but are never listed: a pass
        // that finds nothing new ends the repeats.
        if pass == 5 || (pass > 0 && keys.len() == before) || keys.len() >= items {
            break;
        }
        std::thread::sleep(Duration::from_millis(100 * (pass + 1)));
    }
    if crawler {
        return Ok(Listing::Metadump);
    }
    let mut failed = None;
    crate::memcache::Conn::connect(addr, opts)
        .and_then(|mut c| {
            c.list_keys(|key| {
                if failed.is_none() {
                    failed = each(meta::Listed {
                        key: key.to_vec(),
                        exp: -1,
                        cas: 0,
                        size: 0,
                    })
                    .err();
                }
            })
        })
        .map_err(|e| e.message)?;
    match failed {
        Some(e) => Err(e),
        None => Ok(Listing::Cachedump),
    }
}

/// Runs the listings of a read-only verb (`plan`, `verify`) so that Ctrl-C or SIGTERM stops
/// them within a second and unwinds (their scratch files removed): an error then, not a
/// report of servers that failed because of it.
pub fn interruptible<T>(listings: impl FnOnce() -> T) -> Result<T, Fail> {
    crate::stop::install();
    let out = listings();
    if crate::stop::requested() {
        return Err(Fail::new("interrupted"));
    }
    Ok(out)
}

/// Parses `--shard I/N`.
pub fn parse_shard(s: &str) -> Result<(usize, usize), Fail> {
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

/// Human duration for estimates: "45 s", "12 min", "3.5 h".
pub fn duration_text(secs: f64) -> String {
    if secs < 1.0 {
        "under 1 s".to_string()
    } else if secs < 90.0 {
        format!("{secs:.0} s")
    } else if secs < 90.0 * 60.0 {
        format!("{:.0} min", secs / 60.0)
    } else {
        format!("{:.1} h", secs / 3600.0)
    }
}

/// `ketama migrate` from the command line: prints, returns the exit status.
pub fn main(a: &MigrateArgs, f: Option<Format>) -> i32 {
    let f = f.unwrap_or(Format::Table);
    if f == Format::Csv {
        eprintln!("ketama: migrate: --format csv is not available; use table or json");
        return 2;
    }
    let r = match &a.command {
        MigrateCommand::Plan(p) => plan::run(p, f),
        MigrateCommand::Run(r) => run::run(r, f),
        MigrateCommand::Verify(v) => verify::run(v, f),
    };
    match r {
        Ok((out, code)) => {
            let c = crate::shared::emit(&out);
            if c != 0 {
                c
            } else {
                code
            }
        }
        Err(Fail(msg)) => {
            eprintln!("ketama: migrate: {msg}");
            2
        }
    }
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
