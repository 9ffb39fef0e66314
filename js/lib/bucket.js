'use strict';
// Bucket functions: a 64-bit input to a bucket in 0..buckets, as each reference library
// computes it (jump, Guava's consistentHash, hash4j's JumpBackHash, DataDog's FlipHash,
// go-maglev and go-mpchash with their node names). 64-bit arithmetic in BigInt.

const E = require('./errors');
const { jump, maglevTable } = require('./placements');

const M64 = (1n << 64n) - 1n;
const I32_MAX = 2147483647;
const MAGLEV_SIZE = 65537;
const MPCHASH_MAX = 1 << 16;

const NAMES = ['jump', 'guava', 'jumpback', 'fliphash', 'maglev-go', 'mpchash-go'];

function maxBuckets(name) {
  if (name === 'maglev-go') return MAGLEV_SIZE;
  if (name === 'mpchash-go') return MPCHASH_MAX;
  return I32_MAX;
}

/** A u64 input from a BigInt, a safe integer or a decimal string. */
function toU64(input) {
  let v;
  if (typeof input === 'bigint') v = input;
  else if (typeof input === 'number' && Number.isSafeInteger(input)) v = BigInt(input);
  else if (typeof input === 'string' && /^[0-9]+$/.test(input)) v = BigInt(input);
  else throw new TypeError('input must be a BigInt, a safe integer or a decimal string');
  if (v < 0n || v > M64) throw new TypeError('input must be in 0..2^64-1');
  return v;
}

function clz64(x) {
  let n = 0;
  for (let bit = 63n; bit >= 0n && ((x >> bit) & 1n) === 0n; bit--) n++;
  return n;
}

function ilog2(x) {
  return 63 - clz64(x);
}

/** Guava Hashing.consistentHash(long, int): Java's rounding and int wrap. */
function guava(input, buckets) {
  let state = input;
  let candidate = 0;
  for (;;) {
    state = (state * 2862933555777941757n + 1n) & M64;
    const top = (Number(state >> 33n) + 1) | 0;
    const step = top / 2147483648;
    const q = (candidate + 1) / step;
    // Java (int) of a double: NaN 0, saturating at the int range
    const next = Number.isNaN(q) ? 0 : q >= 2147483647 ? 2147483647 : q <= -2147483648 ? -2147483648 : Math.trunc(q);
    if (next >= 0 && next < buckets) candidate = next;
    else return candidate;
  }
}

/** hash4j SplitMix64V1: add the golden gamma, then mix. */
class SplitMix64 {
  constructor(seed) {
    this.state = seed;
  }

  next() {
    this.state = (this.state + 0x9e3779b97f4a7c15n) & M64;
    let z = this.state;
    z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & M64;
    z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & M64;
    return z ^ (z >> 31n);
  }
}

function popcount32(x) {
  let c = 0;
  for (; x; x &= x - 1) c++;
  return c;
}

/** hash4j ConsistentHashing.jumpBackHash(splitMix64_V1()). */
function jumpback(input, buckets) {
  if (buckets <= 1) return 0;
  const rng = new SplitMix64(input);
  const r0 = rng.next();
  let active = (Number((r0 ^ (r0 >> 32n)) & 0xffffffffn) & (0xffffffff >>> Math.clz32(buckets - 1))) >>> 0;
  while (active !== 0) {
    const rangeMin = 2 ** (31 - Math.clz32(active));
    const shift = BigInt((popcount32(active) << 5) & 63);
    const candidate = rangeMin + (Number((r0 >> shift) & 0xffffffffn) & (rangeMin - 1));
    if (candidate < buckets) return candidate;
    const rangeMax = rangeMin * 2 - 1;
    draws: for (;;) {
      const r1 = rng.next();
      for (const half of [Number(r1 & 0xffffffffn), Number(r1 >> 32n)]) {
        const c = (half & rangeMax) >>> 0;
        if (c < rangeMin) break draws;
        if (c < buckets) return c;
      }
    }
    active = (active ^ rangeMin) >>> 0;
  }
  return 0;
}

function flipMix(key, bitLen, draw) {
  let k = (key * BigInt(bitLen * 2 + 1)) & M64;
  k = ((k ^ (k >> 27n)) * 0x3c79ac492ba7b653n) & M64;
  k = (k * BigInt(draw * 2 + 1)) & M64;
  k = ((k ^ (k >> 33n)) * 0x1c69b3f74ac4ae35n) & M64;
  return k ^ (k >> 27n);
}

function withinPow2(key, hash, mask) {
  const masked = hash & mask;
  if (masked === 0n) return 0n;
  const level = ilog2(masked);
  const flipper = flipMix(key, level, 0) & ((1n << BigInt(level)) - 1n);
  return masked ^ flipper;
}

/** DataDog fliphash_64(input, ..=buckets-1), seed 0. */
function fliphash(input, buckets) {
  const end = BigInt(buckets - 1);
  if (end === 0n) return 0;
  const mask = M64 >> BigInt(clz64(end));
  const hash = flipMix(input, 0, 0);
  const first = withinPow2(input, hash, mask);
  if (first <= end) return Number(first);
  const level = ilog2(end);
  for (let draw = 1; draw <= 64; draw++) {
    const candidate = flipMix(input, level, draw) & mask;
    if (candidate <= mask >> 1n) break;
    if (candidate <= end) return Number(candidate);
  }
  return Number(withinPow2(input, hash, mask >> 1n));
}

// ----- SipHash-2-4 (go-maglev and go-mpchash hash names and keys with it) -----

