"""libketama's own Python binding API (RJ/ketama ``python_ketama``), in the ``ketama`` package.

Code written against that old C module keeps working unchanged::

    import ketama
    cont = ketama.Continuum("/etc/ketama.servers")   # lines: host:port<TAB>memory
    cont.get_server("user:1")    # -> (point, "10.0.1.1:11211")
    cont.get_points()            # -> [(point, "host:port"), ...], ascending
    ketama.hashi("user:1")       # -> libketama's key hash

The continuum is the native ring of the ``libketama`` profile. The server file is read the way
libketama's ``read_server_definitions`` reads it (COMPAT.md 3.5), quirks included: lines are
read in pieces of at most 126 bytes, lines under 2 bytes or starting with ``#`` are skipped,
tokens split on tab or space, and the memory token's last character is dropped (libketama
assumes it is the newline). Rejected with :class:`ketama.KetamaError`, as libketama fails the
roll: a missing file, no server line, a line without a memory token, memory <= 0. Rejected
where libketama misbehaves: addresses over 22 characters (libketama overflows its buffer),
memory above 4294967295, and the same address twice (libketama gives each copy its own
points; our ring keeps one entry per server).

Unlike libketama, nothing lives in System V shared memory: the file is read once, when the
``Continuum`` is made (make a new one to pick up changes).
"""

from __future__ import annotations

import os
from bisect import bisect_left
from typing import List, Tuple, Union

from ketama._errors import KetamaError
from ketama._ketama import Ring, hash

__all__ = ["Continuum", "hashi"]

_ADDR_MAX = 22
_LINE_MAX = 126  # fgets(line, 127, file)
_STRTOL_SPACE = b" \t\n\r\x0b\x0c"


def hashi(key: Union[str, bytes]) -> int:
    """libketama's ``ketama_hashi``: the first 4 bytes of ``md5(key)``, little-endian."""
    return hash(key, "md5")


def _strtol(token: bytes) -> Union[int, None]:
    """C ``strtol(token, NULL, 10)``: leading blanks, a sign, digits, the rest ignored;
    None when there is no digit."""
    s = token.lstrip(_STRTOL_SPACE)
    sign = 1
    if s[:1] in (b"-", b"+"):
        sign = -1 if s[:1] == b"-" else 1
        s = s[1:]
    digits = len(s) - len(s.lstrip(b"0123456789"))
    if digits == 0:
        return None
    return sign * int(s[:digits])


def _split(line: bytes) -> Union[Tuple[bytes, bytes], None]:
    """C ``strtok(line, "\\t ")``: the next token and what follows it."""
    rest = line.lstrip(b" \t")
    if not rest:
        return None
    end = len(rest)
    for sep in (b" ", b"\t"):
        at = rest.find(sep)
        if at != -1:
            end = min(end, at)
    return rest[:end], rest[end:]


def _read_servers(data: bytes, name: str) -> List[Tuple[str, int]]:
    """The ``(address, memory)`` lines of a libketama server file."""
    servers: List[Tuple[str, int]] = []
    at = 0
    lineno = 0
    while at < len(data):
        piece = data[at : at + _LINE_MAX]
        nl = piece.find(b"\n")
        if nl != -1:
            piece = piece[: nl + 1]
        at += len(piece)
        lineno += 1
        line = piece.split(b"\0", 1)[0]
        if len(line) < 2 or line[:1] == b"#":
            continue

        def fail(reason: str) -> KetamaError:
            return KetamaError(f"{reason} (line {lineno} in {name})")

        first = _split(line)
        if first is None:
            raise fail("Unable to find delimiter")
        addr, after = first
        if len(addr) > _ADDR_MAX:
            raise fail("Address longer than 22 characters")
        second = _split(after)
        if second is None:
            raise fail("Unable to find delimiter")
        memory = _strtol(second[0][:-1])  # libketama drops the last character
        if memory is None or memory <= 0:
            raise fail("Invalid memory value")
        if memory > 0xFFFFFFFF:
            raise fail("Memory value above 4294967295")
        try:
            label = addr.decode("utf-8")
        except UnicodeDecodeError:
            raise fail("Address is not UTF-8") from None
        servers.append((label, memory))
    return servers


class Continuum:
    """libketama's continuum for a server file (``ketama_roll``)."""

    __slots__ = ("_filename", "_ring", "_points", "_positions")

    def __init__(self, filename: str) -> None:
        """Reads ``filename`` (lines ``host:port<TAB>memory``) and builds the continuum.

        :raises ValueError: ``filename`` is over 255 bytes (as the C module).
        :raises ketama.KetamaError: the file is missing or invalid (libketama's message).
        """
        if not isinstance(filename, str):
            raise TypeError(f"Continuum() argument must be str, not {type(filename).__name__}")
        if len(os.fsencode(filename)) > 255:
            raise ValueError("filename must not be over 255 bytes long")
        self._filename = filename
        try:
            with open(filename, "rb") as f:
                data = f.read()
        except OSError:
            if not os.path.exists(filename):
                raise KetamaError(f"Invalid filename specified: {filename}") from None
            raise KetamaError(f"File {filename} doesn't exist!") from None
        servers = _read_servers(data, filename)
        if not servers:
            raise KetamaError(f"No valid server definitions in file {filename}")
        weights: dict[str, int] = {}
        for addr, memory in servers:
            if addr in weights:
                raise KetamaError(f"Address {addr} given twice in {filename} (unsupported)")
            weights[addr] = memory
        self._ring = Ring(weights, "libketama")
        self._points = self._ring.points()
        self._positions = [p for p, _ in self._points]

    def get_server(self, key: Union[str, bytes]) -> Tuple[int, str]:
        """``(point, "host:port")``: the continuum point that takes ``key`` and its server
        (``ketama_get_server``)."""
        server = self._ring.get(key)
        positions = self._positions
        i = bisect_left(positions, self._ring.key_hash(key))
        return (positions[i if i < len(positions) else 0], server)

    def get_points(self) -> List[Tuple[int, str]]:
        """Every ``(point, "host:port")`` of the continuum, ascending."""
        return list(self._points)

    def __repr__(self) -> str:
        return f"<ketama.Continuum from {self._filename!r}>"
