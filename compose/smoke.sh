#!/usr/bin/env bash
# Builds and starts the whole stack with compose (plus a fake Twilio on the compose network,
# compose/smoke.compose.yml), then checks what a deployment must do:
#   - the broker refuses to start with compose/.env.example as shipped (empty passwords), with no
#     or a placeholder WEB_MQTT_PASSWORD, and without TLS certificates, naming what is wrong;
#   - the walker signs up at web over HTTPS, as people do (compose makes no walker logins), and
#     logs in to the broker with that account's password from then on;
#   - devices get MQTT over TLS on the published TLS port (a test CA made here with openssl):
#     a fix published through it comes back as a position through it; plain MQTT there fails;
#   - plain MQTT is reachable on 127.0.0.1 only, not on the host's other addresses;
#   - a walker with one contact goes silent: an alert with `tel:` and `sms:` actions arrives
#     (over TLS), and the fake gateway receives an SMS to the contact with the documented
#     Twilio-style template (From, To, Body with a maps link) and basic auth;
#   - web serves HTTPS only, with the broker's certificate, on its published port: a person signs
#     up, signs in, fetches the OwnTracks set-up, and with the device login it hands out a phone
#     publishes an OwnTracks location over TLS that becomes the walker's position; after the
#     account is deleted, the device login and the account's are refused.
# Shows the logs on failure and always tears everything down (containers, network, volumes).
#   compose/smoke.sh                 the full test
#   compose/smoke.sh --until-healthy only build, start and wait until every service reports online
# Environment: DOCKER (client, default docker), COMPOSE (e.g. "docker-compose"; default: `docker
# compose` if present, else docker-compose), SAFEWALK_SWIFT_IMAGE / SAFEWALK_RUNTIME_IMAGE (default:
# the local safewalk/swift-builder + safewalk/bookworm if they exist, else the public images),
# SAFEWALK_BUILD_CONFIGURATION (release), SMOKE_READY_TIMEOUT (180 s), SMOKE_ALERT_TIMEOUT (60 s).
# Needs openssl, curl and python3 on the host.
set -euo pipefail
cd "$(dirname "$0")/.."
until_healthy=false
[ "${1:-}" = "--until-healthy" ] && until_healthy=true

docker=${DOCKER:-docker}
# shellcheck source=lib/smoke-common.sh
source compose/lib/smoke-common.sh
smoke_compose_command || exit 1
command -v openssl > /dev/null || { echo "[smoke] openssl is needed for the test CA" >&2; exit 1; }
command -v curl > /dev/null || { echo "[smoke] curl is needed to talk to web over HTTPS" >&2; exit 1; }
command -v python3 > /dev/null || { echo "[smoke] python3 is needed to read web's JSON answers" >&2; exit 1; }

smoke_base_images
smoke_stage_swift_mirror

project=safewalk-smoke
work=$(mktemp -d /tmp/safewalk-smoke.XXXXXX)
tls_port=$(smoke_free_port)
local_port=$(smoke_free_port "$tls_port")
web_port=$(smoke_free_port "$tls_port" "$local_port")
pw() { smoke_password; }
# Both sign up at web (the plugin holds their logins; compose writes no walker into the password
# file). A digit and a symbol, as web's password rule wants. The walker does the walk; the
# person connects a phone and deletes the account.
walker=smoker
walker_password="$(pw)-7!"
person=sam
person_password="$(pw)-7!"
operator_password=$(pw)
sms_sid=AC$(head -c 16 /dev/urandom | od -An -tx1 | tr -d ' \n')
sms_token=$(pw)
sms_from=+15125550199
contact_phone=+15125550100

# A test CA and a server certificate for localhost (the broker runs as uid 883).
smoke_test_certificates "$work" DNS:localhost,IP:127.0.0.1
tls=$work/tls

