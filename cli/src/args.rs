//! Options several commands share: the profile, hash and servers file that name a ring
//! ([`RingArgs`]), the parsers of file names and timeouts, and the resolution of profile and
//! hash names into clear failures.

use std::ffi::OsString;

use clap::Args;
use ketama_core::{Error, Hash, Options, Profile, Ring};

use crate::servers;
use crate::shared::Fail;

/// A profile, an optional hash and a servers file.
#[derive(Debug, Args)]
pub(crate) struct RingArgs {
    /// Client profile (see `ketama profiles`).
    #[arg(long, short = 'p')]
    pub(crate) profile: String,
    /// Key hash (see `ketama hashes`); default: the profile's.
    #[arg(long = "hash", short = 'H')]
    pub(crate) hash: Option<String>,
    /// Servers file: `host:port [weight] [name]` per line.
    #[arg(long, short = 's', value_parser = path_arg())]
    pub(crate) servers: String,
    /// The client's placement options.
    #[command(flatten)]
    pub(crate) options: OptionArgs,
}

/// The client options that change which bytes of a key are hashed (`ketama_core::Options`).
#[derive(Clone, Debug, Default, Args)]
pub(crate) struct OptionArgs {
    /// A hash tag's delimiters (exactly 2 bytes, e.g. '{}'): only the text between them is
    /// hashed, found by the client's own rule (twemproxy's `hash_tag`; a Jedis key-tag pattern,
    /// '{}' = `\{(.+?)\}`). The Redis clients that always take `{tag}` need no option.
    #[arg(long = "hash-tag", value_name = "TAG")]
    pub(crate) hash_tag: Option<String>,
    /// php-memcached's `OPT_PREFIX_KEY` (1..127 bytes); moves keys only with
    /// `--hash-with-prefix` (libmemcached profiles).
    #[arg(long = "prefix-key", value_name = "PREFIX")]
    pub(crate) prefix_key: Option<String>,
    /// php-memcached's `OPT_HASH_WITH_PREFIX_KEY`: hash the prefix and the key (libmemcached
    /// profiles).
    #[arg(long = "hash-with-prefix")]
    pub(crate) hash_with_prefix: bool,
}

impl OptionArgs {
    /// The options as core checks them, or a usage failure naming the flag.
    pub(crate) fn options(&self) -> Result<Options, Fail> {
        let mut o = Options::new();
        if let Some(t) = &self.hash_tag {
            o = o.with_hash_tag(t.as_bytes()).map_err(|_| {
                Fail::new(format!(
                    "--hash-tag '{t}' is {} bytes: twemproxy's hash_tag is exactly 2 bytes (e.g. '{{}}')",
                    t.len()
                ))
            })?;
        }
        if let Some(p) = &self.prefix_key {
            o = o.with_prefix_key(p.as_bytes()).map_err(|_| {
                Fail::new(format!(
                    "--prefix-key is {} bytes: libmemcached takes a prefix of 1..127 bytes (a longer one is silently not set by php-memcached)",
                    p.len()
                ))
            })?;
        }
        Ok(o.with_hash_with_prefix(self.hash_with_prefix))
    }

    /// `ring` with these options, or a failure when its profile's client lacks one.
    pub(crate) fn apply(&self, ring: Ring) -> Result<Ring, Fail> {
        let o = self.options()?;
        apply_options(ring, o)
    }
}

/// `ring` with options `o`, or a failure saying which profiles have them.
pub(crate) fn apply_options(ring: Ring, o: Options) -> Result<Ring, Fail> {
    let name = ring.profile().name;
    ring.with_options(o).map_err(|_| {
        let has = |f: fn(&Profile) -> bool| {
            Profile::all()
                .iter()
                .filter(|p| f(p))
                .map(|p| p.name)
                .collect::<Vec<_>>()
                .join(", ")
        };
        let (flag, list) = if o.hash_tag().is_some() && !ring_has(name, |p| p.options.hash_tag) {
            ("--hash-tag", has(|p| p.options.hash_tag))
        } else {
            (
                "--prefix-key/--hash-with-prefix",
                has(|p| p.options.prefix_key),
            )
        };
        Fail::new(format!(
            "profile {name}: its client has no {flag} option (profiles that have it: {list})"
        ))
    })
}

fn ring_has(name: &str, f: fn(&Profile) -> bool) -> bool {
    Profile::by_name(name).is_ok_and(f)
}

/// The parser of every file-name option: the name as UTF-8 text, or a usage error that names
/// the option (file names that are not UTF-8 are refused; clap alone would not say which
/// argument was wrong).
pub(crate) fn path_arg() -> impl clap::builder::TypedValueParser<Value = String> {
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
pub(crate) fn seconds(s: &str) -> Result<std::time::Duration, String> {
    match s.trim().parse::<f64>() {
        Ok(x) if x > 0.0 && x <= 86_400.0 => Ok(std::time::Duration::from_secs_f64(x)),
        _ => Err(format!(
            "'{s}' is not a number of seconds (more than 0, at most 86400)"
        )),
    }
}

/// Resolves a profile name.
pub(crate) fn profile(name: &str) -> Result<&'static Profile, Fail> {
    Profile::by_name(name).map_err(|_| {
        Fail::new(format!(
            "unknown profile '{name}' (see `ketama profiles` for the names)"
        ))
    })
}

/// Resolves a hash name, as `profile`'s client means it when given.
pub(crate) fn hash(name: &str, profile: Option<&Profile>) -> Result<Hash, Fail> {
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
pub(crate) fn ring_from(a: &RingArgs) -> Result<Ring, Fail> {
    let p = profile(&a.profile)?;
    let h = a.hash.as_deref().map(|n| hash(n, Some(p))).transpose()?;
    let fleet = servers::load(&a.servers)?;
    a.options.apply(servers::ring(p, h, &fleet)?)
}
