'use strict';
// The JavaScript port's lookups on the ring the pure ports are compared with the Rust core on
// (bench/rust/examples/js_floor.rs): profile libmemcached-weighted (md5, 160 points per
// server of weight 1), servers 10.a.b.c:11211, keys user:N:profile (N < 20,000).
// `Ring.get` one key at a time and `Ring.getMany` over 1,000 keys a call, the best of many
// 1,000-key runs (the next chunk each run), the two alternating for about `budget` seconds.
// A benchmark, not a test (bench/js/core.sh runs it beside the core).
//
//   node bench/js/core.js [--budget 1] [--pkg DIR] [SERVERS ...]
//
// Prints `path servers - ns_per_key` lines: js_get_md5 and js_get_many_md5 (`-` when the
// package at --pkg, default js/, has no getMany). Every key's getMany answer is checked
// against get first (a difference exits 1).

const path = require('path');

const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(name);
  if (i < 0) return dflt;
  const v = args[i + 1];
  args.splice(i, 2);
  return v;
};
const budget = Number(opt('--budget', '1'));
const pkg = path.resolve(opt('--pkg', path.join(__dirname, '..', '..', 'js')));
const sizes = args.length ? args.map(Number) : [100];
const { Ring } = require(pkg);
const CHUNK = 1000;
const NKEYS = 20000;

const labels = (n) => Array.from({ length: n }, (_, i) => `10.${Math.floor(i / 62500)}.${Math.floor(i / 250) % 250}.${(i % 250) + 1}:11211`);
const keys = Array.from({ length: NKEYS }, (_, i) => `user:${i}:profile`);
const chunks = Array.from({ length: NKEYS / CHUNK }, (_, c) => keys.slice(c * CHUNK, (c + 1) * CHUNK));

/** Best ns/key of each run over the chunks, alternating, for about `budget` seconds. */
function race(runs) {
  const best = runs.map(() => Infinity);
  const start = process.hrtime.bigint();
  let sink = 0;
  for (let r = 0; r < 2 * chunks.length || Number(process.hrtime.bigint() - start) / 1e9 < budget; r++) {
    const chunk = chunks[r % chunks.length];
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

for (const n of sizes) {
  const ring = new Ring({ profile: 'libmemcached-weighted', servers: labels(n).map((label) => ({ label })) });
  const batch = typeof ring.getMany === 'function';
  if (batch) {
    const many = ring.getMany(keys);
    const bad = keys.findIndex((k, i) => ring.get(k) !== many[i]);
    if (bad >= 0) {
      process.stderr.write(`getMany differs from get at ${n} servers for ${keys[bad]}\n`);
      process.exit(1);
    }
  }
  const runs = [
    (chunk) => {
      let s = 0;
      for (let i = 0; i < chunk.length; i++) s += ring.get(chunk[i]).length;
      return s;
    },
  ];
  if (batch) runs.push((chunk) => ring.getMany(chunk).length);
  const [single, many] = race(runs);
  process.stdout.write(`js_get_md5\t${n}\t-\t${single.toFixed(1)}\n`);
  process.stdout.write(`js_get_many_md5\t${n}\t-\t${batch ? many.toFixed(1) : '-'}\n`);
}
