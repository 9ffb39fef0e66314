'use strict';
// A key before it is hashed: the bytes of the key being looked up (one shared buffer, no
// allocation per lookup), the profile's key refusals and its key rewrite.

const { md5 } = require('./md5');
const { encodeShared, scratchBytes, charLen } = require('./bytes');
const E = require('./errors');
const { applyPrefix } = require('./options');
const { findTag, tagEnd } = require('./tag');

/**
 * The bytes of the key being looked up: `K.b[0..K.n)` (shared by every ring, valid until the
 * next lookup); `K.zero`: the client hashes nothing for it and uses hash 0 (libmemcached's
 * hashed prefix + key over 250 bytes).
 */
const K = { b: new Uint8Array(0), n: 0, zero: false };
let rewriteBuf = new Uint8Array(1024);
let tagBuf = new Uint8Array(256);

/** Sets K.b/K.n to the bytes of `key`. */
function loadKey(key) {
  K.zero = false;
  if (typeof key === 'string') {
    K.n = encodeShared(key);
    K.b = scratchBytes();
  } else if (key instanceof Uint8Array) {
    K.b = key;
    K.n = key.length;
  } else {
    throw new TypeError('key must be a string, Buffer or Uint8Array');
  }
}

function ensureRewrite(n) {
  if (rewriteBuf.length < n) rewriteBuf = new Uint8Array(n + 64);
  return rewriteBuf;
}

const HEXL = '0123456789abcdef';
const HEXU = '0123456789ABCDEF';

/**
 * Applies the profile's key refusals, then its hash tag (the client's braces, or the ring's
 * `hashTag` option where the client's tags are configured), then libmemcached's hashed
 * prefix (the ring's options `opts`, normalised, or null) or else the profile's key rewrite,
 * to K.b/K.n (in place: K.b/K.n may then point at a tag or rewrite buffer). Refusals are on
 * the key as given. Throws KeyRejectedError.
 */
