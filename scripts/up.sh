#!/usr/bin/env bash
# Runs the whole SafeWalk stack on this machine: a local Mosquitto (mosquitto/local.conf: the
# production ACL and accounts, on loopback only), the five services, broker-admin and the web
# service on http://127.0.0.1:8080, each log line prefixed with its name. Ctrl-C stops everything.
# No API key needed: without GEMINI_API_KEY the companion answers with its canned replies.
# Service passwords are generated once into $SAFEWALK_DATA_DIR/mosquitto/credentials (mode 600).
#   SAFEWALK_MQTT_PORT (default 1883)  SAFEWALK_HTTP_PORT (default 8080)
#   SAFEWALK_DATA_DIR (default ./data)  CONFIGURATION (debug|release)
#   SAFEWALK_DYNSEC_PLUGIN (default: mosquitto_dynamic_security.so found in /usr/lib/*/ or /usr/lib/)
set -euo pipefail
cd "$(dirname "$0")/.."

export SAFEWALK_MQTT_PORT=${SAFEWALK_MQTT_PORT:-1883}
export SAFEWALK_DATA_DIR=${SAFEWALK_DATA_DIR:-$PWD/data}
export SAFEWALK_HTTP_PORT=${SAFEWALK_HTTP_PORT:-8080}
# Links to contacts' live pages in texts name this web (the notifier and web both read it).
export SAFEWALK_PUBLIC_URL=${SAFEWALK_PUBLIC_URL:-http://127.0.0.1:$SAFEWALK_HTTP_PORT}
configuration=${CONFIGURATION:-debug}
services=(location-ingest watchdog companion-chat notifier contacts-store broker-admin web)
# Broker logins kept in the password file (broker-admin's is the plugin's own admin login).
password_users=(location-ingest watchdog companion-chat notifier contacts-store web operator)
# The dynamic-security plugin: Debian installs it under its multiarch directory (/usr/lib/<triplet>/,
# which differs per architecture), so look for it there; SAFEWALK_DYNSEC_PLUGIN overrides.
found_plugin() {
    local candidate
    for candidate in /usr/lib/*/mosquitto_dynamic_security.so /usr/lib/mosquitto_dynamic_security.so; do
        [ -f "$candidate" ] && { echo "$candidate"; return; }
    done
    return 0   # none: the check below says where it looked
}
plugin=${SAFEWALK_DYNSEC_PLUGIN:-$(found_plugin)}

mosquitto=$(command -v mosquitto || echo /usr/sbin/mosquitto)
[ -x "$mosquitto" ] || { echo "mosquitto is not installed: apt-get install mosquitto" >&2; exit 1; }
for tool in mosquitto_passwd mosquitto_ctrl; do
    command -v "$tool" > /dev/null || { echo "$tool is missing: apt-get install mosquitto mosquitto-clients" >&2; exit 1; }
done
[ -f "$plugin" ] || { echo "the dynamic-security plugin is missing (${plugin:-no mosquitto_dynamic_security.so in /usr/lib/*/ or /usr/lib/}): apt-get install mosquitto, or set SAFEWALK_DYNSEC_PLUGIN" >&2; exit 1; }

swift build -c "$configuration"
bin=$(swift build -c "$configuration" --show-bin-path)

broker_data="$SAFEWALK_DATA_DIR/mosquitto"
mkdir -p "$broker_data"
chmod 700 "$broker_data"
# One random password per login, made on the first run and kept: `NAME PASSWORD` lines.
credentials="$broker_data/credentials"
if [ ! -s "$credentials" ]; then
    umask 077
    for user in "${password_users[@]}" broker-admin; do
        echo "$user $(head -c 18 /dev/urandom | base64 | tr -d '/+=')"
    done > "$credentials.new"
    rm -f "$broker_data/passwd" "$broker_data/dynamic-security.json"
    while read -r user password; do
        [ "$user" = broker-admin ] && continue
        [ -f "$broker_data/passwd" ] || touch "$broker_data/passwd"
        mosquitto_passwd -b "$broker_data/passwd" "$user" "$password"
    done < "$credentials.new"
    mosquitto_ctrl dynsec init "$broker_data/dynamic-security.json" broker-admin \
        "$(awk '$1 == "broker-admin" { print $2 }' "$credentials.new")" > /dev/null
    mv "$credentials.new" "$credentials"
    umask 022
fi
password_of() { awk -v user="$1" '$1 == user { print $2 }' "$credentials"; }

conf="$broker_data/local.conf"
sed -e "s|@PORT@|$SAFEWALK_MQTT_PORT|" -e "s|@DATA@|$broker_data|" -e "s|@ACL@|$PWD/mosquitto/acl|" \
    -e "s|@PLUGIN@|$plugin|" mosquitto/local.conf > "$conf"
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
    SAFEWALK_MQTT_USERNAME=$service SAFEWALK_MQTT_PASSWORD=$(password_of "$service") \
        SAFEWALK_PUBLIC_MQTT_HOST=127.0.0.1 SAFEWALK_PUBLIC_MQTT_PORT=$SAFEWALK_MQTT_PORT SAFEWALK_PUBLIC_MQTT_TLS=false \
        "$bin/$service" > >(sed -u "s/^/[$service] /") 2>&1 &
    service_pids+=($!)
done
echo "[up] broker on 127.0.0.1:$SAFEWALK_MQTT_PORT, web on http://127.0.0.1:$SAFEWALK_HTTP_PORT, data in $SAFEWALK_DATA_DIR; Ctrl-C stops everything"
echo "[up] use it:    open http://127.0.0.1:$SAFEWALK_HTTP_PORT/ in a browser: sign up, then walk with the app (README: \"Use SafeWalk from a phone's browser\")"
echo "[up] sign up:   swift run safewalk user add alice --email alice@example.org   (or POST /v1/accounts)"
echo "[up] the desk:  swift run safewalk user add olga --operator --email olga@example.org --data-dir \"$SAFEWALK_DATA_DIR\", then open http://127.0.0.1:$SAFEWALK_HTTP_PORT/ops (README: \"Run a monitoring desk\")"
echo "[up] watch it:  mosquitto_sub -p $SAFEWALK_MQTT_PORT -u operator -P $(password_of operator) -t 'safewalk/#' -v"
# Returns when any of them exits; a service that dies takes the stack down loudly.
wait -n "${service_pids[@]}" "$broker_pid" || true
echo "[up] a process exited; stopping the stack" >&2
