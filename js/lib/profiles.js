'use strict';
// The profile table and the hash table, read from the embedded copy of the exported spec
// (spec/profiles.json). A profile is a row of knobs; this module checks that every knob value
// is in the knob vocabulary generated with the port (lib/knobs.js), so a row made of known
// knobs works without code.

const SPEC = require('../spec/profiles.json');
const { IMPL, INPUT } = require('./hashes');
const { requireUnicode } = require('./bytes');
const { UnknownProfileError, UnknownHashError, AmbiguousHashError } = require('./errors');

/** Every value of each knob (generated from the spec's `knobs`). */
const KNOWN = require('./knobs');

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
  check(p.name, 'layout', p.layout.kind);
  if (p.layout.bound !== null) check(p.name, 'bound', p.layout.bound);
  if (p.placement.kind === 'hash_rendezvous') {
    check(p.name, 'join', p.placement.join);
    check(p.name, 'score_ties', p.placement.ties);
  }
  const chars = p.key_limits.chars;
  check(p.name, 'chars', chars);
  check(p.name, 'ties', p.ties);
  check(p.name, 'zero_weight', p.zero_weight);
  check(p.name, 'key', p.key.kind);
  check(p.name, 'key_tag', p.key_tag.kind);
  if (p.key_tag.kind !== 'none') check(p.name, 'tag_rule', p.key_tag.rule);
  check(p.name, 'order', p.order);
  check(p.name, 'failover', p.failover.kind);
  check(p.name, 'removal', p.removal);
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
    /** core's resolved shape (`sorted`, `wide`, `tie_runs`, `buckets`, ...): what building and lookups dispatch on. */
    layout: p.layout.kind,
    /** The continuum's search bound, null without a continuum. */
    bound: p.layout.bound,
    isRing: p.is_ring,
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
    /** The client's hash tags: `none`, `braces` (always `{}`) or `configured` (the ring's `hashTag`). */
    keyTag: p.key_tag.kind,
    /** How a tag is found (lib/tag.js), null without tags. */
    tagRule: p.key_tag.kind === 'none' ? null : p.key_tag.rule,
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
  if (typeof name === 'string') requireUnicode(name, 'profile name');
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
  if (typeof name === 'string') requireUnicode(name, 'hash name');
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
