'use strict';
// Side-by-side speed of the JavaScript port's Ring.get (profile node-hashring) and npm
// hashring 3.2.0's HashRing.get (default options: md5, its 5,000-entry LRU cache), same
// servers, same keys, one process; plus the package's MD5 against node:crypto for the key
// hash alone. A benchmark, not a test. Env KETAMA_JS_PKG: the JS package to time (default js/).
//
//   node bench/js/compare.js [SERVERS ...] [--keys 20000] [--budget 1]
//
// Prints `path servers anchor_ns ours_ns ratio` lines (tab-separated). Placement is compared
// on every key first (a difference exits 1). Keys are user:N:profile; 20,000 distinct keys
// cycle, so hashring's cache (5,000 entries) misses as it would under real traffic with more
// keys than it holds. Times: the best of many short runs of 500 keys, anchor and ours
// alternating, so both see the same machine load.

const path = require('path');
const crypto = require('crypto');
const { Ring, hash } = require(process.env.KETAMA_JS_PKG || path.join(__dirname, '..', '..', 'js'));

let HashRing;
try {
  HashRing = require('hashring');
} catch (err) {
  process.stderr.write('npm install in bench/js first (hashring 3.2.0)\n');
  process.exit(2);
}

const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(name);
  if (i < 0) return dflt;
  const v = Number(args[i + 1]);
  args.splice(i, 2);
  return v;
};
const nkeys = opt('--keys', 20000);
const budget = opt('--budget', 1);
const sizes = args.length ? args.map(Number) : [10, 100, 1000];
const CHUNK = 500;

const labels = (n) => Array.from({ length: n }, (_, i) => `10.${Math.floor(i / 62500)}.${Math.floor(i / 250) % 250}.${(i % 250) + 1}:11211`);
const keys = Array.from({ length: nkeys }, (_, i) => `user:${i}:profile`);

/** Best ns/key of each run over chunks of keys, alternating, for about `budget` seconds. */
function race(runs) {
  const best = runs.map(() => Infinity);
  const start = process.hrtime.bigint();
  let sink = 0;
  for (let r = 0; r < 2 * (nkeys / CHUNK) || Number(process.hrtime.bigint() - start) / 1e9 < budget; r++) {
    const from = (r * CHUNK) % nkeys;
    const chunk = keys.slice(from, from + CHUNK);
    runs.forEach((run, i) => {
      const t = process.hrtime.bigint();
      sink += run(chunk);
      const dt = Number(process.hrtime.bigint() - t) / chunk.length;
      if (dt < best[i]) best[i] = dt;
    });
  }
  if (sink === -1) process.stdout.write('');
  return best;
}

function row(pathName, servers, anchor, ours) {
  process.stdout.write(`${pathName}\t${servers}\t${anchor.toFixed(1)}\t${ours.toFixed(1)}\t${(anchor / ours).toFixed(2)}\n`);
}

process.stdout.write('path\tservers\tanchor_ns\tours_ns\tratio\n');
for (const n of sizes) {
  const ls = labels(n);
  const theirs = new HashRing(ls);
  const ours = new Ring({ profile: 'node-hashring', servers: ls.map((label) => ({ label })) });
  for (const k of keys) {
    if (theirs.get(k) !== ours.get(k)) {
      process.stderr.write(`placement differs at ${n} servers for ${k}: hashring ${theirs.get(k)}, ours ${ours.get(k)}\n`);
      process.exit(1);
    }
  }
  const [a, o] = race([
    (chunk) => {
      let s = 0;
      for (const k of chunk) s += theirs.get(k).length;
      return s;
    },
    (chunk) => {
      let s = 0;
      for (const k of chunk) s += ours.get(k).length;
      return s;
    },
  ]);
  row('get (hashring 3.2.0 vs node-hashring profile)', n, a, o);
}
const [c, m] = race([
  (chunk) => {
    let s = 0;
    for (const k of chunk) s += crypto.createHash('md5').update(k).digest().readUInt32LE(0);
    return s;
  },
  (chunk) => {
    let s = 0;
    for (const k of chunk) s += hash('md5', k);
    return s;
  },
]);
row('md5 key hash (node:crypto vs the package MD5)', '-', c, m);
