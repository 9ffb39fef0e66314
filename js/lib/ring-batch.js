'use strict';
// Batch lookups: many keys in one call, each answered exactly as `index` answers it. On the
// plain md5 shape, short ASCII string keys are hashed two at a time (lib/md5-pair.js: two
// MD5 dependency chains interleaved) and searched without leaving the loop; every other key,
// and every other profile, goes through `index` one key at a time. Methods of Ring (installed
// on its prototype by ring.js).

const { SHORT_MAX, XA, XB, FIRST, packAscii, pair } = require('./md5-pair');
const { WORDS, packedFirstWord } = require('./md5');
const E = require('./errors');

/** The answer for a key the client refuses or no server takes. */
const NONE = -1;

const methods = {
  /**
   * The index of the server each key goes to, in order: `out[i]` for `keys[i]`, -1 where
   * the client refuses the key or no server owns it (what `index` throws for it). EmptyRingError
   * for a ring without servers; a key that is not a string, Buffer or Uint8Array is a TypeError.
   * @param {ArrayLike<string | Uint8Array>} keys
   * @param {Int32Array} [out] where the answers go (at least keys.length long); a new one when
   *   not given
   * @returns {Int32Array}
   */
  indexMany(keys, out) {
    const count = keys.length;
    if (out === undefined) out = new Int32Array(count);
    else if (!(out instanceof Int32Array) || out.length < count) throw new TypeError('out must be an Int32Array as long as keys');
    if (this.n === 0) throw new E.EmptyRingError();
    if (!this.shortMd5) {
      for (let i = 0; i < count; i++) out[i] = this.indexOrNone(keys[i]);
      return out;
    }
    const owners = this.owners;
    const len = this.values.length;
    // a short key waiting in lane 0 for a partner, or -1
    let waiting = NONE;
    for (let i = 0; i < count; i++) {
      const k = keys[i];
      if (typeof k !== 'string' || k.length === 0 || k.length > SHORT_MAX || !packAscii(k, waiting < 0 ? XA : XB)) {
        out[i] = this.indexOrNone(k);
      } else if (waiting < 0) {
        waiting = i;
      } else {
        pair();
        const a = this.lowerBound(FIRST[0] >>> 0);
        const b = this.lowerBound(FIRST[1] >>> 0);
        out[waiting] = owners[a === len ? 0 : a];
        out[i] = owners[b === len ? 0 : b];
        waiting = NONE;
      }
    }
    if (waiting >= 0) {
      WORDS.set(XA);
      const a = this.lowerBound(packedFirstWord() >>> 0);
      out[waiting] = owners[a === len ? 0 : a];
    }
    return out;
  },

  /**
   * The label of the server each key goes to, in order; null where the client refuses the
   * key or no server owns it (see `indexMany`).
   * @param {ArrayLike<string | Uint8Array>} keys
   * @returns {Array<string | null>}
   */
  getMany(keys) {
    const at = this.indexMany(keys);
    const out = new Array(at.length);
    for (let i = 0; i < at.length; i++) out[i] = at[i] < 0 ? null : this.labels[at[i]];
    return out;
  },

  /** `index(key)`, or -1 where it throws a refusal or finds no server. */
  indexOrNone(key) {
    try {
      return this.index(key);
    } catch (err) {
      if (err instanceof E.KetamaError && !(err instanceof E.EmptyRingError)) return NONE;
      throw err;
    }
  },
};

module.exports = { methods };
