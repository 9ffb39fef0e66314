'use strict';
// MD5 (RFC 1321) over byte arrays, written for short inputs: no allocation per call, the
// state returned as four little-endian 32-bit words (word g = digest bytes 4g..4g+3).

// The 64 steps are written out (generated from the RFC's tables: constants
// floor(abs(sin(i + 1)) * 2^32), rotations 7 12 17 22 / 5 9 14 20 / 4 11 16 23 / 6 10 15 21).

const X = new Int32Array(16);
const TAIL = new Uint8Array(128);

/** The digest of the last computed message, as four little-endian words (signed int32). */
const state = new Int32Array(4);

/** One 64-byte block (16 little-endian words in X) folded into `state`, unrolled. */
function block() {
  const x0 = X[0], x1 = X[1], x2 = X[2], x3 = X[3], x4 = X[4], x5 = X[5], x6 = X[6], x7 = X[7];
  const x8 = X[8], x9 = X[9], x10 = X[10], x11 = X[11], x12 = X[12], x13 = X[13], x14 = X[14], x15 = X[15];
  let a = state[0];
  let b = state[1];
  let c = state[2];
  let d = state[3];
  let t;
  t = (a + ((b & c) | (~b & d)) + (0xd76aa478 | 0) + x0) | 0;
  a = (b + ((t << 7) | (t >>> 25))) | 0;
  t = (d + ((a & b) | (~a & c)) + (0xe8c7b756 | 0) + x1) | 0;
  d = (a + ((t << 12) | (t >>> 20))) | 0;
  t = (c + ((d & a) | (~d & b)) + (0x242070db) + x2) | 0;
  c = (d + ((t << 17) | (t >>> 15))) | 0;
  t = (b + ((c & d) | (~c & a)) + (0xc1bdceee | 0) + x3) | 0;
  b = (c + ((t << 22) | (t >>> 10))) | 0;
  t = (a + ((b & c) | (~b & d)) + (0xf57c0faf | 0) + x4) | 0;
  a = (b + ((t << 7) | (t >>> 25))) | 0;
  t = (d + ((a & b) | (~a & c)) + (0x4787c62a) + x5) | 0;
  d = (a + ((t << 12) | (t >>> 20))) | 0;
  t = (c + ((d & a) | (~d & b)) + (0xa8304613 | 0) + x6) | 0;
  c = (d + ((t << 17) | (t >>> 15))) | 0;
  t = (b + ((c & d) | (~c & a)) + (0xfd469501 | 0) + x7) | 0;
  b = (c + ((t << 22) | (t >>> 10))) | 0;
  t = (a + ((b & c) | (~b & d)) + (0x698098d8) + x8) | 0;
  a = (b + ((t << 7) | (t >>> 25))) | 0;
  t = (d + ((a & b) | (~a & c)) + (0x8b44f7af | 0) + x9) | 0;
  d = (a + ((t << 12) | (t >>> 20))) | 0;
  t = (c + ((d & a) | (~d & b)) + (0xffff5bb1 | 0) + x10) | 0;
  c = (d + ((t << 17) | (t >>> 15))) | 0;
  t = (b + ((c & d) | (~c & a)) + (0x895cd7be | 0) + x11) | 0;
  b = (c + ((t << 22) | (t >>> 10))) | 0;
  t = (a + ((b & c) | (~b & d)) + (0x6b901122) + x12) | 0;
  a = (b + ((t << 7) | (t >>> 25))) | 0;
  t = (d + ((a & b) | (~a & c)) + (0xfd987193 | 0) + x13) | 0;
  d = (a + ((t << 12) | (t >>> 20))) | 0;
  t = (c + ((d & a) | (~d & b)) + (0xa679438e | 0) + x14) | 0;
  c = (d + ((t << 17) | (t >>> 15))) | 0;
  t = (b + ((c & d) | (~c & a)) + (0x49b40821) + x15) | 0;
  b = (c + ((t << 22) | (t >>> 10))) | 0;
  t = (a + ((d & b) | (~d & c)) + (0xf61e2562 | 0) + x1) | 0;
  a = (b + ((t << 5) | (t >>> 27))) | 0;
  t = (d + ((c & a) | (~c & b)) + (0xc040b340 | 0) + x6) | 0;
  d = (a + ((t << 9) | (t >>> 23))) | 0;
  t = (c + ((b & d) | (~b & a)) + (0x265e5a51) + x11) | 0;
  c = (d + ((t << 14) | (t >>> 18))) | 0;
  t = (b + ((a & c) | (~a & d)) + (0xe9b6c7aa | 0) + x0) | 0;
  b = (c + ((t << 20) | (t >>> 12))) | 0;
  t = (a + ((d & b) | (~d & c)) + (0xd62f105d | 0) + x5) | 0;
  a = (b + ((t << 5) | (t >>> 27))) | 0;
  t = (d + ((c & a) | (~c & b)) + (0x2441453) + x10) | 0;
  d = (a + ((t << 9) | (t >>> 23))) | 0;
  t = (c + ((b & d) | (~b & a)) + (0xd8a1e681 | 0) + x15) | 0;
  c = (d + ((t << 14) | (t >>> 18))) | 0;
  t = (b + ((a & c) | (~a & d)) + (0xe7d3fbc8 | 0) + x4) | 0;
  b = (c + ((t << 20) | (t >>> 12))) | 0;
  t = (a + ((d & b) | (~d & c)) + (0x21e1cde6) + x9) | 0;
  a = (b + ((t << 5) | (t >>> 27))) | 0;
  t = (d + ((c & a) | (~c & b)) + (0xc33707d6 | 0) + x14) | 0;
  d = (a + ((t << 9) | (t >>> 23))) | 0;
  t = (c + ((b & d) | (~b & a)) + (0xf4d50d87 | 0) + x3) | 0;
  c = (d + ((t << 14) | (t >>> 18))) | 0;
  t = (b + ((a & c) | (~a & d)) + (0x455a14ed) + x8) | 0;
  b = (c + ((t << 20) | (t >>> 12))) | 0;
  t = (a + ((d & b) | (~d & c)) + (0xa9e3e905 | 0) + x13) | 0;
  a = (b + ((t << 5) | (t >>> 27))) | 0;
  t = (d + ((c & a) | (~c & b)) + (0xfcefa3f8 | 0) + x2) | 0;
  d = (a + ((t << 9) | (t >>> 23))) | 0;
  t = (c + ((b & d) | (~b & a)) + (0x676f02d9) + x7) | 0;
  c = (d + ((t << 14) | (t >>> 18))) | 0;
  t = (b + ((a & c) | (~a & d)) + (0x8d2a4c8a | 0) + x12) | 0;
  b = (c + ((t << 20) | (t >>> 12))) | 0;
  t = (a + (b ^ c ^ d) + (0xfffa3942 | 0) + x5) | 0;
  a = (b + ((t << 4) | (t >>> 28))) | 0;
  t = (d + (a ^ b ^ c) + (0x8771f681 | 0) + x8) | 0;
  d = (a + ((t << 11) | (t >>> 21))) | 0;
  t = (c + (d ^ a ^ b) + (0x6d9d6122) + x11) | 0;
  c = (d + ((t << 16) | (t >>> 16))) | 0;
  t = (b + (c ^ d ^ a) + (0xfde5380c | 0) + x14) | 0;
  b = (c + ((t << 23) | (t >>> 9))) | 0;
  t = (a + (b ^ c ^ d) + (0xa4beea44 | 0) + x1) | 0;
  a = (b + ((t << 4) | (t >>> 28))) | 0;
  t = (d + (a ^ b ^ c) + (0x4bdecfa9) + x4) | 0;
  d = (a + ((t << 11) | (t >>> 21))) | 0;
  t = (c + (d ^ a ^ b) + (0xf6bb4b60 | 0) + x7) | 0;
  c = (d + ((t << 16) | (t >>> 16))) | 0;
  t = (b + (c ^ d ^ a) + (0xbebfbc70 | 0) + x10) | 0;
  b = (c + ((t << 23) | (t >>> 9))) | 0;
  t = (a + (b ^ c ^ d) + (0x289b7ec6) + x13) | 0;
  a = (b + ((t << 4) | (t >>> 28))) | 0;
  t = (d + (a ^ b ^ c) + (0xeaa127fa | 0) + x0) | 0;
  d = (a + ((t << 11) | (t >>> 21))) | 0;
  t = (c + (d ^ a ^ b) + (0xd4ef3085 | 0) + x3) | 0;
  c = (d + ((t << 16) | (t >>> 16))) | 0;
  t = (b + (c ^ d ^ a) + (0x4881d05) + x6) | 0;
  b = (c + ((t << 23) | (t >>> 9))) | 0;
  t = (a + (b ^ c ^ d) + (0xd9d4d039 | 0) + x9) | 0;
  a = (b + ((t << 4) | (t >>> 28))) | 0;
  t = (d + (a ^ b ^ c) + (0xe6db99e5 | 0) + x12) | 0;
  d = (a + ((t << 11) | (t >>> 21))) | 0;
  t = (c + (d ^ a ^ b) + (0x1fa27cf8) + x15) | 0;
  c = (d + ((t << 16) | (t >>> 16))) | 0;
  t = (b + (c ^ d ^ a) + (0xc4ac5665 | 0) + x2) | 0;
  b = (c + ((t << 23) | (t >>> 9))) | 0;
  t = (a + (c ^ (b | ~d)) + (0xf4292244 | 0) + x0) | 0;
  a = (b + ((t << 6) | (t >>> 26))) | 0;
  t = (d + (b ^ (a | ~c)) + (0x432aff97) + x7) | 0;
  d = (a + ((t << 10) | (t >>> 22))) | 0;
  t = (c + (a ^ (d | ~b)) + (0xab9423a7 | 0) + x14) | 0;
  c = (d + ((t << 15) | (t >>> 17))) | 0;
  t = (b + (d ^ (c | ~a)) + (0xfc93a039 | 0) + x5) | 0;
  b = (c + ((t << 21) | (t >>> 11))) | 0;
  t = (a + (c ^ (b | ~d)) + (0x655b59c3) + x12) | 0;
  a = (b + ((t << 6) | (t >>> 26))) | 0;
  t = (d + (b ^ (a | ~c)) + (0x8f0ccc92 | 0) + x3) | 0;
  d = (a + ((t << 10) | (t >>> 22))) | 0;
  t = (c + (a ^ (d | ~b)) + (0xffeff47d | 0) + x10) | 0;
  c = (d + ((t << 15) | (t >>> 17))) | 0;
  t = (b + (d ^ (c | ~a)) + (0x85845dd1 | 0) + x1) | 0;
  b = (c + ((t << 21) | (t >>> 11))) | 0;
  t = (a + (c ^ (b | ~d)) + (0x6fa87e4f) + x8) | 0;
  a = (b + ((t << 6) | (t >>> 26))) | 0;
  t = (d + (b ^ (a | ~c)) + (0xfe2ce6e0 | 0) + x15) | 0;
  d = (a + ((t << 10) | (t >>> 22))) | 0;
  t = (c + (a ^ (d | ~b)) + (0xa3014314 | 0) + x6) | 0;
  c = (d + ((t << 15) | (t >>> 17))) | 0;
  t = (b + (d ^ (c | ~a)) + (0x4e0811a1) + x13) | 0;
  b = (c + ((t << 21) | (t >>> 11))) | 0;
  t = (a + (c ^ (b | ~d)) + (0xf7537e82 | 0) + x4) | 0;
  a = (b + ((t << 6) | (t >>> 26))) | 0;
  t = (d + (b ^ (a | ~c)) + (0xbd3af235 | 0) + x11) | 0;
  d = (a + ((t << 10) | (t >>> 22))) | 0;
  t = (c + (a ^ (d | ~b)) + (0x2ad7d2bb) + x2) | 0;
  c = (d + ((t << 15) | (t >>> 17))) | 0;
  t = (b + (d ^ (c | ~a)) + (0xeb86d391 | 0) + x9) | 0;
  b = (c + ((t << 21) | (t >>> 11))) | 0;
  state[0] = (state[0] + a) | 0;
  state[1] = (state[1] + b) | 0;
  state[2] = (state[2] + c) | 0;
  state[3] = (state[3] + d) | 0;
}

