'use strict';
// The ring: a profile's placement of keys on servers, built once from its knobs (points
// generated, sorted and indexed), looked up without allocation for most profiles.

const { md5 } = require('./md5');
const { sha1 } = require('./sha1');
const { IMPL, oldCompat } = require('./hashes');
const { encodeShared, scratchBytes, encoder, charLen } = require('./bytes');
const { strings } = require('./weight');
const { Server } = require('./server');
const { furcHash, weightedCh3, FURC_MAX_POOL } = require('./furc');
const { xxh3_64, xxh3Low32 } = require('./xxh3');
const { profileByName, hashForProfile } = require('./profiles');
const E = require('./errors');

/** The most points one continuum may hold: 2^23. */
const MAX_POINTS = 1 << 23;
/** pecl memcache's bucket spacing and count. */
const PECL_STEP = Math.floor(0xffffffff / 1024);
const PECL_BUCKETS = 1024;
/** Maglev table size. */
const MAGLEV_SIZE = 65537;
const U32_MAX = 4294967295;

// ----- key preparation -----

/** The bytes of the key being looked up: `kb[0..kn)` (shared, valid until the next lookup). */
let kb = new Uint8Array(0);
let kn = 0;
let rewriteBuf = new Uint8Array(1024);

/** Sets kb/kn to the bytes of `key`. */
function loadKey(key) {
  if (typeof key === 'string') {
    kn = encodeShared(key);
    kb = scratchBytes();
  } else if (key instanceof Uint8Array) {
    kb = key;
    kn = key.length;
  } else {
    throw new TypeError('key must be a string, Buffer or Uint8Array');
  }
}

function ensureRewrite(n) {
  if (rewriteBuf.length < n) rewriteBuf = new Uint8Array(n + 64);
  return rewriteBuf;
}

const HEXL = '0123456789abcdef';
const HEXU = '0123456789ABCDEF';

/**
 * Applies the profile's key refusals and rewrite to kb/kn (in place: kb/kn may then point at
 * the rewrite buffer). Throws KeyRejectedError.
 */
