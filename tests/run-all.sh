#!/usr/bin/env bash
# Every test of the project, as CI runs it: lints, the Rust suites (core, CLI, C ABI), the
# no_std proofs, the C/valgrind/install/PHP suite, the Python suite, the Java, JavaScript and
# Go ports, the Ruby gem, the mixed-language fleet on live memcached (tests/e2e), the
# Redis-client fleet on live redis-server (tests/e2e/redis.sh), packaging and a short fuzz
# run. Installs what is missing (Debian packages, a Python venv, PHP) first, so it works on
# a fresh machine.
#
# Each stage runs under a time limit (minutes, the third argument of `stage`): a stage that
# hangs fails with its name instead of silently eating CI's budget. Each stage prints its wall
# time and the CPU seconds its processes used (the CPU figure does not depend on what else the
# machine runs). KETAMA_STAGE_LIMIT_SCALE multiplies every limit (e.g. 3 on a loaded machine).
# The no_std and fuzz stages share nothing with the others (their own target directories, no
# servers): they run in the background beside the stages after the Rust tests, and their output
# and times come at the end.
#
#   tests/run-all.sh                 every stage, in order
#   tests/run-all.sh --list          the stages' short names and what each runs
#   tests/run-all.sh --only NAME     one stage (NAME as --list prints it; repeatable)
#   tests/run-all.sh --from NAME     that stage and every one after it
# A failing stage prints the command that reruns it alone.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"

start=$SECONDS
scale=${KETAMA_STAGE_LIMIT_SCALE:-1}
summary=()

list=0
only=()
from=""
while (($#)); do
    case $1 in
        --list) list=1 ;;
        --only) only+=("${2:?--only needs a stage name (see --list)}"); shift ;;
        --from) from=${2:?--from needs a stage name (see --list)}; shift ;;
        -h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
        *) echo "unknown argument: $1 (try --list, --only NAME, --from NAME)" >&2; exit 2 ;;
    esac
    shift
done
# Stage names, in order (checked against --only / --from before anything runs).
names=(setup fmt hygiene clippy rust no_std fuzz c python java js go ruby e2e migrate e2e_redis packaging)
for n in "${only[@]}" $from; do
    if [[ " ${names[*]} " != *" $n "* ]]; then
        echo "unknown stage: $n (stages: ${names[*]})" >&2
        exit 2
    fi
done
started=0
[[ -z $from ]] && started=1

# One optimised build serves the whole run: the rust stage's tests and every later stage's
# `cargo build` (the C library, the CLI that the ports and the live tests drive, the Debian
# packages' contents) share target/debug, compiled once at opt-level 2 (the `ci` profile's
# setting) instead of once per profile. Outside this script `cargo test` stays unoptimised.
export CARGO_PROFILE_DEV_OPT_LEVEL=2 CARGO_PROFILE_TEST_OPT_LEVEL=2
# Whole builds from a fresh checkout: incremental compilation only adds its bookkeeping there.
export CARGO_INCREMENTAL=${CARGO_INCREMENTAL:-0}
export KETAMA_PACKAGE_PROFILE=${KETAMA_PACKAGE_PROFILE:-debug}
source "$root/tests/lib/test-build.sh"

# CPU seconds (user + sys) of the finished child processes so far, into $cpu. `times` runs in
# this shell (a $(...) subshell would report its own, empty, children).
times_file=$(mktemp)
bg_dir=$(mktemp -d)
trap 'stop_background; rm -rf "$times_file" "$bg_dir"' EXIT
cpu_used() {
    times >"$times_file"
    cpu=$(awk 'NR == 2 { t = 0; for (i = 1; i <= 2; i++) { split($i, a, "m"); t += a[1] * 60 + a[2] } printf "%.0f", t }' "$times_file")
}

