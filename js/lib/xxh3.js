'use strict';
// XXH3 64-bit with seed 0 and the default secret (memcached's proxy hashes keys and ring
// points with it): the short paths (0..16, 17..128, 129..240 bytes) and the striped long path.
// 64-bit arithmetic in BigInt, masked to 64 bits after every step.

const M = (1n << 64n) - 1n;
const M32 = 0xffffffffn;

/** The 192-byte default secret of the XXH3 specification. */
const SECRET = Uint8Array.from([
  0xb8, 0xfe, 0x6c, 0x39, 0x23, 0xa4, 0x4b, 0xbe, 0x7c, 0x01, 0x81, 0x2c, 0xf7, 0x21, 0xad, 0x1c,
  0xde, 0xd4, 0x6d, 0xe9, 0x83, 0x90, 0x97, 0xdb, 0x72, 0x40, 0xa4, 0xa4, 0xb7, 0xb3, 0x67, 0x1f,
  0xcb, 0x79, 0xe6, 0x4e, 0xcc, 0xc0, 0xe5, 0x78, 0x82, 0x5a, 0xd0, 0x7d, 0xcc, 0xff, 0x72, 0x21,
  0xb8, 0x08, 0x46, 0x74, 0xf7, 0x43, 0x24, 0x8e, 0xe0, 0x35, 0x90, 0xe6, 0x81, 0x3a, 0x26, 0x4c,
  0x3c, 0x28, 0x52, 0xbb, 0x91, 0xc3, 0x00, 0xcb, 0x88, 0xd0, 0x65, 0x8b, 0x1b, 0x53, 0x2e, 0xa3,
  0x71, 0x64, 0x48, 0x97, 0xa2, 0x0d, 0xf9, 0x4e, 0x38, 0x19, 0xef, 0x46, 0xa9, 0xde, 0xac, 0xd8,
  0xa8, 0xfa, 0x76, 0x3f, 0xe3, 0x9c, 0x34, 0x3f, 0xf9, 0xdc, 0xbb, 0xc7, 0xc7, 0x0b, 0x4f, 0x1d,
  0x8a, 0x51, 0xe0, 0x4b, 0xcd, 0xb4, 0x59, 0x31, 0xc8, 0x9f, 0x7e, 0xc9, 0xd9, 0x78, 0x73, 0x64,
  0xea, 0xc5, 0xac, 0x83, 0x34, 0xd3, 0xeb, 0xc3, 0xc5, 0x81, 0xa0, 0xff, 0xfa, 0x13, 0x63, 0xeb,
  0x17, 0x0d, 0xdd, 0x51, 0xb7, 0xf0, 0xda, 0x49, 0xd3, 0x16, 0x55, 0x26, 0x29, 0xd4, 0x68, 0x9e,
  0x2b, 0x16, 0xbe, 0x58, 0x7d, 0x47, 0xa1, 0xfc, 0x8f, 0xf8, 0xb8, 0xd1, 0x7a, 0xd0, 0x31, 0xce,
  0x45, 0xcb, 0x3a, 0x8f, 0x95, 0x16, 0x04, 0x28, 0xaf, 0xd7, 0xfb, 0xca, 0xbb, 0x4b, 0x40, 0x7e,
]);

const P32_1 = 0x9e3779b1n;
const P32_2 = 0x85ebca77n;
const P32_3 = 0xc2b2ae3dn;
const P64_1 = 0x9e3779b185ebca87n;
const P64_2 = 0xc2b2ae3d27d4eb4fn;
const P64_3 = 0x165667b19e3779f9n;
const P64_4 = 0x85ebca77c2b2ae63n;
const P64_5 = 0x27d4eb2f165667c5n;

function r32(b, at) {
  return BigInt((b[at] | (b[at + 1] << 8) | (b[at + 2] << 16) | (b[at + 3] << 24)) >>> 0);
}

function r64(b, at) {
  return r32(b, at) | (r32(b, at + 4) << 32n);
}

function rotl(x, k) {
  return ((x << k) | (x >> (64n - k))) & M;
}

function bswap64(x) {
  let r = 0n;
  for (let i = 0n; i < 64n; i += 8n) r = (r << 8n) | ((x >> i) & 0xffn);
  return r;
}

/** The low and high halves of the 128-bit product, xored. */
function fold(a, b) {
  const p = a * b;
  return (p & M) ^ (p >> 64n);
}

function avalanche(h) {
  h ^= h >> 37n;
  h = (h * 0x165667919e3779f9n) & M;
  return h ^ (h >> 32n);
}

function xxh64Avalanche(h) {
  h ^= h >> 33n;
  h = (h * P64_2) & M;
  h ^= h >> 29n;
  h = (h * P64_3) & M;
  return h ^ (h >> 32n);
}

function mix16(b, at, s) {
  return fold(r64(b, at) ^ r64(SECRET, s), r64(b, at + 8) ^ r64(SECRET, s + 8));
}

