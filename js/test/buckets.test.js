'use strict';
// Every bucket function against its file in tests/vectors/buckets/ (recorded from the real
// implementations: Guava and hash4j from Maven Central, go-jump, go-maglev, go-mpchash,
// DataDog's fliphash crate), plus the reference answers the core's unit tests hold.

const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const path = require('node:path');
const ketama = require('..');

const { bucket, Bucketer, siphash24 } = ketama;

const DIR = path.join(__dirname, '..', '..', 'tests', 'vectors', 'buckets');

for (const f of fs.readdirSync(DIR).filter((x) => x.endsWith('.json')).sort()) {
  test(f, () => {
    const v = JSON.parse(fs.readFileSync(path.join(DIR, f), 'utf8'));
    const byCount = new Map();
    const bad = [];
    for (const [input, buckets, want] of v.cases) {
      if (!byCount.has(buckets)) byCount.set(buckets, new Bucketer(v.algorithm, buckets));
      const got = byCount.get(buckets).get(input);
      if (got !== want) bad.push(`${input} % ${buckets}: got ${got}, want ${want}`);
    }
    assert.strictEqual(bad.length, 0, `${bad.length} of ${v.cases.length} differ, e.g. ${bad.slice(0, 3).join('; ')}`);
  });
}

test('Guava golden values and where it differs from the paper', () => {
  const golden = [0, 55, 62, 8, 45, 59, 86, 97, 82, 59, 73, 37, 17, 56, 86, 21, 90, 37, 38, 83];
  golden.forEach((want, i) => assert.strictEqual(bucket('guava', i, 100), want));
  assert.strictEqual(bucket('guava', 10863919174838991n, 11), 6);
  assert.strictEqual(bucket('guava', 2, 100001), 80343);
  assert.strictEqual(bucket('guava', '2687259751451158933', 807), 195);
  assert.strictEqual(bucket('jump', '2687259751451158933', 807), 576);
});

test('SipHash-2-4: the paper vector', () => {
  const k0 = Buffer.from([0, 1, 2, 3, 4, 5, 6, 7]).readBigUInt64LE(0);
  const k1 = Buffer.from([8, 9, 10, 11, 12, 13, 14, 15]).readBigUInt64LE(0);
  assert.strictEqual(siphash24(k0, k1, Buffer.from(Array.from({ length: 15 }, (_, i) => i))), 0xa129ca6149be45e5n);
});

test('bucket errors: the core error\'s own class, with its text', () => {
  const variant = (fn, name) =>
    assert.throws(fn, (e) => {
      assert.ok(e instanceof ketama[`${name}Error`] && e instanceof ketama.KetamaError, `${e.name}: ${e.message}`);
      assert.strictEqual(e.variant, name);
      assert.ok(e.message.startsWith(new ketama[`${name}Error`]().message), e.message);
      return true;
    });
  variant(() => bucket('nope', 1, 2), 'UnknownAlgorithm');
  variant(() => bucket('jump', 1, 0), 'ZeroBuckets');
  variant(() => bucket('maglev-go', 1, 65538), 'TooManyBuckets');
  variant(() => bucket('guava', 1, 2147483648), 'TooManyBuckets');
  assert.throws(() => bucket('jump', -1, 2), TypeError);
  assert.throws(() => bucket('jump', 2n ** 64n, 2), TypeError);
  assert.throws(() => bucket('jump', 1.5, 2), TypeError);
});
