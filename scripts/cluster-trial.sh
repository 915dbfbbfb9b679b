#!/usr/bin/env bash
# The engine trial of issue 23 (docs/SCALING.md): Debian's nats-server and rabbitmq-server, each
# as three nodes on loopback, asked what SafeWalk needs of a clustered broker, through plain
# MQTT 3.1.1 clients (mosquitto_pub / mosquitto_sub, as a phone would connect):
#   retained   a retained message published on node 1 reaches a new subscriber on node 3
#   will       a client on node 2 that vanishes has its Last Will delivered on node 1
#   session    a persistent QoS 1 session made on node 2 gets the 20 messages queued meanwhile
#              after node 2 is SIGKILLed and the client comes back on node 3
#   partition  `safewalk/+/position` split by walker id over 4 subscribers, each walker in
#              exactly one partition (NATS's subject mapping; RabbitMQ has none for MQTT)
# Every result is printed; the run fails if NATS, the engine SafeWalk builds on, misses one.
#
#   isolation  (nats-isolation) per-user permissions as strong as the `%u` ACL across nodes, and a
#              login added while the cluster runs (config users, reloaded on every node)
#
#   routing    (nats-routing) the partitioned watchdog's inputs: device topics mapped to a
#              partition by walker id, with the walkers' own permissions (run_nats_routing)
#
#   scripts/cluster-trial.sh [nats|nats-isolation|nats-routing|rabbitmq|both]   (default both; needs the packages)
set -uo pipefail

which_engines=${1:-both}
work=$(mktemp -d /tmp/safewalk-cluster-trial.XXXXXX)
pids=()
results=()
nats_failed=0

cleanup() {
    for pid in "${pids[@]}"; do kill -9 "$pid" 2>/dev/null; done
    pkill -9 -f "$work" 2>/dev/null
    [ -n "${KEEP_TRIAL:-}" ] || rm -rf "$work"
}
trap cleanup EXIT

# shellcheck source=lib/nats-cluster.sh
source "$(dirname "$0")/lib/nats-cluster.sh"
say() { printf '[trial] %s\n' "$*"; }
record() {  # engine check outcome detail
    results+=("$(printf '| %s | %s | %s | %s |' "$1" "$2" "$3" "$4")")
    say "$1 $2: $3 ($4)"
    if [ "$1" = nats ] && [ "$3" != PASS ]; then nats_failed=1; fi
}

# The four checks against MQTT ports $1 $2 $3 (nodes 1-3); $4 is the engine, $5 the command that
# SIGKILLs node 2.
check_all() {
    local p1=$1 p2=$2 p3=$3 engine=$4 kill_node2=$5 got
    # retained
    mosquitto_pub -V mqttv311 -h 127.0.0.1 -p "$p1" -q 1 -r -t trial/retained -m "kept-on-1"
    got=$(mosquitto_sub -V mqttv311 -h 127.0.0.1 -p "$p3" -q 1 -t trial/retained -C 1 -W 10 2>/dev/null)
    if [ "$got" = kept-on-1 ]; then record "$engine" retained PASS "node 3 got node 1's retained message"
    else record "$engine" retained FAIL "node 3 got '${got}' for node 1's retained message"; fi

    # will
    mosquitto_sub -V mqttv311 -h 127.0.0.1 -p "$p1" -q 1 -t trial/will -C 1 -W 30 > "$work/will.out" 2>/dev/null &
    local watcher=$!
    sleep 1
    mosquitto_sub -V mqttv311 -h 127.0.0.1 -p "$p2" -i trial-willer -k 5 -t trial/nothing \
        --will-topic trial/will --will-payload gone --will-qos 1 > /dev/null 2>&1 &
    local willer=$!
    sleep 2
    kill -9 "$willer"
    wait "$watcher"
    got=$(cat "$work/will.out")
    if [ "$got" = gone ]; then record "$engine" will PASS "node 1 got the Will of a client killed on node 2"
    else record "$engine" will FAIL "node 1 got '${got}' instead of the Will"; fi

    # session: subscribe with a persistent session on node 2 and leave cleanly
    mosquitto_sub -V mqttv311 -h 127.0.0.1 -p "$p2" -i trial-keeper -c -q 1 -t trial/queue -W 2 > /dev/null 2>&1
    for i in $(seq 1 20); do
        mosquitto_pub -V mqttv311 -h 127.0.0.1 -p "$p1" -q 1 -t trial/queue -m "m$i"
    done
    eval "$kill_node2"
    got=$(mosquitto_sub -V mqttv311 -h 127.0.0.1 -p "$p3" -i trial-keeper -c -q 1 -t trial/queue -C 20 -W 30 2>/dev/null | wc -l)
    if [ "$got" -eq 20 ]; then record "$engine" session PASS "20 of 20 queued messages after node 2's SIGKILL, on node 3"
    else record "$engine" session FAIL "$got of 20 queued messages after node 2's SIGKILL, on node 3"; fi
}

