'use strict';
// The shared bad-input matrix (tests/bad-input.json, read by the Rust, C, Python and PHP
// tests too) through the JavaScript API: each case throws its typed error (or succeeds) and
// names the input where the table says so. Cases for dynamic-typed bindings (Python's) apply;
// `remove` and `set_weight` do not (a JS ring is built once and never changed).

const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const path = require('node:path');
const ketama = require('..');

const TABLE = JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', 'tests', 'bad-input.json'), 'utf8'));

function raw(v) {
  if (typeof v === 'string') return Buffer.from(v, 'utf8');
  if (v.hex !== undefined) return Buffer.from(v.hex, 'hex');
  return Buffer.from(v.repeat.repeat(v.times) + (v.then || ''), 'utf8');
}

function text(v) {
  if (v !== null && typeof v === 'object' && v.surrogate !== undefined) return `${v.surrogate}\ud800`;
  return raw(v).toString('utf8');
}

/** A key: a number as it is (a wrong type), a string holding a surrogate as a string, else bytes. */
function key(v) {
  if (typeof v === 'number') return v;
  if (v !== null && typeof v === 'object' && v.surrogate !== undefined) return text(v);
  return raw(v);
}

function servers(v) {
  if (!Array.isArray(v) && v.count !== undefined) {
    return Array.from({ length: v.count }, (_, i) => ({ label: v.format.replace('{i}', String(i + 1)) }));
  }
  return v.map((e) => {
    if (Array.isArray(e)) return { label: text(e[0]), weight: e[1] };
    if (typeof e === 'string' || (e !== null && typeof e === 'object')) return { label: text(e) };
    return { label: e };
  });
}

function run(c) {
  const profile = text(c.profile === undefined ? 'libketama' : c.profile);
  const hash = c.hash === undefined || c.hash === null ? null : text(c.hash);
  const initial = servers(c.servers === undefined ? TABLE.base : c.servers);
  switch (c.op) {
    case 'create':
      return new ketama.Ring({ profile, hash, servers: c.servers_arg !== undefined ? c.servers_arg : initial });
    case 'lookup': {
      const ring = new ketama.Ring({ profile, hash, servers: initial });
      return ring.get(key(c.key));
    }
    case 'add':
      return new ketama.Ring({ profile, hash, servers: [...initial, { label: text(c.label), weight: c.weight }] });
    case 'add_many':
      return new ketama.Ring({ profile, hash, servers: [...initial, ...servers(c.add)] });
    default:
      throw new Error(`unknown op ${c.op}`);
  }
}

const cases = TABLE.cases.filter((c) => (c.langs || ['python']).includes('python') && !['remove', 'set_weight'].includes(c.op));

test('the matrix has cases for this binding', () => assert.ok(cases.length >= 30, `${cases.length}`));

for (const c of cases) {
  test(c.id, () => {
    const want = (c.expect && c.expect.js) || c.error;
    if (want === null) {
      run(c);
      return;
    }
    assert.throws(() => run(c), (err) => {
      if (want === 'TypeError') {
        assert.ok(err instanceof TypeError, `${err.name}: ${err.message}`);
      } else {
        assert.ok(err instanceof ketama.KetamaError, `${err.name}: ${err.message}`);
        assert.strictEqual(err.variant, want, err.message);
      }
      if (c.names) assert.ok(err.message.includes(c.names), `'${err.message}' names '${c.names}'`);
      return true;
    });
  });
}
