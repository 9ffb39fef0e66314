'use strict';
// The port through the conformance kit: `ketama conformance --all -- node js/bin/ketama-conformance.js`
// must report every vector file agreeing. The kit is the CLI (env KETAMA_BIN, else
// ../target/debug/ketama); without it the test is skipped, unless KETAMA_REQUIRE_CLI is set.

const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const path = require('node:path');
const { spawnSync } = require('node:child_process');

const REPO = path.join(__dirname, '..', '..');
const BIN = process.env.KETAMA_BIN || path.join(REPO, 'target', 'debug', 'ketama');
const DRIVER = path.join(REPO, 'js', 'bin', 'ketama-conformance.js');

function kitAvailable() {
  if (!fs.existsSync(BIN)) return `no ketama binary at ${BIN} (set KETAMA_BIN or cargo build -p ketama-cli)`;
  const r = spawnSync(BIN, ['conformance', '--help'], { encoding: 'utf8' });
  if (r.status !== 0) return `${BIN} has no conformance command`;
  return null;
}

const missing = kitAvailable();
if (missing && process.env.KETAMA_REQUIRE_CLI) {
  test('the conformance kit is required', () => assert.fail(missing));
}

test('every vector file agrees through the conformance kit', { skip: missing || false, timeout: 600000 }, () => {
  const r = spawnSync(BIN, ['conformance', '--all', '--format', 'json', '--', process.execPath, DRIVER], {
    cwd: REPO,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  assert.strictEqual(r.status, 0, `kit exit ${r.status}\n${r.stderr}\n${r.stdout.slice(0, 4000)}`);
});

test('the option files agree through the conformance kit (option lines)', { skip: missing || false, timeout: 120000 }, () => {
  const dir = path.join(REPO, 'tests', 'vectors', 'options');
  const r = spawnSync(BIN, ['conformance', '--all', '--vectors', dir, '--format', 'json', '--', process.execPath, DRIVER], {
    cwd: REPO,
    encoding: 'utf8',
    maxBuffer: 16 * 1024 * 1024,
  });
  assert.strictEqual(r.status, 0, `kit exit ${r.status}\n${r.stderr}\n${r.stdout.slice(0, 4000)}`);
  const report = JSON.parse(r.stdout);
  assert.ok(report.files_total >= 18 && report.keys_agree === report.keys_total, JSON.stringify(report).slice(0, 2000));
});

// Profiles whose placement no real client defines (jump, rendezvous, maglev) or that have no
// recorded file yet: the port must at least agree with the core (the CLI's `ketama lookup`)
// key for key. Not a compatibility proof, a check that the port computes what core computes.
const { Ring, KetamaError } = require('..');

function coveredProfiles() {
  const covered = new Set();
  const dir = path.join(REPO, 'tests', 'vectors');
  for (const f of fs.readdirSync(dir).filter((x) => x.endsWith('.json'))) {
    const v = JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8'));
    if ((v.kind || 'locate') !== 'hash' && v.profile) covered.add(v.profile);
  }
  return covered;
}

test('profiles without vector files agree with the core key for key', { skip: missing || false, timeout: 300000 }, () => {
  const covered = coveredProfiles();
  const rest = require('..').profiles().filter((p) => !covered.has(p.name) && !p.aliases.some((a) => covered.has(a)));
  assert.ok(rest.length > 0);
  const servers = [
    { label: '10.0.0.1:11211', weight: 1 },
    { label: '10.0.0.2:11211', weight: 3 },
    { label: '10.0.0.3:11212', weight: 2 },
    { label: 'cache4:11211', weight: 1 },
    { label: '[2001:db8::5]:11211', weight: 5 },
  ];
  const tmp = fs.mkdtempSync(path.join(require('node:os').tmpdir(), 'ketama-js-'));
  try {
    const file = path.join(tmp, 'servers');
    fs.writeFileSync(file, servers.map((s) => `${s.label} ${s.weight}\n`).join(''));
    const keys = Array.from({ length: 3000 }, (_, i) => `key:${i}:${'é'.repeat(i % 3)}`);
    for (const p of rest) {
      const r = spawnSync(BIN, ['lookup', '-p', p.name, '-s', file], { input: keys.join('\n') + '\n', encoding: 'utf8' });
      assert.strictEqual(r.status, 0, `${p.name}: ${r.stderr}`);
      const core = r.stdout.split('\n').slice(0, keys.length);
      const ring = new Ring({ profile: p.name, servers });
      const bad = keys.filter((k, i) => ring.get(k) !== core[i]);
      assert.strictEqual(bad.length, 0, `${p.name}: ${bad.length} keys differ from the core, e.g. ${bad[0]}`);
    }
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
});

test('points() of every continuum profile equals the core (ketama points)', { skip: missing || false, timeout: 300000 }, () => {
  const spec = JSON.parse(fs.readFileSync(path.join(REPO, 'js', 'spec', 'profiles.json'), 'utf8'));
  const servers = [
    { label: '10.0.0.1:11211', weight: 1 },
    { label: '10.0.0.2:11211', weight: 3 },
    { label: '10.0.0.3:11212', weight: 2 },
    { label: '[2001:db8::5]:11211', weight: 2 },
  ];
  const tmp = fs.mkdtempSync(path.join(require('node:os').tmpdir(), 'ketama-js-'));
  try {
    const file = path.join(tmp, 'servers');
    fs.writeFileSync(file, servers.map((s) => `${s.label} ${s.weight}\n`).join(''));
    const rings = spec.profiles.filter((p) => p.is_ring);
    assert.ok(rings.length > 20);
    for (const p of rings) {
      const r = spawnSync(BIN, ['points', '-p', p.name, '-s', file], { encoding: 'utf8', maxBuffer: 64 << 20 });
      assert.strictEqual(r.status, 0, `${p.name}: ${r.stderr}`);
      const core = r.stdout.trim().split('\n');
      const ours = new Ring({ profile: p.name, servers }).points().map(([v, l]) => `${v}\t${l}`);
      assert.deepStrictEqual(ours, core, p.name);
    }
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
});

test("getAlive of every profile equals the core's failover (ketama lookup --dead)", { skip: missing || false, timeout: 300000 }, () => {
  const servers = [
    { label: '10.0.0.1:11211', weight: 1 },
    { label: '10.0.0.2:11211', weight: 3 },
    { label: '10.0.0.3:11212', weight: 2 },
    { label: '[2001:db8::5]:11211', weight: 5 },
  ];
  const tmp = fs.mkdtempSync(path.join(require('node:os').tmpdir(), 'ketama-js-'));
  try {
    const file = path.join(tmp, 'servers');
    fs.writeFileSync(file, servers.map((s) => `${s.label} ${s.weight}\n`).join(''));
    const keys = Array.from({ length: 2000 }, (_, i) => `key:${i}:{t${i % 7}}`);
    let checked = 0;
    for (const p of require('..').profiles()) {
      for (const dead of [[1], [0, 3]]) {
        const r = spawnSync(BIN, ['lookup', '-p', p.name, '-s', file, '--dead', dead.map((i) => servers[i].label).join(',')], {
          input: `${keys.join('\n')}\n`,
          encoding: 'utf8',
        });
        assert.strictEqual(r.status, 0, `${p.name}: ${r.stderr}`);
        const core = r.stdout.split('\n').slice(0, keys.length);
        const ring = new Ring({ profile: p.name, servers });
        const ours = keys.map((k) => {
          try {
            return ring.getAlive(k, dead) || '-';
          } catch (err) {
            if (err instanceof KetamaError) return '-'; // no server owns the key
            throw err;
          }
        });
        const bad = keys.filter((k, i) => ours[i] !== core[i]);
        assert.strictEqual(bad.length, 0, `${p.name}, dead ${dead}: ${bad.length} keys differ from the core, e.g. ${bad[0]}`);
        checked++;
      }
    }
    assert.ok(checked > 100, `${checked} rings`);
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
});

test('points() with IPv6 node strings equals the core (compressed, IPv4-mapped, URL and NUL forms)', { skip: missing || false, timeout: 120000 }, () => {
  const labels = ['[::ffff:1.2.3.4]:11211', '[2001:db8:0:0:1:0:0:1]:1', '[::]:5', '[1:0:0:2:0:0:0:3]:9', '[fe80::1]:11211', '[::1.2.3.4]:7', '10.0.0.1:11211'];
  const tmp = fs.mkdtempSync(path.join(require('node:os').tmpdir(), 'ketama-js-'));
  try {
    const file = path.join(tmp, 'servers');
    fs.writeFileSync(file, labels.map((l) => `${l}\n`).join(''));
    for (const profile of ['enyim', 'enyim-ketama', 'redis-rb', 'redis-rb-5', 'cache-memcached-fast', 'jedis-2-named', 'predis']) {
      const r = spawnSync(BIN, ['points', '-p', profile, '-s', file], { encoding: 'utf8', maxBuffer: 64 << 20 });
      assert.strictEqual(r.status, 0, `${profile}: ${r.stderr}`);
      const ours = new Ring({ profile, servers: labels.map((label) => ({ label })) }).points().map(([v, l]) => `${v}\t${l}`);
      assert.deepStrictEqual(ours, r.stdout.trim().split('\n'), profile);
    }
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
});

// Fleets whose point strings collide on the walking profiles whose client keeps its points in
// a map (a later server's point replaces an earlier one's): flexihash appends the index to the
// label ('a:1' + '10' = 'a:11' + '0'), groupcache and go-redis v7 put it first ('1' + '1a:1' =
// '11' + 'a:1'). The tie winner is always the server at index 1.
const TIE_FLEETS = [
  ['flexihash', ['a:1', 'a:11', 'b:2', 'c:3']],
  ['groupcache', ['1a:1', 'a:1', 'b:2', 'c:3']],
  ['go-redis-v7', ['1a:1', 'a:1', 'b:2', 'c:3']],
];

test("a failover walk skips the losers of ties as the core does (ketama lookup --dead)", { skip: missing || false, timeout: 120000 }, () => {
  const tmp = fs.mkdtempSync(path.join(require('node:os').tmpdir(), 'ketama-js-'));
  try {
    const file = path.join(tmp, 'servers');
    const keys = Array.from({ length: 3000 }, (_, i) => `key:${i}`);
    for (const [profile, labels] of TIE_FLEETS) {
      fs.writeFileSync(file, labels.map((l) => `${l}\n`).join(''));
      const ring = new Ring({ profile, servers: labels.map((label) => ({ label })) });
      const pts = ring.points();
      const ties = pts.filter((p, i) => i > 0 && p[0] === pts[i - 1][0]).length;
      assert.ok(ties > 0, `${profile}: the fleet has no tied points`);
      const r = spawnSync(BIN, ['lookup', '-p', profile, '-s', file, '--dead', labels[1]], { input: `${keys.join('\n')}\n`, encoding: 'utf8' });
      assert.strictEqual(r.status, 0, `${profile}: ${r.stderr}`);
      const core = r.stdout.split('\n').slice(0, keys.length);
      const bad = keys.filter((k, i) => (ring.getAlive(k, [1]) || '-') !== core[i]);
      assert.strictEqual(bad.length, 0, `${profile}, ${labels[1]} down: ${bad.length} keys differ from the core, e.g. ${bad[0]}`);
    }
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
});
