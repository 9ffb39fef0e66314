'use strict';
// The ring: a profile's placement of keys on servers, built once from its knobs (points
// generated, sorted and indexed), looked up without allocation for most profiles. This file
// holds the public API and its input rules; building is in ring-build.js, lookups in
// ring-lookup.js, the key's refusals and rewrites in key.js.

const { encoder, requireUnicode } = require('./bytes');
const { Server } = require('./server');
const { profileByName, hashForProfile } = require('./profiles');
const { hash64Of, H64, md5le } = require('./hashes');
const { md5, WORDS, packedFirstWord } = require('./md5');
const { SHORT_MAX, packAscii } = require('./md5-pair');
const { K, loadKey, prepare } = require('./key');
const { checkOptions, rewrites, publicOptions } = require('./options');

const { jump, maglevTable } = require('./placements');
const { compareBytes } = require('./points');
const build = require('./ring-build');
const failover = require('./failover');
const lookup = require('./ring-lookup');
const batch = require('./ring-batch');
const E = require('./errors');

const { MAX_POINTS, PECL_STEP, PECL_BUCKETS } = build;
const U32_MAX = 4294967295;

/**
 * @typedef {{ label: string, weight?: number, name?: string | null }} ServerSpec
 * @typedef {{ hashTag?: string | Uint8Array | null, prefixKey?: string | Uint8Array | null, hashWithPrefix?: boolean }} PlacementOptions
 */

/** A weight as a message shows it (a BigInt, which JSON cannot show, with its `n`). */
function shown(w) {
  return typeof w === 'bigint' ? `${w}n` : String(JSON.stringify(w));
}

/**
 * The bytes a client hashes for a node string: its UTF-8, or one latin-1 byte per character
 * where the profile's keys are latin-1 (a character above U+00FF: UnsupportedError).
 */
function nodeBytesOf(p, node) {
  if (p.key !== 'latin1') return encoder.encode(node);
  const out = new Uint8Array(node.length);
  for (let i = 0; i < node.length; i++) {
    const c = node.charCodeAt(i);
    if (c > 0xff) throw new E.UnsupportedError(`${node}: not latin-1`);
    out[i] = c;
  }
  return out;
}

/**
 * One server of the list given, at `place` (from 0): its checks (`seen`: the endpoints before
 * it) and what building reads.
 */
function entry(p, s, seen, place) {
  requireUnicode(s.label, 'label');
  if (typeof s.name === 'string') requireUnicode(s.name, 'name');
  const weight = s.weight === undefined ? 1 : s.weight;
  const server = new Server(s.label, weight, s.name);
  if (!Number.isInteger(weight) || weight < 0 || weight > U32_MAX) {
    throw new E.BadWeightError(`${server.label}: ${shown(weight)}`);
  }
  if (weight === 0 && p.zeroWeight === 'reject') throw new E.BadWeightError(`${server.label}: 0`);
  const ep = server.endpoint();
  if (seen.has(ep)) throw new E.DuplicateServerError(server.label);
  seen.add(ep);
  const node = server.nodeString(p.node, p.names, place);
  const nodeBytes = nodeBytesOf(p, node);
  const d = md5(nodeBytes);
  const seed = (BigInt(d[0] >>> 0) << 32n) | BigInt(d[1] >>> 0);
  return { server, node, nodeBytes, seed, rank: 0, strings: 0 };
}

class Ring {
  /**
   * `options.options`: placement options (see `withOptions`).
   * @param {{ profile: string, hash?: string | null, servers: ServerSpec[], options?: PlacementOptions }} options
   */
  constructor(options) {
    if (options === null || typeof options !== 'object') throw new TypeError('options must be an object');
    const p = profileByName(options.profile);
    const hashRow = options.hash === undefined || options.hash === null || options.hash === '-'
      ? hashForProfile(p, p.defaultHash)
      : hashForProfile(p, options.hash);
    /** The profile (a row of knobs). */
    this.profile = p;
    /** The canonical name of the key hash in use. */
    this.hashName = hashRow.name;
    this.hashFn = hashRow.fn;
    /** The key hash's 64 bits (left in `H64`: high, low), for 64-bit positions and scores. */
    this.hash64Fn = hash64Of(hashRow.name);
    const list = options.servers || [];
    if (!Array.isArray(list)) throw new TypeError('servers must be an array');
    const seen = new Set();
    const entries = [];
    for (const [i, s] of list.entries()) {
      if (s === null || typeof s !== 'object') throw new TypeError('each server must be an object');
      if (typeof s.label !== 'string') throw new TypeError('a server label must be a string');
      try {
        entries.push(entry(p, s, seen, i));
      } catch (err) {
        // A refusal of this server names it: its place in the list and its label.
        if (err instanceof E.KetamaError) err.blame(i, s.label);
        throw err;
      }
    }
    // the client's server order
    if (p.order === 'node_length_then_bytes') {
      const idx = entries.map((_, i) => i);
      idx.sort((a, b) => {
        const x = entries[a].nodeBytes;
        const y = entries[b].nodeBytes;
        return x.length - y.length || compareBytes(x, y) || a - b;
      });
      idx.forEach((e, r) => {
        entries[e].rank = r;
      });
    } else {
      entries.forEach((e, i) => {
        e.rank = i;
      });
    }
    this.entries = entries;
    /** Labels by server index (input order). */
    this.labels = entries.map((e) => e.server.label);
    this.n = entries.length;
    this.build();
    // The common shape, looked up by `index` without the general dispatch: a sorted
    // continuum searched lower-bound, the winner stored first, keys hashed as given.
    this.plainShape = p.layout === 'sorted' && p.bound === 'lower_bound' && p.key === 'none' &&
      p.keyTag === 'none' && p.keyLimits.chars === 'any';
    this.emptyRefused = p.keyLimits.empty || p.emptyKeyRejected.includes(this.hashName);
    this.maxLen = p.keyLimits.maxLen;
    this.shortcut = p.singleShortcut && this.n === 1;
    this.baseHash = this.hashFn;
    this.setOptions(checkOptions(p, options.options));
  }

