'use strict';
// SHA-1 (FIPS 180-4) over byte arrays: the first digest word is what Dalli's ring reads.

const W = new Int32Array(80);
const H = new Int32Array(5);

function rotl(x, n) {
  return (x << n) | (x >>> (32 - n));
}

function compress(m, at) {
  for (let t = 0; t < 16; t++) {
    const p = at + 4 * t;
    W[t] = (m[p] << 24) | (m[p + 1] << 16) | (m[p + 2] << 8) | m[p + 3];
  }
  for (let t = 16; t < 80; t++) W[t] = rotl(W[t - 3] ^ W[t - 8] ^ W[t - 14] ^ W[t - 16], 1);
  let a = H[0];
  let b = H[1];
  let c = H[2];
  let d = H[3];
  let e = H[4];
  for (let t = 0; t < 80; t++) {
    let f;
    let k;
    if (t < 20) {
      f = (b & c) | (~b & d);
      k = 0x5a827999;
    } else if (t < 40) {
      f = b ^ c ^ d;
      k = 0x6ed9eba1;
    } else if (t < 60) {
      f = (b & c) | (b & d) | (c & d);
      k = 0x8f1bbcdc | 0;
    } else {
      f = b ^ c ^ d;
      k = 0xca62c1d6 | 0;
    }
    const tmp = (rotl(a, 5) + f + e + k + W[t]) | 0;
    e = d;
    d = c;
    c = rotl(b, 30);
    b = a;
    a = tmp;
  }
  H[0] = (H[0] + a) | 0;
  H[1] = (H[1] + b) | 0;
  H[2] = (H[2] + c) | 0;
  H[3] = (H[3] + d) | 0;
  H[4] = (H[4] + e) | 0;
}

const TAIL = new Uint8Array(128);

/**
 * SHA-1 of `bytes[0..len)`: the five big-endian digest words (signed int32), overwritten by
 * the next call.
 * @param {Uint8Array} bytes
 * @param {number} [len]
 * @returns {Int32Array}
 */
function sha1(bytes, len) {
  const n = len === undefined ? bytes.length : len;
  H[0] = 0x67452301;
  H[1] = 0xefcdab89 | 0;
  H[2] = 0x98badcfe | 0;
  H[3] = 0x10325476;
  H[4] = 0xc3d2e1f0 | 0;
  let at = 0;
  for (; at + 64 <= n; at += 64) compress(bytes, at);
  const rest = n - at;
  TAIL.fill(0);
  for (let i = 0; i < rest; i++) TAIL[i] = bytes[at + i];
  TAIL[rest] = 0x80;
  const total = rest < 56 ? 64 : 128;
  const lo = (n * 8) >>> 0;
  const hi = Math.floor(n / 536870912);
  TAIL[total - 8] = hi >>> 24;
  TAIL[total - 7] = (hi >>> 16) & 0xff;
  TAIL[total - 6] = (hi >>> 8) & 0xff;
  TAIL[total - 5] = hi & 0xff;
  TAIL[total - 4] = lo >>> 24;
  TAIL[total - 3] = (lo >>> 16) & 0xff;
  TAIL[total - 2] = (lo >>> 8) & 0xff;
  TAIL[total - 1] = lo & 0xff;
  compress(TAIL, 0);
  if (total === 128) compress(TAIL, 64);
  return H;
}

module.exports = { sha1 };
