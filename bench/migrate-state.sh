#!/usr/bin/env bash
# `ketama migrate run --state` memory with many copied keys: one OLD server holding N keys
# (32-byte values) and one NEW (every key moves), a first run with --state (every key copied
# and recorded), then a second run with the same state file (a sync: every copy checked,
# nothing to write). For each run: wall seconds, the tool's peak RSS and CPU
# (/usr/bin/time -v), and the state file's size. The servers are memcached (`memcached`) or
# redis-server without persistence (`redis`, `migrate run --backend redis`).
#
#   bash bench/migrate-state.sh                       (release build of the CLI)
#   BENCH_BACKEND=redis bash bench/migrate-state.sh
# Env: BENCH_BACKEND (memcached or redis, default memcached), BENCH_STATE_KEYS (default
# "1000000 10000000"), BENCH_CONCURRENCY (default 4), KETAMA_BIN (a ketama binary to measure
# instead of building the release one).
# A benchmark, not a test: nothing here asserts a figure, and CI does not run it.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(dirname "$here")"
cd "$root"
sizes=(${BENCH_STATE_KEYS:-1000000 10000000})
conc=${BENCH_CONCURRENCY:-4}
backend=${BENCH_BACKEND:-memcached}
case $backend in
    memcached | redis) ;;
    *) echo "unknown BENCH_BACKEND $backend (memcached, redis)" >&2; exit 2 ;;
esac

server=memcached profile=libmemcached-weighted
[[ $backend == redis ]] && server=redis-server profile=predis
source tests/lib/need.sh
need_packages --cmd "$server" "$server"

if [[ -n ${KETAMA_BIN:-} ]]; then
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

start() { # start PORT_VAR: a memcached with 3 GB, or a redis-server without persistence
    local port
    port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    if [[ $backend == redis ]]; then
        redis-server --port "$port" --bind 127.0.0.1 --save '' --appendonly no \
            --protected-mode no --loglevel warning --dir "$work" >/dev/null &
    else
        memcached -l 127.0.0.1 -p "$port" -U 0 -m 3072 -t 2 -c 1024 "${user[@]}" &
    fi
    pids+=($!)
    for _ in $(seq 100); do
        (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break
        sleep 0.05
    done
    printf -v "$1" '%s' "$port"
}

fill() { # fill PORT N: keys bench:0.. with 32-byte values, pipelined
    if [[ $backend == redis ]]; then
        python3 - "$2" <<'EOF' | redis-cli -p "$1" --pipe >/dev/null
import sys
out, v = sys.stdout.buffer, b"v" * 32
for i in range(int(sys.argv[1])):
    k = b"bench:%d" % i
    out.write(b"*3\r\n$3\r\nSET\r\n$%d\r\n%s\r\n$32\r\n%s\r\n" % (len(k), k, v))
EOF
        return
    fi
    python3 - "$1" "$2" <<'EOF'
import socket, sys
s = socket.create_connection(("127.0.0.1", int(sys.argv[1])))
n, v, batch = int(sys.argv[2]), b"v" * 32, []
for i in range(n):
    batch.append(b"set bench:%d 0 0 32 noreply\r\n%s\r\n" % (i, v))
    if len(batch) >= 2000:
        s.sendall(b"".join(batch))
        batch = []
s.sendall(b"".join(batch) + b"mn\r\n")
buf = b""
while not buf.endswith(b"MN\r\n"):
    buf += s.recv(65536)
EOF
}

run() { # run LABEL N: one `migrate run --state`, its figures on one line
    /usr/bin/time -v "$ketama" migrate run --servers "$work/old" --to "$work/new" \
        --profile "$profile" --backend "$backend" --concurrency "$conc" --format json \
        --state "$work/state" >"$work/out.json" 2>"$work/time.txt"
    python3 - "$work/out.json" "$work/time.txt" "$1" "$2" "$work/state" <<'EOF'
import json, os, re, sys
load = open("/proc/loadavg").read().split()[0]
o = json.load(open(sys.argv[1]))
t = open(sys.argv[2]).read()
rss = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", t).group(1))
wall = re.search(r"Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): ([\d:.]+)", t).group(1)
secs = sum(float(x) * 60 ** i for i, x in enumerate(reversed(wall.split(":"))))
cpu = sum(float(re.search(p + r" time \(seconds\): ([\d.]+)", t).group(1)) for p in ("User", "System"))
c = o["counts"]
assert c["failed"] == 0, c
size = os.path.getsize(sys.argv[5]) / 2**20
print(f"{int(sys.argv[4]):>10} {sys.argv[3]:<7} {secs:>8.1f} {c['copied']:>9} {c['unchanged']:>9} {rss / 1024:>9.1f} MiB {cpu:>8.1f} {size:>9.0f} MiB {load:>6}")
EOF
}

echo "$backend: $(uptime)"
printf '%10s %-7s %8s %9s %9s %13s %8s %13s %6s\n' keys run "wall s" copied unchanged "peak RSS" "CPU s" "state file" load
for n in "${sizes[@]}"; do
    start old
    start new
    echo "127.0.0.1:$old" >"$work/old"
    echo "127.0.0.1:$new" >"$work/new"
    fill "$old" "$n"
    rm -f "$work/state"
    run first "$n"
    run second "$n"
    stop_all
done
