'use strict';
// Placement options: a client's settings that change which bytes of a key are hashed, never
// the servers' points (twemproxy's `hash_tag` and Jedis's key-tag pattern; php-memcached's
// `OPT_PREFIX_KEY`, hashed only with `OPT_HASH_WITH_PREFIX_KEY`). Their rules and limits are
// the spec's `options`.

const { utf8 } = require('./bytes');
const E = require('./errors');

const LIMITS = require('../spec/profiles.json').options;

/** The bytes of an option value (a string as UTF-8, or raw bytes); BadOptionError else. */
function bytesOf(name, v) {
  if (typeof v === 'string') return utf8(v, name);
  if (v instanceof Uint8Array) return Uint8Array.from(v);
  throw new E.BadOptionError(`${name} must be a string or bytes`);
}

/**
 * Checks `o` (`{ hashTag?, prefixKey?, hashWithPrefix? }`) against the client's value rules
 * and the profile's options; returns the normalised options (bytes), or null for none.
 * `hashTag` is exactly 2 bytes (null/undefined: none), profiles whose tags are configured
 * (twemproxy, Jedis); `prefixKey`
 * at most 127 bytes without NUL (empty: none) and `hashWithPrefix`, libmemcached profiles.
 */
function checkOptions(profile, o) {
  if (o === undefined || o === null) return null;
  if (typeof o !== 'object') throw new TypeError('options must be an object');
  for (const k of Object.keys(o)) {
    if (k !== 'hashTag' && k !== 'prefixKey' && k !== 'hashWithPrefix') throw new E.BadOptionError(`unknown option ${k}`);
  }
  let hashTag = null;
  if (o.hashTag !== undefined && o.hashTag !== null) {
    hashTag = bytesOf('hashTag', o.hashTag);
    if (hashTag.length !== LIMITS.hash_tag_bytes) throw new E.BadOptionError(`hashTag: ${hashTag.length} bytes, not ${LIMITS.hash_tag_bytes}`);
    if (!profile.options.hashTag) throw new E.BadOptionError(`${profile.name} has no hashTag`);
  }
  let prefixKey = new Uint8Array(0);
  if (o.prefixKey !== undefined && o.prefixKey !== null) {
    prefixKey = bytesOf('prefixKey', o.prefixKey);
    if (prefixKey.length > LIMITS.prefix_key_max_bytes) throw new E.BadOptionError(`prefixKey: ${prefixKey.length} bytes, over ${LIMITS.prefix_key_max_bytes}`);
    if (prefixKey.includes(0)) throw new E.BadOptionError('prefixKey holds a NUL byte');
  }
  const hwp = o.hashWithPrefix === undefined || o.hashWithPrefix === null ? false : o.hashWithPrefix;
  if (typeof hwp !== 'boolean') throw new E.BadOptionError('hashWithPrefix must be a boolean');
  if ((prefixKey.length > 0 || hwp) && !profile.options.prefixKey) throw new E.BadOptionError(`${profile.name} has no prefixKey`);
  return { hashTag, prefixKey, hashWithPrefix: hwp };
}

/** Whether options change the bytes hashed (a hash tag, or a prefix that is hashed). */
function rewrites(opts) {
  return opts !== null && (opts.hashTag !== null || opts.hashWithPrefix);
}

let optBuf = new Uint8Array(LIMITS.prefixed_key_max_bytes);

/**
 * Applies libmemcached's hashed prefix to the accepted key K (in place): the prefix is
 * written before the key as `strncpy` copies it (every key byte after a NUL is NUL), and
 * `prefix + key` over 250 bytes is not hashed (K.zero: hash 0). (A hash tag is the key's tag
 * step, lib/key.js.)
 */
function applyPrefix(opts, K) {
  const p = opts.prefixKey;
  const len = p.length + K.n;
  if (len > LIMITS.prefixed_key_max_bytes) {
    K.zero = true;
    return;
  }
  const out = optBuf;
  out.set(p, 0);
  let nul = false;
  for (let i = 0; i < K.n; i++) {
    const b = K.b[i];
    if (b === 0) nul = true;
    out[p.length + i] = nul ? 0 : b;
  }
  K.b = out;
  K.n = len;
}

/** An option's bytes as the caller sees them: a string when they are UTF-8, else bytes. */
function shown(b) {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(b);
  } catch (err) {
    return Uint8Array.from(b);
  }
}

/** The ring's options in the form `withOptions` takes (none: null tag, empty prefix). */
function publicOptions(opts) {
  if (opts === null) return { hashTag: null, prefixKey: '', hashWithPrefix: false };
  return {
    hashTag: opts.hashTag === null ? null : shown(opts.hashTag),
    prefixKey: shown(opts.prefixKey),
    hashWithPrefix: opts.hashWithPrefix,
  };
}

module.exports = { LIMITS, checkOptions, rewrites, applyPrefix, publicOptions };
