#!/usr/bin/env bash
# Builds and starts SafeWalk on the three-node NATS cluster with compose
# (compose/cluster/docker-compose.yml, plus the fake Twilio of smoke.compose.yml), then checks what
# the cluster must do (issue 23; docs/SCALING.md):
#   - a node refuses to start without its logins file, without its TLS certificate, or with a
#     service password empty;
#   - MQTT (phones and services alike) and web are TLS only, with a test CA made here; phones on
#     the host check the nodes' certificate;
#   - alice and bob sign up at web; web answers 201 once broker-admin's users file, with their
#     logins, is loaded by all three nodes;
#   - alice (routed to partition 1) adds a contact, sends a fix and asks for help on nats3; the
#     alert with `tel:` and `sms:` actions reaches her phone on nats2, the fake gateway gets an SMS
#     to her contact, and watchdog-1 (not watchdog-0) published the escalation;
#   - bob (partition 0) can read neither alice's status nor every walker's position;
#   - bob (partition 0) adds his contact and sends a fix; then nats1, the watchdogs' and the
#     notifiers' node, is SIGKILLed: they move to another node, and bob's cry for help during the
#     outage is escalated by watchdog-0 and alerts his phone and his contact; dave signs up during
#     the outage; nats1 comes back healthy, and dave logs in on it;
#   - carol, refused before, signs up while the cluster runs and logs in on all three nodes at
#     her first try, with nothing restarted.
# Shows the logs on failure and always tears everything down (containers, network, volumes).
#   compose/cluster/smoke.sh      (needs the pinned nats-server on PATH: scripts/install-nats.sh;
#                                  mosquitto-clients and python3 on the host)
# Environment: as compose/smoke.sh (DOCKER, COMPOSE, SAFEWALK_SWIFT_IMAGE, SAFEWALK_RUNTIME_IMAGE,
# SAFEWALK_BUILD_CONFIGURATION), SMOKE_READY_TIMEOUT (240 s), SMOKE_ALERT_TIMEOUT (90 s).
set -euo pipefail
cd "$(dirname "$0")/../.."
docker=${DOCKER:-docker}
# shellcheck source=../lib/smoke-common.sh
source compose/lib/smoke-common.sh
smoke_compose_command || exit 1
for tool in mosquitto_pub mosquitto_sub python3; do
    command -v "$tool" > /dev/null || { echo "[cluster-smoke] $tool is needed on the host" >&2; exit 1; }
done
compose/cluster/stage-nats.sh
smoke_base_images
smoke_stage_swift_mirror

project=safewalk-cluster-smoke
work=$(mktemp -d /tmp/safewalk-cluster-smoke.XXXXXX)
port1=$(smoke_free_port)
port2=$(smoke_free_port "$port1")
port3=$(smoke_free_port "$port1" "$port2")
web_port=$(smoke_free_port "$port1" "$port2" "$port3")
pw() { smoke_password; }
# Routed by the nodes' mappings (WalkerPartition, pinned in WalkerPartitionTests): alice to
# partition 1, bob and carol to partition 0. A walker's password as web wants it: a digit and a
# character that is neither a letter nor a digit (random base64 alone may lack the digit).
alice=(-u alice -P "$(pw)-a1")
bob=(-u bob -P "$(pw)-b2")
carol=(-u carol -P "$(pw)-c3")
dave=(-u dave -P "$(pw)-d4")
operator_password=$(pw)
# A test CA and a certificate naming the three nodes (the services check it) and localhost (the
# phones here).
smoke_test_certificates "$work" DNS:localhost,DNS:nats1,DNS:nats2,DNS:nats3,IP:127.0.0.1
tls=$work/tls
sms_sid=AC$(head -c 16 /dev/urandom | od -An -tx1 | tr -d ' \n')
sms_token=$(pw)
{
    cat compose/cluster/.env.example
    smoke_service_passwords
    cat <<ENV
OPERATOR_MQTT_PASSWORD=$operator_password
BROKER_ADMIN_MQTT_PASSWORD=$(pw)
WEB_MQTT_PASSWORD=$(pw)
SAFEWALK_TLS_DIR=$tls
SAFEWALK_PUBLIC_MQTT_HOST=localhost
SAFEWALK_CLUSTER_MQTT_BIND=127.0.0.1
SAFEWALK_CLUSTER_WEB_BIND=127.0.0.1
SAFEWALK_CLUSTER_WEB_PORT=$web_port
SAFEWALK_CLUSTER_MQTT_PORT_1=$port1
SAFEWALK_CLUSTER_MQTT_PORT_2=$port2
SAFEWALK_CLUSTER_MQTT_PORT_3=$port3
SAFEWALK_CHECKIN_INTERVAL=600
SAFEWALK_NO_MOVEMENT_AFTER=600
SAFEWALK_OFFLINE_GRACE=600
SAFEWALK_CHANNELS=device,log,sms-http
ENV
    smoke_twilio_env "$sms_sid" "$sms_token" +15125550199
    smoke_image_env
} > "$work/env"
dc() { "${compose[@]}" -p "$project" --env-file "$work/env" -f compose/cluster/docker-compose.yml -f compose/cluster/smoke.compose.yml "$@"; }
say() { echo "[cluster-smoke +${SECONDS}s] $*"; }
ok=false
finish() {
    jobs -p | xargs -r kill 2> /dev/null || true
    "$docker" rm -f "$project-refuse" > /dev/null 2>&1 || true
    smoke_finish cluster-smoke '*.out'
}
trap finish EXIT INT TERM
fail() { echo "[cluster-smoke] $*" >&2; exit 1; }

