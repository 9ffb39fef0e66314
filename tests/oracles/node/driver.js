'use strict';
// Drive the real npm hashring (node-hashring) for one job read as JSON on stdin:
//   {"servers": [{"label": "...", "weight": w}], "algorithm": "md5", "options": {...},
//    "keys": ["..."]}
// and print {"expect": [...], "points": {label: count}, "exact_hits": n, "version": "..."}.
// exact_hits counts keys whose hash equals a ring point (there lookup rules differ between
// clients); points and hashValue are read from the real ring object.
const path = require('path');
const modDir = process.env.HASHRING_MODULES;
const HashRing = require(path.join(modDir, 'hashring'));
const version = require(path.join(modDir, 'hashring', 'package.json')).version;
const deps = ['connection-parse', 'simple-lru-cache'].map(
  (d) => d + ' ' + require(path.join(modDir, d, 'package.json')).version).join(', ');

let input = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (c) => { input += c; });
process.stdin.on('end', () => {
  const job = JSON.parse(input);
  const servers = {};
  for (const s of job.servers) {
    const conf = { weight: s.weight };
    if (s.vnodes !== undefined) conf.vnodes = s.vnodes;
    servers[s.label] = conf;
  }
  // Object.keys order must be the file order (no integer-like labels)
  if (Object.keys(servers).join('\n') !== job.servers.map((s) => s.label).join('\n')) {
    throw new Error('server order changed by Object.keys');
  }
  const ring = new HashRing(servers, job.algorithm, job.options || {});
  const points = {};
  const values = new Set();
  for (const node of ring.ring) {
    points[node.server] = (points[node.server] || 0) + 1;
    values.add(node.value);
  }
  let exact = 0;
  const expect = job.keys.map((k) => {
    if (values.has(ring.hashValue(k))) exact++;
    const r = ring.get(k);
    return r === undefined ? null : r;
  });
  process.stdout.write(JSON.stringify({ expect, points, exact_hits: exact, version, deps }));
});