const rotl64 = (x, r) => ((x << BigInt(r)) | (x >> BigInt(64 - r))) & M64;

function sipRound(v) {
  v[0] = (v[0] + v[1]) & M64;
  v[1] = rotl64(v[1], 13) ^ v[0];
  v[0] = rotl64(v[0], 32);
  v[2] = (v[2] + v[3]) & M64;
  v[3] = rotl64(v[3], 16) ^ v[2];
  v[0] = (v[0] + v[3]) & M64;
  v[3] = rotl64(v[3], 21) ^ v[0];
  v[2] = (v[2] + v[1]) & M64;
  v[1] = rotl64(v[1], 17) ^ v[2];
  v[2] = rotl64(v[2], 32);
}

/** SipHash-2-4 of `data` (bytes) under the key (k0, k1), as a BigInt. */
function siphash24(k0, k1, data) {
  const v = [k0 ^ 0x736f6d6570736575n, k1 ^ 0x646f72616e646f6dn, k0 ^ 0x6c7967656e657261n, k1 ^ 0x7465646279746573n];
  const absorb = (w) => {
    v[3] ^= w;
    sipRound(v);
    sipRound(v);
    v[0] ^= w;
  };
  const n = data.length;
  let at = 0;
  for (; at + 8 <= n; at += 8) {
    let w = 0n;
    for (let i = 7; i >= 0; i--) w = (w << 8n) | BigInt(data[at + i]);
    absorb(w);
  }
  let last = BigInt(n & 0xff) << 56n;
  for (let i = 0; at + i < n; i++) last |= BigInt(data[at + i]) << BigInt(8 * i);
  absorb(last);
  v[2] ^= 0xffn;
  for (let i = 0; i < 4; i++) sipRound(v);
  return v[0] ^ v[1] ^ v[2] ^ v[3];
}

const ascii = (s) => Buffer.from(s, 'latin1');

/** go-maglev New([backend-0..backend-(N-1)], 65537): the lookup table. */
function maglevGoTable(buckets) {
  const seeds = [];
  for (let i = 0; i < buckets; i++) seeds.push(siphash24(0xdeadbeefcafebaben, 0n, ascii(`backend-${i}`)));
  return maglevTable(seeds);
}

/** go-mpchash New([shard-1..shard-N], seeds {1,2}, 21 probes): the sorted circle. */
function mpcCircle(buckets) {
  const pts = [];
  for (let i = 0; i < buckets; i++) pts.push([siphash24(0n, 0n, ascii(`shard-${i + 1}`)), i]);
  pts.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] - b[1]));
  // equal hashes: the last name (highest index) stays
  const out = [];
  for (const p of pts) {
    if (out.length && out[out.length - 1][0] === p[0]) out[out.length - 1] = p;
    else out.push(p);
  }
  return out;
}

function mpcLookup(circle, input) {
  const key = ascii(input.toString());
  const h1 = siphash24(1n, 0n, key);
  const h2 = siphash24(2n, 0n, key);
  const successor = (h) => {
    let lo = 0;
    let hi = circle.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (circle[mid][0] <= h) lo = mid + 1;
      else hi = mid;
    }
    return (lo < circle.length ? circle[lo] : circle[0])[0];
  };
  let bestDistance = M64;
  let best = 0n;
  for (let i = 0n; i < 21n; i++) {
    const probe = (h1 + i * h2) & M64;
    const node = successor(probe);
    const distance = (node - probe) & M64;
    if (distance < bestDistance) {
      bestDistance = distance;
      best = node;
    }
  }
  const hit = circle.find((p) => p[0] === best);
  if (!hit) throw new E.NoBucketError(`mpchash-go, input ${input}`);
  return hit[1];
}

/** A bucket function fixed to one bucket count, its table built once. */
class Bucketer {
  /**
   * @param {string} algorithm jump, guava, jumpback, fliphash, maglev-go or mpchash-go
   * @param {number} buckets 1 ..= the function's limit
   */
  constructor(algorithm, buckets) {
    if (!NAMES.includes(algorithm)) throw new E.UnknownAlgorithmError(`'${String(algorithm)}'`);
    if (!Number.isInteger(buckets) || buckets < 1) throw new E.ZeroBucketsError(`${String(buckets)} buckets`);
    if (buckets > maxBuckets(algorithm)) throw new E.TooManyBucketsError(`${buckets} buckets for ${algorithm}`);
    this.algorithm = algorithm;
    this.buckets = buckets;
    if (algorithm === 'maglev-go') this.table = maglevGoTable(buckets);
    if (algorithm === 'mpchash-go') this.circle = mpcCircle(buckets);
  }

  /**
   * The bucket of a 64-bit input (BigInt, safe integer or decimal string).
   * @param {bigint|number|string} input
   * @returns {number}
   */
  get(input) {
    const x = toU64(input);
    switch (this.algorithm) {
      case 'jump':
        return jump(x, this.buckets);
      case 'guava':
        return guava(x, this.buckets);
      case 'jumpback':
        return jumpback(x, this.buckets);
      case 'fliphash':
        return fliphash(x, this.buckets);
      case 'maglev-go':
        return this.table[Number(x % BigInt(this.table.length))];
      default:
        return mpcLookup(this.circle, x);
    }
  }
}

/**
 * The bucket of `input` in 0..buckets under `algorithm` (maglev-go and mpchash-go build their
 * table on every call: use a Bucketer for many inputs).
 */
function bucket(algorithm, input, buckets) {
  return new Bucketer(algorithm, buckets).get(input);
}

module.exports = { bucket, Bucketer, siphash24, BUCKET_ALGORITHMS: NAMES };