say "building (${compose[*]}; swift image ${SAFEWALK_SWIFT_IMAGE:-swift:6.1-bookworm})"
# One build per image: every service (and cluster-config) shares the services image.
dc build nats1 cluster-config fake-sms

# A node refuses to start, saying what is wrong: first without the config job's files.
refuses() {  # what expected docker-run-arguments...
    local what=$1 expected=$2 status=0; shift 2
    "$docker" run --rm --name "$project-refuse" "$@" safewalk/nats:smoke > "$work/refuse.out" 2>&1 || status=$?
    [ "$status" = 2 ] && grep -qF "$expected" "$work/refuse.out" \
        || fail "a node with $what: expected exit 2 and '$expected', got exit $status: $(cat "$work/refuse.out")"
    say "a node refuses $what: $(grep -F "$expected" "$work/refuse.out")"
}
refuses "no logins file" "/logins/users.conf is missing" -e NATS_NODE=nats1

say "starting; the nodes' MQTT over TLS on 127.0.0.1:$port1, $port2, $port3, web's HTTPS on $web_port"
dc up -d --no-build
refuses "no TLS certificate" "TLS: /certs/ca.crt is missing" -e NATS_NODE=nats1 \
    -v "${project}_cluster-config:/config:ro" -v "${project}_cluster-logins:/logins:ro"
refuses "an empty service password" "BROKER_ADMIN_MQTT_PASSWORD is empty" -e NATS_NODE=nats1 \
    -v "${project}_cluster-config:/config:ro" -v "${project}_cluster-logins:/logins:ro" -v "$tls:/certs:ro"
services=(nats1 nats2 nats3 watchdog-0 watchdog-1 location-ingest-0 location-ingest-1 companion-chat-0
          companion-chat-1 notifier-0 notifier-1 contacts-store broker-admin web fake-sms)
smoke_wait_healthy "${SMOKE_READY_TIMEOUT:-240}" "${services[@]}"
say "healthy: ${services[*]}"

