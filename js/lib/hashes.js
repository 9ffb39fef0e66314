'use strict';
// Every key hash the supported clients use. Each function takes (bytes, len) and returns the
// unsigned 32-bit value as a number; Java flavours decode the bytes as UTF-8 first and hash
// UTF-16 code units.

const { md5, bswap } = require('./md5');
const { sha1 } = require('./sha1');
const spooky = require('./spooky');
const { utf16, codePointLowBytes } = require('./bytes');
const { emcache } = require('./murmur128');
const { xxh3Low32 } = require('./xxh3');
const { murmur64a, xxh64, H64 } = require('./hash64');

// ----- CRC -----

const CRC_TABLE = new Int32Array(256);
for (let i = 0; i < 256; i++) {
  let c = i;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  CRC_TABLE[i] = c;
}

/** Standard IEEE CRC-32 (PHP crc32(), pecl memcache, twemproxy crc32a, Go). */
function crc32a(b, n) {
  let c = -1;
  for (let i = 0; i < n; i++) c = CRC_TABLE[(c ^ b[i]) & 0xff] ^ (c >>> 8);
  return (c ^ -1) >>> 0;
}

/** CRC-32 without its final inversion, `~crc32` (phpredis RedisArray's consistent ring). */
function crc32Raw(b, n) {
  return ~crc32a(b, n) >>> 0;
}

/** libhashkit crc, Java CRC_HASH: (crc32 >> 16) & 0x7fff. */
function crc15(b, n) {
  return (crc32a(b, n) >>> 16) & 0x7fff;
}

const XMODEM = new Uint32Array(256);
for (let i = 0; i < 256; i++) {
  let c = i << 8;
  for (let k = 0; k < 8; k++) c = c & 0x8000 ? (c << 1) ^ 0x1021 : c << 1;
  XMODEM[i] = c & 0xffff;
}

/** twemproxy crc16: the XMODEM table step on a 32-bit accumulator never truncated. */
function crc16(b, n) {
  let c = 0;
  for (let i = 0; i < n; i++) c = ((c << 8) ^ XMODEM[((c >>> 8) ^ b[i]) & 0xff]) >>> 0;
  return c >>> 0;
}

// ----- one-at-a-time, FNV (over units: signed bytes, unsigned bytes or UTF-16) -----

function oaatSigned(b, n) {
  let h = 0;
  for (let i = 0; i < n; i++) {
    h = (h + ((b[i] << 24) >> 24)) | 0;
    h = (h + (h << 10)) | 0;
    h ^= h >>> 6;
  }
  h = (h + (h << 3)) | 0;
  h ^= h >>> 11;
  return (h + (h << 15)) >>> 0;
}

function oaatUnsigned(b, n) {
  let h = 0;
  for (let i = 0; i < n; i++) {
    h = (h + b[i]) | 0;
    h = (h + (h << 10)) | 0;
    h ^= h >>> 6;
  }
  h = (h + (h << 3)) | 0;
  h ^= h >>> 11;
  return (h + (h << 15)) >>> 0;
}

const BASIS_32 = 0x811c9dc5 | 0;
const PRIME_32 = 0x01000193;
const BASIS_64_LOW = 0x84222325 | 0;
const PRIME_64_LOW = 0x1b3;

/** An FNV flavour over byte units: `signed` widens as x86 char, `a` = xor before multiply. */
function fnvBytes(basis, prime, a, signed) {
  return (b, n) => {
    let h = basis;
    for (let i = 0; i < n; i++) {
      const x = signed ? (b[i] << 24) >> 24 : b[i];
      h = a ? Math.imul(h ^ x, prime) : Math.imul(h, prime) ^ x;
    }
    return h >>> 0;
  };
}

/** An FNV flavour over the UTF-16 units of the decoded key (Java). */
function fnvJava(basis, prime, a) {
  return (b, n) => {
    const s = utf16(b, n);
    let h = basis;
    for (let i = 0; i < s.length; i++) {
      const x = s.charCodeAt(i);
      h = a ? Math.imul(h ^ x, prime) : Math.imul(h, prime) ^ x;
    }
    return h >>> 0;
  };
}

// ----- Hsieh, Murmur, Jenkins -----

