//! What every `migrate` verb starts from: the two placements read from the command line, the
//! memcached backend with the run's stop flag, and the notes every verb prints alike.

use ketama_memcache::Options;
use ketama_migrate::{AnyBackend, Fleet, Memcached, Placement, Redis};

use super::args::PlaceArgs;
use crate::servers;
use crate::shared::Fail;

/// Exit status when a server did not answer or keys could not be copied.
pub(crate) const EXIT_SERVER: i32 = 3;
/// Exit status of `verify` when some keys are not where NEW clients look.
pub(crate) const EXIT_UNREACHABLE_KEYS: i32 = 1;

/// Said when some server was listed with `stats cachedump`.
pub(crate) const CACHEDUMP_NOTE: &str = "note: servers without an enabled LRU crawler were listed with `stats cachedump`, which shows at most about 2 MB per slab class and, with a segmented LRU, only the HOT part: keys may have been missed there";

/// Loads both servers files and builds both rings.
pub(crate) fn placement(a: &PlaceArgs) -> Result<Placement, Fail> {
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
    Ok(Placement::new(
        Fleet::new(&old.path, old.servers(), old_ring),
        Fleet::new(&new.path, new.servers(), new_ring),
    ))
}

/// The servers (memcached or Redis, `--backend`) as the options say (timeout per round trip,
/// TLS per fleet, the Redis login and database), stopped by Ctrl-C.
pub(crate) fn backend(a: &PlaceArgs) -> Result<AnyBackend, Fail> {
    a.servers_kind.check()?;
    let old = a.tls.load().map_err(Fail::new)?;
    let new = a.to_tls.load(old.clone()).map_err(Fail::new)?;
    let net = Options::new(a.timeout, crate::stop::flag());
    let (old, new) = (net.clone().with_tls(old), net.with_tls(new));
    Ok(if a.servers_kind.is_redis() {
        AnyBackend::Redis(Redis::per_side(
            a.servers_kind.redis(old)?,
            a.servers_kind.redis(new)?,
        ))
    } else {
        AnyBackend::Memcached(Memcached::per_side(old, new))
    })
}

/// A server that cannot serve the command at all (a Redis Cluster node, a server too old):
/// the whole command fails with its message (exit 2), as a run refuses to start.
pub(crate) fn unsupported<'a>(
    mut errors: impl Iterator<Item = &'a ketama_migrate::backend::ServerError>,
) -> Result<(), Fail> {
    match errors.find(|e| e.kind == ketama_migrate::backend::ServerErrorKind::Unsupported) {
        Some(e) => Err(Fail::new(e.message.clone())),
        None => Ok(()),
    }
}

/// Prints on stderr the lines a listing of `server` skipped (`verb`: the command).
pub(crate) fn bad_lines(verb: &str, server: &str, l: &ketama_migrate::backend::ListSummary) {
    crate::listing_notes::bad_lines(
        verb,
        server,
        l.command,
        l.bad.iter().map(|(n, why)| (*n, why.as_str())),
        l.bad_count,
    );
}

/// Human duration for estimates: "45 s", "12 min", "3.5 h".
pub(crate) fn duration_text(secs: f64) -> String {
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
