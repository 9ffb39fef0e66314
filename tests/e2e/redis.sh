#!/usr/bin/env bash
# The Redis-client fleet, live on 127.0.0.1:
#  A. Predis (PHP, Debian php-nrk-predis) writes keys to 4 weighted redis-server processes with
#     its own default sharding (HashRing: our profile `predis`); redis-rb (Redis::Distributed
#     with Ketama::RedisRing), go-redis v9 (Ring with the go/goredis hook) and Jedis (our
#     ProfileJedisRouter) read every key back with the profile `predis`; redis-rb's own ring,
#     the control, misses most of them.
#  B. Dalli (Ruby, its own ring) writes keys to 3 weighted memcached processes;
#     Ketama::DalliClient reads every key back with the profile `dalli`; the profile
#     `libketama`, the control, misses most of them.
# The keys include hash-tagged ones ({user:N}:name, cart:{user:N}) and UTF-8 ones. Every reader
# runs even when one fails; the script fails when any reader misses a key. Installs what is
# missing (Debian packages; Jedis from Maven Central), builds the C library, the Go reader and
# the Java reader. Every server it starts is stopped by its PID on exit.
#   tests/e2e/redis.sh        (env KETAMA_REDIS_KEYS: keys per fleet, default 3000)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
cd "$root"
t0=$SECONDS
step() { printf '\n== %s (at %ds)\n' "$*" "$((SECONDS - t0))"; }

source "$root/tests/lib/need.sh"
need_packages redis-server memcached php8.2-cli php-nrk-predis ruby ruby-ffi ruby-redis ruby-dalli
need_packages --cmd javac default-jdk-headless
need_packages --cmd mvn maven
[[ -x /usr/local/go/bin/go ]] || need_packages --cmd go golang-go
n=${KETAMA_REDIS_KEYS:-3000}

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

step "build: the C library (for Ruby), the Go reader, the Java reader"
cargo build -q -p ketama-ffi
target=$(cargo metadata --format-version 1 --no-deps | python3 -c 'import json,sys; print(json.load(sys.stdin)["target_directory"])')
export KETAMA_LIB="$target/debug/libketama.so"
go_bin=$(command -v go || echo /usr/local/go/bin/go)
(cd "$here/goredis_reader" && GOFLAGS="-mod=mod -buildvcs=false" CGO_ENABLED=0 "$go_bin" build -o "$work/goredis_reader" .)
# Jedis and its dependencies from Maven Central, at the version the Java build pins.
jedis_version=$(sed -n 's:.*<jedis.version>\(.*\)</jedis.version>.*:\1:p' "$root/java/pom.xml")
cat >"$work/pom.xml" <<POM
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>e2e</groupId><artifactId>jedis-classpath</artifactId><version>1</version>
  <dependencies>
    <dependency><groupId>redis.clients</groupId><artifactId>jedis</artifactId><version>$jedis_version</version></dependency>
    <!-- Jedis logs through SLF4J 1.7: its no-op binding, so stderr holds only the reader's own errors -->
    <dependency><groupId>org.slf4j</groupId><artifactId>slf4j-nop</artifactId><version>1.7.36</version></dependency>
  </dependencies>
  <build><plugins><plugin>
    <groupId>org.apache.maven.plugins</groupId><artifactId>maven-dependency-plugin</artifactId><version>3.8.1</version>
  </plugin></plugins></build>
