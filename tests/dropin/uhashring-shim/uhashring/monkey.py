# `from uhashring import monkey` / `uhashring.monkey` -> ketama.uhashring.monkey.
from ketama.uhashring.monkey import patch_memcache  # noqa: F401

__all__ = ["patch_memcache"]