function hsieh(signedTail) {
  return (b, n) => {
    if (n === 0) return 0;
    let h = 0;
    let i = 0;
    for (; i + 4 <= n; i += 4) {
      h = (h + (b[i] | (b[i + 1] << 8))) | 0;
      const t = ((b[i + 2] | (b[i + 3] << 8)) << 11) ^ h;
      h = (h << 16) ^ t;
      h = (h + (h >>> 11)) | 0;
    }
    switch (n - i) {
      case 3: {
        h = (h + (b[i] | (b[i + 1] << 8))) | 0;
        h ^= h << 16;
        const x = signedTail ? (b[i + 2] << 24) >> 24 : b[i + 2];
        h ^= x << 18;
        h = (h + (h >>> 11)) | 0;
        break;
      }
      case 2:
        h = (h + (b[i] | (b[i + 1] << 8))) | 0;
        h ^= h << 11;
        h = (h + (h >>> 17)) | 0;
        break;
      case 1:
        h = (h + b[i]) | 0;
        h ^= h << 10;
        h = (h + (h >>> 1)) | 0;
        break;
      default:
    }
    h ^= h << 3;
    h = (h + (h >>> 5)) | 0;
    h ^= h << 4;
    h = (h + (h >>> 17)) | 0;
    h ^= h << 25;
    return (h + (h >>> 6)) >>> 0;
  };
}

/** Little-endian u32 of up to 4 bytes `b[at..end)`, zero padded. */
function le32(b, at, end) {
  let w = 0;
  for (let i = Math.min(end, at + 4) - 1; i >= at; i--) w = (w << 8) | b[i];
  return w;
}

function murmur2(b, n) {
  const M = 0x5bd1e995;
  let h = Math.imul(0xdeadbeef | 0, n) ^ n;
  let i = 0;
  for (; i + 4 <= n; i += 4) {
    let k = le32(b, i, n);
    k = Math.imul(k, M);
    k ^= k >>> 24;
    k = Math.imul(k, M);
    h = Math.imul(h, M) ^ k;
  }
  if (i < n) h = Math.imul(h ^ le32(b, i, n), M);
  h ^= h >>> 13;
  h = Math.imul(h, M);
  return (h ^ (h >>> 15)) >>> 0;
}

/** MurmurHash3_x86_32 with an explicit seed. */
function murmur3x86(b, n, seed) {
  const C1 = 0xcc9e2d51 | 0;
  const C2 = 0x1b873593;
  const scramble = (k) => {
    k = Math.imul(k, C1);
    k = (k << 15) | (k >>> 17);
    return Math.imul(k, C2);
  };
  let h = seed | 0;
  let i = 0;
  for (; i + 4 <= n; i += 4) {
    h ^= scramble(le32(b, i, n));
    h = (h << 13) | (h >>> 19);
    h = (Math.imul(h, 5) + (0xe6546b64 | 0)) | 0;
  }
  if (i < n) h ^= scramble(le32(b, i, n));
  h ^= n;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b | 0);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35 | 0);
  return (h ^ (h >>> 16)) >>> 0;
}

function rotl(x, k) {
  return (x << k) | (x >>> (32 - k));
}

/** lookup3 hashlittle(key, len, 13). */
function jenkins(b, n) {
  const init = (0xdeadbeef + n + 13) | 0;
  let a = init;
  let bb = init;
  let c = init;
  let at = 0;
  while (n - at > 12) {
    a = (a + le32(b, at, n)) | 0;
    bb = (bb + le32(b, at + 4, n)) | 0;
    c = (c + le32(b, at + 8, n)) | 0;
    a = (a - c) ^ rotl(c, 4); c = (c + bb) | 0;
    bb = (bb - a) ^ rotl(a, 6); a = (a + c) | 0;
    c = (c - bb) ^ rotl(bb, 8); bb = (bb + a) | 0;
    a = (a - c) ^ rotl(c, 16); c = (c + bb) | 0;
    bb = (bb - a) ^ rotl(a, 19); a = (a + c) | 0;
    c = (c - bb) ^ rotl(bb, 4); bb = (bb + a) | 0;
    at += 12;
  }
  if (at === n) return c >>> 0;
  a = (a + le32(b, at, n)) | 0;
  bb = (bb + (at + 4 < n ? le32(b, at + 4, n) : 0)) | 0;
  c = (c + (at + 8 < n ? le32(b, at + 8, n) : 0)) | 0;
  c ^= bb; c = (c - rotl(bb, 14)) | 0;
  a ^= c; a = (a - rotl(c, 11)) | 0;
  bb ^= a; bb = (bb - rotl(a, 25)) | 0;
  c ^= bb; c = (c - rotl(bb, 16)) | 0;
  a ^= c; a = (a - rotl(c, 4)) | 0;
  bb ^= a; bb = (bb - rotl(a, 14)) | 0;
  c ^= bb; c = (c - rotl(bb, 24)) | 0;
  return c >>> 0;
}

