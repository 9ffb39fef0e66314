'use strict';
// The error vocabulary of the core, one Error subclass per variant, with the core's texts.

/** The base class of every error this package throws on bad input. */
class KetamaError extends Error {
  /**
   * @param {string} message
   */
  constructor(message) {
    super(message);
    this.name = new.target.name;
  }
}

/** [variant name, message] of each core error, in the core's order. */
const VARIANTS = [
  ['EmptyRing', 'the ring has no servers'],
  ['NoServer', 'no server owns this key'],
  ['UnknownProfile', 'unknown profile name'],
  ['UnknownHash', 'unknown hash name'],
  [
    'AmbiguousHash',
    "ambiguous hash name 'crc32': use 'crc' (15-bit, libhashkit/Java/twemproxy) or 'crc32a' (full CRC-32, PHP/pecl/Go)",
  ],
  ['BadWeight', 'weight not accepted by this profile'],
  ['DuplicateServer', 'a server with this label is already on the ring'],
  ['MissingServer', 'no server with this label is on the ring'],
  ['BadLabel', 'bad server label (expected host:port, [ipv6]:port or host)'],
  ['KeyRejected', 'this client refuses the key'],
  ['Unsupported', 'this profile cannot place this server'],
  ['TooManyPoints', 'too many points for one continuum (the limit is 8388608 = 2^23 points)'],
  ['BadFactor', 'bad capacity factor'],
];

/** Error classes by core variant name (`EmptyRing` -> `EmptyRingError`). */
const byVariant = {};
const classes = {};
for (const [variant, text] of VARIANTS) {
  const cls = {
    [`${variant}Error`]: class extends KetamaError {
      /** @param {string} [detail] */
      constructor(detail) {
        super(detail ? `${text}: ${detail}` : text);
        /** The core's name for this error (`EmptyRing`, ...). */
        this.variant = variant;
      }
    },
  }[`${variant}Error`];
  byVariant[variant] = cls;
  classes[`${variant}Error`] = cls;
}

module.exports = { KetamaError, byVariant, ...classes };