# The shipped example, then what an operator fills in (later lines win): passwords, ports, the
# certificates, short thresholds, and the notifier's sms-http channel configured for Twilio
# exactly as README.md documents it, pointed at the fake gateway.
example_channels=$(sed -n 's/^SAFEWALK_CHANNELS=//p' compose/.env.example)
{
    cat compose/.env.example
    smoke_service_passwords
    cat <<ENV
OPERATOR_MQTT_PASSWORD=$operator_password
BROKER_ADMIN_MQTT_PASSWORD=$(pw)
WEB_MQTT_PASSWORD=$(pw)
SAFEWALK_BROKER_TLS_PORT=$tls_port
SAFEWALK_BROKER_LOCAL_PORT=$local_port
SAFEWALK_TLS_DIR=$tls
SAFEWALK_WEB_HTTPS_PORT=$web_port
SAFEWALK_PUBLIC_MQTT_HOST=localhost
SAFEWALK_PUBLIC_URL=https://127.0.0.1:$web_port
SAFEWALK_CHECKIN_INTERVAL=2
SAFEWALK_NO_REPLY_AFTER=3
SAFEWALK_NO_MOVEMENT_AFTER=60
SAFEWALK_OFFLINE_GRACE=60
SAFEWALK_CHANNELS=${example_channels:-device,log},sms-http
ENV
    smoke_twilio_env "$sms_sid" "$sms_token" "$sms_from"
    smoke_image_env
} > "$work/env"
dc() { "${compose[@]}" -p "$project" --env-file "$work/env" -f compose/docker-compose.yml -f compose/smoke.compose.yml "$@"; }
# Helper containers (started in the background, so named here where the cleanup can see them).
helpers=("$project-alert" "$project-watch" "$project-contact" "$project-walker" "$project-position" "$project-tls"
         "$project-refuse" "$project-phone-position" "$project-phone")
ok=false
finish() {
    for name in "${helpers[@]}"; do "$docker" rm -f "$name" > /dev/null 2>&1 || true; done
    smoke_finish smoke '*.log'
}
trap finish EXIT INT TERM
fail() { echo "[smoke] $*" >&2; exit 1; }

echo "[smoke] building (${compose[*]}; swift image ${SAFEWALK_SWIFT_IMAGE:-swift:6.1-bookworm})"
# One build per image from one snapshot of the sources: the five services share one image, and
# compose would otherwise build it once per service.
dc build broker location-ingest fake-sms

# The broker must refuse to start, saying which variable or file is wrong.
refuses() {  # what expected-message docker-run-arguments...
    local what=$1 expected=$2 status=0; shift 2
    "$docker" run --rm --name "$project-refuse" "$@" safewalk/broker:smoke > "$work/refuse.out" 2>&1 || status=$?
    [ "$status" = 2 ] && grep -qF "$expected" "$work/refuse.out" \
        || fail "broker with $what: expected exit 2 and '$expected', got exit $status: $(cat "$work/refuse.out")"
    echo "[smoke] broker refuses $what: $(grep -F "$expected" "$work/refuse.out")"
}
refuses "compose/.env.example as shipped" "LOCATION_INGEST_MQTT_PASSWORD is empty" --env-file compose/.env.example
good=()
for variable in LOCATION_INGEST WATCHDOG COMPANION_CHAT NOTIFIER CONTACTS_STORE OPERATOR BROKER_ADMIN; do good+=(-e "${variable}_MQTT_PASSWORD=$(pw)"); done
refuses "no WEB_MQTT_PASSWORD" "WEB_MQTT_PASSWORD is empty" "${good[@]}" -v "$tls:/mosquitto/certs:ro"
refuses "a placeholder WEB_MQTT_PASSWORD" "WEB_MQTT_PASSWORD is a placeholder" \
    "${good[@]}" -e "WEB_MQTT_PASSWORD=change-me-please" -v "$tls:/mosquitto/certs:ro"
good+=(-e "WEB_MQTT_PASSWORD=$(pw)")
refuses "no TLS certificates" "TLS: /mosquitto/certs/ca.crt is missing" "${good[@]}"

