//! Every supported client as one row of data: what differs between them, and nothing else.
//! Each row's `description` says which client, version and settings it reproduces, and
//! `verified_by` how that is checked (both listed in the README and `docs/compat.md`); the
//! table below shows the knobs (generated from the rows by `core/tests/tables.rs`).
//!
//! <!-- generated from the profile rows by core/tests/tables.rs: do not edit (KETAMA_WRITE_TABLES=1 cargo test -p ketama-core --test tables) -->
//! | profile | node string | points per server | key hash | placement |
//! |---|---|---|---|---|
//! | `libketama` | `Label`, `S-i` | relative weight, libketama float formula; md5, 4 points per digest | `md5` | first point >= hash; earlier server wins |
//! | `libmemcached` | `OmitDefaultPort`, `S-i` | 100 strings per server; the key hash, 1 point per string | `one_at_a_time` (+10 more) | first point >= hash; earlier server wins |
//! | `libmemcached-weighted` (= `php-memcached`) | `OmitDefaultPort`, `S-i` | relative weight, libmemcached float formula; md5, 4 points per digest | `md5` (+10 more) | first point >= hash; earlier server wins |
//! | `libmemcached-spy` | `SlashLabel`, `S-i` | 100 strings per server; the key hash, 1 point per string | `one_at_a_time` (+10 more) | first point >= hash; earlier server wins |
//! | `libmemcached-spy-weighted` | `SlashLabel`, `S-i` | relative weight, libmemcached float formula; md5, 4 points per digest | `md5` (+10 more) | first point >= hash; earlier server wins |
//! | `twemproxy` (= `nutcracker`) | `OmitDefaultPort`, `S-i` | relative weight, libmemcached float formula; md5, 4 points per digest | `fnv1a_64` (+11 more) | first point >= hash; earlier server wins |
//! | `twemproxy-modula` | - | - | `fnv1a_64` (+11 more) | hash % total weight (weight slots) |
//! | `pecl-memcache` | `Label`, `S-i` | 160 x weight strings; the key hash, 1 point per string | `crc32a` (+1 more) | 1024-bucket table; earlier server wins |
//! | `pecl-memcache-standard` | - | - | `crc32a` (+1 more) | ((hash >> 16) & 0x7fff) % total weight |
//! | `spymemcached` | `JavaSpy`, `S-i` | 160 strings per server; md5 x 4 with KETAMA_HASH, else the key hash | `md5` (+6 more) | first point >= hash; later server wins |
//! | `spymemcached-libmemcached-format` | `JavaHostName`, `S-i` | 160 strings per server; md5 x 4 with KETAMA_HASH, else the key hash | `md5` (+6 more) | first point >= hash; later server wins |
//! | `spymemcached-weighted` | `JavaSpy`, `S-i` | relative weight, libmemcached float formula; md5, 4 points per digest | `md5` (+6 more) | first point >= hash; later server wins |
//! | `spymemcached-weighted-libmemcached-format` | `JavaHostName`, `S-i` | relative weight, libmemcached float formula; md5, 4 points per digest | `md5` (+6 more) | first point >= hash; later server wins |
//! | `xmemcached` | `JavaXmc`, `S-i` | 160 x weight strings; md5 x 4 with KETAMA_HASH, else the key hash | `md5` (+12 more) | first point >= hash; xmemcached sorted list |
//! | `xmemcached-nginx` | `JavaNginx`, `S-i` | 160 x weight strings; md5 x 4 with KETAMA_HASH, else the key hash | `md5` (+12 more) | first point >= hash; xmemcached sorted list |
//! | `xmemcached-gwhalin` | `JavaHostNamePort`, `S-i` | 160 x weight strings; md5 x 4 with KETAMA_HASH, else the key hash | `md5` (+12 more) | first point >= hash; xmemcached sorted list |
//! | `uhashring` | `Label`, `S-i` | 160 x weight strings; md5 as a 128-bit number | `md5` | first point > hash; later server wins |
//! | `uhashring-ketama` | `Label`, `S-i` | relative weight, integer formula; md5, 4 points per digest | `md5` | first point > hash; later server wins |
//! | `hash_ring` | `Label`, `S-i` | relative weight, integer formula; md5, 3 points per digest | `md5` | first point > hash; later server wins |
//! | `node-hashring` | `Label`, `S-i` | relative weight, node-hashring double formula; md5, 4 points per digest | `md5` | first point >= hash; earlier server wins |
//! | `go-ketama` | `Label`, `S-i` | relative weight, libketama float formula; md5, 4 points per digest | `md5` | first point >= hash (hash 0 to the last point); earlier server wins |
//! | `groupcache` | `Label`, `iS` | 50 strings per server; the key hash, 1 point per string | `crc32a` | first point >= hash; later server wins |
//! | `flexihash` | `Label`, `Si` | 64 x weight strings; the key hash, 1 point per string | `crc32a` | first point > hash; later server wins |
//! | `flexihash-seed` | `Bare`, `S` | 1 strings per server; the key hash, 1 point per string | `seed_tohash` | largest point <= hash; earlier server wins |
//! | `dalli` | `HostPort`, `S:i` | relative weight, dalli double formula (160 n w / W); sha1, first word big-endian, 1 point per string | `crc32a` | largest point <= hash, else the largest point (backwards); earlier server wins |
//! | `nginx` | `NginxHostNulPort`, `S` | 160 x weight strings; crc32 chain, each point over S and the previous one | `crc32a` | first point >= hash; earlier server wins |
//! | `folsom` | `Label`, `S-i` | 100 strings per server; murmur3_32 chain, each point hashing the previous one | `murmur3_32` | first point >= hash in signed order; later server wins |
//! | `memjs` | - | - | `native` | \|signed hash\| % n |
//! | `whalin-consistent` | `Label`, `S-i` | relative weight, whalin Java int formula (40 n w / W); md5, 4 points per digest | `md5` | first point >= hash; later server wins |
//! | `whalin-consistent-sanitized` | `Label`, `S-i` | relative weight, whalin Java int formula (40 n w / W); md5, 4 points per digest | `md5` | first point >= hash; later server wins |
//! | `whalin-native` | - | - | `native` | \|signed hash\| % total weight |
//! | `whalin-old-compat` | - | - | `native` | \|64-bit old-compat hash\| % total weight |
//! | `whalin-new-compat` | - | - | `crc` | \|signed hash\| % total weight |
//! | `mcrouter-ch3` | - | - | `spooky32` | mcrouter furc_hash (CH3) |
//! | `mcrouter-wch3` | - | - | `spooky32` | mcrouter WeightedCh3 (furc_hash + spooky draws, weights / max) |
//! | `pymemcache` | - | - | `pymemcache_murmur3` | rendezvous: highest hash of S-key, ties to the greater node string |
//! | `pymemcache-unicode` | - | - | `pymemcache_murmur3` | rendezvous: highest hash of S-key, ties to the greater node string |
//! | `pymemcache-bytes` | - | - | `pymemcache_murmur3` | rendezvous: highest hash of S-key, ties to the greater node string |
//! | `django-pymemcache` (= `django`) | - | - | `pymemcache_murmur3` | rendezvous: highest hash of S-key, ties to the greater node string |
//! | `emcache` | - | - | `emcache_murmur3` | rendezvous: highest hash of key + S, ties to the greater node hash, then the earlier server |
//! | `python-memcached` | - | - | `crc` (+1 more) | hash % total weight (weight slots) |
//! | `memcached-proxy` | - | - | `xxh3` | jump consistent hash over 64-bit XXH3 of the key |
//! | `memcached-proxy-ring` | `HostPort`, `S-i` | 160 strings per server; xxh3, low 32 bits, 1 point per string | `xxh3` (+1 more) | first point >= hash; earlier server wins |
//! | `memcached-proxy-ring-ketama` | `HostPort`, `S-i` | 40 strings per server; md5, 4 points per digest | `xxh3` (+1 more) | first point >= hash; earlier server wins |
//! | `memcached-proxy-ring-twemproxy` | `OmitDefaultPort`, `S-i` | 40 strings per server; md5, 4 points per digest | `xxh3` (+1 more) | first point >= hash; earlier server wins |
//! | `memcached-proxy-ring-evcache` | `HostSlashHostPort`, `S-i` | 40 strings per server; md5, 4 points per digest | `xxh3` (+1 more) | first point >= hash; earlier server wins |
//! | `evcache` | `JavaEvcache`, `S-i` | 160 strings per server; md5 x 4 with KETAMA_HASH, else the key hash | `md5` | first point >= hash; later server wins |
//! | `modula` | - | - | `one_at_a_time` (+10 more) | hash % n |
//! | `gomemcache` | - | - | `crc32a` | hash % n |
//! | `jump` | - | - | `md5` | jump consistent hash |
//! | `rendezvous` | - | - | `md5` | rendezvous hashing |
//! | `maglev` | - | - | `md5` | a Maglev table |
//! <!-- end of generated table -->

use crate::error::Error;
use crate::hash::Hash;
use crate::options::rules::{OptionRules, LIBMEMCACHED_OPTIONS, NO_OPTIONS, TWEMPROXY_OPTIONS};
use crate::server::NodeForm;
use crate::weight::{Count, Formula};

// Each row below writes out every field, so a row says exactly what its client does.

/// How the `i`-th point string of node string `S` is spelled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StringForm {
    /// `S-i` (ketama and almost everyone).
    Dash,
    /// `iS` (groupcache: `strconv.Itoa(i) + key`).
    Prefix,
    /// `Si` (flexihash: `$target . $i`, no separator).
    Concat,
    /// `S` alone (one point per server).
    Bare,
    /// `S:i` (dalli: `"#{name}:#{i}"`).
    Colon,
}

/// How point strings become ring positions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PointHash {
    /// MD5 of each string, `per` little-endian words of the digest (4 ketama, 3 hash_ring).
    Md5Words {
        /// Points per digest.
        per: u8,
    },
    /// One point per string, hashed with the ring's key hash (so `--hash` moves the points).
    KeyHash,
    /// The Java clients: exactly `KETAMA_HASH` gives `strings / 4` digests x 4 md5 words;
    /// any other hash (`ELECTION_HASH` included) one point per string with that hash.
    JavaKetama,
    /// The whole MD5 digest as a 128-bit integer (uhashring's default ring).
    Md5Wide,
    /// CRC-32 chain (nginx): point i = crc32(S || le32(point i - 1)), with 0 before point 0;
    /// one point per string.
    Crc32Chain,
    /// murmur3_32 chain (folsom): point 0 = murmur3_32(S), point i = murmur3_32 of the
    /// little-endian bytes of point i - 1; one point per string.
    Murmur3Chain,
    /// SHA-1 of each string, the big-endian first word of the digest, one point per string
    /// (dalli: the first 8 hex digits).
    Sha1Word,
    /// XXH3 64-bit of each string, its low 32 bits, one point per string (memcached proxy
    /// ring, default mode), whatever the key hash.
    Xxh3Word,
}

/// Which comparison finds a key hash's point on a sorted continuum.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// First point >= h, else the first point.
    LowerBound,
    /// First point > h, else the first point.
    UpperBound,
    /// As `LowerBound`, but a key hash of exactly 0 goes to the last point (go-ketama's
    /// unsigned underflow, kept on purpose upstream).
    LowerBoundZeroLast,
    /// The largest point <= h; below the smallest point PHP reads `list[count - 1]`, which is
    /// a server only if some point equals `count - 1`, else null (the user's PHP FlexiHash
    /// class, `flexihash-seed`).
    Floor,
    /// The largest point <= h; below the smallest point, the largest point (dalli:
    /// `bsearch_index { |e| e.value > h }` minus one, index -1 wrapping to the last point).
    FloorWrap,
    /// First point >= h in **signed** 32-bit order, else the first (most negative) point
    /// (folsom's `TreeMap<Integer, _>.ceilingEntry`). Positions are stored with the sign bit
    /// flipped (`p ^ 2^31`), so the continuum's unsigned order is the signed order; the key
    /// hash is flipped the same way before the search.
    LowerBoundSigned,
}

impl Bound {
    /// Whether a walk for the next servers (failover, `locate_n`) goes backwards along the
    /// continuum (the floor searches) rather than forwards.
    pub fn walks_backwards(self) -> bool {
        matches!(self, Bound::Floor | Bound::FloorWrap)
    }

    /// What is XORed into a 32-bit position or key hash so that the continuum's unsigned
    /// order is the order this search compares in (`2^31` for the signed search, else 0).
    pub fn flip(self) -> u32 {
        match self {
            Bound::LowerBoundSigned => 0x8000_0000,
            _ => 0,
        }
    }
}