# Every phone here checks the nodes' certificate against the test CA, as a phone would.
V=(-V mqttv311 -h localhost --cafile "$tls/ca.crt")
# Signs up at web as a person does, over HTTPS (curl checks the certificate against the test CA).
# web answers 201 once broker-admin's users file with the login is loaded by every node that is up.
sign_up() {  # login-array-name
    local -n login=$1
    local status
    status=$(curl --silent --show-error --max-time 30 --cacert "$tls/ca.crt" -o "$work/signup-${login[1]}.out" -w '%{http_code}' \
        -X POST -H 'Content-Type: application/json' \
        --data "{\"username\":\"${login[1]}\",\"email\":\"${login[1]}@example.org\",\"password\":\"${login[3]}\"}" \
        "https://localhost:$web_port/v1/accounts" 2>> "$work/curl.err") || true
    [ "$status" = 201 ] || fail "sign-up of ${login[1]}: expected HTTP 201, got $status: $(cat "$work/signup-${login[1]}.out" "$work/curl.err" 2> /dev/null)"
}
# The login works on the node at `port` at the first try: no retry, as the 201 promised.
logs_in_at_once() {  # login-array-name port
    local -n login=$1
    mosquitto_pub "${V[@]}" -p "$2" "${login[@]}" -q 1 -t "safewalk/${login[1]}/presence" -m online 2> "$work/login.err" \
        || fail "${login[1]} could not log in to the node on $2 at the first try: $(cat "$work/login.err")"
}
sign_up alice
sign_up bob
say "alice and bob signed up at web"
# A phone on nats3 sends until the node acknowledges, as the app does: right after a node's loss
# NATS may drop a connection while JetStream elects its leaders again.
phone() {  # login-array-name kind payload
    local -n login=$1
    local tries=0
    until mosquitto_pub "${V[@]}" -p "$port3" "${login[@]}" -q 1 -t "safewalk/${login[1]}/$2" -m "$3" 2> "$work/phone.err"; do
        tries=$((tries + 1))
        [ $tries -ge 30 ] && fail "${login[1]}'s phone could not send $2 in 30 tries: $(cat "$work/phone.err")"
        sleep 1
    done
}
# The walker's phone reads her own alert and status topics on nats2 with her own login, from
# before she asks for help (bob's from before nats1's SIGKILL, as a connected phone would) until
# the alert. QoS 0, so that what is checked is the alert's way through the cluster, not a
# JetStream consumer of the reader's own. Subscribed once the SUBACK grants both topics: right
# after a node's loss NATS can refuse a subscription while JetStream elects its leaders again,
# with the same words as an ACL refusal, and the phone asks again, as the app does.
watch_alert() {  # login-array-name: the phone's output in $work/<walker>-alert.out
    local -n login=$1
    local tries=0 deadline out="$work/${login[1]}-alert.out"
    while true; do
        # Line-buffered: the SUBACK line is otherwise only written when mosquitto_sub exits.
        stdbuf -oL mosquitto_sub -d "${V[@]}" -p "$port2" "${login[@]}" -q 0 -v -t "safewalk/${login[1]}/alert" \
            -t "safewalk/${login[1]}/status" -W "${SMOKE_ALERT_TIMEOUT:-90}" > "$out" 2>&1 &
        watcher=$!
        deadline=$((SECONDS + 30))
        until grep -q '^Subscribed (mid' "$out" || ! kill -0 "$watcher" 2> /dev/null || [ $SECONDS -ge $deadline ]; do
            sleep 0.2
        done
        if grep -q '^Subscribed (mid: [0-9]*): 0, 0$' "$out"; then
            [ $tries -eq 0 ] || say "${login[1]}'s phone subscribed after $tries refusals"
            return 0
        fi
        kill "$watcher" 2> /dev/null || true
        tries=$((tries + 1))
        [ $tries -lt 15 ] || fail "${login[1]}'s phone could not subscribe on nats2 in 15 tries: $(cat "$out")"
        sleep 1
    done
}
fix_now() { echo "{\"v\":1,\"lat\":30.2849,\"lon\":-97.7341,\"acc\":5,\"tst\":$(date +%s)}"; }
# The escalation of `walker` was published by watchdog-`owner` and by no other instance.
escalated_by() {  # walker owner
    local other=$((1 - $2))
    dc logs --no-color "watchdog-$2" 2>&1 | grep 'escalation published' | grep -q "walker=$1" \
        || fail "watchdog-$2 published no escalation of $1"
    ! dc logs --no-color "watchdog-$other" 2>&1 | grep 'escalation published' | grep -q "walker=$1" \
        || fail "watchdog-$other published an escalation of $1, who is routed to partition $2"
}
# A walker as she is before any walk: one contact stored and her position known, both seen by
# her phone on nats2 (so the notifier, which reads the same retained contacts, has them too). A
# contact added a second before a cry, while the notifier is moving nodes, can miss that alert.
prepare_walker() {  # login-array-name contact-phone
    local -n walker=$1
    local seen="$work/${walker[1]}-ready.out" deadline=$((SECONDS + 30))
    stdbuf -oL mosquitto_sub "${V[@]}" -p "$port2" "${walker[@]}" -q 0 -v -t "safewalk/${walker[1]}/contacts" \
        -t "safewalk/${walker[1]}/position/#" -W 30 > "$seen" 2>&1 &
    local reader=$!
    sleep 1
    phone "$1" contacts/add "{\"name\":\"Mom\",\"phone\":\"$2\",\"v\":1}"
    phone "$1" fix "$(fix_now)"
    until { grep -q "^safewalk/${walker[1]}/contacts .*$2" "$seen" && grep -q "^safewalk/${walker[1]}/position/" "$seen"; } \
        || [ $SECONDS -ge $deadline ]; do
        sleep 0.2
    done
    kill "$reader" 2> /dev/null || true
    grep -q "^safewalk/${walker[1]}/contacts .*$2" "$seen" && grep -q "^safewalk/${walker[1]}/position/" "$seen" \
        || fail "${walker[1]}'s contact and position were not both published within 30 s: $(cat "$seen")"
}
cry_for_help() {  # login-array-name contact-phone partition: after prepare_walker and watch_alert
    local -n who=$1
    phone "$1" action '{"action":"needHelp","id":"h1","note":"Someone is following me","v":1}'
    # Until the alert (the watcher gives up after SMOKE_ALERT_TIMEOUT by itself).
    while kill -0 "$watcher" 2> /dev/null && ! grep -q "^safewalk/${who[1]}/alert " "$work/${who[1]}-alert.out"; do
        sleep 0.5
    done
    sleep 0.5
    kill "$watcher" 2> /dev/null || true
    wait "$watcher" 2> /dev/null || true
    grep -q "^safewalk/${who[1]}/alert .*\"tel:" "$work/${who[1]}-alert.out" \
        && grep -q "^safewalk/${who[1]}/alert .*\"sms:" "$work/${who[1]}-alert.out" \
        || fail "no alert with tel: and sms: actions reached ${who[1]}'s phone on nats2: $(cat "$work/${who[1]}-alert.out")"
    sms=$(smoke_sms_to "$2") || fail "no SMS to ${who[1]}'s contact $2"
    say "${who[1]}: alert with tel: and sms: actions on nats2; SMS: $sms"
    escalated_by "${who[1]}" "$3"
    say "${who[1]}: escalated by watchdog-$3 alone (partition $3)"
}

