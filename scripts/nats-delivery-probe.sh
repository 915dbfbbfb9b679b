#!/usr/bin/env bash
# Does every QoS 1 reader get every message? (docs/SCALING.md, "Sizing": NATS lost messages to
# some readers in a burst.) Three NATS nodes; $READERS clean-session QoS 1 readers on node 3,
# each logging every packet (`mosquitto_sub -d`); 100 publishers on node 1 sending 200 QoS 1
# messages each at once. For each reader: the messages it got, the ones it never got, how many
# times it connected (one CONNACK: it never reconnected), and whether the readers that missed
# messages missed the same ones. Up to $TRIES bursts, stopping at the first with a loss; exits 1
# if there was one.
#
#   scripts/nats-delivery-probe.sh      (needs nats-server, mosquitto-clients; READERS=4 TRIES=3;
#                                        KEEP_RUN=1 keeps the logs)
set -uo pipefail
cd "$(dirname "$0")/.."

readers=${READERS:-4}
tries=${TRIES:-3}
command -v nats-server > /dev/null || { echo "nats-server is not installed: sudo scripts/install-nats.sh" >&2; exit 1; }
# shellcheck source=lib/nats-cluster.sh
source scripts/lib/nats-cluster.sh
nats_work_dir safewalk-delivery-probe
say() { printf '[delivery-probe] %s\n' "$*"; }
say "$(nats-server --version) ($(command -v nats-server))"
nats_start_nodes
mqtt_ready "${mqtt[@]}" || exit 1

lost=0
for try in $(seq 1 "$tries"); do
    pids=()
    for r in $(seq 1 "$readers"); do
        mosquitto_sub -d -V mqttv311 -h 127.0.0.1 -p "${mqtt[2]}" -i "probe-$try-$r" -q 1 \
            -t "probe/$try/+/position" -C 20000 -W 120 > "$work/try$try-reader$r.log" 2>&1 &
        pids+=($!)
    done
    sleep 2
    publishers=()
    for i in $(seq 1 100); do
        seq 1 200 | sed 's/.*/{"n":&}/' |
            mosquitto_pub -V mqttv311 -h 127.0.0.1 -p "${mqtt[0]}" -q 1 -t "probe/$try/w$i/position" -l &
        publishers+=($!)
    done
    wait "${publishers[@]}"
    wait "${pids[@]}"
    python3 - "$work" "$try" "$readers" <<'EOF' || lost=1
import re, sys
work, attempt, readers = sys.argv[1], sys.argv[2], int(sys.argv[3])
expected = {(f"probe/{attempt}/w{i}/position", n) for i in range(1, 101) for n in range(1, 201)}
missing = {}
for r in range(1, readers + 1):
    got, topic, connacks, ids = set(), None, 0, set()
    for line in open(f"{work}/try{attempt}-reader{r}.log"):
        if "received CONNACK" in line:
            connacks += 1
        m = re.match(r"Client \S+ received PUBLISH \(d\d, q1, r\d, m(\d+), '([^']+)'", line)
        if m:
            ids.add(int(m.group(1)))
            topic = m.group(2)
            continue
        m = re.match(r'\{"n":(\d+)\}', line)
        if m and topic:
            got.add((topic, int(m.group(1))))
            topic = None
    missing[r] = sorted(expected - got)
    first = ", ".join(f"{t.split('/')[2]}#{n}" for t, n in missing[r][:6])
    print(f"[delivery-probe] burst {attempt}, reader {r}: {len(got)} of {len(expected)}, "
          f"{connacks} CONNACK(s), {len(ids)} distinct packet ids; missing {len(missing[r])}"
          + (f" (first: {first})" if missing[r] else ""))
short = [r for r in missing if missing[r]]
if short:
    same = "" if len(short) == 1 else (
        "; the same messages missing in each" if len({tuple(missing[r]) for r in short}) == 1
        else "; different messages missing")
    print(f"[delivery-probe] burst {attempt}: {len(short)} of {readers} readers short{same}")
    sys.exit(1)
EOF
    [ $lost = 1 ] && break
done
exit $lost
