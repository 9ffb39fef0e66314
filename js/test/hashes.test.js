'use strict';
// Known answers of every hash (the core's unit-test values, FIPS/RFC values, folly's and
// mcrouter's printed values) and the package's MD5/SHA-1 against node:crypto at every length.

const test = require('node:test');
const assert = require('node:assert');
const crypto = require('node:crypto');
const { hash, hashes } = require('..');
const { digest } = require('../lib/md5');
const { sha1 } = require('../lib/sha1');
const spooky = require('../lib/spooky');
const furc = require('../lib/furc');

test('a string key longer than the shared buffer hashes as its bytes (first call)', () => {
  // Runs first in this process: the shared encoding buffer has to grow during this call.
  const key = `${'x'.repeat(100000)}é`;
  assert.strictEqual(hash('md5', key), hash('md5', Buffer.from(key)));
  assert.strictEqual(hash('crc32a', `${'y'.repeat(200000)}€`), hash('crc32a', Buffer.from(`${'y'.repeat(200000)}€`)));
});

test('known answers', () => {
  const cases = [
    ['md5', 'apple', 3195025439], ['one_at_a_time', 'apple', 2297466611], ['crc32a', 'apple', 2838417488],
    ['crc32a', '123456789', 0xcbf43926], ['crc', 'apple', 10542], ['crc16', '123456789', 2257596867],
    ['crc16', 'apple', 3662830516], ['fnv1_64', 'apple', 473199127], ['fnv1a_64', 'apple', 1488911807],
    ['fnv1_32', 'apple', 67176023], ['fnv1a_32', 'apple', 280767167], ['fnv1a_32', 'été', 200187927],
    ['fnv1a_32_unsigned', 'été', 4290086935], ['fnv1_64', 'été', 3995086359],
    ['fnv1_64_unsigned', 'été', 3487848983], ['hsieh', 'apple', 3738850110], ['hsieh', '', 0],
    ['murmur', 'apple', 4142305122], ['murmur3', 'apple', 1120212521], ['jenkins', 'apple', 1442444624],
    ['one_at_a_time', 'été', 2144029493], ['one_at_a_time_unsigned', 'été', 1191034661],
    ['native', 'hello world!', 4077680093], ['mysql', 'hello world!', 2036609855],
    ['elf', 'hello world!', 21676401], ['rs', 'hello world!', 1353327565], ['lua', 'hello world!', 843468207],
    ['native', 'café', 3045921], ['lua', 'emoji😀x', 2942944915], ['mysql', 'emoji😀x', 2638304199],
    ['elf', 'emoji😀x', 88517560], ['rs', 'emoji😀x', 1110486855], ['seed_tohash', 'apple', 1510573],
    ['sha1', 'abc', 0xa9993e36], ['sha1', '', 0xda39a3ee], ['spooky32', 'hello', 3548571338],
    ['spooky32', '', 1811220761], ['native', 'polygenelubricants', 2147483648],
  ];
  for (const [name, key, want] of cases) assert.strictEqual(hash(name, key), want, `${name}(${key})`);
});

test('Java client names select the UTF-16 flavours', () => {
  const want = {
    'hello world!': [948, 3111880380, 3445237362, 2315368860, 2956263410, 2398699516, 2614696403],
    'café': [6317, 4043580002, 3898172124, 3853951970, 856211068, 3833532679, 2425794034],
    'emoji😀x': [19412, 651624534, 918180296, 162790294, 3646128104, 3331975971, 866013889],
  };
  const names = ['CRC_HASH', 'FNV1_64_HASH', 'FNV1A_64_HASH', 'FNV1_32_HASH', 'FNV1A_32_HASH', 'KETAMA_HASH', 'ONE_AT_A_TIME'];
  for (const [key, values] of Object.entries(want)) {
    names.forEach((n, i) => assert.strictEqual(hash(n, key), values[i], `${n}(${key})`));
  }
});

test('malformed UTF-8 is one U+FFFD per bad sequence, a BOM is kept', () => {
  assert.strictEqual(hash('native', Buffer.from([0x61, 0xff, 0x62])), hash('native', 'a\ufffdb'));
  assert.notStrictEqual(hash('native', '\ufeffbom'), hash('native', 'bom'));
});

