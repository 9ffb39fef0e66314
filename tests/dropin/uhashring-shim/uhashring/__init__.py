# The one-line change a uhashring user makes, as a module named `uhashring` so that
# uhashring's own test suite runs unmodified against ketama.uhashring.
from ketama.uhashring import HashRing, __version__, monkey  # noqa: F401

__all__ = ["HashRing", "monkey"]
