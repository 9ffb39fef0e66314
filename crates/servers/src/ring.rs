//! A fleet built into a ring, a server the profile cannot place reported with its line.

use ketama_core::{Hash, Profile, Ring};

use crate::error::{Error, ErrorKind};
use crate::fleet::Fleet;

/// Builds the ring of `fleet` for `profile` (and `hash`, or the profile's own); a server the
/// profile cannot place is reported with its file and line.
pub fn ring(profile: &'static Profile, hash: Option<Hash>, fleet: &Fleet) -> Result<Ring, Error> {
    Ring::build(profile, hash, fleet.servers()).map_err(|e| {
        // Core names the server to blame (by its place in the list) when there is one.
        let blamed = e.server.and_then(|i| fleet.lines.get(i));
        Error {
            path: fleet.path.clone(),
            line: blamed.map(|l| l.line),
            kind: ErrorKind::Ring {
                label: blamed.map(|l| l.server.label.clone()),
                error: e.error,
                profile: profile.name,
            },
        }
    })
}

#[cfg(test)]
mod tests {
    use ketama_core::Server;

    use super::*;
    use crate::parse::parse;

    fn profile(name: &str) -> &'static Profile {
        Profile::by_name(name).unwrap()
    }

    /// A server the profile refuses is blamed by its line in the file, in the file's words.
    #[test]
    fn refused_server_named_by_line() {
        let fleet = parse("s.txt", b"# two\n10.0.0.1:11211\n10.0.0.2:11211 0\n").unwrap();
        let e = ring(profile("xmemcached"), None, &fleet).unwrap_err();
        assert_eq!(e.line, Some(3));
        assert_eq!(
            e.to_string(),
            "s.txt:3: server '10.0.0.2:11211': weight 0 is not accepted by this client (profile xmemcached)"
        );
        let fleet = Fleet::from_servers("--nodes", vec![Server::parse("cache:11211", 1).unwrap()]);
        let e = ring(profile("xmemcached-nginx"), None, &fleet).unwrap_err();
        assert_eq!(
            e.to_string(),
            "--nodes:1: server 'cache:11211': this client needs an IP address here, not a host name (profile xmemcached-nginx)"
        );
        assert_eq!(ring(profile("libketama"), None, &fleet).unwrap().len(), 1);
    }
}
