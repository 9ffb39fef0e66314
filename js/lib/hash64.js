'use strict';
// The 64-bit key hashes: MurmurHash64A with Jedis's seed and XXH64 with seed 0 (go-redis).
// 64-bit words are pairs of unsigned 32-bit numbers (high, low): products through 16-bit
// halves (exact in doubles), carries by comparison; no BigInt and no allocation per hash.
// Each hash returns its high 32 bits; `low64()` then gives the low 32 bits of the same value.

/** The result of the last 64-bit operation: high and low words (unsigned). */
let oh = 0;
let ol = 0;

/** (ah:al * bh:bl) mod 2^64, into oh:ol. */
function mul64(ah, al, bh, bl) {
  const a0 = al & 0xffff;
  const a1 = al >>> 16;
  const b0 = bl & 0xffff;
  const b1 = bl >>> 16;
  const p00 = a0 * b0;
  const mid = a0 * b1 + a1 * b0 + (p00 >>> 16); // < 2^34: exact
  ol = (((mid & 0xffff) << 16) | (p00 & 0xffff)) >>> 0;
  oh = (a1 * b1 + Math.floor(mid / 65536) + Math.imul(ah, bl) + Math.imul(al, bh)) >>> 0;
}

/** ah:al + bh:bl mod 2^64, into oh:ol. */
function add64(ah, al, bh, bl) {
  const s = al + bl;
  ol = s >>> 0;
  oh = (ah + bh + (s >= 4294967296 ? 1 : 0)) >>> 0;
}

/** ah:al rotated left by r (0 < r < 32), into oh:ol. */
function rotl64(ah, al, r) {
  oh = ((ah << r) | (al >>> (32 - r))) >>> 0;
  ol = ((al << r) | (ah >>> (32 - r))) >>> 0;
}

function r32(b, at) {
  return (b[at] | (b[at + 1] << 8) | (b[at + 2] << 16) | (b[at + 3] << 24)) >>> 0;
}

/** The low 32 bits of the last 64-bit hash computed. */
function low64() {
  return ol;
}