partition_check() {  # p1 p3 engine
    local p1=$1 p3=$2 engine=$3 k port subscribers=() denied=0
    subscribe_partition() {  # k: (again) subscribes partition k's consumer
        port=$p1; [ $(($1 % 2)) -eq 1 ] && port=$p3
        mosquitto_sub -V mqttv311 -h 127.0.0.1 -p "$port" -q 1 -v -t "safewalk/+/position/$1" -W 90 \
            >> "$work/part$1.out" 2> "$work/part$1.err" &
        subscribers[$1]=$!
    }
    for k in 0 1 2 3; do subscribe_partition $k; done
    mosquitto_sub -V mqttv311 -h 127.0.0.1 -p "$p1" -q 1 -v -t "safewalk/+/position" -W 90 \
        > "$work/plain.out" 2>/dev/null &
    subscribers[4]=$!
    # A QoS 1 subscription is a JetStream consumer, and NATS refuses it (SUBACK 0x80: "All
    # subscription requests were denied") while JetStream is not settled, as after a node's loss:
    # a refused subscriber subscribes again, as SafeWalk's client must. Each partition is then
    # probed until it answers (a probe's topic has four levels, so the mapping leaves it alone).
    local deadline=$((SECONDS + 60)) missing
    while :; do
        missing=0
        for k in 0 1 2 3; do
            grep -q "^safewalk/probe/position/$k " "$work/part$k.out" 2>/dev/null && continue
            missing=1
            if ! kill -0 "${subscribers[$k]}" 2>/dev/null; then
                denied=$((denied + 1))
                subscribe_partition $k
                sleep 1
            fi
            mosquitto_pub -V mqttv311 -h 127.0.0.1 -p "$p1" -q 1 -t "safewalk/probe/position/$k" -m probe
        done
        [ $missing -eq 0 ] || [ $SECONDS -ge $deadline ] && break
        sleep 1
    done
    say "$engine: partitions answering after $denied refused subscriptions"
    for round in 1 2; do
        for w in $(seq -w 1 200); do
            printf 'safewalk/w%s/position {"round":%s}\n' "$w" "$round"
        done
    done | while read -r topic payload; do
        mosquitto_pub -V mqttv311 -h 127.0.0.1 -p "$p1" -q 1 -t "$topic" -m "$payload"
    done
    wait "${subscribers[@]}"  # not the nodes, which are children too
    local summary
    summary=$(python3 - "$work" <<'EOF'
import sys, collections
work = sys.argv[1]
seen = collections.defaultdict(set)
counts = []
total = 0
for k in range(4):
    lines = [l.split(" ", 1)[0] for l in open(f"{work}/part{k}.out").read().splitlines()
             if l and not l.startswith("safewalk/probe/")]
    counts.append(len(lines))
    total += len(lines)
    for topic in lines:
        seen[topic.split("/")[1]].add(k)
plain = len([l for l in open(f"{work}/plain.out").read().splitlines() if l and "/probe/" not in l])
split = [w for w, parts in seen.items() if len(parts) != 1]
ok = total == 400 and len(seen) == 200 and not split
print(("PASS" if ok else "FAIL") + f"|{total} of 400 messages in partitions {counts}, "
      f"{len(split)} walkers in two; a plain safewalk/+/position subscriber got {plain}")
EOF
)
    record "$engine" partition "${summary%%|*}" "${summary#*|}"
}

# Three nodes on fresh ports (into the caller's mqtt, client and route), each config ending with
# $1; their pids go to pids and nats_pid_1..3.
start_nats_nodes() {
    nats_start_nodes "$1"
    pids+=("${nats_pids[@]}")
    nats_pid_1=${nats_pids[0]} nats_pid_2=${nats_pids[1]} nats_pid_3=${nats_pids[2]}
}

