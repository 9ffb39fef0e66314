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

const ERRORS = path.join(__dirname, '..', '..', 'spec', 'errors.json');

test('one Error subclass per core error of spec/errors.json, no other, with its message', { skip: fs.existsSync(ERRORS) ? false : 'no spec/errors.json in this tree' }, () => {
  const core = JSON.parse(fs.readFileSync(ERRORS, 'utf8')).errors.filter((e) => e.core);
  for (const e of core) {
    const cls = ketama[`${e.name}Error`];
    assert.strictEqual(typeof cls, 'function', `${e.name}: regenerate with bash tests/gen-tables.sh`);
    const err = new cls();
    assert.ok(err instanceof ketama.KetamaError);
    assert.strictEqual(Object.getPrototypeOf(cls), ketama.KetamaError, `${e.name} extends KetamaError directly`);
    assert.strictEqual(err.variant, e.name);
    assert.strictEqual(err.message, e.message);
    assert.strictEqual(new cls('detail').message, `${e.message}: detail`);
  }
  const exported = Object.keys(ketama).filter((k) => k.endsWith('Error') && k !== 'KetamaError').sort();
  assert.deepStrictEqual(exported, core.map((e) => `${e.name}Error`).sort(), 'regenerate with bash tests/gen-tables.sh');
  const spec = JSON.parse(fs.readFileSync(EMBEDDED, 'utf8'));
  assert.deepStrictEqual(spec.errors.map((e) => e.name).sort(), core.map((e) => e.name).sort());
  // lib/errors.d.ts declares each of them
  const dts = fs.readFileSync(path.join(__dirname, '..', 'lib', 'errors.d.ts'), 'utf8');
  for (const e of core) assert.ok(dts.includes(`export class ${e.name}Error extends KetamaError`), e.name);
});

test('the knob vocabulary is the spec\'s, and every row uses it', () => {
  const spec = JSON.parse(fs.readFileSync(EMBEDDED, 'utf8'));
  const knobs = require('../lib/knobs');
  assert.deepStrictEqual(JSON.parse(JSON.stringify(knobs)), spec.knobs);
});
