'use strict';
// The memjs hook: memjs picks a server through `client.getServer(key)` (an index into
// `client.servers`); setting it to `ring.index` places keys by any profile. No memcached is
// needed: memjs only connects when a command is sent.

const test = require('node:test');
const assert = require('node:assert');
const { Ring } = require('..');

let memjs = null;
try {
  memjs = require('memjs');
} catch (err) {
  memjs = null;
}
const skip = memjs ? false : 'memjs is not installed (npm install in js/)';

const labels = ['10.0.0.1:11211', '10.0.0.2:11211', '10.0.0.3:11212', 'cache4.example.com:11211'];

test('memjs with our ring picks the server our ring names', { skip }, () => {
  const client = memjs.Client.create(labels.join(','), { logger: { log() {} } });
  const ring = new Ring({ profile: 'php-memcached', servers: labels.map((label) => ({ label })) });
  client.getServer = (key) => ring.index(key);
  for (let i = 0; i < 2000; i++) {
    const key = `user:${i}`;
    const server = client.server(key);
    assert.strictEqual(`${server.host}:${server.port}`, ring.get(key), key);
  }
  client.close();
});

test('the memjs profile is what memjs does by itself', { skip }, () => {
  const client = memjs.Client.create(labels.join(','), { logger: { log() {} } });
  const ring = new Ring({ profile: 'memjs', servers: labels.map((label) => ({ label })) });
  for (let i = 0; i < 2000; i++) {
    const key = `key-${i}-é`;
    assert.strictEqual(client.getServer(key), ring.index(key), key);
  }
  client.close();
});