function prepare(p, hashName) {
  const lim = p.keyLimits;
  let refused =
    (kn === 0 && (lim.empty || p.emptyKeyRejected.includes(hashName))) || kn > lim.maxLen;
  if (refused || !charsAllow(lim.chars, kb, kn)) throw new E.KeyRejectedError();
  switch (p.key) {
    case 'none':
      return;
    case 'truncate':
      if (kn > p.keyN) kn = p.keyN;
      return;
    case 'pecl_sanitize': {
      const n = Math.min(kn, 250);
      const out = ensureRewrite(n);
      for (let i = 0; i < n; i++) out[i] = kb[i] <= 0x20 ? 0x5f : kb[i];
      kb = out;
      kn = n;
      return;
    }
    case 'url_encode': {
      const out = ensureRewrite(kn * 3);
      let o = 0;
      for (let i = 0; i < kn; i++) {
        const c = kb[i];
        if ((c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || (c >= 0x30 && c <= 0x39) ||
          c === 0x2e || c === 0x2d || c === 0x2a || c === 0x5f) {
          out[o++] = c;
        } else if (c === 0x20) {
          out[o++] = 0x2b;
        } else {
          out[o++] = 0x25;
          out[o++] = HEXU.charCodeAt(c >> 4);
          out[o++] = HEXU.charCodeAt(c & 15);
        }
      }
      kb = out;
      kn = o;
      return;
    }
    case 'dalli_digest': {
      let chars = 0;
      let keep = 0;
      let at = 0;
      while (at < kn && chars <= 250) {
        at += charLen(kb, at, kn);
        chars += 1;
        if (chars === 212) keep = at;
      }
      if (chars <= 250) return;
      const d = md5(kb, kn);
      const out = ensureRewrite(keep + 37);
      for (let i = 0; i < keep; i++) out[i] = kb[i];
      out.set([0x3a, 0x6d, 0x64, 0x35, 0x3a], keep);
      let o = keep + 5;
      for (let g = 0; g < 4; g++) {
        for (let j = 0; j < 4; j++) {
          const byte = (d[g] >>> (8 * j)) & 0xff;
          out[o++] = HEXL.charCodeAt(byte >> 4);
          out[o++] = HEXL.charCodeAt(byte & 15);
        }
      }
      kb = out;
      kn = o;
      return;
    }
    case 'py_bytes_repr': {
      const out = ensureRewrite(kn * 4 + 3);
      let single = false;
      let double = false;
      for (let i = 0; i < kn; i++) {
        if (kb[i] === 0x27) single = true;
        else if (kb[i] === 0x22) double = true;
      }
      const quote = single && !double ? 0x22 : 0x27;
      let o = 0;
      out[o++] = 0x62;
      out[o++] = quote;
      for (let i = 0; i < kn; i++) {
        const c = kb[i];
        if (c === 0x5c || c === quote) {
          out[o++] = 0x5c;
          out[o++] = c;
        } else if (c === 0x09 || c === 0x0a || c === 0x0d) {
          out[o++] = 0x5c;
          out[o++] = c === 0x09 ? 0x74 : c === 0x0a ? 0x6e : 0x72;
        } else if (c >= 0x20 && c <= 0x7e) {
          out[o++] = c;
        } else {
          out[o++] = 0x5c;
          out[o++] = 0x78;
          out[o++] = HEXL.charCodeAt(c >> 4);
          out[o++] = HEXL.charCodeAt(c & 15);
        }
      }
      out[o++] = quote;
      kb = out;
      kn = o;
      return;
    }
    case 'prefix': {
      const pre = p.keyPrefix;
      const out = ensureRewrite(pre.length + kn);
      // kb is the caller's key or the encoding scratch, never the rewrite buffer
      out.set(kb.subarray(0, kn), pre.length);
      out.set(pre, 0);
      kb = out;
      kn = pre.length + kn;
      return;
    }
    default:
      throw new E.UnsupportedError(`key rewrite ${p.key}`);
  }
}

const isCtl = (c) => c <= 0x20 || c === 0x7f;
const isPyWhitespace = (c) => c === 0x20 || (c >= 0x09 && c <= 0x0d);

/** Whether a key passes the profile's `key_limits.chars` rule (bytes the client refuses). */
function charsAllow(chars, b, n) {
  switch (chars) {
    case 'any':
      return true;
    case 'controls':
      for (let i = 0; i < n; i++) if (b[i] <= 0x20) return false;
      return true;
    case 'controls_del':
      for (let i = 0; i < n; i++) if (isCtl(b[i])) return false;
      return true;
    case 'py_whitespace':
    case 'py_whitespace_ascii': {
      // no NUL; whitespace only where the key is all whitespace (`key.split()` is empty)
      let ws = 0;
      for (let i = 0; i < n; i++) {
        const c = b[i];
        if (c === 0 || (c >= 0x80 && chars === 'py_whitespace_ascii')) return false;
        if (isPyWhitespace(c)) ws++;
      }
      return ws === 0 || ws === n;
    }
    case 'python_memcached': {
      // `[\x21-\x7e\x80-\xff]+$`: `$` also matches before one final newline
      const end = n > 0 && b[n - 1] === 0x0a ? n - 1 : n;
      if (end === 0) return false;
      for (let i = 0; i < end; i++) if (isCtl(b[i])) return false;
      return true;
    }
    default:
      throw new E.UnsupportedError(`key chars ${chars}`);
  }
}

// ----- 64-bit helpers (rendezvous, jump) -----

const M64 = (1n << 64n) - 1n;

function mix64(z) {
  z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & M64;
  z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & M64;
  return z ^ (z >> 31n);
}

const F64 = new Float64Array(1);
const U32V = new Uint32Array(F64.buffer);
const LITTLE = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;
const HI = LITTLE ? 1 : 0;

/** Natural logarithm for x in (0, 1] by the core's series (bit-exact with the core). */
function ln(x) {
  F64[0] = x;
  const e = ((U32V[HI] >>> 20) & 0x7ff) - 1023;
  U32V[HI] = (U32V[HI] & 0x000fffff) | 0x3ff00000;
  const m = F64[0];
  const t = (m - 1) / (m + 1);
  const t2 = t * t;
  let term = t;
  let sum = 0;
  let k = 1;
  for (let i = 0; i < 20; i++) {
    sum += term / k;
    term *= t2;
    k += 2;
  }
  return 2 * sum + e * Math.LN2;
}

/** Rendezvous score of a server (node hash, weight) for a key hash; highest wins. */
function score(seed, weight, keyHash) {
  if (weight === 0) return -Infinity;
  const h = mix64(seed ^ mix64(BigInt(keyHash)));
  const u = (Number(h >> 11n) + 0.5) / 9007199254740992;
  return -weight / ln(u);
}

/** Lamping & Veach jump consistent hash of a 64-bit key (BigInt) into 0..buckets. */
function jump(key, buckets) {
  let b = -1;
  let j = 0;
  while (j < buckets) {
    b = j;
    key = (key * 2862933555777941757n + 1n) & M64;
    const r = Number((key >> 33n) + 1n);
    j = Math.trunc((b + 1) * (2147483648 / r));
  }
  return Math.max(b, 0);
}

/** Fills the Maglev lookup table from each server's 64-bit seed. */
function maglevTable(seeds) {
  if (seeds.length === 0) return new Uint32Array(0);
  const m = MAGLEV_SIZE;
  const offsets = seeds.map((s) => Number((s >> 32n) % BigInt(m)));
  const skips = seeds.map((s) => Number((s & 0xffffffffn) % BigInt(m - 1)) + 1);
  const next = new Float64Array(seeds.length);
  const entry = new Uint32Array(m).fill(U32_MAX);
  let filled = 0;
  while (filled < m) {
    for (let i = 0; i < seeds.length; i++) {
      let c = (offsets[i] + next[i] * skips[i]) % m;
      while (entry[c] !== U32_MAX) {
        next[i] += 1;
        c = (offsets[i] + next[i] * skips[i]) % m;
      }
      entry[c] = i;
      next[i] += 1;
      filled += 1;
      if (filled === m) break;
    }
  }
  return entry;
}

// ----- point strings -----

/** Writes the decimal digits of `i` at `buf[o..)`; returns the new end. */
/** Writes the ASCII digits of `digits` at `buf[o..)`; returns the end offset. */
function putDigits(buf, o, digits) {
  for (let i = 0; i < digits.length; i++) buf[o + i] = digits.charCodeAt(i);
  return o + digits.length;
}

function putDecimal(buf, o, i) {
  if (i < 10) {
    buf[o] = 0x30 + i;
    return o + 1;
  }
  let digits = 1;
  for (let x = i; x >= 10; x = Math.floor(x / 10)) digits++;
  let at = o + digits;
  for (let x = i; at > o; x = Math.floor(x / 10)) buf[--at] = 0x30 + (x % 10);
  return o + digits;
}

/** Writes point string i of `node` (UTF-8 bytes) into `buf`; returns its length. */
function spell(buf, form, node, i) {
  let o = 0;
  switch (form) {
    case 'dash':
      buf.set(node, 0);
      buf[node.length] = 0x2d;
      return putDecimal(buf, node.length + 1, i);
    case 'prefix':
      o = putDecimal(buf, 0, i);
      buf.set(node, o);
      return o + node.length;
    case 'concat':
      buf.set(node, 0);
      return putDecimal(buf, node.length, i);
    case 'bare':
      buf.set(node, 0);
      return node.length;
    case 'colon':
      buf.set(node, 0);
      buf[node.length] = 0x3a;
      return putDecimal(buf, node.length + 1, i);
    default:
      throw new E.UnsupportedError(`string form ${form}`);
  }
}

/** Compares two byte arrays bytewise (a shorter prefix first). */
function compareBytes(a, b) {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i] - b[i];
  return a.length - b.length;
}

