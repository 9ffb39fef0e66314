'use strict';
// Placement options against the real clients: tests/vectors/options/*.json (placements
// recorded from twemproxy and php-memcached with their options) and the values each client
// accepts (tests/vectors/extra/*-rules.json).

const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const path = require('node:path');
const { Ring, KetamaError, BadOptionError, profiles, hash } = require('..');

const VECTORS = path.join(__dirname, '..', '..', 'tests', 'vectors');
const DIR = path.join(VECTORS, 'options');
const read = (f) => JSON.parse(fs.readFileSync(f, 'utf8'));

function answer(fn) {
  try {
    return fn();
  } catch (err) {
    if (err instanceof KetamaError) return null;
    throw err;
  }
}

/** A vector file's `options` in the form the ring takes. */
const ringOptions = (o) => ({ hashTag: o.hash_tag, prefixKey: o.prefix_key, hashWithPrefix: o.hash_with_prefix });

const files = fs.readdirSync(DIR).filter((f) => f.endsWith('.json')).sort();

test('the option recordings are there', () => {
  assert.ok(files.length >= 18, `${files.length} option files`);
});

for (const f of files) {
  test(`options/${f}`, () => {
    const v = read(path.join(DIR, f));
    const spec = {
      profile: v.profile,
      hash: v.hash,
      servers: v.servers.map((s) => ({ label: s.label, weight: s.weight === undefined ? 1 : s.weight, name: s.name })),
    };
    const given = new Ring({ ...spec, options: ringOptions(v.options) });
    const plain = new Ring(spec);
    const copied = plain.withOptions(ringOptions(v.options));
    for (const ring of [given, copied]) {
      const got = v.keys.map((k) => answer(() => ring.get(k)));
      const bad = got.map((g, i) => (g === v.expect[i] ? -1 : i)).filter((i) => i >= 0);
      assert.deepStrictEqual(bad.slice(0, 3).map((i) => [v.keys[i], got[i], v.expect[i]]), [], `${bad.length} of ${v.keys.length} keys differ`);
    }
    // withOptions leaves the ring it copies unchanged
    assert.deepStrictEqual(plain.options(), { hashTag: null, prefixKey: '', hashWithPrefix: false });
  });
}

test('hash tags: exactly what nutcracker accepts', () => {
  const v = read(path.join(VECTORS, 'extra', 'twemproxy-hash-tag-rules.json'));
  assert.ok(v.cases.length >= 10);
  const ring = new Ring({ profile: 'twemproxy', servers: [{ label: '10.0.0.1:11211' }] });
  for (const c of v.cases) {
    let ok = true;
    try {
      ring.withOptions({ hashTag: c.value });
    } catch (err) {
      assert.ok(err instanceof BadOptionError, `${JSON.stringify(c.value)}: ${err}`);
      ok = false;
    }
    assert.strictEqual(ok, c.accepted, `hash_tag ${JSON.stringify(c.value)}`);
  }
});

test('prefixes: taken exactly when php-memcached keeps that very prefix', () => {
  const v = read(path.join(VECTORS, 'extra', 'php-memcached-prefix-rules.json'));
  const ring = new Ring({ profile: 'php-memcached', servers: [{ label: '10.0.0.1:11211' }] });
  let checked = 0;
  for (const c of v.cases.filter((x) => x.binary === true)) {
    const kept = c.set === true && c.prefix_after === c.value;
    let got = null;
    try {
      got = ring.withOptions({ prefixKey: c.value }).options().prefixKey;
    } catch (err) {
      assert.ok(err instanceof BadOptionError, `${JSON.stringify(c.value)}: ${err}`);
    }
    assert.strictEqual(got !== null, kept, `prefix ${JSON.stringify(c.value)} (${Buffer.byteLength(c.value)} bytes)`);
    if (kept) assert.strictEqual(got, c.value);
    checked++;
  }
  assert.ok(checked >= 20, `${checked} binary-protocol cases`);
});

