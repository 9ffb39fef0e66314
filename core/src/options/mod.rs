//! Client options that change which bytes are hashed for a key, without changing the servers'
//! points: a hash tag (twemproxy's `hash_tag`, a Jedis key-tag pattern `o(.+?)c`, each found
//! by its client's rule, [`crate::profile::KeyTag`]) and php-memcached / libmemcached's key
//! prefix (`OPT_PREFIX_KEY`, hashed only with `OPT_HASH_WITH_PREFIX_KEY`).
//!
//! An [`Options`] value is checked twice: its own values by the client's rules when it is made
//! (`hash_tag` exactly 2 bytes; a prefix of 1..=127 bytes without NUL), and against the
//! profile when it is given to a ring: each [`crate::profile::Profile`] row says which options its
//! client has ([`crate::profile::Profile::options`], an [`OptionRules`]). Anything else is
//! [`Error::BadOption`].
//!
//! ```
//! use ketama_core::{options::Options, Profile, Ring, Server};
//!
//! let servers = ["10.0.0.1:11211", "10.0.0.2:11211", "10.0.0.3:11211"]
//!     .map(|label| Server::parse(label, 1))
//!     .into_iter()
//!     .collect::<Result<Vec<_>, _>>()?;
//! let mut ring = Ring::with_servers(Profile::by_name("twemproxy")?, None, servers)?;
//! ring.set_options(Options::new().with_hash_tag(b"{}")?)?;
//! // only "user:42" is hashed: both keys go to one server
//! assert_eq!(ring.locate(b"{user:42}:cart")?, ring.locate(b"{user:42}:profile")?);
//! # Ok::<(), ketama_core::Error>(())
//! ```

use crate::error::Error;

pub mod rules;
pub use rules::{
    OptionRules, HASH_TAG_OPTIONS, LIBMEMCACHED_OPTIONS, NO_OPTIONS, TWEMPROXY_OPTIONS,
};

/// twemproxy's `hash_tag` is exactly this many bytes: the opening one and the closing one.
pub const HASH_TAG_LEN: usize = 2;

/// The longest key prefix libmemcached takes (`MEMCACHED_MAX_NAMESPACE` - 1 bytes): a longer
/// one is not set (php-memcached's `setOption` then returns true and keeps no prefix; here it
/// is refused).
pub const MAX_PREFIX: usize = 127;

/// The longest `prefix + key` libmemcached hashes with `OPT_HASH_WITH_PREFIX_KEY`; a longer
/// one gets hash 0 (`MEMCACHED_MAX_KEY` - 1 bytes).
pub const MAX_PREFIXED_KEY: usize = 250;

/// Placement options of one ring (`Options::new()` = none). Small and `Copy`: the prefix is
/// kept inline.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Options {
    hash_tag: Option<[u8; HASH_TAG_LEN]>,
    prefix: [u8; MAX_PREFIX],
    prefix_len: u8,
    hash_with_prefix: bool,
}

impl Default for Options {
    fn default() -> Options {
        Options::new()
    }
}

impl core::fmt::Debug for Options {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Options")
            .field("hash_tag", &self.hash_tag)
            .field("prefix_key", &self.prefix_key())
            .field("hash_with_prefix", &self.hash_with_prefix)
            .finish()
    }
}

impl Options {
    /// No options: keys are hashed as the profile says.
    pub const fn new() -> Options {
        Options {
            hash_tag: None,
            prefix: [0; MAX_PREFIX],
            prefix_len: 0,
            hash_with_prefix: false,
        }
    }

    /// A hash tag's delimiters: exactly 2 bytes, the opening and the closing one (twemproxy's
    /// `hash_tag` counts bytes: `é` is a valid tag, `«»` is not; for Jedis `{}` is its
    /// `DEFAULT_KEY_TAG_PATTERN`, `\{(.+?)\}`). Else [`Error::BadOption`].
    pub fn with_hash_tag(mut self, tag: &[u8]) -> Result<Options, Error> {
        let tag: [u8; HASH_TAG_LEN] = tag.try_into().map_err(|_| Error::BadOption)?;
        self.hash_tag = Some(tag);
        Ok(self)
    }

    /// libmemcached's key prefix (php-memcached `OPT_PREFIX_KEY`): 1..=127 bytes without NUL
    /// ([`MAX_PREFIX`]), else [`Error::BadOption`]; the empty prefix means none (as the
    /// client's empty string clears it). The prefix only moves keys with
    /// [`Options::with_hash_with_prefix`]. (In the text protocol php-memcached also refuses a
    /// prefix with bytes outside 0x21..=0x7e; with the binary protocol it takes any, and so
    /// does this.)
    pub fn with_prefix_key(mut self, prefix: &[u8]) -> Result<Options, Error> {
        if prefix.len() > MAX_PREFIX || prefix.contains(&0) {
            return Err(Error::BadOption);
        }
        self.prefix = [0; MAX_PREFIX];
        self.prefix[..prefix.len()].copy_from_slice(prefix);
        self.prefix_len = prefix.len() as u8;
        Ok(self)
    }

    /// php-memcached `OPT_HASH_WITH_PREFIX_KEY` (libmemcached
    /// `MEMCACHED_BEHAVIOR_HASH_WITH_PREFIX_KEY`): hash `prefix + key` instead of the key.
    pub fn with_hash_with_prefix(mut self, on: bool) -> Options {
        self.hash_with_prefix = on;
        self
    }

    /// The `hash_tag`, if set.
    pub fn hash_tag(&self) -> Option<[u8; 2]> {
        self.hash_tag
    }

    /// The key prefix (empty when none).
    pub fn prefix_key(&self) -> &[u8] {
        &self.prefix[..usize::from(self.prefix_len)]
    }

    /// Whether `prefix + key` is hashed.
    pub fn hash_with_prefix(&self) -> bool {
        self.hash_with_prefix
    }

    /// Whether no option is set (keys are hashed as the profile alone says).
    pub fn is_empty(&self) -> bool {
        self.hash_tag.is_none() && self.prefix_len == 0 && !self.hash_with_prefix
    }

    /// [`Error::BadOption`] unless a client with these `rules` (a profile's
    /// [`crate::profile::Profile::options`]) has every option set here.
    pub fn check(&self, rules: OptionRules) -> Result<(), Error> {
        let tag_ok = self.hash_tag.is_none() || rules.hash_tag;
        let prefix_ok = (self.prefix_len == 0 && !self.hash_with_prefix) || rules.prefix_key;
        if tag_ok && prefix_ok {
            Ok(())
        } else {
            Err(Error::BadOption)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_are_checked() {
        assert!(Options::new().with_hash_tag(b"{").is_err());
        assert!(Options::new().with_hash_tag(b"{}}").is_err());
        assert!(Options::new().with_hash_tag("«»".as_bytes()).is_err());
        assert!(Options::new().with_hash_tag("é".as_bytes()).is_ok());
        assert!(Options::new().with_prefix_key(&[b'x'; 127]).is_ok());
        assert_eq!(
            Options::new().with_prefix_key(&[b'x'; 128]),
            Err(Error::BadOption)
        );
        assert_eq!(
            Options::new().with_prefix_key(b"p\0q"),
            Err(Error::BadOption)
        );
        assert!(Options::new().with_prefix_key(b"").unwrap().is_empty());
    }
}
