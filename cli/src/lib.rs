//! The `ketama` command line: which server each memcached client picks for a key, what moves
//! when the fleet changes, and where two clients disagree. Contract: DESIGN.md ("CLI").
//!
//! Exit status: 0 on success, 3 when `audit` could not reach every server, 2 on bad usage or input, with a one-line message on stderr
//! naming what was wrong. No input makes it panic.

use std::ffi::OsString;
use std::io::Write;

use clap::{Args, Parser, Subcommand, ValueEnum};
use ketama_core::{Error, Hash, Profile, Ring};
use serde_json::{json, Value};

pub mod algos;
pub mod alloc_count;
pub mod audit;
pub mod bucket;
pub mod compare;
pub mod conformance;
pub mod conformance_driver;
pub mod diff;
pub mod keys;
pub mod live;
pub mod lookup;
pub mod memcache;
pub mod output;
pub mod placement;
pub mod plot;
pub mod progress;
pub mod servers;
pub mod simulate;
pub mod spec;
pub mod version;

use output::{key_text, Table};

/// A failure to report: one line, exit status 2.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fail(pub String);

impl Fail {
    /// A failure with this message.
    pub fn new(msg: impl Into<String>) -> Fail {
        Fail(msg.into())
    }
}

/// Output format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// Aligned columns with a header line.
    Table,
    /// JSON.
    Json,
    /// CSV with a header line.
    Csv,
}

/// What `--format` accepts: the output formats, plus `spec` (the profile table as data, for
/// `profiles` only).
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum FormatArg {
    /// Aligned columns with a header line.
    Table,
    /// JSON.
    Json,
    /// CSV with a header line.
    Csv,
    /// `profiles` only: every profile's knobs and every hash as JSON (`spec/profiles.json`).
    Spec,
}

impl FormatArg {
    /// The output format, or a failure for `spec` outside `profiles`.
    pub fn output(f: Option<FormatArg>) -> Result<Option<Format>, Fail> {
        Ok(match f {
            None => None,
            Some(FormatArg::Table) => Some(Format::Table),
            Some(FormatArg::Json) => Some(Format::Json),
            Some(FormatArg::Csv) => Some(Format::Csv),
            Some(FormatArg::Spec) => {
                return Err(Fail::new("--format spec is only for `ketama profiles`"))
            }
        })
    }
}

/// Consistent hashing exactly as each memcached client does it.
#[derive(Debug, Parser)]
#[command(name = "ketama", version = version::LINE, about, long_about = None)]
#[command(
    after_help = "Servers file: one server per line, `host:port [weight] [name]`, separated by \
spaces or a tab; `#` comments; IPv6 as `[addr]:port`.\nExit status: 0 on success, 2 on bad usage or input, 3 when `audit` could not reach every server."
)]
pub struct Cli {
    /// Output format where the output is a table (lookup, hash and points print plain lines
    /// when no format is given).
    #[arg(long, short = 'f', global = true, value_enum)]
    pub format: Option<FormatArg>,

    #[command(subcommand)]
    pub command: Command,
}

/// The verbs.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Print the server (label) each key goes to; keys from arguments, else stdin (one per line).
    Lookup(LookupArgs),
    /// Print each key's hash as a decimal u32.
    Hash(HashArgs),
    /// Print the continuum, "point<TAB>label", ascending.
    Points(RingArgs),
    /// List the profiles (client families) with one-line descriptions.
    Profiles,
    /// List the hash functions with their aliases and one-line descriptions.
    Hashes,
    /// The 10 -> 12 nodes experiment: hit rate and distribution per hash after adding nodes;
    /// with `--profile A,B,...`, placement algorithms compared (and `--plot FILE.svg`).
    Simulate(simulate::SimulateArgs),
    /// What moves where when the fleet changes: fractions, flows and a migration plan.
    Diff(diff::DiffArgs),
    /// How often two clients agree on the same fleet, and why they differ.
    Compare(compare::CompareArgs),
    /// Which client placed a live fleet's keys, and which keys sit where a client never looks
    /// (read-only; exit status 3 when some server could not be reached).
    Audit(audit::AuditArgs),
    /// Print the bucket (0 .. N-1) of each unsigned 64-bit input under a bucket function
    /// (jump, guava, jumpback, fliphash, maglev-go, mpchash-go); inputs from arguments or stdin.
    Bucket(bucket::BucketArgs),
    /// Feed the recorded vector files to a program over the conformance line protocol
    /// (docs/conformance.md) and report its agreement per file (exit status 1 when any key
    /// differs).
    Conformance(conformance::ConformanceArgs),
    /// The conformance protocol answered by this build's core (the reference driver).
    #[command(hide = true)]
    ConformanceDriver,
}

