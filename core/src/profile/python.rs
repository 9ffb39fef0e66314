//! The Python clients' rows: uhashring, hash_ring, pymemcache (and Django over it), emcache,
//! python-memcached and redis-shard.

use super::keys::{
    KeyRewrite, KeyTag, TagRule, ANY_KEY, DJANGO_KEY, EMCACHE_KEY, PYMEMCACHE_KEY,
    PYMEMCACHE_UNICODE_KEY, PYTHON_MEMCACHED_KEY,
};
use super::knobs::{
    Bound, Failover, Join, Order, Placement, PointHash, Removal, ScoreTies, StringForm, Ties,
    ZeroWeight,
};
use super::row::Profile;
use crate::hash::Hash;
use crate::options::rules::NO_OPTIONS;
use crate::server::NodeForm;
use crate::weight::{Count, Formula};

/// How both uhashring rows are checked.
const UHASHRING_VERIFIED: &str = "uhashring 2.5 (settings: `HashRing(nodes)`, `HashRing(nodes, \
    hash_fn=\"ketama\")`, weights, remove/add)";

/// The `uhashring` row (what it reproduces: its `description`).
pub static UHASHRING: Profile = Profile {
    name: "uhashring",
    aliases: &[],
    description: "uhashring 2.5 HashRing default: 160w points int(md5(label-i).hexdigest(), 16), \
        128-bit",
    verified_by: UHASHRING_VERIFIED,
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
    key_tag: KeyTag::None,
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
    description: "uhashring 2.5 HashRing(hash_fn='ketama'): INT md5 digests x 4 of label-i, first \
        point > h",
    verified_by: UHASHRING_VERIFIED,
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
    key_tag: KeyTag::None,
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
    description: "Python hash_ring 1.3.1 (and node-hashring hash_ring mode): INT md5 digests x 3 \
        of label-i",
    verified_by: "node-hashring 3.2.0 `compatibility: 'hash_ring'` (hash_ring itself needs Python \
        2, which Debian 12 lacks) (settings: `HashRing(labels, weights)`)",
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
    key_tag: KeyTag::None,
    single_shortcut: false,
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
    description: "pymemcache 4.0 HashClient, default RendezvousHash: highest murmur3_32 of \
        'host:port-key' over the characters' low bytes; str keys, ASCII only",
    verified_by:
        "`HashClient._get_client(key)` of pymemcache 4.0.0 (PyPI) on CPython 3.11, 1..250 \
        servers, IPv6, host names (settings: `HashClient(servers)`, default `RendezvousHash`, str \
        keys)",
    default_hash: Hash::PyMurmur3,
    hashes: &[Hash::PyMurmur3],
    crc32: None,
    node: NodeForm::HostPort,
    names: false,
    strings: StringForm::Dash,
    count: Count::Fixed(0),
    points: PointHash::Md5Words { per: 4 },
    placement: Placement::HashRendezvous {
        join: Join::NodeDashKey,
        ties: ScoreTies::GreaterNode,
    },
    ties: Ties::EarlierWins,
    zero_weight: ZeroWeight::AsIs,
    key: KeyRewrite::None,
    key_tag: KeyTag::None,
    single_shortcut: true,
    empty_key_rejected: &[],
    key_limits: PYMEMCACHE_KEY,
    order: Order::Given,
    failover: Failover::Walk,
    removal: Removal::OwnPoints,
    options: NO_OPTIONS,
};

