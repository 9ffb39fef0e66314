'use strict';
// Looking a prepared key up: the searches of the sorted continuum by the profile's bound, the
// tie runs, and the placement of a key (or of a hash alone) by every algorithm. Methods of Ring
// (installed on its prototype by ring.js); the key is the shared K.b/K.n.

const { md5 } = require('./md5');
const { oldCompat } = require('./hashes');
const { furcHash, weightedCh3, FURC_MAX_POOL } = require('./furc');
const { xxh3_64 } = require('./xxh3');
const { K } = require('./key');
const { H64 } = require('./hash64');
const { MAGLEV_SIZE, score, jump, slotOf, mixRendezvous } = require('./placements');
const { compareBytes, bswapU } = require('./points');
const { PECL_BUCKETS, U32_MAX, cToU32 } = require('./ring-build');
const E = require('./errors');

/**
 * phpredis `RedisArray`'s range partition: `(h * n) / (2^32 - 1)` in integers (2^32 - 1
 * itself gives n: past the last server).
 */
function proportional(h, n) {
  const prod = h * n;
  if (prod > Number.MAX_SAFE_INTEGER) return Number((BigInt(h) * BigInt(n)) / BigInt(U32_MAX));
  // the double quotient may round up to the next integer: corrected exactly
  let q = Math.floor(prod / U32_MAX);
  if (q * U32_MAX > prod) q -= 1;
  return q;
}