echo "[smoke] starting; TLS on port $tls_port, plain MQTT on 127.0.0.1:$local_port, web's HTTPS on $web_port"
dc up -d --no-build
services=(broker location-ingest watchdog companion-chat notifier contacts-store broker-admin web fake-sms)
smoke_wait_healthy "${SMOKE_READY_TIMEOUT:-180}" "${services[@]}"
echo "[smoke] healthy: ${services[*]}"
if $until_healthy; then ok=true; exit 0; fi

# Tools from the services image on the host's network; the test CA at /certs.
tool() { local name=$1; shift; "$docker" run --rm --name "$name" --network host -v "$tls:/certs:ro" "safewalk/services:smoke" "$@"; }
tls_args=(-h localhost -p "$tls_port" --cafile /certs/ca.crt -u "$walker" -P "$walker_password")

# web over HTTPS, as README.md tells a person to use it: curl trusts only the test CA, so the
# certificate is checked, not skipped.
web_url=https://127.0.0.1:$web_port
csrf=
web() {  # name method path [json-body]: prints the HTTP status; the body goes to $work/web-<name>.log
    local name=$1 method=$2 path=$3 body=${4:-}
    local args=(--silent --show-error --max-time 30 --cacert "$tls/ca.crt" -X "$method" -o "$work/web-$name.log"
                -w '%{http_code}' -b "$work/cookies" -c "$work/cookies")
    [ -z "$body" ] || args+=(-H 'Content-Type: application/json' --data "$body")
    [ -z "$csrf" ] || args+=(-H "X-CSRF-Token: $csrf")
    curl "${args[@]}" "$web_url$path" 2>> "$work/web-curl.log" || true
}
expect_status() {  # what expected actual name
    [ "$3" = "$2" ] || fail "web, $1: expected HTTP $2, got $3: $(cat "$work/web-$4.log" 2> /dev/null) $(tail -2 "$work/web-curl.log" 2> /dev/null)"
}
json() {  # name key.path: one value of $work/web-<name>.log, as JSON for objects, else as text
    python3 -c 'import json, sys
value = json.load(open(sys.argv[1]))
for key in sys.argv[2].split("."): value = value[key]
print(json.dumps(value) if isinstance(value, (dict, list, bool)) else value)' "$work/web-$1.log" "$2"
}
sign_up() {  # name password: signs up as a person does; web answers 201 once broker-admin made the login
    local status
    status=$(web "signup-$1" POST /v1/accounts "{\"username\":\"$1\",\"email\":\"$1@example.org\",\"password\":\"$2\"}")
    expect_status "sign-up of $1" 201 "$status" "signup-$1"
}

# The walker: no login exists until it signs up (compose makes none), and every step below logs
# in to the broker as it with the account's password.
sign_up "$walker" "$walker_password"
echo "[smoke] web over HTTPS (test CA checked): the walker $walker signed up"

# Beyond the host: TLS answers, plain MQTT does not. On this host's other address (not loopback)
# the TLS port and web's HTTPS port are open and the plain port closed; on loopback the plain
# port is open.
address=$(hostname -I 2> /dev/null | tr ' ' '\n' | grep -v '^127\.' | grep -m1 '^[0-9.]*$' || true)
[ -n "$address" ] || address=$("$docker" network inspect bridge -f '{{range .IPAM.Config}}{{.Gateway}}{{end}}')
[ -n "$address" ] || fail "found no non-loopback address of this host to check the published ports"
(echo > "/dev/tcp/$address/$tls_port") 2> /dev/null || fail "TLS port $tls_port is not reachable on $address"
! (echo > "/dev/tcp/$address/$local_port") 2> /dev/null || fail "plain MQTT port $local_port is reachable on $address (must be 127.0.0.1 only)"
(echo > "/dev/tcp/127.0.0.1/$local_port") 2> /dev/null || fail "plain MQTT port $local_port is not reachable on 127.0.0.1"
(echo > "/dev/tcp/$address/$web_port") 2> /dev/null || fail "web's HTTPS port $web_port is not reachable on $address"
# Published: the broker (TLS, and plain on loopback) and web's HTTPS port, nothing else (no
# metrics, no plain HTTP).
published=$("$docker" ps --filter "label=com.docker.compose.project=$project" --format '{{.Names}} {{.Ports}}' | grep -- '->' || true)
echo "[smoke] published: $(echo "$published" | tr '\n' ';')"
[ "$(echo "$published" | grep -c -- '->')" = 2 ] && echo "$published" | grep -q broker && echo "$published" | grep -q web \
    || fail "only the broker and web may publish ports, got: $published"
