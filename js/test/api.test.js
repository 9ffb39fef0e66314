'use strict';
// The public API: construction, lookups on strings and bytes, getN/failover/points, and the
// error vocabulary (each bad input its own Error subclass, named as in the core).

const test = require('node:test');
const assert = require('node:assert');
const ketama = require('..');

const { Ring, hash } = ketama;
const servers = [
  { label: '10.0.0.1:11211', weight: 1 },
  { label: '10.0.0.2:11211', weight: 2 },
  { label: '10.0.0.3:11211', weight: 1 },
];

test('a string key and its UTF-8 bytes go to the same server', () => {
  const ring = new Ring({ profile: 'php-memcached', servers });
  for (const k of ['apple', 'été', '日本語', 'emoji😀', 'user:42']) {
    assert.strictEqual(ring.get(k), ring.get(Buffer.from(k)));
    assert.strictEqual(ring.get(k), ring.get(new Uint8Array(Buffer.from(k))));
  }
});

test('the ASCII fast path and the encoder agree around the shared buffer size', () => {
  const ring = new Ring({ profile: 'libmemcached-weighted', servers });
  for (const n of [0, 1, 200, 250, 1023, 1024, 1025, 5000]) {
    const k = 'k'.repeat(n) + 'é';
    const want = ring.profile.keyLimits.maxLen >= Buffer.byteLength(k) ? ring.get(Buffer.from(k)) : null;
    if (want !== null) assert.strictEqual(ring.get(k), want, `${n}`);
  }
  assert.strictEqual(hash('md5', 'x'.repeat(3000) + 'é'), hash('md5', Buffer.from('x'.repeat(3000) + 'é')));
});

test('short ASCII keys hashed from the string land where their bytes do, every length', () => {
  for (const profile of ['php-memcached', 'spymemcached', 'libketama', 'node-hashring']) {
    const ring = new Ring({ profile, servers });
    for (let n = 1; n <= 70; n++) {
      for (const k of ['a'.repeat(n), Array.from({ length: n }, (_, i) => String.fromCharCode(33 + ((i * 37 + n) % 94))).join('')]) {
        assert.strictEqual(ring.get(k), ring.get(Buffer.from(k)), `${profile} ${JSON.stringify(k)}`);
      }
    }
    // a character beyond ASCII anywhere in the key leaves the string path
    for (const k of ['é', 'aé', 'abcé', 'abcdé', 'x'.repeat(54) + 'é', '\u007f\u0080']) assert.strictEqual(ring.get(k), ring.get(Buffer.from(k)), k);
  }
});

test('getMany and indexMany answer each key as get and index do, null / -1 where get throws', () => {
  const keys = Array.from({ length: 1001 }, (_, i) => {
    if (i % 17 === 0) return `ключ${i}`;
    if (i % 13 === 0) return 'x'.repeat(i % 300);
    if (i % 11 === 0) return Buffer.from(`bytes${i}`);
    if (i % 7 === 0) return `k ${i}\n`;
    return `user:${i}:profile`;
  });
  keys.push('', 'é', 'x'.repeat(251));
  const many = Array.from({ length: 20 }, (_, i) => ({ label: `10.0.1.${i + 1}:11211`, weight: 1 + (i % 3) }));
  let fast = 0;
  for (const p of ketama.profiles()) {
    for (const list of [many, many.slice(0, 1)]) {
      let ring;
      try {
        ring = new Ring({ profile: p.name, servers: list });
      } catch (err) {
        continue;
      }
      const want = keys.map((k) => {
        try {
          return ring.index(k);
        } catch (err) {
          if (err instanceof ketama.KetamaError) return -1;
          throw err;
        }
      });
      assert.deepStrictEqual(Array.from(ring.indexMany(keys)), want, p.name);
      assert.deepStrictEqual(ring.getMany(keys), want.map((i) => (i < 0 ? null : list[i].label)), p.name);
      const out = new Int32Array(keys.length + 5).fill(7);
      assert.strictEqual(ring.indexMany(keys, out), out);
      assert.deepStrictEqual(Array.from(out.subarray(0, keys.length)), want);
      if (ring.shortMd5) fast++;
    }
  }
  assert.ok(fast >= 4, `${fast} rings on the paired md5 path`);
  const empty = new Ring({ profile: 'php-memcached', servers: [] });
  assert.throws(() => empty.getMany(['a']), ketama.EmptyRingError);
  assert.throws(() => new Ring({ profile: 'php-memcached', servers }).getMany([5]), TypeError);
  assert.throws(() => new Ring({ profile: 'php-memcached', servers }).indexMany(['a', 'b'], new Int32Array(1)), TypeError);
});

test('getN gives distinct servers, primary first; failover of a walk client equals getN', () => {
  const ring = new Ring({ profile: 'libmemcached-weighted', servers });
  for (let i = 0; i < 200; i++) {
    const k = `key${i}`;
    const list = ring.getN(k, 3);
    assert.strictEqual(list[0], ring.get(k));
    assert.strictEqual(new Set(list).size, 3);
    assert.deepStrictEqual(ring.failover(k, 3), list);
  }
  assert.deepStrictEqual(ring.getN('x', 0), []);
  assert.strictEqual(ring.getN('x', 10).length, 3);
});