const M64 = (1n << 64n) - 1n;
const SIGN64 = 1n << 63n;
const TWO64 = 1n << 64n;

// ----- Java string hashes (xmemcached, spymemcached, whalin) -----

function javaNative(b, n) {
  const s = utf16(b, n);
  let h = 0;
  for (let i = 0; i < s.length; i++) h = (Math.imul(h, 31) + s.charCodeAt(i)) | 0;
  return h >>> 0;
}

function mysql(b, n) {
  const s = utf16(b, n);
  let h = 0;
  let k = 4;
  for (let i = 0; i < s.length; i++) {
    h = h ^ ((Math.imul((h & 63) + k, s.charCodeAt(i)) + (h << 8)) | 0);
    k = (k + 3) | 0;
  }
  return h >>> 0;
}

function elf(b, n) {
  const s = utf16(b, n);
  let h = 0;
  for (let i = 0; i < s.length; i++) {
    h = ((h << 4) + s.charCodeAt(i)) | 0;
    const g = h & 0xf0000000;
    if (g !== 0) h ^= g >>> 24;
    h &= ~g;
  }
  return (h & 0x7fffffff) >>> 0;
}

function rs(b, n) {
  const s = utf16(b, n);
  let a = 63689;
  let h = 0;
  for (let i = 0; i < s.length; i++) {
    h = (Math.imul(h, a) + s.charCodeAt(i)) | 0;
    a = Math.imul(a, 378551);
  }
  return (h & 0x7fffffff) >>> 0;
}

/** xmemcached LUA_HASH: Lua's string hash in signed 64-bit arithmetic, low 32 bits. */
function lua(b, n) {
  // 64-bit values kept unsigned (mod 2^64), read signed for the arithmetic shift.
  const s = utf16(b, n);
  const len = s.length;
  const step = (len >>> 5) + 1;
  let h = BigInt(len);
  for (let i = len; i >= step; i -= step) {
    const signed = h >= SIGN64 ? h - TWO64 : h;
    h ^= ((signed << 5n) + (signed >> 2n) + BigInt(s.charCodeAt(i - 1))) & M64;
  }
  return Number(h & 0xffffffffn);
}

// ----- MD5, SHA-1 and the rest -----

/** ketama MD5: the first digest word, little-endian. */
function md5le(b, n) {
  return md5(b, n)[0] >>> 0;
}

/** flexihash Md5Hasher: the first digest word, big-endian. */
function md5be(b, n) {
  return bswap(md5(b, n)[0]);
}

const HEX = '0123456789abcdef';

/**
 * toHash of the user's PHP FlexiHash class (profile flexihash-seed): hex digits 0, 2, 4, 6 of
 * the MD5, folded with * 31.
 */
function seedToHash(b, n) {
  const w = md5(b, n)[0];
  let h = 0;
  for (let i = 0; i < 4; i++) h = h * 31 + HEX.charCodeAt((w >>> (8 * i + 4)) & 15);
  return (h & 0x7fffffff) >>> 0;
}

function sha1be(b, n) {
  return sha1(b, n)[0] >>> 0;
}

function murmur3Guava(b, n) {
  return murmur3x86(b, n, 0);
}

let lowBytes = new Uint8Array(256);

/** pymemcache `murmur3_32`: MurmurHash3_x86_32, seed 0, over each character's `ord(c) & 0xFF`. */
function pymemcacheMurmur3(b, n) {
  if (lowBytes.length < n) lowBytes = new Uint8Array(n + 64);
  return murmur3x86(lowBytes, codePointLowBytes(b, n, lowBytes), 0);
}

function spooky32(b, n) {
  return spooky.hash32(b, n, 0);
}

/**
 * Implementations by canonical name (the names the exported spec's hash table uses).
 * @type {Record<string, (b: Uint8Array, n: number) => number>}
 */