web_targets=$(echo "$published" | grep web | grep -o -- '->[0-9]*/[a-z]*' | sort -u)
[ "$web_targets" = "->8443/tcp" ] || fail "web publishes something other than its HTTPS port 8443: $web_targets"
plain_http=$(curl --silent --max-time 10 -o /dev/null -w '%{http_code}' "http://127.0.0.1:$web_port/v1/sessions" || true)
[ "$plain_http" = 000 ] || fail "web answered plain HTTP on its published port (HTTP $plain_http): it must speak HTTPS only"
if tool "$project-tls" mosquitto_pub -h localhost -p "$tls_port" -u "$walker" -P "$walker_password" \
        -t "safewalk/$walker/presence" -m online > "$work/plain-on-tls.log" 2>&1; then
    fail "plain MQTT was accepted on the TLS port"
fi
echo "[smoke] $address: TLS and HTTPS ports open, plain port closed; plain MQTT refused on the TLS port, plain HTTP on the HTTPS port"

# Publish and subscribe over TLS: a fix goes in, location-ingest's position comes back.
tool "$project-position" mosquitto_sub "${tls_args[@]}" -t "safewalk/$walker/position" -C 1 -W 30 \
    > "$work/position.log" 2>&1 &
position_pid=$!
sleep 2
tool "$project-tls" mosquitto_pub "${tls_args[@]}" -q 1 -t "safewalk/$walker/fix" \
    -m "{\"v\":1,\"lat\":30.123456,\"lon\":-97.654321,\"tst\":$(date +%s),\"acc\":5}" > "$work/tls-publish.log" 2>&1 \
    || fail "publishing a fix over TLS failed: $(cat "$work/tls-publish.log")"
wait "$position_pid" || true
grep -q '30.123456' "$work/position.log" || fail "no position for the fix published over TLS: $(cat "$work/position.log")"
echo "[smoke] over TLS: fix published, position received"

# The walk: the CLI through the loopback plain port (it has no TLS options), the alert over TLS.
tool "$project-alert" mosquitto_sub "${tls_args[@]}" -t "safewalk/$walker/alert" -C 1 -W "${SMOKE_ALERT_TIMEOUT:-60}" \
    > "$work/alert.log" 2>&1 &
alert_pid=$!
cli=(--port "$local_port" --username "$walker" --password "$walker_password")
tool "$project-watch" safewalk watch "$walker" "${cli[@]}" > "$work/watch.log" 2>&1 &
tool "$project-contact" safewalk contact add "$walker" Mom "512 555 0100" "${cli[@]}" | tee "$work/contact.log"
grep -q '^ok' "$work/contact.log" || fail "contact add did not say ok"
tool "$project-walker" safewalk simulate --walker "$walker" "${cli[@]}" \
    --interval 1 --go-silent-after 1s --duration "${SMOKE_ALERT_TIMEOUT:-60}" > "$work/walker.log" 2>&1 &
wait "$alert_pid" || true
echo "[smoke] alert: $(cat "$work/alert.log")"
grep -q '"tel:' "$work/alert.log" && grep -q '"sms:' "$work/alert.log" || fail "no alert with tel: and sms: actions"

# The SMS, as the gateway received it.
sms=$(smoke_sms_to "$contact_phone") || fail "no SMS to $contact_phone"
echo "[smoke] SMS: $sms"
echo "$sms" | grep -qF "\"from\": \"$sms_from\"" || fail "the SMS did not come from $sms_from (SAFEWALK_SMS_TEMPLATE not passed?)"
echo "$sms" | grep -qF 'https://maps.google.com/?q=' || fail "the SMS has no maps link"