test('only the clients that have an option take it', () => {
  const servers = [{ label: '10.0.0.1:11211' }, { label: '10.0.0.2:11211' }];
  const has = { tag: [], prefix: [] };
  for (const p of profiles()) {
    let ring;
    try {
      ring = new Ring({ profile: p.name, servers });
    } catch (err) {
      continue; // a profile that cannot place these servers
    }
    if (answer(() => ring.withOptions({ hashTag: '{}' })) !== null) has.tag.push(p.name);
    if (answer(() => ring.withOptions({ prefixKey: 'p:', hashWithPrefix: true })) !== null) has.prefix.push(p.name);
  }
  for (const name of ['twemproxy', 'twemproxy-modula', 'jedis', 'jedis-named', 'jedis-2-named', 'jedis-4']) assert.ok(has.tag.includes(name), name);
  for (const name of ['libmemcached', 'libmemcached-weighted', 'modula']) assert.ok(has.prefix.includes(name), name);
  assert.ok(!has.tag.includes('libketama') && !has.prefix.includes('libketama'));
  assert.ok(!has.prefix.includes('twemproxy') && !has.tag.includes('libmemcached'));
});

test('bad option values are BadOptionError and change nothing', () => {
  const servers = [{ label: '10.0.0.1:11211' }, { label: '10.0.0.2:11211' }];
  const cases = [
    ['libketama', { hashTag: '{}' }],
    ['twemproxy', { hashTag: '{' }],
    ['twemproxy', { hashTag: '«»' }],
    ['twemproxy', { prefixKey: 'p:' }],
    ['twemproxy', { hashWithPrefix: true }],
    ['php-memcached', { prefixKey: 'x'.repeat(128) }],
    ['php-memcached', { prefixKey: 'p\u0000q' }],
    ['php-memcached', { prefixKey: 5 }],
    ['php-memcached', { hashWithPrefix: 'yes' }],
    ['php-memcached', { prefix: 'p:' }],
  ];
  for (const [profile, o] of cases) {
    const ring = new Ring({ profile, servers });
    const before = ring.get('some key');
    assert.throws(() => ring.withOptions(o), BadOptionError, `${profile} ${JSON.stringify(o)}`);
    assert.throws(() => new Ring({ profile, servers, options: o }), BadOptionError);
    assert.strictEqual(ring.get('some key'), before);
  }
});

test('hash tags and hashed prefixes move keys as the client does', () => {
  const servers = Array.from({ length: 10 }, (_, i) => ({ label: `10.0.0.${i + 1}:11211` }));
  const tw = new Ring({ profile: 'twemproxy', servers, options: { hashTag: '{}' } });
  const plain = new Ring({ profile: 'twemproxy', servers });
  for (let i = 0; i < 50; i++) {
    assert.strictEqual(tw.get(`{user:${i}}:cart`), plain.get(`user:${i}`));
    assert.strictEqual(tw.keyHash(`a{user:${i}}b`), plain.keyHash(`user:${i}`));
  }
  // no closing byte, or nothing between them: the whole key
  assert.strictEqual(tw.keyHash('{}x'), plain.keyHash('{}x'));
  assert.strictEqual(tw.keyHash('x{y'), plain.keyHash('x{y'));
  const php = new Ring({ profile: 'php-memcached', servers, options: { prefixKey: 'p:', hashWithPrefix: true } });
  const unhashed = php.withOptions({ prefixKey: 'p:' });
  const bare = new Ring({ profile: 'php-memcached', servers });
  assert.strictEqual(php.keyHash('k1'), bare.keyHash('p:k1'));
  assert.strictEqual(unhashed.keyHash('k1'), bare.keyHash('k1'));
  // strncpy: the key's bytes after a NUL are NUL
  assert.strictEqual(php.keyHash(new Uint8Array([0x61, 0, 0x62])), bare.keyHash(new Uint8Array([0x70, 0x3a, 0x61, 0, 0])));
  // prefix + key over 250 bytes: hash 0
  assert.strictEqual(php.keyHash('k'.repeat(249)), 0);
  assert.notStrictEqual(php.keyHash('k'.repeat(248)), 0);
  assert.deepStrictEqual(php.options(), { hashTag: null, prefixKey: 'p:', hashWithPrefix: true });
});

