'use strict';
// Each client's failover sequence: the servers it tries for a key, in order, while the earlier
// ones are down. Every sequence is shown one server index at a time to a visitor that returns
// true to stop it, so a live-server lookup ends at the first live server as the client does
// (whalin's rehashes may never reach every server; they cost only as many as it takes).

const { K } = require('./key');
const { putDigits } = require('./points');

/** spymemcached's `getSequence`: the primary and 6 rehashes. */
const SPY_SEQUENCE = 7;
/** The most rehashes `rehash_key_untried` makes for one key. */
const UNTRIED_REHASH_CAP = 1 << 20;

/** How many servers the client tries for one key before it gives up. */
function limit(ring) {
  const p = ring.profile;
  if (p.failover === 'walk' || p.failover === 'rehash_key_untried') return ring.n;
  if (p.failover === 'rehash') return p.boundedByServers ? ring.n + 1 : SPY_SEQUENCE;
  if (p.failover === 'rehash_doubled') return ring.n + 1;
  if (p.failover === 'stay') return 1;
  return p.tries;
}

/** Shows `visit` the key's failover sequence (server indexes), at most `n`, until it returns true. */
function each(ring, key, n, visit) {
  const p = ring.profile;
  const first = ring.locateKey(key);
  if (n <= 0) return;
  // The key as the client hashes it, loaded into K by ring.locateKey: copied (before any visitor
  // runs) only for the rules that rehash it.
  const key0 = p.failover === 'walk' || p.failover === 'stay' ? null : K.b.slice(0, K.n);
  if (visit(first)) return;
  const continuum = p.isRing;
  if (p.failover === 'rehash_key' || p.failover === 'rehash_key_dash' || p.failover === 'rehash_hash' ||
    p.failover === 'rehash_sum') {
    rehashTries(ring, key0, Math.min(n, p.tries), visit);
  } else if (p.failover === 'rehash_doubled') {
    rehashTries(ring, key0, Math.min(n, ring.n + 1), visit);
  } else if (p.failover === 'rehash_key_untried') {
    rehashUntried(ring, key0, first, Math.min(n, ring.n), visit);
  } else if (p.failover === 'rehash' && continuum) {
    rehashWalk(ring, key0, (p.boundedByServers ? Math.min(n, ring.n + 1) : n) - 1, visit);
  } else if (p.failover !== 'stay') {
    const rest = ring.indexN(key, n);
    for (let i = 1; i < rest.length; i++) if (visit(rest[i])) return;
  }
}

/** spymemcached / xmemcached: `hv = (hv + H(decimal(t) + key)) mod 2^32` walked on the continuum. */
function rehashWalk(ring, key0, rehashes, visit) {
  let hv = ring.hashFn(key0, key0.length);
  const tagged = new Uint8Array(key0.length + 20);
  const len = ring.values.length;
  for (let r = 0, t = ring.profile.firstTag; r < rehashes; r++, t++) {
    const n = putDigits(tagged, 0, String(t));
    tagged.set(key0, n);
    hv = (hv + ring.hashFn(tagged, n + key0.length)) >>> 0;
    const at = ring.lowerBound(hv);
    if (visit(ring.ownerAt(at === len ? 0 : at))) return;
  }
}

/**
 * dalli (`rehash_key`: lookup t >= 1 hashes `decimal(t - 1) + key`), pecl memcache
 * (`rehash_key_dash`: `key + '-' + decimal(t - 1)`), python-memcached (`rehash_hash`:
 * `h(t + 1) = H(decimal(h(t)) + decimal(t))`), Cache::Memcached (`rehash_sum`:
 * `h += H(decimal(t) + key)` for t = 1, 2, ...) and Enyim's ketama (`rehash_doubled`:
 * `2 * H(decimal(t - 1) + key)`): `n` lookups in all, each hash placed as the key's own hash
 * is; one server with the single-server shortcut: that server alone.
 */
function rehashTries(ring, key0, n, visit) {
  const p = ring.profile;
  if (p.singleShortcut && ring.n === 1) return;
  let h = ring.hashFn(key0, key0.length);
  const tagged = new Uint8Array(key0.length + 40);
  for (let t = 0; t < n - 1; t++) {
    let len;
    switch (p.failover) {
      case 'rehash_key':
      case 'rehash_doubled':
        len = putDigits(tagged, 0, String(t));
        tagged.set(key0, len);
        len += key0.length;
        break;
      case 'rehash_sum':
        len = putDigits(tagged, 0, String(t + 1));
        tagged.set(key0, len);
        len += key0.length;
        break;
      case 'rehash_key_dash':
        tagged.set(key0, 0);
        tagged[key0.length] = 0x2d;
        len = putDigits(tagged, key0.length + 1, String(t));
        break;
      default:
        len = putDigits(tagged, 0, String(h));
        len = putDigits(tagged, len, String(t));
    }
    const th = ring.hashFn(tagged, len);
    if (p.failover === 'rehash_sum') h = (h + th) >>> 0;
    else if (p.failover === 'rehash_doubled') h = (th * 2) >>> 0;
    else h = th;
    if (visit(ring.indexOfHash(h))) return;
  }
}

/**
 * whalin (`rehash_key_untried`): after the key's own server, `decimal(t) + key` for
 * t = 0, 1, ... placed as a key is, each server shown the first time it comes up, until `n`
 * have been. The client has no bound (a server owning no bucket keeps it searching forever);
 * this stops after UNTRIED_REHASH_CAP rehashes.
 */
function rehashUntried(ring, key0, first, n, visit) {
  const shown = [first];
  const saved = K.b;
  const tagged = new Uint8Array(key0.length + 20);
  try {
    for (let t = 0; shown.length < n && t < UNTRIED_REHASH_CAP; t++) {
      const len = putDigits(tagged, 0, String(t));
      tagged.set(key0, len);
      K.b = tagged;
      K.n = len + key0.length;
      const i = ring.indexOfPrepared();
      if (!shown.includes(i)) {
        shown.push(i);
        if (visit(i)) return;
      }
    }
  } finally {
    K.b = saved;
    K.n = 0;
  }
}

module.exports = { each, limit };
