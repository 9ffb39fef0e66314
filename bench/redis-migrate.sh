#!/usr/bin/env bash
# `ketama migrate run --backend redis` against what a Redis operator would script today, on
# the same fleet (loopback): `SCAN` the OLD server and `MIGRATE host port "" 0 timeout COPY
# KEYS k1 k2 ...` (1,000 keys per MIGRATE, as SCAN pages them; the source server writes the
# RESTOREs itself, pipelined). That anchor copies without looking: it overwrites nothing only
# because it leaves a key alone when the target has it (no REPLACE), keeps no state for a
# later sync, and places nothing (every key goes to one target).
#
# One OLD redis-server holds the keys, one NEW redis-server receives them (OLD file: the
# OLD server, NEW file: the NEW server, so every key moves). Each round runs ours, empties
# NEW (FLUSHALL), runs the anchor, empties NEW; the figures are the medians of the rounds:
# keys per second and MB of values per second over the whole command.
#
#   bash bench/redis-migrate.sh              (release build of the CLI)
# Env: BENCH_SMALL_KEYS (default 200000, 32-byte values), BENCH_BIG_KEYS (default 3000,
# 100 KB values), BENCH_CASES (default "small big"), BENCH_ROUNDS (default 3),
# BENCH_CONCURRENCY (default 4), BENCH_RUN_ARGS (more options of ours, e.g. "--hot-first" or
# "--max-bytes-per-s 50M"), KETAMA_BIN (a ketama binary instead of the release build).
# A benchmark, not a test: nothing here asserts a speed, and CI does not run it.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(dirname "$here")"
cd "$root"
small=${BENCH_SMALL_KEYS:-200000}
big=${BENCH_BIG_KEYS:-3000}
cases=(${BENCH_CASES:-small big})
rounds=${BENCH_ROUNDS:-3}
conc=${BENCH_CONCURRENCY:-4}
read -r -a run_args <<<"${BENCH_RUN_ARGS:-}"

source tests/lib/need.sh
need_packages --cmd redis-server redis-server
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

start() { # start PORT_VAR: a redis-server without persistence
    local port
    port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    redis-server --port "$port" --bind 127.0.0.1 --save '' --appendonly no \
        --protected-mode no --loglevel warning --dir "$work" >/dev/null &
    pids+=($!)
    for _ in $(seq 100); do
        redis-cli -p "$port" ping >/dev/null 2>&1 && break
        sleep 0.05
    done
    printf -v "$1" '%s' "$port"
}

fill() { # fill PORT N SIZE: N keys bench:<i> of SIZE-byte values, through redis-cli --pipe
    python3 - "$2" "$3" <<'EOF' | redis-cli -p "$1" --pipe >/dev/null
import sys
n, size = int(sys.argv[1]), int(sys.argv[2])
out = sys.stdout.buffer
v = b"x" * size
for i in range(n):
    k = b"bench:%d" % i
    out.write(b"*3\r\n$3\r\nSET\r\n$%d\r\n%s\r\n$%d\r\n%s\r\n" % (len(k), k, len(v), v))
EOF
}

anchor() { # anchor OLD NEW: SCAN + MIGRATE ... COPY KEYS, a page of 1,000 keys per MIGRATE
    python3 - "$1" "$2" <<'EOF'
import socket, sys
old, new = int(sys.argv[1]), int(sys.argv[2])
s = socket.create_connection(("127.0.0.1", old))
r = s.makefile("rb")
def call(*args):
    out = b"*%d\r\n" % len(args)
    for a in args:
        a = a if isinstance(a, bytes) else str(a).encode()
        out += b"$%d\r\n%s\r\n" % (len(a), a)
    s.sendall(out)
    return reply()
def reply():
    line = r.readline()
    t, rest = line[:1], line[1:-2]
    if t in (b"+", b":"):
        return rest
    if t == b"-":
        sys.exit("MIGRATE failed: " + rest.decode())
    if t == b"$":
        n = int(rest)
        return None if n < 0 else r.read(n + 2)[:-2]
    return [reply() for _ in range(int(rest))]
cursor = b"0"
while True:
    cursor, keys = call("SCAN", cursor, "COUNT", 1000)
    if keys:
        call("MIGRATE", "127.0.0.1", new, "", 0, 60000, "COPY", "KEYS", *keys)
    if cursor == b"0":
        break
EOF
}

ours() { # ours OLD NEW
    printf '127.0.0.1:%s\n' "$1" >"$work/old"
    printf '127.0.0.1:%s\n' "$2" >"$work/new"
    "$ketama" migrate run --servers "$work/old" --to "$work/new" --profile modula \
        --backend redis --concurrency "$conc" "${run_args[@]}" --format json >"$work/ours.json"
}

seconds() { # seconds COMMAND...: the wall time of COMMAND
    local a b
    a=$(date +%s.%N)
    "$@"
    b=$(date +%s.%N)
    python3 -c "print(f'{$b - $a:.3f}')"
}

median() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

printf '%-7s %9s %7s  %-26s %-26s %s\n' values keys size "ours: s, keys/s, MB/s" "SCAN+MIGRATE COPY: s, ..." "ours / anchor (time)"
for c in "${cases[@]}"; do
    case $c in
        small) n=$small size=32 ;;
        big) n=$big size=102400 ;;
        *) echo "unknown case $c (small, big)" >&2; exit 2 ;;
    esac
    start old
    start new
    fill "$old" "$n" "$size"
    t_ours=() t_anchor=()
    for _ in $(seq "$rounds"); do
        t_ours+=("$(seconds ours "$old" "$new")")
        copied=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["counts"]["copied"])' "$work/ours.json")
        [[ $copied == "$n" ]] || { echo "ours copied $copied of $n" >&2; exit 1; }
        redis-cli -p "$new" flushall >/dev/null
        t_anchor+=("$(seconds anchor "$old" "$new")")
        [[ $(redis-cli -p "$new" dbsize) == "$n" ]] || { echo "anchor copied $(redis-cli -p "$new" dbsize) of $n" >&2; exit 1; }
        redis-cli -p "$new" flushall >/dev/null
    done
    mo=$(median "${t_ours[@]}")
    ma=$(median "${t_anchor[@]}")
    python3 - "$c" "$n" "$size" "$mo" "$ma" "${t_ours[*]}" "${t_anchor[*]}" <<'EOF'
import sys
c, n, size, mo, ma, ro, ra = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4]), float(sys.argv[5]), sys.argv[6], sys.argv[7]
mb = n * size / 1e6
print(f"{c:<7} {n:>9} {size:>7}  {mo:6.2f} {n/mo:9.0f} {mb/mo:7.1f}     {ma:6.2f} {n/ma:9.0f} {mb/ma:7.1f}     {mo/ma:.2f}   (rounds: ours {ro}; anchor {ra})")
EOF
    stop_all
done
