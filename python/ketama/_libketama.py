"""libketama's own Python binding API (RJ/ketama ``python_ketama``), in the ``ketama`` package.

Code written against that old C module keeps working unchanged::

    import ketama
    cont = ketama.Continuum("/etc/ketama.servers")   # lines: host:port<TAB>memory
    cont.get_server("user:1")    # -> (point, "10.0.1.1:11211")
    cont.get_points()            # -> [(point, "host:port"), ...], ascending
    ketama.hashi("user:1")       # -> libketama's key hash

The servers file is read by ketama's core, as the C drop-in (``ketama_roll``) reads it: the
same answer for every file, the same message for every refusal (a :class:`ketama.KetamaError`).
libketama's reading is reproduced, quirks included: lines are read in pieces of at most 126
bytes, lines under 2 bytes or starting with ``#`` are skipped, tokens split on tab or space,
the memory token's last character is dropped (libketama assumes it is the newline), and the
same address twice is two servers, each with its own points. Refused where libketama refuses
the file, and where it crashes, hangs or reads garbage (a negative memory, one above
4294967295, a last line of blanks only, a path that is not a regular file):
docs/libketama-files.md lists each case and what the real libketama does.

Addresses are any bytes; they come back as ``str`` decoded from UTF-8 with
``surrogateescape`` (``addr.encode("utf-8", "surrogateescape")`` gives the file's bytes).
Unlike libketama, nothing lives in System V shared memory: the file is read once, when the
``Continuum`` is made (make a new one to pick up changes).
"""

from __future__ import annotations

import os
import stat
from typing import List, Tuple, Union

from ketama._errors import KetamaError
from ketama._ketama import (
    _LIBKETAMA_MAX_FILE_BYTES,
    _libketama_check,
    _libketama_io_error,
    _libketama_read,
    hash,
)

__all__ = ["Continuum", "hashi"]


def hashi(key: Union[str, bytes]) -> int:
    """libketama's ``ketama_hashi``: the first 4 bytes of ``md5(key)``, little-endian."""
    return hash(key, "md5")


def _kind(mode: int) -> str:
    """What ``os.stat`` found, in the words core's file rule takes."""
    if stat.S_ISREG(mode):
        return "regular"
    if stat.S_ISDIR(mode):
        return "directory"
    if stat.S_ISFIFO(mode):
        return "fifo"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "device"
    if stat.S_ISSOCK(mode):
        return "socket"
    return "other"


def _read(filename: str) -> bytes:
    """The servers file's bytes, or the refusal core words for what is wrong with the path."""
    try:
        st = os.stat(filename)
    except (OSError, ValueError):
        raise _libketama_io_error(filename, "missing", 0) from None
    _libketama_check(filename, _kind(st.st_mode), st.st_size)
    try:
        with open(filename, "rb") as f:
            data = f.read(_LIBKETAMA_MAX_FILE_BYTES + 1)
    except OSError as e:
        raise _libketama_io_error(filename, "unreadable", e.errno or 0) from None
    if len(data) > _LIBKETAMA_MAX_FILE_BYTES:
        raise _libketama_io_error(filename, "grew", 0)
    return data


class Continuum:
    """libketama's continuum for a servers file (``ketama_roll``)."""

    __slots__ = ("_filename", "_ring", "_points")

    def __init__(self, filename: str) -> None:
        """Reads ``filename`` (lines ``host:port<TAB>memory``) and builds the continuum.

        :raises ValueError: ``filename`` is over 255 bytes (as the C module).
        :raises ketama.KetamaError: the file is missing, not a regular file or invalid (the
            C drop-in's message, naming the line).
        """
        if not isinstance(filename, str):
            raise TypeError(f"Continuum() argument must be str, not {type(filename).__name__}")
        if len(os.fsencode(filename)) > 255:
            raise ValueError("filename must not be over 255 bytes long")
        self._filename = filename
        servers, self._ring = _libketama_read(_read(filename), filename)
        addresses = [a.decode("utf-8", "surrogateescape") for a, _ in servers]
        self._points = [(point, addresses[server]) for point, server in self._ring.points()]

    def get_server(self, key: Union[str, bytes]) -> Tuple[int, str]:
        """``(point, "host:port")``: the continuum point that takes ``key`` and its server
        (``ketama_get_server``)."""
        return self._points[self._ring.position(key)]

    def get_points(self) -> List[Tuple[int, str]]:
        """Every ``(point, "host:port")`` of the continuum, ascending."""
        return list(self._points)

    def __repr__(self) -> str:
        return f"<ketama.Continuum from {self._filename!r}>"
