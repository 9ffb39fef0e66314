#!/usr/bin/env node
'use strict';
// The conformance driver of the JavaScript port: reads cases from stdin in the line protocol
// of `ketama conformance` and answers each key with this package's ring. Run it through the
// kit: `ketama conformance --all -- node js/bin/ketama-conformance.js`.

const readline = require('readline');
const { Ring, hash, KetamaError } = require('..');
const { fromHex } = require('../lib/bytes');

/** The core's name for an error (`UnknownProfile`, ...), for `error` lines. */
function errorName(err) {
  if (err instanceof KetamaError && err.variant) return err.variant;
  return err && err.name ? err.name : 'Error';
}

/** The bytes of a hex field, or a protocol error. */
function hexField(s, what) {
  const b = fromHex(s);
  if (b === null) throw new Error(`bad ${what} hex '${s}'`);
  return Buffer.from(b.buffer, b.byteOffset, b.length);
}

/** The answer lines of one complete case. */
function answer(c) {
  const lines = [];
  const kind = c.kind || 'locate';
  if (kind === 'hash') {
    let fn;
    try {
      if (c.profile === null) {
        if (c.hash === null) throw new Error('hash case without a hash name');
        hash(c.hash, ''); // resolves the name once (throws UnknownHash, AmbiguousHash)
        fn = (k) => hash(c.hash, k);
      } else {
        const ring = new Ring({ profile: c.profile, hash: c.hash, servers: [], options: c.options });
        fn = (k) => ring.keyHash(k);
      }
    } catch (err) {
      return [`error ${errorName(err)} ${String(err.message).replace(/\n/g, ' ')}`];
    }
    for (const k of c.keys) {
      try {
        lines.push(String(fn(k)));
      } catch (err) {
        if (!(err instanceof KetamaError)) throw err;
        lines.push('null');
      }
    }
    return lines;
  }
  let ring;
  try {
    if (c.profile === null) throw new Error(`${kind} case without a profile`);
    ring = new Ring({ profile: c.profile, hash: c.hash, servers: c.servers, options: c.options });
  } catch (err) {
    return [`error ${errorName(err)} ${String(err.message).replace(/\n/g, ' ')}`];
  }
  for (const k of c.keys) {
    try {
      if (kind === 'failover') lines.push(ring.failover(k, c.n).join(' ') || 'null');
      else lines.push(ring.get(k));
    } catch (err) {
      if (!(err instanceof KetamaError)) throw err;
      lines.push('null');
    }
  }
  return lines;
}

function main() {
  const rl = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
  let c = null;
  let failed = false;
  rl.on('line', (line) => {
    if (failed) return;
    const sp = line.indexOf(' ');
    const word = sp < 0 ? line : line.substring(0, sp);
    const rest = sp < 0 ? '' : line.substring(sp + 1);
    try {
      switch (word) {
        case 'case':
          c = { name: rest, kind: 'locate', profile: null, hash: null, n: 1, options: {}, servers: [], keys: [], bad: null };
          break;
        case 'kind':
          c.kind = rest;
          break;
        case 'profile':
          c.profile = rest === '-' ? null : rest;
          break;
        case 'hash':
          c.hash = rest === '-' ? null : rest;
          break;
        case 'n':
          c.n = Number(rest);
          break;
        case 'option': {
          const [name, value] = rest.split(' ');
          if (name === 'hash_with_prefix') {
            if (value !== '0' && value !== '1') throw new Error('hash_with_prefix is 0 or 1');
            c.options.hashWithPrefix = value === '1';
          } else if (name === 'hash_tag') {
            c.options.hashTag = new Uint8Array(hexField(value, 'hash_tag'));
          } else if (name === 'prefix_key') {
            c.options.prefixKey = new Uint8Array(hexField(value, 'prefix_key'));
          } else {
            throw new Error(`unknown option '${name}'`);
          }
          break;
        }
        case 'server': {
          const [label, weight, name] = rest.split(' ');
          const w = /^[0-9]+$/.test(weight) ? Number(weight) : NaN;
          c.servers.push({
            label,
            weight: w,
            name: name === undefined || name === '-' ? null : hexField(name, 'name').toString('utf8'),
          });
          break;
        }
        case 'key':
          c.keys.push(hexField(rest, 'key'));
          break;
        case 'end': {
          const out = answer(c);
          out.push('end');
          process.stdout.write(`${out.join('\n')}\n`);
          c = null;
          break;
        }
        case '':
          break;
        default:
          throw new Error(`unknown line '${word}'`);
      }
    } catch (err) {
      failed = true;
      process.stderr.write(`ketama-conformance: ${err.message}\n`);
      process.exitCode = 2;
      rl.close();
    }
  });
}

main();