/// A profile, an optional hash and a servers file.
#[derive(Debug, Args)]
pub struct RingArgs {
    /// Client profile (see `ketama profiles`).
    #[arg(long, short = 'p')]
    pub profile: String,
    /// Key hash (see `ketama hashes`); default: the profile's.
    #[arg(long = "hash", short = 'H')]
    pub hash: Option<String>,
    /// Servers file: `host:port [weight] [name]` per line.
    #[arg(long, short = 's')]
    pub servers: String,
}

/// `ketama lookup`.
#[derive(Debug, Args)]
pub struct LookupArgs {
    #[command(flatten)]
    pub ring: RingArgs,
    /// Keys file, one key per line (`-` for stdin); read as a stream, like stdin: memory does
    /// not grow with the number of keys (except with `--format table`, which aligns columns).
    #[arg(
        long = "keys",
        short = 'k',
        value_name = "FILE",
        conflicts_with = "keys"
    )]
    pub keys_file: Option<String>,
    /// Servers marked dead (labels, comma-separated or repeated): each key goes where the
    /// profile's client sends it while they are down (its own failover: a ring walk, a rehash
    /// with its retry limit, a smaller rendezvous set), or `-` where the client gives up.
    #[arg(long = "dead", value_name = "LABEL[,LABEL...]", value_delimiter = ',')]
    pub dead: Vec<String>,
    /// Keys (default: read from stdin, one per line).
    pub keys: Vec<OsString>,
}

/// `ketama hash`.
#[derive(Debug, Args)]
pub struct HashArgs {
    /// Hash function (see `ketama hashes`); bare `crc32` needs --profile.
    #[arg(long = "hash", short = 'H')]
    pub hash: Option<String>,
    /// Profile: resolves `crc32` as that client means it, applies its key rules, and gives
    /// its default hash when --hash is absent.
    #[arg(long, short = 'p')]
    pub profile: Option<String>,
    /// Keys (default: read from stdin, one per line).
    pub keys: Vec<OsString>,
}

/// Runs the command line; returns the exit status.
pub fn main_with_args<I, T>(args: I) -> i32
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    let cli = match Cli::try_parse_from(args) {
        Ok(c) => c,
        Err(e) => {
            use clap::error::ErrorKind;
            if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) {
                let _ = e.print();
                return 0;
            }
            if e.kind() == ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand {
                eprintln!(
                    "ketama: missing command: lookup, hash, points, profiles, hashes, simulate, diff, compare, audit, bucket or conformance (see `ketama --help`)"
                );
                return 2;
            }
            // clap's first paragraph, on one line (it lists missing arguments below a colon).
            let text = e.render().to_string();
            let para: Vec<&str> = text
                .lines()
                .skip_while(|l| l.trim().is_empty())
                .take_while(|l| !l.trim().is_empty())
                .map(str::trim)
                .collect();
            let msg = para.join(" ");
            let msg = msg.strip_prefix("error: ").unwrap_or(&msg);
            eprintln!(
                "ketama: {} (see `ketama --help`)",
                if msg.is_empty() { "bad usage" } else { msg }
            );
            return 2;
        }
    };
    if let (Command::Profiles, Some(FormatArg::Spec)) = (&cli.command, cli.format) {
        return emit(&spec::text());
    }
    let format = match FormatArg::output(cli.format) {
        Ok(f) => f,
        Err(Fail(msg)) => {
            eprintln!("ketama: {msg}");
            return 2;
        }
    };
    if let Command::Conformance(a) = &cli.command {
        return conformance::main(a, format); // exit status 1 when the program disagrees
    }
    if let Command::ConformanceDriver = &cli.command {
        return conformance_driver::main();
    }
    if let Command::Audit(a) = &cli.command {
        return audit::main(a, format); // its own exit status for a partial audit
    }
    if let Command::Lookup(a) = &cli.command {
        // Streamed: each answer is written as its key is read.
        let mut stdout = std::io::BufWriter::new(std::io::stdout().lock());
        return match lookup::stream(a, format, &mut stdout) {
            Ok(()) => 0,
            Err(Fail(msg)) => {
                eprintln!("ketama: {msg}");
                2
            }
        };
    }
    match run(&cli) {
        Ok(out) => emit(&out),
        Err(Fail(msg)) => {
            eprintln!("ketama: {msg}");
            2
        }
    }
}