test('SpookyHash and furc: folly and mcrouter answers', () => {
  const enc = (s) => Buffer.from(s);
  assert.strictEqual(spooky.hash32(enc('hello'), 5, 0xface2014), 2594585269);
  assert.strictEqual(spooky.hash64(enc('hello'), 5, 0), 3992584464990660298n);
  assert.strictEqual(spooky.hash64(enc(''), 0, 0), 2533000996631939353n);
  assert.strictEqual(furc.murmur64a(enc(''), 0, furc.FURC_SEED), 5566605159182504090n);
  assert.strictEqual(furc.furcHash(enc('hello'), 5, 3), 0);
  assert.strictEqual(furc.furcHash(enc(''), 0, 1000), 72);
  const x200 = Buffer.alloc(200, 120);
  assert.strictEqual(spooky.hash32(x200, 200, 0), 2412047933);
  assert.strictEqual(spooky.hash32(x200, 200, 0xface2014), 3499804764);
  assert.strictEqual(furc.murmur64a(x200, 200, furc.FURC_SEED), 15403071186475803386n);
  assert.deepStrictEqual([65535, 8388608, 4294967295].map((n) => furc.furcHash(x200, 200, n)), [59252, 5259028, 2083861692]);
  const r512 = Buffer.from(Array.from({ length: 512 }, (_, i) => i % 256));
  assert.strictEqual(spooky.hash32(r512, 512, 0), 4243562489);
  assert.strictEqual(furc.furcHash(r512, 512, 1000), 20);
  const weights = [1, 1, 1, 1, 1, 1, 1];
  for (let i = 0; i < 200; i++) {
    const k = enc(String(i));
    assert.strictEqual(furc.weightedCh3(k, k.length, weights), furc.furcHash(k, k.length, 7));
  }
  assert.strictEqual(furc.weightedCh3(enc('k'), 1, []), -1);
  assert.strictEqual(furc.weightedCh3(enc('k'), 1, [1.5]), -1);
});

test('MD5 and SHA-1 equal node:crypto at every length 0..300', () => {
  for (let n = 0; n <= 300; n++) {
    const b = Buffer.alloc(n);
    for (let i = 0; i < n; i++) b[i] = (i * 131 + n) & 0xff;
    assert.strictEqual(Buffer.from(digest(b)).toString('hex'), crypto.createHash('md5').update(b).digest('hex'), `md5 ${n}`);
    const h = Array.from(sha1(b), (w) => (w >>> 0).toString(16).padStart(8, '0')).join('');
    assert.strictEqual(h, crypto.createHash('sha1').update(b).digest('hex'), `sha1 ${n}`);
  }
});

test('every hash in the table has a name that resolves to it', () => {
  for (const h of hashes()) {
    assert.strictEqual(typeof hash(h.name, 'x'), 'number');
    for (const a of h.aliases) assert.strictEqual(hash(a, 'abc'), hash(h.name, 'abc'), a);
  }
});

test('XXH3 64-bit: every length path (short, 17..128, 129..240, striped) as the reference gives it', () => {
  const { xxh3_64 } = require('../lib/xxh3');
  // values from the reference xxhash library (Python xxhash 3.x xxh3_64) over bytes (7i + 3) & 255
  const want = {
    0: '2d06800538d394c2', 1: '13e608bc156defed', 3: 'a9088dda485b481c', 4: '6d9253b16c8b1ed3',
    8: '60539db630471163', 9: 'feff668361d723a8', 16: 'b8c859b0f030b585', 17: '714a04408e79b80f',
    100: 'b5937857f0d78c9f', 128: '67425a03650261bf', 129: 'c664bf3311c6abc4', 240: '64556dc6b462a6cf',
    241: '8beadd3a8874fe17', 1500: '636eb3103aa644e2',
  };
  for (const [n, hex] of Object.entries(want)) {
    const b = Uint8Array.from({ length: Number(n) }, (_, i) => (i * 7 + 3) & 255);
    assert.strictEqual(xxh3_64(b).toString(16).padStart(16, '0'), hex, `length ${n}`);
    assert.strictEqual(hash('xxh3', b), Number(BigInt(`0x${hex}`) & 0xffffffffn), `low word, length ${n}`);
  }
});

