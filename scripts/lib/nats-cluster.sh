# Shared by scripts/cluster-trial.sh and scripts/cluster-stack.sh (source it): three NATS nodes
# with JetStream, routes between them and an MQTT listener each, all on loopback.

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
