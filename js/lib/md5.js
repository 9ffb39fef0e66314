'use strict';
// MD5 (RFC 1321) over byte arrays, written for short inputs: no allocation per call, the
// state returned as four little-endian 32-bit words (word g = digest bytes 4g..4g+3).

/** Per-step additive constants: floor(abs(sin(i + 1)) * 2^32). */
const K = new Int32Array(64);
for (let i = 0; i < 64; i++) K[i] = Math.floor(Math.abs(Math.sin(i + 1)) * 4294967296) | 0;

/** Rotation amounts, per round. */
const S = [7, 12, 17, 22, 5, 9, 14, 20, 4, 11, 16, 23, 6, 10, 15, 21];

const X = new Int32Array(16);
const TAIL = new Uint8Array(128);

/** The digest of the last computed message, as four little-endian words (signed int32). */
const state = new Int32Array(4);

function block(x) {
  let a = state[0];
  let b = state[1];
  let c = state[2];
  let d = state[3];
  const a0 = a;
  const b0 = b;
  const c0 = c;
  const d0 = d;
  for (let i = 0; i < 64; i++) {
    let f;
    let g;
    let s;
    if (i < 16) {
      f = (b & c) | (~b & d);
      g = i;
      s = S[i & 3];
    } else if (i < 32) {
      f = (d & b) | (~d & c);
      g = (5 * i + 1) & 15;
      s = S[4 + (i & 3)];
    } else if (i < 48) {
      f = b ^ c ^ d;
      g = (3 * i + 5) & 15;
      s = S[8 + (i & 3)];
    } else {
      f = c ^ (b | ~d);
      g = (7 * i) & 15;
      s = S[12 + (i & 3)];
    }
    const t = (a + f + K[i] + x[g]) | 0;
    a = d;
    d = c;
    c = b;
    b = (b + ((t << s) | (t >>> (32 - s)))) | 0;
  }
  state[0] = (a0 + a) | 0;
  state[1] = (b0 + b) | 0;
  state[2] = (c0 + c) | 0;
  state[3] = (d0 + d) | 0;
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
    block(X);
  }
  const rest = n - at;
  TAIL.fill(0);
  for (let i = 0; i < rest; i++) TAIL[i] = bytes[at + i];
  TAIL[rest] = 0x80;
  const total = rest < 56 ? 64 : 128;
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
  block(X);
  if (total === 128) {
    load(TAIL, 64);
    block(X);
  }
  return state;
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

module.exports = { md5, digest, bswap, state };
