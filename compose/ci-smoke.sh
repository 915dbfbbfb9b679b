#!/usr/bin/env bash
# CI entry for the compose smoke test: runs compose/smoke.sh when a Docker engine is running or
# can be started here (root + dockerd), and base images can be had (a registry, or the local ones
# compose/local-images.sh makes). Otherwise it says exactly why it did not run and exits 0.
# A smoke test that runs and fails exits non-zero.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
docker=${DOCKER:-docker}
skip() { echo "compose smoke test SKIPPED: $*"; exit 0; }

command -v "$docker" > /dev/null || skip "no docker client (apt-get install docker.io docker-compose)"
"$docker" compose version > /dev/null 2>&1 || command -v docker-compose > /dev/null \
    || skip "neither 'docker compose' nor docker-compose is installed"

started=
if ! "$docker" info > /dev/null 2>&1; then
    [ "$(id -u)" = 0 ] && command -v dockerd > /dev/null \
        || skip "no Docker engine is running and none can be started here (needs root and dockerd)"
    dockerd > /tmp/safewalk-ci-dockerd.log 2>&1 &
    started=$!
    for _ in $(seq 60); do "$docker" info > /dev/null 2>&1 && break; sleep 0.5; done
    if ! "$docker" info > /dev/null 2>&1; then
        kill -TERM "$started" 2> /dev/null; wait "$started" 2> /dev/null
        skip "dockerd did not start: $(tail -2 /tmp/safewalk-ci-dockerd.log | tr '\n' ' ')"
    fi
    echo "[ci-smoke] started dockerd (pid $started)"
fi
stop_engine() { [ -n "$started" ] && { kill -TERM "$started" 2> /dev/null; wait "$started" 2> /dev/null; } || true; }
trap stop_engine EXIT

if [ -z "${SAFEWALK_SWIFT_IMAGE:-}" ] && ! "$docker" image inspect safewalk/swift-builder > /dev/null 2>&1; then
    if ! "$docker" image inspect swift:6.1-bookworm > /dev/null 2>&1 \
        && ! timeout 60 "$docker" pull -q swift:6.1-bookworm > /dev/null 2>&1; then
        command -v debootstrap > /dev/null && command -v swift > /dev/null \
            || skip "no image registry reachable, and no debootstrap + Swift toolchain to make local base images"
        DOCKER=$docker "$here/local-images.sh" || skip "could not make local base images (compose/local-images.sh failed)"
    fi
fi

"$here/smoke.sh" "$@"
