#!/usr/bin/env bash
# Builds and starts the whole stack with compose, then runs a scripted walk through the published
# broker port: a walker with one contact goes silent, and an alert with `tel:` and `sms:` actions
# must arrive on `{w}/alert`. Shows the logs on failure and always tears everything down
# (containers, network, volumes).
#   compose/smoke.sh                 the full test
#   compose/smoke.sh --until-healthy only build, start and wait until every service reports online
# Environment: DOCKER (client, default docker), COMPOSE (e.g. "docker-compose"; default: `docker
# compose` if present, else docker-compose), SAFEWALK_SWIFT_IMAGE / SAFEWALK_RUNTIME_IMAGE (default:
# the local safewalk/swift-builder + safewalk/bookworm if they exist, else the public images),
# SAFEWALK_BUILD_CONFIGURATION (release), SMOKE_READY_TIMEOUT (180 s), SMOKE_ALERT_TIMEOUT (60 s).
set -euo pipefail
cd "$(dirname "$0")/.."
until_healthy=false
[ "${1:-}" = "--until-healthy" ] && until_healthy=true

docker=${DOCKER:-docker}
if [ -n "${COMPOSE:-}" ]; then
    read -ra compose <<< "$COMPOSE"
elif "$docker" compose version > /dev/null 2>&1; then
    compose=("$docker" compose)
elif command -v docker-compose > /dev/null; then
    compose=(docker-compose)
else
    echo "[smoke] neither 'docker compose' nor docker-compose is installed" >&2; exit 1
fi

if [ -z "${SAFEWALK_SWIFT_IMAGE:-}" ] && "$docker" image inspect safewalk/swift-builder > /dev/null 2>&1; then
    export SAFEWALK_SWIFT_IMAGE=safewalk/swift-builder SAFEWALK_RUNTIME_IMAGE=${SAFEWALK_RUNTIME_IMAGE:-safewalk/bookworm}
fi

# Offline machines resolve Swift packages through a git `insteadOf` mirror: stage the mirrored
# repositories in the build context (compose/.offline, git-ignored) so the builder can use them.
mirror=$(git config --get-regexp '^url\..*\.insteadof$' 2>/dev/null | awk '$2 == "https://github.com/" { print $1; exit }' \
    | sed -E 's/^url\.(.*)\.insteadof$/\1/')
if [ -n "$mirror" ] && [ -d "$mirror" ]; then
    echo "[smoke] staging the Swift package mirror $mirror"
    # All of it: Package.resolved is not committed, and a newly added package brings new ones.
    mkdir -p compose/.offline/swift-packages
    cp -a "$mirror/." compose/.offline/swift-packages/
fi