run_nats() {
    nats_require_version || return 1
    local mqtt=() client=() route=()
    start_nats_nodes 'mappings = { "safewalk.*.position": "safewalk.{{wildcard(1)}}.position.{{partition(4,1)}}" }'
    say "nats: three nodes, MQTT on ${mqtt[*]}"
    mqtt_ready "${mqtt[@]}" || { record nats ready FAIL "see $work/nats*.log"; return 1; }
    check_all "${mqtt[0]}" "${mqtt[1]}" "${mqtt[2]}" nats "kill -9 \$nats_pid_2"
    # Node 2 back (its JetStream store kept), so the partitions run on a whole cluster.
    nats-server -c "$work/nats2.conf" >> "$work/nats2.log" 2>&1 &
    pids+=($!)
    mqtt_ready "${mqtt[1]}" || { record nats ready FAIL "node 2 did not come back"; return 1; }
    partition_check "${mqtt[0]}" "${mqtt[2]}" nats
}

run_rabbitmq() {
    local bin=/usr/lib/rabbitmq/bin
    [ -x $bin/rabbitmq-server ] || { say "rabbitmq-server not installed (apt-get install rabbitmq-server)"; return 1; }
    local i mqtt=() amqp=() dist=()
    mkdir -p "$work/home"
    head -c 20 /dev/urandom | base64 | tr -dc A-Za-z > "$work/home/.erlang.cookie"
    chmod 400 "$work/home/.erlang.cookie"
    for i in 1 2 3; do mqtt+=("$(free_port)"); amqp+=("$(free_port)"); dist+=("$(free_port)"); done
    for i in 1 2 3; do
        mkdir -p "$work/r$i"
        cat > "$work/r$i/rabbitmq.conf" <<EOF
listeners.tcp.default = 127.0.0.1:${amqp[$((i - 1))]}
mqtt.listeners.tcp.default = 127.0.0.1:${mqtt[$((i - 1))]}
mqtt.durable_queue_type = quorum
mqtt.allow_anonymous = true
loopback_users = none
EOF
        echo '[rabbitmq_mqtt].' > "$work/r$i/enabled_plugins"
        HOME="$work/home" RABBITMQ_NODENAME="r$i@localhost" RABBITMQ_DIST_PORT="${dist[$((i - 1))]}" \
            RABBITMQ_MNESIA_BASE="$work/r$i/mnesia" RABBITMQ_LOG_BASE="$work/r$i/log" \
            RABBITMQ_CONFIG_FILE="$work/r$i/rabbitmq.conf" RABBITMQ_ENABLED_PLUGINS_FILE="$work/r$i/enabled_plugins" \
            ERL_EPMD_ADDRESS=127.0.0.1 $bin/rabbitmq-server > "$work/r$i.log" 2>&1 &
        pids+=($!)
    done
    ctl() { HOME="$work/home" ERL_EPMD_ADDRESS=127.0.0.1 $bin/rabbitmqctl "$@" > /dev/null 2>&1; }
    # await_startup fails at once while the node has not yet registered with epmd: ask again.
    local deadline=$((SECONDS + 180))
    for i in 1 2 3; do
        until ctl -n "r$i@localhost" await_startup --timeout 30; do
            [ $SECONDS -ge $deadline ] && { record rabbitmq ready FAIL "r$i never started"; return 1; }
            sleep 2
        done
    done
    for i in 2 3; do
        ctl -n "r$i@localhost" stop_app && ctl -n "r$i@localhost" join_cluster r1@localhost &&
            ctl -n "r$i@localhost" start_app || { record rabbitmq ready FAIL "r$i did not join"; return 1; }
    done
    say "rabbitmq: three nodes, MQTT on ${mqtt[*]}"
    mqtt_ready "${mqtt[@]}" || { record rabbitmq ready FAIL "see $work/r*.log"; return 1; }
    check_all "${mqtt[0]}" "${mqtt[1]}" "${mqtt[2]}" rabbitmq "pkill -9 -f 'r2@localhost'"
    record rabbitmq partition FAIL "no keyed partitioning for MQTT subscribers: the consistent-hash exchange feeds queues only AMQP consumers read (not run)"
}

