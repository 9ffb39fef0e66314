'use strict';
// The profile table and the hash table, read from the embedded copy of the exported spec
// (spec/profiles.json). A profile is a row of knobs; this module only checks that every knob
// value is one this port implements, so a row made of known knobs works without code.

const SPEC = require('../spec/profiles.json');
const { IMPL, INPUT } = require('./hashes');
const { UnknownProfileError, UnknownHashError, AmbiguousHashError } = require('./errors');

const KNOWN = {
  node: [
    'label', 'omit_default_port', 'slash_label', 'java_spy', 'java_xmc', 'java_nginx', 'bare',
    'java_host_name', 'host_port', 'java_host_name_port', 'nginx_host_nul_port', 'host_then_port',
    'host_slash_host_port', 'java_evcache',
  ],
  strings: ['dash', 'prefix', 'concat', 'bare', 'colon'],
  count: ['fixed', 'per_weight', 'relative'],
  formula: ['libketama', 'libmemcached', 'node_hashring', 'integer_div', 'dalli', 'whalin'],
  points: ['md5_words', 'key_hash', 'java_ketama', 'md5_wide', 'crc32_chain', 'murmur3_chain', 'sha1_word', 'xxh3_word'],
  placement: ['ring', 'pecl_buckets', 'modula', 'java_abs_modulo', 'furc', 'jump', 'rendezvous', 'maglev', 'jump_xxh3', 'hash_rendezvous'],
  join: ['node_dash_key', 'key_node'],
  score_ties: ['greater_node', 'greater_node_hash'],
  chars: ['any', 'controls', 'controls_del', 'py_whitespace', 'py_whitespace_ascii', 'python_memcached'],
  bound: ['lower_bound', 'upper_bound', 'lower_bound_zero_last', 'floor', 'floor_wrap', 'lower_bound_signed'],
  ties: ['earlier_wins', 'later_wins', 'sorted_list'],
  zero_weight: ['as_one', 'as_is', 'reject'],
  key: ['none', 'pecl_sanitize', 'truncate', 'dalli_digest', 'url_encode', 'py_bytes_repr', 'prefix'],
  order: ['given', 'node_length_then_bytes'],
  failover: ['walk', 'rehash', 'rehash_key', 'rehash_key_dash', 'rehash_hash', 'rehash_key_untried', 'stay'],
};

function check(profile, knob, value) {
  if (!KNOWN[knob].includes(value)) {
    throw new Error(`spec: profile ${profile}: ${knob} '${value}' is not implemented by this port`);
  }
}

/** Hash rows: {name, aliases, description, input, fn}; each spec hash must be implemented, reading its input the way the spec says. */
const HASHES = SPEC.hashes.map((h) => {
  if (!IMPL[h.name]) throw new Error(`spec: hash '${h.name}' is not implemented by this port`);
  if (h.input !== undefined && INPUT[h.name] !== h.input) {
    throw new Error(`spec: hash '${h.name}' reads ${h.input}, this port ${INPUT[h.name]}`);
  }
  return { name: h.name, aliases: h.aliases || [], description: h.description || '', input: h.input, fn: IMPL[h.name] };
});

/** The internal form of one spec row (knobs checked once, at load). */
function normalize(p) {
  check(p.name, 'node', p.node);
  check(p.name, 'strings', p.strings);
  check(p.name, 'count', p.count.kind);
  if (p.count.kind === 'relative') check(p.name, 'formula', p.count.formula);
  check(p.name, 'points', p.points.kind);
  check(p.name, 'placement', p.placement.kind);
  if (p.placement.kind === 'ring') check(p.name, 'bound', p.placement.bound);
  if (p.placement.kind === 'hash_rendezvous') {
    check(p.name, 'join', p.placement.join);
    check(p.name, 'score_ties', p.placement.ties);
  }
  // `chars` names the refused bytes; an older spec had the boolean `blanks` (= `controls`)
  const chars = p.key_limits.chars !== undefined ? p.key_limits.chars : p.key_limits.blanks ? 'controls' : 'any';
  check(p.name, 'chars', chars);
  check(p.name, 'ties', p.ties);
  check(p.name, 'zero_weight', p.zero_weight);
  check(p.name, 'key', p.key.kind);
  check(p.name, 'order', p.order);
  check(p.name, 'failover', p.failover.kind);
  const pl = p.placement;
  return Object.freeze({
    name: p.name,
    aliases: p.aliases || [],
    description: p.description || '',
    defaultHash: p.default_hash,
    crc32: p.crc32 || null,
    node: p.node,
    names: !!p.names,
    strings: p.strings,
    count: { kind: p.count.kind, k: p.count.strings || 0, formula: p.count.formula },
    points: p.points.kind,
    per: p.points.per || 1,
    placement: pl.kind,
    bound: pl.kind === 'ring' ? pl.bound : pl.kind === 'pecl_buckets' ? 'lower_bound' : null,
    weighted: !!pl.weighted,
    high15: !!pl.high15,
    oldCompat: !!pl.old_compat,
    join: pl.join || null,
    scoreTies: pl.ties || null,
    ties: p.ties,
    zeroWeight: p.zero_weight,
    key: p.key.kind,
    keyN: p.key.bytes || 0,
    keyPrefix: p.key.kind === 'prefix' ? new TextEncoder().encode(p.key.prefix) : null,
    singleShortcut: !!p.single_shortcut,
    emptyKeyRejected: p.empty_key_rejected || [],
    keyLimits: {
      empty: !!p.key_limits.empty,
      maxLen: p.key_limits.max_len === null || p.key_limits.max_len === undefined ? Infinity : p.key_limits.max_len,
      chars,
    },
    order: p.order,
    failover: p.failover.kind,
    firstTag: p.failover.first_tag || 0,
    boundedByServers: !!p.failover.bounded_by_servers,
    tries: p.failover.tries || 0,
    options: { hashTag: !!(p.options && p.options.hash_tag), prefixKey: !!(p.options && p.options.prefix_key) },
  });
}

const PROFILES = SPEC.profiles.map(normalize);

/**
 * The profile with this name or alias.
 * @param {string} name
 */
function profileByName(name) {
  const p = PROFILES.find((x) => x.name === name || x.aliases.includes(name));
  if (!p) throw new UnknownProfileError(String(name));
  return p;
}

/**
 * A hash row by our snake_case name or a client's own enum name; `crc32` is ambiguous
 * without a profile. Client names match case-sensitively, canonical names also in any case.
 * @param {string} name
 */
function hashByName(name) {
  if (name === 'crc32') throw new AmbiguousHashError();
  const row =
    HASHES.find((r) => r.name === name || r.aliases.includes(name)) ||
    HASHES.find((r) => r.name.toLowerCase() === String(name).toLowerCase());
  if (!row) throw new UnknownHashError(String(name));
  return row;
}

/** A hash name as this profile's client means it (`crc32` = the client's own CRC). */
function hashForProfile(profile, name) {
  if (name === 'crc32' && profile.crc32) return hashByName(profile.crc32);
  return hashByName(name);
}

module.exports = { PROFILES, HASHES, profileByName, hashByName, hashForProfile, SPEC };
