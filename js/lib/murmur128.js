'use strict';
// MurmurHash3_x64_128 (seed 0) and the 32-bit value emcache derives from it. 64-bit words are
// kept as two uint32 halves (hi, lo); the helpers leave their result in R[0] (high) and R[1]
// (low): a typed array, where storing a 32-bit number allocates nothing (a module variable
// holding one above 2^30 would box it).

const R = new Uint32Array(2);

/** (ah:al) * (bh:bl) mod 2^64. */
function mul(ah, al, bh, bl) {
  const a0 = al & 0xffff;
  const a1 = al >>> 16;
  const b0 = bl & 0xffff;
  const b1 = bl >>> 16;
  const p00 = a0 * b0;
  const p01 = a0 * b1;
  const p10 = a1 * b0;
  const mid = (p00 >>> 16) + (p01 & 0xffff) + (p10 & 0xffff);
  R[1] = (((mid & 0xffff) << 16) | (p00 & 0xffff)) >>> 0;
  const carry = a1 * b1 + (p01 >>> 16) + (p10 >>> 16) + (mid >>> 16);
  R[0] = (carry + Math.imul(al, bh) + Math.imul(ah, bl)) >>> 0;
}

/** (h:l) rotated left by k (0 < k < 64). */
function rotl(h, l, k) {
  if (k >= 32) {
    const t = h;
    h = l;
    l = t;
    k -= 32;
  }
  if (k === 0) {
    R[0] = h >>> 0;
    R[1] = l >>> 0;
    return;
  }
  R[0] = ((h << k) | (l >>> (32 - k))) >>> 0;
  R[1] = ((l << k) | (h >>> (32 - k))) >>> 0;
}

/** (ah:al) + (bh:bl) mod 2^64. */
function add(ah, al, bh, bl) {
  const lo = al + bl;
  R[1] = lo >>> 0;
  R[0] = (ah + bh + (lo > 0xffffffff ? 1 : 0)) >>> 0;
}

const C1H = 0x87c37b91;
const C1L = 0x114253d5;
const C2H = 0x4cf5ad43;
const C2L = 0x2745937f;

/** fmix64 of (h:l). */
function fmix(h, l) {
  l = (l ^ (h >>> 1)) >>> 0; // k ^= k >> 33
  mul(h, l, 0xff51afd7, 0xed558ccd);
  h = R[0];
  l = (R[1] ^ (R[0] >>> 1)) >>> 0;
  mul(h, l, 0xc4ceb9fe, 0x1a85ec53);
  R[1] = (R[1] ^ (R[0] >>> 1)) >>> 0;
}

/** Little-endian 32-bit word of b[at..end) (at most 4 bytes, zero padded). */
function le32(b, at, end) {
  let w = 0;
  for (let i = Math.min(end, at + 4) - 1; i >= at; i--) w = (w << 8) | b[i];
  return w >>> 0;
}

/** k1 = rotl(k * C1, 31) * C2 (mode 1) or rotl(k * C2, 33) * C1 (mode 2). */
function scramble(kh, kl, first) {
  if (first) {
    mul(kh, kl, C1H, C1L);
    rotl(R[0], R[1], 31);
    mul(R[0], R[1], C2H, C2L);
  } else {
    mul(kh, kl, C2H, C2L);
    rotl(R[0], R[1], 33);
    mul(R[0], R[1], C1H, C1L);
  }
}

/**
 * MurmurHash3_x64_128 of `b[0..n)`, seed 0: [h1hi, h1lo, h2hi, h2lo] as uint32s (the 16
 * output bytes are h1 then h2, each little-endian).
 */
function murmur3x64(b, n) {
  let h1h = 0;
  let h1l = 0;
  let h2h = 0;
  let h2l = 0;
  const blocks = n - (n % 16);
  for (let i = 0; i < blocks; i += 16) {
    scramble(le32(b, i + 4, n), le32(b, i, n), true);
    h1h = (h1h ^ R[0]) >>> 0;
    h1l = (h1l ^ R[1]) >>> 0;
    rotl(h1h, h1l, 27);
    add(R[0], R[1], h2h, h2l);
    mul(R[0], R[1], 0, 5);
    add(R[0], R[1], 0, 0x52dce729);
    h1h = R[0];
    h1l = R[1];
    scramble(le32(b, i + 12, n), le32(b, i + 8, n), false);
    h2h = (h2h ^ R[0]) >>> 0;
    h2l = (h2l ^ R[1]) >>> 0;
    rotl(h2h, h2l, 31);
    add(R[0], R[1], h1h, h1l);
    mul(R[0], R[1], 0, 5);
    add(R[0], R[1], 0, 0x38495ab5);
    h2h = R[0];
    h2l = R[1];
  }
  const tail = n - blocks;
  if (tail > 8) {
    const t = blocks + 8;
    scramble(tail > 12 ? le32(b, t + 4, n) : 0, le32(b, t, n), false);
    h2h = (h2h ^ R[0]) >>> 0;
    h2l = (h2l ^ R[1]) >>> 0;
  }
  if (tail > 0) {
    const end = blocks + Math.min(tail, 8);
    scramble(tail > 4 ? le32(b, blocks + 4, end) : 0, le32(b, blocks, end), true);
    h1h = (h1h ^ R[0]) >>> 0;
    h1l = (h1l ^ R[1]) >>> 0;
  }
  h1l = (h1l ^ n) >>> 0;
  h2l = (h2l ^ n) >>> 0;
  add(h1h, h1l, h2h, h2l);
  h1h = R[0];
  h1l = R[1];
  add(h2h, h2l, h1h, h1l);
  h2h = R[0];
  h2l = R[1];
  fmix(h1h, h1l);
  h1h = R[0];
  h1l = R[1];
  fmix(h2h, h2l);
  h2h = R[0];
  h2l = R[1];
  add(h1h, h1l, h2h, h2l);
  h1h = R[0];
  h1l = R[1];
  add(h2h, h2l, h1h, h1l);
  return [h1h, h1l, R[0], R[1]];
}

/**
 * emcache's `_hash`: output bytes 0..3 of MurmurHash3_x64_128 read as signed chars, byte i
 * masked with `0xFFFFFFFF << 8i` (C's `<<` binds tighter than `&`), or-ed: a byte >= 0x80 sets
 * every bit from its position up, a byte < 0x80 at positions 1..3 adds nothing.
 */
function emcache(b, n) {
  const low = murmur3x64(b, n)[1];
  let v = 0;
  for (let i = 0; i < 4; i++) {
    const sx = ((low >>> (8 * i)) << 24) >> 24; // byte i, sign-extended
    v |= sx & (0xffffffff << (8 * i));
  }
  return v >>> 0;
}

module.exports = { murmur3x64, emcache };