# Per-user isolation on NATS with its own model (config users with subject permissions, reloaded
# while running): SafeWalk's `%u` ACL as NATS permissions, `safewalk/alice/#` being subject
# `safewalk.alice.>`. A QoS 1 MQTT subscription is a JetStream consumer delivering on an internal
# `$MQTT.sub.` subject, which NATS 2.9 checks against the user's subscribe permissions too.
nats_users() {  # the authorization block for the walkers named in $@, plus the services' user
    printf 'authorization {\n  users = [\n'
    # Explicit permissions even for the services: NATS 2.9.10 panics reloading users while a
    # retained message's publisher has none (nats-server PR 7596, fixed in 2025, not in Debian 12).
    printf '    {user: services, password: "services-pw", permissions: {publish: [">"], subscribe: [">"]}}\n'
    local w
    for w in "$@"; do
        printf '    {user: %s, password: "pw-%s", permissions: {publish: ["safewalk.%s.>"], subscribe: ["safewalk.%s.>", "$MQTT.sub.>"]}}\n' \
            "$w" "$w" "$w" "$w"
    done
    printf '  ]\n}\n'
}

# Waits until every node acknowledges a QoS 1 publish by the services' user (the node serves MQTT
# and JetStream has its leaders); records check $1 as failed if one never does.
services_ready() {
    local deadline=$((SECONDS + 90)) port
    for port in "${mqtt[@]}"; do
        until mosquitto_pub -V mqttv311 -h 127.0.0.1 -u services -P services-pw -p "$port" -q 1 -t trial/ready -m x 2>/dev/null; do
            [ $SECONDS -ge $deadline ] && { record nats "$1" FAIL "port $port never became ready"; return 1; }
            sleep 1
        done
    done
}

run_nats_isolation() {
    nats_require_version || return 1
    local i mqtt=() client=() route=() got
    nats_users alice bob > "$work/users.conf"
    start_nats_nodes 'include "users.conf"'
    say "nats isolation: three nodes, MQTT on ${mqtt[*]}"
    local svc=(-V mqttv311 -h 127.0.0.1 -u services -P services-pw)
    services_ready isolation || return 1
    local a=(-V mqttv311 -h 127.0.0.1 -u alice -P pw-alice)
    # Retained statuses published by a service on node 1.
    mosquitto_pub "${svc[@]}" -p "${mqtt[0]}" -q 1 -r -t safewalk/bob/status -m bob-status
    mosquitto_pub "${svc[@]}" -p "${mqtt[0]}" -q 1 -r -t safewalk/alice/status -m alice-status
    # Alice on node 3: her own retained status arrives; bob's topic, every walker's, everything
    # and NATS's internal delivery subjects give her nothing of bob's.
    got=$(mosquitto_sub "${a[@]}" -p "${mqtt[2]}" -q 1 -t safewalk/alice/status -C 1 -W 10 2>/dev/null)
    if [ "$got" = alice-status ]; then record nats "isolation: own" PASS "alice on node 3 read her own retained status"
    else record nats "isolation: own" FAIL "alice read '${got}' for her own status"; fi
    local filter
    for filter in safewalk/bob/status 'safewalk/+/status' '#' '$MQTT/sub/#'; do
        mosquitto_sub "${a[@]}" -p "${mqtt[2]}" -q 1 -v -t "$filter" -W 6 > "$work/alice-read.out" 2>&1
        if grep -q "bob-status" "$work/alice-read.out"; then
            record nats "isolation: read $filter" FAIL "alice read bob's status"
        else
            record nats "isolation: read $filter" PASS "nothing of bob's: $(head -c 80 "$work/alice-read.out" | tr '\n' ' ')"
        fi
    done
    # Writes: a forged fix for bob from alice on node 2 never reaches a service on node 1.
    mosquitto_sub "${svc[@]}" -p "${mqtt[0]}" -q 1 -v -t 'safewalk/+/fix' -W 8 > "$work/svc-fix.out" 2>/dev/null &
    local watcher=$!
    sleep 2
    mosquitto_pub "${a[@]}" -p "${mqtt[1]}" -q 1 -t safewalk/bob/fix -m forged 2>/dev/null
    mosquitto_pub "${a[@]}" -p "${mqtt[1]}" -q 1 -t safewalk/alice/fix -m own 2>/dev/null
    wait "$watcher"
    if grep -q forged "$work/svc-fix.out" || ! grep -q "safewalk/alice/fix own" "$work/svc-fix.out"; then
        record nats "isolation: write" FAIL "the services saw: $(tr '\n' ' ' < "$work/svc-fix.out")"
    else
        record nats "isolation: write" PASS "alice's own fix arrived, her forged one for bob did not"
    fi
    # A walker signed up while the cluster runs: carol's login is added to every node's users,
    # each node reloads, and her connections are tried until one is accepted.
    nats_users alice bob carol > "$work/users.conf"
    local started tries=0 took
    started=$(date +%s.%N)
    for i in 1 2 3; do nats-server --signal "reload=$(eval echo "\$nats_pid_$i")" > /dev/null 2>&1; done
    until mosquitto_pub -V mqttv311 -h 127.0.0.1 -p "${mqtt[2]}" -u carol -P pw-carol -q 1 -t safewalk/carol/fix -m hi 2>/dev/null; do
        tries=$((tries + 1))
        [ $tries -ge 50 ] && break
        sleep 0.1
    done
    took=$(python3 -c "print(f'{$(date +%s.%N) - $started:.2f}')")
    if [ $tries -lt 50 ]; then record nats "isolation: new login" PASS "carol connected on node 3 ${took} s after the reload signals, after $tries refusals"
    else record nats "isolation: new login" FAIL "carol still refused ${took} s after the reload signals"; fi
}