function short(b, n) {
  const len = BigInt(n);
  if (n > 8) {
    const lo = r64(b, 0) ^ (r64(SECRET, 24) ^ r64(SECRET, 32));
    const hi = r64(b, n - 8) ^ (r64(SECRET, 40) ^ r64(SECRET, 48));
    return avalanche((len + bswap64(lo) + hi + fold(lo, hi)) & M);
  }
  if (n >= 4) {
    const x = (r32(b, n - 4) + (r32(b, 0) << 32n)) ^ (r64(SECRET, 8) ^ r64(SECRET, 16));
    let v = x ^ rotl(x, 49n) ^ rotl(x, 24n);
    v = (v * 0x9fb21c651e98df25n) & M;
    v ^= (v >> 35n) + len;
    v = (v * 0x9fb21c651e98df25n) & M;
    return v ^ (v >> 28n);
  }
  if (n > 0) {
    const combo = ((b[0] << 16) | (b[n >> 1] << 24) | b[n - 1] | (n << 8)) >>> 0;
    return xxh64Avalanche(BigInt(combo) ^ (r32(SECRET, 0) ^ r32(SECRET, 4)));
  }
  return xxh64Avalanche(r64(SECRET, 56) ^ r64(SECRET, 64));
}

function medium(b, n) {
  let acc = (BigInt(n) * P64_1) & M;
  if (n > 32) {
    if (n > 64) {
      if (n > 96) {
        acc += mix16(b, 48, 96) + mix16(b, n - 64, 112);
      }
      acc += mix16(b, 32, 64) + mix16(b, n - 48, 80);
    }
    acc += mix16(b, 16, 32) + mix16(b, n - 32, 48);
  }
  acc += mix16(b, 0, 0) + mix16(b, n - 16, 16);
  return avalanche(acc & M);
}

function mid(b, n) {
  let acc = (BigInt(n) * P64_1) & M;
  const rounds = Math.floor(n / 16);
  for (let i = 0; i < 8; i++) acc += mix16(b, 16 * i, 16 * i);
  acc = avalanche(acc & M);
  for (let i = 8; i < rounds; i++) acc += mix16(b, 16 * i, 16 * (i - 8) + 3);
  acc += mix16(b, n - 16, 136 - 17);
  return avalanche(acc & M);
}

/** One 64-byte stripe at `at` into the 8 lanes, with the secret read from `s`. */
function stripe(acc, b, at, s) {
  for (let i = 0; i < 8; i++) {
    const v = r64(b, at + 8 * i);
    const k = v ^ r64(SECRET, s + 8 * i);
    acc[i ^ 1] = (acc[i ^ 1] + v) & M;
    acc[i] = (acc[i] + (k & M32) * (k >> 32n)) & M;
  }
}

function scramble(acc) {
  for (let i = 0; i < 8; i++) {
    const v = acc[i] ^ (acc[i] >> 47n) ^ r64(SECRET, SECRET.length - 64 + 8 * i);
    acc[i] = (v * P32_1) & M;
  }
}

function long(b, n) {
  const acc = [P32_3, P64_1, P64_2, P64_3, P64_4, P32_2, P64_5, P32_1];
  const perBlock = (SECRET.length - 64) / 8;
  const blockLen = 64 * perBlock;
  const blocks = Math.floor((n - 1) / blockLen);
  for (let k = 0; k < blocks; k++) {
    for (let s = 0; s < perBlock; s++) stripe(acc, b, k * blockLen + 64 * s, 8 * s);
    scramble(acc);
  }
  const last = Math.floor((n - 1 - blockLen * blocks) / 64);
  for (let s = 0; s < last; s++) stripe(acc, b, blocks * blockLen + 64 * s, 8 * s);
  stripe(acc, b, n - 64, SECRET.length - 64 - 7);
  let r = (BigInt(n) * P64_1) & M;
  for (let i = 0; i < 4; i++) {
    r += fold(acc[2 * i] ^ r64(SECRET, 11 + 16 * i), acc[2 * i + 1] ^ r64(SECRET, 11 + 16 * i + 8));
  }
  return avalanche(r & M);
}

/**
 * XXH3 64-bit (seed 0) of `b[0..n)`, as a BigInt.
 * @param {Uint8Array} b
 * @param {number} [n]
 * @returns {bigint}
 */
function xxh3_64(b, n = b.length) {
  if (n <= 16) return short(b, n);
  if (n <= 128) return medium(b, n);
  if (n <= 240) return mid(b, n);
  return long(b, n);
}

/** The low 32 bits of XXH3 64-bit (seed 0): memcached's proxy reads the hash as `unsigned int`. */
function xxh3Low32(b, n = b.length) {
  return Number(xxh3_64(b, n) & M32);
}

module.exports = { xxh3_64, xxh3Low32 };
