//! Options several commands share: the profile, hash and servers file that name a ring
//! ([`RingArgs`]), the parsers of file names and timeouts, and the resolution of profile and
//! hash names into clear failures.

use std::ffi::OsString;

use clap::Args;
use ketama_core::{Error, Hash, Profile, Ring};

use crate::servers;
use crate::shared::Fail;

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
    #[arg(long, short = 's', value_parser = path_arg())]
    pub servers: String,
}

/// The parser of every file-name option: the name as UTF-8 text, or a usage error that names
/// the option (file names that are not UTF-8 are refused; clap alone would not say which
/// argument was wrong).
pub fn path_arg() -> impl clap::builder::TypedValueParser<Value = String> {
    use clap::builder::TypedValueParser;
    clap::builder::OsStringValueParser::new().try_map(|s: OsString| {
        s.into_string().map_err(|s| {
            format!(
                "the file name '{}' is not UTF-8 (rename the file or link it under a UTF-8 name)",
                s.to_string_lossy()
            )
        })
    })
}

/// Parses a `--timeout SECONDS` value: a positive number of seconds (fractions allowed), at
/// most a day.
pub fn seconds(s: &str) -> Result<std::time::Duration, String> {
    match s.trim().parse::<f64>() {
        Ok(x) if x > 0.0 && x <= 86_400.0 => Ok(std::time::Duration::from_secs_f64(x)),
        _ => Err(format!(
            "'{s}' is not a number of seconds (more than 0, at most 86400)"
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