/// The `pymemcache-unicode` row (what it reproduces: its `description`).
pub static PYMEMCACHE_UNICODE: Profile = Profile {
    name: "pymemcache-unicode",
    aliases: &[],
    description:
        "pymemcache 4.0 HashClient(allow_unicode_keys=True): as pymemcache, non-ASCII str \
        keys placed (250 UTF-8 bytes at most)",
    verified_by: "`HashClient._get_client(key)` of pymemcache 4.0.0 (PyPI) on CPython 3.11 \
        (settings: `allow_unicode_keys=True`)",
    default_hash: Hash::PyMurmur3,
    hashes: &[Hash::PyMurmur3],
    crc32: None,
    node: NodeForm::HostPort,
    names: false,
    strings: StringForm::Dash,
    count: Count::Fixed(0),
    points: PointHash::Md5Words { per: 4 },
    placement: Placement::HashRendezvous {
        join: Join::NodeDashKey,
        ties: ScoreTies::GreaterNode,
    },
    ties: Ties::EarlierWins,
    zero_weight: ZeroWeight::AsIs,
    key: KeyRewrite::None,
    key_tag: KeyTag::None,
    single_shortcut: true,
    empty_key_rejected: &[],
    key_limits: PYMEMCACHE_UNICODE_KEY,
    order: Order::Given,
    failover: Failover::Walk,
    removal: Removal::OwnPoints,
    options: NO_OPTIONS,
};

/// The `pymemcache-bytes` row (what it reproduces: its `description`).
pub static PYMEMCACHE_BYTES: Profile = Profile {
    name: "pymemcache-bytes",
    aliases: &[],
    description:
        "pymemcache 4.0 HashClient with bytes keys: the rendezvous string holds the key's \
        repr, 'host:port-b'...''",
    verified_by: "`HashClient._get_client(key)` of pymemcache 4.0.0 (PyPI) on CPython 3.11 \
        (settings: keys as `bytes`)",
    default_hash: Hash::PyMurmur3,
    hashes: &[Hash::PyMurmur3],
    crc32: None,
    node: NodeForm::HostPort,
    names: false,
    strings: StringForm::Dash,
    count: Count::Fixed(0),
    points: PointHash::Md5Words { per: 4 },
    placement: Placement::HashRendezvous {
        join: Join::NodeDashKey,
        ties: ScoreTies::GreaterNode,
    },
    ties: Ties::EarlierWins,
    zero_weight: ZeroWeight::AsIs,
    key: KeyRewrite::PyBytesRepr,
    key_tag: KeyTag::None,
    single_shortcut: true,
    empty_key_rejected: &[],
    key_limits: PYMEMCACHE_UNICODE_KEY,
    order: Order::Given,
    failover: Failover::Walk,
    removal: Removal::OwnPoints,
    options: NO_OPTIONS,
};

/// The `django-pymemcache` row (what it reproduces: its `description`).
pub static DJANGO_PYMEMCACHE: Profile = Profile {
    name: "django-pymemcache",
    aliases: &["django"],
    description: "Django 5.2 PyMemcacheCache (several LOCATIONs), default key function ':1:' + \
        key, then pymemcache-unicode",
    verified_by: "`cache._cache._get_client(cache.make_and_validate_key(key))` of Django 5.2.19 + \
        pymemcache 4.0.0 (settings: `PyMemcacheCache`, `LOCATION` a list, no `KEY_PREFIX`, \
        `VERSION` 1)",
    default_hash: Hash::PyMurmur3,
    hashes: &[Hash::PyMurmur3],
    crc32: None,
    node: NodeForm::HostPort,
    names: false,
    strings: StringForm::Dash,
    count: Count::Fixed(0),
    points: PointHash::Md5Words { per: 4 },
    placement: Placement::HashRendezvous {
        join: Join::NodeDashKey,
        ties: ScoreTies::GreaterNode,
    },
    ties: Ties::EarlierWins,
    zero_weight: ZeroWeight::AsIs,
    key: KeyRewrite::Prefix(":1:"),
    key_tag: KeyTag::None,
    single_shortcut: true,
    empty_key_rejected: &[],
    key_limits: DJANGO_KEY,
    order: Order::Given,
    failover: Failover::Walk,
    removal: Removal::OwnPoints,
    options: NO_OPTIONS,
};

