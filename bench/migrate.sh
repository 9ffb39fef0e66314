#!/usr/bin/env bash
# `ketama migrate run` speed and memory on loopback: keys copied per second and the tool's
# peak RSS (/usr/bin/time -v), with small values and with 100 KB values.
# BENCH_SOURCES OLD memcacheds (default 1) hold the keys, each key on the server the OLD
# placement names; NEW is one other memcached, so every key moves (one destination, all keys
# copied). Each case runs on fresh servers.
#
#   bash bench/migrate.sh                 (release build of the CLI)
# Env: BENCH_SMALL_KEYS (default 500000, 32-byte values), BENCH_BIG_KEYS (default 3000,
# 100 KB values), BENCH_CONCURRENCY (default "1 4"), BENCH_CASES (default "small big"),
# KETAMA_BIN (a ketama binary to measure instead of building the release one).
#   KETAMA_COMPARE="BIN_A BIN_B" bash bench/migrate.sh
#                                         two builds on one fleet of BENCH_SMALL_KEYS small
#                                         keys: BENCH_ROUNDS (default 5) rounds, each running A
#                                         then B (NEW emptied with flush_all before each run),
#                                         timing the whole command; prints each round and the
#                                         ratio of the medians (B / A: below 1, B is faster).
# A benchmark, not a test: nothing here asserts a speed, and CI does not run it.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(dirname "$here")"
cd "$root"
small=${BENCH_SMALL_KEYS:-500000}
big=${BENCH_BIG_KEYS:-3000}
conc=(${BENCH_CONCURRENCY:-1 4})
cases=(${BENCH_CASES:-small big})
sources=${BENCH_SOURCES:-1}

if [[ -n ${KETAMA_COMPARE:-} ]]; then
    ketama=
elif [[ -n ${KETAMA_BIN:-} ]]; then
    ketama=$KETAMA_BIN
else
    cargo build -q --release -p ketama-cli
    target=$(cargo metadata --format-version 1 --no-deps | python3 -c 'import json,sys; print(json.load(sys.stdin)["target_directory"])')
    ketama="$target/release/ketama"
fi
work=$(mktemp -d)
pids=()
stop_all() {
    for p in "${pids[@]}"; do
        kill "$p" 2>/dev/null || true
        wait "$p" 2>/dev/null || true
    done
    pids=()
}
trap 'stop_all; rm -rf "$work"' EXIT
user=()
[[ $(id -u) == 0 ]] && user=(-u root)

