'use strict';
// Every vector file in tests/vectors/ (recorded from the real clients) must agree on every
// key, read directly (the conformance kit test runs the same files through the kit).

const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const path = require('node:path');
const { Ring, hash, KetamaError } = require('..');

const DIR = path.join(__dirname, '..', '..', 'tests', 'vectors');

function answer(fn) {
  try {
    return fn();
  } catch (err) {
    if (err instanceof KetamaError) return null;
    throw err;
  }
}

const files = fs.readdirSync(DIR).filter((f) => f.endsWith('.json')).sort();

test('the vector folder is there', () => {
  assert.ok(files.length > 400, `${files.length} vector files`);
});

for (const f of files) {
  test(f, () => {
    const v = JSON.parse(fs.readFileSync(path.join(DIR, f), 'utf8'));
    const kind = v.kind || 'locate';
    let got;
    if (kind === 'hash') {
      if (v.profile) {
        const ring = new Ring({ profile: v.profile, hash: v.hash, servers: [] });
        got = v.keys.map((k) => answer(() => ring.keyHash(k)));
      } else {
        got = v.keys.map((k) => hash(v.hash, k));
      }
    } else {
      const ring = new Ring({
        profile: v.profile,
        hash: v.hash,
        servers: v.servers.map((s) => ({ label: s.label, weight: s.weight === undefined ? 1 : s.weight, name: s.name })),
      });
      got = v.keys.map((k) => answer(() => (kind === 'sequence' ? ring.failover(k, v.n) : ring.get(k))));
    }
    check(v, got);
  });
}

// Dead-server recordings (tests/vectors/extra/*-dead-*.json): where each key goes while the
// listed servers refuse connections.
const EXTRA = path.join(DIR, 'extra');
const deadFiles = fs.readdirSync(EXTRA).filter((f) => f.endsWith('.json') && JSON.parse(fs.readFileSync(path.join(EXTRA, f), 'utf8')).kind === 'dead').sort();

test('the dead-server recordings are there', () => {
  assert.ok(deadFiles.length >= 12, `${deadFiles.length} dead-server files`);
});

for (const f of deadFiles) {
  test(`extra/${f}`, () => {
    const v = JSON.parse(fs.readFileSync(path.join(EXTRA, f), 'utf8'));
    const ring = new Ring({
      profile: v.profile,
      hash: v.hash,
      servers: v.servers.map((s) => ({ label: s.label, weight: s.weight === undefined ? 1 : s.weight, name: s.name })),
    });
    const labels = ring.servers();
    const dead = v.dead.map((l) => labels.indexOf(l));
    assert.ok(!dead.includes(-1), 'every dead label is a server');
    check(v, v.keys.map((k) => answer(() => ring.getAlive(k, dead))));
  });
}

/** Every answer equals the file's `expect`. */
function check(v, got) {
  const bad = [];
  got.forEach((g, i) => {
    if (JSON.stringify(g) !== JSON.stringify(v.expect[i])) bad.push(i);
  });
  const show = bad.slice(0, 3).map((i) => `${JSON.stringify(v.keys[i])}: got ${JSON.stringify(got[i])}, want ${JSON.stringify(v.expect[i])}`);
  assert.strictEqual(bad.length, 0, `${bad.length} of ${v.keys.length} differ, e.g. ${show.join('; ')}`);
}
