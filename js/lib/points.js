'use strict';
// The pieces a continuum is made of: each point's string (a node and a decimal index in the
// client's form), byte order and byte comparison helpers, and the stable radix sort.

const E = require('./errors');

/** Writes the ASCII digits of `digits` at `buf[o..)`; returns the end offset. */
function putDigits(buf, o, digits) {
  for (let i = 0; i < digits.length; i++) buf[o + i] = digits.charCodeAt(i);
  return o + digits.length;
}

/** Writes the decimal digits of `i` at `buf[o..)`; returns the new end. */
function putDecimal(buf, o, i) {
  if (i < 10) {
    buf[o] = 0x30 + i;
    return o + 1;
  }
  let digits = 1;
  for (let x = i; x >= 10; x = Math.floor(x / 10)) digits++;
  let at = o + digits;
  for (let x = i; at > o; x = Math.floor(x / 10)) buf[--at] = 0x30 + (x % 10);
  return o + digits;
}

/** `-NODE-`: Jedis's unnamed shards' point strings are `SHARD-<place>-NODE-i`. */
const DASH_NODE = Uint8Array.from([0x2d, 0x4e, 0x4f, 0x44, 0x45, 0x2d]);

/** Writes point string i of `node` (its bytes) into `buf` (room for 16 bytes past the node); returns its length. */
function spell(buf, form, node, i) {
  let o = 0;
  switch (form) {
    case 'dash':
      buf.set(node, 0);
      buf[node.length] = 0x2d;
      return putDecimal(buf, node.length + 1, i);
    case 'prefix':
      o = putDecimal(buf, 0, i);
      buf.set(node, o);
      return o + node.length;
    case 'concat':
      buf.set(node, 0);
      return putDecimal(buf, node.length, i);
    case 'bare':
      buf.set(node, 0);
      return node.length;
    case 'colon':
      buf.set(node, 0);
      buf[node.length] = 0x3a;
      return putDecimal(buf, node.length + 1, i);
    case 'star':
      buf.set(node, 0);
      buf[node.length] = 0x2a;
      return putDecimal(buf, node.length + 1, i);
    case 'dash_node':
      buf.set(node, 0);
      buf.set(DASH_NODE, node.length);
      return putDecimal(buf, node.length + DASH_NODE.length, i);
    default:
      throw new E.UnsupportedError(`string form ${form}`);
  }
}

/** Compares two byte arrays bytewise (a shorter prefix first). */
function compareBytes(a, b) {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i] - b[i];
  return a.length - b.length;
}

/**
 * Sorts `vals` (with `owns` alongside) by value, stably: two counting passes of 16 bits,
 * through the scratch arrays `tv`/`to` (same length).
 */
function radixSort(vals, owns, tv, to) {
  const n = vals.length;
  const count = new Uint32Array(65537);
  for (let i = 0; i < n; i++) count[(vals[i] & 0xffff) + 1]++;
  for (let b = 1; b <= 65536; b++) count[b] += count[b - 1];
  for (let i = 0; i < n; i++) {
    const d = count[vals[i] & 0xffff]++;
    tv[d] = vals[i];
    to[d] = owns[i];
  }
  count.fill(0);
  for (let i = 0; i < n; i++) count[(tv[i] >>> 16) + 1]++;
  for (let b = 1; b <= 65536; b++) count[b] += count[b - 1];
  for (let i = 0; i < n; i++) {
    const d = count[tv[i] >>> 16]++;
    vals[d] = tv[i];
    owns[d] = to[i];
  }
}


/** A 32-bit word with its bytes reversed (unsigned). */
function bswapU(w) {
  return (((w & 0xff) << 24) | ((w & 0xff00) << 8) | ((w >>> 8) & 0xff00) | (w >>> 24)) >>> 0;
}

module.exports = { putDigits, putDecimal, spell, compareBytes, radixSort, bswapU };
