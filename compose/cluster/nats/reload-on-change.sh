#!/usr/bin/env bash
# Reloads one NATS node whenever its users file changes, and says it did: broker-admin
# (SAFEWALK_ADMIN_BROKER=nats) rewrites the file at each sign-up, password change or erasure, and
# answers web only once every node's acknowledgement holds the new file's SHA-256
# (docs/SCALING.md, "Sign-up on the cluster").
#
#   reload-on-change.sh USERS_FILE NODE_PID ACKNOWLEDGEMENT_FILE
#
# Runs beside the node until the node exits. The node's own entrypoint starts it just before it
# execs nats-server (so NODE_PID is the entrypoint's own), and scripts/cluster-stack.sh beside each
# node it starts. The file is looked at every SAFEWALK_RELOAD_INTERVAL seconds (0.2): a sign-up
# waits for that at most, plus the reload itself (milliseconds, measured in cluster-stack.sh).
set -u
users=$1 pid=$2 acknowledgement=$3
interval=${SAFEWALK_RELOAD_INTERVAL:-0.2}

# nats-server ends on a SIGHUP that comes before it has set its signal handlers, so the first
# reload waits for the exec and two seconds more. That first reload is not skipped: the file may
# have changed between the node's reading it and this script's first look.
until [ "$(readlink "/proc/$pid/exe" 2> /dev/null)" != "" ] &&
    [[ "$(readlink "/proc/$pid/exe")" == *nats-server* ]]; do
    kill -0 "$pid" 2> /dev/null || exit 0
    sleep 0.1
done
sleep 2

loaded=""
while kill -0 "$pid" 2> /dev/null; do
    digest=$(sha256sum < "$users" 2> /dev/null | cut -d' ' -f1)
    if [ -s "$users" ] && [ "$digest" != "$loaded" ]; then
        if kill -HUP "$pid" 2> /dev/null; then
            printf '%s\n' "$digest" > "$acknowledgement.new" && mv -f "$acknowledgement.new" "$acknowledgement"
            loaded=$digest
        fi
    fi
    sleep "$interval"
done
