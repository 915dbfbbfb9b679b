#!/bin/bash
# Writes the broker's password file from the environment, then runs Mosquitto in the foreground
# (exec: it is PID 1 and gets SIGTERM directly). The file lives only in the container, so
# changing a password in .env and recreating the container is all a rotation takes.
#   <SERVICE>_MQTT_PASSWORD   for each service user of mosquitto/acl (LOCATION_INGEST_, WATCHDOG_, ...)
#   OPERATOR_MQTT_PASSWORD    read-only user for dashboards and the healthchecks
#   SAFEWALK_WALKERS          walker logins, "alice:password bob:password"
set -euo pipefail
file=/mosquitto/config/passwd
rm -f "$file"
users=0
add() {  # name password [--service]; same validation as scripts/add-user.sh, because it is that script
    SAFEWALK_NEW_PASSWORD=$2 /usr/local/bin/add-user.sh "$1" ${3:-} --file "$file" > /dev/null
    users=$((users + 1))
}
for name in location-ingest watchdog companion-chat notifier contacts-store channel-example operator; do
    variable=$(echo "$name" | tr 'a-z-' 'A-Z_')_MQTT_PASSWORD
    password=${!variable:-}
    if [ -n "$password" ]; then add "$name" "$password" --service; else echo "[broker] $variable not set: '$name' cannot log in"; fi
done
for pair in ${SAFEWALK_WALKERS:-}; do
    [[ "$pair" == *:?* ]] || { echo "[broker] SAFEWALK_WALKERS entries are name:password, got '${pair%%:*}:…'" >&2; exit 2; }
    add "${pair%%:*}" "${pair#*:}"
done
[ "$users" -gt 0 ] || { echo "[broker] no users configured: set the passwords in .env (see .env.example)" >&2; exit 2; }
echo "[broker] $users users"
exec mosquitto -c /mosquitto/config/mosquitto.conf
