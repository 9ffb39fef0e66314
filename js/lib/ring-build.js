'use strict';
// Building a ring: the continuum's points generated per server, laid out in the client's tie
// order, sorted and indexed, or the tables of a placement that is not a continuum. Methods of
// Ring (installed on its prototype by ring.js).

const { md5 } = require('./md5');
const { IMPL, sha1be, H64 } = require('./hashes');
const { strings } = require('./weight');
const { xxh3Low32 } = require('./xxh3');
const { maglevTable } = require('./placements');
const { spell, radixSort, bswapU } = require('./points');
const E = require('./errors');

/** The most points one continuum may hold: 2^23. */
const MAX_POINTS = 1 << 23;
const U32_MAX = 4294967295;
/** pecl memcache's bucket spacing and count. */
const PECL_STEP = Math.floor(0xffffffff / 1024);
const PECL_BUCKETS = 1024;

/** The weight a server of weight 0 counts as, by the profile's `zero_weight`. */
const ZERO_WEIGHT = { as_one: 1, as_hundred: 100, as_is: 0, reject: 0 };

/** The hash of point string `i` for the one-position-per-string point kinds. */
function pointHash(kind, i, keyHash) {
  switch (kind) {
    case 'sha1_word':
      return sha1be;
    case 'xxh3_word':
      return xxh3Low32;
    case 'md5_word_be':
      return IMPL.md5_be;
    case 'fnv1a_first_zero':
      // one hasher for every string, initialised only after its first hash (Enyim)
      return i === 0 ? IMPL.fnv1a_32_zero : IMPL.fnv1a_32_unsigned;
    default:
      return keyHash;
  }
}

/**
 * Cache::Memcached::Fast's compatible continuum: one point per server, added in the client's
 * order; each server adds its weight to the total W (a double) and scales every earlier point
 * p to `(u32)(p - p * (w / W))`, then takes the point 2^32 - 1. Returns the points (ascending)
 * with their owners and the total.
 */
function scaledPoints(entries) {
  const order = entries.map((_, i) => i).sort((a, b) => entries[a].rank - entries[b].rank);
  const points = new Float64Array(order.length);
  let total = 0;
  order.forEach((i, k) => {
    const w = entries[i].server.weight;
    total += w;
    const scale = w / total;
    for (let j = 0; j < k; j++) points[j] = cToU32(points[j] - points[j] * scale);
    points[k] = U32_MAX;
  });
  return { points, owners: Uint32Array.from(order), total };
}

/**
 * A double converted to C's `unsigned int` as x86-64 compilers do it (through a 64-bit
 * integer, its low 32 bits kept); NaN and non-positive values give 0.
 */
function cToU32(x) {
  if (!(x > 0)) return 0;
  const t = Math.trunc(x);
  return t >= 18446744073709551615 ? U32_MAX : t % 4294967296;
}

