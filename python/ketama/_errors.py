"""The exceptions ``ketama`` raises.

Every one is a :class:`KetamaError`, and also the built-in exception a Python user would
expect: bad names, labels, weights and keys are :class:`ValueError`, a missing server is a
:class:`KeyError`, asking an empty ring is a :class:`LookupError`.
"""

from __future__ import annotations

__all__ = [
    "KetamaError",
    "UnknownProfileError",
    "UnknownHashError",
    "AmbiguousHashError",
    "BadWeightError",
    "BadLabelError",
    "DuplicateServerError",
    "MissingServerError",
    "EmptyRingError",
    "NoServerError",
    "KeyRejectedError",
    "UnsupportedError",
    "TooManyPointsError",
    "BadFactorError",
    "FixedPointsError",
    "NotAContinuumError",
    "NeedsKeyError",
    "BadLoadsError",
    "TooManyServersError",
    "BadOptionError",
    "UnknownAlgorithmError",
    "BucketCountError",
    "ZeroBucketsError",
    "TooManyBucketsError",
    "NoBucketError",
]


class KetamaError(Exception):
    """Base class of every error raised by ``ketama``."""


class UnknownProfileError(KetamaError, ValueError):
    """No profile has this name (see :func:`ketama.profiles`)."""


class UnknownHashError(KetamaError, ValueError):
    """No hash function has this name (see :func:`ketama.hashes`)."""


class AmbiguousHashError(UnknownHashError):
    """``crc32`` names two functions: say ``crc`` or ``crc32a``, or give a profile."""


class BadWeightError(KetamaError, ValueError):
    """The weight is out of range or not accepted by the profile's client."""


class BadLabelError(KetamaError, ValueError):
    """The server label cannot be parsed (empty, whitespace, bad port, bad brackets)."""


class DuplicateServerError(KetamaError, ValueError):
    """A server with this label is already on the ring."""


class MissingServerError(KetamaError, KeyError):
    """No server with this label is on the ring."""

    def __str__(self) -> str:  # KeyError would quote the message
        return str(self.args[0]) if self.args else ""


class EmptyRingError(KetamaError, LookupError):
    """The ring has no servers."""


class NoServerError(KetamaError, LookupError):
    """The ring has servers but none owns the key (e.g. all have weight 0)."""


class KeyRejectedError(KetamaError, ValueError):
    """The profile's client refuses this key (e.g. xmemcached's empty key)."""


class UnsupportedError(KetamaError, ValueError):
    """The profile cannot place this server (e.g. ``xmemcached-nginx`` with a host name)."""


class TooManyPointsError(KetamaError, ValueError):
    """More points than one continuum can index."""


class FixedPointsError(KetamaError, ValueError):
    """A ring from :meth:`Ring.from_points` takes no changes: build a new one."""


class NotAContinuumError(KetamaError, ValueError):
    """The profile does not place keys on a continuum of 32-bit points (modulo, jump,
    rendezvous, maglev, uhashring's 128-bit ring), which the call needs."""


class NeedsKeyError(KetamaError, ValueError):
    """A key hash alone cannot place a key on this profile: its client reads the key itself
    (mcrouter, hash rendezvous) or a 128-bit hash (uhashring)."""


class BadLoadsError(KetamaError, ValueError):
    """The current loads (bounded loads) do not have one entry per server."""


class TooManyServersError(KetamaError, ValueError):
    """More servers than the profile's client takes (mcrouter: 2**23)."""


# Shown (and pickled) as ketama.XxxError, where users import them from.
for _cls in (
    KetamaError,
    UnknownProfileError,
    UnknownHashError,
    AmbiguousHashError,
    BadWeightError,
    BadLabelError,
    DuplicateServerError,
    MissingServerError,
    EmptyRingError,
    NoServerError,
    KeyRejectedError,
    UnsupportedError,
    TooManyPointsError,
    FixedPointsError,
    NotAContinuumError,
    NeedsKeyError,
    BadLoadsError,
    TooManyServersError,
):
    _cls.__module__ = "ketama"
del _cls


class BadFactorError(KetamaError, ValueError):
    """A capacity factor (bounded loads) below 1."""


class BadOptionError(KetamaError, ValueError):
    """A placement option the profile's client does not have, or a value it refuses
    (``hash_tag`` is exactly 2 bytes; ``prefix_key`` 1..127 bytes without NUL)."""


class UnknownAlgorithmError(KetamaError, ValueError):
    """No bucket function has this name (see :func:`ketama.bucket_algorithms`)."""


class BucketCountError(KetamaError, ValueError):
    """The bucket count is 0 or above the bucket function's limit."""


class ZeroBucketsError(BucketCountError):
    """The bucket count is 0: there is nothing to choose from."""


class TooManyBucketsError(BucketCountError):
    """The bucket count is above the bucket function's limit."""


class NoBucketError(KetamaError, LookupError):
    """The reference bucket function returns no bucket for this input (go-mpchash's
    degenerate case)."""
