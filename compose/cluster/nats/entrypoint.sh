#!/bin/bash
# One NATS node of the cluster: writes its configuration (its name, routes to the three nodes,
# JetStream in /data, the MQTT listener) around the logins broker-admin keeps in
# /logins/users.conf and the partition mappings the `cluster-config` job wrote to /config, checks
# the passwords those logins name, then runs nats-server in the foreground (exec: PID 1, so
# SIGTERM and SIGHUP reach it). Beside it runs reload-on-change.sh: when broker-admin rewrites the
# users file (a sign-up, a new password, an erasure) it reloads the node and acknowledges in
# /logins/loaded/$NATS_NODE.loaded, which broker-admin waits for before web answers.
#   NATS_NODE                      this node's name: nats1, nats2 or nats3 (its compose service)
#   <SERVICE>_MQTT_PASSWORD        every login users.conf names (LOCATION_INGEST_, WATCHDOG_, ...)
# MQTT is TLS only, on 8883, with /certs/server.crt and server.key (SAFEWALK_TLS_DIR): phones and
# the services alike.
# Refuses to start (exit 2, naming what is wrong) without /logins/users.conf,
# /config/mappings.conf or the TLS files, or with a password of a service this cluster runs that
# is empty, short or a placeholder.
set -euo pipefail
fail() { echo "[nats] refusing to start: $*" >&2; exit 2; }
[ -n "${NATS_NODE:-}" ] || fail "NATS_NODE is empty"
for file in /logins/users.conf /config/mappings.conf; do
    [ -s "$file" ] || fail "$file is missing (the cluster-config job writes it)"
done
for file in ca.crt server.crt server.key; do
    [ -r "/certs/$file" ] || fail "TLS: /certs/$file is missing or unreadable (SAFEWALK_TLS_DIR; compose/README.md, \"On a cluster\")"
done

# The same rule as the single box's broker (compose/broker-entrypoint.sh).
check_password() {  # variable password
    local lower
    [ -n "$2" ] || fail "$1 is empty; set it in compose/cluster/.env (e.g. \`head -c 18 /dev/urandom | base64\`)"
    lower=$(printf '%s' "$2" | tr 'A-Z' 'a-z')
    case "$lower" in
        *change*me* | *changeme* | password* | secret* | example* | placeholder* | xxx* | todo* | test* | admin* | 123456* | qwerty* | letmein*)
            fail "$1 is a placeholder; set a long random password" ;;
    esac
    [ ${#2} -ge 12 ] || fail "$1 is shorter than 12 characters"
}
# Every login users.conf names must have a password in the environment, or nats-server cannot
# read its configuration. The services this compose file runs (and the operator, whose login the
# healthchecks use) need one set; a login of a service it does not run (an out-of-process
# channel) gets a random one nobody knows, so it exists and cannot be used.
required=" BROKER_ADMIN_MQTT_PASSWORD WEB_MQTT_PASSWORD LOCATION_INGEST_MQTT_PASSWORD WATCHDOG_MQTT_PASSWORD COMPANION_CHAT_MQTT_PASSWORD NOTIFIER_MQTT_PASSWORD CONTACTS_STORE_MQTT_PASSWORD OPERATOR_MQTT_PASSWORD "
for variable in $(grep -o '\$[A-Z_]*_MQTT_PASSWORD' /logins/users.conf | tr -d '$' | sort -u); do
    if [[ $required == *" $variable "* ]]; then
        check_password "$variable" "${!variable:-}"
    elif [ -z "${!variable:-}" ]; then
        export "$variable=$(head -c 24 /dev/urandom | base64 | tr -d '/+=')"
    fi
done

mkdir -p /data/jetstream
cat > /data/nats.conf <<CONF
server_name: $NATS_NODE
listen: 0.0.0.0:4222
jetstream { store_dir: "/data/jetstream" }
cluster {
  name: safewalk
  listen: 0.0.0.0:6222
  routes: [nats-route://nats1:6222, nats-route://nats2:6222, nats-route://nats3:6222]
}
mqtt {
  listen: 0.0.0.0:8883
  tls {
    cert_file: "/certs/server.crt"
    key_file: "/certs/server.key"
  }
  # Unacknowledged QoS 1 messages of a dead connection go out again after 5 s, not 30
  # (docs/SCALING.md, "Faults on the cluster").
  ack_wait: "5s"
}
# nats-server includes relative to this file's directory (/data) only.
include "../logins/users.conf"
include "../config/mappings.conf"
CONF
echo "[nats] $NATS_NODE: $(nats-server --version), $(grep -c 'user:' /logins/users.conf) logins, routes to nats1-3"
# $$ is this script's pid, which exec hands to nats-server.
/usr/local/bin/reload-on-change.sh /logins/users.conf $$ "/logins/loaded/$NATS_NODE.loaded" &
exec nats-server -c /data/nats.conf