/// Which algorithm places a key on a server.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Placement {
    /// A sorted continuum of points, searched by the [`Bound`].
    Ring(Bound),
    /// pecl memcache: the continuum searched lower-bound, read through a 1024-entry table:
    /// `bucket[b]` = owner of the first point >= `b * 4194303`; key -> `bucket[h % 1024]`.
    PeclBuckets,
    /// `hash % slots` over the servers in order (each repeated `w` times when weighted).
    Modula {
        /// Each server fills `weight` consecutive slots.
        weighted: bool,
        /// pecl memcache standard: `h = (h >> 16) & 0x7fff`, 0 becomes 1.
        high15: bool,
    },
    /// The whalin Java client's bucket lists and memjs: the key hash as a signed Java
    /// `long` (the 32-bit hash sign-extended, or whalin's 64-bit old-compat hash),
    /// `|h| mod slots` over the servers in order (each repeated `w` times when weighted).
    JavaAbsModulo {
        /// Each server fills `weight` consecutive slots.
        weighted: bool,
        /// whalin OLD_COMPAT_HASH: `h = 33 h + u` over the key's UTF-16 units in 64 bits
        /// (the ring's hash is not used).
        old_compat: bool,
    },
    /// mcrouter CH3: `furc_hash(key, n)` over the servers in order (the key itself, not a key
    /// hash); weighted: WeightedCh3 with each weight divided by the largest.
    Furc {
        /// WeightedCh3 (SpookyHash draws against the weights, up to 32 salted tries).
        weighted: bool,
    },
    /// Lamping & Veach jump consistent hash over the servers in order.
    Jump,
    /// Jump consistent hash of the key's full 64-bit XXH3 (seed 0) over the servers in order
    /// (memcached proxy's default `dist_jump_hash`); the key hash is not used.
    JumpXxh3,
    /// Rendezvous (highest random weight); weights scale the score (logarithmic method).
    Rendezvous,
    /// Google Maglev lookup table (65,537 entries).
    Maglev,
    /// Rendezvous as the Python clients do it: each server scores the profile's hash of one
    /// string joining its node string and the (rewritten) key; the highest score wins;
    /// weights ignored.
    HashRendezvous {
        /// How the node string and the key are joined.
        join: Join,
        /// Who wins equal scores.
        ties: ScoreTies,
    },
}

/// How a rendezvous client joins a node string `S` and a key `K` into the string it hashes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Join {
    /// `S-K` (pymemcache `f"{node}-{key}"`).
    NodeDashKey,
    /// `KS` (emcache `key + rendezvous_id`).
    KeyNode,
}

/// Who wins equal rendezvous scores.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScoreTies {
    /// The greater node string (pymemcache `max(str(node), str(winner))`).
    GreaterNode,
    /// The greater hash of the node string alone, then the earlier server (emcache).
    GreaterNodeHash,
}

impl Placement {
    /// The comparison on the continuum, for placements that search one (pecl's table is
    /// filled by a lower-bound search).
    pub fn bound(self) -> Option<Bound> {
        match self {
            Placement::Ring(b) => Some(b),
            Placement::PeclBuckets => Some(Bound::LowerBound),
            _ => None,
        }
    }
}

/// Which server owns a position several servers' points share.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ties {
    /// The server given first (stable sort of an array; libmemcached, libketama, twemproxy).
    EarlierWins,
    /// The server given last (a sorted map filled in order: spymemcached, uhashring, Go maps).
    LaterWins,
    /// xmemcached: the colliding servers sorted by node string (UTF-16 order), owner
    /// `list[point % len]`.
    SortedList,
}

/// What a weight of 0 means.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ZeroWeight {
    /// Counted as 1 in both `w` and the total (libmemcached, go-ketama).
    AsOne,
    /// Accepted and given to the count rule as it is: relative-weight rules give the server
    /// no points (it stays on the ring), fixed counts ignore the weight (spymemcached's
    /// weight-0 servers get their 160 points), per-weight counts give 0.
    AsIs,
    /// Rejected with [`Error::BadWeight`] (twemproxy, libketama).
    Reject,
}

/// How the client rewrites a key before hashing it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KeyRewrite {
    /// Hash the bytes as given.
    None,
    /// pecl memcache: bytes <= 0x20 become `_`, then truncate to 250 bytes.
    PeclSanitize,
    /// Hash at most the first N bytes (gomemcache: 256).
    Truncate(usize),
    /// dalli: a key longer than 250 characters (code points; bytes that are not UTF-8 count
    /// one each) becomes its first 212 characters + `:md5:` + the lowercase hex MD5 of the
    /// whole key.
    DalliDigest,
    /// whalin's `sanitizeKeys` (on by default): `URLEncoder.encode(key, "UTF-8")`:
    /// `a-zA-Z0-9.-*_` kept, space to `+`, every other byte `%XX` (`~` too).
    UrlEncode,
    /// Python's `repr()` of a `bytes` key, as an f-string formats it (pymemcache with bytes
    /// keys): `b'...'` (`b"..."` when the key holds `'` and no `"`), `\\`, the quote, `\t`,
    /// `\n`, `\r` escaped, other bytes below 0x20 or from 0x7f as `\xhh`.
    PyBytesRepr,
    /// A fixed prefix (Django's default key function with no `KEY_PREFIX` and `VERSION` 1:
    /// `:1:`).
    Prefix(&'static str),
}

/// The order a client keeps its servers in (it decides ties and modulo slots).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Order {
    /// The order they were given (added).
    Given,
    /// twemproxy: sorted by node string, shorter first, then bytewise.
    NodeLengthThenBytes,
}

/// What a client does when the server it picked is down.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Failover {
    /// Walk the continuum (or the server list) on to the next distinct servers.
    Walk,
    /// Rehash the key and look again: `hv = (hv + H(str(t) + key)) mod 2^32` for
    /// t = `first_tag`, `first_tag + 1`, ..., each `hv` looked up on the ring (servers may
    /// repeat). spymemcached's `KetamaIterator` starts at 0 with no bound of its own;
    /// xmemcached's `nextHash` starts at 1 and gives up after as many tries as servers.
    Rehash {
        /// The first `t`.
        first_tag: u32,
        /// At most as many rehashes as there are servers.
        bounded_by_servers: bool,
    },
    /// Rehash the key with the try number in front: lookup `t` (t >= 1) hashes
    /// `str(t - 1) + key` and looks that up, up to `tries` lookups in all, then the client
    /// gives up (dalli: `hash_for("#{try}#{key}")`, 20 lookups; a one-server ring has no
    /// continuum and gives up after its only server).
    RehashKey {
        /// Lookups in all, the first (the key itself) included.
        tries: u32,
    },
    /// Rehash the key with the try number after it: lookup `t` (t >= 1) hashes
    /// `key + "-" + str(t - 1)` and places that as a key, up to `tries` lookups in all, then
    /// the client gives up (pecl memcache `mmc_pool_find_next`: `sprintf("%s-%d", key, i)`,
    /// `memcache.max_failover_attempts` = 20 rehashes after the key itself; one server is
    /// returned without hashing, so a one-server pool has nowhere else to go).
    RehashKeyDash {
        /// Lookups in all, the first (the key itself) included.
        tries: u32,
    },
    /// Rehash the previous *hash* with the try number: `h(t + 1) = H(str(h(t)) + str(t))`,
    /// t from 0, each `h(t)` placed as the key's hash is, up to `tries` lookups, then the
    /// client gives up (python-memcached `_get_server`, `_SERVER_RETRIES` = 10).
    RehashHash {
        /// Lookups in all, the first (the key's hash) included.
        tries: u32,
    },
    /// Rehash the key with a counter in front until a server not yet tried comes up: after
    /// the key's own server, `str(t) + key` for t = 0, 1, 2, ... is placed as a key is (the
    /// client's own hash and bucket list or ring), a server already tried is skipped, each
    /// distinct server is tried once, and the client gives up when all have been (whalin
    /// `SchoonerSockIOPool.getSock` with its default `failover = true`: the counter restarts
    /// at 0 after each failed server, which lands on the same untried server as counting on;
    /// a one-bucket list is tried alone).
    RehashKeyUntried,
    /// The client keeps sending to the server it picked while that server is down (emcache
    /// with its default `purge_unhealthy_nodes=False`): the key fails until it is back.
    Stay,
}

/// What removing a server does to the points it shares with others.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Removal {
    /// Only the removed server's points go; a position it shared stays with the others
    /// (the ring equals a fresh build without the server).
    OwnPoints,
    /// flexihash `removeTarget`: every position the server had is unset, even where another
    /// server had won it, so the others lose those positions too.
    ClearsItsPositions,
}

/// Keys the client refuses before hashing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KeyLimits {
    /// The empty key is refused.
    pub empty: bool,
    /// Keys longer than this many bytes are refused.
    pub max_len: Option<usize>,
    /// Bytes (or characters) the client refuses anywhere in a key.
    pub chars: KeyChars,
}

/// Which bytes a client refuses in a key.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KeyChars {
    /// Any byte.
    Any,
    /// No byte 0x00..=0x20 (control bytes, space): folsom.
    Controls,
    /// No byte 0x00..=0x20 or 0x7f: emcache `is_key_valid`, Django's memcached key check.
    ControlsDel,
    /// No NUL, and no ASCII whitespace (space, `\t`, `\n`, `\v`, `\f`, `\r`: what
    /// `bytes.split()` splits on) unless the key is whitespace only (`key.split()` is then
    /// empty and passes the check): pymemcache `check_key_helper` with Unicode or bytes keys.
    PyWhitespace,
    /// As [`KeyChars::PyWhitespace`], and no byte >= 0x80 (pymemcache's default refuses keys
    /// that are not ASCII).
    PyWhitespaceAscii,
    /// python-memcached `[\x21-\x7e\x80-\xff]+$`: no byte 0x00..=0x20 or 0x7f, except one
    /// final `\n` (a regex `$` also matches before a final newline).
    PythonMemcached,
}

impl KeyChars {
    /// Whether a key passes this rule.
    pub fn allows(self, key: &[u8]) -> bool {
        let ctl = |b: &u8| *b <= 0x20 || *b == 0x7f;
        let ws = |b: &u8| matches!(*b, b' ' | b'\t' | b'\n' | 0x0b | 0x0c | b'\r');
        match self {
            KeyChars::Any => true,
            KeyChars::Controls => !key.iter().any(|&b| b <= 0x20),
            KeyChars::ControlsDel => !key.iter().any(ctl),
            KeyChars::PyWhitespace | KeyChars::PyWhitespaceAscii => {
                let ascii = self == KeyChars::PyWhitespace || key.is_ascii();
                ascii && !key.contains(&0) && (key.iter().all(ws) || !key.iter().any(ws))
            }
            KeyChars::PythonMemcached => {
                let body = key.strip_suffix(b"\n").unwrap_or(key);
                !body.is_empty() && !body.iter().any(ctl)
            }
        }
    }
}

/// No key is refused.
pub const ANY_KEY: KeyLimits = KeyLimits {
    empty: false,
    max_len: None,
    chars: KeyChars::Any,
};
/// memcached's text protocol limit as libmemcached and twemproxy enforce it: 1..=250 bytes.
pub const MEMCACHED_KEY: KeyLimits = KeyLimits {
    empty: true,
    max_len: Some(250),
    chars: KeyChars::Any,
};

/// One client family, as data. See the module docs for the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Profile {
    /// Our name (what `--profile` and `Profile::by_name` take).
    pub name: &'static str,
    /// Other names that select this profile.
    pub aliases: &'static [&'static str],
    /// One line: the client, version and settings this profile reproduces (the one place
    /// this is written: the README, the crate docs and `docs/compat.md` are generated from it).
    pub description: &'static str,
    /// How the profile is checked against the real client: what ran (or was transcribed) to
    /// record its vector files, and with which settings.
    pub verified_by: &'static str,
    /// The key hash when none is chosen.
    pub default_hash: Hash,
    /// The key hashes the client lets its users choose, the default first (what
    /// `ketama audit --detect` tries).
    pub hashes: &'static [Hash],
    /// What `crc32` means for this client, if it has such a name.
    pub crc32: Option<Hash>,
    /// How a server becomes its node string.
    pub node: NodeForm,
    /// Whether a server's explicit name replaces the node string.
    pub names: bool,
    /// How the `i`-th string is spelled.
    pub strings: StringForm,
    /// How many strings a server gets.
    pub count: Count,
    /// How strings become points.
    pub points: PointHash,
    /// How a key finds its server: the algorithm, and for rings the comparison.
    pub placement: Placement,
    /// Who owns shared positions.
    pub ties: Ties,
    /// What weight 0 means.
    pub zero_weight: ZeroWeight,
    /// How the key is rewritten before hashing.
    pub key: KeyRewrite,
    /// One server is returned without hashing the key.
    pub single_shortcut: bool,
    /// Hashes for which the client refuses the empty key.
    pub empty_key_rejected: &'static [Hash],
    /// Keys the client refuses whatever the hash.
    pub key_limits: KeyLimits,
    /// The order the client keeps servers in.
    pub order: Order,
    /// The client's failover sequence ([`crate::Ring::failover`]).
    pub failover: Failover,
    /// What removing a server does to shared positions.
    pub removal: Removal,
    /// Which placement options the client has ([`crate::options::Options`]).
    pub options: OptionRules,
}

/// The `libketama` row (what it reproduces: its `description`).
pub static LIBKETAMA: Profile = Profile {
    name: "libketama",
    aliases: &[],
    description: "libketama (RJ/ketama 18cf9a7): LK md5 digests x 4 of host:port-i, md5 keys",
    verified_by: "recorded outputs of the real library (4 sets) + upstream `ketama_test` golden MD5 over 1,000,000 keys (settings: `ketama_roll` server file, `ketama_get_server`)",
    default_hash: Hash::Md5,
    hashes: &[Hash::Md5],
    crc32: None,
    node: NodeForm::Label,
    names: false,
    strings: StringForm::Dash,
    count: Count::Relative(Formula::Libketama),
    points: PointHash::Md5Words { per: 4 },
    placement: Placement::Ring(Bound::LowerBound),
    ties: Ties::EarlierWins,
    zero_weight: ZeroWeight::Reject,
    key: KeyRewrite::None,
    single_shortcut: false,
    empty_key_rejected: &[],
    key_limits: ANY_KEY,
    order: Order::Given,
    failover: Failover::Walk,
    removal: Removal::OwnPoints,
    options: NO_OPTIONS,
};

