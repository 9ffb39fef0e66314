#!/usr/bin/env bash
# The Go port's suite: go vet and go test of the core package (unit tests, then every vector
# file through `ketama conformance --all`), of the gomemcache adapter module and of the go-redis
# hook module (its live test starts redis-server processes on 127.0.0.1). Uses the machine's Go
# (1.19 or newer; the go-redis module needs 1.26, as go-redis v9.23 does), else Debian's
# golang-go. The conformance test needs the `ketama` binary: $KETAMA_BIN, else
# target/debug/ketama (built when cargo is there); KETAMA_REQUIRE_CLI=1 (set here) makes its
# absence a failure rather than a skip.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root/go"

go_ok() { "$1" version 2>/dev/null | grep -Eq 'go1\.(19|[2-9][0-9])'; }
GO=""
for g in go /usr/local/go/bin/go /usr/lib/go-1.19/bin/go; do
    if command -v "$g" >/dev/null && go_ok "$g"; then GO=$(command -v "$g"); break; fi
done
if [[ -z $GO ]]; then
    source "$root/tests/lib/need.sh"
    need_packages golang-go
    GO=$(command -v go)
fi
echo "go/test.sh: $($GO version)"
# Dependencies are pinned in go.mod / go.sum and fetched through the module proxy.
export GOFLAGS="${GOFLAGS:-} -mod=mod -buildvcs=false" CGO_ENABLED=0

if [[ -z ${KETAMA_BIN:-} ]]; then
    target="$root/target"
    if command -v cargo >/dev/null; then
        target=$(cd "$root" && cargo metadata --format-version 1 --no-deps |
            python3 -c 'import json,sys; print(json.load(sys.stdin)["target_directory"])')
        [[ -x $target/debug/ketama ]] || (cd "$root" && cargo build -q -p ketama-cli)
    fi
    export KETAMA_BIN="$target/debug/ketama"
fi
export KETAMA_REQUIRE_CLI=1

"$GO" vet ./...
"$GO" test -count=1 ./...
(cd gomemcache && "$GO" vet ./... && "$GO" test -count=1 ./...)
source "$root/tests/lib/need.sh"
need_packages --cmd redis-server redis-server
# KETAMA_REQUIRE_REDIS: the live test fails instead of skipping without redis-server.
(cd goredis && "$GO" vet ./... && KETAMA_REQUIRE_REDIS=1 "$GO" test -count=1 ./...)
echo "go/test.sh: ok"