/// Writes the output; a closed pipe is not an error.
pub(crate) fn emit(out: &str) -> i32 {
    let mut stdout = std::io::stdout().lock();
    match stdout
        .write_all(out.as_bytes())
        .and_then(|_| stdout.flush())
    {
        Ok(()) => 0,
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => 0,
        Err(e) => {
            eprintln!("ketama: cannot write output: {e}");
            2
        }
    }
}

/// Runs a parsed command; returns what to print on stdout.
pub fn run(cli: &Cli) -> Result<String, Fail> {
    if let (Command::Profiles, Some(FormatArg::Spec)) = (&cli.command, cli.format) {
        return Ok(spec::text());
    }
    let f = FormatArg::output(cli.format)?;
    match &cli.command {
        Command::Lookup(a) => {
            let mut out = Vec::new();
            lookup::stream(a, f, &mut out)?;
            Ok(String::from_utf8_lossy(&out).into_owned())
        }
        Command::Hash(a) => hash_cmd(a, f),
        Command::Points(a) => points(a, f),
        Command::Profiles => Ok(profiles(f.unwrap_or(Format::Table))),
        Command::Hashes => Ok(hashes(f.unwrap_or(Format::Table))),
        Command::Simulate(a) => simulate::run(a, f.unwrap_or(Format::Table)),
        Command::Diff(a) => diff::run(a, f.unwrap_or(Format::Table)),
        Command::Compare(a) => compare::run(a, f.unwrap_or(Format::Table)),
        Command::Audit(a) => audit::run(a, f.unwrap_or(Format::Table)).map(|(out, _)| out),
        Command::Bucket(a) => bucket::run(a, f),
        Command::Conformance(_) | Command::ConformanceDriver => Err(Fail::new(
            "conformance runs a program and streams its answers: run it from the command line",
        )),
    }
}

/// Resolves a profile name.
pub fn profile(name: &str) -> Result<&'static Profile, Fail> {
    Profile::by_name(name).map_err(|_| {
        Fail::new(format!(
            "unknown profile '{name}' (see `ketama profiles` for the names)"
        ))
    })
}

/// Resolves a hash name, as `profile`'s client means it when given.
pub fn hash(name: &str, profile: Option<&Profile>) -> Result<Hash, Fail> {
    let r = match profile {
        Some(p) => p.hash_from_name(name),
        None => Hash::from_name(name),
    };
    r.map_err(|e| match e {
        Error::AmbiguousHash => Fail::new(match profile {
            Some(p) => format!(
                "ambiguous hash 'crc32' (profile {} does not define it): use 'crc' (15-bit, libhashkit/Java/twemproxy) or 'crc32a' (full IEEE CRC-32, PHP/pecl/Go)",
                p.name
            ),
            None => "ambiguous hash 'crc32': use 'crc' (15-bit, libhashkit/Java/twemproxy) or 'crc32a' (full IEEE CRC-32, PHP/pecl/Go), or give --profile to resolve it".to_string(),
        }),
        _ => Fail::new(format!("unknown hash '{name}' (see `ketama hashes` for the names)")),
    })
}

/// Builds the ring named by `--profile`, `--hash`, `--servers`.
pub fn ring_from(a: &RingArgs) -> Result<Ring, Fail> {
    let p = profile(&a.profile)?;
    let h = a.hash.as_deref().map(|n| hash(n, Some(p))).transpose()?;
    let fleet = servers::load(&a.servers)?;
    servers::ring(p, h, &fleet)
}

fn keys_from(args: &[OsString]) -> Result<Vec<Vec<u8>>, Fail> {
    if args.is_empty() {
        keys::stdin_keys()
    } else {
        Ok(keys::arg_keys(args))
    }
}

/// Why a key has no server, for messages.
pub fn key_error(e: Error) -> &'static str {
    match e {
        Error::KeyRejected => "the client refuses this key",
        Error::NoServer => "no server owns this key",
        Error::EmptyRing => "the ring has no servers",
        _ => e.as_str(),
    }
}