// ----- the ring -----

/**
 * @typedef {{ label: string, weight?: number, name?: string | null }} ServerSpec
 */

class Ring {
  /**
   * @param {{ profile: string, hash?: string | null, servers: ServerSpec[] }} options
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
    const list = options.servers || [];
    if (!Array.isArray(list)) throw new TypeError('servers must be an array');
    const seen = new Set();
    const entries = [];
    for (const s of list) {
      if (s === null || typeof s !== 'object') throw new TypeError('each server must be an object');
      const weight = s.weight === undefined ? 1 : s.weight;
      if (typeof s.label !== 'string') throw new TypeError('a server label must be a string');
      const server = new Server(s.label, weight, s.name);
      if (!Number.isInteger(weight) || weight < 0 || weight > U32_MAX) {
        throw new E.BadWeightError(`${server.label}: ${JSON.stringify(weight)}`);
      }
      if (weight === 0 && p.zeroWeight === 'reject') throw new E.BadWeightError(`${server.label}: 0`);
      const ep = server.endpoint();
      if (seen.has(ep)) throw new E.DuplicateServerError(server.label);
      seen.add(ep);
      const node = server.nodeString(p.node, p.names);
      const nodeBytes = encoder.encode(node);
      const d = md5(nodeBytes);
      const seed = (BigInt(d[0] >>> 0) << 32n) | BigInt(d[1] >>> 0);
      entries.push({ server, node, nodeBytes, seed, rank: 0, strings: 0 });
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
    this.plain = p.placement === 'ring' && p.bound === 'lower_bound' && p.key === 'none' &&
      p.keyLimits.chars === 'any' && !this.runs && !this.wide;
    this.emptyRefused = p.keyLimits.empty || p.emptyKeyRejected.includes(this.hashName);
    this.maxLen = p.keyLimits.maxLen;
    this.shortcut = p.singleShortcut && this.n === 1;
  }

  /** Generates, sorts and indexes the points, or the non-ring placement's tables. */
  build() {
    const p = this.profile;
    const entries = this.entries;
    this.values = new Uint32Array(0);
    this.owners = new Uint32Array(0);
    switch (p.placement) {
      case 'modula':
      case 'java_abs_modulo': {
        const ordered = entries.map((_, i) => i).sort((a, b) => entries[a].rank - entries[b].rank);
        this.ordered = Uint32Array.from(ordered);
        if (p.weighted) {
          let sum = 0;
          this.cumulative = ordered.map((i) => (sum += entries[i].server.weight));
        }
        return;
      }
      case 'jump':
      case 'jump_xxh3':
      case 'rendezvous':
        return;
      case 'hash_rendezvous':
        // emcache settles equal scores by the hash of each node string alone
        this.nodeHashes = entries.map((e) => this.hashFn(e.nodeBytes, e.nodeBytes.length));
        this.joined = new Uint8Array(256);
        return;
      case 'furc': {
        const max = entries.reduce((m, e) => Math.max(m, e.server.weight), 0);
        this.furcWeights = p.weighted ? entries.map((e) => (max === 0 ? 0 : e.server.weight / max)) : null;
        return;
      }
      case 'maglev':
        this.maglev = maglevTable(entries.map((e) => e.seed));
        return;
      default:
    }
    // a continuum
    const eff = (w) => (w === 0 && p.zeroWeight === 'as_one' ? 1 : w);
    const total = entries.reduce((t, e) => t + eff(e.server.weight), 0);
    const perString = p.points === 'md5_words' ? p.per : 1;
    let points = 0;
    for (const e of entries) {
      const w = eff(e.server.weight);
      e.strings = p.count.kind === 'relative' && w === 0 ? 0 : strings(p.count, w, total, entries.length);
      points += e.strings * perString;
    }
    if (points > MAX_POINTS) throw new E.TooManyPointsError();
    const wide = p.points === 'md5_wide';
    const java4 = p.points === 'java_ketama' && this.hashName === 'md5';
    let count = 0;
    for (const e of entries) count += java4 ? Math.ceil(e.strings / 4) * 4 : e.strings * perString;
    const out = { values: new Uint32Array(count), owners: new Uint32Array(count), wide: wide ? new Uint32Array(count * 3) : null, at: 0, segments: [] };
    entries.forEach((e, owner) => {
      const from = out.at;
      this.generate(e, owner, out);
      out.segments.push([from, out.at]);
    });
    const n = entries.length;
    const ranks = new Uint32Array(n);
    for (let o = 0; o < n; o++) ranks[o] = p.ties === 'later_wins' ? n - 1 - entries[o].rank : entries[o].rank;
    // Points laid out owner by owner in tie order (winner first), then a stable radix sort
    // by position: equal positions keep the tie order.
    const byTie = new Uint32Array(n);
    for (let o = 0; o < n; o++) byTie[ranks[o]] = o;
    const vals = new Uint32Array(count);
    const idx = new Uint32Array(count);
    let at = 0;
    for (let r = 0; r < n; r++) {
      const seg = out.segments[byTie[r]];
      for (let i = seg[0]; i < seg[1]; i++) {
        vals[at] = out.values[i];
        idx[at++] = i;
      }
    }
    radixSort(vals, idx, new Uint32Array(count), new Uint32Array(count));
    if (wide) {
      // 128-bit positions: runs sharing their top 32 bits ordered by the whole position
      for (let i = 0; i < count; ) {
        let j = i + 1;
        while (j < count && vals[j] === vals[i]) j++;
        if (j - i > 1) {
          const run = Array.from(idx.subarray(i, j));
          const w = out.wide;
          run.sort((a, b) =>
            w[3 * a] - w[3 * b] || w[3 * a + 1] - w[3 * b + 1] || w[3 * a + 2] - w[3 * b + 2] ||
            ranks[out.owners[a]] - ranks[out.owners[b]]);
          idx.set(run, i);
        }
        i = j;
      }
      // the low 96 bits of each position, three words per point, in sorted order
      this.wide = new Uint32Array(count * 3);
      for (let i = 0; i < count; i++) this.wide.set(out.wide.subarray(3 * idx[i], 3 * idx[i] + 3), 3 * i);
    }
    const owns = new Uint32Array(count);
    for (let i = 0; i < count; i++) owns[i] = out.owners[idx[i]];
    this.values = vals;
    this.owners = owns;
    this.buildIndex();
    if (p.ties === 'sorted_list') this.buildTieRuns();
    if (p.placement === 'pecl_buckets') {
      this.buckets = new Uint32Array(PECL_BUCKETS);
      const len = this.values.length;
      for (let b = 0; b < PECL_BUCKETS && len > 0; b++) {
        this.buckets[b] = this.owners[this.lowerBound(b * PECL_STEP) % len];
      }
    }
  }

