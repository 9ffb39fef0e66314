'use strict';
// The embedded spec (js/spec/profiles.json) is a copy of the repository's spec/profiles.json,
// and every row of it is one this port implements.

const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const path = require('node:path');
const ketama = require('..');

const EMBEDDED = path.join(__dirname, '..', 'spec', 'profiles.json');
const SHARED = path.join(__dirname, '..', '..', 'spec', 'profiles.json');

test('the embedded spec equals spec/profiles.json', { skip: fs.existsSync(SHARED) ? false : 'no spec/profiles.json in this tree' }, () => {
  assert.deepStrictEqual(
    JSON.parse(fs.readFileSync(EMBEDDED, 'utf8')),
    JSON.parse(fs.readFileSync(SHARED, 'utf8')),
    'js/spec/profiles.json differs from spec/profiles.json: regenerate it with bash tests/gen-tables.sh',
  );
});

test('every profile and hash of the spec is implemented', () => {
  const spec = JSON.parse(fs.readFileSync(EMBEDDED, 'utf8'));
  assert.deepStrictEqual(ketama.profiles().map((p) => p.name), spec.profiles.map((p) => p.name));
  assert.deepStrictEqual(ketama.hashes().map((h) => h.name), spec.hashes.map((h) => h.name));
});

test('one Error subclass per error of the spec, with its message', () => {
  const spec = JSON.parse(fs.readFileSync(EMBEDDED, 'utf8'));
  for (const e of spec.errors) {
    const cls = ketama[`${e.name}Error`];
    assert.strictEqual(typeof cls, 'function', e.name);
    const err = new cls();
    assert.ok(err instanceof ketama.KetamaError);
    assert.strictEqual(err.variant, e.name);
    assert.strictEqual(err.message, e.message);
  }
});