prepare_walker alice +15125550101
watch_alert alice
cry_for_help alice +15125550101 1

# Isolation in NATS's own permission model: bob's subscriptions to alice's status and to every
# walker's position are refused.
denied=$(mosquitto_sub "${V[@]}" -p "$port2" "${bob[@]}" -q 1 -t safewalk/alice/status -t 'safewalk/+/position' \
    -C 1 -W 5 2>&1 || true)
[[ $denied == *enied* && $denied != *safewalk/alice* ]] || fail "bob's subscriptions to alice's topics were not refused: $denied"
say "bob may read neither alice's status nor every position: $(echo "$denied" | head -1)"

# SIGKILL of nats1, the watchdogs' and the notifiers' home node; bob asks for help during the
# outage.
prepare_walker bob +15125550102
watch_alert bob
nats1=$(dc ps -q nats1)
"$docker" kill -s KILL "$nats1" > /dev/null
say "nats1 SIGKILLed"
cry_for_help bob +15125550102 0
# Docker restarts no container it killed on request: nats1 stayed down through bob's cry.
[ "$("$docker" inspect -f '{{.State.Running}}' "$nats1")" = false ] || fail "nats1 was running again before bob's cry was answered"
# A killed container's connections end in silence (no reset), so a service that did not happen to
# send meanwhile notices by its keep-alive (10 s, given up one keep-alive later): up to 60 s.
deadline=$((SECONDS + 60))
for service in watchdog-0 watchdog-1 notifier-0 notifier-1; do
    until dc logs --no-color "$service" 2>&1 | grep -q 'moving to another broker node'; do
        [ $SECONDS -lt $deadline ] || fail "$service never said it moved to another node after nats1's SIGKILL"
        sleep 1
    done
done
say "watchdog-0, watchdog-1, notifier-0 and notifier-1 moved off nats1; bob's cry was escalated and delivered during the outage"
# A sign-up during the outage: answered once the two nodes up have the login (nats1 is given up
# on after SAFEWALK_NATS_RELOAD_WAIT), and nats1 reads it when it starts.
sign_up dave
logs_in_at_once dave "$port2"
logs_in_at_once dave "$port3"
say "dave signed up while nats1 was down, and logs in on nats2 and nats3"
dc start nats1 > /dev/null 2>&1
smoke_wait_healthy "${SMOKE_READY_TIMEOUT:-240}" nats1
logs_in_at_once dave "$port1"
say "nats1 back and healthy; dave logs in on it"

# A walker signed up while the cluster runs: refused before, and at her first try on every node
# after web's 201 (broker-admin rewrote the users file and every node reloaded it), with
# nothing restarted.
mosquitto_pub "${V[@]}" -p "$port2" "${carol[@]}" -q 1 -t safewalk/carol/presence -m online 2> "$work/carol-before.out" \
    && fail "carol connected before she signed up"
sign_up carol
for port in "$port1" "$port2" "$port3"; do logs_in_at_once carol "$port"; done
say "carol, refused before, signed up while the cluster ran and logs in on all three nodes at her first try"
ok=true
