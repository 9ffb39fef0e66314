'use strict';
// SpookyHash V2 (Bob Jenkins; folly's SpookyHashV2) in 64-bit BigInt arithmetic: Hash128,
// Hash64 and Hash32 with their seeds.

const M64 = (1n << 64n) - 1n;
const SC_CONST = 0xdeadbeefdeadbeefn;
const NUM_VARS = 12;
const BLOCK_SIZE = NUM_VARS * 8;
const BUF_SIZE = 2 * BLOCK_SIZE;

function rot(x, r) {
  const k = BigInt(r);
  return ((x << k) | (x >> (64n - k))) & M64;
}

/** Little-endian u64 of `b[at..at+8)` (bytes past `end` read as 0). */
function word(b, at, end) {
  let w = 0n;
  for (let i = 7; i >= 0; i--) w = (w << 8n) | BigInt(at + i < end ? b[at + i] : 0);
  return w;
}

const SHORT_MIX = [
  [2, 3, 0, 50], [3, 0, 1, 52], [0, 1, 2, 30], [1, 2, 3, 41],
  [2, 3, 0, 54], [3, 0, 1, 48], [0, 1, 2, 38], [1, 2, 3, 37],
  [2, 3, 0, 62], [3, 0, 1, 34], [0, 1, 2, 5], [1, 2, 3, 36],
];
const SHORT_END = [
  [3, 2, 15], [0, 3, 52], [1, 0, 26], [2, 1, 51], [3, 2, 28], [0, 3, 9],
  [1, 0, 47], [2, 1, 54], [3, 2, 32], [0, 3, 25], [1, 0, 63],
];

function shortMix(h) {
  for (const [a, b, c, r] of SHORT_MIX) {
    h[a] = rot(h[a], r);
    h[a] = (h[a] + h[b]) & M64;
    h[c] ^= h[a];
  }
}

function shortEnd(h) {
  for (const [a, b, r] of SHORT_END) {
    h[a] ^= h[b];
    h[b] = rot(h[b], r);
    h[a] = (h[a] + h[b]) & M64;
  }
}

function short(m, len, seed1, seed2) {
  const h = [seed1, seed2, SC_CONST, SC_CONST];
  let at = 0;
  if (len > 15) {
    while (len - at >= 32) {
      h[2] = (h[2] + word(m, at, len)) & M64;
      h[3] = (h[3] + word(m, at + 8, len)) & M64;
      shortMix(h);
      h[0] = (h[0] + word(m, at + 16, len)) & M64;
      h[1] = (h[1] + word(m, at + 24, len)) & M64;
      at += 32;
    }
    if (len - at >= 16) {
      h[2] = (h[2] + word(m, at, len)) & M64;
      h[3] = (h[3] + word(m, at + 8, len)) & M64;
      shortMix(h);
      at += 16;
    }
  }
  h[3] = (h[3] + (BigInt(len) << 56n)) & M64;
  const r = len - at;
  if (r >= 8) {
    h[3] = (h[3] + word(m, at + 8, len)) & M64;
    h[2] = (h[2] + word(m, at, len)) & M64;
  } else if (r > 0) {
    h[2] = (h[2] + word(m, at, len)) & M64;
  } else {
    h[2] = (h[2] + SC_CONST) & M64;
    h[3] = (h[3] + SC_CONST) & M64;
  }
  shortEnd(h);
  return [h[0], h[1]];
}

const MIX_ROT = [11, 32, 43, 31, 17, 28, 39, 57, 55, 54, 22, 46];
const END_ROT = [44, 15, 34, 21, 38, 33, 10, 13, 38, 53, 42, 54];

function mix(data, at, s) {
  for (let i = 0; i < NUM_VARS; i++) {
    s[i] = (s[i] + word(data, at + 8 * i, data.length)) & M64;
    s[(i + 2) % NUM_VARS] ^= s[(i + 10) % NUM_VARS];
    s[(i + 11) % NUM_VARS] ^= s[i];
    s[i] = rot(s[i], MIX_ROT[i]);
    s[(i + 11) % NUM_VARS] = (s[(i + 11) % NUM_VARS] + s[(i + 1) % NUM_VARS]) & M64;
  }
}

function endPartial(h) {
  for (let i = 0; i < NUM_VARS; i++) {
    const a = (i + 11) % NUM_VARS;
    const b = (i + 1) % NUM_VARS;
    const c = (i + 2) % NUM_VARS;
    h[a] = (h[a] + h[b]) & M64;
    h[c] ^= h[a];
    h[b] = rot(h[b], END_ROT[i]);
  }
}

/**
 * SpookyHash V2 Hash128 of `m[0..len)` with two 64-bit seeds: `[hash1, hash2]`.
 * @param {Uint8Array} m
 * @param {number} len
 * @param {bigint} seed1
 * @param {bigint} seed2
 * @returns {[bigint, bigint]}
 */
function hash128(m, len, seed1, seed2) {
  if (len < BUF_SIZE) return short(m, len, seed1, seed2);
  const h = [];
  for (let i = 0; i < NUM_VARS; i++) h.push(i % 3 === 0 ? seed1 : i % 3 === 1 ? seed2 : SC_CONST);
  const view = m.subarray(0, len);
  let at = 0;
  for (; at + BLOCK_SIZE <= len; at += BLOCK_SIZE) mix(view, at, h);
  const last = new Uint8Array(BLOCK_SIZE);
  last.set(view.subarray(at));
  last[BLOCK_SIZE - 1] = len - at;
  for (let i = 0; i < NUM_VARS; i++) h[i] = (h[i] + word(last, 8 * i, BLOCK_SIZE)) & M64;
  endPartial(h);
  endPartial(h);
  endPartial(h);
  return [h[0], h[1]];
}

/** SpookyHash V2 Hash32(m, len, seed): the low 32 bits of Hash128 with both seeds = seed. */
function hash32(m, len, seed) {
  const s = BigInt(seed >>> 0);
  return Number(hash128(m, len, s, s)[0] & 0xffffffffn);
}

/** SpookyHash V2 Hash64(m, len, seed) as a BigInt. */
function hash64(m, len, seed) {
  const s = BigInt(seed);
  return hash128(m, len, s, s)[0];
}

module.exports = { hash128, hash32, hash64 };