/// The `libmemcached` row (what it reproduces: its `description`).
pub static LIBMEMCACHED: Profile = Profile {
    name: "libmemcached",
    aliases: &[],
    description: "libmemcached 1.1.4 CONSISTENT_KETAMA, unweighted: 100 key-hash points of host[:port]-i (php-memcached default_consistent_hash, pylibmc ketama)",
    verified_by: "libmemcached 1.1.4 (Debian; a `-DNDEBUG` build of Debian's source for > 100 servers), php-memcached 3.2.0 (settings: `DISTRIBUTION_CONSISTENT_KETAMA`, unweighted, any `BEHAVIOR_HASH`)",
    default_hash: Hash::OneAtATime,
    hashes: &[Hash::OneAtATime, Hash::Md5, Hash::Crc, Hash::Fnv1_64, Hash::Fnv1a64, Hash::Fnv1_32, Hash::Fnv1a32, Hash::Hsieh, Hash::Murmur, Hash::Murmur3, Hash::Jenkins],
    crc32: None,
    node: NodeForm::OmitDefaultPort,
    names: false,
    strings: StringForm::Dash,
    count: Count::Fixed(100),
    points: PointHash::KeyHash,
    placement: Placement::Ring(Bound::LowerBound),
    ties: Ties::EarlierWins,
    zero_weight: ZeroWeight::AsOne,
    key: KeyRewrite::None,
    single_shortcut: true,
    empty_key_rejected: &[],
    key_limits: MEMCACHED_KEY,
    order: Order::Given,
    failover: Failover::Walk,
    removal: Removal::OwnPoints,
    options: LIBMEMCACHED_OPTIONS,
};

/// The `libmemcached-weighted` row (what it reproduces: its `description`).
pub static LIBMEMCACHED_WEIGHTED: Profile = Profile {
    name: "libmemcached-weighted",
    aliases: &["php-memcached"],
    description: "libmemcached 1.1.4 KETAMA_WEIGHTED / php-memcached 3.2 OPT_LIBKETAMA_COMPATIBLE: LM md5 ring of host[:port]-i, md5 keys",
    verified_by: "both, 1..1000 servers, weights 0..1000 (settings: `KETAMA_WEIGHTED=1` / `OPT_LIBKETAMA_COMPATIBLE`, weights)",
    default_hash: Hash::Md5,
    hashes: &[Hash::Md5, Hash::OneAtATime, Hash::Crc, Hash::Fnv1_64, Hash::Fnv1a64, Hash::Fnv1_32, Hash::Fnv1a32, Hash::Hsieh, Hash::Murmur, Hash::Murmur3, Hash::Jenkins],
    crc32: None,
    node: NodeForm::OmitDefaultPort,
    names: false,
    strings: StringForm::Dash,
    count: Count::Relative(Formula::Libmemcached),
    points: PointHash::Md5Words { per: 4 },
    placement: Placement::Ring(Bound::LowerBound),
    ties: Ties::EarlierWins,
    zero_weight: ZeroWeight::AsOne,
    key: KeyRewrite::None,
    single_shortcut: true,
    empty_key_rejected: &[],
    key_limits: MEMCACHED_KEY,
    order: Order::Given,
    failover: Failover::Walk,
    removal: Removal::OwnPoints,
    options: LIBMEMCACHED_OPTIONS,
};

/// The `libmemcached-spy` row (what it reproduces: its `description`).
pub static LIBMEMCACHED_SPY: Profile = Profile {
    name: "libmemcached-spy",
    aliases: &[],
    description: "libmemcached 1.1.4 CONSISTENT_KETAMA_SPY: 100 key-hash points of /host:port-i",
    verified_by: "libmemcached 1.1.4 (settings: `CONSISTENT_KETAMA_SPY` (+ `KETAMA_WEIGHTED`))",
    default_hash: Hash::OneAtATime,
    hashes: &[
        Hash::OneAtATime,
        Hash::Md5,
        Hash::Crc,
        Hash::Fnv1_64,
        Hash::Fnv1a64,
        Hash::Fnv1_32,
        Hash::Fnv1a32,
        Hash::Hsieh,
        Hash::Murmur,
        Hash::Murmur3,
        Hash::Jenkins,
    ],
    crc32: None,
    node: NodeForm::SlashLabel,
    names: false,
    strings: StringForm::Dash,
    count: Count::Fixed(100),
    points: PointHash::KeyHash,
    placement: Placement::Ring(Bound::LowerBound),
    ties: Ties::EarlierWins,
    zero_weight: ZeroWeight::AsOne,
    key: KeyRewrite::None,
    single_shortcut: true,
    empty_key_rejected: &[],
    key_limits: MEMCACHED_KEY,
    order: Order::Given,
    failover: Failover::Walk,
    removal: Removal::OwnPoints,
    options: LIBMEMCACHED_OPTIONS,
};

/// The `libmemcached-spy-weighted` row (what it reproduces: its `description`).
pub static LIBMEMCACHED_SPY_WEIGHTED: Profile = Profile {
    name: "libmemcached-spy-weighted",
    aliases: &[],
    description:
        "libmemcached 1.1.4 CONSISTENT_KETAMA_SPY + KETAMA_WEIGHTED: LM md5 ring of /host:port-i",
    verified_by: "libmemcached 1.1.4 (settings: `CONSISTENT_KETAMA_SPY` (+ `KETAMA_WEIGHTED`))",
    default_hash: Hash::Md5,
    hashes: &[
        Hash::Md5,
        Hash::OneAtATime,
        Hash::Crc,
        Hash::Fnv1_64,
        Hash::Fnv1a64,
        Hash::Fnv1_32,
        Hash::Fnv1a32,
        Hash::Hsieh,
        Hash::Murmur,
        Hash::Murmur3,
        Hash::Jenkins,
    ],
    crc32: None,
    node: NodeForm::SlashLabel,
    names: false,
    strings: StringForm::Dash,
    count: Count::Relative(Formula::Libmemcached),
    points: PointHash::Md5Words { per: 4 },
    placement: Placement::Ring(Bound::LowerBound),
    ties: Ties::EarlierWins,
    zero_weight: ZeroWeight::AsOne,
    key: KeyRewrite::None,
    single_shortcut: true,
    empty_key_rejected: &[],
    key_limits: MEMCACHED_KEY,
    order: Order::Given,
    failover: Failover::Walk,
    removal: Removal::OwnPoints,
    options: LIBMEMCACHED_OPTIONS,
};

/// The `twemproxy` row (what it reproduces: its `description`).
pub static TWEMPROXY: Profile = Profile {
    name: "twemproxy",
    aliases: &["nutcracker"],
    description: "twemproxy (nutcracker) 0.5.0 distribution ketama: LM md5 ring of name-i or host[:port]-i, fnv1a_64 keys",
    verified_by: "live: keys stored through nutcracker into memcached on loopback, found on the daemons (settings: `distribution: ketama`, all 12 key hashes, names, weights)",
    default_hash: Hash::Fnv1a64,
    hashes: &[Hash::Fnv1a64, Hash::OneAtATime, Hash::Md5, Hash::Crc16, Hash::Crc, Hash::Crc32a, Hash::Fnv1_64, Hash::Fnv1_32, Hash::Fnv1a32, Hash::Hsieh, Hash::Murmur, Hash::Jenkins],
    crc32: Some(Hash::Crc),
    node: NodeForm::OmitDefaultPort,
    names: true,
    strings: StringForm::Dash,
    count: Count::Relative(Formula::Libmemcached),
    points: PointHash::Md5Words { per: 4 },
    placement: Placement::Ring(Bound::LowerBound),
    ties: Ties::EarlierWins,
    zero_weight: ZeroWeight::Reject,
    key: KeyRewrite::None,
    single_shortcut: true,
    empty_key_rejected: &[],
    key_limits: MEMCACHED_KEY,
    order: Order::NodeLengthThenBytes,
    failover: Failover::Walk,
    removal: Removal::OwnPoints,
    options: TWEMPROXY_OPTIONS,
};

/// The `twemproxy-modula` row (what it reproduces: its `description`).
pub static TWEMPROXY_MODULA: Profile = Profile {
    name: "twemproxy-modula",
    aliases: &[],
    description: "twemproxy (nutcracker) 0.5.0 distribution modula: each server fills weight slots, slot[h % W]",
    verified_by: "live, as above (settings: `distribution: modula`)",
    default_hash: Hash::Fnv1a64,
    hashes: &[Hash::Fnv1a64, Hash::OneAtATime, Hash::Md5, Hash::Crc16, Hash::Crc, Hash::Crc32a, Hash::Fnv1_64, Hash::Fnv1_32, Hash::Fnv1a32, Hash::Hsieh, Hash::Murmur, Hash::Jenkins],
    crc32: Some(Hash::Crc),
    node: NodeForm::OmitDefaultPort,
    names: true,
    strings: StringForm::Dash,
    count: Count::Fixed(0),
    points: PointHash::Md5Words { per: 4 },
    placement: Placement::Modula { weighted: true, high15: false },
    ties: Ties::EarlierWins,
    zero_weight: ZeroWeight::Reject,
    key: KeyRewrite::None,
    single_shortcut: true,
    empty_key_rejected: &[],
    key_limits: MEMCACHED_KEY,
    order: Order::NodeLengthThenBytes,
    failover: Failover::Walk,
    removal: Removal::OwnPoints,
    options: TWEMPROXY_OPTIONS,
};

/// The `pecl-memcache` row (what it reproduces: its `description`).
pub static PECL_MEMCACHE: Profile = Profile {
    name: "pecl-memcache",
    aliases: &[],
    description: "pecl memcache 4.0.5.2 hash_strategy=consistent: 160w crc32 points of host:port-i, 1024-bucket table",
    verified_by: "`MemcachePool::findServer`, checked against live storage on every key (settings: `hash_strategy` consistent / standard, `hash_function` crc32 / fnv)",
    default_hash: Hash::Crc32a,
    hashes: &[Hash::Crc32a, Hash::Fnv1a32],
    crc32: Some(Hash::Crc32a),
    node: NodeForm::Label,
    names: false,
    strings: StringForm::Dash,
    count: Count::PerWeight(160),
    points: PointHash::KeyHash,
    placement: Placement::PeclBuckets,
    ties: Ties::EarlierWins,
    zero_weight: ZeroWeight::Reject,
    key: KeyRewrite::PeclSanitize,
    single_shortcut: true,
    empty_key_rejected: &[],
    key_limits: KeyLimits { empty: true, max_len: None, chars: KeyChars::Any, },
    order: Order::Given,
    failover: Failover::RehashKeyDash { tries: 21 },
    removal: Removal::OwnPoints,
    options: NO_OPTIONS,
};

/// The `pecl-memcache-standard` row (what it reproduces: its `description`).
pub static PECL_MEMCACHE_STANDARD: Profile = Profile {
    name: "pecl-memcache-standard",
    aliases: &[],
    description: "pecl memcache 4.0.5.2 hash_strategy=standard: weight slots, ((crc32 >> 16) & 0x7fff) % slots",
    verified_by: "`MemcachePool::findServer`, checked against live storage on every key (settings: `hash_strategy` consistent / standard, `hash_function` crc32 / fnv)",
    default_hash: Hash::Crc32a,
    hashes: &[Hash::Crc32a, Hash::Fnv1a32],
    crc32: Some(Hash::Crc32a),
    node: NodeForm::Label,
    names: false,
    strings: StringForm::Dash,
    count: Count::Fixed(0),
    points: PointHash::Md5Words { per: 4 },
    placement: Placement::Modula { weighted: true, high15: true },
    ties: Ties::EarlierWins,
    zero_weight: ZeroWeight::Reject,
    key: KeyRewrite::PeclSanitize,
    single_shortcut: true,
    empty_key_rejected: &[],
    key_limits: KeyLimits { empty: true, max_len: None, chars: KeyChars::Any, },
    order: Order::Given,
    failover: Failover::RehashKeyDash { tries: 21 },
    removal: Removal::OwnPoints,
    options: NO_OPTIONS,
};

/// The `spymemcached` row (what it reproduces: its `description`).
pub static SPYMEMCACHED: Profile = Profile {
    name: "spymemcached",
    aliases: &[],
    description: "spymemcached 2.12.3 KetamaNodeLocator, SPYMEMCACHED format, unweighted: ip:port-i, KETAMA_HASH",
    verified_by: "the jar's own locator on JDK 17, 1..1000 servers (settings: `KetamaNodeLocator`, all 7 hashes, weights, both key formats; `getSequence`)",
    default_hash: Hash::Md5,
    hashes: &[Hash::Md5, Hash::Native, Hash::Crc, Hash::JavaFnv1_64, Hash::JavaFnv1a64, Hash::JavaFnv1_32, Hash::JavaFnv1a32],
    crc32: None,
    node: NodeForm::JavaSpy,
    names: true,
    strings: StringForm::Dash,
    count: Count::Fixed(160),
    points: PointHash::JavaKetama,
    placement: Placement::Ring(Bound::LowerBound),
    ties: Ties::LaterWins,
    zero_weight: ZeroWeight::AsIs,
    key: KeyRewrite::None,
    single_shortcut: false,
    empty_key_rejected: &[],
    key_limits: ANY_KEY,
    order: Order::Given,
    failover: Failover::Rehash { first_tag: 0, bounded_by_servers: false },
    removal: Removal::OwnPoints,
    options: NO_OPTIONS,
};