  /** Appends the points of one entry. */
  generate(e, owner, out) {
    const p = this.profile;
    const t = e.strings;
    const vals = out.values;
    const owns = out.owners;
    const push = (v) => {
      vals[out.at] = v;
      owns[out.at++] = owner;
    };
    if (p.points === 'crc32_chain') {
      const buf = new Uint8Array(e.nodeBytes.length + 4);
      buf.set(e.nodeBytes);
      const at = e.nodeBytes.length;
      let prev = 0;
      for (let i = 0; i < t; i++) {
        buf[at] = prev & 0xff;
        buf[at + 1] = (prev >>> 8) & 0xff;
        buf[at + 2] = (prev >>> 16) & 0xff;
        buf[at + 3] = prev >>> 24;
        prev = IMPL.crc32a(buf, buf.length);
        push(prev);
      }
      return;
    }
    if (p.points === 'murmur3_chain') {
      const flip = p.bound === 'lower_bound_signed' ? 0x80000000 : 0;
      const le = new Uint8Array(4);
      let v = IMPL.murmur3_32(e.nodeBytes, e.nodeBytes.length);
      for (let i = 0; i < t; i++) {
        if (i > 0) {
          le[0] = v & 0xff;
          le[1] = (v >>> 8) & 0xff;
          le[2] = (v >>> 16) & 0xff;
          le[3] = v >>> 24;
          v = IMPL.murmur3_32(le, 4);
        }
        push(v ^ flip);
      }
      return;
    }
    const buf = new Uint8Array(e.nodeBytes.length + 12);
    const java4 = p.points === 'java_ketama' && this.hashName === 'md5';
    if (p.points === 'md5_words' || java4) {
      const per = java4 ? 4 : p.per;
      const digestsWanted = java4 ? Math.ceil(t / 4) : t;
      for (let i = 0; i < digestsWanted; i++) {
        const len = spell(buf, p.strings, e.nodeBytes, i);
        const d = md5(buf, len);
        for (let g = 0; g < per; g++) push(d[g]);
      }
      return;
    }
    if (p.points === 'md5_wide') {
      for (let i = 0; i < t; i++) {
        const len = spell(buf, p.strings, e.nodeBytes, i);
        const d = md5(buf, len);
        const at = out.at;
        push(bswapU(d[0]));
        for (let g = 1; g < 4; g++) out.wide[3 * at + g - 1] = bswapU(d[g]);
      }
      return;
    }
    for (let i = 0; i < t; i++) {
      const len = spell(buf, p.strings, e.nodeBytes, i);
      push(p.points === 'sha1_word' ? sha1(buf, len)[0] : p.points === 'xxh3_word' ? xxh3Low32(buf, len) : this.hashFn(buf, len));
    }
  }

