'use strict';
// ketama: place memcached keys on servers exactly like each real client does, in pure
// JavaScript. See README.md.

const { Ring, MAX_POINTS } = require('./lib/ring');
const { PROFILES, HASHES, hashByName } = require('./lib/profiles');
const { encodeShared, scratchBytes } = require('./lib/bytes');
const errors = require('./lib/errors');
const { bucket, Bucketer, siphash24, BUCKET_ALGORITHMS } = require('./lib/bucket');

/**
 * The unsigned 32-bit hash of `key` by the named hash function (our snake_case name or a
 * client's own enum name, e.g. `md5`, `KETAMA_HASH`, `fnv1a_64`).
 * @param {string} name
 * @param {string | Uint8Array} key
 * @returns {number}
 */
function hash(name, key) {
  let row = resolved.get(name);
  if (row === undefined) {
    row = hashByName(name);
    resolved.set(name, row);
  }
  if (typeof key === 'string') {
    const n = encodeShared(key); // may grow the shared buffer: read it afterwards
    return row.fn(scratchBytes(), n);
  }
  if (key instanceof Uint8Array) return row.fn(key, key.length);
  throw new TypeError('key must be a string, Buffer or Uint8Array');
}

/** Hash names already resolved (names are looked up once). */
const resolved = new Map();

/**
 * Every profile: name, aliases, description and default hash.
 * @returns {{ name: string, aliases: string[], description: string, defaultHash: string }[]}
 */
function profiles() {
  return PROFILES.map((p) => ({
    name: p.name,
    aliases: p.aliases.slice(),
    description: p.description,
    defaultHash: p.defaultHash,
  }));
}

/**
 * Every hash function: canonical name, the clients' names for it, description.
 * @returns {{ name: string, aliases: string[], description: string }[]}
 */
function hashes() {
  return HASHES.map((h) => ({ name: h.name, aliases: h.aliases.slice(), description: h.description }));
}

module.exports = { Ring, hash, profiles, hashes, MAX_POINTS, bucket, Bucketer, siphash24, BUCKET_ALGORITHMS, ...errors };