</project>
POM
mvn -q -B -f "$work/pom.xml" dependency:build-classpath -Dmdep.outputFile="$work/jedis.cp" >/dev/null
jedis_cp=$(cat "$work/jedis.cp")
# the port's and the adapter's sources compiled as they are
javac -nowarn -encoding UTF-8 -cp "$jedis_cp" -d "$work/classes" "$root"/java/core/src/main/java/org/ketama/*.java \
    "$root"/java/jedis/src/main/java/org/ketama/jedis/*.java "$here/JedisReader.java"

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
wait_port() {
    for _ in $(seq 200); do
        (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null && return 0
        sleep 0.05
    done
    echo "e2e redis: no server on port $1" >&2
    exit 1
}
user=()
[[ $(id -u) == 0 ]] && user=(-u root)

step "start 4 redis-server and 3 memcached on 127.0.0.1"
weights=(1 2 1 3)
: >"$work/redis.servers"
for w in "${weights[@]}"; do
    port=$(free_port)
    redis-server --bind 127.0.0.1 --port "$port" --save '' --appendonly no --daemonize no \
        --loglevel warning --dir "$work" >>"$work/redis.log" 2>&1 &
    pids+=($!)
    wait_port "$port"
    echo "127.0.0.1:$port $w" >>"$work/redis.servers"
done
: >"$work/memcached.servers"
for w in 1 2 1; do
    port=$(free_port)
    memcached -l 127.0.0.1 -p "$port" -U 0 -m 64 -t 1 "${user[@]}" &
    pids+=($!)
    wait_port "$port"
    echo "127.0.0.1:$port $w" >>"$work/memcached.servers"
done

python3 - "$n" >"$work/keys" <<'PY'
import sys
n = int(sys.argv[1])
forms = ["{user:%d}:name", "cart:{user:%d}", "caf\u00e9:%d", "\u65e5\u672c:%d", "session:%d", "user:%d"]
for i in range(n):
    print(forms[i % len(forms)] % i)
PY

failed=()
# Each writer and reader gets at most this long (its own requests time out after 5 s or less).
step_limit=120
# expect_all NAME COMMAND...: the reader must find every key.
expect_all() {
    local name=$1 out t=$SECONDS
    shift
    out=$(timeout "$step_limit" "$@" 2>&1) || true
    if [[ $(head -n1 <<<"$out") == "hits=$n total=$n" ]]; then
        echo "$name: every key found ($n), $((SECONDS - t)) s"
    else
        echo "$name: FAILED after $((SECONDS - t)) s:"
        head -n 25 <<<"$out" | sed 's/^/    /'
        failed+=("$name")
    fi
}
# expect_few NAME COMMAND...: a control reader must miss keys (it reads by another ring).
expect_few() {
    local name=$1 out hits
    shift
    out=$(timeout "$step_limit" "$@" 2>&1) || true
    hits=$(sed -n 's/^hits=\([0-9]*\) total=.*/\1/p' <<<"$out" | head -n1)
    if [[ -n $hits && $hits -lt $n ]]; then
        echo "$name (control): $hits of $n keys found, as expected of another ring"
    else
        echo "$name (control): FAILED: ${out%%$'\n'*}"
        failed+=("$name (control)")
    fi
}

step "A. Predis writes $n keys (its own HashRing, weights ${weights[*]})"
timeout "$step_limit" php "$here/predis_writer.php" "$work/redis.servers" "$work/keys"
step "A. readers, profile predis"
ruby_=(ruby -I "$root/ruby/lib")
expect_all "redis-rb + Ketama::RedisRing" "${ruby_[@]}" "$here/redis_reader.rb" predis "$work/redis.servers" "$work/keys"
expect_all "go-redis + goredis hook" "$work/goredis_reader" predis "$work/redis.servers" "$work/keys"
expect_all "Jedis + ProfileJedisRouter" java -cp "$jedis_cp:$work/classes" JedisReader predis "$work/redis.servers" "$work/keys"
expect_few "redis-rb's own ring" "${ruby_[@]}" "$here/redis_reader.rb" own "$work/redis.servers" "$work/keys"

step "B. Dalli writes $n keys to memcached (its own ring, weights 1 2 1)"
timeout "$step_limit" "${ruby_[@]}" "$here/dalli_fleet.rb" write "$work/memcached.servers" "$work/keys"
expect_all "Ketama::DalliClient, profile dalli" "${ruby_[@]}" "$here/dalli_fleet.rb" read dalli "$work/memcached.servers" "$work/keys"
expect_few "Ketama::DalliClient, profile libketama" "${ruby_[@]}" "$here/dalli_fleet.rb" read libketama "$work/memcached.servers" "$work/keys"

step "done"
if ((${#failed[@]})); then
    echo "e2e redis: FAILED: ${failed[*]}"
    exit 1
fi
echo "e2e redis: every reader found every key"
