//! The `ketama` command line: which server each memcached client picks for a key, what moves
//! when the fleet changes, and where two clients disagree. Commands and options: `ketama --help`.
//!
//! This file only declares the command line ([`Cli`]) and dispatches each command to its
//! module under [`commands`]; what the commands share lives in [`shared`], [`args`] and
//! [`output`].
//!
//! Exit status: 0 on success, 3 when `audit` or `migrate` could not reach a server, 1 when `migrate verify` finds unreachable keys, 2 on bad usage or input, with a one-line message on stderr
//! naming what was wrong. No input makes it panic.

use std::ffi::OsString;
use std::io::IsTerminal;

use clap::{Parser, Subcommand, ValueEnum};

mod args;
mod backend_args;
mod commands;
mod files;
mod keys;
mod listing_notes;
mod output;
mod progress;
pub mod servers;
mod shared;
mod spec;
mod stop;
mod tls_args;
pub mod version;

use output::Format;
use shared::emit;
pub use shared::Fail;

/// What `--format` accepts: the output formats, plus `spec` (the profile table as data, for
/// `profiles` only).
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum FormatArg {
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
    pub(crate) fn output(f: Option<FormatArg>) -> Result<Option<Format>, Fail> {
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
spaces or a tab; `#` comments; IPv6 as `[addr]:port`.\nExit status: 0 on success, 2 on bad usage or input, 3 when `audit` or `migrate` could not reach a server (or `migrate run` could not copy some keys), 1 when `migrate verify` finds keys NEW clients cannot reach."
)]
pub(crate) struct Cli {
    /// Output format where the output is a table (lookup, hash and points print plain lines
    /// when no format is given).
    #[arg(long, short = 'f', global = true, value_enum)]
    pub(crate) format: Option<FormatArg>,

    #[command(subcommand)]
    pub(crate) command: Command,
}

/// The verbs.
#[derive(Debug, Subcommand)]
pub(crate) enum Command {
    /// Print the server (label) each key goes to; keys from arguments, else stdin (one per line).
    Lookup(commands::lookup::LookupArgs),
    /// Print each key's hash as a decimal u32.
    Hash(commands::hash::HashArgs),
    /// Print the continuum, "point<TAB>label", ascending.
    Points(args::RingArgs),
    /// List the profiles (client families) with one-line descriptions.
    Profiles,
    /// List the hash functions with their aliases and one-line descriptions.
    Hashes,
    /// The 10 -> 12 nodes experiment: hit rate and distribution per hash after adding nodes
    /// (`--plot FILE.svg` draws them); with `--algorithms A,B,...`, placement algorithms
    /// compared instead.
    Simulate(commands::simulate::args::SimulateArgs),
    /// What moves where when the fleet changes: fractions, flows and a migration plan.
    Diff(commands::diff::args::DiffArgs),
    /// How often two clients agree on the same fleet, and why they differ.
    Compare(commands::compare::args::CompareArgs),
    /// Which client placed a live fleet's keys, and which keys sit where a client never looks
    /// (read-only; exit status 3 when some server could not be reached).
    Audit(commands::audit::args::AuditArgs),
    /// Print the bucket (0 .. N-1) of each unsigned 64-bit input under a bucket function
    /// (jump, guava, jumpback, fliphash, maglev-go, mpchash-go); inputs from arguments or stdin.
    Bucket(commands::bucket::BucketArgs),
    /// Feed the recorded vector files to a program over the conformance line protocol
    /// (docs/conformance.md) and report its agreement per file (exit status 1 when any key
    /// differs).
    Conformance(commands::conformance::ConformanceArgs),
    /// The conformance protocol answered by this build's core (the reference driver).
    #[command(hide = true)]
    ConformanceDriver,
    /// Copy exactly the keys whose server changes when a fleet is resized or its clients
    /// switch placement: `plan` (read-only), `run` (copy or sync), `verify`.
    Migrate(Box<commands::migrate::MigrateArgs>),
}