# stage NAME LIMIT_MINUTES COMMAND...: runs COMMAND (in its own process group, so a timeout
# stops everything it started), prints its times, stops the whole run if it fails. Run from a
# terminal, the command stays in the terminal's foreground group (a background group reading
# the terminal would be stopped); a timeout then stops only the command itself.
foreground=()
[[ -t 0 ]] && foreground=(--foreground)
# selected ID: whether --only / --from select stage ID (stages are asked in order).
selected() {
    [[ $1 == "$from" ]] && started=1
    if ((${#only[@]})); then
        [[ " ${only[*]} " == *" $1 "* ]]
    else
        ((started))
    fi
}

# finish ID LIMIT_MINUTES LINE RC COMMAND...: records the stage's times line; stops the run
# if RC says it failed.
finish() {
    local id=$1 limit=$2 line=$3 rc=$4
    shift 4
    summary+=("$line")
    printf '==== %s\n' "$line"
    if ((rc != 0)); then
        if ((rc == 124 || rc == 137)); then
            printf '\nFAILED: stage "%s" did not finish within %d minutes\n' "$id" "$limit"
            rc=1
        else
            printf '\nFAILED: stage "%s", exit %d\n' "$id" "$rc"
        fi
        printf 'rerun it alone:  tests/run-all.sh --only %s\n' "$id"
        printf '  (which runs:   %s)\n' "$*"
        exit "$rc"
    fi
}

stage() {
    local id=$1 name=$2 limit=$(($3 * scale)) rc=0 t0=$SECONDS cpu cpu0
    shift 3
    if ((list)); then
        printf '%-10s %s\n' "$id" "$name"
        return
    fi
    selected "$id" || return 0
    cpu_used
    cpu0=$cpu
    printf '\n==== %s: %s (at %ds, limit %d min)\n' "$id" "$name" "$((SECONDS - start))" "$limit"
    timeout "${foreground[@]}" --kill-after=20 "${limit}m" "$@" || rc=$?
    cpu_used
    finish "$id" "$limit" "$(printf '%5ds wall %5ds CPU  %s' "$((SECONDS - t0))" "$((cpu - cpu0))" "$id")" "$rc" "$@"
}

# background NAME DESCRIPTION LIMIT_MINUTES COMMAND...: starts a stage that shares nothing with
# the stages after it (its own target directory, no servers, no installed files) beside them,
# on the CPU that single-threaded stages leave idle; its output is kept and printed by
# `collect NAME`, which also stops the run if it failed. The command's process group is
# timeout's (stopped whole at the limit, or when the run ends early). The subshell that waits
# for it lingers until collected, so its CPU seconds count in its own line, not in the
# foreground stage that happened to run when it ended.
declare -A bg_sub bg_t0 bg_cmd bg_limit
background() {
    local id=$1 name=$2 limit=$(($3 * scale)) log="$bg_dir/$1"
    shift 3
    if ((list)); then
        printf '%-10s %s (in the background)\n' "$id" "$name"
        return
    fi
    selected "$id" || return 0
    printf '\n==== %s: %s (at %ds, limit %d min, in the background: output when collected)\n' \
        "$id" "$name" "$((SECONDS - start))" "$limit"
    (
        timeout --kill-after=20 "${limit}m" "$@" </dev/null >"$log.out" 2>&1 &
        echo $! >"$log.pid"
        rc=0
        wait $! || rc=$?
        echo "$SECONDS" >"$log.end"
        echo "$rc" >"$log.rc"
        while [[ ! -e $log.release ]]; do sleep 0.2; done
    ) &
    bg_sub[$id]=$!
    bg_t0[$id]=$SECONDS
    bg_cmd[$id]="$*"
    bg_limit[$id]=$limit
}

collect() {
    local id=$1 log="$bg_dir/$1" rc cpu cpu0 wall
    [[ -n ${bg_sub[$id]:-} ]] || return 0
    printf '\n==== %s: collecting the background stage (at %ds)\n' "$id" "$((SECONDS - start))"
    while [[ ! -e $log.rc ]]; do sleep 0.5; done
    wall=$(($(<"$log.end") - bg_t0[$id]))
    cpu_used
    cpu0=$cpu
    touch "$log.release"
    wait "${bg_sub[$id]}" || true
    unset "bg_sub[$id]"
    cpu_used
    cat "$log.out"
    rc=$(<"$log.rc")
    # shellcheck disable=SC2086
    finish "$id" "${bg_limit[$id]}" "$(printf '%5ds wall %5ds CPU  %s (in the background)' "$wall" "$((cpu - cpu0))" "$id")" "$rc" ${bg_cmd[$id]}
}

# A run that stops early stops its background stages too (timeout passes TERM to its group).
stop_background() {
    local id
    for id in "${!bg_sub[@]}"; do
        [[ -e $bg_dir/$id.pid ]] && kill -TERM "$(<"$bg_dir/$id.pid")" 2>/dev/null
        touch "$bg_dir/$id.release"
    done
    wait 2>/dev/null || true
}

stage setup "toolchain and system packages" 15 bash tests/setup.sh

stage fmt "format" 2 cargo fmt --all --check
stage hygiene "the tree itself: comments state rules, files under 600 lines, packages through one helper" 1 bash tests/hygiene.sh
stage clippy "lints (clippy)" 15 cargo clippy --workspace --all-targets --locked -- -D warnings

# KETAMA_REQUIRE_MEMCACHED, KETAMA_REQUIRE_REDIS: the live tests (simulate --live, audit,
# migrate on memcached and on redis-server) fail instead of skipping. What the one build holds:
# tests/lib/test-build.sh (tests/one-build.sh keeps the later builds on its crates).
stage rust "Rust tests: core (vectors from the real clients), CLI, C ABI, live memcached and Redis" 25 \
    env KETAMA_REQUIRE_MEMCACHED=1 KETAMA_REQUIRE_REDIS=1 cargo test "${test_build[@]}" --locked

# Own target directories, no servers: beside the mostly single-threaded stages below.
background no_std "no_std builds" 10 bash tests/no_std/check.sh
background fuzz "Fuzzing: every cargo-fuzz target for a few seconds (fuzz/README.md for longer runs)" 15 \
    bash fuzz/run.sh "${KETAMA_FUZZ_SECONDS:-5}"


stage c "C ABI: header freshness, C tests under valgrind/ASan, install + pkg-config, libketama drop-in, PHP FFI" 25 \
    bash ffi-c/test.sh

stage python "Python package" 20 bash python/test.sh

stage java "Java port: unit tests, every vector file, spymemcached/xmemcached adapters, conformance kit" 10 \
    bash java/test.sh

# KETAMA_REQUIRE_CLI: the conformance-kit run of the JS port fails instead of skipping
stage js "JavaScript package: every vector file, directly and through ketama conformance; memjs hook; tsc" 5 \
    env KETAMA_REQUIRE_CLI=1 bash js/test.sh

stage go "Go port: vet, unit tests, every vector file through ketama conformance, gomemcache adapter" 10 \
    bash go/test.sh

stage ruby "Ruby gem: every vector file, bad input, errors, redis-rb and Dalli adapters on live servers, gem build + install" 5 \
    bash ruby/test.sh

stage e2e "Mixed-language fleet on live memcached: PHP and Java write; Python, C, PHP, Go, Java and Node read; ketama audit" 15 \
    bash tests/e2e/test.sh

stage migrate "Migrations on live servers: php-memcached 10 -> 12 weighted and -> pecl memcache; Predis 4 -> 5 Redis (every type, TTLs), RedisArray -> Predis, go-redis v7 -> v9; every key read back by the real clients" 10 \
    bash -c 'bash tests/e2e/migrate.sh && bash tests/e2e/redis_migrate.sh'

stage e2e_redis "Redis-client fleet live: Predis writes, redis-rb, go-redis and Jedis read with the profile predis; Dalli writes memcached, Ketama::DalliClient reads" 5 \
    bash tests/e2e/redis.sh

stage packaging "Packaging: wheel on every CPython without Rust, sdist, Debian packages + pkg-config/CMake/PHP, composer" 30 \
    bash tests/packaging.sh

collect no_std
collect fuzz

((list)) && exit 0
printf '\n==== stage times\n'
printf '%s\n' "${summary[@]}"
printf '\nall stages run passed in %ds\n' "$((SECONDS - start))"