/// One answer per key (`lookup`, `hash`): plain lines, or JSON objects `{"key", field}`, or a
/// table (column `header`). A key without an answer prints `-` (JSON `null` with an `error`) and gets a note on
/// stderr; it is not a failure of the command.
fn per_key<T>(
    keys: &[Vec<u8>],
    results: &[Result<T, Error>],
    (field, header): (&str, &str),
    f: Option<Format>,
) -> String
where
    T: ToString + Clone + Into<Value>,
{
    for (i, (k, r)) in keys.iter().zip(results).enumerate() {
        if let Err(e) = r {
            eprintln!(
                "ketama: key {} ('{}'): {} (printed as '-')",
                i + 1,
                key_text(k),
                key_error(*e)
            );
        }
    }
    let text = |r: &Result<T, Error>| r.as_ref().map_or("-".to_string(), ToString::to_string);
    match f {
        None => results.iter().map(|r| text(r) + "\n").collect(),
        Some(Format::Json) => output::json(&Value::Array(
            keys.iter()
                .zip(results)
                .map(|(k, r)| {
                    let mut o = serde_json::Map::new();
                    output::key_fields(&mut o, k);
                    match r {
                        Ok(v) => {
                            o.insert(field.into(), v.clone().into());
                        }
                        Err(e) => {
                            o.insert(field.into(), Value::Null);
                            o.insert("error".into(), Value::from(key_error(*e)));
                        }
                    }
                    Value::Object(o)
                })
                .collect(),
        )),
        Some(fmt) => {
            let mut t = Table::new(&["key", header]);
            for (k, r) in keys.iter().zip(results) {
                t.row(vec![key_text(k), text(r)]);
            }
            render(&t, fmt)
        }
    }
}

fn hash_cmd(a: &HashArgs, f: Option<Format>) -> Result<String, Fail> {
    let p = a.profile.as_deref().map(profile).transpose()?;
    let h = match (&a.hash, p) {
        (Some(n), p) => hash(n, p)?,
        (None, Some(p)) => p.default_hash,
        (None, None) => {
            return Err(Fail::new(
                "--hash is required (or --profile, to use its default hash)",
            ))
        }
    };
    let keys = keys_from(&a.keys)?;
    // With a profile, the client's key rules apply (e.g. xmemcached refuses the empty key).
    let ring = p.map(|p| Ring::new(p, Some(h)));
    let values: Vec<Result<u32, Error>> = keys
        .iter()
        .map(|k| match &ring {
            Some(r) => r.key_hash(k),
            None => Ok(h.hash(k)),
        })
        .collect();
    Ok(per_key(&keys, &values, ("hash", h.name()), f))
}

fn points(a: &RingArgs, f: Option<Format>) -> Result<String, Fail> {
    let ring = ring_from(a)?;
    if !ring.profile().is_ring() {
        return Err(Fail::new(format!(
            "profile {} has no continuum (it places keys by {}), so it has no points",
            ring.profile().name,
            ring.profile().placement
        )));
    }
    let label = |i: usize| ring.server(i).map_or("?", |s| s.label.as_str());
    Ok(match f {
        None => {
            let mut s = String::with_capacity(ring.point_count() * 24);
            for (p, i) in ring.points() {
                s.push_str(&format!("{p}\t{}\n", label(i)));
            }
            s
        }
        Some(Format::Json) => output::json(&Value::Array(
            ring.points()
                .map(|(p, i)| json!({"point": p, "label": label(i)}))
                .collect(),
        )),
        Some(fmt) => {
            let mut t = Table::new(&["point", "label"]);
            for (p, i) in ring.points() {
                t.row(vec![p.to_string(), label(i).to_string()]);
            }
            render(&t, fmt)
        }
    })
}

fn profiles(f: Format) -> String {
    let all = Profile::all();
    if f == Format::Json {
        return output::json(&Value::Array(
            all.iter()
                .map(|p| {
                    json!({"name": p.name, "aliases": p.aliases, "default_hash": p.default_hash.name(),
                           "description": p.description})
                })
                .collect(),
        ));
    }
    let mut t = Table::new(&["profile", "aliases", "default hash", "description"]);
    for p in all {
        t.row(vec![
            p.name.into(),
            p.aliases.join(" "),
            p.default_hash.name().into(),
            p.description.into(),
        ]);
    }
    render(&t, f)
}

fn hashes(f: Format) -> String {
    if f == Format::Json {
        return output::json(&Value::Array(
            Hash::all()
                .map(|h| json!({"name": h.name(), "aliases": h.aliases(), "description": h.description()}))
                .collect(),
        ));
    }
    let mut t = Table::new(&["hash", "aliases", "description"]);
    for h in Hash::all() {
        t.row(vec![
            h.name().into(),
            h.aliases().join(" "),
            h.description().into(),
        ]);
    }
    render(&t, f)
}

/// Renders a table as text or CSV (JSON is built per command).
pub fn render(t: &Table, f: Format) -> String {
    match f {
        Format::Csv => t.csv(),
        Format::Table => t.text(),
        Format::Json => {
            let rows: Vec<Value> = t
                .rows
                .iter()
                .map(|r| {
                    Value::Object(
                        t.headers
                            .iter()
                            .cloned()
                            .zip(r.iter().map(|c| Value::String(c.clone())))
                            .collect(),
                    )
                })
                .collect();
            output::json(&Value::Array(rows))
        }
    }
}