project=safewalk-smoke
work=$(mktemp -d /tmp/safewalk-smoke.XXXXXX)
port=$((20000 + RANDOM % 20000))
while (echo > "/dev/tcp/127.0.0.1/$port") 2> /dev/null; do port=$((20000 + RANDOM % 20000)); done
pw() { head -c 18 /dev/urandom | base64 | tr -d '/+='; }
walker=smoker
walker_password=$(pw)
cat > "$work/env" <<ENV
LOCATION_INGEST_MQTT_PASSWORD=$(pw)
WATCHDOG_MQTT_PASSWORD=$(pw)
COMPANION_CHAT_MQTT_PASSWORD=$(pw)
NOTIFIER_MQTT_PASSWORD=$(pw)
CONTACTS_STORE_MQTT_PASSWORD=$(pw)
OPERATOR_MQTT_PASSWORD=$(pw)
SAFEWALK_WALKERS=$walker:$walker_password
SAFEWALK_BROKER_PORT=$port
SAFEWALK_BROKER_BIND=127.0.0.1
SAFEWALK_CHECKIN_INTERVAL=2
SAFEWALK_NO_REPLY_AFTER=3
SAFEWALK_NO_MOVEMENT_AFTER=60
SAFEWALK_OFFLINE_GRACE=60
SAFEWALK_CHANNELS=device,log
SAFEWALK_SWIFT_IMAGE=${SAFEWALK_SWIFT_IMAGE:-swift:6.1-bookworm}
SAFEWALK_RUNTIME_IMAGE=${SAFEWALK_RUNTIME_IMAGE:-debian:bookworm-slim}
SAFEWALK_BUILD_CONFIGURATION=${SAFEWALK_BUILD_CONFIGURATION:-release}
SAFEWALK_IMAGE_TAG=smoke
ENV
dc() { "${compose[@]}" -p "$project" --env-file "$work/env" -f compose/docker-compose.yml "$@"; }
# Helper containers (started in the background, so named here where the cleanup can see them).
helpers=("$project-alert" "$project-watch" "$project-contact" "$project-walker")
ok=false
finish() {
    trap - EXIT INT TERM
    for name in "${helpers[@]}"; do "$docker" rm -f "$name" > /dev/null 2>&1 || true; done
    if ! $ok; then
        echo "[smoke] FAILED; logs:" >&2
        dc ps >&2 || true
        dc logs --no-color --tail 80 >&2 || true
        for file in "$work"/*.log; do [ -f "$file" ] && { echo "--- $file" >&2; cat "$file" >&2; }; done
    fi
    dc down -v --remove-orphans > /dev/null 2>&1 || true
    rm -rf "$work"
    $ok && echo "[smoke] passed" || exit 1
}
trap finish EXIT INT TERM

echo "[smoke] building (${compose[*]}; swift image ${SAFEWALK_SWIFT_IMAGE:-swift:6.1-bookworm})"
# One build per image from one snapshot of the sources: the five services share one image, and
# compose would otherwise build it once per service.
dc build broker location-ingest
echo "[smoke] starting; broker on 127.0.0.1:$port"
dc up -d --no-build
services=(broker location-ingest watchdog companion-chat notifier contacts-store)
deadline=$((SECONDS + ${SMOKE_READY_TIMEOUT:-180}))
for service in "${services[@]}"; do
    while true; do
        id=$(dc ps -q "$service")
        health=$([ -n "$id" ] && "$docker" inspect -f '{{.State.Health.Status}}' "$id" 2> /dev/null || echo missing)
        [ "$health" = healthy ] && { echo "[smoke] $service healthy"; break; }
        [ $SECONDS -lt $deadline ] || { echo "[smoke] $service is $health after ${SMOKE_READY_TIMEOUT:-180} s" >&2; exit 1; }
        sleep 2
    done
done
if $until_healthy; then ok=true; exit 0; fi

# The walk, through the published port, with the CLI and mosquitto_sub from the services image.
tool() { local name=$1; shift; "$docker" run --rm --name "$name" --network host "safewalk/services:smoke" "$@"; }
tool "$project-alert" mosquitto_sub -h 127.0.0.1 -p "$port" -u "$walker" -P "$walker_password" \
    -t "safewalk/$walker/alert" -C 1 -W "${SMOKE_ALERT_TIMEOUT:-60}" > "$work/alert.log" 2>&1 &
alert_pid=$!
tool "$project-watch" safewalk watch "$walker" --port "$port" --username "$walker" --password "$walker_password" \
    > "$work/watch.log" 2>&1 &
tool "$project-contact" safewalk contact add "$walker" Mom "512 555 0100" --port "$port" --username "$walker" --password "$walker_password" \
    | tee "$work/contact.log"
grep -q '^ok' "$work/contact.log"
tool "$project-walker" safewalk simulate --walker "$walker" --port "$port" --username "$walker" --password "$walker_password" \
    --interval 1 --go-silent-after 1s --duration "${SMOKE_ALERT_TIMEOUT:-60}" > "$work/walker.log" 2>&1 &
wait "$alert_pid" || true
echo "[smoke] alert: $(cat "$work/alert.log")"
grep -q '"tel:' "$work/alert.log" && grep -q '"sms:' "$work/alert.log" || { echo "[smoke] no alert with tel: and sms: actions" >&2; exit 1; }
ok=true