/** Sets what `low64()` gives (a 32-bit hash as the low half of a 64-bit one). */
function setLow(lo) {
  ol = lo;
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
 * `h ^= h >> 47; h *= m; h ^= h >> 47`. Returns the high 32 bits (low: `low64()`).
 */
function murmur64a(b, n) {
  return murmur64aSeeded(b, n, JEDIS_SEED);
}

/** MurmurHash64A of `b[0..n)` with a seed below 2^32; as {@link murmur64a}. */
function murmur64aSeeded(b, n, seed) {
  mul64(0, n, MH, ML);
  let hh = oh;
  let hl = (ol ^ seed) >>> 0;
  let i = 0;
  for (; i + 8 <= n; i += 8) {
    mul64(r32(b, i + 4), r32(b, i), MH, ML);
    mul64(oh, (ol ^ (oh >>> 15)) >>> 0, MH, ML); // k ^= k >> 47; k *= m
    mul64((hh ^ oh) >>> 0, (hl ^ ol) >>> 0, MH, ML);
    hh = oh;
    hl = ol;
  }
  if (i < n) {
    let th = 0;
    let tl = 0;
    for (let j = n - 1; j >= i; j--) {
      th = (th << 8) | (tl >>> 24);
      tl = ((tl << 8) | b[j]) >>> 0;
    }
    mul64((hh ^ th) >>> 0, (hl ^ tl) >>> 0, MH, ML);
    hh = oh;
    hl = ol;
  }
  mul64(hh, (hl ^ (hh >>> 15)) >>> 0, MH, ML);
  ol = (ol ^ (oh >>> 15)) >>> 0;
  return oh;
}

// ----- XXH64 -----

const P1H = 0x9e3779b1, P1L = 0x85ebca87;
const P2H = 0xc2b2ae3d, P2L = 0x27d4eb4f;
const P3H = 0x165667b1, P3L = 0x9e3779f9;
const P4H = 0x85ebca77, P4L = 0xc2b2ae63;
const P5H = 0x27d4eb2f, P5L = 0x165667c5;

/** XXH64's round: acc = rotl(acc + input * P2, 31) * P1, into oh:ol. */
function round(ah, al, ih, il) {
  mul64(ih, il, P2H, P2L);
  add64(ah, al, oh, ol);
  rotl64(oh, ol, 31);
  mul64(oh, ol, P1H, P1L);
}

/** XXH64's merge of an accumulator into h: h = (h ^ round(0, acc)) * P1 + P4, into oh:ol. */
function merge(hh, hl, ah, al) {
  round(0, 0, ah, al);
  mul64((hh ^ oh) >>> 0, (hl ^ ol) >>> 0, P1H, P1L);
  add64(oh, ol, P4H, P4L);
}

/**
 * XXH64 of `b[0..n)` with seed 0 (go-redis's `xxhash.Sum64`). Returns the high 32 bits (low:
 * `low64()`).
 */
function xxh64(b, n) {
  let hh;
  let hl;
  let i = 0;
  if (n >= 32) {
    // seed 0: v1 = P1 + P2, v2 = P2, v3 = 0, v4 = -P1
    add64(P1H, P1L, P2H, P2L);
    let v1h = oh, v1l = ol;
    let v2h = P2H, v2l = P2L;
    let v3h = 0, v3l = 0;
    add64(~P1H >>> 0, ~P1L >>> 0, 0, 1);
    let v4h = oh, v4l = ol;
    for (; i + 32 <= n; i += 32) {
      round(v1h, v1l, r32(b, i + 4), r32(b, i));
      v1h = oh; v1l = ol;
      round(v2h, v2l, r32(b, i + 12), r32(b, i + 8));
      v2h = oh; v2l = ol;
      round(v3h, v3l, r32(b, i + 20), r32(b, i + 16));
      v3h = oh; v3l = ol;
      round(v4h, v4l, r32(b, i + 28), r32(b, i + 24));
      v4h = oh; v4l = ol;
    }
    rotl64(v1h, v1l, 1);
    hh = oh; hl = ol;
    rotl64(v2h, v2l, 7);
    add64(hh, hl, oh, ol);
    hh = oh; hl = ol;
    rotl64(v3h, v3l, 12);
    add64(hh, hl, oh, ol);
    hh = oh; hl = ol;
    rotl64(v4h, v4l, 18);
    add64(hh, hl, oh, ol);
    merge(oh, ol, v1h, v1l);
    merge(oh, ol, v2h, v2l);
    merge(oh, ol, v3h, v3l);
    merge(oh, ol, v4h, v4l);
    hh = oh; hl = ol;
  } else {
    hh = P5H;
    hl = P5L;
  }
  add64(hh, hl, 0, n);
  hh = oh; hl = ol;
  for (; i + 8 <= n; i += 8) {
    round(0, 0, r32(b, i + 4), r32(b, i));
    rotl64((hh ^ oh) >>> 0, (hl ^ ol) >>> 0, 27);
    mul64(oh, ol, P1H, P1L);
    add64(oh, ol, P4H, P4L);
    hh = oh; hl = ol;
  }
  if (i + 4 <= n) {
    mul64(0, r32(b, i), P1H, P1L);
    rotl64((hh ^ oh) >>> 0, (hl ^ ol) >>> 0, 23);
    mul64(oh, ol, P2H, P2L);
    add64(oh, ol, P3H, P3L);
    hh = oh; hl = ol;
    i += 4;
  }
  for (; i < n; i++) {
    mul64(0, b[i], P5H, P5L);
    rotl64((hh ^ oh) >>> 0, (hl ^ ol) >>> 0, 11);
    mul64(oh, ol, P1H, P1L);
    hh = oh; hl = ol;
  }
  // avalanche: h ^= h >> 33; h *= P2; h ^= h >> 29; h *= P3; h ^= h >> 32
  mul64(hh, (hl ^ (hh >>> 1)) >>> 0, P2H, P2L);
  mul64((oh ^ (oh >>> 29)) >>> 0, (ol ^ ((ol >>> 29) | (oh << 3))) >>> 0, P3H, P3L);
  ol = (ol ^ oh) >>> 0;
  return oh;
}

// ----- go-rendezvous's mix -----

/** go-rendezvous's `xorshiftMult64` multiplier 2685821657736338717 (high, low). */
const XMH = 0x2545f491;
const XML = 0x4f6cdd1d;

/**
 * go-rendezvous's `xorshiftMult64` of xh:xl: `x ^= x >> 12; x ^= x << 25; x ^= x >> 27;
 * x * 2685821657736338717` (mod 2^64). Returns the high 32 bits (low: `low64()`).
 */
function xorshiftMult(xh, xl) {
  xl = (xl ^ ((xl >>> 12) | (xh << 20))) >>> 0;
  xh = (xh ^ (xh >>> 12)) >>> 0;
  xh = (xh ^ ((xh << 25) | (xl >>> 7))) >>> 0;
  xl = (xl ^ (xl << 25)) >>> 0;
  xl = (xl ^ ((xl >>> 27) | (xh << 5))) >>> 0;
  xh = (xh ^ (xh >>> 27)) >>> 0;
  mul64(xh, xl, XMH, XML);
  return oh;
}

module.exports = { murmur64a, murmur64aSeeded, xxh64, xorshiftMult, low64, setLow };
