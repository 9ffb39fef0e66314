#!/usr/bin/env bash
# `ketama migrate --backend redis` with real Redis clients on real redis-server processes
# (127.0.0.1 only):
#  A. Predis (Debian php-nrk-predis, its default HashRing = profile `predis`) writes N keys of
#     every type (string, hash, list, set, sorted set, stream), two thirds with a TTL, to 4
#     weighted servers; the fleet grows to 5; after `migrate run --profile predis`, Predis on
#     the 5 servers reads every key back with its type, value and TTL (within a second), and
#     `migrate verify` exits 0.
#  B. A switch of client family: phpredis's RedisArray (Debian php8.2-redis, profile
#     `phpredis-array`) writes the same keys to 4 servers; after `migrate run --to-profile
#     predis`, Predis on the same servers finds every key.
#  C. A go-redis v7 -> v9 upgrade: v7's Ring (profile `go-redis-v7`) writes N keys; after
#     `migrate run --to-profile go-redis`, v9's Ring finds every key (Go modules pinned in
#     tests/e2e/goredis_upgrade/go.mod, through the Go module proxy).
# Before each migration the new client is shown to miss keys (the control). Installs what is
# missing (Debian packages), builds the CLI and the Go program. Ports are picked at run time;
# every server it starts is stopped by its PID on exit; each step prints its time.
#   tests/e2e/redis_migrate.sh        (env KETAMA_REDIS_MIGRATE_KEYS: keys, default 5000)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
cd "$root"
t0=$SECONDS
step() { printf '\n== %s (at %ds)\n' "$*" "$((SECONDS - t0))"; }

source "$root/tests/lib/need.sh"
need_packages redis-server redis-tools php8.2-cli php-nrk-predis php8.2-redis
[[ -x /usr/local/go/bin/go ]] || need_packages --cmd go golang-go
n=${KETAMA_REDIS_MIGRATE_KEYS:-5000}

work=$(mktemp -d)
pids=()
cleanup() {
    for p in "${pids[@]}"; do
        kill "$p" 2>/dev/null || true
        wait "$p" 2>/dev/null || true
    done
    rm -rf "$work"
}
trap cleanup EXIT
fail() { echo "e2e redis migrate: FAILED: $*" >&2; exit 1; }

