'use strict';
// XXH3 64-bit with seed 0 and the default secret (memcached's proxy hashes keys and ring
// points with it): the short paths (0..16, 17..128, 129..240 bytes) and the striped long path.
// 64-bit words are pairs of unsigned 32-bit numbers (high, low): products through 16-bit
// halves (exact in doubles), carries by comparison; no BigInt and no allocation per hash.

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

/** Little-endian 32-bit word at every byte offset of the secret (its 64-bit reads are unaligned). */
const S = new Uint32Array(SECRET.length - 3);
for (let i = 0; i < S.length; i++) {
  S[i] = (SECRET[i] | (SECRET[i + 1] << 8) | (SECRET[i + 2] << 16) | (SECRET[i + 3] << 24)) >>> 0;
}

const TWO32 = 4294967296;
// PRIME32_1..3, PRIME64_1..5 as (high, low)
const P32_1 = 0x9e3779b1;
const P32_2 = 0x85ebca77;
const P32_3 = 0xc2b2ae3d;
const P64_1H = 0x9e3779b1, P64_1L = 0x85ebca87;
const P64_2H = 0xc2b2ae3d, P64_2L = 0x27d4eb4f;
const P64_3H = 0x165667b1, P64_3L = 0x9e3779f9;
const P64_4H = 0x85ebca77, P64_4L = 0xc2b2ae63;
const P64_5H = 0x27d4eb2f, P64_5L = 0x165667c5;

/**
 * The result of the last 64-bit operation, high and low words, then the running sum's (a
 * typed array: storing a 32-bit number there allocates nothing, unlike a module variable
 * holding one above 2^30).
 */
const O = new Uint32Array(4);

function r32(b, at) {
  return (b[at] | (b[at + 1] << 8) | (b[at + 2] << 16) | (b[at + 3] << 24)) >>> 0;
}

function bswap32(w) {
  return (((w & 0xff) << 24) | ((w & 0xff00) << 8) | ((w >>> 8) & 0xff00) | (w >>> 24)) >>> 0;
}

/** The full 64-bit product of two unsigned 32-bit numbers, into O[0]:O[1]. */
function mul32(a, b) {
  const a0 = a & 0xffff;
  const a1 = a >>> 16;
  const b0 = b & 0xffff;
  const b1 = b >>> 16;
  const p00 = a0 * b0;
  const mid = a0 * b1 + a1 * b0 + (p00 >>> 16); // < 2^34: exact
  O[1] = (((mid & 0xffff) << 16) | (p00 & 0xffff)) >>> 0;
  O[0] = (a1 * b1 + Math.floor(mid / 65536)) >>> 0;
}

/** (ah:al * bh:bl) mod 2^64, into O[0]:O[1]. */
function mul64(ah, al, bh, bl) {
  mul32(al, bl);
  O[0] = (O[0] + Math.imul(ah, bl) + Math.imul(al, bh)) >>> 0;
}

/** The low and high halves of the 128-bit product ah:al * bh:bl, xored, into O[0]:O[1]. */
function fold(ah, al, bh, bl) {
  mul32(al, bl);
  const llh = O[0];
  const lll = O[1];
  mul32(ah, bl);
  const hlh = O[0];
  const hll = O[1];
  mul32(al, bh);
  const lhh = O[0];
  const lhl = O[1];
  mul32(ah, bh);
  const cross = llh + hll + lhl; // bits 32..95 of the product, low word and carry
  const crossHi = lhh + Math.floor(cross / TWO32);
  const upper = O[1] + hlh + crossHi;
  const w3 = (O[0] + Math.floor(upper / TWO32)) >>> 0;
  O[0] = ((cross >>> 0) ^ w3) >>> 0;
  O[1] = (lll ^ (upper >>> 0)) >>> 0;
}

/** XXH3's final mix of h = hh:hl, into O[0]:O[1]. */
function avalanche(hh, hl) {
  hl = (hl ^ (hh >>> 5)) >>> 0; // h ^= h >> 37
  mul64(hh, hl, 0x16566791, 0x9e3779f9);
  O[1] = (O[1] ^ O[0]) >>> 0; // h ^= h >> 32
}

