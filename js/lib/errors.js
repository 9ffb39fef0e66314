'use strict';
// The error vocabulary of the core (the spec's `errors`): one Error subclass per variant,
// named `<Variant>Error`, with the core's texts.

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

/** [variant name, message] of each core error, in the core's order (the spec's `errors`). */
const VARIANTS = require('../spec/profiles.json').errors.map((e) => [e.name, e.message]);

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
