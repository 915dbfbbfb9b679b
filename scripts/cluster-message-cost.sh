#!/usr/bin/env bash
# What a message costs the broker, on three NATS nodes and on Mosquitto, in one run
# (docs/SCALING.md, "Sizing"). Two things SafeWalk does with every fix, each measured apart:
#   retained  location-ingest publishes every position retained, for the pages, the circle and
#             the desk that start later; on NATS that is also a write to the replicated
#             `$MQTT_rmsgs` stream
#   fan-out   a position is read over QoS 1 by four services' persistent sessions; on NATS each
#             such subscription is a JetStream consumer acknowledging every message
# The same QoS 1 publishes over $TOPICS walkers' topics: not retained with one reader, retained
# with one reader, not retained with four readers (persistent sessions, as the services' are),
# and four readers again, each holding $FILTERS filters (7) of which only one matches, as a
# service's session holds several.
# The brokers' CPU (utime + stime from /proc) per message published, and the ratios.
#
#   scripts/cluster-message-cost.sh        (needs nats-server, mosquitto, mosquitto-clients;
#                                           TOPICS=100 PER_TOPIC=200 by default; BROKERS=nats
#                                           for NATS alone, without the ratios; CLEAN_READERS=1
#                                           for readers with clean sessions; FILTERS=7; PACE=1
#                                           sends each topic's messages a second apart)
set -uo pipefail
cd "$(dirname "$0")/.."

topics=${TOPICS:-100}
per=${PER_TOPIC:-200}
total=$((topics * per))
# FILTERS: how many filters each reader of the last case holds (the watchdog's session holds 7).
filters_each=${FILTERS:-7}
mosquitto=$(command -v mosquitto || echo /usr/sbin/mosquitto)
[ -x "$mosquitto" ] || { echo "mosquitto is not installed: apt-get install mosquitto" >&2; exit 1; }

# shellcheck source=lib/nats-cluster.sh
source scripts/lib/nats-cluster.sh
nats_require_version || exit 1
nats_work_dir safewalk-message-cost
say() { printf '[message-cost] %s\n' "$*"; }
nats_start_nodes
mosquitto_port=$(free_port)
# No queue limit: the reader must get every message (Mosquitto drops QoS 1 messages for a client
# past 1,000 queued by default; NATS holds them in the stream).
printf 'listener %s 127.0.0.1\nallow_anonymous true\npersistence false\nmax_queued_messages 0\n' \
    "$mosquitto_port" > "$work/mosquitto.conf"
"$mosquitto" -c "$work/mosquitto.conf" > "$work/mosquitto.log" 2>&1 &
mosquitto_pid=$!
disown $!

mqtt_ready "${mqtt[@]}" "$mosquitto_port" || exit 1

# Readers keep persistent sessions, as the services do; CLEAN_READERS=1 gives them clean ones.
session=(-c)
[ -n "${CLEAN_READERS:-}" ] && session=()
results=()
# PACE=S: each topic's publisher sends a message every S seconds, as a phone does, instead of all
# at once: at a walker's pace a broker cannot batch, and pays for each message on its own.
pace=${PACE:-0}
paced_lines() {
    if [ "$pace" = 0 ]; then seq 1 "$per"; return; fi
    local n
    for n in $(seq 1 "$per"); do echo "$n"; sleep "$pace"; done
}
run_case() {  # name port retain(yes|no) readers filters pids...: publishes on node 1's port, reads on the last node's
    local name=$1 publish_port=$2 retain=$3 count=$4 filters=$5 read_port=$2
    shift 5
    [ "$publish_port" = "${mqtt[0]}" ] && read_port=${mqtt[2]}
    local flag=() tag=$name-$retain-$count-$filters readers=() r k others=()
    [ "$retain" = yes ] && flag=(-r)
    # Filters beyond the first match nothing sent here, as most of a service's filters match
    # nothing a fix brings: on NATS each is one more JetStream consumer on the same stream.
    for k in $(seq 2 "$filters"); do others+=(-t "cost/$tag/+/other$k"); done
    for r in $(seq 1 "$count"); do
        mosquitto_sub -V mqttv311 -h 127.0.0.1 -p "$read_port" -i "cost-reader-$tag-$r" "${session[@]}" -q 1 \
            -t "cost/$tag/+/position" "${others[@]}" -C "$total" -W 180 > "$work/$tag-$r.out" 2> "$work/$tag-$r.err" &
        readers+=($!)
    done
    sleep 2
    local before started i publishers=()
    before=$(cpu_seconds "$@")
    started=$(date +%s.%N)
    for i in $(seq 1 "$topics"); do
        paced_lines | sed -u 's/.*/{"v":1,"n":&,"lat":30.2849,"lon":-97.7341,"acc":5}/' |
            mosquitto_pub -V mqttv311 -h 127.0.0.1 -p "$publish_port" -q 1 "${flag[@]}" -t "cost/$tag/w$i/position" -l &
        publishers+=($!)
    done
    wait "${publishers[@]}"
    wait "${readers[@]}"
    local after ended got
    after=$(cpu_seconds "$@")
    ended=$(date +%s.%N)
    got=$(cat "$work/$tag"-*.out | wc -l)
    results+=("$name $retain $count $filters $got $(python3 -c "print(f'{($after - $before) / $total * 1e6:.1f} {$ended - $started:.1f}')")")
    say "$name, retained=$retain, $count reader(s) of $filters filter(s) each: $got of $((total * count)) read; broker CPU $(python3 -c "print(f'{$after - $before:.2f}')") s"
}