/** XXH64's final mix of h = hh:hl, into O[0]:O[1]. */
function xxh64Avalanche(hh, hl) {
  hl = (hl ^ (hh >>> 1)) >>> 0; // h ^= h >> 33
  mul64(hh, hl, P64_2H, P64_2L);
  hl = (O[1] ^ ((O[1] >>> 29) | (O[0] << 3))) >>> 0; // h ^= h >> 29
  hh = (O[0] ^ (O[0] >>> 29)) >>> 0;
  mul64(hh, hl, P64_3H, P64_3L);
  O[1] = (O[1] ^ O[0]) >>> 0; // h ^= h >> 32
}

// Running sum for the 17..240-byte paths and the merge of the long path: O[2]:O[3].

/** Adds O[0]:O[1] to the running sum O[2]:O[3]. */
function addSum() {
  const s = O[3] + O[1];
  O[3] = s >>> 0;
  O[2] = (O[2] + O[0] + (s >= TWO32 ? 1 : 0)) >>> 0;
}

/** Sets the running sum to n * PRIME64_1. */
function startSum(n) {
  mul64(Math.floor(n / TWO32) >>> 0, n >>> 0, P64_1H, P64_1L);
  O[2] = O[0];
  O[3] = O[1];
}

/** Adds the 16-byte mix of `b[at..at+16)` with the secret at `s` to the running sum. */
function mix16(b, at, s) {
  fold(
    r32(b, at + 4) ^ S[s + 4], r32(b, at) ^ S[s],
    r32(b, at + 12) ^ S[s + 12], r32(b, at + 8) ^ S[s + 8],
  );
  addSum();
}

function short(b, n) {
  if (n > 8) {
    const loH = (r32(b, 4) ^ S[28] ^ S[36]) >>> 0;
    const loL = (r32(b, 0) ^ S[24] ^ S[32]) >>> 0;
    const hiH = (r32(b, n - 4) ^ S[44] ^ S[52]) >>> 0;
    const hiL = (r32(b, n - 8) ^ S[40] ^ S[48]) >>> 0;
    fold(loH, loL, hiH, hiL);
    // n + bswap64(lo) + hi + fold(lo, hi)
    let l = bswap32(loH) + hiL + O[1] + n; // < 2^34
    let h = bswap32(loL) + hiH + O[0] + Math.floor(l / TWO32);
    avalanche(h >>> 0, l >>> 0);
    return;
  }
  if (n >= 4) {
    const xh = (r32(b, 0) ^ S[12] ^ S[20]) >>> 0;
    const xl = (r32(b, n - 4) ^ S[8] ^ S[16]) >>> 0;
    // x ^ rotl(x, 49) ^ rotl(x, 24); rotl 49 is the halves swapped, then rotl 17
    let vh = xh ^ ((xl << 17) | (xh >>> 15)) ^ ((xh << 24) | (xl >>> 8));
    let vl = xl ^ ((xh << 17) | (xl >>> 15)) ^ ((xl << 24) | (xh >>> 8));
    mul64(vh >>> 0, vl >>> 0, 0x9fb21c65, 0x1e98df25);
    vl = (O[1] ^ ((O[0] >>> 3) + n)) >>> 0; // v ^= (v >> 35) + len
    mul64(O[0], vl, 0x9fb21c65, 0x1e98df25);
    O[1] = (O[1] ^ ((O[1] >>> 28) | (O[0] << 4))) >>> 0; // v ^ (v >> 28)
    O[0] = (O[0] ^ (O[0] >>> 28)) >>> 0;
    return;
  }
  if (n > 0) {
    const combo = ((b[0] << 16) | (b[n >> 1] << 24) | b[n - 1] | (n << 8)) >>> 0;
    xxh64Avalanche(0, (combo ^ S[0] ^ S[4]) >>> 0);
    return;
  }
  xxh64Avalanche((S[60] ^ S[68]) >>> 0, (S[56] ^ S[64]) >>> 0);
}

function medium(b, n) {
  startSum(n);
  if (n > 32) {
    if (n > 64) {
      if (n > 96) {
        mix16(b, 48, 96);
        mix16(b, n - 64, 112);
      }
      mix16(b, 32, 64);
      mix16(b, n - 48, 80);
    }
    mix16(b, 16, 32);
    mix16(b, n - 32, 48);
  }
  mix16(b, 0, 0);
  mix16(b, n - 16, 16);
  avalanche(O[2], O[3]);
}

