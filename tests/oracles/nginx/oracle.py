"""nginx oracle: runs the REAL nginx (Debian nginx-light) with `upstream { hash $http_x_key
consistent; server ...; }` and records which upstream server each key's request reached.

Run ONLY by generate.sh, inside `unshare --net --mount`: a private network namespace holding
nothing but its own loopback device. Every upstream address (10.x, 192.168.x, 2001:db8::x, ...) is
added to that loopback, so nginx's connections never leave the namespace, and host names are
mapped to 127.x addresses by a private /etc/hosts bind-mounted in the private mount namespace.
Every upstream address is also an nginx `listen` address whose answer is `$server_addr
$server_port`: that tells which upstream server nginx chose. See README.md.
"""
import ipaddress
import os
import socket
import subprocess
import sys
import tempfile
import time
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
import families as F  # noqa: E402

GEN = "tests/oracles/nginx/oracle.py"
NGINX_VERSION = sys.argv[1]
DEB_VERSION = sys.argv[2]
SOURCE = ("nginx %s (Debian nginx-light %s): upstream { hash $http_x_key consistent; server "
          "host:port weight=w; ... } + proxy_pass; key sent as the X-Key request header; the "
          "upstream that received the request is the answer (private network namespace, "
          "upstream addresses on its loopback, host names in a private /etc/hosts)")

V = F.vectorlib


def chain_points(server_str, weight):
    """Only to PICK inputs for the tie files (expectations still come from nginx)."""
    host, _, port = server_str.rpartition(":")
    base = zlib.crc32(host.encode() + b"\0" + port.encode())
    prev, out = b"\0\0\0\0", []
    for _ in range(160 * weight):
        h = zlib.crc32(prev, base)
        out.append(h)
        prev = h.to_bytes(4, "little")
    return out


def find_tie():
    a = F.server("10.20.0.1", 11211, 20)
    pa = set(chain_points(a["label"], 20))
    for i in range(1, 1000000):
        b = F.server("10.21.%d.%d" % (i // 250, i % 250 + 1), 11211)
        pb = chain_points(b["label"], 1)
        common = pa.intersection(pb)
        if common:
            return a, b, min(common)
    raise RuntimeError("no tie found")


def tie_keys(servers, tied, count=40):
    pts = sorted(set(p for s in servers for p in chain_points(s["label"], s["weight"])))
    i = pts.index(tied)
    lo = pts[i - 1] if i > 0 else -1
    out, j = [], 0
    while len(out) < count:
        k = "tie:%d" % j
        if lo < zlib.crc32(k.encode()) <= tied:
            out.append(k)
        j += 1
    return out


def header_safe(k):
    b = k.encode()
    return (k != "" and k == k.strip(" \t") and all(c >= 0x20 and c != 0x7f for c in b))


def main():
    keys = [k for k in F.keys() if header_safe(k)]
    a, b, tied = find_tie()
    c = F.server("10.20.0.9", 11211, 1)
    sets = {
        "one": ([F.server("10.0.0.1", 11211)], keys + [""]),
        "two": (V.set_two(), keys),
        "three": (V.set_three(), keys),
        "ten-mixed": (V.set_ten_mixed(), keys),
        "hostnames": (F.hostname_set(6), keys),
        "ipv6": (F.ipv6_set(), keys),
        "skewed": (V.set_skewed(), keys),
        "weighted": (F.weighted_set(), keys),
        "two-hundred-fifty": (V.set_equal(250, base="10.7"), keys),
    }
    for name, order in (("tie-ab", [a, b, c]), ("tie-ba", [b, a, c])):
        sets[name] = (order, tie_keys(order, tied) + keys[:200])

    # addresses: IP literals as they are, host names -> 127.77.0.x
    names, hosts_lines = {}, []
    for servers, _ in sets.values():
        for s in servers:
            h = s["host"]
            try:
                ipaddress.ip_address(h)
            except ValueError:
                if h not in names:
                    names[h] = "127.77.0.%d" % (len(names) + 1)
                    hosts_lines.append("%s %s" % (names[h], h))

    def addr(s):
        return str(ipaddress.ip_address(names.get(s["host"], s["host"])))

    work = tempfile.mkdtemp(prefix="nginx-oracle-")
    subprocess.run(["ip", "link", "set", "lo", "up"], check=True)
    uniq = sorted(set((addr(s), s["port"]) for servers, _ in sets.values() for s in servers))
    for ip in sorted(set(u[0] for u in uniq)):
        if ipaddress.ip_address(ip).is_loopback and ipaddress.ip_address(ip).version == 4:
            continue
        if ipaddress.ip_address(ip).version == 6:
            subprocess.run(["ip", "-6", "addr", "add", ip + "/128", "dev", "lo", "nodad"], check=True)
        else:
            subprocess.run(["ip", "addr", "add", ip + "/32", "dev", "lo"], check=True)
    hosts = os.path.join(work, "hosts")
    with open(hosts, "w") as f:
        f.write("\n".join(hosts_lines) + "\n")  # each name -> exactly one address
    subprocess.run(["mount", "--bind", hosts, "/etc/hosts"], check=True)

    conf = ["worker_processes 1;", "user root;", "daemon off;", "error_log stderr error;",
            "pid %s/nginx.pid;" % work, "events { worker_connections 1024; }", "http {",
            "  access_log off;", "  proxy_next_upstream off;", "  client_body_temp_path %s/body;" % work,
            "  proxy_temp_path %s/proxy;" % work]
    jobs = list(sets.items())
    for j, (name, (servers, _)) in enumerate(jobs):
        conf.append("  upstream up%d {" % j)
        conf.append("    hash $http_x_key consistent;")
        for s in servers:
            conf.append("    server %s weight=%d;" % (s["label"], s["weight"]))
        conf.append("  }")
        conf.append("  server { listen 127.0.0.1:%d; location / { proxy_pass http://up%d; } }"
                    % (18000 + j, j))
    conf.append("  server {")
    for ip, port in uniq:
        conf.append("    listen %s:%d;" % ("[%s]" % ip if ":" in ip else ip, port))
    conf.append('    location / { return 200 "$server_addr $server_port"; }')
    conf.append("  }")
    conf.append("}")
    cpath = os.path.join(work, "nginx.conf")
    with open(cpath, "w") as f:
        f.write("\n".join(conf) + "\n")
    proc = subprocess.Popen(["nginx", "-p", work, "-c", cpath])
    try:
        for _ in range(100):
            try:
                socket.create_connection(("127.0.0.1", 18000), timeout=1).close()
                break
            except OSError:
                time.sleep(0.1)
        for j, (name, (servers, ks)) in enumerate(jobs):
            where = {(addr(s), s["port"]): s["label"] for s in servers}
            assert len(where) == len(servers)
            labels = [where[ask(18000 + j, k)] for k in ks]
            F.write("nginx-%s.json" % name, SOURCE % (NGINX_VERSION, DEB_VERSION), GEN, "nginx",
                    servers, ks, labels)
    finally:
        proc.terminate()
        proc.wait()


def ask(port, key):
    s = socket.create_connection(("127.0.0.1", port), timeout=10)
    try:
        s.sendall(b"GET / HTTP/1.0\r\nHost: oracle\r\nX-Key: " + key.encode() + b"\r\n\r\n")
        data = b""
        while True:
            chunk = s.recv(65536)
            if not chunk:
                break
            data += chunk
    finally:
        s.close()
    head, _, body = data.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 200"), (key, head[:100])
    ip, port_s = body.decode().split()
    return (str(ipaddress.ip_address(ip)), int(port_s))


if __name__ == "__main__":
    main()