/// The `spymemcached-libmemcached-format` row (what it reproduces: its `description`).
pub static SPYMEMCACHED_LIBMEMCACHED_FORMAT: Profile = Profile {
    name: "spymemcached-libmemcached-format",
    aliases: &[],
    description: "spymemcached 2.12.3 KetamaNodeLocator, LIBMEMCACHED format: host[:port]-i",
    verified_by: "the jar's own locator on JDK 17, 1..1000 servers (settings: `KetamaNodeLocator`, all 7 hashes, weights, both key formats; `getSequence`)",
    default_hash: Hash::Md5,
    hashes: &[
        Hash::Md5,
        Hash::Native,
        Hash::Crc,
        Hash::JavaFnv1_64,
        Hash::JavaFnv1a64,
        Hash::JavaFnv1_32,
        Hash::JavaFnv1a32,
    ],
    crc32: None,
    node: NodeForm::JavaHostName,
    names: true,
    strings: StringForm::Dash,
    count: Count::Fixed(160),
    points: PointHash::JavaKetama,
    placement: Placement::Ring(Bound::LowerBound),
    ties: Ties::LaterWins,
    zero_weight: ZeroWeight::AsIs,
    key: KeyRewrite::None,
    single_shortcut: false,
    empty_key_rejected: &[],
    key_limits: ANY_KEY,
    order: Order::Given,
    failover: Failover::Rehash {
        first_tag: 0,
        bounded_by_servers: false,
    },
    removal: Removal::OwnPoints,
    options: NO_OPTIONS,
};

/// The `spymemcached-weighted` row (what it reproduces: its `description`).
pub static SPYMEMCACHED_WEIGHTED: Profile = Profile {
    name: "spymemcached-weighted",
    aliases: &[],
    description:
        "spymemcached 2.12.3 KetamaNodeLocator with a weight map: LM md5 ring whatever the key hash",
    verified_by: "the jar's own locator on JDK 17, 1..1000 servers (settings: `KetamaNodeLocator`, all 7 hashes, weights, both key formats; `getSequence`)",
    default_hash: Hash::Md5,
    hashes: &[
        Hash::Md5,
        Hash::Native,
        Hash::Crc,
        Hash::JavaFnv1_64,
        Hash::JavaFnv1a64,
        Hash::JavaFnv1_32,
        Hash::JavaFnv1a32,
    ],
    crc32: None,
    node: NodeForm::JavaSpy,
    names: true,
    strings: StringForm::Dash,
    count: Count::Relative(Formula::Libmemcached),
    points: PointHash::Md5Words { per: 4 },
    placement: Placement::Ring(Bound::LowerBound),
    ties: Ties::LaterWins,
    zero_weight: ZeroWeight::AsIs,
    key: KeyRewrite::None,
    single_shortcut: false,
    empty_key_rejected: &[],
    key_limits: ANY_KEY,
    order: Order::Given,
    failover: Failover::Rehash {
        first_tag: 0,
        bounded_by_servers: false,
    },
    removal: Removal::OwnPoints,
    options: NO_OPTIONS,
};

/// The `spymemcached-weighted-libmemcached-format` row (what it reproduces: its `description`).
pub static SPYMEMCACHED_WEIGHTED_LIBMEMCACHED_FORMAT: Profile = Profile {
    name: "spymemcached-weighted-libmemcached-format",
    aliases: &[],
    description: "spymemcached 2.12.3 weighted, LIBMEMCACHED format (= libmemcached-weighted for the same strings)",
    verified_by: "the jar's own locator on JDK 17, 1..1000 servers (settings: `KetamaNodeLocator`, all 7 hashes, weights, both key formats; `getSequence`)",
    default_hash: Hash::Md5,
    hashes: &[Hash::Md5, Hash::Native, Hash::Crc, Hash::JavaFnv1_64, Hash::JavaFnv1a64, Hash::JavaFnv1_32, Hash::JavaFnv1a32],
    crc32: None,
    node: NodeForm::JavaHostName,
    names: true,
    strings: StringForm::Dash,
    count: Count::Relative(Formula::Libmemcached),
    points: PointHash::Md5Words { per: 4 },
    placement: Placement::Ring(Bound::LowerBound),
    ties: Ties::LaterWins,
    zero_weight: ZeroWeight::AsIs,
    key: KeyRewrite::None,
    single_shortcut: false,
    empty_key_rejected: &[],
    key_limits: ANY_KEY,
    order: Order::Given,
    failover: Failover::Rehash { first_tag: 0, bounded_by_servers: false },
    removal: Removal::OwnPoints,
    options: NO_OPTIONS,
};

/// The `xmemcached` row (what it reproduces: its `description`).
pub static XMEMCACHED: Profile = Profile {
    name: "xmemcached",
    aliases: &[],
    description:
        "xmemcached 2.4.9 KetamaMemcachedSessionLocator: /ip:port-i, 160w points, KETAMA_HASH",
    verified_by: "the jar's own locator on JDK 17, 1..250 servers (settings: `KetamaMemcachedSessionLocator(alg[, true])`, all 13 hashes, weights; `nextHash` failover)",
    default_hash: Hash::Md5,
    hashes: &[
        Hash::Md5,
        Hash::Native,
        Hash::Crc,
        Hash::JavaFnv1_64,
        Hash::JavaFnv1a64,
        Hash::JavaFnv1_32,
        Hash::JavaFnv1a32,
        Hash::Mysql,
        Hash::Elf,
        Hash::Rs,
        Hash::Lua,
        Hash::Election,
        Hash::OneAtATimeUnsigned,
    ],
    crc32: None,
    node: NodeForm::JavaXmc,
    names: true,
    strings: StringForm::Dash,
    count: Count::PerWeight(160),
    points: PointHash::JavaKetama,
    placement: Placement::Ring(Bound::LowerBound),
    ties: Ties::SortedList,
    zero_weight: ZeroWeight::Reject,
    key: KeyRewrite::None,
    single_shortcut: false,
    empty_key_rejected: &[Hash::Md5, Hash::Crc, Hash::Election],
    key_limits: ANY_KEY,
    order: Order::Given,
    failover: Failover::Rehash {
        first_tag: 1,
        bounded_by_servers: true,
    },
    removal: Removal::OwnPoints,
    options: NO_OPTIONS,
};

/// The `xmemcached-nginx` row (what it reproduces: its `description`).
pub static XMEMCACHED_NGINX: Profile = Profile {
    name: "xmemcached-nginx",
    aliases: &[],
    description: "xmemcached 2.4.9 KetamaMemcachedSessionLocator(alg, true): ip[:port]-i, nginx upstream compatible",
    verified_by: "the jar's own locator on JDK 17, 1..250 servers (settings: `KetamaMemcachedSessionLocator(alg[, true])`, all 13 hashes, weights; `nextHash` failover)",
    default_hash: Hash::Md5,
    hashes: &[Hash::Md5, Hash::Native, Hash::Crc, Hash::JavaFnv1_64, Hash::JavaFnv1a64, Hash::JavaFnv1_32, Hash::JavaFnv1a32, Hash::Mysql, Hash::Elf, Hash::Rs, Hash::Lua, Hash::Election, Hash::OneAtATimeUnsigned],
    crc32: None,
    node: NodeForm::JavaNginx,
    names: true,
    strings: StringForm::Dash,
    count: Count::PerWeight(160),
    points: PointHash::JavaKetama,
    placement: Placement::Ring(Bound::LowerBound),
    ties: Ties::SortedList,
    zero_weight: ZeroWeight::Reject,
    key: KeyRewrite::None,
    single_shortcut: false,
    empty_key_rejected: &[Hash::Md5, Hash::Crc, Hash::Election],
    key_limits: ANY_KEY,
    order: Order::Given,
    failover: Failover::Rehash { first_tag: 1, bounded_by_servers: true },
    removal: Removal::OwnPoints,
    options: NO_OPTIONS,
};

/// The `dalli` row (what it reproduces: its `description`).
pub static DALLI: Profile = Profile {
    name: "dalli",
    aliases: &[],
    description: "Ruby Dalli 3.0.6: floor(160 n w / W) sha1 points of host:port:i, crc32 keys, largest point <= hash (wrapping to the largest)",
    verified_by: "Dalli itself on Ruby 3.1, 1..250 servers, weights (11 files) (settings: `Dalli::Client.new(['host:port:weight', ...])`, `ring.server_for_key(validate_key(key))`, no namespace)",
    default_hash: Hash::Crc32a,
    hashes: &[Hash::Crc32a],
    crc32: Some(Hash::Crc32a),
    node: NodeForm::HostPort,
    names: false,
    strings: StringForm::Colon,
    count: Count::Relative(Formula::Dalli),
    points: PointHash::Sha1Word,
    placement: Placement::Ring(Bound::FloorWrap),
    ties: Ties::EarlierWins,
    zero_weight: ZeroWeight::AsIs,
    key: KeyRewrite::DalliDigest,
    single_shortcut: true,
    empty_key_rejected: &[],
    key_limits: KeyLimits {
        empty: true,
        max_len: None,
    chars: KeyChars::Any,
    },
    order: Order::Given,
    failover: Failover::RehashKey { tries: 20 },
    removal: Removal::OwnPoints,
    options: NO_OPTIONS,
};

/// The `xmemcached-gwhalin` row (what it reproduces: its `description`).
pub static XMEMCACHED_GWHALIN: Profile = Profile {
    name: "xmemcached-gwhalin",
    aliases: &[],
    description: "xmemcached 2.4.9 KetamaMemcachedSessionLocator(alg, false, true) (gwhalin compatible): getHostName():port-i, 160w points, KETAMA_HASH whatever alg",
    verified_by: "the jar on JDK 17 (8 files, IPv6 by `getHostName()`) (settings: `KetamaMemcachedSessionLocator(alg, false, true)` (alg ignored: always KETAMA_HASH))",
    default_hash: Hash::Md5,
    hashes: &[Hash::Md5, Hash::Native, Hash::Crc, Hash::JavaFnv1_64, Hash::JavaFnv1a64, Hash::JavaFnv1_32, Hash::JavaFnv1a32, Hash::Mysql, Hash::Elf, Hash::Rs, Hash::Lua, Hash::Election, Hash::OneAtATimeUnsigned],
    crc32: None,
    node: NodeForm::JavaHostNamePort,
    names: false,
    strings: StringForm::Dash,
    count: Count::PerWeight(160),
    points: PointHash::JavaKetama,
    placement: Placement::Ring(Bound::LowerBound),
    ties: Ties::SortedList,
    zero_weight: ZeroWeight::Reject,
    key: KeyRewrite::None,
    single_shortcut: false,
    empty_key_rejected: &[],
    key_limits: KeyLimits {
        empty: true,
        max_len: None,
    chars: KeyChars::Any,
    },
    order: Order::Given,
    failover: Failover::Rehash {
        first_tag: 1,
        bounded_by_servers: true,
    },
    removal: Removal::OwnPoints,
    options: NO_OPTIONS,
};

/// The `uhashring` row (what it reproduces: its `description`).
pub static UHASHRING: Profile = Profile {
    name: "uhashring",
    aliases: &[],
    description:
        "uhashring 2.5 HashRing default: 160w points int(md5(label-i).hexdigest(), 16), 128-bit",
    verified_by: "uhashring 2.5 (settings: `HashRing(nodes)`, `HashRing(nodes, hash_fn=\"ketama\")`, weights, remove/add)",
    default_hash: Hash::Md5,
    hashes: &[Hash::Md5],
    crc32: None,
    node: NodeForm::Label,
    names: false,
    strings: StringForm::Dash,
    count: Count::PerWeight(160),
    points: PointHash::Md5Wide,
    placement: Placement::Ring(Bound::UpperBound),
    ties: Ties::LaterWins,
    zero_weight: ZeroWeight::AsIs,
    key: KeyRewrite::None,
    single_shortcut: false,
    empty_key_rejected: &[],
    key_limits: ANY_KEY,
    order: Order::Given,
    failover: Failover::Walk,
    removal: Removal::OwnPoints,
    options: NO_OPTIONS,
};

/// The `uhashring-ketama` row (what it reproduces: its `description`).
pub static UHASHRING_KETAMA: Profile = Profile {
    name: "uhashring-ketama",
    aliases: &[],
    description:
        "uhashring 2.5 HashRing(hash_fn='ketama'): INT md5 digests x 4 of label-i, first point > h",
    verified_by: "uhashring 2.5 (settings: `HashRing(nodes)`, `HashRing(nodes, hash_fn=\"ketama\")`, weights, remove/add)",
    default_hash: Hash::Md5,
    hashes: &[Hash::Md5],
    crc32: None,
    node: NodeForm::Label,
    names: false,
    strings: StringForm::Dash,
    count: Count::Relative(Formula::IntegerDiv),
    points: PointHash::Md5Words { per: 4 },
    placement: Placement::Ring(Bound::UpperBound),
    ties: Ties::LaterWins,
    zero_weight: ZeroWeight::AsIs,
    key: KeyRewrite::None,
    single_shortcut: false,
    empty_key_rejected: &[],
    key_limits: ANY_KEY,
    order: Order::Given,
    failover: Failover::Walk,
    removal: Removal::OwnPoints,
    options: NO_OPTIONS,
};

