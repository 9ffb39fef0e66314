'use strict';
// Keys as bytes: strings are encoded as UTF-8 into a reused buffer (no allocation for keys
// that fit), Buffers and Uint8Arrays are read as they are.

const { InvalidUtf8Error } = require('./errors');

const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
let scratch = new Uint8Array(1024);

/**
 * The UTF-8 bytes of `s`, in a shared buffer valid until the next call: returns its length;
 * the bytes are `scratchBytes()[0..len)`.
 * @param {string} s
 * @returns {number}
 */
function encodeShared(s, what = 'key') {
  const n = s.length;
  if (n * 3 > scratch.length) scratch = new Uint8Array(n * 3 + 16);
  let i = 0;
  // ASCII fast path; anything else through the encoder.
  for (; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0x80) break;
    scratch[i] = c;
  }
  if (i === n) return n;
  requireUnicode(s, what, i);
  const r = encoder.encodeInto(s.substring(i), scratch.subarray(i));
  return i + r.written;
}

/**
 * Refuses a string that is not Unicode: one holding an unpaired surrogate has no UTF-8
 * (TextEncoder would write U+FFFD for it), so every ketama binding refuses it with
 * InvalidUtf8Error instead of hashing a replacement; `what` names the argument.
 * @param {string} s
 * @param {string} what
 * @param {number} [from] the first index to look at
 */
function requireUnicode(s, what, from = 0) {
  for (let i = from; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0xd800 || c > 0xdfff) continue;
    const d = i + 1 < s.length ? s.charCodeAt(i + 1) : 0;
    if (c <= 0xdbff && d >= 0xdc00 && d <= 0xdfff) {
      i++;
      continue;
    }
    throw new InvalidUtf8Error(`${what} holds an unpaired surrogate at index ${i}`);
  }
}

/**
 * The UTF-8 bytes of a string that is Unicode (see {@link requireUnicode}).
 * @param {string} s
 * @param {string} what
 * @returns {Uint8Array}
 */
function utf8(s, what) {
  requireUnicode(s, what);
  return encoder.encode(s);
}

/** The shared buffer {@link encodeShared} writes into. */
function scratchBytes() {
  return scratch;
}

/**
 * The UTF-16 code units of the string whose UTF-8 encoding is `bytes[0..len)`, as Java's
 * `new String(bytes, UTF_8)` decodes it: each malformed sequence becomes one U+FFFD.
 * @param {Uint8Array} bytes
 * @param {number} len
 * @returns {string}
 */
function utf16(bytes, len) {
  let ascii = true;
  for (let i = 0; i < len; i++) {
    if (bytes[i] >= 0x80) {
      ascii = false;
      break;
    }
  }
  if (ascii) {
    let s = '';
    for (let i = 0; i < len; i++) s += String.fromCharCode(bytes[i]);
    return s;
  }
  return decoder.decode(bytes.subarray(0, len));
}

/** Bytes of a lowercase or uppercase hex string; `null` when it is not hex. */
function fromHex(s) {
  if (s.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(s)) return null;
  const out = new Uint8Array(s.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(s.substr(2 * i, 2), 16);
  return out;
}

/**
 * Byte length of the character at `b[at]` in `b[..n)`: a valid UTF-8 sequence (no overlong or
 * surrogate forms), else 1 (a byte that starts no valid sequence stands alone, as Ruby counts
 * characters and Python's surrogateescape decodes).
 */
function charLen(b, at, n) {
  const x = b[at];
  const want = x < 0x80 ? 1 : x >= 0xc2 && x <= 0xdf ? 2 : x >= 0xe0 && x <= 0xef ? 3 : x >= 0xf0 && x <= 0xf4 ? 4 : 1;
  if (want === 1 || at + want > n) return 1;
  const b1 = b[at + 1];
  let lo = 0x80;
  let hi = 0xbf;
  if (x === 0xe0) lo = 0xa0;
  else if (x === 0xed) hi = 0x9f;
  else if (x === 0xf0) lo = 0x90;
  else if (x === 0xf4) hi = 0x8f;
  if (b1 < lo || b1 > hi) return 1;
  for (let i = 2; i < want; i++) if ((b[at + i] & 0xc0) !== 0x80) return 1;
  return want;
}

/**
 * The characters of `b[..n)` read as UTF-8, each as the low byte of its code point; a byte
 * that starts no valid sequence stands for itself (Python's surrogateescape: U+DC80..U+DCFF).
 * Returns the count; the bytes are written to `out` (at least n long).
 */
function codePointLowBytes(b, n, out) {
  let o = 0;
  for (let at = 0; at < n; ) {
    const len = charLen(b, at, n);
    if (len === 1) {
      out[o++] = b[at];
    } else {
      // the low byte of the code point: the last continuation byte's 6 bits and 2 from before
      out[o++] = (b[at + len - 1] & 0x3f) | ((b[at + len - 2] & 0x03) << 6);
    }
    at += len;
  }
  return o;
}

module.exports = { encodeShared, scratchBytes, utf16, fromHex, encoder, requireUnicode, utf8, charLen, codePointLowBytes };