test("each client's hash-tag rule, side by side (Predis, phpredis, redis-rb, redis-shard, Jedis)", () => {
  const { findTag, tagEnd } = require('../lib/tag');
  const rules = ['first_non_empty', 'first_up_to_nul', 'line_start', 'greedy_last', 'lazy_find'];
  const tagOf = (rule, key, o = '{', c = '}') => {
    const b = Buffer.from(key);
    const s = findTag(rule, b, b.length, o.charCodeAt(0), c.charCodeAt(0));
    return s < 0 ? key : b.subarray(s, tagEnd()).toString();
  };
  // what each client's oracle recorded (docs/compat.md, the hash-tag rules)
  const cases = [
    ['user:{42}:profile', ['42', '42', 'user:{42}:profile', '42', '42']],
    ['{}', ['{}', '', '{}', '', '{}']],
    ['a{}b', ['a{}b', '', 'a{}b', '', 'a{}b']],
    ['{}{42}', ['{}{42}', '', '}{42', '42', '}{42']],
    ['{a}{b}', ['a', 'a', 'a', 'b', 'a']],
    ['pre{tag}mid{other}post', ['tag', 'tag', 'pre{tag}mid{other}post', 'other', 'tag']],
    ['}42{', Array(5).fill('}42{')],
    ['a{b', Array(5).fill('a{b')],
    ['{a{b}', ['a{b', 'a{b', 'a{b', 'b', 'a{b']],
    ['{{x}}', ['{x', '{x', '{x', 'x}', '{x']],
    ['{x}}', ['x', 'x', 'x', 'x}', 'x']],
  ];
  for (const [key, want] of cases) assert.deepStrictEqual(rules.map((r) => tagOf(r, key)), want, key);
  // Ruby's ^ starts every line and its . stops at \n; Python's match stays on the first line
  assert.strictEqual(tagOf('line_start', 'x\n{t}y'), 't');
  assert.strictEqual(tagOf('line_start', '{a\nb}'), '{a\nb}');
  assert.strictEqual(tagOf('greedy_last', '{a}\n{b}'), 'a');
  assert.strictEqual(tagOf('greedy_last', 'x\n{b}'), 'x\n{b}');
  // Java's . stops at \r and U+2028 too; a later { may still match
  assert.strictEqual(tagOf('lazy_find', '{a\rb}'), '{a\rb}');
  assert.strictEqual(tagOf('lazy_find', '{a\u2028b}{c}'), 'c');
  assert.strictEqual(tagOf('lazy_find', 'a[b]c', '[', ']'), 'b');
  // phpredis reads the key as a C string
  assert.strictEqual(tagOf('first_up_to_nul', 'a\0{b}'), 'a\0{b}');
  assert.strictEqual(tagOf('first_up_to_nul', '{a\0}'), '{a\0}');
  assert.strictEqual(tagOf('first_up_to_nul', '{a}\0'), 'a');
  assert.strictEqual(tagOf('first_non_empty', 'a:b:c', ':', ':'), 'b');
  assert.strictEqual(tagOf('first_non_empty', '::x', ':', ':'), '::x');
});

test('Redis clients hash their tag; Jedis only with hashTag; redis-shard then as latin-1', () => {
  const servers = Array.from({ length: 10 }, (_, i) => ({ label: `10.0.0.${i + 1}:11211` }));
  for (const profile of ['predis', 'predis-ketama', 'phpredis-array', 'phpredis-array-consistent', 'redis-rb', 'redis-rb-5', 'go-redis', 'go-redis-v7', 'redis-shard']) {
    const ring = new Ring({ profile, servers });
    for (let i = 0; i < 30; i++) assert.strictEqual(ring.get(`{user:${i}}:cart`), ring.get(`user:${i}`), profile);
  }
  const jedis = new Ring({ profile: 'jedis', servers });
  const tagged = jedis.withOptions({ hashTag: '{}' });
  let moved = 0;
  for (let i = 0; i < 30; i++) {
    assert.strictEqual(tagged.get(`{user:${i}}:cart`), jedis.get(`user:${i}`));
    if (jedis.get(`{user:${i}}:cart`) !== jedis.get(`user:${i}`)) moved++;
  }
  assert.ok(moved > 0, 'without hashTag Jedis hashes the whole key');
  const shard = new Ring({ profile: 'redis-shard', servers });
  assert.strictEqual(shard.keyHash('ключ:{42}'), shard.keyHash('42'));
  assert.strictEqual(shard.keyHash('é'), hash('crc32a', Uint8Array.from([0xe9])));
  assert.throws(() => shard.get('ключ'), KetamaError);
  assert.throws(() => shard.get(Uint8Array.from([0xe9])), KetamaError);
});