  /**
   * A copy of the ring with these placement options (this ring is unchanged): `hashTag` (a
   * hash tag's 2 delimiter bytes, the tag found by the client's own rule: twemproxy's
   * `hash_tag`, Jedis's key-tag pattern; twemproxy and Jedis profiles; the Redis clients
   * whose tag rule is always on, Predis, phpredis, redis-rb, go-redis and redis-shard, hash
   * `{tag}` without it and refuse it; docs/compat.md lists each profile's rule), `prefixKey`
   * (php-memcached's `OPT_PREFIX_KEY`, at most 127 bytes without NUL; empty: none) and
   * `hashWithPrefix` (`OPT_HASH_WITH_PREFIX_KEY`: prefix + key is hashed), libmemcached
   * profiles. BadOptionError when the profile's client lacks one or refuses its value.
   * @param {PlacementOptions} o
   * @returns {Ring}
   */
  withOptions(o) {
    const opts = checkOptions(this.profile, o === undefined || o === null ? {} : o);
    const next = Object.assign(Object.create(Ring.prototype), this);
    next.setOptions(opts);
    return next;
  }

  /**
   * The ring's placement options.
   * @returns {{ hashTag: string | Uint8Array | null, prefixKey: string | Uint8Array, hashWithPrefix: boolean }}
   */
  options() {
    return publicOptions(this.opts);
  }

  /** Installs checked options: keys they rewrite leave the plain path, and a hashed prefix
   * hashes a key marked `K.zero` as 0. */
  setOptions(opts) {
    this.opts = opts;
    this.plain = this.plainShape && !rewrites(opts);
    const base = this.baseHash;
    this.hashFn = opts !== null && opts.hashWithPrefix ? (b, n) => (K.zero ? 0 : base(b, n)) : base;
    // The plain shape keyed by md5 with points to search: a short ASCII string key is
    // hashed straight from the string (lib/md5-pair.js), its length being its byte count.
    this.shortMd5 = this.plain && base === md5le && this.values.length > 0 && !this.shortcut &&
      this.maxLen >= SHORT_MAX;
  }

  /**
   * The index (in the order given) of the server a key goes to.
   * @param {string|Uint8Array} key
   * @returns {number}
   */
  index(key) {
    if (this.shortMd5 && typeof key === 'string' && key.length !== 0 && key.length <= SHORT_MAX &&
      packAscii(key, WORDS)) {
      const len = this.values.length;
      const at = this.lowerBound(packedFirstWord() >>> 0);
      return this.owners[at === len ? 0 : at];
    }
    return this.locateKey(key);
  }

  /**
   * {@link index}, leaving the key as the client hashes it in K (what the walks and rehashes
   * of a key read after it).
   * @param {string|Uint8Array} key
   * @returns {number}
   */
  locateKey(key) {
    if (this.n === 0) throw new E.EmptyRingError();
    loadKey(key);
    if (this.plain) {
      // no rewrite, no blank check: only the length limits, then the lower-bound search
      if (K.n === 0 ? this.emptyRefused : K.n > this.maxLen) throw new E.KeyRejectedError();
      if (this.shortcut) return 0;
      const len = this.values.length;
      if (len === 0) throw new E.NoServerError();
      const at = this.lowerBound(this.hashFn(K.b, K.n));
      return this.owners[at === len ? 0 : at];
    }
    prepare(this.profile, this.hashName, this.opts);
    return this.indexOfPrepared();
  }

