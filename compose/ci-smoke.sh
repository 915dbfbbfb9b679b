#!/usr/bin/env bash
# CI entry for the compose smoke test (.ci/run runs it; so can anyone): makes sure a Docker engine
# runs (starts dockerd when none does; needs root), that the base images exist (a registry, or
# the local ones compose/local-images.sh makes from Debian's mirror and the host's Swift
# toolchain), then runs compose/smoke.sh and compose/cluster/smoke.sh. There is no skip: anything
# missing fails with a message saying what, and a smoke test that fails fails this. Installing Docker is .ci/run's job.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
docker=${DOCKER:-docker}
fail() { echo "compose smoke test FAILED to run: $*" >&2; exit 1; }

command -v "$docker" > /dev/null || fail "no docker client (apt-get install docker.io docker-compose)"
"$docker" compose version > /dev/null 2>&1 || command -v docker-compose > /dev/null \
    || fail "neither 'docker compose' nor docker-compose is installed (apt-get install docker-compose)"

started=
if ! "$docker" info > /dev/null 2>&1; then
    [ "$(id -u)" = 0 ] || fail "no Docker engine is running, and starting dockerd needs root"
    command -v dockerd > /dev/null || fail "no Docker engine is running and there is no dockerd (apt-get install docker.io)"
    log=$(mktemp /tmp/safewalk-ci-dockerd.XXXXXX.log)
    dockerd > "$log" 2>&1 &
    started=$!
    for _ in $(seq 120); do "$docker" info > /dev/null 2>&1 && break; sleep 0.5; done
    if ! "$docker" info > /dev/null 2>&1; then
        kill -TERM "$started" 2> /dev/null; wait "$started" 2> /dev/null
        fail "dockerd did not start: $(tail -5 "$log" | tr '\n' ' ')"
    fi
    echo "[ci-smoke] started dockerd (pid $started, log $log)"
fi
stop_engine() {
    if [ -n "$started" ]; then
        kill -TERM "$started" 2> /dev/null
        wait "$started" 2> /dev/null
    fi
    return 0
}
trap stop_engine EXIT

if [ -z "${SAFEWALK_SWIFT_IMAGE:-}" ] && ! "$docker" image inspect safewalk/swift-builder > /dev/null 2>&1; then
    if ! "$docker" image inspect swift:6.1-bookworm > /dev/null 2>&1 \
        && ! timeout 60 "$docker" pull -q swift:6.1-bookworm > /dev/null 2>&1; then
        echo "[ci-smoke] no image registry reachable: making local base images (compose/local-images.sh)"
        command -v debootstrap > /dev/null || fail "no image registry reachable and no debootstrap (apt-get install debootstrap)"
        command -v swift > /dev/null || [ -n "${SWIFT_TOOLCHAIN:-}" ] \
            || fail "no image registry reachable and no Swift toolchain on this host to make the builder image"
        DOCKER=$docker "$here/local-images.sh" || fail "could not make local base images (compose/local-images.sh failed)"
    fi
fi

"$here/smoke.sh" "$@" || exit 1
# The same stack on three NATS nodes (compose/README.md, "On a cluster"); .ci/run installed the
# pinned nats-server, which the NATS image is built with.
"$here/cluster/smoke.sh"
