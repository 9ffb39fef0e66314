//! The servers file of every command: read within its bound (through [`crate::files`]),
//! parsed and built into a ring by `ketama-servers` (the format and every message live
//! there), its refusals turned into the command's [`Fail`].

use ketama_core::{Hash, Profile, Ring};

pub use ketama_servers::{Fleet, Line};

use crate::shared::Fail;

/// Reads and parses a servers file.
pub fn load(path: &str) -> Result<Fleet, Fail> {
    let bytes = crate::files::read(
        std::path::Path::new(path),
        "servers file",
        crate::files::SERVERS_FILE,
    )?;
    parse(path, &bytes)
}

/// Parses the text of a servers file; `path` only names it in messages.
pub fn parse(path: &str, bytes: &[u8]) -> Result<Fleet, Fail> {
    Ok(ketama_servers::parse(path, bytes)?)
}

/// Builds the ring; a server the profile cannot place is reported with its file and line.
pub fn ring(profile: &'static Profile, hash: Option<Hash>, fleet: &Fleet) -> Result<Ring, Fail> {
    Ok(ketama_servers::ring(profile, hash, fleet)?)
}
