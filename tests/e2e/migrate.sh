#!/usr/bin/env bash
# `ketama migrate` with real clients on real memcached servers (127.0.0.1 only):
#  A. php-memcached (OPT_LIBKETAMA_COMPATIBLE, weighted) 10 -> 12 servers: typed values (ints,
#     floats, bools, arrays, strings: their types travel in the client flags), TTLs; keys
#     written by clients already on the new placement before the copy are kept; keys
#     overwritten or deleted at the source between two runs are updated or deleted by the
#     second run (--state); every key is then read back by php-memcached on the 12 servers
#     with equal value and type; `verify` passes; `run --delete-moved` frees the old copies.
#  B. php-memcached -> pecl memcache (hash_strategy=consistent) on the same 10 servers: pecl
#     memcache reads every key php-memcached wrote (strings) after `run --to-profile`.
# Installs what is missing (Debian packages), builds the CLI. Every memcached it starts is
# stopped by its PID on exit.
#   tests/e2e/migrate.sh        (env KETAMA_MIGRATE_KEYS: keys per scenario, default 5000)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
cd "$root"

source "$root/tests/lib/need.sh"
need_packages memcached php8.2-cli php8.2-memcached php8.2-memcache

cargo build -q -p ketama-cli
target=$(cargo metadata --format-version 1 --no-deps | python3 -c 'import json,sys; print(json.load(sys.stdin)["target_directory"])')
ketama="$target/debug/ketama"
n=${KETAMA_MIGRATE_KEYS:-5000}

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

user=()
[[ $(id -u) == 0 ]] && user=(-u root)
labels=()
for i in $(seq 0 11); do
    port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    memcached -l 127.0.0.1 -p "$port" -U 0 -m 64 -t 1 "${user[@]}" &
    pids+=($!)
    for _ in $(seq 100); do
        (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break
        sleep 0.05
    done
    labels+=("127.0.0.1:$port")
done
: >"$work/old"
: >"$work/new"
for i in $(seq 0 11); do
    w=$((1 + i % 3))
    ((i < 10)) && echo "${labels[$i]} $w" >>"$work/old"
    echo "${labels[$i]} $w" >>"$work/new"
done

php_() { php "$here/php_migrate.php" "$@"; }
place=(--servers "$work/old" --to "$work/new" --profile libmemcached-weighted)
field() { python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d["counts"][sys.argv[2]])' "$@"; }
secs() { python3 -c 'import json,sys; print("%.2f s" % json.load(open(sys.argv[1]))["seconds"])' "$1"; }
fail() { echo "e2e migrate: FAILED: $*" >&2; exit 1; }

echo "== A. php-memcached 10 -> 12 weighted servers, $n keys"
php_ memcached write "$work/old" 0 "$n"
php_ memcached newer "$work/new" 0 100 # clients already on the new placement
"$ketama" migrate plan "${place[@]}" --rate 100000
"$ketama" migrate run "${place[@]}" --state "$work/state" --format json >"$work/run1.json"
[[ $(field "$work/run1.json" failed) == 0 ]] || fail "first run: $(cat "$work/run1.json")"
echo "first run: copied $(field "$work/run1.json" copied), kept $(field "$work/run1.json" kept) (written by new-placement clients), $(secs "$work/run1.json")"
php_ memcached v2 "$work/old" 100 200
php_ memcached delete "$work/old" 200 300
"$ketama" migrate run "${place[@]}" --state "$work/state" --format json >"$work/run2.json"
echo "second run: updated $(field "$work/run2.json" updated), deleted $(field "$work/run2.json" deleted), unchanged $(field "$work/run2.json" unchanged), $(secs "$work/run2.json")"
# Every key read by php-memcached on the NEW fleet: its moved keys included.
EXPECT=newer php_ memcached read "$work/new" 0 100 | tail -n1
EXPECT=v2 php_ memcached read "$work/new" 100 200 | tail -n1
EXPECT=gone php_ memcached read "$work/new" 200 300 | tail -n1
EXPECT=v0 php_ memcached read "$work/new" 300 "$n" || fail "php-memcached on NEW misses keys"
"$ketama" migrate verify "${place[@]}" >"$work/verify.txt" || { cat "$work/verify.txt"; fail "verify"; }
tail -n1 "$work/verify.txt"
"$ketama" migrate run "${place[@]}" --state "$work/state" --delete-moved --format json >"$work/del.json"
echo "after the switch: deleted $(field "$work/del.json" deleted) old copies"
"$ketama" migrate verify "${place[@]}" --format json | python3 -c 'import json,sys; d=json.load(sys.stdin); assert d["old_copies"] == 0 and d["unreachable"] == 0, d' \
    || fail "old copies left after --delete-moved"
EXPECT=v0 php_ memcached read "$work/new" 300 "$n" | tail -n1

echo "== B. php-memcached -> pecl memcache (consistent), 10 servers, $n keys"
for l in "${labels[@]}"; do
    exec 3<>"/dev/tcp/${l%:*}/${l#*:}"
    printf 'flush_all\r\n' >&3
    read -r _ <&3
    exec 3>&-
done
sleep 1.1 # flush_all takes effect at the next second boundary
php_ memcached write "$work/old" 0 "$n" strings
before=$(EXPECT=v0 php_ memcache read "$work/old" 0 "$n" strings | tail -n1 || true)
echo "pecl memcache before the migration: $before"
switch=(--servers "$work/old" --to "$work/old" --profile libmemcached-weighted --to-profile pecl-memcache)
"$ketama" migrate run "${switch[@]}" --format json >"$work/runB.json"
[[ $(field "$work/runB.json" failed) == 0 ]] || fail "switch run: $(cat "$work/runB.json")"
echo "switch run: copied $(field "$work/runB.json" copied) of $(field "$work/runB.json" listed), $(secs "$work/runB.json")"
EXPECT=v0 php_ memcache read "$work/old" 0 "$n" strings || fail "pecl memcache misses keys after the migration"
"$ketama" migrate verify "${switch[@]}" | tail -n1
echo "e2e migrate: OK"
