//! Which placement options each client has: the [`OptionRules`] field of every profile row.

/// Which options a profile's client has (a field of every [`crate::Profile`] row).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OptionRules {
    /// A hash tag between two delimiters the user configures (twemproxy's `hash_tag`, a
    /// Jedis key-tag pattern `o(.+?)c`).
    pub hash_tag: bool,
    /// libmemcached's key prefix (php-memcached `OPT_PREFIX_KEY`) and
    /// `OPT_HASH_WITH_PREFIX_KEY`.
    pub prefix_key: bool,
}

/// A client without placement options.
pub const NO_OPTIONS: OptionRules = OptionRules {
    hash_tag: false,
    prefix_key: false,
};
/// twemproxy: `hash_tag`.
pub const TWEMPROXY_OPTIONS: OptionRules = OptionRules {
    hash_tag: true,
    prefix_key: false,
};
/// A hash tag only (Jedis's key-tag pattern).
pub const HASH_TAG_OPTIONS: OptionRules = OptionRules {
    hash_tag: true,
    prefix_key: false,
};
/// libmemcached and php-memcached: a key prefix, hashed or not.
pub const LIBMEMCACHED_OPTIONS: OptionRules = OptionRules {
    hash_tag: false,
    prefix_key: true,
};
