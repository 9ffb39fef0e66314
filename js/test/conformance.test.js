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
