'use strict';
// Reads keys back through the JavaScript package and memjs.
//
//     node node_reader.js PROFILE SERVERS_FILE KEYS_FILE [DEAD_LABEL]
//
// Without DEAD_LABEL: one memjs client over every server with `client.getServer` set to our
// ring's index, so memjs asks the server our ring names. With DEAD_LABEL: for each key,
// `ring.failover(key, 7)` is walked to the first server that is not DEAD_LABEL, and the key is
// read from that server alone. A hit is the value "w:" + key. Prints "hits=N total=M", then
// each missed key on its own line. memjs (js/node_modules, from js/test.sh or npm ci in js/)
// waits at most 2 s per request; the whole run is bounded by a 120 s deadline.

const fs = require('fs');
const path = require('path');
const { createRequire } = require('module');

const root = path.join(__dirname, '..', '..');
const { Ring } = require(path.join(root, 'js'));
const memjs = createRequire(path.join(root, 'js', 'package.json'))('memjs');

const DEADLINE_MS = 120000;
const BATCH = 100;

function lines(file) {
  return fs.readFileSync(file, 'utf8').split('\n').filter((l) => l.trim() !== '');
}

function client(labels) {
  return memjs.Client.create(labels.join(','), {
    timeout: 2,
    conntimeout: 2,
    retries: 1,
    logger: { log() {} },
  });
}

async function get(c, key) {
  try {
    const { value } = await c.get(key);
    return value === null ? null : value.toString('utf8');
  } catch (err) {
    return null;
  }
}

async function main() {
  const [profile, serversFile, keysFile, dead] = process.argv.slice(2);
  const labels = lines(serversFile).map((l) => l.trim());
  for (const label of labels) {
    if (!label.startsWith('127.')) throw new Error(`loopback only: ${label}`);
  }
  const keys = fs.readFileSync(keysFile, 'utf8').split('\n').filter((l) => l.trim() !== '');
  const ring = new Ring({ profile, servers: labels.map((label) => ({ label })) });
  const clients = [];
  let pick;
  if (dead === undefined) {
    const c = client(labels);
    // memjs's server-selection hook: an index into client.servers (the same order as labels)
    c.getServer = (key) => ring.index(key);
    clients.push(c);
    pick = () => c;
  } else {
    const byLabel = new Map(labels.map((l) => [l, client([l])]));
    clients.push(...byLabel.values());
    pick = (key) => {
      const label = ring.failover(key, 7).find((s) => s !== dead);
      return label === undefined ? null : byLabel.get(label);
    };
  }
  const missed = [];
  for (let i = 0; i < keys.length; i += BATCH) {
    const batch = keys.slice(i, i + BATCH);
    const got = await Promise.all(batch.map((k) => {
      const c = pick(k);
      return c === null ? null : get(c, k);
    }));
    batch.forEach((k, j) => {
      if (got[j] !== `w:${k}`) missed.push(k);
    });
  }
  for (const c of clients) c.close();
  process.stdout.write(`hits=${keys.length - missed.length} total=${keys.length}\n`);
  for (const k of missed) process.stdout.write(`${k}\n`);
}

const timer = setTimeout(() => {
  process.stderr.write('node_reader: deadline passed\n');
  process.exit(2);
}, DEADLINE_MS);
timer.unref();
process.on('SIGINT', () => process.exit(130));
process.on('SIGTERM', () => process.exit(143));
main().then(
  () => clearTimeout(timer),
  (err) => {
    process.stderr.write(`node_reader: ${err.stack || err}\n`);
    process.exit(1);
  },
);
