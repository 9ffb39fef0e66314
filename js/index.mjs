// ES module entry: the same objects as the CommonJS entry.
import ketama from './index.js';

export const { Ring, hash, profiles, hashes, MAX_POINTS, bucket, Bucketer, siphash24, BUCKET_ALGORITHMS } = ketama;
// KetamaError and one class per core error (lib/errors.js, generated from spec/errors.json).
export * from './lib/errors.js';
export default ketama;