  /** A prefix index over the sorted values: starts[b] = first point whose top bits are >= b. */
  buildIndex() {
    const len = this.values.length;
    let bits = 1;
    while (bits < 20 && 1 << bits < len) bits++;
    this.shift = 32 - bits;
    const buckets = 1 << bits;
    const starts = new Uint32Array(buckets + 1);
    const v = this.values;
    // starts[b] = number of values whose top bits are < b
    for (let i = 0; i < len; i++) starts[(v[i] >>> this.shift) + 1]++;
    for (let b = 1; b <= buckets; b++) starts[b] += starts[b - 1];
    this.starts = starts;
  }

  /** First position with value >= h (may be len). */
  lowerBound(h) {
    const v = this.values;
    const b = h >>> this.shift;
    let lo = this.starts[b];
    let hi = this.starts[b + 1];
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (v[mid] < h) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** First position with value > h (may be len). */
  upperBound(h) {
    const v = this.values;
    const b = h >>> this.shift;
    let lo = this.starts[b];
    let hi = this.starts[b + 1];
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (v[mid] <= h) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** xmemcached: each run of equal positions is owned by list[position % len] of its members sorted by node string. */
  buildTieRuns() {
    const v = this.values;
    this.runs = new Map();
    let i = 0;
    while (i < v.length) {
      let j = i + 1;
      while (j < v.length && v[j] === v[i]) j++;
      if (j - i > 1) {
        const members = Array.from(this.owners.subarray(i, j));
        members.sort((a, b) => {
          const x = this.entries[a].node;
          const y = this.entries[b].node;
          return x < y ? -1 : x > y ? 1 : 0;
        });
        this.runs.set(i, members[v[i] % members.length]);
      }
      i = j;
    }
  }

  firstOfRun(p) {
    const v = this.values;
    while (p > 0 && v[p - 1] === v[p]) p--;
    return p;
  }

  ownerAt(p) {
    if (this.runs && this.values[p + 1] === this.values[p]) {
      const o = this.runs.get(p);
      if (o !== undefined) return o;
    }
    return this.owners[p];
  }

  /**
   * The continuum position a (prepared) key lands on, by the profile's bound; `hv`, when
   * given, is placed instead of the key's hash.
   */
  position(hv) {
    const len = this.values.length;
    if (len === 0) throw new E.NoServerError();
    const p = this.profile;
    if (this.wide && hv === undefined) {
      // the key as a 128-bit big-endian number: first point > it
      const d = md5(kb, kn);
      const top = bswapU(d[0]);
      const k1 = bswapU(d[1]);
      const k2 = bswapU(d[2]);
      const k3 = bswapU(d[3]);
      const v = this.values;
      const w = this.wide;
      let lo = this.starts[top >>> this.shift];
      let hi = this.starts[(top >>> this.shift) + 1];
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        const x = v[mid];
        const le = x < top || (x === top && (w[3 * mid] < k1 || (w[3 * mid] === k1 &&
          (w[3 * mid + 1] < k2 || (w[3 * mid + 1] === k2 && w[3 * mid + 2] <= k3)))));
        if (le) lo = mid + 1;
        else hi = mid;
      }
      return lo === len ? 0 : lo;
    }
    const h = hv === undefined ? this.hashFn(kb, kn) : hv;
    let at;
    switch (p.bound) {
      case 'lower_bound':
        at = this.lowerBound(h);
        return at === len ? 0 : at;
      case 'upper_bound':
        at = this.upperBound(h);
        return at === len ? 0 : at;
      case 'lower_bound_signed':
        at = this.lowerBound((h ^ 0x80000000) >>> 0);
        return at === len ? 0 : at;
      case 'lower_bound_zero_last':
        if (h === 0) return this.firstOfRun(len - 1);
        at = this.lowerBound(h);
        return at === len ? 0 : at;
      case 'floor': {
        at = this.upperBound(h);
        if (at > 0) return this.firstOfRun(at - 1);
        // PHP reads $serverList[count - 1]: a server only if a point equals it
        let distinct = 1;
        for (let i = 1; i < len; i++) if (this.values[i] !== this.values[i - 1]) distinct++;
        const probe = distinct - 1;
        const q = this.lowerBound(probe);
        if (q < len && this.values[q] === probe) return q;
        throw new E.NoServerError();
      }
      case 'floor_wrap':
        at = this.upperBound(h);
        return this.firstOfRun(at === 0 ? len - 1 : at - 1);
      default:
        throw new E.UnsupportedError(`bound ${p.bound}`);
    }
  }

  /** The server index for the prepared key kb/kn. */
  indexOfPrepared() {
    const p = this.profile;
    if (p.singleShortcut && this.n === 1) return 0;
    switch (p.placement) {
      case 'ring':
        return this.ownerAt(this.position());
      case 'pecl_buckets':
        if (this.values.length === 0) throw new E.NoServerError();
        return this.buckets[this.hashFn(kb, kn) % PECL_BUCKETS];
      case 'modula':
      case 'java_abs_modulo': {
        let at;
        if (p.oldCompat) {
          let h = oldCompat(kb, kn);
          if (h < 0n) h = -h;
          at = p.weighted ? slotOf(this.cumulative, h) : Number(h % BigInt(this.n));
        } else {
          let h = this.hashFn(kb, kn);
          if (p.placement === 'java_abs_modulo') h = Math.abs(h | 0);
          if (p.high15) {
            h = (h >>> 16) & 0x7fff;
            if (h === 0) h = 1;
          }
          at = p.weighted ? slotOf(this.cumulative, h) : h % this.n;
        }
        if (at < 0) throw new E.NoServerError();
        return this.ordered[at];
      }
      case 'furc': {
        if (this.n > FURC_MAX_POOL) throw new E.TooManyServersError(`${this.n} servers`);
        if (!this.furcWeights) return furcHash(kb, kn, this.n);
        const i = weightedCh3(kb, kn, this.furcWeights);
        if (i < 0) throw new E.NoServerError();
        return i;
      }
      case 'jump':
        return jump(BigInt(this.hashFn(kb, kn)), this.n);
      case 'jump_xxh3':
        return jump(xxh3_64(kb, kn), this.n);
      case 'rendezvous':
        return this.rendezvousBest(this.hashFn(kb, kn), null);
      case 'hash_rendezvous':
        return this.scoredBest(null);
      case 'maglev':
        return this.maglev[this.hashFn(kb, kn) % MAGLEV_SIZE];
      default:
        throw new E.UnsupportedError(`placement ${p.placement}`);
    }
  }

  /** The server a key hash `h` is placed on, as the key's own hash is (rehash failover). */
  indexOfHash(h) {
    const p = this.profile;
    switch (p.placement) {
      case 'ring':
        return this.ownerAt(this.position(h));
      case 'pecl_buckets':
        if (this.values.length === 0) throw new E.NoServerError();
        return this.buckets[h % PECL_BUCKETS];
      case 'modula':
      case 'java_abs_modulo': {
        if (p.oldCompat) break;
        if (p.placement === 'java_abs_modulo') h = Math.abs(h | 0);
        if (p.high15) {
          h = (h >>> 16) & 0x7fff;
          if (h === 0) h = 1;
        }
        const at = p.weighted ? slotOf(this.cumulative, h) : h % this.n;
        if (at < 0) throw new E.NoServerError();
        return this.ordered[at];
      }
      case 'jump':
        return jump(BigInt(h), this.n);
      case 'rendezvous':
        return this.rendezvousBest(h, null);
      case 'maglev':
        return this.maglev[h % MAGLEV_SIZE];
      default:
    }
    throw new E.UnsupportedError(`a hash alone cannot place a key on ${p.placement}`);
  }

  /**
   * pymemcache / emcache rendezvous: the server (not in `skip`) whose node string joined with
   * the prepared key hashes highest; equal scores go to the greater node string
   * (`greater_node`) or the greater hash of the node string, then the earlier server
   * (`greater_node_hash`).
   */
  scoredBest(skip) {
    const p = this.profile;
    let best = -1;
    let bestScore = 0;
    for (let i = 0; i < this.n; i++) {
      if (skip && skip.includes(i)) continue;
      const node = this.entries[i].nodeBytes;
      const len = node.length + kn + 1;
      if (this.joined.length < len) this.joined = new Uint8Array(len + 64);
      const j = this.joined;
      let n;
      if (p.join === 'node_dash_key') {
        j.set(node, 0);
        j[node.length] = 0x2d;
        j.set(kb.subarray(0, kn), node.length + 1);
        n = len;
      } else {
        j.set(kb.subarray(0, kn), 0);
        j.set(node, kn);
        n = len - 1;
      }
      const s = this.hashFn(j, n);
      let take;
      if (best < 0 || s !== bestScore) take = best < 0 || s > bestScore;
      else if (p.scoreTies === 'greater_node') take = compareBytes(node, this.entries[best].nodeBytes) > 0;
      else take = this.nodeHashes[i] > this.nodeHashes[best];
      if (take) {
        best = i;
        bestScore = s;
      }
    }
    if (best < 0) throw new E.NoServerError();
    return best;
  }

  rendezvousBest(h, skip) {
    let best = -1;
    let bestScore = -Infinity;
    for (let i = 0; i < this.n; i++) {
      if (skip && skip.includes(i)) continue;
      const s = score(this.entries[i].seed, this.entries[i].server.weight, h);
      if (s > -Infinity && (best < 0 || s > bestScore)) {
        best = i;
        bestScore = s;
      }
    }
    if (best < 0) throw new E.NoServerError();
    return best;
  }

  /**
   * The index (in the order given) of the server a key goes to.
   * @param {string|Uint8Array} key
   * @returns {number}
   */
  index(key) {
    if (this.n === 0) throw new E.EmptyRingError();
    loadKey(key);
    if (this.plain) {
      // no rewrite, no blank check: only the length limits, then the lower-bound search
      if (kn === 0 ? this.emptyRefused : kn > this.maxLen) throw new E.KeyRejectedError();
      if (this.shortcut) return 0;
      const len = this.values.length;
      if (len === 0) throw new E.NoServerError();
      const at = this.lowerBound(this.hashFn(kb, kn));
      return this.owners[at === len ? 0 : at];
    }
    prepare(this.profile, this.hashName);
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
    const first = this.index(key);
    const want = Math.min(n, this.n);
    const out = [];
    if (want <= 0) return out;
    out.push(first);
    const p = this.profile;
    const len = this.values.length;
    if ((p.placement === 'ring' || p.placement === 'pecl_buckets') && len > 0) {
      let start;
      if (p.placement === 'pecl_buckets') {
        start = this.lowerBound((this.hashFn(kb, kn) % PECL_BUCKETS) * PECL_STEP) % len;
      } else {
        try {
          start = this.position();
        } catch (err) {
          start = 0;
        }
      }
      const backwards = p.bound === 'floor' || p.bound === 'floor_wrap';
      for (let step = 0; step < len && out.length < want; step++) {
        const at = backwards ? (start + len - (step % len)) % len : (start + step) % len;
        const o = this.owners[at];
        if (!out.includes(o)) out.push(o);
      }
    } else if (p.placement === 'hash_rendezvous') {
      while (out.length < want) out.push(this.scoredBest(out));
    } else if (p.placement === 'rendezvous') {
      const h = this.hashFn(kb, kn);
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
   * The client's own failover sequence for a key, primary first (labels): spymemcached's and
   * xmemcached's rehash walks (servers may repeat), for every other client as getN.
   * @param {string|Uint8Array} key
   * @param {number} n
   * @returns {string[]}
   */
  failover(key, n) {
    const p = this.profile;
    if (p.failover === 'rehash_key' || p.failover === 'rehash_hash') return this.rehashTries(key, Math.min(n, p.tries));
    if (p.failover === 'stay') {
      const first = this.index(key);
      return n > 0 ? [this.labels[first]] : [];
    }
    const continuum = p.placement === 'ring' || p.placement === 'pecl_buckets';
    if (p.failover !== 'rehash' || !continuum) return this.getN(key, n);
    const limit = p.boundedByServers ? Math.min(n, this.n + 1) : n;
    const first = this.index(key);
    if (limit <= 0) return [];
    const out = [first];
    const key0 = kb.slice(0, kn);
    let hv = this.hashFn(key0, key0.length);
    let t = p.firstTag;
    const len = this.values.length;
    while (out.length < limit) {
      const tagged = new Uint8Array(key0.length + 20);
      const digits = String(t);
      for (let i = 0; i < digits.length; i++) tagged[i] = digits.charCodeAt(i);
      tagged.set(key0, digits.length);
      hv = (hv + this.hashFn(tagged, digits.length + key0.length)) >>> 0;
      const at = this.lowerBound(hv);
      out.push(this.ownerAt(at === len ? 0 : at));
      t += 1;
    }
    return out.map((i) => this.labels[i]);
  }

  /**
   * dalli (`rehash_key`: lookup t >= 1 hashes `decimal(t - 1) + key`) and python-memcached
   * (`rehash_hash`: `h(t + 1) = H(decimal(h(t)) + decimal(t))`): `n` lookups in all, each hash
   * placed as the key's own hash is; one server with the single-server shortcut: that server.
   */
  rehashTries(key, n) {
    const p = this.profile;
    const first = this.index(key);
    if (n <= 0) return [];
    const out = [first];
    if (p.singleShortcut && this.n === 1) return [this.labels[first]];
    const key0 = kb.slice(0, kn);
    let h = this.hashFn(key0, key0.length);
    const tagged = new Uint8Array(key0.length + 40);
    for (let t = 0; t < n - 1; t++) {
      let len;
      if (p.failover === 'rehash_key') {
        len = putDigits(tagged, 0, String(t));
        tagged.set(key0, len);
        len += key0.length;
      } else {
        len = putDigits(tagged, 0, String(h));
        len = putDigits(tagged, len, String(t));
      }
      h = this.hashFn(tagged, len);
      out.push(this.indexOfHash(h));
    }
    return out.map((i) => this.labels[i]);
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
    const p = this.profile;
    let limit;
    if (p.failover === 'walk') limit = this.n;
    else if (p.failover === 'rehash') limit = p.boundedByServers ? this.n + 1 : 7;
    else if (p.failover === 'stay') limit = 1;
    else limit = p.tries;
    const deadLabels = dead.map((i) => this.labels[i]);
    const hit = this.failover(key, limit).find((l) => !deadLabels.includes(l));
    return hit === undefined ? null : hit;
  }

  /**
   * The key hash as this ring computes it (after the client's key refusals and rewriting).
   * @param {string|Uint8Array} key
   * @returns {number}
   */
  keyHash(key) {
    loadKey(key);
    prepare(this.profile, this.hashName);
    return this.hashFn(kb, kn);
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

/**
 * Sorts `vals` (with `owns` alongside) by value, stably: two counting passes of 16 bits,
 * through the scratch arrays `tv`/`to` (same length).
 */
function radixSort(vals, owns, tv, to) {
  const n = vals.length;
  const count = new Uint32Array(65537);
  for (let i = 0; i < n; i++) count[(vals[i] & 0xffff) + 1]++;
  for (let b = 1; b <= 65536; b++) count[b] += count[b - 1];
  for (let i = 0; i < n; i++) {
    const d = count[vals[i] & 0xffff]++;
    tv[d] = vals[i];
    to[d] = owns[i];
  }
  count.fill(0);
  for (let i = 0; i < n; i++) count[(tv[i] >>> 16) + 1]++;
  for (let b = 1; b <= 65536; b++) count[b] += count[b - 1];
  for (let i = 0; i < n; i++) {
    const d = count[tv[i] >>> 16]++;
    vals[d] = tv[i];
    owns[d] = to[i];
  }
}

/** First index whose cumulative weight is > slot, or -1 when the total is 0. */
function slotOf(cumulative, h) {
  const total = cumulative.length ? cumulative[cumulative.length - 1] : 0;
  if (total === 0) return -1;
  const slot = typeof h === 'bigint' ? Number(h % BigInt(total)) : h % total;
  let lo = 0;
  let hi = cumulative.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (cumulative[mid] <= slot) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function bswapU(w) {
  return (((w & 0xff) << 24) | ((w & 0xff00) << 8) | ((w >>> 8) & 0xff00) | (w >>> 24)) >>> 0;
}

module.exports = { Ring, MAX_POINTS, jump, maglevTable };