test('XXH3 64-bit: all-0xff inputs (every 32-bit carry taken) as the reference gives it', () => {
  const { xxh3_64 } = require('../lib/xxh3');
  // values from the reference xxhash library (Python xxhash 3.5.0, libxxhash 0.8.2) over 0xff bytes
  const want = {
    3: 'a79db4af6ec707da', 8: '5111c7e47d784413', 16: '722a202f07a4b313', 100: '13547f0e31d7b095',
    200: '332ec33c7661eb58', 240: 'd0b19a475a28a93c', 1024: '91a9afd3ad9eb82e', 2048: '76f834f0e3f0f9e3',
  };
  for (const [n, hex] of Object.entries(want)) {
    const b = new Uint8Array(Number(n)).fill(0xff);
    assert.strictEqual(xxh3_64(b).toString(16).padStart(16, '0'), hex, `length ${n}`);
  }
});

test('MurmurHash3_x64_128 and emcache\'s signed-char reduction of it', () => {
  const { murmur3x64 } = require('../lib/murmur128');
  // each 64-bit half as its 8 little-endian bytes
  const hex = (hi, lo) => Array.from({ length: 8 }, (_, i) => ((i < 4 ? lo >>> (8 * i) : hi >>> (8 * (i - 4))) & 0xff).toString(16).padStart(2, '0')).join('');
  // the reference implementation's output bytes (PyPI mmh3 hash_bytes)
  for (const [k, want] of [['hello', '029bbd41b3a7d8cb191dae486a901e5b'], ['0123456789abcdefXYZ', '1d904a6c0275d399f39cf8ea56e2694e'], ['', '0'.repeat(32)]]) {
    const b = new TextEncoder().encode(k);
    const [h1h, h1l, h2h, h2l] = murmur3x64(b, b.length);
    assert.strictEqual(hex(h1h, h1l) + hex(h2h, h2l), want, k);
  }
  // 'hello': bytes 02 9b bd 41: 0x02, then 0x9b (>= 0x80) fills bits 8 and up
  assert.strictEqual(hash('emcache_murmur3', 'hello'), 0xffffff02);
});

test('pymemcache murmur3_32 hashes each character\'s low byte', () => {
  // mmh3.hash(bytes([0xe9])), mmh3.hash(bytes([0x78, 0xe5, 0x00])), mmh3.hash(b'abc'), unsigned
  assert.strictEqual(hash('pymemcache_murmur3', 'é'), 1153881266);
  assert.strictEqual(hash('pymemcache_murmur3', 'x日😀'), 2168096952);
  assert.strictEqual(hash('pymemcache_murmur3', 'abc'), 3017643002);
  assert.strictEqual(hash('pymemcache_murmur3', Uint8Array.from([0x61, 0xff])), hash('murmur3_32', Uint8Array.from([0x61, 0xff])));
});

test('the Redis and Enyim clients\' hashes: known answers (ketama hash)', () => {
  const cases = [
    ['crc32_raw', 'apple', 1456549807], ['crc32_raw', '', 4294967295], ['crc32_raw', 'a', 390611388],
    ['fnv1a_32_zero', 'apple', 1182587488], ['fnv1a_32_zero', '', 0], ['fnv1a_32_zero', 'a', 1627429043],
    ['murmur64a', 'apple', 2117380221], ['murmur64a', '', 1949108325], ['MURMUR_HASH', 'a', 1860359258],
    ['xxh64', 'apple', 1485414849], ['xxh64', '', 4014398263], ['xxhash.Sum64', 'a', 3528377585],
  ];
  for (const [name, key, want] of cases) assert.strictEqual(hash(name, key), want, `${name}(${key})`);
});