# The partitioned watchdog's routing, checked before it is built on (issue 23, item 2): the
# engine maps the device topics the watchdog reads (`safewalk.*.action` and `safewalk.*.presence`)
# to a partition token appended by `partition(2, walker)`, so that each watchdog instance
# subscribes to `safewalk/+/action/K` and sees only its walkers. A mapping rewrites the subject
# for every reader, so each other reader would subscribe to `safewalk/+/action/#` (which in MQTT
# matches `safewalk/w/action` on Mosquitto too). Asked here, with the walkers' own permissions
# (the `%u` ACL's shape, as in nats-isolation): does a walker's publish to its own unmapped topic
# pass, does each message land in exactly one partition, does a `#` reader get all of them, is a
# forged publish for another walker still refused, does a Last Will and a retained message follow
# the mapping, and can a walker still read its own mapped topic but no one else's.
run_nats_routing() {
    nats_require_version || return 1
    local i mqtt=() client=() route=() got k walkers=()
    for i in $(seq -w 1 40); do walkers+=("w$i"); done
    nats_users alice bob "${walkers[@]}" > "$work/users.conf"
    start_nats_nodes 'include "users.conf"
mappings = {
  "safewalk.*.action": "safewalk.{{wildcard(1)}}.action.{{partition(2,1)}}"
  "safewalk.*.presence": "safewalk.{{wildcard(1)}}.presence.{{partition(2,1)}}"
}'
    say "nats routing: three nodes, MQTT on ${mqtt[*]}"
    local svc=(-V mqttv311 -h 127.0.0.1 -u services -P services-pw)
    services_ready routing || return 1
    # Two partition consumers (persistent QoS 1 sessions, as a watchdog instance is) on nodes 1
    # and 2, and a reader of every partition on node 3, all as the services' user.
    local readers=()
    for k in 0 1; do
        mosquitto_sub "${svc[@]}" -p "${mqtt[$k]}" -i "trial-part$k" -c -q 1 -v \
            -t "safewalk/+/action/$k" -t "safewalk/+/presence/$k" -W 40 > "$work/route$k.out" 2> "$work/route$k.err" &
        readers+=($!)
    done
    mosquitto_sub "${svc[@]}" -p "${mqtt[2]}" -q 1 -v -t 'safewalk/+/action/#' -W 40 > "$work/route-all.out" 2>&1 &
    readers+=($!)
    mosquitto_sub "${svc[@]}" -p "${mqtt[2]}" -q 1 -v -t 'safewalk/+/action' -W 40 > "$work/route-plain.out" 2>&1 &
    readers+=($!)
    sleep 3
    # Each walker on node 3, with its own login, sends one action; alice also forges one for bob.
    local refused=0 w
    for w in alice bob "${walkers[@]}"; do
        mosquitto_pub -V mqttv311 -h 127.0.0.1 -p "${mqtt[2]}" -u "$w" -P "pw-$w" -q 1 \
            -t "safewalk/$w/action" -m "{\"from\":\"$w\"}" 2>/dev/null || refused=$((refused + 1))
    done
    mosquitto_pub -V mqttv311 -h 127.0.0.1 -p "${mqtt[2]}" -u alice -P pw-alice -q 1 \
        -t safewalk/bob/action -m '{"from":"alice-forged"}' 2>/dev/null
    # Alice's phone vanishes on node 2: its retained Last Will on her own presence topic.
    mosquitto_sub -V mqttv311 -h 127.0.0.1 -p "${mqtt[1]}" -u alice -P pw-alice -i trial-alice-phone -k 5 \
        -t safewalk/alice/status --will-topic safewalk/alice/presence --will-payload offline \
        --will-qos 1 --will-retain > /dev/null 2>&1 &
    local phone=$!
    sleep 2
    { kill -9 "$phone" && wait "$phone"; } 2>/dev/null
    wait "${readers[@]}"
    if [ $refused -eq 0 ]; then record nats "routing: own publish" PASS "42 walkers' actions to their own unmapped topics acknowledged"
    else record nats "routing: own publish" FAIL "$refused of 42 walkers' own actions refused"; fi
    local summary
    summary=$(python3 - "$work" <<'EOF2'
import sys, collections
work = sys.argv[1]
def lines(name):
    return [l for l in open(f"{work}/{name}").read().splitlines() if l.startswith("safewalk/")]
where = collections.defaultdict(set)
counts = []
wrong = 0
forged = 0
wills = []
for k in (0, 1):
    got = lines(f"route{k}.out")
    counts.append(len([l for l in got if "/action/" in l]))
    for l in got:
        topic, payload = l.split(" ", 1)
        parts = topic.split("/")
        if parts[2] == "presence":
            wills.append((topic, payload))
            continue
        where[parts[1]].add(k)
        if parts[3] != str(k): wrong += 1
        if "forged" in payload: forged += 1
split = [w for w, ks in where.items() if len(ks) != 1]
every = lines("route-all.out")
plain = lines("route-plain.out")
ok = len(where) == 42 and not split and wrong == 0 and forged == 0 and sum(counts) == 42
print(("PASS" if ok else "FAIL") + f"|{sum(counts)} of 42 actions in partitions {counts}, {len(split)} walkers in two, "
      f"{wrong} on another partition's topic, {forged} forged")
print(("PASS" if len(every) == 42 else "FAIL") + f"|a reader of safewalk/+/action/# got {len(every)} of 42 "
      f"(topics like {every[0].split(' ')[0] if every else '-'}); a reader of safewalk/+/action got {len(plain)}")
print(("PASS" if len(wills) == 1 and wills[0][1] == "offline" else "FAIL") + f"|the partitions got the Will as {wills}")
EOF2
)
    local line n=0
    while IFS= read -r line; do
        n=$((n + 1))
        case $n in
            1) record nats "routing: partitions" "${line%%|*}" "${line#*|}" ;;
            2) record nats "routing: a reader of every partition" "${line%%|*}" "${line#*|}" ;;
            3) record nats "routing: Last Will" "${line%%|*}" "${line#*|}" ;;
        esac
    done <<< "$summary"
    # The retained Will is kept under the mapped topic: a walker reads her own with `#`, and
    # neither `#` nor bob's topics give her anything of bob's.
    got=$(mosquitto_sub -V mqttv311 -h 127.0.0.1 -p "${mqtt[0]}" -u alice -P pw-alice -q 1 -v \
        -t 'safewalk/alice/presence/#' -C 1 -W 8 2>/dev/null)
    if [[ "$got" == safewalk/alice/presence/?\ offline ]]; then
        record nats "routing: retained" PASS "alice read her own retained Will on node 1 as '$got'"
    else record nats "routing: retained" FAIL "alice read '$got' for her own presence"; fi
    mosquitto_sub -V mqttv311 -h 127.0.0.1 -p "${mqtt[0]}" -u bob -P pw-bob -q 1 -v \
        -t 'safewalk/+/presence/#' -t 'safewalk/alice/action/#' -W 5 > "$work/bob-read.out" 2>&1
    if grep -q "alice" "$work/bob-read.out"; then
        record nats "routing: isolation" FAIL "bob read: $(tr '\n' ' ' < "$work/bob-read.out")"
    else
        record nats "routing: isolation" PASS "bob read nothing of alice's mapped topics: $(head -c 80 "$work/bob-read.out" | tr '\n' ' ')"
    fi
}

case $which_engines in
    nats) run_nats || nats_failed=1 ;;
    nats-isolation) run_nats_isolation || nats_failed=1 ;;
    nats-routing) run_nats_routing || nats_failed=1 ;;
    rabbitmq) run_rabbitmq ;;
    both) run_nats || nats_failed=1; cleanup; work=$(mktemp -d /tmp/safewalk-cluster-trial.XXXXXX); pids=(); run_rabbitmq ;;
    *) echo "usage: $0 [nats|nats-isolation|nats-routing|rabbitmq|both]" >&2; exit 2 ;;
esac

echo
echo "| engine | check | result | what happened |"
echo "|---|---|---|---|"
printf '%s\n' "${results[@]}"
exit $nats_failed
