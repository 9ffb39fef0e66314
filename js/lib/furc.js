'use strict';
// mcrouter's furc_hash (CH3) and WeightedCh3HashFunc.

const { hash32: spooky32 } = require('./spooky');
const { murmur64aSeeded, H64 } = require('./hash64');

/** MurmurHash64A seed furc uses. */
const FURC_SEED = 4193360111;
/** Bits between the tree levels of one try; limits pools to 2^23 servers. */
const FURC_SHIFT = 23;
/** Tries of the tree walk before furc answers 0. */
const FURC_MAX_TRIES = 32;
/** The largest pool mcrouter's Ch3HashFunc accepts. */
const FURC_MAX_POOL = 1 << FURC_SHIFT;
/** Seed of the SpookyHashV2 Hash32 draw in WeightedCh3HashFunc. */
const WCH3_SEED = 0xface2014;
/** Tries of WeightedCh3HashFunc. */
const WCH3_TRIES = 32;

/** MurmurHash64A of `key[0..len)` with a 32-bit seed, as a BigInt. */
function murmur64a(key, len, seed) {
  murmur64aSeeded(key, len, seed);
  return (BigInt(H64[0]) << 32n) | BigInt(H64[1]);
}

/** The bit stream of one key: word 0 = murmur64a(key), word n = murmur64a(le64(word n-1)). */
class Bits {
  constructor(key, len) {
    this.key = key;
    this.len = len;
    this.words = [];
    this.buf = new Uint8Array(8);
  }

  bit(idx) {
    const ord = idx >>> 6;
    while (this.words.length <= ord) {
      if (this.words.length === 0) {
        this.words.push(murmur64a(this.key, this.len, FURC_SEED));
      } else {
        let w = this.words[this.words.length - 1];
        for (let i = 0; i < 8; i++) {
          this.buf[i] = Number(w & 0xffn);
          w >>= 8n;
        }
        this.words.push(murmur64a(this.buf, 8, FURC_SEED));
      }
    }
    return ((this.words[ord] >> BigInt(idx & 63)) & 1n) === 1n;
  }
}

/**
 * furc_hash(key, len, m): a server index in 0..m (0 when m <= 1).
 * @param {Uint8Array} key
 * @param {number} len
 * @param {number} m
 * @returns {number}
 */
function furcHash(key, len, m) {
  if (m <= 1) return 0;
  const bits = new Bits(key, len);
  let d = 32 - Math.clz32(m - 1);
  let a = d;
  for (let t = 0; t < FURC_MAX_TRIES; t++) {
    while (!bits.bit(a)) {
      d -= 1;
      if (d === 0) return 0;
      a = d;
    }
    a += FURC_SHIFT;
    let num = 1;
    for (let i = 0; i < d - 1; i++) {
      num = ((num << 1) | (bits.bit(a) ? 1 : 0)) >>> 0;
      a += FURC_SHIFT;
    }
    if (num < m) return num;
  }
  return 0;
}

/**
 * WeightedCh3HashFunc::hash(key, weights): the chosen index, or -1 when `weights` is empty,
 * longer than 2^23 or holds a weight outside 0..1. Try t draws SpookyHash32(k, 0xface2014)
 * against weights[furc(k, n)] * (2^32 - 1) truncated; the salt is t's digits least
 * significant first.
 * @param {Uint8Array} key
 * @param {number} len
 * @param {number[]} weights
 * @returns {number}
 */
function weightedCh3(key, len, weights) {
  const n = weights.length;
  if (n === 0 || n > FURC_MAX_POOL || weights.some((w) => !(w >= 0 && w <= 1))) return -1;
  const buf = new Uint8Array(len + 20);
  buf.set(key.subarray(0, len));
  let blen = len;
  let index = 0;
  for (let salt = 0; salt < WCH3_TRIES; salt++) {
    index = furcHash(buf, blen, n);
    const p = spooky32(buf, blen, WCH3_SEED);
    const w = Math.trunc(weights[index] * 4294967295);
    if (p < w) return index;
    blen = len;
    let s = salt;
    do {
      buf[blen++] = 0x30 + (s % 10);
      s = Math.floor(s / 10);
    } while (s !== 0);
  }
  return index;
}

module.exports = { murmur64a, furcHash, weightedCh3, FURC_MAX_POOL, FURC_SEED, WCH3_SEED };
