'use strict';
// The 64-bit key hashes: MurmurHash64A with Jedis's seed and XXH64 with seed 0 (go-redis).
// 64-bit words are pairs of unsigned 32-bit numbers (high, low): products through 16-bit
// halves (exact in doubles), carries by comparison; no BigInt and no allocation per hash.
// Each hash leaves its value in `H64` (high word, low word) and returns the high word.

/**
 * The result of the last 64-bit operation: high and low words. A typed array: storing a
 * 32-bit number there, or reading it in the caller, boxes nothing (a module variable or a
 * return value above 2^30 would be a heap number).
 */
const O = new Uint32Array(2);

/** (ah:al * bh:bl) mod 2^64, into O[0]:O[1]: al * bl through 16-bit halves (every partial sum
 * below 2^32), the cross products' low words added to the high word. */
function mul64(ah, al, bh, bl) {
  const a0 = al & 0xffff;
  const a1 = al >>> 16;
  const b0 = bl & 0xffff;
  const b1 = bl >>> 16;
  const p00 = a0 * b0;
  const m1 = a1 * b0 + (p00 >>> 16);
  const m2 = a0 * b1 + (m1 & 0xffff);
  O[1] = ((m2 << 16) | (p00 & 0xffff)) >>> 0;
  O[0] = (a1 * b1 + (m1 >>> 16) + (m2 >>> 16) + Math.imul(ah, bl) + Math.imul(al, bh)) >>> 0;
}

/** ah:al + bh:bl mod 2^64, into O[0]:O[1]. */
function add64(ah, al, bh, bl) {
  const s = al + bl;
  O[1] = s >>> 0;
  O[0] = (ah + bh + (s >= 4294967296 ? 1 : 0)) >>> 0;
}

/** ah:al rotated left by r (0 < r < 32), into O[0]:O[1]. */
function rotl64(ah, al, r) {
  O[0] = ((ah << r) | (al >>> (32 - r))) >>> 0;
  O[1] = ((al << r) | (ah >>> (32 - r))) >>> 0;
}

function r32(b, at) {
  return (b[at] | (b[at + 1] << 8) | (b[at + 2] << 16) | (b[at + 3] << 24)) >>> 0;
}


// ----- MurmurHash64A -----

/** MurmurHash64A's multiplier 0xc6a4a7935bd1e995 (high, low). */
const MH = 0xc6a4a793;
const ML = 0x5bd1e995;
/** Jedis's seed (`Hashing.MURMUR_HASH`). */
const JEDIS_SEED = 0x1234abcd;

/**
 * MurmurHash64A of `b[0..n)` with Jedis's seed 0x1234ABCD: `h = seed ^ (n * m)`, 8-byte
 * little-endian blocks, the 1..7 tail bytes as one zero-padded little-endian word, then
 * `h ^= h >> 47; h *= m; h ^= h >> 47`. Returns the high 32 bits; the value is in `H64`.
 */
function murmur64a(b, n) {
  return murmur64aSeeded(b, n, JEDIS_SEED);
}

/** MurmurHash64A of `b[0..n)` with a seed below 2^32; as {@link murmur64a}. */
function murmur64aSeeded(b, n, seed) {
  mul64(0, n, MH, ML);
  let hh = O[0];
  let hl = (O[1] ^ seed) >>> 0;
  let i = 0;
  for (; i + 8 <= n; i += 8) {
    mul64(r32(b, i + 4), r32(b, i), MH, ML);
    mul64(O[0], (O[1] ^ (O[0] >>> 15)) >>> 0, MH, ML); // k ^= k >> 47; k *= m
    mul64((hh ^ O[0]) >>> 0, (hl ^ O[1]) >>> 0, MH, ML);
    hh = O[0];
    hl = O[1];
  }
  if (i < n) {
    let th = 0;
    let tl = 0;
    for (let j = n - 1; j >= i; j--) {
      th = (th << 8) | (tl >>> 24);
      tl = ((tl << 8) | b[j]) >>> 0;
    }
    mul64((hh ^ th) >>> 0, (hl ^ tl) >>> 0, MH, ML);
    hh = O[0];
    hl = O[1];
  }
  mul64(hh, (hl ^ (hh >>> 15)) >>> 0, MH, ML);
  O[1] = (O[1] ^ (O[0] >>> 15)) >>> 0;
  return O[0];
}

// ----- XXH64 -----

const P1H = 0x9e3779b1, P1L = 0x85ebca87;
const P2H = 0xc2b2ae3d, P2L = 0x27d4eb4f;
const P3H = 0x165667b1, P3L = 0x9e3779f9;
const P4H = 0x85ebca77, P4L = 0xc2b2ae63;
const P5H = 0x27d4eb2f, P5L = 0x165667c5;

