'use strict';
// The placements that are not a continuum, as pure functions: rendezvous scores, jump
// consistent hash, the Maglev table, the weighted modula slot, and go-redis's mixed
// rendezvous.

/** Maglev table size. */
const MAGLEV_SIZE = 65537;
const U32_MAX = 4294967295;

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

/** go-rendezvous's `xorshiftMult64` multiplier 2685821657736338717 (high, low; low's halves). */
const XM_HI = 0x2545f491;
const XM_LO = 0x4f6cdd1d;
const XM_L0 = XM_LO & 0xffff;
const XM_L1 = XM_LO >>> 16;

/**
 * go-redis v9's rendezvous (dgryski/go-rendezvous): the server, not in `skip` (null: none),
 * whose score `xorshiftMult64(key ^ node)` is the greatest, unsigned 64-bit; an equal score
 * keeps the earlier server; -1 when every server is skipped. The key's 64-bit hash is kh:kl,
 * each node's nodeHi[i]:nodeLo[i]. `xorshiftMult64(x)`: `x ^= x >> 12; x ^= x << 25;
 * x ^= x >> 27; x * 2685821657736338717` mod 2^64, in 32-bit halves (the product's low word
 * through 16-bit halves, each partial sum below 2^32), written out in the loop: it runs once
 * per server per lookup.
 */
function mixRendezvous(kh, kl, nodeHi, nodeLo, skip) {
  let best = -1;
  let bh = 0;
  let bl = 0;
  for (let i = 0; i < nodeHi.length; i++) {
    if (skip !== null && skip.includes(i)) continue;
    let xh = kh ^ nodeHi[i];
    let xl = kl ^ nodeLo[i];
    xl ^= (xl >>> 12) | (xh << 20);
    xh ^= xh >>> 12;
    xh ^= (xh << 25) | (xl >>> 7);
    xl ^= xl << 25;
    xl ^= (xl >>> 27) | (xh << 5);
    xh ^= xh >>> 27;
    const a0 = xl & 0xffff;
    const a1 = xl >>> 16;
    const p00 = a0 * XM_L0;
    const m1 = a1 * XM_L0 + (p00 >>> 16);
    const m2 = a0 * XM_L1 + (m1 & 0xffff);
    const sl = ((m2 << 16) | (p00 & 0xffff)) >>> 0;
    const sh = (a1 * XM_L1 + (m1 >>> 16) + (m2 >>> 16) + Math.imul(xh, XM_LO) + Math.imul(xl, XM_HI)) >>> 0;
    if (best < 0 || sh > bh || (sh === bh && sl > bl)) {
      best = i;
      bh = sh;
      bl = sl;
    }
  }
  return best;
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

module.exports = { MAGLEV_SIZE, score, jump, maglevTable, slotOf, mixRendezvous };