for broker in ${BROKERS:-mosquitto nats}; do
    if [ $broker = mosquitto ]; then port=$mosquitto_port pids=("$mosquitto_pid"); else port=${mqtt[0]} pids=("${nats_pids[@]}"); fi
    run_case $broker "$port" no 1 1 "${pids[@]}"
    run_case $broker "$port" yes 1 1 "${pids[@]}"
    run_case $broker "$port" no 4 1 "${pids[@]}"
    run_case $broker "$port" no 4 "$filters_each" "${pids[@]}"
done

echo
echo "$total QoS 1 messages over $topics topics$([ "$pace" = 0 ] && echo ", all at once" || echo ", each topic's $pace s apart"); broker CPU per message published (NATS: the three nodes together)"
echo
echo "| broker | retained | QoS 1 readers | filters each | read | µs of broker CPU per message | seconds |"
echo "|---|---|---|---|---|---|---|"
failed=0
for line in "${results[@]}"; do
    read -r name retain count filters got micros seconds <<< "$line"
    echo "| $name | $retain | $count | $filters | $got of $((total * count)) | $micros | $seconds |"
    [ "$got" -eq $((total * count)) ] || failed=1
done
[ "${BROKERS:-mosquitto nats}" = "mosquitto nats" ] && python3 - "${results[@]}" <<'EOF'
import sys
cost = {tuple(r.split()[:4]): float(r.split()[5]) for r in sys.argv[1:]}
f = max(r.split()[3] for r in sys.argv[1:])
m, n = "mosquitto", "nats"
print()
print(f"- retained / not retained: Mosquitto {cost[(m,'yes','1','1')] / cost[(m,'no','1','1')]:.2f}x, "
      f"NATS {cost[(n,'yes','1','1')] / cost[(n,'no','1','1')]:.2f}x")
print(f"- four readers / one: Mosquitto {cost[(m,'no','4','1')] / cost[(m,'no','1','1')]:.2f}x, "
      f"NATS {cost[(n,'no','4','1')] / cost[(n,'no','1','1')]:.2f}x")
print(f"- NATS / Mosquitto: one reader {cost[(n,'no','1','1')] / cost[(m,'no','1','1')]:.1f}x, "
      f"retained {cost[(n,'yes','1','1')] / cost[(m,'yes','1','1')]:.1f}x, four readers {cost[(n,'no','4','1')] / cost[(m,'no','4','1')]:.1f}x")
print(f"- four readers of {f} filters each / of one: Mosquitto {cost[(m,'no','4',f)] / cost[(m,'no','4','1')]:.2f}x, "
      f"NATS {cost[(n,'no','4',f)] / cost[(n,'no','4','1')]:.2f}x; NATS / Mosquitto {cost[(n,'no','4',f)] / cost[(m,'no','4',f)]:.1f}x")
EOF
exit $failed