# The contact's live page from the link in their text, over HTTPS, and the map library web serves
# from the image's libjs-leaflet.
page_path=$(echo "$sms" | grep -o "https://127.0.0.1:$web_port/i/[A-Za-z0-9_-]*" | head -1 | sed "s|https://127.0.0.1:$web_port||")
[ -n "$page_path" ] || fail "the SMS has no live page link (SAFEWALK_PUBLIC_URL not passed?)"
status=$(web page GET "$page_path")
expect_status "the contact's live page" 200 "$status" page
grep -q "$walker" "$work/web-page.log" || fail "the live page does not name $walker"
leaflet=$(grep -o '/static/leaflet/[^"]*\.js' "$work/web-page.log" | head -1)
[ -n "$leaflet" ] || fail "the live page loads no map library"
status=$(web leaflet GET "$leaflet")
expect_status "the map library $leaflet" 200 "$status" leaflet
echo "[smoke] live page: $page_path answers 200 with the walker and its map library"

# ---- Sign up and connect a phone, as README.md tells a person to: web over HTTPS, the OwnTracks
# set-up it hands out, and a phone publishing with that device login over TLS.
sign_up "$person" "$person_password"
status=$(web signin POST /v1/sessions "{\"username\":\"$person\",\"password\":\"$person_password\"}")
expect_status "sign-in as $person" 200 "$status" signin
csrf=$(json signin csrfToken) || fail "web, sign-in: no csrfToken in $(cat "$work/web-signin.log")"
grep -q safewalk_session "$work/cookies" || fail "web, sign-in: no safewalk_session cookie was set"
echo "[smoke] web over HTTPS (test CA checked): $person signed up and signed in"

# ---- The walker's app (issue 20) from the same HTTPS origin: the shell and its modules, then
# the session's own broker login at work: an action posted through web is answered on the app's
# event stream by the watchdog.
status=$(web app GET /)
expect_status "the walker's app" 200 "$status" app
module=$(grep -o '/app/[A-Za-z0-9_-]*/js/main\.js' "$work/web-app.log" | head -1)
[ -n "$module" ] || fail "the walker's app names no js/main.js module"
status=$(web app-module GET "$module")
expect_status "the app's module $module" 200 "$status" app-module
status=$(web current GET /v1/sessions/current)
expect_status "the current session" 200 "$status" current
curl --silent --no-buffer --max-time 40 --cacert "$tls/ca.crt" -b "$work/cookies" \
    "$web_url/v1/app/events" > "$work/app-events.log" 2>> "$work/web-curl.log" &
events_pid=$!
for _ in $(seq 1 100); do grep -q '"state":"connected"' "$work/app-events.log" && break; sleep 0.2; done
grep -q '"state":"connected"' "$work/app-events.log" || fail "the app's event stream never connected: $(cat "$work/app-events.log")"
status=$(web app-publish POST /v1/app/publish '{"kind":"action","payload":{"v":1,"action":"start","id":"smoke-app-1"}}')
expect_status "an action through the app API" 202 "$status" app-publish
for _ in $(seq 1 100); do grep -q 'smoke-app-1' "$work/app-events.log" && break; sleep 0.2; done
grep -q 'smoke-app-1' "$work/app-events.log" || fail "the watchdog's answer never reached the app's stream: $(cat "$work/app-events.log")"
kill "$events_pid" 2> /dev/null || true
status=$(web app-publish-stop POST /v1/app/publish '{"kind":"action","payload":{"v":1,"action":"stop","id":"smoke-app-2"}}')
expect_status "stopping the watch through the app API" 202 "$status" app-publish-stop
echo "[smoke] the walker's app: $module served; an action through the session's broker login answered on its stream"