start() { # start PORT_VAR: a memcached with 2 GB and 1 MB items
    local port
    port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    memcached -l 127.0.0.1 -p "$port" -U 0 -m 2048 -t 2 -c 1024 "${user[@]}" &
    pids+=($!)
    for _ in $(seq 100); do
        (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break
        sleep 0.05
    done
    printf -v "$1" '%s' "$port"
}

fleet() { # fleet N VALUE_BYTES: BENCH_SOURCES OLD servers and one NEW; each key stored with
    # pipelined `set ... noreply` on its OLD owner (as `ketama lookup` places it)
    : >"$work/old"
    for _ in $(seq "$sources"); do
        start one
        echo "127.0.0.1:$one" >>"$work/old"
    done
    start new
    echo "127.0.0.1:$new" >"$work/new"
    seq 0 $(($1 - 1)) | sed 's/^/bench:/' >"$work/keys"
    "${ketama:-$bin_a}" lookup -p libmemcached-weighted -s "$work/old" <"$work/keys" >"$work/owners"
    python3 - "$work/keys" "$work/owners" "$2" <<'EOF'
import socket, sys
keys = open(sys.argv[1], "rb").read().split()
owners = open(sys.argv[2]).read().split()
assert len(keys) == len(owners)
v = b"v" * int(sys.argv[3])
conns, batches = {}, {}
for k, o in zip(keys, owners):
    if o not in conns:
        host, port = o.rsplit(":", 1)
        conns[o], batches[o] = socket.create_connection((host, int(port))), []
    batches[o].append(b"set %s 0 0 %d noreply\r\n%s\r\n" % (k, len(v), v))
    if len(batches[o]) >= 1000:
        conns[o].sendall(b"".join(batches[o]))
        batches[o] = []
for o, s in conns.items():
    s.sendall(b"".join(batches[o]) + b"mn\r\n")
    buf = b""
    while not buf.endswith(b"MN\r\n"):
        buf += s.recv(65536)
EOF
}

timed() { # timed BIN CONCURRENCY: the whole run's wall seconds (NEW emptied first)
    python3 - "$new" <<'EOF'
import socket, sys
s = socket.create_connection(("127.0.0.1", int(sys.argv[1])))
s.sendall(b"flush_all\r\n")
assert s.recv(100).startswith(b"OK")
EOF
    python3 - "$@" "$work/old" "$work/new" <<'EOF'
import json, subprocess, sys, time
b, c, old, new = sys.argv[1:]
t = time.monotonic()
out = subprocess.run([b, "migrate", "run", "--servers", old, "--to", new, "--profile",
                      "libmemcached-weighted", "--concurrency", c, "--format", "json"],
                     check=True, capture_output=True).stdout
t = time.monotonic() - t
n = json.loads(out)["counts"]
assert n["failed"] == 0 and n["copied"] == n["moving"], n
print(f"{t:.3f}")
EOF
}

if [[ -n ${KETAMA_COMPARE:-} ]]; then
    read -r bin_a bin_b <<<"$KETAMA_COMPARE"
    c=${conc[-1]}
    fleet "$small" 32
    echo "$small small keys on $sources OLD servers, concurrency $c; A = $bin_a, B = $bin_b; $(uptime)"
    a=() b=()
    for r in $(seq "${BENCH_ROUNDS:-5}"); do
        a+=("$(timed "$bin_a" "$c")")
        b+=("$(timed "$bin_b" "$c")")
        echo "round $r: A ${a[-1]} s, B ${b[-1]} s"
    done
    python3 - "${a[*]}" "${b[*]}" "$small" <<'EOF'
import statistics, sys
a, b = ([float(x) for x in v.split()] for v in sys.argv[1:3])
n = int(sys.argv[3])
ma, mb = statistics.median(a), statistics.median(b)
print(f"median A {ma:.3f} s ({n / ma:,.0f} keys/s), B {mb:.3f} s ({n / mb:,.0f} keys/s), B / A = {mb / ma:.2f}")
EOF
    exit 0
fi

printf '%-12s %8s %12s %10s %10s %12s %10s %14s\n' case keys concurrency seconds "listing s" "keys/s" "peak RSS" "tool CPU s"
for case in "${cases[@]}"; do
    if [[ $case == small ]]; then n=$small; size=32; else n=$big; size=102400; fi
    for c in "${conc[@]}"; do
        fleet "$n" "$size"
        /usr/bin/time -v "$ketama" migrate run --servers "$work/old" --to "$work/new" \
            --profile libmemcached-weighted --concurrency "$c" --format json \
            >"$work/out.json" 2>"$work/time.txt"
        python3 - "$work/out.json" "$work/time.txt" "$case" "$c" <<'EOF'
import json, re, sys
o = json.load(open(sys.argv[1]))
t = open(sys.argv[2]).read()
rss = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", t).group(1))
cpu = sum(float(re.search(p + r" time \(seconds\): ([\d.]+)", t).group(1)) for p in ("User", "System"))
c = o["counts"]
assert c["failed"] == 0 and c["copied"] == c["moving"], c
label = "small (32 B)" if sys.argv[3] == "small" else "100 KB"
print(f"{label:<12} {c['copied']:>8} {sys.argv[4]:>12} {o['seconds']:>10.2f} {o.get('seconds_listing', 0):>10.2f} {c['copied'] / o['seconds']:>12.0f} {rss / 1024:>7.1f} MB {cpu:>14.2f}")
EOF
        stop_all
    done
done