const methods = {
  /** Generates, sorts and indexes the points, or the non-ring placement's tables. */
  build() {
    const p = this.profile;
    const entries = this.entries;
    // Every layout's fields, in one order: rings of every profile share one object shape,
    // so the lookup methods they share stay monomorphic.
    this.values = new Uint32Array(0);
    this.owners = new Uint32Array(0);
    this.starts = null;
    this.shift = 0;
    this.wide = null;
    this.runs = null;
    this.buckets = null;
    this.ordered = null;
    this.cumulative = null;
    this.nodeHashes = null;
    this.joined = null;
    this.furcWeights = null;
    this.maglev = null;
    this.nodeHi = null;
    this.nodeLo = null;
    this.scaled = null;
    switch (p.layout) {
      case 'slots': {
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
      case 'scored':
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
      case 'mixed':
        // each node string's 64-bit hash (go-redis)
        this.nodeHi = new Uint32Array(entries.length);
        this.nodeLo = new Uint32Array(entries.length);
        entries.forEach((e, i) => {
          this.hash64Fn(e.nodeBytes, e.nodeBytes.length);
          this.nodeHi[i] = H64[0];
          this.nodeLo[i] = H64[1];
        });
        return;
      case 'scaled':
        this.scaled = scaledPoints(entries);
        return;
      default:
    }
    // a continuum
    const eff = (w) => (w === 0 ? ZERO_WEIGHT[p.zeroWeight] : w);
    const total = entries.reduce((t, e) => t + eff(e.server.weight), 0);
    const perString = p.points === 'md5_words' ? p.per : 1;
    let points = 0;
    for (const e of entries) {
      const w = eff(e.server.weight);
      e.strings = p.count.kind === 'relative' && w === 0 ? 0 : strings(p.count, w, total, entries.length);
      points += e.strings * perString;
    }
    if (points > MAX_POINTS) throw new E.TooManyPointsError();
    // words kept per point beyond its top 32 bits: 128-bit md5 positions, 64-bit ones
    const ww = p.layout === 'wide' ? 3 : p.layout === 'wide64' ? 1 : 0;
    const java4 = p.points === 'java_ketama' && this.hashName === 'md5';
    let count = 0;
    for (const e of entries) count += java4 ? Math.ceil(e.strings / 4) * 4 : e.strings * perString;
    const out = { values: new Uint32Array(count), owners: new Uint32Array(count), wide: ww > 0 ? new Uint32Array(count * ww) : null, at: 0, segments: [] };
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
    if (ww > 0) {
      // wide positions: runs sharing their top 32 bits ordered by the whole position
      const w = out.wide;
      const byPosition = (a, b) => {
        for (let g = 0; g < ww; g++) if (w[ww * a + g] !== w[ww * b + g]) return w[ww * a + g] - w[ww * b + g];
        return ranks[out.owners[a]] - ranks[out.owners[b]];
      };
      for (let i = 0; i < count; ) {
        let j = i + 1;
        while (j < count && vals[j] === vals[i]) j++;
        if (j - i > 1) idx.set(Array.from(idx.subarray(i, j)).sort(byPosition), i);
        i = j;
      }
      // the rest of each position, `ww` words per point, in sorted order
      this.wide = new Uint32Array(count * ww);
      for (let i = 0; i < count; i++) this.wide.set(w.subarray(ww * idx[i], ww * idx[i] + ww), ww * i);
    }
    const owns = new Uint32Array(count);
    for (let i = 0; i < count; i++) owns[i] = out.owners[idx[i]];
    this.values = vals;
    this.owners = owns;
    this.buildIndex();
    if (p.layout === 'tie_runs') this.buildTieRuns();
    if (p.layout === 'buckets') {
      // bucket b: the owner of the position b * PECL_STEP lands on by the layout's bound
      this.buckets = new Uint32Array(PECL_BUCKETS);
      const len = this.values.length;
      for (let b = 0; b < PECL_BUCKETS && len > 0; b++) {
        this.buckets[b] = this.owners[this.position(b * PECL_STEP)];
      }
    }
  },

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
    const buf = new Uint8Array(e.nodeBytes.length + 16);
    if (p.points === 'key_hash64') {
      // 64-bit positions in the order the bound compares (signed for Jedis): top 32 bits as
      // the value, the low 32 in the wide column
      const flip = p.bound === 'lower_bound_signed' ? 0x80000000 : 0;
      for (let i = 0; i < t; i++) {
        const len = spell(buf, p.strings, e.nodeBytes, i);
        const at = out.at;
        this.hash64Fn(buf, len);
        push((H64[0] ^ flip) >>> 0);
        out.wide[at] = H64[1];
      }
      return;
    }
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
      push(pointHash(p.points, i, this.hashFn)(buf, len));
    }
  },

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
  },

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
  },
};

module.exports = { methods, MAX_POINTS, PECL_STEP, PECL_BUCKETS, U32_MAX, cToU32 };