/// The `hash_ring` row (what it reproduces: its `description`).
pub static HASH_RING: Profile = Profile {
    name: "hash_ring",
    aliases: &[],
    description:
        "Python hash_ring 1.3.1 (and node-hashring hash_ring mode): INT md5 digests x 3 of label-i",
    verified_by: "node-hashring 3.2.0 `compatibility: 'hash_ring'` (hash_ring itself needs Python 2, which Debian 12 lacks) (settings: `HashRing(labels, weights)`)",
    default_hash: Hash::Md5,
    hashes: &[Hash::Md5],
    crc32: None,
    node: NodeForm::Label,
    names: false,
    strings: StringForm::Dash,
    count: Count::Relative(Formula::IntegerDiv),
    points: PointHash::Md5Words { per: 3 },
    placement: Placement::Ring(Bound::UpperBound),
    ties: Ties::LaterWins,
    zero_weight: ZeroWeight::AsIs,
    key: KeyRewrite::None,
    single_shortcut: false,
    empty_key_rejected: &[],
    key_limits: ANY_KEY,
    order: Order::Given,
    failover: Failover::Walk,
    removal: Removal::OwnPoints,
    options: NO_OPTIONS,
};

/// The `node-hashring` row (what it reproduces: its `description`).
pub static NODE_HASHRING: Profile = Profile {
    name: "node-hashring",
    aliases: &[],
    description: "npm hashring 3.2.0 md5: ND md5 digests x 4 of label-i, first point >= h",
    verified_by: "hashring 3.2.0 on Node 20 (settings: `new HashRing({label: {weight}}, 'md5')`, `'default port'`)",
    default_hash: Hash::Md5,
    hashes: &[Hash::Md5],
    crc32: None,
    node: NodeForm::Label,
    names: true,
    strings: StringForm::Dash,
    count: Count::Relative(Formula::NodeHashring),
    points: PointHash::Md5Words { per: 4 },
    placement: Placement::Ring(Bound::LowerBound),
    ties: Ties::EarlierWins,
    zero_weight: ZeroWeight::AsOne,
    key: KeyRewrite::None,
    single_shortcut: false,
    empty_key_rejected: &[],
    key_limits: ANY_KEY,
    order: Order::Given,
    failover: Failover::Walk,
    removal: Removal::OwnPoints,
    options: NO_OPTIONS,
};

/// The `go-ketama` row (what it reproduces: its `description`).
pub static GO_KETAMA: Profile = Profile {
    name: "go-ketama",
    aliases: &[],
    description: "github.com/dgryski/go-ketama: LK md5 digests x 4 of label-i; key hash 0 goes to the last point",
    verified_by: "**not runnable here** (the Go module proxy refuses it); upstream `TestKetama` per-server counts over 100,000 keys reproduced exactly (settings: `New(buckets)`)",
    default_hash: Hash::Md5,
    hashes: &[Hash::Md5],
    crc32: None,
    node: NodeForm::Label,
    names: false,
    strings: StringForm::Dash,
    count: Count::Relative(Formula::Libketama),
    points: PointHash::Md5Words { per: 4 },
    placement: Placement::Ring(Bound::LowerBoundZeroLast),
    ties: Ties::EarlierWins,
    zero_weight: ZeroWeight::AsOne,
    key: KeyRewrite::None,
    single_shortcut: false,
    empty_key_rejected: &[],
    key_limits: ANY_KEY,
    order: Order::Given,
    failover: Failover::Walk,
    removal: Removal::OwnPoints,
    options: NO_OPTIONS,
};

/// The `groupcache` row (what it reproduces: its `description`).
pub static GROUPCACHE: Profile = Profile {
    name: "groupcache",
    aliases: &[],
    description:
        "github.com/golang/groupcache consistenthash, 50 replicas: crc32(i + label), later Add wins",
    verified_by: "groupcache (Go module proxy) (settings: `New(50, nil)`, HTTPPool URLs as names)",
    default_hash: Hash::Crc32a,
    hashes: &[Hash::Crc32a],
    crc32: Some(Hash::Crc32a),
    node: NodeForm::Label,
    names: true,
    strings: StringForm::Prefix,
    count: Count::Fixed(50),
    points: PointHash::KeyHash,
    placement: Placement::Ring(Bound::LowerBound),
    ties: Ties::LaterWins,
    zero_weight: ZeroWeight::AsIs,
    key: KeyRewrite::None,
    single_shortcut: false,
    empty_key_rejected: &[],
    key_limits: ANY_KEY,
    order: Order::Given,
    failover: Failover::Walk,
    removal: Removal::OwnPoints,
    options: NO_OPTIONS,
};

/// The `flexihash` row (what it reproduces: its `description`).
pub static FLEXIHASH: Profile = Profile {
    name: "flexihash",
    aliases: &[],
    description: "pda/flexihash 3.0.0, Crc32Hasher, 64 replicas: crc32(label . i), first point > h",
    verified_by: "**not installable here**: the 4 concrete answers of its upstream README, transcribed (not run) (settings: `Crc32Hasher`, 64 replicas)",
    default_hash: Hash::Crc32a,
    hashes: &[Hash::Crc32a],
    crc32: Some(Hash::Crc32a),
    node: NodeForm::Label,
    names: false,
    strings: StringForm::Concat,
    count: Count::PerWeight(64),
    points: PointHash::KeyHash,
    placement: Placement::Ring(Bound::UpperBound),
    ties: Ties::LaterWins,
    zero_weight: ZeroWeight::AsIs,
    key: KeyRewrite::None,
    single_shortcut: true,
    empty_key_rejected: &[],
    key_limits: ANY_KEY,
    order: Order::Given,
    failover: Failover::Walk,
    removal: Removal::ClearsItsPositions,
    options: NO_OPTIONS,
};

/// The `flexihash-seed` row (what it reproduces: its `description`).
pub static FLEXIHASH_SEED: Profile = Profile {
    name: "flexihash-seed",
    aliases: &[],
    description: "the user's PHP FlexiHash class: one toHash(label) point per server, largest point <= h, else null",
    verified_by: "the class itself, run with PHP 8.2 (settings: `addServer`, `lookup` (`$md5[$i]` for PHP 8))",
    default_hash: Hash::PhpToHash,
    hashes: &[Hash::PhpToHash],
    crc32: None,
    node: NodeForm::Bare,
    names: false,
    strings: StringForm::Bare,
    count: Count::Fixed(1),
    points: PointHash::KeyHash,
    placement: Placement::Ring(Bound::Floor),
    ties: Ties::EarlierWins,
    zero_weight: ZeroWeight::AsIs,
    key: KeyRewrite::None,
    single_shortcut: false,
    empty_key_rejected: &[],
    key_limits: ANY_KEY,
    order: Order::Given,
    failover: Failover::Walk,
    removal: Removal::OwnPoints,
    options: NO_OPTIONS,
};

/// The `folsom` row (what it reproduces: its `description`).
pub static FOLSOM: Profile = Profile {
    name: "folsom",
    aliases: &[],
    description: "Spotify folsom 1.21.0 ketama: 100 murmur3_32 chain points of host:port, signed order, murmur3_32 keys of 1..=250 bytes without blanks; weights ignored",
    verified_by: "the jar's own classes on JDK 17 (6 locate files + murmur3_32 key hashes) (settings: `ketama.Continuum`, `encodeKey(key, UTF_8, 250)`)",
    default_hash: Hash::Murmur3_32,
    hashes: &[Hash::Murmur3_32],
    crc32: None,
    node: NodeForm::Label,
    names: false,
    strings: StringForm::Dash,
    count: Count::Fixed(100),
    points: PointHash::Murmur3Chain,
    placement: Placement::Ring(Bound::LowerBoundSigned),
    ties: Ties::LaterWins,
    zero_weight: ZeroWeight::AsIs,
    key: KeyRewrite::None,
    single_shortcut: true,
    empty_key_rejected: &[],
    key_limits: KeyLimits {
        empty: true,
        max_len: Some(250),
        chars: KeyChars::Controls,
    },
    order: Order::Given,
    failover: Failover::Walk,
    removal: Removal::OwnPoints,
    options: NO_OPTIONS,
};

/// The `memjs` row (what it reproduces: its `description`).
pub static MEMJS: Profile = Profile {
    name: "memjs",
    aliases: &[],
    description:
        "npm memjs 1.3.2: |String hashCode| % n over the servers in order; weights ignored",
    verified_by: "memjs on Node 20 (6 files) (settings: `Client.create('h:p,...').server(key)`)",
    default_hash: Hash::Native,
    hashes: &[Hash::Native],
    crc32: None,
    node: NodeForm::Label,
    names: false,
    strings: StringForm::Dash,
    count: Count::Fixed(0),
    points: PointHash::Md5Words { per: 4 },
    placement: Placement::JavaAbsModulo {
        weighted: false,
        old_compat: false,
    },
    ties: Ties::EarlierWins,
    zero_weight: ZeroWeight::AsIs,
    key: KeyRewrite::None,
    single_shortcut: true,
    empty_key_rejected: &[],
    key_limits: ANY_KEY,
    order: Order::Given,
    failover: Failover::Walk,
    removal: Removal::OwnPoints,
    options: NO_OPTIONS,
};

/// The `whalin-native` row (what it reproduces: its `description`).
pub static WHALIN_NATIVE: Profile = Profile {
    name: "whalin-native",
    aliases: &[],
    description: "whalin Memcached-Java-Client 3.0.2 NATIVE_HASH (the pool default): |(long) key.hashCode()| % buckets, each server weight times",
    verified_by: "the jar on JDK 17 (6 files each) (settings: `NATIVE_HASH` (the pool default), `OLD_COMPAT_HASH`, `NEW_COMPAT_HASH`, weights)",
    default_hash: Hash::Native,
    hashes: &[Hash::Native],
    crc32: None,
    node: NodeForm::Label,
    names: false,
    strings: StringForm::Dash,
    count: Count::Fixed(0),
    points: PointHash::Md5Words { per: 4 },
    placement: Placement::JavaAbsModulo {
        weighted: true,
        old_compat: false,
    },
    ties: Ties::EarlierWins,
    zero_weight: ZeroWeight::AsIs,
    key: KeyRewrite::None,
    single_shortcut: false,
    empty_key_rejected: &[],
    key_limits: ANY_KEY,
    order: Order::Given,
    failover: Failover::RehashKeyUntried,
    removal: Removal::OwnPoints,
    options: NO_OPTIONS,
};

/// The `whalin-old-compat` row (what it reproduces: its `description`).
pub static WHALIN_OLD_COMPAT: Profile = Profile {
    name: "whalin-old-compat",
    aliases: &[],
    description: "whalin Memcached-Java-Client 3.0.2 OLD_COMPAT_HASH: |h = 33 h + u (64-bit)| % buckets, each server weight times",
    verified_by: "the jar on JDK 17 (6 files each) (settings: `NATIVE_HASH` (the pool default), `OLD_COMPAT_HASH`, `NEW_COMPAT_HASH`, weights)",
    default_hash: Hash::Native,
    hashes: &[Hash::Native],
    crc32: None,
    node: NodeForm::Label,
    names: false,
    strings: StringForm::Dash,
    count: Count::Fixed(0),
    points: PointHash::Md5Words { per: 4 },
    placement: Placement::JavaAbsModulo {
        weighted: true,
        old_compat: true,
    },
    ties: Ties::EarlierWins,
    zero_weight: ZeroWeight::AsIs,
    key: KeyRewrite::None,
    single_shortcut: false,
    empty_key_rejected: &[],
    key_limits: ANY_KEY,
    order: Order::Given,
    failover: Failover::RehashKeyUntried,
    removal: Removal::OwnPoints,
    options: NO_OPTIONS,
};

/// The `whalin-new-compat` row (what it reproduces: its `description`).
pub static WHALIN_NEW_COMPAT: Profile = Profile {
    name: "whalin-new-compat",
    aliases: &[],
    description: "whalin Memcached-Java-Client 3.0.2 NEW_COMPAT_HASH: ((crc32 >> 16) & 0x7fff) % buckets, each server weight times",
    verified_by: "the jar on JDK 17 (6 files each) (settings: `NATIVE_HASH` (the pool default), `OLD_COMPAT_HASH`, `NEW_COMPAT_HASH`, weights)",
    default_hash: Hash::Crc,
    hashes: &[Hash::Crc],
    crc32: None,
    node: NodeForm::Label,
    names: false,
    strings: StringForm::Dash,
    count: Count::Fixed(0),
    points: PointHash::Md5Words { per: 4 },
    placement: Placement::JavaAbsModulo {
        weighted: true,
        old_compat: false,
    },
    ties: Ties::EarlierWins,
    zero_weight: ZeroWeight::AsIs,
    key: KeyRewrite::None,
    single_shortcut: false,
    empty_key_rejected: &[],
    key_limits: ANY_KEY,
    order: Order::Given,
    failover: Failover::RehashKeyUntried,
    removal: Removal::OwnPoints,
    options: NO_OPTIONS,
};

