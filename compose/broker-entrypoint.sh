#!/bin/bash
# Checks the passwords and the TLS certificates, writes the broker's password file from the
# environment, makes the dynamic-security plugin's file on the first start, then runs Mosquitto in
# the foreground (exec: it is PID 1 and gets SIGTERM directly). The password file lives only in
# the container, so changing a service password in .env and recreating the container is all a
# rotation takes. Refuses to start (exit 2, naming the variable or file) when a required password
# is empty, short or a placeholder, or a certificate is missing.
#   <SERVICE>_MQTT_PASSWORD        for each service user of mosquitto/acl (LOCATION_INGEST_, WATCHDOG_, ...)
#   OPERATOR_MQTT_PASSWORD         read-only user for dashboards and the healthchecks
#   BROKER_ADMIN_MQTT_PASSWORD     the plugin's admin, `broker-admin` (docs/services/broker-admin.md)
#   WEB_MQTT_PASSWORD              `web`, the sign-up service, which asks broker-admin for logins
#   CHANNEL_EXAMPLE_MQTT_PASSWORD  optional (an out-of-process channel); empty = no such user
#   /mosquitto/certs/{ca.crt,server.crt,server.key}   the TLS listener's files (SAFEWALK_TLS_DIR)
# No walker is ever in the password file: walkers sign up at `web`, and broker-admin makes their
# logins in the dynamic-security plugin. The plugin is asked before the password file, so a
# sign-up of a password-file walker's name would shadow that walker and take over its topics.
set -euo pipefail
file=/mosquitto/config/passwd
dynsec=/mosquitto/data/dynamic-security.json
certs=/mosquitto/certs
min_length=12
fail() { echo "[broker] refusing to start: $*" >&2; exit 2; }

# A password people could guess from the docs or a tutorial is no password.
check_password() {  # what password
    local what=$1 password=$2 lower
    [ -n "$password" ] || fail "$what is empty; set it in compose/.env (e.g. \`head -c 18 /dev/urandom | base64\`)"
    lower=$(printf '%s' "$password" | tr 'A-Z' 'a-z')
    case "$lower" in
        *change*me* | *changeme* | password* | secret* | example* | placeholder* | xxx* | todo* | test* | admin* | 123456* | qwerty* | letmein*)
            fail "$what is a placeholder; set a long random password" ;;
    esac
    [ ${#password} -ge $min_length ] || fail "$what is shorter than $min_length characters"
}

for name in location-ingest watchdog companion-chat notifier contacts-store operator broker-admin web channel-example; do
    variable=$(echo "$name" | tr 'a-z-' 'A-Z_')_MQTT_PASSWORD
    password=${!variable:-}
    if [ "$name" = channel-example ] && [ -z "$password" ]; then continue; fi   # an optional user
    check_password "$variable" "$password"
done

for cert in ca.crt server.crt server.key; do
    [ -r "$certs/$cert" ] || fail "TLS: $certs/$cert is missing or not readable by the broker (uid $(id -u)); put ca.crt, server.crt and server.key in SAFEWALK_TLS_DIR (compose/README.md, \"TLS certificates\")"
done

rm -f "$file"
users=0
add() {  # name password: a service user; same validation as scripts/add-user.sh, because it is that script
    SAFEWALK_NEW_PASSWORD=$2 /usr/local/bin/add-user.sh "$1" --service --file "$file" > /dev/null
    users=$((users + 1))
}
for name in location-ingest watchdog companion-chat notifier contacts-store channel-example operator web; do
    variable=$(echo "$name" | tr 'a-z-' 'A-Z_')_MQTT_PASSWORD
    if [ -n "${!variable:-}" ]; then add "$name" "${!variable}"; fi
done

# Walkers' logins live in the plugin's file (the data volume, so they survive a new container):
# made once, with broker-admin as its only admin, and from then on the plugin's own. So
# BROKER_ADMIN_MQTT_PASSWORD counts only on the first start; rotating it later is a
# `setClientPassword` as broker-admin (docs/services/broker-admin.md). The file holds every
# walker's password hash, and the plugin rewrites it with the process umask: owner only.
umask 077
if [ ! -f "$dynsec" ]; then
    mosquitto_ctrl dynsec init "$dynsec" broker-admin "$BROKER_ADMIN_MQTT_PASSWORD" > /dev/null \
        || fail "mosquitto_ctrl dynsec init could not write $dynsec"
    echo "[broker] dynamic-security plugin initialised with its admin, broker-admin"
fi
echo "[broker] $users users in the password file; TLS listener on 8883"
exec mosquitto -c /mosquitto/config/mosquitto.conf