/** XXH64's round: acc = rotl(acc + input * P2, 31) * P1, into O[0]:O[1]. */
function round(ah, al, ih, il) {
  mul64(ih, il, P2H, P2L);
  add64(ah, al, O[0], O[1]);
  rotl64(O[0], O[1], 31);
  mul64(O[0], O[1], P1H, P1L);
}

/** XXH64's merge of an accumulator into h: h = (h ^ round(0, acc)) * P1 + P4, into O[0]:O[1]. */
function merge(hh, hl, ah, al) {
  round(0, 0, ah, al);
  mul64((hh ^ O[0]) >>> 0, (hl ^ O[1]) >>> 0, P1H, P1L);
  add64(O[0], O[1], P4H, P4L);
}

/**
 * XXH64 of `b[0..n)` with seed 0 (go-redis's `xxhash.Sum64`). Returns the high 32 bits; the
 * value is in `H64`.
 */
function xxh64(b, n) {
  let hh;
  let hl;
  let i = 0;
  if (n >= 32) {
    // seed 0: v1 = P1 + P2, v2 = P2, v3 = 0, v4 = -P1
    add64(P1H, P1L, P2H, P2L);
    let v1h = O[0], v1l = O[1];
    let v2h = P2H, v2l = P2L;
    let v3h = 0, v3l = 0;
    add64(~P1H >>> 0, ~P1L >>> 0, 0, 1);
    let v4h = O[0], v4l = O[1];
    for (; i + 32 <= n; i += 32) {
      round(v1h, v1l, r32(b, i + 4), r32(b, i));
      v1h = O[0]; v1l = O[1];
      round(v2h, v2l, r32(b, i + 12), r32(b, i + 8));
      v2h = O[0]; v2l = O[1];
      round(v3h, v3l, r32(b, i + 20), r32(b, i + 16));
      v3h = O[0]; v3l = O[1];
      round(v4h, v4l, r32(b, i + 28), r32(b, i + 24));
      v4h = O[0]; v4l = O[1];
    }
    rotl64(v1h, v1l, 1);
    hh = O[0]; hl = O[1];
    rotl64(v2h, v2l, 7);
    add64(hh, hl, O[0], O[1]);
    hh = O[0]; hl = O[1];
    rotl64(v3h, v3l, 12);
    add64(hh, hl, O[0], O[1]);
    hh = O[0]; hl = O[1];
    rotl64(v4h, v4l, 18);
    add64(hh, hl, O[0], O[1]);
    merge(O[0], O[1], v1h, v1l);
    merge(O[0], O[1], v2h, v2l);
    merge(O[0], O[1], v3h, v3l);
    merge(O[0], O[1], v4h, v4l);
    hh = O[0]; hl = O[1];
  } else {
    hh = P5H;
    hl = P5L;
  }
  add64(hh, hl, 0, n);
  hh = O[0]; hl = O[1];
  for (; i + 8 <= n; i += 8) {
    round(0, 0, r32(b, i + 4), r32(b, i));
    rotl64((hh ^ O[0]) >>> 0, (hl ^ O[1]) >>> 0, 27);
    mul64(O[0], O[1], P1H, P1L);
    add64(O[0], O[1], P4H, P4L);
    hh = O[0]; hl = O[1];
  }
  if (i + 4 <= n) {
    mul64(0, r32(b, i), P1H, P1L);
    rotl64((hh ^ O[0]) >>> 0, (hl ^ O[1]) >>> 0, 23);
    mul64(O[0], O[1], P2H, P2L);
    add64(O[0], O[1], P3H, P3L);
    hh = O[0]; hl = O[1];
    i += 4;
  }
  for (; i < n; i++) {
    mul64(0, b[i], P5H, P5L);
    rotl64((hh ^ O[0]) >>> 0, (hl ^ O[1]) >>> 0, 11);
    mul64(O[0], O[1], P1H, P1L);
    hh = O[0]; hl = O[1];
  }
  // avalanche: h ^= h >> 33; h *= P2; h ^= h >> 29; h *= P3; h ^= h >> 32
  mul64(hh, (hl ^ (hh >>> 1)) >>> 0, P2H, P2L);
  mul64((O[0] ^ (O[0] >>> 29)) >>> 0, (O[1] ^ ((O[1] >>> 29) | (O[0] << 3))) >>> 0, P3H, P3L);
  O[1] = (O[1] ^ O[0]) >>> 0;
  return O[0];
}

/** The last 64-bit hash: [high word, low word]. */
const H64 = O;

module.exports = { murmur64a, murmur64aSeeded, xxh64, H64 };