function load(bytes, at) {
  for (let j = 0; j < 16; j++) {
    const p = at + 4 * j;
    X[j] = bytes[p] | (bytes[p + 1] << 8) | (bytes[p + 2] << 16) | (bytes[p + 3] << 24);
  }
}

/**
 * Computes MD5 of `bytes[0..len)` into `state` (four little-endian words). Returns `state`,
 * which the next call overwrites.
 * @param {Uint8Array} bytes
 * @param {number} [len]
 * @returns {Int32Array}
 */
function md5(bytes, len) {
  const n = len === undefined ? bytes.length : len;
  state[0] = 0x67452301;
  state[1] = 0xefcdab89 | 0;
  state[2] = 0x98badcfe | 0;
  state[3] = 0x10325476;
  let at = 0;
  for (; at + 64 <= n; at += 64) {
    load(bytes, at);
    block();
  }
  const rest = n - at;
  const total = rest < 56 ? 64 : 128;
  for (let i = 0; i < rest; i++) TAIL[i] = bytes[at + i];
  TAIL[rest] = 0x80;
  TAIL.fill(0, rest + 1, total - 8);
  const bits = n * 8;
  TAIL[total - 8] = bits & 0xff;
  TAIL[total - 7] = (bits >>> 8) & 0xff;
  TAIL[total - 6] = (bits >>> 16) & 0xff;
  TAIL[total - 5] = (bits >>> 24) & 0xff;
  const high = Math.floor(n / 536870912); // bits above 2^32
  TAIL[total - 4] = high & 0xff;
  TAIL[total - 3] = (high >>> 8) & 0xff;
  TAIL[total - 2] = (high >>> 16) & 0xff;
  TAIL[total - 1] = (high >>> 24) & 0xff;
  load(TAIL, 0);
  block();
  if (total === 128) {
    load(TAIL, 64);
    block();
  }
  return state;
}