// The 64-bit hashes in BigInt arithmetic, written from their definitions (spec/README.md):
// the 32-bit-halves implementations must give every bit of them.
const M64 = (1n << 64n) - 1n;
const rotl = (x, r) => ((x << BigInt(r)) | (x >> BigInt(64 - r))) & M64;
const le = (b, at, k) => {
  let x = 0n;
  for (let j = k - 1; j >= 0; j--) x = (x << 8n) | BigInt(b[at + j]);
  return x;
};
function murmur64aRef(b, seed) {
  const m = 0xc6a4a7935bd1e995n;
  let h = (BigInt(seed) ^ (BigInt(b.length) * m)) & M64;
  let i = 0;
  for (; i + 8 <= b.length; i += 8) {
    let k = (le(b, i, 8) * m) & M64;
    k = ((k ^ (k >> 47n)) * m) & M64;
    h = ((h ^ k) * m) & M64;
  }
  if (i < b.length) h = ((h ^ le(b, i, b.length - i)) * m) & M64;
  h = ((h ^ (h >> 47n)) * m) & M64;
  return h ^ (h >> 47n);
}
const P1 = 0x9e3779b185ebca87n;
const P2 = 0xc2b2ae3d27d4eb4fn;
const P3 = 0x165667b19e3779f9n;
const P4 = 0x85ebca77c2b2ae63n;
const P5 = 0x27d4eb2f165667c5n;
const xround = (acc, x) => (rotl((acc + x * P2) & M64, 31) * P1) & M64;
function xxh64Ref(b) {
  const n = b.length;
  let h = P5;
  let i = 0;
  if (n >= 32) {
    const v = [(P1 + P2) & M64, P2, 0n, -P1 & M64];
    for (; i + 32 <= n; i += 32) for (let l = 0; l < 4; l++) v[l] = xround(v[l], le(b, i + 8 * l, 8));
    h = (rotl(v[0], 1) + rotl(v[1], 7) + rotl(v[2], 12) + rotl(v[3], 18)) & M64;
    for (const x of v) h = (((h ^ xround(0n, x)) * P1) + P4) & M64;
  }
  h = (h + BigInt(n)) & M64;
  for (; i + 8 <= n; i += 8) h = (rotl(h ^ xround(0n, le(b, i, 8)), 27) * P1 + P4) & M64;
  if (i + 4 <= n) {
    h = (rotl(h ^ ((le(b, i, 4) * P1) & M64), 23) * P2 + P3) & M64;
    i += 4;
  }
  for (; i < n; i++) h = (rotl(h ^ ((BigInt(b[i]) * P5) & M64), 11) * P1) & M64;
  h = ((h ^ (h >> 33n)) * P2) & M64;
  h = ((h ^ (h >> 29n)) * P3) & M64;
  return h ^ (h >> 32n);
}

test('MurmurHash64A and XXH64 in 32-bit halves equal 64-bit arithmetic at every length 0..300', () => {
  const { murmur64a, murmur64aSeeded, xxh64, H64 } = require('../lib/hash64');
  // the returned high word, and the whole value left in H64
  const both = (hi) => {
    assert.strictEqual(hi, H64[0]);
    return (BigInt(H64[0]) << 32n) | BigInt(H64[1]);
  };
  for (let n = 0; n <= 300; n++) {
    for (const fill of [(i) => (i * 131 + n) & 0xff, () => 0xff, () => 0]) {
      const b = Uint8Array.from({ length: n }, (_, i) => fill(i));
      assert.strictEqual(both(murmur64a(b, n)), murmur64aRef(b, 0x1234abcd), `murmur64a ${n}`);
      assert.strictEqual(both(murmur64aSeeded(b, n, 0xffffffff)), murmur64aRef(b, 0xffffffff), `murmur64a seed ${n}`);
      assert.strictEqual(both(xxh64(b, n)), xxh64Ref(b), `xxh64 ${n}`);
    }
  }
  // the reference values: XXH64('') (xxhash's own test), SMHasher's MurmurHash64A verification
  assert.strictEqual(both(xxh64(new Uint8Array(0), 0)), 0xef46db3751d8e999n);
  const key = Uint8Array.from({ length: 256 }, (_, i) => i);
  const all = new Uint8Array(256 * 8);
  const view = new DataView(all.buffer);
  for (let len = 0; len < 256; len++) {
    view.setUint32(8 * len + 4, murmur64aSeeded(key, len, 256 - len), true);
    view.setUint32(8 * len, H64[1], true);
  }
  murmur64aSeeded(all, all.length, 0);
  assert.strictEqual(H64[1], 0x1f0d3804);
});