step "build: the CLI and the go-redis v7/v9 program"
cargo build -q -p ketama-cli
target=$(cargo metadata --format-version 1 --no-deps | python3 -c 'import json,sys; print(json.load(sys.stdin)["target_directory"])')
ketama="$target/debug/ketama"
go_bin=$(command -v go || echo /usr/local/go/bin/go)
(cd "$here/goredis_upgrade" && GOFLAGS="-mod=mod -buildvcs=false" CGO_ENABLED=0 "$go_bin" build -o "$work/goredis_upgrade" .)

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
wait_port() {
    for _ in $(seq 200); do
        (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null && return 0
        sleep 0.05
    done
    fail "no server on port $1"
}

step "start 5 redis-server on 127.0.0.1"
ports=()
for _ in 1 2 3 4 5; do
    port=$(free_port)
    redis-server --bind 127.0.0.1 --port "$port" --save '' --appendonly no --daemonize no \
        --loglevel warning --dir "$work" >>"$work/redis.log" 2>&1 &
    pids+=($!)
    wait_port "$port"
    ports+=("$port")
done
weights=(1 2 1 1 1)
: >"$work/old4"
: >"$work/new5"
: >"$work/plain4"
for i in 0 1 2 3 4; do
    ((i < 4)) && echo "127.0.0.1:${ports[$i]} ${weights[$i]}" >>"$work/old4"
    ((i < 4)) && echo "127.0.0.1:${ports[$i]} 1" >>"$work/plain4"
    echo "127.0.0.1:${ports[$i]} ${weights[$i]}" >>"$work/new5"
done
flush() { for p in "${ports[@]}"; do redis-cli -p "$p" flushall >/dev/null; done; }
types() { timeout 120 php "$here/redis_types.php" "$@"; }
field() { python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d["counts"][sys.argv[2]])' "$@"; }
secs() { python3 -c 'import json,sys; print("%.2f s" % json.load(open(sys.argv[1]))["seconds"])' "$1"; }
# found OUTPUT: the hits of a reader's "hits=H total=N" line.
found() { sed -n 's/^hits=\([0-9]*\) total=.*/\1/p' <<<"$1" | head -n1; }
# control NAME OUTPUT: before a migration the new client must miss keys (else the
# migration would prove nothing).
control() {
    local hits
    hits=$(found "$2")
    [[ -n $hits ]] || { head -n 5 <<<"$2" | sed 's/^/    /'; fail "$1: no hits line"; }
    echo "$1 before the migration: $hits of $n keys found"
    ((hits < n)) || fail "$1 finds every key before the migration: the placements do not differ"
}
# all_found NAME OUTPUT: the reader must have found every key.
all_found() {
    if [[ $(head -n1 <<<"$2") == "hits=$n total=$n" ]]; then
        echo "$1: every key found ($n)"
    else
        head -n 21 <<<"$2" | sed 's/^/    /'
        fail "$1"
    fi
}
migrate() { timeout 120 "$ketama" migrate "$@"; }

base=$(python3 -c 'import time; print(int(time.time() * 1000))')
step "A. Predis writes $n keys of every type with TTLs to 4 servers (weights ${weights[*]:0:4})"
types write predis "$work/old4" "$n" "$base"
before=$(types read predis "$work/new5" "$n" "$base" || true)
control "Predis on 5 servers" "$before"
step "A. migrate plan and run 4 -> 5, --profile predis"
place=(--backend redis --servers "$work/old4" --to "$work/new5" --profile predis)
migrate plan "${place[@]}" | head -n 12
migrate run "${place[@]}" --format json >"$work/runA.json"
[[ $(field "$work/runA.json" failed) == 0 ]] || fail "run: $(cat "$work/runA.json")"
echo "run: copied $(field "$work/runA.json" copied) of $(field "$work/runA.json" listed) keys, $(secs "$work/runA.json")"
step "A. Predis on 5 servers reads every key: type, value, TTL within a second"
all_found "Predis, 5 servers" "$(types read predis "$work/new5" "$n" "$base" || true)"
migrate verify "${place[@]}" >"$work/verifyA.txt" || { cat "$work/verifyA.txt"; fail "verify"; }
tail -n1 "$work/verifyA.txt"

step "B. phpredis RedisArray writes $n keys to 4 servers; the clients switch to Predis"
flush
types write redisarray "$work/plain4" "$n" "$base"
all_found "RedisArray (its own keys)" "$(types read redisarray "$work/plain4" "$n" "$base" || true)"
before=$(types read predis "$work/plain4" "$n" "$base" || true)
control "Predis" "$before"
switch=(--backend redis --servers "$work/plain4" --to "$work/plain4" --profile phpredis-array --to-profile predis)
migrate run "${switch[@]}" --format json >"$work/runB.json"
[[ $(field "$work/runB.json" failed) == 0 ]] || fail "switch run: $(cat "$work/runB.json")"
echo "switch run: copied $(field "$work/runB.json" copied) of $(field "$work/runB.json" listed), $(secs "$work/runB.json")"
all_found "Predis after the switch" "$(types read predis "$work/plain4" "$n" "$base" || true)"
migrate verify "${switch[@]}" | tail -n1

step "C. go-redis v7 Ring writes $n keys to 4 servers; upgrade to v9"
flush
timeout 120 "$work/goredis_upgrade" write-v7 "$work/plain4" "$n"
before=$(timeout 120 "$work/goredis_upgrade" read-v9 "$work/plain4" "$n" || true)
control "go-redis v9" "$before"
upgrade=(--backend redis --servers "$work/plain4" --to "$work/plain4" --profile go-redis-v7 --to-profile go-redis)
migrate run "${upgrade[@]}" --format json >"$work/runC.json"
[[ $(field "$work/runC.json" failed) == 0 ]] || fail "upgrade run: $(cat "$work/runC.json")"
echo "upgrade run: copied $(field "$work/runC.json" copied) of $(field "$work/runC.json" listed), $(secs "$work/runC.json")"
all_found "go-redis v9 after the upgrade" "$(timeout 120 "$work/goredis_upgrade" read-v9 "$work/plain4" "$n" || true)"
migrate verify "${upgrade[@]}" | tail -n1

step "done"
echo "e2e redis migrate: OK"