/// The `whalin-consistent` row (what it reproduces: its `description`).
pub static WHALIN_CONSISTENT: Profile = Profile {
    name: "whalin-consistent",
    aliases: &[],
    description: "whalin Memcached-Java-Client 3.0.2 CONSISTENT_HASH, sanitizeKeys off: floor((int)(40 n w) / W) md5 digests x 4 of host:port-j, md5 keys",
    verified_by: "the jar on JDK 17 (14 files, one with int-overflowing weights) (settings: `SchoonerSockIOPool` `CONSISTENT_HASH`, weights; sanitized = the default `sanitizeKeys` (URL-encoded keys))",
    default_hash: Hash::Md5,
    hashes: &[Hash::Md5],
    crc32: None,
    node: NodeForm::Label,
    names: false,
    strings: StringForm::Dash,
    count: Count::Relative(Formula::Whalin),
    points: PointHash::Md5Words { per: 4 },
    placement: Placement::Ring(Bound::LowerBound),
    ties: Ties::LaterWins,
    zero_weight: ZeroWeight::AsIs,
    key: KeyRewrite::None,
    single_shortcut: false,
    empty_key_rejected: &[],
    key_limits: ANY_KEY,
    order: Order::Given,
    failover: Failover::RehashKeyUntried,
    removal: Removal::OwnPoints,
    options: NO_OPTIONS,
};

/// The `whalin-consistent-sanitized` row (what it reproduces: its `description`).
pub static WHALIN_CONSISTENT_SANITIZED: Profile = Profile {
    name: "whalin-consistent-sanitized",
    aliases: &[],
    description: "whalin Memcached-Java-Client 3.0.2 CONSISTENT_HASH with the default sanitizeKeys: keys URL-encoded, then as whalin-consistent",
    verified_by: "the jar on JDK 17 (14 files, one with int-overflowing weights) (settings: `SchoonerSockIOPool` `CONSISTENT_HASH`, weights; sanitized = the default `sanitizeKeys` (URL-encoded keys))",
    default_hash: Hash::Md5,
    hashes: &[Hash::Md5],
    crc32: None,
    node: NodeForm::Label,
    names: false,
    strings: StringForm::Dash,
    count: Count::Relative(Formula::Whalin),
    points: PointHash::Md5Words { per: 4 },
    placement: Placement::Ring(Bound::LowerBound),
    ties: Ties::LaterWins,
    zero_weight: ZeroWeight::AsIs,
    key: KeyRewrite::UrlEncode,
    single_shortcut: false,
    empty_key_rejected: &[],
    key_limits: ANY_KEY,
    order: Order::Given,
    failover: Failover::RehashKeyUntried,
    removal: Removal::OwnPoints,
    options: NO_OPTIONS,
};

/// The `nginx` row (what it reproduces: its `description`).
pub static NGINX: Profile = Profile {
    name: "nginx",
    aliases: &[],
    description: "nginx 1.22.1 upstream hash $key consistent: 160w crc32 chain points of host NUL port, crc32 keys, >=, earlier wins",
    verified_by: "live nginx on loopback, the upstream that received each request (11 files, ties both ways) (settings: `upstream { hash $key consistent; server host:port weight=w; }`)",
    default_hash: Hash::Crc32a,
    hashes: &[Hash::Crc32a],
    crc32: Some(Hash::Crc32a),
    node: NodeForm::NginxHostNulPort,
    names: false,
    strings: StringForm::Bare,
    count: Count::PerWeight(160),
    points: PointHash::Crc32Chain,
    placement: Placement::Ring(Bound::LowerBound),
    ties: Ties::EarlierWins,
    zero_weight: ZeroWeight::Reject,
    key: KeyRewrite::None,
    single_shortcut: true,
    empty_key_rejected: &[],
    key_limits: ANY_KEY,
    order: Order::Given,
    failover: Failover::Walk,
    removal: Removal::OwnPoints,
    options: NO_OPTIONS,
};

/// The `mcrouter-ch3` row (what it reproduces: its `description`).
pub static MCROUTER_CH3: Profile = Profile {
    name: "mcrouter-ch3",
    aliases: &[],
    description: "mcrouter CH3 (Ch3HashFunc): furc_hash(routing key, n) over the servers in order; weights ignored, at most 2^23 servers",
    verified_by: "mcrouter's own `furc_hash` / `WeightedCh3HashFunc` code compiled by the oracle (7 + 9 files, up to 1000 servers, + spooky32 hashes) (settings: `Ch3HashFunc`, `WeightedCh3HashFunc` with weights w / max(w))",
    default_hash: Hash::Spooky32,
    hashes: &[Hash::Spooky32],
    crc32: None,
    node: NodeForm::Label,
    names: false,
    strings: StringForm::Dash,
    count: Count::Fixed(0),
    points: PointHash::Md5Words { per: 4 },
    placement: Placement::Furc { weighted: false },
    ties: Ties::EarlierWins,
    zero_weight: ZeroWeight::AsIs,
    key: KeyRewrite::None,
    single_shortcut: true,
    empty_key_rejected: &[],
    key_limits: ANY_KEY,
    order: Order::Given,
    failover: Failover::Walk,
    removal: Removal::OwnPoints,
    options: NO_OPTIONS,
};

/// The `mcrouter-wch3` row (what it reproduces: its `description`).
pub static MCROUTER_WCH3: Profile = Profile {
    name: "mcrouter-wch3",
    aliases: &[],
    description: "mcrouter WeightedCh3HashFunc: furc_hash + SpookyHash32 draws against weight / max weight, 32 salted tries",
    verified_by: "mcrouter's own `furc_hash` / `WeightedCh3HashFunc` code compiled by the oracle (7 + 9 files, up to 1000 servers, + spooky32 hashes) (settings: `Ch3HashFunc`, `WeightedCh3HashFunc` with weights w / max(w))",
    default_hash: Hash::Spooky32,
    hashes: &[Hash::Spooky32],
    crc32: None,
    node: NodeForm::Label,
    names: false,
    strings: StringForm::Dash,
    count: Count::Fixed(0),
    points: PointHash::Md5Words { per: 4 },
    placement: Placement::Furc { weighted: true },
    ties: Ties::EarlierWins,
    zero_weight: ZeroWeight::AsIs,
    key: KeyRewrite::None,
    single_shortcut: true,
    empty_key_rejected: &[],
    key_limits: ANY_KEY,
    order: Order::Given,
    failover: Failover::Walk,
    removal: Removal::OwnPoints,
    options: NO_OPTIONS,
};

/// The `pymemcache` row (what it reproduces: its `description`).
pub static PYMEMCACHE: Profile = Profile {
    name: "pymemcache",
    aliases: &[],
    description: "pymemcache 4.0 HashClient, default RendezvousHash: highest murmur3_32 of 'host:port-key' over the characters' low bytes; str keys, ASCII only",
    verified_by: "`HashClient._get_client(key)` of pymemcache 4.0.0 (PyPI) on CPython 3.11, 1..250 servers, IPv6, host names (settings: `HashClient(servers)`, default `RendezvousHash`, str keys)",
    default_hash: Hash::PyMurmur3,
    hashes: &[Hash::PyMurmur3],
    crc32: None,
    node: NodeForm::HostPort,
    names: false,
    strings: StringForm::Dash,
    count: Count::Fixed(0),
    points: PointHash::Md5Words { per: 4 },
    placement: Placement::HashRendezvous { join: Join::NodeDashKey, ties: ScoreTies::GreaterNode },
    ties: Ties::EarlierWins,
    zero_weight: ZeroWeight::AsIs,
    key: KeyRewrite::None,
    single_shortcut: true,
    empty_key_rejected: &[],
    key_limits: KeyLimits { empty: false, max_len: Some(250), chars: KeyChars::PyWhitespaceAscii },
    order: Order::Given,
    failover: Failover::Walk,
    removal: Removal::OwnPoints,
    options: NO_OPTIONS,
};

/// The `pymemcache-unicode` row (what it reproduces: its `description`).
pub static PYMEMCACHE_UNICODE: Profile = Profile {
    name: "pymemcache-unicode",
    aliases: &[],
    description: "pymemcache 4.0 HashClient(allow_unicode_keys=True): as pymemcache, non-ASCII str keys placed (250 UTF-8 bytes at most)",
    verified_by: "`HashClient._get_client(key)` of pymemcache 4.0.0 (PyPI) on CPython 3.11 (settings: `allow_unicode_keys=True`)",
    default_hash: Hash::PyMurmur3,
    hashes: &[Hash::PyMurmur3],
    crc32: None,
    node: NodeForm::HostPort,
    names: false,
    strings: StringForm::Dash,
    count: Count::Fixed(0),
    points: PointHash::Md5Words { per: 4 },
    placement: Placement::HashRendezvous { join: Join::NodeDashKey, ties: ScoreTies::GreaterNode },
    ties: Ties::EarlierWins,
    zero_weight: ZeroWeight::AsIs,
    key: KeyRewrite::None,
    single_shortcut: true,
    empty_key_rejected: &[],
    key_limits: KeyLimits { empty: false, max_len: Some(250), chars: KeyChars::PyWhitespace },
    order: Order::Given,
    failover: Failover::Walk,
    removal: Removal::OwnPoints,
    options: NO_OPTIONS,
};

/// The `pymemcache-bytes` row (what it reproduces: its `description`).
pub static PYMEMCACHE_BYTES: Profile = Profile {
    name: "pymemcache-bytes",
    aliases: &[],
    description: "pymemcache 4.0 HashClient with bytes keys: the rendezvous string holds the key's repr, 'host:port-b'...''",
    verified_by: "`HashClient._get_client(key)` of pymemcache 4.0.0 (PyPI) on CPython 3.11 (settings: keys as `bytes`)",
    default_hash: Hash::PyMurmur3,
    hashes: &[Hash::PyMurmur3],
    crc32: None,
    node: NodeForm::HostPort,
    names: false,
    strings: StringForm::Dash,
    count: Count::Fixed(0),
    points: PointHash::Md5Words { per: 4 },
    placement: Placement::HashRendezvous { join: Join::NodeDashKey, ties: ScoreTies::GreaterNode },
    ties: Ties::EarlierWins,
    zero_weight: ZeroWeight::AsIs,
    key: KeyRewrite::PyBytesRepr,
    single_shortcut: true,
    empty_key_rejected: &[],
    key_limits: KeyLimits { empty: false, max_len: Some(250), chars: KeyChars::PyWhitespace },
    order: Order::Given,
    failover: Failover::Walk,
    removal: Removal::OwnPoints,
    options: NO_OPTIONS,
};

/// The `django-pymemcache` row (what it reproduces: its `description`).
pub static DJANGO_PYMEMCACHE: Profile = Profile {
    name: "django-pymemcache",
    aliases: &["django"],
    description: "Django 5.2 PyMemcacheCache (several LOCATIONs), default key function ':1:' + key, then pymemcache-unicode",
    verified_by: "`cache._cache._get_client(cache.make_and_validate_key(key))` of Django 5.2.19 + pymemcache 4.0.0 (settings: `PyMemcacheCache`, `LOCATION` a list, no `KEY_PREFIX`, `VERSION` 1)",
    default_hash: Hash::PyMurmur3,
    hashes: &[Hash::PyMurmur3],
    crc32: None,
    node: NodeForm::HostPort,
    names: false,
    strings: StringForm::Dash,
    count: Count::Fixed(0),
    points: PointHash::Md5Words { per: 4 },
    placement: Placement::HashRendezvous { join: Join::NodeDashKey, ties: ScoreTies::GreaterNode },
    ties: Ties::EarlierWins,
    zero_weight: ZeroWeight::AsIs,
    key: KeyRewrite::Prefix(":1:"),
    single_shortcut: true,
    empty_key_rejected: &[],
    key_limits: KeyLimits { empty: false, max_len: Some(247), chars: KeyChars::ControlsDel },
    order: Order::Given,
    failover: Failover::Walk,
    removal: Removal::OwnPoints,
    options: NO_OPTIONS,
};

/// The `emcache` row (what it reproduces: its `description`).
pub static EMCACHE: Profile = Profile {
    name: "emcache",
    aliases: &[],
    description: "emcache 1.3 node_selection: rendezvous on emcache's 32-bit MurmurHash3_x64_128 of key + 'hostport', ties to the greater node hash",
    verified_by: "the compiled `Cluster.pick_node` of emcache 1.3.3 (PyPI wheel) (settings: `MemcachedHostAddress(host, port)` nodes, `purge_unhealthy_nodes=False`)",
    default_hash: Hash::EmcacheMurmur3,
    hashes: &[Hash::EmcacheMurmur3],
    crc32: None,
    node: NodeForm::HostThenPort,
    names: false,
    strings: StringForm::Dash,
    count: Count::Fixed(0),
    points: PointHash::Md5Words { per: 4 },
    placement: Placement::HashRendezvous { join: Join::KeyNode, ties: ScoreTies::GreaterNodeHash },
    ties: Ties::EarlierWins,
    zero_weight: ZeroWeight::AsIs,
    key: KeyRewrite::None,
    single_shortcut: true,
    empty_key_rejected: &[],
    key_limits: KeyLimits { empty: false, max_len: Some(250), chars: KeyChars::ControlsDel },
    order: Order::Given,
    failover: Failover::Stay,
    removal: Removal::OwnPoints,
    options: NO_OPTIONS,
};

