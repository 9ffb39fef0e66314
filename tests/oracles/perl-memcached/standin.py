"""Loopback stand-ins for memcached servers: one listening socket per address, served by one
thread. A storage command (`set`/`add`/`replace`/`append`/`prepend`) is answered
`STORED` after its data block is logged as (local address, local port, data); anything else
is logged as an error and answered `ERROR`. The data block is the key's index (the oracle
sets each key to its index), so keys of any bytes need no parsing: the command line ends at
the first CRLF and its last number (before an optional `noreply`) is the data length.
"""
import ipaddress
import selectors
import socket
import threading

STORAGE = {b"set", b"add", b"replace", b"append", b"prepend"}
MAX_LINE = 1 << 20


class StandIns:
    def __init__(self, addresses):
        """addresses: iterable of (ip, port); every one gets a listening socket."""
        self.sel = selectors.DefaultSelector()
        self.lock = threading.Lock()
        self.log = []
        self.errors = []
        self.listeners = []
        for ip, port in sorted(set(addresses)):
            fam = socket.AF_INET6 if ipaddress.ip_address(ip).version == 6 else socket.AF_INET
            s = socket.socket(fam, socket.SOCK_STREAM)
            s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            s.bind((ip, port))
            s.listen(64)
            s.setblocking(False)
            self.sel.register(s, selectors.EVENT_READ, None)
            self.listeners.append(s)
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def take(self):
        """The log entries since the last call, and the errors so far."""
        with self.lock:
            out, self.log = self.log, []
            return out, list(self.errors)

    def close(self):
        self.stop.set()
        self.thread.join(5)
        for key in list(self.sel.get_map().values()):
            key.fileobj.close()
        self.sel.close()

    def _serve(self):
        while not self.stop.is_set():
            for key, _ in self.sel.select(timeout=0.1):
                if key.data is None:
                    conn, _ = key.fileobj.accept()
                    conn.setblocking(False)
                    self.sel.register(conn, selectors.EVENT_READ, bytearray())
                else:
                    self._read(key.fileobj, key.data)

    def _read(self, conn, buf):
        try:
            chunk = conn.recv(65536)
        except (BlockingIOError, InterruptedError):
            return
        except OSError:
            chunk = b""
        if not chunk:
            self.sel.unregister(conn)
            conn.close()
            return
        buf += chunk
        while True:
            end = buf.find(b"\r\n")
            if end < 0:
                if len(buf) > MAX_LINE:
                    self._error(conn, "command line too long")
                    buf.clear()
                return
            line = bytes(buf[:end])
            words = line.split(b" ")
            if words[0] not in STORAGE:
                self._error(conn, "unexpected command %r" % line[:80])
                del buf[:end + 2]
                conn.sendall(b"ERROR\r\n")
                continue
            noreply = words[-1] == b"noreply"
            n = int(words[-2 if noreply else -1])
            if len(buf) < end + 2 + n + 2:
                return
            data = bytes(buf[end + 2:end + 2 + n])
            del buf[:end + 2 + n + 2]
            ip, port = conn.getsockname()[:2]
            with self.lock:
                self.log.append((str(ipaddress.ip_address(ip)), port, data.decode("ascii")))
            if not noreply:
                conn.sendall(b"STORED\r\n")

    def _error(self, conn, what):
        with self.lock:
            self.errors.append("%s: %s" % (conn.getsockname()[:2], what))
