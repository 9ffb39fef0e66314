'use strict';
// Keys as bytes: strings are encoded as UTF-8 into a reused buffer (no allocation for keys
// that fit), Buffers and Uint8Arrays are read as they are.

const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
let scratch = new Uint8Array(1024);

/**
 * The UTF-8 bytes of `s`, in a shared buffer valid until the next call: returns its length;
 * the bytes are `scratchBytes()[0..len)`.
 * @param {string} s
 * @returns {number}
 */
function encodeShared(s) {
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
  const r = encoder.encodeInto(s.substring(i), scratch.subarray(i));
  return i + r.written;
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

module.exports = { encodeShared, scratchBytes, utf16, fromHex, encoder };