const methods = {
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
  },

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
  },

  firstOfRun(p) {
    const v = this.values;
    while (p > 0 && v[p - 1] === v[p]) p--;
    return p;
  },

  ownerAt(p) {
    if (this.runs && this.values[p + 1] === this.values[p]) {
      const o = this.runs.get(p);
      if (o !== undefined) return o;
    }
    return this.owners[p];
  },

  /** The first 128-bit md5 position > the prepared key's md5 (uhashring), wrapping. */
  positionMd5Wide() {
    const len = this.values.length;
    const d = md5(K.b, K.n);
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
  },

  /**
   * The first 64-bit position >= the prepared key's 64-bit hash in the bound's order (signed
   * for Jedis: the sign bit flipped, as the points were), wrapping.
   */
  position64() {
    const len = this.values.length;
    const flip = this.profile.bound === 'lower_bound_signed' ? 0x80000000 : 0;
    this.hash64Fn(K.b, K.n);
    const top = (H64[0] ^ flip) >>> 0;
    const low = H64[1];
    const v = this.values;
    const w = this.wide;
    let lo = this.starts[top >>> this.shift];
    let hi = this.starts[(top >>> this.shift) + 1];
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const x = v[mid];
      if (x < top || (x === top && w[mid] < low)) lo = mid + 1;
      else hi = mid;
    }
    return lo === len ? 0 : lo;
  },

  /**
   * The continuum position a (prepared) key lands on, by the profile's bound; `hv`, when
   * given, is placed instead of the key's hash (NeedsKeyError on 64-bit positions).
   */
  position(hv) {
    const len = this.values.length;
    if (len === 0) throw new E.NoServerError();
    const p = this.profile;
    if (p.layout === 'wide64') {
      if (hv !== undefined) throw new E.NeedsKeyError(p.placement);
      return this.position64();
    }
    if (p.layout === 'wide' && hv === undefined) return this.positionMd5Wide();
    const h = hv === undefined ? this.hashFn(K.b, K.n) : hv;
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
      case 'upper_bound_clamp':
        // past the last point: the last point, no wrap (redis-shard)
        at = this.upperBound(h);
        return at === len ? this.firstOfRun(len - 1) : at;
      case 'lower_bound_below_last':
        // below the first point: the last point (Enyim)
        at = this.lowerBound(h);
        if (at === 0 && this.values[0] !== h) return this.firstOfRun(len - 1);
        return at === len ? 0 : at;
      default:
        throw new E.UnsupportedError(`bound ${p.bound}`);
    }
  },

  /** The server index for the prepared key K.b/K.n. */
  indexOfPrepared() {
    const p = this.profile;
    if (p.singleShortcut && this.n === 1) return 0;
    switch (p.layout) {
      case 'sorted':
      case 'wide':
      case 'wide64':
      case 'tie_runs':
        return this.ownerAt(this.position());
      case 'mixed':
        this.hash64Fn(K.b, K.n);
        return this.mixedBest(H64[0], H64[1], null);
      case 'scaled':
        return this.scaledLocate(this.hashFn(K.b, K.n));
      case 'buckets':
        if (this.values.length === 0) throw new E.NoServerError();
        return this.buckets[this.hashFn(K.b, K.n) % PECL_BUCKETS];
      case 'slots': {
        let at;
        if (p.oldCompat) {
          let h = oldCompat(K.b, K.n);
          if (h < 0n) h = -h;
          at = p.weighted ? slotOf(this.cumulative, h) : Number(h % BigInt(this.n));
        } else {
          return this.slotOfHash(this.hashFn(K.b, K.n));
        }
        if (at < 0) throw new E.NoServerError();
        return this.ordered[at];
      }
      case 'furc': {
        if (this.n > FURC_MAX_POOL) throw new E.TooManyServersError(`${this.n} servers`);
        if (!this.furcWeights) return furcHash(K.b, K.n, this.n);
        const i = weightedCh3(K.b, K.n, this.furcWeights);
        if (i < 0) throw new E.NoServerError();
        return i;
      }
      case 'jump':
        return jump(BigInt(this.hashFn(K.b, K.n)), this.n);
      case 'jump_xxh3':
        return jump(xxh3_64(K.b, K.n), this.n);
      case 'rendezvous':
        return this.rendezvousBest(this.hashFn(K.b, K.n), null);
      case 'scored':
        return this.scoredBest(null);
      case 'maglev':
        return this.maglev[this.hashFn(K.b, K.n) % MAGLEV_SIZE];
      default:
        throw new E.UnsupportedError(`layout ${p.layout}`);
    }
  },

  /** The server of a slots placement (not old_compat) for the 32-bit key hash `h`. */
  slotOfHash(h) {
    const p = this.profile;
    let at;
    if (p.placement === 'proportional') {
      at = proportional(h, this.n);
    } else {
      if (p.placement === 'java_abs_modulo') h = Math.abs(h | 0);
      if (p.high15) {
        h = (h >>> 16) & 0x7fff;
        if (h === 0) h = 1;
      }
      at = p.weighted ? slotOf(this.cumulative, h) : h % this.n;
    }
    if (at < 0 || at >= this.n) throw new E.NoServerError();
    return this.ordered[at];
  },

  /**
   * Cache::Memcached::Fast's compatible continuum: the key's 15-bit hash `h` becomes
   * `b = h % (u32)(W + 0.5)` (none when that is 0), the point
   * `(u32)(b / W * 4294967295.0 + 0.5) + 1` (wrapping), and goes to the first server point
   * >= it (the earliest of equal points), wrapping to the first.
   */
  scaledLocate(h) {
    const { points, owners, total } = this.scaled;
    const buckets = cToU32(total + 0.5);
    if (buckets === 0 || points.length === 0) throw new E.NoServerError();
    const point = (cToU32(((h % buckets) / total) * U32_MAX + 0.5) + 1) >>> 0;
    let lo = 0;
    let hi = points.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (points[mid] < point) lo = mid + 1;
      else hi = mid;
    }
    return owners[lo === points.length ? 0 : lo];
  },

  /** go-redis v9 rendezvous over the key's 64-bit hash kh:kl (placements.js `mixRendezvous`). */
  mixedBest(kh, kl, skip) {
    const best = mixRendezvous(kh, kl, this.nodeHi, this.nodeLo, skip);
    if (best < 0) throw new E.NoServerError();
    return best;
  },

  /** The server a key hash `h` is placed on, as the key's own hash is (rehash failover). */
  indexOfHash(h) {
    const p = this.profile;
    switch (p.layout) {
      case 'sorted':
      case 'tie_runs':
        return this.ownerAt(this.position(h));
      case 'buckets':
        if (this.values.length === 0) throw new E.NoServerError();
        return this.buckets[h % PECL_BUCKETS];
      case 'slots':
        if (p.oldCompat) break;
        return this.slotOfHash(h);
      case 'scaled':
        return this.scaledLocate(h);
      case 'jump':
        return jump(BigInt(h), this.n);
      case 'rendezvous':
        return this.rendezvousBest(h, null);
      case 'maglev':
        return this.maglev[h % MAGLEV_SIZE];
      default:
    }
    throw new E.NeedsKeyError(p.placement);
  },

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
      const len = node.length + K.n + 1;
      if (this.joined.length < len) this.joined = new Uint8Array(len + 64);
      const j = this.joined;
      let n;
      if (p.join === 'node_dash_key') {
        j.set(node, 0);
        j[node.length] = 0x2d;
        j.set(K.b.subarray(0, K.n), node.length + 1);
        n = len;
      } else {
        j.set(K.b.subarray(0, K.n), 0);
        j.set(node, K.n);
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
  },

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
  },
};

module.exports = { methods };
