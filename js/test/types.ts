// Compiled with `tsc --noEmit` (js/test.sh): the declarations describe the API as used.
import { Ring, hash, profiles, hashes, KetamaError, KeyRejectedError, BadOptionError, InvalidUtf8Error, TooManyBucketsError, PlacementOptions, MAX_POINTS, bucket, Bucketer } from '..';

const ring: Ring = new Ring({
  profile: 'libmemcached-weighted',
  hash: null,
  servers: [{ label: '10.0.0.1:11211', weight: 1 }, { label: '10.0.0.2:11211', name: 'b' }],
});
const label: string = ring.get('key');
const fromBytes: string = ring.get(new Uint8Array([1, 2, 3]));
const index: number = ring.index('key');
const many: string[] = ring.getN('key', 2);
const batch: Array<string | null> = ring.getMany(['a', new Uint8Array([1])]);
const batchAt: Int32Array = ring.indexMany(['a', 'b'], new Int32Array(2));
const seq: string[] = ring.failover('key', 3);
const alive: string | null = ring.getAlive('key', [0]);
const pts: Array<[number, string]> = ring.points();
const h: number = hash('md5', 'key');
const names: string[] = profiles().map((p) => p.name).concat(hashes().map((x) => x.name));
const limit: number = MAX_POINTS;

try {
  ring.get('');
} catch (err) {
  if (err instanceof KeyRejectedError) {
    const v: string = err.variant;
    const e: KetamaError = err;
    void v;
    void e;
  }
}

const opts: PlacementOptions = { prefixKey: 'p:', hashWithPrefix: true };
const prefixed: Ring = ring.withOptions(opts);
const tagged: Ring = new Ring({ profile: 'twemproxy', servers: [{ label: '10.0.0.1:11211' }], options: { hashTag: new Uint8Array([0x7b, 0x7d]) } });
const tag: string | Uint8Array | null = tagged.options().hashTag;
try {
  ring.withOptions({ hashTag: '{}' });
} catch (err) {
  if (err instanceof BadOptionError) void err.variant;
}

const b: number = bucket('jump', 42n, 10) + new Bucketer('maglev-go', 7).get('18446744073709551615');
try {
  bucket('jump', 1, 1 << 31);
} catch (err) {
  if (err instanceof TooManyBucketsError) {
    const v: 'TooManyBuckets' = err.variant;
    void v;
  }
  if (err instanceof KetamaError) {
    const at: number | null = err.serverIndex;
    const who: string | null = err.serverLabel;
    void [at, who];
  }
  if (err instanceof InvalidUtf8Error) void err.message;
}

void [label, fromBytes, index, many, batch, batchAt, seq, alive, pts, h, names, limit, b, prefixed, tag];