  /**
   * The label of the server a key goes to.
   * @param {string|Uint8Array} key
   * @returns {string}
   */
  get(key) {
    return this.labels[this.index(key)];
  }

  /**
   * Up to `n` distinct servers for a key, primary first, in the order the client's structure
   * yields them; indexes.
   * @param {string|Uint8Array} key
   * @param {number} n
   * @returns {number[]}
   */
  indexN(key, n) {
    const first = this.locateKey(key);
    const want = Math.min(n, this.n);
    const out = [];
    if (want <= 0) return out;
    out.push(first);
    const p = this.profile;
    const len = this.values.length;
    if (p.isRing && len > 0) {
      let start;
      if (p.layout === 'buckets') {
        start = this.position((this.hashFn(K.b, K.n) % PECL_BUCKETS) * PECL_STEP);
      } else {
        try {
          start = this.position();
        } catch (err) {
          start = 0;
        }
      }
      const backwards = p.bound === 'floor' || p.bound === 'floor_wrap';
      // A client keeping its points in a map (later wins) holds only each tie's winner: every
      // point of a run of equal positions is the winner's, the first of the run.
      const later = p.ties === 'later_wins';
      for (let step = 0; step < len && out.length < want; step++) {
        const at = backwards ? (start + len - (step % len)) % len : (start + step) % len;
        const o = this.owners[later ? this.firstOfRun(at) : at];
        if (!out.includes(o)) out.push(o);
      }
    } else if (p.layout === 'scored') {
      while (out.length < want) out.push(this.scoredBest(out));
    } else if (p.layout === 'mixed') {
      this.hash64Fn(K.b, K.n);
      const kh = H64[0];
      const kl = H64[1];
      while (out.length < want) out.push(this.mixedBest(kh, kl, out));
    } else if (p.layout === 'rendezvous') {
      const h = this.hashFn(K.b, K.n);
      while (out.length < want) {
        try {
          out.push(this.rendezvousBest(h, out));
        } catch (err) {
          break;
        }
      }
    } else {
      for (let step = 1; step < this.n && out.length < want; step++) {
        const i = (first + step) % this.n;
        if (!out.includes(i)) out.push(i);
      }
    }
    return out;
  }

  /**
   * Up to `n` distinct server labels for a key, primary first.
   * @param {string|Uint8Array} key
   * @param {number} n
   * @returns {string[]}
   */
  getN(key, n) {
    return this.indexN(key, n).map((i) => this.labels[i]);
  }

  /**
   * The client's own failover sequence for a key, primary first (labels), at most `n`: the
   * servers it tries in order while the earlier ones are down (rehash clients may repeat one).
   * @param {string|Uint8Array} key
   * @param {number} n
   * @returns {string[]}
   */
  failover(key, n) {
    const out = [];
    failover.each(this, key, n, (i) => {
      out.push(this.labels[i]);
      return false;
    });
    return out;
  }

  /**
   * The server a key goes to while the servers at the indexes in `dead` are down: the first
   * of the client's failover sequence (as many tries as the client makes) that is up; null
   * when the client gives up.
   * @param {string|Uint8Array} key
   * @param {number[]} dead
   * @returns {string|null}
   */
  getAlive(key, dead) {
    if (dead.length === 0) return this.get(key);
    let hit = null;
    failover.each(this, key, failover.limit(this), (i) => {
      if (dead.includes(i)) return false;
      hit = this.labels[i];
      return true;
    });
    return hit;
  }

  /**
   * The key hash as this ring computes it (after the client's key refusals and rewriting).
   * @param {string|Uint8Array} key
   * @returns {number}
   */
  keyHash(key) {
    loadKey(key);
    prepare(this.profile, this.hashName, this.opts);
    return this.hashFn(K.b, K.n);
  }

  /**
   * The continuum, ascending: [position, label] pairs (empty for non-ring placements).
   * 128-bit rings report the top 32 bits.
   * @returns {Array<[number, string]>}
   */
  points() {
    const out = [];
    for (let i = 0; i < this.values.length; i++) out.push([this.values[i], this.labels[this.owners[i]]]);
    return out;
  }

  /** The servers' labels, in the order given. */
  servers() {
    return this.labels.slice();
  }

  /** The node string the client hashes for server `i`. */
  nodeString(i) {
    return this.entries[i] ? this.entries[i].node : undefined;
  }
}

// The building and lookup methods, non-enumerable like the class's own.
for (const part of [build.methods, lookup.methods, batch.methods]) {
  for (const [name, d] of Object.entries(Object.getOwnPropertyDescriptors(part))) {
    Object.defineProperty(Ring.prototype, name, { ...d, enumerable: false });
  }
}

module.exports = { Ring, MAX_POINTS, jump, maglevTable };