/// The `python-memcached` row (what it reproduces: its `description`).
pub static PYTHON_MEMCACHED: Profile = Profile {
    name: "python-memcached",
    aliases: &[],
    description: "python-memcached 1.62 Client([(server, weight)]): buckets = each server weight times, ((crc32 >> 16) & 0x7fff) % buckets",
    verified_by: "`Client._get_server` of python-memcached 1.62 (PyPI) with loopback listeners, weights 0..1000 (settings: `memcache.Client([(addr, weight), ...])`)",
    default_hash: Hash::Crc,
    hashes: &[Hash::Crc, Hash::Crc32a],
    crc32: Some(Hash::Crc32a),
    node: NodeForm::Label,
    names: false,
    strings: StringForm::Dash,
    count: Count::Fixed(0),
    points: PointHash::Md5Words { per: 4 },
    placement: Placement::Modula { weighted: true, high15: false },
    ties: Ties::EarlierWins,
    zero_weight: ZeroWeight::AsIs,
    key: KeyRewrite::None,
    single_shortcut: false,
    empty_key_rejected: &[],
    key_limits: KeyLimits { empty: true, max_len: Some(250), chars: KeyChars::PythonMemcached },
    order: Order::Given,
    failover: Failover::RehashHash { tries: 10 },
    removal: Removal::OwnPoints,
    options: NO_OPTIONS,
};

/// The `memcached-proxy` row (what it reproduces: its `description`).
pub static MEMCACHED_PROXY: Profile = Profile {
    name: "memcached-proxy",
    aliases: &[],
    description: "memcached 1.6.45 proxy, default pool: jump hash over the key's 64-bit XXH3, by backend position",
    verified_by: "memcached 1.6.45's own `proxy_jump_hash.c`, `proxy_xxhash.c`, `xxhash.h` compiled in a harness (settings: `mcp.pool(backends)`, default `dist_jump_hash`, `XXH3_64bits_withSeed` seed 0)",
    default_hash: Hash::Xxh3,
    hashes: &[Hash::Xxh3],
    crc32: None,
    node: NodeForm::Label,
    names: false,
    strings: StringForm::Dash,
    count: Count::Fixed(0),
    points: PointHash::Md5Words { per: 4 },
    placement: Placement::JumpXxh3,
    ties: Ties::EarlierWins,
    zero_weight: ZeroWeight::AsIs,
    key: KeyRewrite::None,
    single_shortcut: false,
    empty_key_rejected: &[],
    key_limits: ANY_KEY,
    order: Order::Given,
    failover: Failover::Walk,
    removal: Removal::OwnPoints,
    options: NO_OPTIONS,
};

/// The `memcached-proxy-ring` row (what it reproduces: its `description`).
pub static MEMCACHED_PROXY_RING: Profile = Profile {
    name: "memcached-proxy-ring",
    aliases: &[],
    description: "memcached 1.6.45 proxy dist_ring_hash omode default: 160 XXH3 points of addr:port-k, XXH3 keys (fixed in 1.6.45)",
    verified_by: "memcached 1.6.45's own `proxy_ring_hash.c`, `md5.c` compiled in a harness (settings: `dist_ring_hash`, omode default)",
    default_hash: Hash::Xxh3,
    hashes: &[Hash::Xxh3, Hash::Md5],
    crc32: None,
    node: NodeForm::HostPort,
    names: false,
    strings: StringForm::Dash,
    count: Count::Fixed(160),
    points: PointHash::Xxh3Word,
    placement: Placement::Ring(Bound::LowerBound),
    ties: Ties::EarlierWins,
    zero_weight: ZeroWeight::AsIs,
    key: KeyRewrite::None,
    single_shortcut: false,
    empty_key_rejected: &[],
    key_limits: ANY_KEY,
    order: Order::Given,
    failover: Failover::Walk,
    removal: Removal::OwnPoints,
    options: NO_OPTIONS,
};

/// The `memcached-proxy-ring-ketama` row (what it reproduces: its `description`).
pub static MEMCACHED_PROXY_RING_KETAMA: Profile = Profile {
    name: "memcached-proxy-ring-ketama",
    aliases: &[],
    description: "memcached 1.6.45 proxy dist_ring_hash omode ketama: 40 md5 digests x 4 of addr:port-k, XXH3 keys (md5 with hash = dist_ring_hash.hash)",
    verified_by: "memcached 1.6.45's own `proxy_ring_hash.c`, `md5.c` compiled in a harness (settings: `dist_ring_hash`, omode ketama; `--hash md5` = `hash = mcp.dist_ring_hash.hash`)",
    default_hash: Hash::Xxh3,
    hashes: &[Hash::Xxh3, Hash::Md5],
    crc32: None,
    node: NodeForm::HostPort,
    names: false,
    strings: StringForm::Dash,
    count: Count::Fixed(40),
    points: PointHash::Md5Words { per: 4 },
    placement: Placement::Ring(Bound::LowerBound),
    ties: Ties::EarlierWins,
    zero_weight: ZeroWeight::AsIs,
    key: KeyRewrite::None,
    single_shortcut: false,
    empty_key_rejected: &[],
    key_limits: ANY_KEY,
    order: Order::Given,
    failover: Failover::Walk,
    removal: Removal::OwnPoints,
    options: NO_OPTIONS,
};

/// The `memcached-proxy-ring-twemproxy` row (what it reproduces: its `description`).
pub static MEMCACHED_PROXY_RING_TWEMPROXY: Profile = Profile {
    name: "memcached-proxy-ring-twemproxy",
    aliases: &[],
    description: "memcached 1.6.45 proxy dist_ring_hash omode twemproxy: 40 md5 digests x 4 of addr[:port]-k (port 11211 dropped), XXH3 keys",
    verified_by: "memcached 1.6.45's own `proxy_ring_hash.c`, `md5.c` compiled in a harness (settings: `dist_ring_hash`, omode twemproxy; `--hash md5` = `hash = mcp.dist_ring_hash.hash`)",
    default_hash: Hash::Xxh3,
    hashes: &[Hash::Xxh3, Hash::Md5],
    crc32: None,
    node: NodeForm::OmitDefaultPort,
    names: false,
    strings: StringForm::Dash,
    count: Count::Fixed(40),
    points: PointHash::Md5Words { per: 4 },
    placement: Placement::Ring(Bound::LowerBound),
    ties: Ties::EarlierWins,
    zero_weight: ZeroWeight::AsIs,
    key: KeyRewrite::None,
    single_shortcut: false,
    empty_key_rejected: &[],
    key_limits: ANY_KEY,
    order: Order::Given,
    failover: Failover::Walk,
    removal: Removal::OwnPoints,
    options: NO_OPTIONS,
};

/// The `memcached-proxy-ring-evcache` row (what it reproduces: its `description`).
pub static MEMCACHED_PROXY_RING_EVCACHE: Profile = Profile {
    name: "memcached-proxy-ring-evcache",
    aliases: &[],
    description: "memcached 1.6.45 proxy dist_ring_hash omode evcache: 40 md5 digests x 4 of addr/addr:port-k, XXH3 keys",
    verified_by: "memcached 1.6.45's own `proxy_ring_hash.c`, `md5.c` compiled in a harness (settings: `dist_ring_hash`, omode evcache; `--hash md5` = `hash = mcp.dist_ring_hash.hash`)",
    default_hash: Hash::Xxh3,
    hashes: &[Hash::Xxh3, Hash::Md5],
    crc32: None,
    node: NodeForm::HostSlashHostPort,
    names: false,
    strings: StringForm::Dash,
    count: Count::Fixed(40),
    points: PointHash::Md5Words { per: 4 },
    placement: Placement::Ring(Bound::LowerBound),
    ties: Ties::EarlierWins,
    zero_weight: ZeroWeight::AsIs,
    key: KeyRewrite::None,
    single_shortcut: false,
    empty_key_rejected: &[],
    key_limits: ANY_KEY,
    order: Order::Given,
    failover: Failover::Walk,
    removal: Removal::OwnPoints,
    options: NO_OPTIONS,
};

/// The `evcache` row (what it reproduces: its `description`).
pub static EVCACHE: Profile = Profile {
    name: "evcache",
    aliases: &[],
    description: "Netflix EVCache 5.9.0 EVCacheNodeLocator: host/ip:11211-i (the port always 11211), 160 KETAMA_HASH points, no weights",
    verified_by: "the jar's own `EVCacheNodeLocator` and `EVCacheKetamaNodeLocatorConfiguration` (evcache-core 5.9.0, spymemcached 2.11.4) on JDK 17, 1..250 servers (settings: the default bucket size 160, `hash.on.partial.key` off)",
    default_hash: Hash::Md5,
    hashes: &[Hash::Md5],
    crc32: None,
    node: NodeForm::JavaEvcache,
    names: true,
    strings: StringForm::Dash,
    count: Count::Fixed(160),
    points: PointHash::JavaKetama,
    placement: Placement::Ring(Bound::LowerBound),
    ties: Ties::LaterWins,
    zero_weight: ZeroWeight::AsIs,
    key: KeyRewrite::None,
    single_shortcut: false,
    empty_key_rejected: &[],
    key_limits: ANY_KEY,
    order: Order::Given,
    failover: Failover::Stay,
    options: NO_OPTIONS,
    removal: Removal::OwnPoints,
};

/// The `modula` row (what it reproduces: its `description`).
pub static MODULA: Profile = Profile {
    name: "modula",
    aliases: &[],
    description: "hash % n over the servers in order (libmemcached MODULA, php-memcached default); weights ignored",
    verified_by: "libmemcached 1.1.4, php-memcached 3.2.0 (settings: `hash % n`)",
    default_hash: Hash::OneAtATime,
    hashes: &[Hash::OneAtATime, Hash::Md5, Hash::Crc, Hash::Fnv1_64, Hash::Fnv1a64, Hash::Fnv1_32, Hash::Fnv1a32, Hash::Hsieh, Hash::Murmur, Hash::Murmur3, Hash::Jenkins],
    crc32: None,
    node: NodeForm::Label,
    names: false,
    strings: StringForm::Dash,
    count: Count::Fixed(0),
    points: PointHash::Md5Words { per: 4 },
    placement: Placement::Modula { weighted: false, high15: false },
    ties: Ties::EarlierWins,
    zero_weight: ZeroWeight::AsIs,
    key: KeyRewrite::None,
    single_shortcut: true,
    empty_key_rejected: &[],
    key_limits: MEMCACHED_KEY,
    order: Order::Given,
    failover: Failover::Walk,
    removal: Removal::OwnPoints,
    options: LIBMEMCACHED_OPTIONS,
};

/// The `gomemcache` row (what it reproduces: its `description`).
pub static GOMEMCACHE: Profile = Profile {
    name: "gomemcache",
    aliases: &[],
    description: "github.com/bradfitz/gomemcache ServerList: crc32 of the first 256 key bytes % n",
    verified_by:
        "gomemcache (Go module proxy; same code as Debian's) (settings: `ServerList.PickServer`)",
    default_hash: Hash::Crc32a,
    hashes: &[Hash::Crc32a],
    crc32: Some(Hash::Crc32a),
    node: NodeForm::Label,
    names: false,
    strings: StringForm::Dash,
    count: Count::Fixed(0),
    points: PointHash::Md5Words { per: 4 },
    placement: Placement::Modula {
        weighted: false,
        high15: false,
    },
    ties: Ties::EarlierWins,
    zero_weight: ZeroWeight::AsIs,
    key: KeyRewrite::Truncate(256),
    single_shortcut: true,
    empty_key_rejected: &[],
    key_limits: ANY_KEY,
    order: Order::Given,
    failover: Failover::Walk,
    removal: Removal::OwnPoints,
    options: NO_OPTIONS,
};

/// The `jump` row (what it reproduces: its `description`).
pub static JUMP: Profile = Profile {
    name: "jump",
    aliases: &[],
    description: "Lamping & Veach jump consistent hash over the servers in order (beyond the ring; weights ignored)",
    verified_by: "| property tests only",
    default_hash: Hash::Md5,
    hashes: &[Hash::Md5],
    crc32: None,
    node: NodeForm::Label,
    names: false,
    strings: StringForm::Dash,
    count: Count::Fixed(0),
    points: PointHash::Md5Words { per: 4 },
    placement: Placement::Jump,
    ties: Ties::EarlierWins,
    zero_weight: ZeroWeight::AsIs,
    key: KeyRewrite::None,
    single_shortcut: true,
    empty_key_rejected: &[],
    key_limits: ANY_KEY,
    order: Order::Given,
    failover: Failover::Walk,
    removal: Removal::OwnPoints,
    options: NO_OPTIONS,
};