test('points() is the sorted continuum with every server on it', () => {
  const ring = new Ring({ profile: 'libketama', servers });
  const pts = ring.points();
  assert.strictEqual(pts.length, 480); // LK: 30, 60 and 30 digests of 4 points
  for (let i = 1; i < pts.length; i++) assert.ok(pts[i - 1][0] <= pts[i][0]);
  assert.deepStrictEqual(new Set(pts.map((p) => p[1])), new Set(servers.map((s) => s.label)));
  assert.deepStrictEqual(new Ring({ profile: 'modula', servers }).points(), []);
});

test('every profile builds and places keys', () => {
  for (const p of ketama.profiles()) {
    const ring = new Ring({ profile: p.name, servers });
    const label = ring.get('some-key');
    assert.ok(servers.some((s) => s.label === label), p.name);
  }
});

function throwsVariant(fn, cls, variant) {
  assert.throws(fn, (err) => {
    assert.ok(err instanceof cls, `${err && err.name}`);
    assert.ok(err instanceof ketama.KetamaError);
    assert.ok(err instanceof Error);
    assert.strictEqual(err.variant, variant);
    assert.strictEqual(err.name, `${variant}Error`);
    return true;
  });
}

test('errors carry the core names', () => {
  throwsVariant(() => new Ring({ profile: 'nope', servers }), ketama.UnknownProfileError, 'UnknownProfile');
  throwsVariant(() => new Ring({ profile: 'libketama', hash: 'nope', servers }), ketama.UnknownHashError, 'UnknownHash');
  throwsVariant(() => hash('crc32', 'x'), ketama.AmbiguousHashError, 'AmbiguousHash');
  throwsVariant(() => hash('nope', 'x'), ketama.UnknownHashError, 'UnknownHash');
  throwsVariant(() => new Ring({ profile: 'libketama', servers: [{ label: 'a:1', weight: 0 }] }), ketama.BadWeightError, 'BadWeight');
  throwsVariant(() => new Ring({ profile: 'libketama', servers: [{ label: 'a:1', weight: -1 }] }), ketama.BadWeightError, 'BadWeight');
  throwsVariant(() => new Ring({ profile: 'libketama', servers: [{ label: 'a:1', weight: 1.5 }] }), ketama.BadWeightError, 'BadWeight');
  for (const label of ['', 'a b', 'a:0', 'a:011211', 'a:65536', 'a:-1', '[x]:1', '[::1', 'a:b:c', '\ufeffa:1', 'a\n']) {
    throwsVariant(() => new Ring({ profile: 'libketama', servers: [{ label, weight: 1 }] }), ketama.BadLabelError, 'BadLabel');
  }
  throwsVariant(
    () => new Ring({ profile: 'libketama', servers: [{ label: '[::1]:11211' }, { label: '[0:0::1]:11211' }] }),
    ketama.DuplicateServerError,
    'DuplicateServer',
  );
  throwsVariant(() => new Ring({ profile: 'xmemcached-nginx', servers: [{ label: 'cache1:11211' }] }), ketama.UnsupportedError, 'Unsupported');
  throwsVariant(() => new Ring({ profile: 'libketama', servers: [] }).get('x'), ketama.EmptyRingError, 'EmptyRing');
  throwsVariant(() => new Ring({ profile: 'libmemcached', servers }).get(''), ketama.KeyRejectedError, 'KeyRejected');
  throwsVariant(() => new Ring({ profile: 'libmemcached', servers }).get('k'.repeat(251)), ketama.KeyRejectedError, 'KeyRejected');
  throwsVariant(
    () => new Ring({ profile: 'xmemcached', servers: [{ label: '10.0.0.1:11211', weight: 52429 }] }),
    ketama.TooManyPointsError,
    'TooManyPoints',
  );
  throwsVariant(
    () => new Ring({ profile: 'uhashring-ketama', servers: [{ label: 'a:1', weight: 0 }, { label: 'b:1', weight: 0 }] }).get('k'),
    ketama.NoServerError,
    'NoServer',
  );
  assert.throws(() => new Ring({ profile: 'libketama', servers }).get(42), TypeError);
  assert.throws(() => new Ring(null), TypeError);
});

test('crc32 means each client own CRC', () => {
  const tw = new Ring({ profile: 'twemproxy', hash: 'crc32', servers });
  assert.strictEqual(tw.hashName, 'crc');
  const pecl = new Ring({ profile: 'pecl-memcache', hash: 'crc32', servers });
  assert.strictEqual(pecl.hashName, 'crc32a');
});

test('the ES module entry exports the same objects', async () => {
  const m = await import('../index.mjs');
  assert.strictEqual(m.Ring, Ring);
  assert.strictEqual(m.hash, hash);
  assert.strictEqual(m.KeyRejectedError, ketama.KeyRejectedError);
});

