'use strict';
// Hash tags: the part of a key a client hashes instead of the whole key, found by each
// client's own rule (the profile's `key_tag.rule`) between an opening byte `o` and a closing
// byte `c`. Each rule returns where the tag starts in `b[0..n)`, or -1 when it finds none
// (the whole key is hashed); the tag ends at `tagEnd()`.

/** The end (exclusive) of the last tag found. */
let end = 0;

/** The end of the tag the last `findTag` found. */
function tagEnd() {
  return end;
}

/** The first `o` in `b[0..n)`, then the first `c` after it: the bytes between (maybe none). */
function first(b, n, o, c) {
  let open = -1;
  for (let i = 0; i < n; i++) {
    if (b[i] === o) {
      open = i;
      break;
    }
  }
  if (open < 0) return -1;
  for (let j = open + 1; j < n; j++) {
    if (b[j] === c) {
      end = j;
      return open + 1;
    }
  }
  return -1;
}

/** Whether the bytes at `b[at..n)` start a Java line terminator: `\n`, `\r`, U+0085, U+2028, U+2029. */
function javaLineEnd(b, at, n) {
  const x = b[at];
  if (x === 0x0a || x === 0x0d) return true;
  if (x === 0xc2) return at + 1 < n && b[at + 1] === 0x85;
  if (x === 0xe2) return at + 2 < n && b[at + 1] === 0x80 && (b[at + 2] === 0xa8 || b[at + 2] === 0xa9);
  return false;
}

/** Whether `b[at]` is `\n` (Ruby's `.` stops there). */
function newline(b, at) {
  return b[at] === 0x0a;
}

/**
 * From the `o` at `p`: at least one byte, then up to the first `c`, failing at a line end
 * (`ends(b, at, n)`) before that `c`; the start of the bytes between, or -1.
 */
function lazyFrom(b, n, p, c, ends) {
  const start = p + 1;
  if (start >= n || ends(b, start, n)) return -1;
  for (let q = start + 1; q < n; q++) {
    if (ends(b, q, n)) return -1;
    if (b[q] === c) {
      end = q;
      return start;
    }
  }
  return -1;
}

/**
 * Where the tag `rule` finds in `b[0..n)` with delimiters `o`, `c` starts (its end:
 * `tagEnd()`), or -1 when it finds none:
 * `first_non_empty` the first `o`, the first `c` after it, at least one byte between
 * (twemproxy, Predis, go-redis); `first_up_to_nul` the same within the key up to its first
 * NUL, even an empty tag (phpredis); `line_start` Ruby's `/^o(.+?)c/` (redis-rb);
 * `greedy_last` Python's `.*o(.*)c` on the first line (redis-shard); `lazy_find` Java's
 * `o(.+?)c` with `find()` (Jedis).
 * @param {string} rule
 * @param {Uint8Array} b
 * @param {number} n
 * @param {number} o
 * @param {number} c
 * @returns {number}
 */
function findTag(rule, b, n, o, c) {
  switch (rule) {
    case 'first_non_empty': {
      const s = first(b, n, o, c);
      return s >= 0 && end > s ? s : -1;
    }
    case 'first_up_to_nul': {
      let text = n;
      for (let i = 0; i < n; i++) {
        if (b[i] === 0) {
          text = i;
          break;
        }
      }
      return first(b, text, o, c);
    }
    case 'line_start':
      for (let p = 0; p < n; p++) {
        if (b[p] === o && (p === 0 || b[p - 1] === 0x0a)) {
          const s = lazyFrom(b, n, p, c, newline);
          if (s >= 0) return s;
        }
      }
      return -1;
    case 'greedy_last': {
      let line = n;
      for (let i = 0; i < n; i++) {
        if (b[i] === 0x0a) {
          line = i;
          break;
        }
      }
      let close = -1;
      for (let i = line - 1; i >= 0; i--) {
        if (b[i] === c) {
          close = i;
          break;
        }
      }
      for (let i = close - 1; i >= 0; i--) {
        if (b[i] === o) {
          end = close;
          return i + 1;
        }
      }
      return -1;
    }
    case 'lazy_find':
      for (let p = 0; p < n; p++) {
        if (b[p] === o) {
          const s = lazyFrom(b, n, p, c, javaLineEnd);
          if (s >= 0) return s;
        }
      }
      return -1;
    default:
      throw new Error(`unknown tag rule ${rule}`);
  }
}

module.exports = { findTag, tagEnd };