/// The command-line definition: [`Cli`]'s, with the option help that depends on the
/// subcommand (`audit` lists only the formats it accepts). Help, man pages and completions
/// all come from here.
pub fn command() -> clap::Command {
    use clap::CommandFactory;
    let cmd = Cli::command();
    // A subcommand's own copy of a global option replaces it there (same id: the value still
    // reaches `Cli::format`).
    let Some(format) = cmd
        .get_arguments()
        .find(|a| a.get_id() == "format")
        .cloned()
    else {
        return cmd;
    };
    cmd.mut_subcommand("audit", |a| {
        a.arg(
            format
                .hide_possible_values(true)
                .help("Output format: table or json [possible values: table, json]"),
        )
    })
}

/// Runs the command line; returns the exit status.
pub fn main_with_args<I, T>(args: I) -> i32
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    match parse(args) {
        Ok(cli) => dispatch(&cli),
        Err(code) => code,
    }
}

/// Parses the arguments; help and version are printed here (`Err(0)`), usage errors too
/// (`Err(2)`, one line on stderr).
fn parse<I, T>(args: I) -> Result<Cli, i32>
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    let mut args: Vec<OsString> = args.into_iter().map(Into::into).collect();
    // `ketama help --help` is `ketama help`: help about help is the help.
    if args.get(1).is_some_and(|a| a == "help") {
        args.retain(|a| a != "--help" && a != "-h");
    }
    let parsed = command()
        .try_get_matches_from(args)
        .and_then(|m| <Cli as clap::FromArgMatches>::from_arg_matches(&m));
    parsed.map_err(|e| {
        use clap::error::ErrorKind;
        if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) {
            // Help that cannot be written (a full disk, a closed descriptor) is a failure;
            // a closed pipe (`| head`) is not.
            let mut text = if std::io::stdout().is_terminal() {
                e.render().ansi().to_string()
            } else {
                e.render().to_string()
            };
            if !text.ends_with('\n') {
                text.push('\n');
            }
            return emit(&text);
        }
        if e.kind() == ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand {
            eprintln!(
                "ketama: missing command: {} (see `ketama --help`)",
                command_list()
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
        2
    })
}

/// The visible commands, in [`Command`]'s order: `lookup, hash, ... or migrate`.
pub(crate) fn command_list() -> String {
    use clap::CommandFactory;
    let names: Vec<String> = Cli::command()
        .get_subcommands()
        .filter(|c| !c.is_hide_set() && c.get_name() != "help")
        .map(|c| c.get_name().to_string())
        .collect();
    match names.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
        Some((last, _)) => last.clone(),
        None => String::new(),
    }
}

/// Runs a parsed command; returns the exit status.
fn dispatch(cli: &Cli) -> i32 {
    use commands::*;
    if let (Command::Profiles, Some(FormatArg::Spec)) = (&cli.command, cli.format) {
        return emit(&spec::text());
    }
    let f = match FormatArg::output(cli.format) {
        Ok(f) => f,
        Err(e) => return shared::report(e),
    };
    let table = f.unwrap_or(Format::Table);
    let out = match &cli.command {
        // Commands with their own exit statuses, or streaming their output.
        Command::Conformance(a) => return conformance::main(a, f),
        Command::ConformanceDriver => return conformance_driver::main(),
        Command::Audit(a) => return audit::main(a, f),
        Command::Migrate(a) => return migrate::main(a, f),
        Command::Lookup(a) => {
            // Streamed: each answer is written as its key is read.
            let mut stdout = std::io::BufWriter::new(std::io::stdout().lock());
            return match lookup::stream(a, f, &mut stdout) {
                Ok(()) => 0,
                Err(e) => shared::report(e),
            };
        }
        Command::Hash(a) => hash::run(a, f),
        Command::Points(a) => points::run(a, f),
        Command::Profiles => Ok(profiles::run(table)),
        Command::Hashes => Ok(hashes::run(table)),
        Command::Simulate(a) => simulate::run(a, table),
        Command::Diff(a) => diff::run(a, table),
        Command::Compare(a) => compare::run(a, table),
        Command::Bucket(a) => bucket::run(a, f),
    };
    match out {
        Ok(out) => emit(&out),
        Err(e) => shared::report(e),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_command_list_comes_from_clap() {
        let list = command_list();
        for name in ["lookup", "simulate", "audit", "bucket", "conformance"] {
            assert!(list.contains(name), "{list}");
        }
        assert!(list.ends_with(" or migrate"), "{list}");
        assert!(
            !list.contains("conformance-driver"),
            "hidden commands are not offered: {list}"
        );
        assert!(!list.contains("help"), "{list}");
    }
}
