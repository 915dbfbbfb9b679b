#!/usr/bin/env bash
# Adds a user to the broker's password file, or changes its password.
#   scripts/add-user.sh NAME --service [--file PASSWORD_FILE]
#   scripts/add-user.sh NAME --walker [--file PASSWORD_FILE]
# --service adds one of the service users named in mosquitto/acl.
# --walker adds a walker login to the password file, for a broker where nobody signs up (no `web`:
# tests, a bare broker). Where people sign up, walkers sign up (`safewalk user add NAME --email E`,
# or POST /v1/accounts): the dynamic-security plugin checks its own logins before the password
# file, so a sign-up of the same name would shadow this login and take over its topics.
# The password comes from SAFEWALK_NEW_PASSWORD, or is generated and printed once.
set -euo pipefail
usage() { echo "usage: $0 NAME (--service | --walker) [--file PASSWORD_FILE]" >&2; exit 2; }

name=${1:-}; [ -n "$name" ] || usage; shift
service=false
walker=false
file=${SAFEWALK_PASSWORD_FILE:-$(cd "$(dirname "$0")/.." && pwd)/mosquitto/passwd}
while [ $# -gt 0 ]; do
    case "$1" in
        --service) service=true ;;
        --walker) walker=true ;;
        --file) file=${2:?--file needs a path}; shift ;;
        *) usage ;;
    esac
    shift
done

if ! $service && ! $walker; then
    echo "say --service for a service user, or --walker for a walker on a broker where nobody signs up;" >&2
    echo "where people sign up, walkers sign up: safewalk user add NAME --email E (docs/services/web.md)" >&2
    exit 2
fi
$service && $walker && usage

services=" location-ingest watchdog companion-chat notifier contacts-store channel-example operator web broker-admin "
if $service; then
    [[ "$services" == *" $name "* ]] || { echo "'$name' is not a service user in mosquitto/acl:$services" >&2; exit 2; }
    # The plugin checks its own clients first, so a password-file entry for its admin is never used.
    [[ "$name" != "broker-admin" ]] || { echo "'broker-admin' logs in through the dynamic-security plugin: its password is set by \`mosquitto_ctrl dynsec init\` (compose/broker-entrypoint.sh), not here" >&2; exit 2; }
else
    # Walker ids become topic levels and ACL %u substitutions: no wildcards, slashes or spaces.
    [[ "$name" =~ ^[A-Za-z0-9_-]{1,64}$ ]] || { echo "'$name' is not a walker id ([A-Za-z0-9_-]{1,64})" >&2; exit 2; }
    # The same names broker-admin refuses (docs/services/broker-admin.md): topic levels the system
    # keeps (`_service`, `_rejected`, `_accounts`, anything starting with `_`), service users, and
    # names a person could take for the system.
    [[ "$name" != _* ]] || { echo "'$name' is reserved (names starting with _ are the system's)" >&2; exit 2; }
    lower=$(printf '%s' "$name" | tr 'A-Z' 'a-z')
    [[ "$services" != *" $lower "* ]] || { echo "'$name' is a service user; use --service" >&2; exit 2; }
    [[ "$lower" != "admin" && "$lower" != "root" ]] || { echo "'$name' is reserved" >&2; exit 2; }
fi

password=${SAFEWALK_NEW_PASSWORD:-}
generated=false
if [ -z "$password" ]; then
    password=$(head -c 18 /dev/urandom | base64 | tr -d '/+=')
    generated=true
fi

passwd_tool=$(command -v mosquitto_passwd || echo /usr/bin/mosquitto_passwd)
mkdir -p "$(dirname "$file")"
if [ -f "$file" ]; then
    "$passwd_tool" -b "$file" "$name" "$password"
else
    "$passwd_tool" -c -b "$file" "$name" "$password"
fi
chmod 600 "$file"
echo "user '$name' saved in $file"
$generated && echo "password: $password" || true