/**
 * The first digest word (signed int32) of the one padded block already in `WORDS` (a short
 * key packed by lib/md5-pair.js `packAscii`).
 * @returns {number}
 */
function packedFirstWord() {
  state[0] = 0x67452301;
  state[1] = 0xefcdab89 | 0;
  state[2] = 0x98badcfe | 0;
  state[3] = 0x10325476;
  block();
  return state[0];
}

/**
 * The 16-byte digest of `bytes`.
 * @param {Uint8Array} bytes
 * @returns {Uint8Array}
 */
function digest(bytes) {
  const s = md5(bytes);
  const out = new Uint8Array(16);
  for (let g = 0; g < 4; g++) {
    const w = s[g];
    out[4 * g] = w & 0xff;
    out[4 * g + 1] = (w >>> 8) & 0xff;
    out[4 * g + 2] = (w >>> 16) & 0xff;
    out[4 * g + 3] = (w >>> 24) & 0xff;
  }
  return out;
}

/** Byte-swaps a 32-bit word, as an unsigned number. */
function bswap(w) {
  return (((w & 0xff) << 24) | ((w & 0xff00) << 8) | ((w >>> 8) & 0xff00) | (w >>> 24)) >>> 0;
}

/** The message words of the block being hashed (a packed short key goes here). */
const WORDS = X;

module.exports = { md5, digest, bswap, state, WORDS, packedFirstWord };