function mid(b, n) {
  startSum(n);
  const rounds = Math.floor(n / 16);
  for (let i = 0; i < 8; i++) mix16(b, 16 * i, 16 * i);
  avalanche(O[2], O[3]);
  O[2] = O[0];
  O[3] = O[1];
  for (let i = 8; i < rounds; i++) mix16(b, 16 * i, 16 * (i - 8) + 3);
  mix16(b, n - 16, 136 - 17);
  avalanche(O[2], O[3]);
}

/** The 8 accumulator lanes of the long path: lane i is ACC[2i] (high) : ACC[2i + 1] (low). */
const ACC = new Uint32Array(16);
const ACC_INIT = Uint32Array.from([
  0, P32_3, P64_1H, P64_1L, P64_2H, P64_2L, P64_3H, P64_3L,
  P64_4H, P64_4L, 0, P32_2, P64_5H, P64_5L, 0, P32_1,
]);

/** One 64-byte stripe at `at` into the 8 lanes, with the secret read from `s`. */
function stripe(b, at, s) {
  for (let i = 0; i < 8; i++) {
    const vl = r32(b, at + 8 * i);
    const vh = r32(b, at + 8 * i + 4);
    // lane i ^ 1 += v
    const j = 2 * (i ^ 1);
    let t = ACC[j + 1] + vl;
    ACC[j + 1] = t;
    ACC[j] = ACC[j] + vh + (t >= TWO32 ? 1 : 0);
    // lane i += low32(k) * high32(k), k = v ^ secret
    mul32((vl ^ S[s + 8 * i]) >>> 0, (vh ^ S[s + 8 * i + 4]) >>> 0);
    t = ACC[2 * i + 1] + O[1];
    ACC[2 * i + 1] = t;
    ACC[2 * i] = ACC[2 * i] + O[0] + (t >= TWO32 ? 1 : 0);
  }
}

function scramble() {
  const s = SECRET.length - 64;
  for (let i = 0; i < 8; i++) {
    const h = ACC[2 * i];
    const l = ACC[2 * i + 1];
    // (acc ^ (acc >> 47) ^ secret) * PRIME32_1
    mul64((h ^ S[s + 8 * i + 4]) >>> 0, (l ^ (h >>> 15) ^ S[s + 8 * i]) >>> 0, 0, P32_1);
    ACC[2 * i] = O[0];
    ACC[2 * i + 1] = O[1];
  }
}

function long(b, n) {
  ACC.set(ACC_INIT);
  const perBlock = (SECRET.length - 64) / 8;
  const blockLen = 64 * perBlock;
  const blocks = Math.floor((n - 1) / blockLen);
  for (let k = 0; k < blocks; k++) {
    for (let s = 0; s < perBlock; s++) stripe(b, k * blockLen + 64 * s, 8 * s);
    scramble();
  }
  const last = Math.floor((n - 1 - blockLen * blocks) / 64);
  for (let s = 0; s < last; s++) stripe(b, blocks * blockLen + 64 * s, 8 * s);
  stripe(b, n - 64, SECRET.length - 64 - 7);
  startSum(n);
  for (let i = 0; i < 4; i++) {
    const s = 11 + 16 * i;
    fold(
      (ACC[4 * i] ^ S[s + 4]) >>> 0, (ACC[4 * i + 1] ^ S[s]) >>> 0,
      (ACC[4 * i + 2] ^ S[s + 12]) >>> 0, (ACC[4 * i + 3] ^ S[s + 8]) >>> 0,
    );
    addSum();
  }
  avalanche(O[2], O[3]);
}

/** XXH3 64-bit (seed 0) of `b[0..n)` into O[0]:O[1]. */
function hash(b, n) {
  if (n <= 16) short(b, n);
  else if (n <= 128) medium(b, n);
  else if (n <= 240) mid(b, n);
  else long(b, n);
}

/**
 * XXH3 64-bit (seed 0) of `b[0..n)`, as a BigInt.
 * @param {Uint8Array} b
 * @param {number} [n]
 * @returns {bigint}
 */
function xxh3_64(b, n = b.length) {
  hash(b, n);
  return (BigInt(O[0]) << 32n) | BigInt(O[1]);
}

/** The low 32 bits of XXH3 64-bit (seed 0): memcached's proxy reads the hash as `unsigned int`. */
function xxh3Low32(b, n = b.length) {
  hash(b, n);
  return O[1];
}

module.exports = { xxh3_64, xxh3Low32 };
