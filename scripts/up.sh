#!/usr/bin/env bash
# Runs the whole SafeWalk stack on this machine: a local Mosquitto (mosquitto/local.conf) and the
# five services as processes, each log line prefixed with its service. Ctrl-C stops everything.
# No API key needed: without GEMINI_API_KEY the companion answers with its canned replies.
#   SAFEWALK_MQTT_PORT (default 1883)  SAFEWALK_DATA_DIR (default ./data)  CONFIGURATION (debug|release)
set -euo pipefail
cd "$(dirname "$0")/.."

export SAFEWALK_MQTT_PORT=${SAFEWALK_MQTT_PORT:-1883}
export SAFEWALK_DATA_DIR=${SAFEWALK_DATA_DIR:-$PWD/data}
configuration=${CONFIGURATION:-debug}
services=(location-ingest watchdog companion-chat notifier contacts-store)

mosquitto=$(command -v mosquitto || echo /usr/sbin/mosquitto)
[ -x "$mosquitto" ] || { echo "mosquitto is not installed: apt-get install mosquitto" >&2; exit 1; }

swift build -c "$configuration"
bin=$(swift build -c "$configuration" --show-bin-path)

mkdir -p "$SAFEWALK_DATA_DIR/mosquitto"
conf="$SAFEWALK_DATA_DIR/mosquitto/local.conf"
sed -e "s|@PORT@|$SAFEWALK_MQTT_PORT|" -e "s|@DATA@|$SAFEWALK_DATA_DIR/mosquitto|" mosquitto/local.conf > "$conf"
# Started as root, mosquitto would switch to the `mosquitto` user, who cannot write our data dir.
[ "$(id -u)" = 0 ] && echo "user root" >> "$conf"

service_pids=()
broker_pid=
stop_all() {
    trap - INT TERM EXIT
    [ ${#service_pids[@]} -gt 0 ] && kill -TERM "${service_pids[@]}" 2>/dev/null || true
    for pid in "${service_pids[@]}"; do wait "$pid" 2>/dev/null || true; done
    [ -n "$broker_pid" ] && kill -TERM "$broker_pid" 2>/dev/null && wait "$broker_pid" 2>/dev/null || true
    echo "[up] stopped"
}
trap stop_all INT TERM EXIT

# Process substitution keeps $! the program's own pid, so each gets its SIGTERM directly.
# Its own session: Ctrl-C reaches the services first, the broker is stopped after them.
setsid "$mosquitto" -c "$conf" > >(sed -u "s/^/[mosquitto] /") 2>&1 &
broker_pid=$!
for service in "${services[@]}"; do
    "$bin/$service" > >(sed -u "s/^/[$service] /") 2>&1 &
    service_pids+=($!)
done
echo "[up] broker on 127.0.0.1:$SAFEWALK_MQTT_PORT, data in $SAFEWALK_DATA_DIR; Ctrl-C stops everything"
echo "[up] watch it:  mosquitto_sub -p $SAFEWALK_MQTT_PORT -t 'safewalk/#' -v"
# Returns when any of them exits; a service that dies takes the stack down loudly.
wait -n "${service_pids[@]}" "$broker_pid" || true
echo "[up] a process exited; stopping the stack" >&2