function prepare(p, hashName, opts) {
  const lim = p.keyLimits;
  let refused =
    (K.n === 0 && (lim.empty || p.emptyKeyRejected.includes(hashName))) || K.n > lim.maxLen;
  if (refused || !charsAllow(lim.chars, K.b, K.n)) throw new E.KeyRejectedError();
  if (p.keyTag !== 'none') tagged(p, opts);
  if (opts !== null && opts !== undefined && opts.hashWithPrefix) {
    // only profiles whose key is not rewritten have the prefix option
    applyPrefix(opts, K);
    return;
  }
  switch (p.key) {
    case 'none':
      return;
    case 'truncate':
      if (K.n > p.keyN) K.n = p.keyN;
      return;
    case 'pecl_sanitize': {
      const n = Math.min(K.n, 250);
      const out = ensureRewrite(n);
      for (let i = 0; i < n; i++) out[i] = K.b[i] <= 0x20 ? 0x5f : K.b[i];
      K.b = out;
      K.n = n;
      return;
    }
    case 'url_encode': {
      const out = ensureRewrite(K.n * 3);
      let o = 0;
      for (let i = 0; i < K.n; i++) {
        const c = K.b[i];
        if ((c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || (c >= 0x30 && c <= 0x39) ||
          c === 0x2e || c === 0x2d || c === 0x2a || c === 0x5f) {
          out[o++] = c;
        } else if (c === 0x20) {
          out[o++] = 0x2b;
        } else {
          out[o++] = 0x25;
          out[o++] = HEXU.charCodeAt(c >> 4);
          out[o++] = HEXU.charCodeAt(c & 15);
        }
      }
      K.b = out;
      K.n = o;
      return;
    }
    case 'dalli_digest': {
      let chars = 0;
      let keep = 0;
      let at = 0;
      while (at < K.n && chars <= 250) {
        at += charLen(K.b, at, K.n);
        chars += 1;
        if (chars === 212) keep = at;
      }
      if (chars <= 250) return;
      const d = md5(K.b, K.n);
      const out = ensureRewrite(keep + 37);
      for (let i = 0; i < keep; i++) out[i] = K.b[i];
      out.set([0x3a, 0x6d, 0x64, 0x35, 0x3a], keep);
      let o = keep + 5;
      for (let g = 0; g < 4; g++) {
        for (let j = 0; j < 4; j++) {
          const byte = (d[g] >>> (8 * j)) & 0xff;
          out[o++] = HEXL.charCodeAt(byte >> 4);
          out[o++] = HEXL.charCodeAt(byte & 15);
        }
      }
      K.b = out;
      K.n = o;
      return;
    }
    case 'py_bytes_repr': {
      const out = ensureRewrite(K.n * 4 + 3);
      let single = false;
      let double = false;
      for (let i = 0; i < K.n; i++) {
        if (K.b[i] === 0x27) single = true;
        else if (K.b[i] === 0x22) double = true;
      }
      const quote = single && !double ? 0x22 : 0x27;
      let o = 0;
      out[o++] = 0x62;
      out[o++] = quote;
      for (let i = 0; i < K.n; i++) {
        const c = K.b[i];
        if (c === 0x5c || c === quote) {
          out[o++] = 0x5c;
          out[o++] = c;
        } else if (c === 0x09 || c === 0x0a || c === 0x0d) {
          out[o++] = 0x5c;
          out[o++] = c === 0x09 ? 0x74 : c === 0x0a ? 0x6e : 0x72;
        } else if (c >= 0x20 && c <= 0x7e) {
          out[o++] = c;
        } else {
          out[o++] = 0x5c;
          out[o++] = 0x78;
          out[o++] = HEXL.charCodeAt(c >> 4);
          out[o++] = HEXL.charCodeAt(c & 15);
        }
      }
      out[o++] = quote;
      K.b = out;
      K.n = o;
      return;
    }
    case 'prefix': {
      const pre = p.keyPrefix;
      const out = ensureRewrite(pre.length + K.n);
      // K.b is the caller's key, the encoding scratch or a tag, never the rewrite buffer
      out.set(K.b.subarray(0, K.n), pre.length);
      out.set(pre, 0);
      K.b = out;
      K.n = pre.length + K.n;
      return;
    }
    case 'latin1':
      latin1();
      return;
    default:
      throw new E.UnsupportedError(`key rewrite ${p.key}`);
  }
}

/** K's hash tag by the profile's rule, between `{}` or the ring's `hashTag` delimiters. */
function tagged(p, opts) {
  let o = 0x7b;
  let c = 0x7d;
  if (p.keyTag === 'configured') {
    const t = opts === null || opts === undefined ? null : opts.hashTag;
    if (t === null) return;
    o = t[0];
    c = t[1];
  }
  const start = findTag(p.tagRule, K.b, K.n, o, c);
  if (start < 0) return;
  // copied out of the caller's key or the encoding scratch (a tag starts past its `o`)
  const len = tagEnd() - start;
  if (tagBuf.length < len) tagBuf = new Uint8Array(len + 64);
  for (let i = 0; i < len; i++) tagBuf[i] = K.b[start + i];
  K.b = tagBuf;
  K.n = len;
}

/**
 * K (read as UTF-8) as one latin-1 byte per character (`str.encode('iso-8859-1')`);
 * KeyRejectedError when it is not UTF-8 or has a character above U+00FF.
 */
function latin1() {
  const out = ensureRewrite(K.n);
  let o = 0;
  for (let i = 0; i < K.n; i++) {
    const x = K.b[i];
    if (x < 0x80) {
      out[o++] = x;
    } else if ((x === 0xc2 || x === 0xc3) && i + 1 < K.n && (K.b[i + 1] & 0xc0) === 0x80) {
      out[o++] = ((x & 0x03) << 6) | (K.b[i + 1] & 0x3f);
      i++;
    } else {
      // a character above U+00FF, or bytes that are not UTF-8
      throw new E.KeyRejectedError();
    }
  }
  K.b = out;
  K.n = o;
}

const isCtl = (c) => c <= 0x20 || c === 0x7f;
const isPyWhitespace = (c) => c === 0x20 || (c >= 0x09 && c <= 0x0d);

/** Whether a key passes the profile's `key_limits.chars` rule (bytes the client refuses). */
function charsAllow(chars, b, n) {
  switch (chars) {
    case 'any':
      return true;
    case 'controls':
      for (let i = 0; i < n; i++) if (b[i] <= 0x20) return false;
      return true;
    case 'controls_del':
      for (let i = 0; i < n; i++) if (isCtl(b[i])) return false;
      return true;
    case 'py_whitespace':
    case 'py_whitespace_ascii': {
      // no NUL; whitespace only where the key is all whitespace (`key.split()` is empty)
      let ws = 0;
      for (let i = 0; i < n; i++) {
        const c = b[i];
        if (c === 0 || (c >= 0x80 && chars === 'py_whitespace_ascii')) return false;
        if (isPyWhitespace(c)) ws++;
      }
      return ws === 0 || ws === n;
    }
    case 'space_newline_nul':
      for (let i = 0; i < n; i++) {
        const c = b[i];
        if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0) return false;
      }
      return true;
    case 'python_memcached': {
      // `[\x21-\x7e\x80-\xff]+$`: `$` also matches before one final newline
      const end = n > 0 && b[n - 1] === 0x0a ? n - 1 : n;
      if (end === 0) return false;
      for (let i = 0; i < end; i++) if (isCtl(b[i])) return false;
      return true;
    }
    default:
      throw new E.UnsupportedError(`key chars ${chars}`);
  }
}

module.exports = { K, loadKey, prepare, charsAllow };
