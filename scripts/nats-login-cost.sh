#!/usr/bin/env bash
# What a login's password form costs a NATS node at each MQTT CONNECT (docs/SCALING.md, "Sign-up
# on the cluster"): the node's own CPU over CONNECTS connects of one walker (mosquitto_pub, one
# QoS 0 message each), with the password in clear (the baseline, measured in the same run) and as
# bcrypt hashes of several costs, as broker-admin writes them (SAFEWALK_NATS_BCRYPT_COST). A
# node compares the hash at every CONNECT, so this is what every phone's reconnect costs after a
# node's loss.
#
#   scripts/nats-login-cost.sh            (CONNECTS=300 COSTS="4 6 8 10"; needs nats-server)
set -u
cd "$(dirname "$0")/.."
# shellcheck source=lib/nats-cluster.sh
source scripts/lib/nats-cluster.sh
nats_require_version || exit 1
nats_work_dir safewalk-login-cost
connects=${CONNECTS:-300}
costs=${COSTS:-4 6 8 10}
port=$(free_port)
password="walker-pw-$(head -c 6 /dev/urandom | od -An -tx1 | tr -d ' \n')"
users() {  # password form
    printf 'authorization {\n  users = [ { user: "walker", password: "%s", allowed_connection_types: ["MQTT"],\n    permissions: { publish: { allow: ["safewalk.walker.fix"] }, subscribe: { deny: [">"] } } } ]\n}\n' "$1" > "$work/users.conf"
}
# bcrypt as libxcrypt makes it ($2b$, as HummingbirdBcrypt does): Python's crypt module.
bcrypt_of() {  # cost
    python3 -W ignore -c 'import crypt, sys
print(crypt.crypt(sys.argv[1], crypt.mksalt(crypt.METHOD_BLOWFISH, rounds=2 ** int(sys.argv[2]))))' "$password" "$1"
}
users "$password"
cat > "$work/node.conf" <<CONF
server_name: login-cost
listen: 127.0.0.1:$(free_port)
jetstream { store_dir: "$work/js" }
mqtt { listen: 127.0.0.1:$port }
include "users.conf"
CONF
nats-server -c "$work/node.conf" > "$work/node.log" 2>&1 &
node=$!
disown $node  # SIGKILLed at exit: no job notice
ready_login=(-u walker -P "$password")
ready_topic=safewalk/walker/fix
mqtt_ready "$port" > /dev/null || { tail -5 "$work/node.log"; exit 1; }

measure() {  # label: prints "label ms-per-connect"
    local before after i
    before=$(cpu_seconds $node)
    for ((i = 0; i < connects; i++)); do
        mosquitto_pub -V mqttv311 -h 127.0.0.1 -p "$port" -u walker -P "$password" -q 0 -t safewalk/walker/fix -m x ||
            { echo "connect refused ($1)" >&2; exit 1; }
    done
    after=$(cpu_seconds $node)
    python3 -c "print(f'{($after - $before) * 1000 / $connects:.2f}')"
}
echo "| password form | node CPU per CONNECT (ms) | × clear text |"
echo "|---|---|---|"
clear=$(measure clear)
echo "| clear text (baseline) | $clear | 1.0 |"
for cost in $costs; do
    users "$(bcrypt_of "$cost")"
    kill -HUP $node
    sleep 1
    ms=$(measure "bcrypt $cost")
    echo "| bcrypt, cost $cost | $ms | $(python3 -c "print(f'{$ms / max($clear, 0.01):.1f}')") |"
done
echo "($connects connects each, $(date -u +%Y-%m-%dT%H:%MZ), nats-server $(nats-server --version | awk '{print $2}'))"