/// The `emcache` row (what it reproduces: its `description`).
pub static EMCACHE: Profile = Profile {
    name: "emcache",
    aliases: &[],
    description: "emcache 1.3 node_selection: rendezvous on emcache's 32-bit MurmurHash3_x64_128 \
        of key + 'hostport', ties to the greater node hash",
    verified_by: "the compiled `Cluster.pick_node` of emcache 1.3.3 (PyPI wheel) (settings: \
        `MemcachedHostAddress(host, port)` nodes, `purge_unhealthy_nodes=False`)",
    default_hash: Hash::EmcacheMurmur3,
    hashes: &[Hash::EmcacheMurmur3],
    crc32: None,
    node: NodeForm::HostThenPort,
    names: false,
    strings: StringForm::Dash,
    count: Count::Fixed(0),
    points: PointHash::Md5Words { per: 4 },
    placement: Placement::HashRendezvous {
        join: Join::KeyNode,
        ties: ScoreTies::GreaterNodeHash,
    },
    ties: Ties::EarlierWins,
    zero_weight: ZeroWeight::AsIs,
    key: KeyRewrite::None,
    key_tag: KeyTag::None,
    single_shortcut: true,
    empty_key_rejected: &[],
    key_limits: EMCACHE_KEY,
    order: Order::Given,
    failover: Failover::Stay,
    removal: Removal::OwnPoints,
    options: NO_OPTIONS,
};

/// The `python-memcached` row (what it reproduces: its `description`).
pub static PYTHON_MEMCACHED: Profile = Profile {
    name: "python-memcached",
    aliases: &[],
    description: "python-memcached 1.62 Client([(server, weight)]): buckets = each server weight \
        times, ((crc32 >> 16) & 0x7fff) % buckets",
    verified_by: "`Client._get_server` of python-memcached 1.62 (PyPI) with loopback listeners, \
        weights 0..1000 (settings: `memcache.Client([(addr, weight), ...])`)",
    default_hash: Hash::Crc,
    hashes: &[Hash::Crc, Hash::Crc32a],
    crc32: Some(Hash::Crc32a),
    node: NodeForm::Label,
    names: false,
    strings: StringForm::Dash,
    count: Count::Fixed(0),
    points: PointHash::Md5Words { per: 4 },
    placement: Placement::Modula {
        weighted: true,
        high15: false,
    },
    ties: Ties::EarlierWins,
    zero_weight: ZeroWeight::AsIs,
    key: KeyRewrite::None,
    key_tag: KeyTag::None,
    single_shortcut: false,
    empty_key_rejected: &[],
    key_limits: PYTHON_MEMCACHED_KEY,
    order: Order::Given,
    failover: Failover::RehashHash { tries: 10 },
    removal: Removal::OwnPoints,
    options: NO_OPTIONS,
};

/// The `redis-shard` row (what it reproduces: its `description`).
pub static REDIS_SHARD: Profile = Profile {
    name: "redis-shard",
    aliases: &[],
    description: "Zhihu redis-shard 0.3 RedisShardAPI: 128 crc32 points of name:i, crc32 keys \
        (latin-1), first point > hash and no wrap past the last, greedy last {tag}; weights \
        ignored",
    verified_by: "`RedisShardAPI.get_server_name(key)` of redis-shard 0.3.7 (PyPI) with redis-py \
        8.1 on CPython 3.11 (settings: `RedisShardAPI([{'name': name, 'host': host, 'port': \
        port}, ...])`, name = the server's name or label, str keys; key tags always on)",
    default_hash: Hash::Crc32a,
    hashes: &[Hash::Crc32a],
    crc32: Some(Hash::Crc32a),
    node: NodeForm::Label,
    names: true,
    strings: StringForm::Colon,
    count: Count::Fixed(128),
    points: PointHash::KeyHash,
    placement: Placement::Ring(Bound::UpperBoundClamp),
    ties: Ties::LaterWins,
    zero_weight: ZeroWeight::AsIs,
    key: KeyRewrite::Latin1,
    key_tag: KeyTag::Braces(TagRule::GreedyLast),
    single_shortcut: false,
    empty_key_rejected: &[],
    key_limits: ANY_KEY,
    order: Order::Given,
    failover: Failover::Stay,
    removal: Removal::OwnPoints,
    options: NO_OPTIONS,
};
