// ES module entry: the same objects as the CommonJS entry.
import ketama from './index.js';

export const { Ring, hash, profiles, hashes, MAX_POINTS, KetamaError, bucket, Bucketer, BucketError, siphash24, BUCKET_ALGORITHMS } = ketama;
export const {
  EmptyRingError, NoServerError, UnknownProfileError, UnknownHashError, AmbiguousHashError,
  BadWeightError, DuplicateServerError, MissingServerError, BadLabelError, KeyRejectedError,
  UnsupportedError, TooManyPointsError, BadFactorError, FixedPointsError, NotAContinuumError,
  NeedsKeyError, BadLoadsError, TooManyServersError,
} = ketama;
export default ketama;
