'use strict';
// MurmurHash3_x64_128 (seed 0) and the 32-bit value emcache derives from it. 64-bit
// arithmetic in BigInt, masked after every step.

const M = (1n << 64n) - 1n;
const C1 = 0x87c37b91114253d5n;
const C2 = 0x4cf5ad432745937fn;

function rotl(x, k) {
  return ((x << k) | (x >> (64n - k))) & M;
}

function fmix(k) {
  k ^= k >> 33n;
  k = (k * 0xff51afd7ed558ccdn) & M;
  k ^= k >> 33n;
  k = (k * 0xc4ceb9fe1a85ec53n) & M;
  return k ^ (k >> 33n);
}

/** Little-endian word of `b[at..end)` (at most 8 bytes). */
function word(b, at, end) {
  let w = 0n;
  for (let i = end - 1; i >= at; i--) w = (w << 8n) | BigInt(b[i]);
  return w;
}

/**
 * MurmurHash3_x64_128 of `b[0..n)`, seed 0: [h1, h2] as BigInts (the 16 output bytes are h1
 * then h2, each little-endian).
 */
function murmur3x64(b, n) {
  let h1 = 0n;
  let h2 = 0n;
  const blocks = n - (n % 16);
  for (let i = 0; i < blocks; i += 16) {
    const k1 = (rotl((word(b, i, i + 8) * C1) & M, 31n) * C2) & M;
    h1 = ((rotl(h1 ^ k1, 27n) + h2) * 5n + 0x52dce729n) & M;
    const k2 = (rotl((word(b, i + 8, i + 16) * C2) & M, 33n) * C1) & M;
    h2 = ((rotl(h2 ^ k2, 31n) + h1) * 5n + 0x38495ab5n) & M;
  }
  const tail = n - blocks;
  if (tail > 8) h2 ^= (rotl((word(b, blocks + 8, n) * C2) & M, 33n) * C1) & M;
  if (tail > 0) h1 ^= (rotl((word(b, blocks, blocks + Math.min(tail, 8)) * C1) & M, 31n) * C2) & M;
  const len = BigInt(n);
  h1 ^= len;
  h2 ^= len;
  h1 = (h1 + h2) & M;
  h2 = (h2 + h1) & M;
  h1 = fmix(h1);
  h2 = fmix(h2);
  h1 = (h1 + h2) & M;
  h2 = (h2 + h1) & M;
  return [h1, h2];
}

/**
 * emcache's `_hash`: output bytes 0..3 of MurmurHash3_x64_128 read as signed chars, byte i
 * masked with `0xFFFFFFFF << 8i` (C's `<<` binds tighter than `&`), or-ed: a byte >= 0x80 sets
 * every bit from its position up, a byte < 0x80 at positions 1..3 adds nothing.
 */
function emcache(b, n) {
  const h1 = murmur3x64(b, n)[0];
  let v = 0;
  for (let i = 0; i < 4; i++) {
    const byte = Number((h1 >> BigInt(8 * i)) & 0xffn);
    const sx = (byte << 24) >> 24; // sign-extended
    v |= sx & (0xffffffff << (8 * i));
  }
  return v >>> 0;
}

module.exports = { murmur3x64, emcache };