/// The `rendezvous` row (what it reproduces: its `description`).
pub static RENDEZVOUS: Profile = Profile {
    name: "rendezvous",
    aliases: &[],
    description: "rendezvous (highest random weight) hashing, weighted by logarithmic scores (beyond the ring)",
    verified_by: "| property tests only",
    default_hash: Hash::Md5,
    hashes: &[Hash::Md5],
    crc32: None,
    node: NodeForm::Label,
    names: false,
    strings: StringForm::Dash,
    count: Count::Fixed(0),
    points: PointHash::Md5Words { per: 4 },
    placement: Placement::Rendezvous,
    ties: Ties::EarlierWins,
    zero_weight: ZeroWeight::AsIs,
    key: KeyRewrite::None,
    single_shortcut: true,
    empty_key_rejected: &[],
    key_limits: ANY_KEY,
    order: Order::Given,
    failover: Failover::Walk,
    removal: Removal::OwnPoints,
    options: NO_OPTIONS,
};

/// The `maglev` row (what it reproduces: its `description`).
pub static MAGLEV: Profile = Profile {
    name: "maglev",
    aliases: &[],
    description: "Google Maglev consistent hashing, 65,537-entry lookup table (beyond the ring; weights ignored)",
    verified_by: "| property tests only",
    default_hash: Hash::Md5,
    hashes: &[Hash::Md5],
    crc32: None,
    node: NodeForm::Label,
    names: false,
    strings: StringForm::Dash,
    count: Count::Fixed(0),
    points: PointHash::Md5Words { per: 4 },
    placement: Placement::Maglev,
    ties: Ties::EarlierWins,
    zero_weight: ZeroWeight::AsIs,
    key: KeyRewrite::None,
    single_shortcut: true,
    empty_key_rejected: &[],
    key_limits: ANY_KEY,
    order: Order::Given,
    failover: Failover::Walk,
    removal: Removal::OwnPoints,
    options: NO_OPTIONS,
};

/// Every profile, in documentation order.
pub static PROFILES: &[&Profile] = &[
    &LIBKETAMA,
    &LIBMEMCACHED,
    &LIBMEMCACHED_WEIGHTED,
    &LIBMEMCACHED_SPY,
    &LIBMEMCACHED_SPY_WEIGHTED,
    &TWEMPROXY,
    &TWEMPROXY_MODULA,
    &PECL_MEMCACHE,
    &PECL_MEMCACHE_STANDARD,
    &SPYMEMCACHED,
    &SPYMEMCACHED_LIBMEMCACHED_FORMAT,
    &SPYMEMCACHED_WEIGHTED,
    &SPYMEMCACHED_WEIGHTED_LIBMEMCACHED_FORMAT,
    &XMEMCACHED,
    &XMEMCACHED_NGINX,
    &XMEMCACHED_GWHALIN,
    &UHASHRING,
    &UHASHRING_KETAMA,
    &HASH_RING,
    &NODE_HASHRING,
    &GO_KETAMA,
    &GROUPCACHE,
    &FLEXIHASH,
    &FLEXIHASH_SEED,
    &DALLI,
    &NGINX,
    &FOLSOM,
    &MEMJS,
    &WHALIN_CONSISTENT,
    &WHALIN_CONSISTENT_SANITIZED,
    &WHALIN_NATIVE,
    &WHALIN_OLD_COMPAT,
    &WHALIN_NEW_COMPAT,
    &MCROUTER_CH3,
    &MCROUTER_WCH3,
    &PYMEMCACHE,
    &PYMEMCACHE_UNICODE,
    &PYMEMCACHE_BYTES,
    &DJANGO_PYMEMCACHE,
    &EMCACHE,
    &PYTHON_MEMCACHED,
    &MEMCACHED_PROXY,
    &MEMCACHED_PROXY_RING,
    &MEMCACHED_PROXY_RING_KETAMA,
    &MEMCACHED_PROXY_RING_TWEMPROXY,
    &MEMCACHED_PROXY_RING_EVCACHE,
    &EVCACHE,
    &MODULA,
    &GOMEMCACHE,
    &JUMP,
    &RENDEZVOUS,
    &MAGLEV,
];

impl Profile {
    /// Looks a profile up by name or alias.
    ///
    /// ```
    /// use ketama_core::Profile;
    /// assert_eq!(Profile::by_name("php-memcached").unwrap().name, "libmemcached-weighted");
    /// assert!(Profile::by_name("nope").is_err());
    /// ```
    pub fn by_name(name: &str) -> Result<&'static Profile, Error> {
        PROFILES
            .iter()
            .copied()
            .find(|p| p.name == name || p.aliases.contains(&name))
            .ok_or(Error::UnknownProfile)
    }

    /// Every profile, in documentation order.
    pub fn all() -> &'static [&'static Profile] {
        PROFILES
    }

    /// Resolves a hash name as this client means it: `crc32` becomes the client's own CRC
    /// (15-bit in twemproxy, full CRC-32 in PHP and Go), other names as [`Hash::from_name`].
    pub fn hash_from_name(&self, name: &str) -> Result<Hash, Error> {
        match (name, self.crc32) {
            ("crc32", Some(h)) => Ok(h),
            _ => Hash::from_name(name),
        }
    }

    /// Whether this profile builds a continuum of points (as opposed to modulo, jump,
    /// rendezvous or maglev).
    pub fn is_ring(&self) -> bool {
        self.placement.bound().is_some()
    }

    /// Whether a server's weight changes where keys go.
    pub fn uses_weights(&self) -> bool {
        match self.placement {
            Placement::Modula { weighted, .. } | Placement::JavaAbsModulo { weighted, .. } => {
                weighted
            }
            Placement::Rendezvous => true,
            Placement::Furc { weighted } => weighted,
            Placement::Jump
            | Placement::JumpXxh3
            | Placement::Maglev
            | Placement::HashRendezvous { .. } => false,
            Placement::Ring(_) | Placement::PeclBuckets => !matches!(self.count, Count::Fixed(_)),
        }
    }
}

// ----- one-line descriptions of every knob, for tools (`ketama compare`, `ketama profiles`) -----

use core::fmt;

impl fmt::Display for StringForm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            StringForm::Dash => "S-i",
            StringForm::Prefix => "iS",
            StringForm::Concat => "Si",
            StringForm::Bare => "S",
            StringForm::Colon => "S:i",
        })
    }
}

impl fmt::Display for PointHash {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PointHash::Md5Words { per } => write!(f, "md5, {per} points per digest"),
            PointHash::KeyHash => f.write_str("the key hash, 1 point per string"),
            PointHash::JavaKetama => f.write_str("md5 x 4 with KETAMA_HASH, else the key hash"),
            PointHash::Md5Wide => f.write_str("md5 as a 128-bit number"),
            PointHash::Crc32Chain => {
                f.write_str("crc32 chain, each point over S and the previous one")
            }
            PointHash::Murmur3Chain => {
                f.write_str("murmur3_32 chain, each point hashing the previous one")
            }
            PointHash::Sha1Word => f.write_str("sha1, first word big-endian, 1 point per string"),
            PointHash::Xxh3Word => f.write_str("xxh3, low 32 bits, 1 point per string"),
        }
    }
}

impl fmt::Display for Bound {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Bound::LowerBound => "first point >= hash",
            Bound::UpperBound => "first point > hash",
            Bound::LowerBoundZeroLast => "first point >= hash (hash 0 to the last point)",
            Bound::Floor => "largest point <= hash",
            Bound::FloorWrap => "largest point <= hash, else the largest point (backwards)",
            Bound::LowerBoundSigned => "first point >= hash in signed order",
        })
    }
}

impl fmt::Display for Placement {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Placement::Ring(b) => fmt::Display::fmt(b, f),
            Placement::JavaAbsModulo {
                weighted,
                old_compat,
            } => write!(
                f,
                "|{}| % {}",
                if *old_compat {
                    "64-bit old-compat hash"
                } else {
                    "signed hash"
                },
                if *weighted { "total weight" } else { "n" }
            ),
            Placement::PeclBuckets => f.write_str("1024-bucket table"),
            Placement::Modula {
                weighted: false, ..
            } => f.write_str("hash % n"),
            Placement::Modula {
                weighted: true,
                high15: false,
            } => f.write_str("hash % total weight (weight slots)"),
            Placement::Modula {
                weighted: true,
                high15: true,
            } => f.write_str("((hash >> 16) & 0x7fff) % total weight"),
            Placement::Jump => f.write_str("jump consistent hash"),
            Placement::Furc { weighted: false } => f.write_str("mcrouter furc_hash (CH3)"),
            Placement::Furc { weighted: true } => {
                f.write_str("mcrouter WeightedCh3 (furc_hash + spooky draws, weights / max)")
            }
            Placement::Rendezvous => f.write_str("rendezvous hashing"),
            Placement::Maglev => f.write_str("a Maglev table"),
            Placement::JumpXxh3 => f.write_str("jump consistent hash over 64-bit XXH3 of the key"),
            Placement::HashRendezvous { join, ties } => write!(
                f,
                "rendezvous: highest hash of {}, ties to the {}",
                match join {
                    Join::NodeDashKey => "S-key",
                    Join::KeyNode => "key + S",
                },
                match ties {
                    ScoreTies::GreaterNode => "greater node string",
                    ScoreTies::GreaterNodeHash => "greater node hash, then the earlier server",
                }
            ),
        }
    }
}

impl fmt::Display for Ties {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Ties::EarlierWins => "earlier server wins",
            Ties::LaterWins => "later server wins",
            Ties::SortedList => "xmemcached sorted list",
        })
    }
}

impl fmt::Display for ZeroWeight {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ZeroWeight::AsOne => "weight 0 counts as 1",
            ZeroWeight::AsIs => "weight 0 goes to the count rule as it is",
            ZeroWeight::Reject => "weight 0 is refused",
        })
    }
}

impl fmt::Display for KeyRewrite {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            KeyRewrite::None => f.write_str("bytes as given"),
            KeyRewrite::PeclSanitize => f.write_str("bytes <= 0x20 become '_', 250 bytes max"),
            KeyRewrite::Truncate(n) => write!(f, "first {n} bytes"),
            KeyRewrite::UrlEncode => f.write_str("URL-encoded (java.net.URLEncoder)"),
            KeyRewrite::DalliDigest => {
                f.write_str("over 250 characters: first 212 + ':md5:' + md5 hex")
            }
            KeyRewrite::PyBytesRepr => f.write_str("Python repr of the bytes: b'...'"),
            KeyRewrite::Prefix(p) => write!(f, "prefixed with '{p}'"),
        }
    }
}

impl fmt::Display for Order {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Order::Given => "as given",
            Order::NodeLengthThenBytes => "sorted by node string, shorter first",
        })
    }
}

impl fmt::Display for Failover {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Failover::Walk => f.write_str("walk on to the next servers"),
            Failover::Rehash {
                first_tag,
                bounded_by_servers,
            } => write!(
                f,
                "rehash str(t) + key from t = {first_tag}{}",
                if *bounded_by_servers {
                    ", at most as many times as servers"
                } else {
                    ""
                }
            ),
            Failover::RehashKey { tries } => {
                write!(
                    f,
                    "rehash str(t) + key from t = 0, {tries} lookups, then give up"
                )
            }
            Failover::RehashHash { tries } => write!(
                f,
                "rehash str(hash) + str(t) from t = 0, {tries} lookups, then give up"
            ),
            Failover::RehashKeyDash { tries } => write!(
                f,
                "rehash key + \"-\" + str(t) from t = 0, {tries} lookups, then give up"
            ),
            Failover::RehashKeyUntried => f.write_str(
                "rehash str(t) + key from t = 0 until an untried server, each server once, then give up",
            ),
            Failover::Stay => f.write_str("keep the dead server (the key fails)"),
        }
    }
}

impl fmt::Display for Removal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Removal::OwnPoints => "only the server's own points go",
            Removal::ClearsItsPositions => "every position the server had is unset",
        })
    }
}

impl fmt::Display for KeyLimits {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.empty, self.max_len) {
            (false, None) => f.write_str("any key"),
            (true, None) => f.write_str("non-empty keys"),
            (false, Some(m)) => write!(f, "keys of at most {m} bytes"),
            (true, Some(m)) => write!(f, "keys of 1..={m} bytes"),
        }?;
        f.write_str(match self.chars {
            KeyChars::Any => "",
            KeyChars::Controls => ", no byte 0x00..=0x20",
            KeyChars::ControlsDel => ", no byte 0x00..=0x20 or 0x7f",
            KeyChars::PyWhitespace => ", no NUL, no ASCII whitespace in a non-blank key",
            KeyChars::PyWhitespaceAscii => {
                ", ASCII only, no NUL, no ASCII whitespace in a non-blank key"
            }
            KeyChars::PythonMemcached => ", no byte 0x00..=0x20 or 0x7f but one final newline",
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_row_offers_its_default_hash_first_and_no_hash_twice() {
        for p in PROFILES {
            assert_eq!(p.hashes.first(), Some(&p.default_hash), "{}", p.name);
            for (i, h) in p.hashes.iter().enumerate() {
                assert!(
                    !p.hashes[i + 1..].contains(h),
                    "{} offers {h} twice",
                    p.name
                );
            }
        }
    }

    #[test]
    fn wide_points_are_searched_upper_bound() {
        // The 128-bit layout has one search (first point > the key's digest): a row asking
        // for 128-bit points with another bound would be searched by a rule it did not ask for.
        for p in PROFILES {
            if p.points == PointHash::Md5Wide && p.is_ring() {
                assert_eq!(
                    p.placement,
                    Placement::Ring(Bound::UpperBound),
                    "{}",
                    p.name
                );
            }
        }
    }
}
