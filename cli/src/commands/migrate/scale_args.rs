//! The fleet-scale options of `migrate plan` and `run`: which keys are left out
//! (`--min-ttl`), what is hot (`--hot-window`) and copied first (`--hot-first`), and the byte
//! limits (`--max-bytes-per-s`, `--max-bytes-per-s-per-server`).

use std::sync::Arc;

use clap::Args;
use ketama_migrate::heat::DEFAULT_WINDOW;
use ketama_migrate::run::{ByteLimits, Scale, Throttle};
use ketama_migrate::PlanOptions;

/// What `plan` and `run` both take.
#[derive(Debug, Args, Clone)]
pub(crate) struct KeyArgs {
    /// Keys that expire within SECONDS are not copied (counted apart as "short ttl"): a copy
    /// gone before the clients switch is not worth its read and write.
    #[arg(long, value_name = "SECONDS")]
    pub(crate) min_ttl: Option<u64>,
    /// A key is hot when it was read within the last SECONDS (memcached: metadump `la` of a
    /// key read since stored; Redis: OBJECT IDLETIME, or under an LFU policy an OBJECT FREQ
    /// counter above a new key's). `plan` counts the hot keys that move; `run --hot-first`
    /// copies them first.
    #[arg(long, value_name = "SECONDS", default_value_t = DEFAULT_WINDOW)]
    pub(crate) hot_window: u64,
}

impl KeyArgs {
    /// The plan's options: heat is always asked (memcached lists it anyway; Redis asks one
    /// short `OBJECT` command more per key).
    pub(crate) fn plan(&self) -> PlanOptions {
        PlanOptions {
            min_ttl: self.min_ttl,
            hot_window: Some(self.hot_window),
        }
    }
}

/// What only `run` takes.
#[derive(Debug, Args, Clone)]
pub(crate) struct ScaleArgs {
    #[command(flatten)]
    pub(crate) keys: KeyArgs,
    /// Copy the hot keys first, then the others from the most to the least recently read
    /// (the listings of every OLD server then end before the copy starts), so a run stopped
    /// early has copied what clients read most.
    #[arg(long)]
    pub(crate) hot_first: bool,
    /// At most N bytes of values read per second from all OLD servers together (a token
    /// bucket on the bytes actually read; suffixes k, M, G for 10^3, 10^6, 10^9, Ki, Mi, Gi
    /// for 2^10, 2^20, 2^30).
    #[arg(long, value_name = "N", value_parser = bytes_per_s)]
    pub(crate) max_bytes_per_s: Option<u64>,
    /// At most N bytes of values read per second from each OLD server.
    #[arg(long, value_name = "N", value_parser = bytes_per_s)]
    pub(crate) max_bytes_per_s_per_server: Option<u64>,
}

impl ScaleArgs {
    /// The byte limits given.
    pub(crate) fn limits(&self) -> ByteLimits {
        ByteLimits {
            overall: self.max_bytes_per_s,
            per_server: self.max_bytes_per_s_per_server,
        }
    }

    /// The run's fleet-scale options.
    pub(crate) fn scale(&self) -> Scale {
        let limits = self.limits();
        Scale {
            min_ttl: self.keys.min_ttl,
            hot_first: self.hot_first.then_some(self.keys.hot_window),
            throttle: limits.any().then(|| Arc::new(Throttle::new(limits))),
        }
    }
}

/// Parses a byte rate: a positive whole number with an optional suffix.
pub(crate) fn bytes_per_s(s: &str) -> Result<u64, String> {
    let t = s.trim();
    let split = t.find(|c: char| !c.is_ascii_digit()).unwrap_or(t.len());
    let (digits, suffix) = t.split_at(split);
    let unit: u64 = match suffix {
        "" => 1,
        "k" | "K" => 1_000,
        "M" => 1_000_000,
        "G" => 1_000_000_000,
        "Ki" => 1 << 10,
        "Mi" => 1 << 20,
        "Gi" => 1 << 30,
        _ => 0,
    };
    match digits.parse::<u64>().ok().and_then(|n| n.checked_mul(unit)) {
        Some(n) if n > 0 => Ok(n),
        _ => Err(format!(
            "'{s}' is not a byte rate (a positive whole number, optionally with k, M, G, Ki, \
             Mi or Gi: e.g. 50M)"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn byte_rates() {
        assert_eq!(bytes_per_s("1000"), Ok(1000));
        assert_eq!(bytes_per_s("50M"), Ok(50_000_000));
        assert_eq!(bytes_per_s("2k"), Ok(2000));
        assert_eq!(bytes_per_s("1Gi"), Ok(1 << 30));
        assert_eq!(bytes_per_s("3Mi"), Ok(3 << 20));
        for bad in [
            "0",
            "",
            "M",
            "-1",
            "1.5M",
            "10MB",
            "99999999999999999999G",
            "1 M",
        ] {
            assert!(bytes_per_s(bad).is_err(), "{bad}");
        }
    }
}