test('uhashring: 128-bit positions sorted in full, equal top words included, and searched in full', () => {
  const crypto = require('node:crypto');
  const servers = Array.from({ length: 1000 }, (_, i) => ({ label: `10.1.${i >> 8}.${i & 255}:11211` }));
  const ring = new Ring({ profile: 'uhashring', servers });
  const v = ring.values;
  const w = ring.wide;
  const full = (i) => (BigInt(v[i]) << 96n) | (BigInt(w[3 * i]) << 64n) | (BigInt(w[3 * i + 1]) << 32n) | BigInt(w[3 * i + 2]);
  // every position is int(md5(label-i), 16), each once
  const want = [];
  for (const s of servers) {
    for (let i = 0; i < 160; i++) want.push(BigInt(`0x${crypto.createHash('md5').update(`${s.label}-${i}`).digest('hex')}`));
  }
  want.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const got = Array.from({ length: v.length }, (_, i) => full(i));
  assert.deepStrictEqual(got, want);
  let runs = 0;
  for (let i = 1; i < v.length; i++) if (v[i] === v[i - 1]) runs++;
  assert.ok(runs > 0, 'this ring has positions sharing their top 32 bits');
  // the search: first position > md5(key) as 128 bits, wrapping
  for (let k = 0; k < 3000; k++) {
    const key = `key${k}`;
    const h = BigInt(`0x${crypto.createHash('md5').update(key).digest('hex')}`);
    let at = want.findIndex((x) => x > h);
    if (at < 0) at = 0;
    assert.strictEqual(ring.get(key), ring.labels[ring.owners[at]], key);
  }
});

test('a refusal of one server names it: its place in the list and its label', () => {
  const blamed = (fn, cls, index, label) =>
    assert.throws(fn, (err) => {
      assert.ok(err instanceof cls, `${err.name}: ${err.message}`);
      assert.strictEqual(err.serverIndex, index);
      assert.strictEqual(err.serverLabel, label);
      return true;
    });
  const three = (label, weight) => [{ label: '10.0.0.1:1' }, { label, weight }, { label: '10.0.0.3:1' }];
  blamed(() => new Ring({ profile: 'libketama', servers: three('bad label', 1) }), ketama.BadLabelError, 1, 'bad label');
  blamed(() => new Ring({ profile: 'libketama', servers: three('b:1', 0) }), ketama.BadWeightError, 1, 'b:1');
  blamed(() => new Ring({ profile: 'libketama', servers: three('10.0.0.1:1', 1) }), ketama.DuplicateServerError, 1, '10.0.0.1:1');
  blamed(() => new Ring({ profile: 'xmemcached-nginx', servers: three('cache1:1', 1) }), ketama.UnsupportedError, 1, 'cache1:1');
  blamed(() => new Ring({ profile: 'libketama', servers: [] }).get('k'), ketama.EmptyRingError, null, null);
});

test('a BigInt weight is a BadWeightError naming it, not a TypeError from the message', () => {
  assert.throws(
    () => new Ring({ profile: 'libketama', servers: [{ label: 'a:1', weight: 10n }] }),
    (err) => err instanceof ketama.BadWeightError && err.message.endsWith('a:1: 10n') && err.serverIndex === 0,
  );
});

test('a string holding an unpaired surrogate is refused, not hashed as U+FFFD', () => {
  const ring = new Ring({ profile: 'libketama', servers: [{ label: 'a:1' }, { label: 'b:1' }, { label: 'c:1' }] });
  const calls = [
    () => ring.get('k\ud800'),
    () => ring.index('\udc00k'),
    () => ring.getN('k\udbff', 2),
    () => ring.keyHash('\ud800'),
    () => hash('md5', 'é\ud800'),
    () => new Ring({ profile: 'libketama', servers: [{ label: 'a:1\ud800' }] }),
    () => new Ring({ profile: 'twemproxy', servers: [{ label: 'a:1', name: 'n\udfff' }] }),
    () => new Ring({ profile: 'lib\ud800', servers: [] }),
    () => new Ring({ profile: 'libketama', hash: 'md\ud800', servers: [] }),
    () => new Ring({ profile: 'twemproxy', servers: [], options: { hashTag: '{\ud800' } }),
  ];
  for (const call of calls) {
    assert.throws(call, (err) => err instanceof ketama.InvalidUtf8Error && /unpaired surrogate/.test(err.message));
  }
  // a pair is one character outside the BMP (Unicode), hashed as its UTF-8
  assert.strictEqual(ring.get('k\ud83d\ude00'), ring.get(Buffer.from('k\ud83d\ude00')));
  // bytes are hashed as they are
  ring.get(Buffer.from([0xff, 0, 0xfe]));
});

test('the README examples', () => {
  const ring = new Ring({
    profile: 'php-memcached',
    hash: null,
    servers: [
      { label: '10.0.1.1:11211', weight: 1 },
      { label: '10.0.1.2:11211', weight: 2 },
      { label: '10.0.1.3:11211', weight: 1, name: 'cache3' },
    ],
  });
  assert.strictEqual(ring.get('user:1'), '10.0.1.1:11211');
  assert.strictEqual(ring.index('user:1'), 0);
  assert.strictEqual(hash('md5', 'user:1'), 282964413);
  assert.strictEqual(ketama.bucket('guava', '2687259751451158933', 807), 195);
});