status=$(web owntracks GET "/v1/accounts/$person/owntracks")
expect_status "OwnTracks set-up" 200 "$status" owntracks
device_user=$(json owntracks config.username)
device_password=$(json owntracks config.password)
[ "$device_user" = "$person.owntracks" ] || fail "OwnTracks set-up: the device login is '$device_user', not $person.owntracks"
setup="$(json owntracks config.host):$(json owntracks config.port) tls=$(json owntracks config.tls)"
[ "$setup" = "localhost:$tls_port tls=true" ] \
    || fail "OwnTracks set-up names the broker as $setup, not the published TLS listener localhost:$tls_port tls=true (SAFEWALK_PUBLIC_MQTT_*)"
# The link a phone opens carries the same configuration.
python3 -c 'import base64, json, sys, urllib.parse
answer = json.load(open(sys.argv[1]))
prefix = "owntracks:///config?inline="
assert answer["link"].startswith(prefix), answer["link"][:40]
assert json.loads(base64.b64decode(urllib.parse.unquote(answer["link"][len(prefix):]))) == answer["config"]' \
    "$work/web-owntracks.log" 2> "$work/web-link.log" || fail "the owntracks:// link does not carry the configuration: $(cat "$work/web-link.log")"
device_topic=$(json owntracks config.pubTopicBase | sed "s/%d/$(json owntracks config.deviceId)/")
echo "[smoke] OwnTracks set-up: $device_user on $setup, publishing to $device_topic"

# The phone: the device login over TLS publishes an OwnTracks location; location-ingest turns it
# into the walker's position, read here with the walker's own login (the broker's `operator` user
# reads no positions: the monitoring desk shows one only during an incident, issue 21).
tool "$project-phone-position" mosquitto_sub -h localhost -p "$tls_port" --cafile /certs/ca.crt -u "$person" \
    -P "$person_password" -t "safewalk/$person/position" -C 1 -W 30 > "$work/phone-position.log" 2>&1 &
phone_position_pid=$!
sleep 2
tool "$project-phone" mosquitto_pub -h localhost -p "$tls_port" --cafile /certs/ca.crt -u "$device_user" \
    -P "$device_password" -i "$(json owntracks config.clientId)" -q 1 -t "$device_topic" \
    -m "{\"_type\":\"location\",\"lat\":30.284912,\"lon\":-97.734117,\"tst\":$(date +%s),\"acc\":8,\"tid\":\"sa\"}" \
    > "$work/phone-publish.log" 2>&1 \
    || fail "the phone could not publish with its device login over TLS: $(cat "$work/phone-publish.log")"
wait "$phone_position_pid" || true
grep -q '30.284912' "$work/phone-position.log" \
    || fail "no position for $person after the phone's OwnTracks location: $(cat "$work/phone-position.log")"
echo "[smoke] the phone's OwnTracks location became $person's position"

# Deleting the account takes the phone's login with it.
status=$(web delete DELETE "/v1/accounts/$person")
expect_status "deleting $person" 200 "$status" delete
[ "$(json delete state)" = erased ] || fail "web, deleting $person: $(cat "$work/web-delete.log")"
if tool "$project-phone" mosquitto_pub -h localhost -p "$tls_port" --cafile /certs/ca.crt -u "$device_user" \
        -P "$device_password" -q 1 -t "$device_topic" -m '{"_type":"location","lat":30.1,"lon":-97.1,"tst":1}' \
        > "$work/phone-after-delete.log" 2>&1; then
    fail "the device login $device_user still works after the account was deleted"
fi
grep -qi 'not authori' "$work/phone-after-delete.log" \
    || fail "the device login failed after deletion, but not as refused: $(cat "$work/phone-after-delete.log")"
if tool "$project-phone" mosquitto_pub -h localhost -p "$tls_port" --cafile /certs/ca.crt -u "$person" \
        -P "$person_password" -t "safewalk/$person/presence" -m online > "$work/account-after-delete.log" 2>&1; then
    fail "$person's own broker login still works after the account was deleted"
fi
csrf=
status=$(web signin-after-delete POST /v1/sessions "{\"username\":\"$person\",\"password\":\"$person_password\"}")
expect_status "sign-in after deletion" 401 "$status" signin-after-delete
echo "[smoke] $person deleted: erased, the device login and the account's broker login refused, sign-in 401"
ok=true
