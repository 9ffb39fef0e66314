'use strict';
// How many point strings each server gets: the count knobs and the relative-weight formulas,
// in the float32/float64 arithmetic each client uses (Math.fround is C's float).

const U32_MAX = 4294967295;
const f = Math.fround;

/** A double made a string count: finite positive values truncated, capped at 2^32 - 1. */
function clamp(x) {
  return Number.isFinite(x) && x > 0 ? Math.trunc(Math.min(x, U32_MAX)) : 0;
}

/** `10^e` as the nearest double, as PHP computes it (exact for 0 <= e <= 22). */
function pow10(e) {
  let p = 1;
  for (let i = 0; i < Math.abs(e); i++) p *= 10;
  return e < 0 ? 1 / p : p;
}

/**
 * PHP 8.0-8.3's `round($x)` for a non-negative finite `x`: when `x` has a place to spare
 * below 10^15, it is first rounded to 15 significant digits (`x * 10^p`, half up, divided
 * back), then rounded half up to an integer (`floor(x + 0.5)`).
 */
function phpRound(x) {
  if (!Number.isFinite(x) || x <= 0) return Math.max(x, 0);
  // floor(log10(x)) as PHP finds it, by comparison with powers of ten
  let e = -8;
  while (e < 23 && pow10(e + 1) <= x) e++;
  const places = 14 - e;
  let pre = x;
  if (places > 0 && places < 15) {
    const f = pow10(places);
    pre = Math.floor(x * f + 0.5) / f;
  } else if (x >= 1e15) {
    return x;
  }
  return Math.floor(pre + 0.5);
}

/**
 * Digests (strings) of a server of weight `w` among `n` servers totalling `total`, by the
 * named relative-weight formula.
 * @param {string} formula
 * @param {number} w
 * @param {number} total
 * @param {number} n
 * @returns {number}
 */
function digests(formula, w, total, n) {
  if (total === 0) return 0;
  switch (formula) {
    case 'libketama':
    case 'lk': {
      // floorf((double)(float)(w / W) * 40.0 * (float)n)
      const p = f(f(w) / f(total));
      const x = p * 40 * f(n);
      return clamp(Math.floor(f(x)));
    }
    case 'libmemcached':
    case 'lm': {
      // all in float: floorf((float)(w / W) * 160 / 4 * (float)n + 0.0000000001)
      const p = f(f(w) / f(total));
      const a = f(p * 160);
      const b = f(a / 4);
      const c = f(b * f(n));
      return clamp(Math.floor(f(c + f(1e-10))));
    }
    case 'node_hashring':
    case 'nd':
      return clamp(Math.floor((w / total) * 40 * n));
    case 'integer_div':
    case 'int': {
      const d = (40n * BigInt(n) * BigInt(w)) / BigInt(total);
      return d > BigInt(U32_MAX) ? U32_MAX : Number(d);
    }
    case 'whalin': {
      // Java ints: (int)(w * 40 * n) and (int)W wrap
      const p = Math.imul(w | 0, (40 * n) | 0);
      const t = Number(BigInt.asIntN(32, BigInt(total)));
      if (t === 0) return 0;
      return clamp(Math.floor(p / t));
    }
    case 'dalli': {
      const p = Number(160n * BigInt(n) * BigInt(w));
      return clamp(Math.floor(p / total));
    }
    case 'predis':
      return clamp(phpRound((w / total) * n * 128));
    case 'predis_ketama':
      return clamp(Math.floor((w / total) * n * 40));
    case 'finagle': {
      // Java ints: the weight and the total wrap at 32 bits
      const t = Number(BigInt.asIntN(32, BigInt(total)));
      if (t === 0) return 0;
      return clamp(((w | 0) / t) * n * 40 + 1e-10);
    }
    default:
      throw new Error(`unknown weight formula ${formula}`);
  }
}

/**
 * Strings for a server of weight `w` (already mapped by the zero-weight rule).
 * @param {{kind: string, k?: number, formula?: string}} count
 */
function strings(count, w, total, n) {
  switch (count.kind) {
    case 'fixed':
      return count.k;
    case 'per_weight':
      return Math.min(count.k * w, U32_MAX);
    case 'per_weight_int': {
      // a Java int: the product wraps, a negative one gives no strings
      const p = Math.imul(count.k, w | 0);
      return p < 0 ? 0 : p;
    }
    case 'relative':
      return digests(count.formula, w, total, n);
    default:
      throw new Error(`unknown count ${count.kind}`);
  }
}

module.exports = { digests, strings, phpRound };