const IMPL = {
  one_at_a_time: oaatSigned,
  one_at_a_time_unsigned: oaatUnsigned,
  md5: md5le,
  election: md5le,
  crc: crc15,
  crc32a,
  crc16,
  fnv1_64: fnvBytes(BASIS_64_LOW, PRIME_64_LOW, false, true),
  fnv1a_64: fnvBytes(BASIS_64_LOW, PRIME_64_LOW, true, true),
  fnv1_32: fnvBytes(BASIS_32, PRIME_32, false, true),
  fnv1a_32: fnvBytes(BASIS_32, PRIME_32, true, true),
  fnv1_64_unsigned: fnvBytes(BASIS_64_LOW, PRIME_64_LOW, false, false),
  fnv1a_64_unsigned: fnvBytes(BASIS_64_LOW, PRIME_64_LOW, true, false),
  fnv1_32_unsigned: fnvBytes(BASIS_32, PRIME_32, false, false),
  fnv1a_32_unsigned: fnvBytes(BASIS_32, PRIME_32, true, false),
  fnv1a_32_zero: fnvBytes(0, PRIME_32, true, false),
  java_fnv1_64: fnvJava(BASIS_64_LOW, PRIME_64_LOW, false),
  java_fnv1a_64: fnvJava(BASIS_64_LOW, PRIME_64_LOW, true),
  java_fnv1_32: fnvJava(BASIS_32, PRIME_32, false),
  java_fnv1a_32: fnvJava(BASIS_32, PRIME_32, true),
  hsieh: hsieh(true),
  hsieh_unsigned: hsieh(false),
  murmur: murmur2,
  murmur3: (b, n) => murmur3x86(b, n, Math.imul(0xdeadbeef | 0, n)),
  jenkins,
  native: javaNative,
  mysql,
  elf,
  rs,
  lua,
  md5_be: md5be,
  sha1: sha1be,
  murmur3_32: murmur3Guava,
  spooky32,
  pymemcache_murmur3: pymemcacheMurmur3,
  emcache_murmur3: emcache,
  xxh3: xxh3Low32,
  seed_tohash: seedToHash,
  crc32_raw: crc32Raw,
  murmur64a,
  xxh64,
};

/**
 * The 64-bit hashes by canonical name: each leaves its value in `H64` (high word, low word).
 * Every other hash is its 32-bit value zero-extended ({@link hash64Of}).
 */
const IMPL64 = { murmur64a, xxh64 };

/**
 * The 64-bit form of the named hash: `(b, n)` leaves the value of `b[0..n)` in `H64` (high
 * word, low word; a 32-bit hash: high 0, low its value).
 * @param {string} name
 * @returns {(b: Uint8Array, n: number) => void}
 */
function hash64Of(name) {
  if (IMPL64[name]) return IMPL64[name];
  const fn = IMPL[name];
  return (b, n) => {
    H64[1] = fn(b, n);
    H64[0] = 0;
  };
}

/** How each implementation reads the key (the spec's `input` field of each hash). */
const INPUT = {};
for (const name of Object.keys(IMPL)) INPUT[name] = 'bytes';
for (const name of ['one_at_a_time', 'fnv1_64', 'fnv1a_64', 'fnv1_32', 'fnv1a_32', 'hsieh']) INPUT[name] = 'signed_bytes';
for (const name of ['one_at_a_time_unsigned', 'fnv1_64_unsigned', 'fnv1a_64_unsigned', 'fnv1_32_unsigned', 'fnv1a_32_unsigned', 'fnv1a_32_zero', 'hsieh_unsigned']) {
  INPUT[name] = 'unsigned_bytes';
}
for (const name of ['java_fnv1_64', 'java_fnv1a_64', 'java_fnv1_32', 'java_fnv1a_32', 'native', 'mysql', 'elf', 'rs', 'lua']) {
  INPUT[name] = 'utf16_units';
}

/**
 * whalin OLD_COMPAT_HASH: h = 33 h + unit over the UTF-16 units in a wrapping signed 64-bit
 * long, as a BigInt.
 */
function oldCompat(b, n) {
  const s = utf16(b, n);
  let h = 0n;
  for (let i = 0; i < s.length; i++) h = (h * 33n + BigInt(s.charCodeAt(i))) & M64;
  return h >= SIGN64 ? h - TWO64 : h;
}

module.exports = { IMPL, INPUT, oldCompat, crc32a, murmur3Guava, sha1be, md5le, hash64Of, H64 };
