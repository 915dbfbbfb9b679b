# Shared by the compose smoke tests (compose/smoke.sh, compose/cluster/smoke.sh; source it from
# the repository root): the compose command, the offline Swift package mirror in the build
# context, free ports and throwaway passwords.

# Sets the array `compose`: $COMPOSE if given, else `docker compose` (v2), else docker-compose.
smoke_compose_command() {
    if [ -n "${COMPOSE:-}" ]; then
        read -ra compose <<< "$COMPOSE"
    elif "${docker:-docker}" compose version > /dev/null 2>&1; then
        compose=("${docker:-docker}" compose)
    elif command -v docker-compose > /dev/null; then
        compose=(docker-compose)
    else
        echo "[smoke] neither 'docker compose' nor docker-compose is installed" >&2
        return 1
    fi
}

# The local base images (compose/local-images.sh) when they exist and none was named.
smoke_base_images() {
    if [ -z "${SAFEWALK_SWIFT_IMAGE:-}" ] && "${docker:-docker}" image inspect safewalk/swift-builder > /dev/null 2>&1; then
        export SAFEWALK_SWIFT_IMAGE=safewalk/swift-builder SAFEWALK_RUNTIME_IMAGE=${SAFEWALK_RUNTIME_IMAGE:-safewalk/bookworm}
    fi
}

# Offline machines resolve Swift packages through a git `insteadOf` mirror: stage the mirrored
# repositories in the build context (compose/.offline, git-ignored) so the builder can use them.
smoke_stage_swift_mirror() {
    local mirror
    mirror=$(git config --get-regexp '^url\..*\.insteadof$' 2>/dev/null | awk '$2 == "https://github.com/" { print $1; exit }' \
        | sed -E 's/^url\.(.*)\.insteadof$/\1/')
    if [ -n "$mirror" ] && [ -d "$mirror" ]; then
        echo "[smoke] staging the Swift package mirror $mirror"
        # All of it: Package.resolved is not committed, and a newly added package brings new ones.
        mkdir -p compose/.offline/swift-packages
        cp -a "$mirror/." compose/.offline/swift-packages/
    fi
}

# A port nothing listens on, none of those given.
smoke_free_port() {
    local port=$((20000 + RANDOM % 20000))
    while (echo > "/dev/tcp/127.0.0.1/$port") 2> /dev/null || [[ " $* " == *" $port "* ]]; do
        port=$((20000 + RANDOM % 20000))
    done
    echo "$port"
}

smoke_password() { head -c 18 /dev/urandom | base64 | tr -d '/+='; }

# A test CA and a server certificate, as compose/README.md tells operators to provide them:
# $1/tls/{ca.crt,server.crt,server.key}, the certificate for the subject alternative names $2
# (`DNS:localhost,IP:127.0.0.1`). The services run as other users; these throwaway files are
# simply world-readable. openssl's output goes to $1/openssl.log.
smoke_test_certificates() {  # work-directory names
    local tls=$1/tls
    mkdir -p "$tls"
    openssl req -x509 -newkey rsa:2048 -days 2 -nodes -keyout "$1/ca.key" -out "$tls/ca.crt" \
        -subj /CN=safewalk-smoke-ca > "$1/openssl.log" 2>&1
    openssl req -newkey rsa:2048 -nodes -keyout "$tls/server.key" -out "$1/server.csr" -subj /CN=localhost \
        >> "$1/openssl.log" 2>&1
    printf 'subjectAltName=%s\n' "$2" > "$1/san.ext"
    openssl x509 -req -in "$1/server.csr" -CA "$tls/ca.crt" -CAkey "$1/ca.key" -CAcreateserial -days 2 \
        -extfile "$1/san.ext" -out "$tls/server.crt" >> "$1/openssl.log" 2>&1
    chmod 755 "$1" "$tls" && chmod 644 "$tls"/*
}

# Waits until each compose service given is healthy, within $1 seconds for all; fails (the
# caller's `fail`) naming the first that is not, with its last log lines. Needs the caller's `dc`.
smoke_wait_healthy() {  # timeout service...
    local deadline=$((SECONDS + $1)) timeout=$1 service id health
    shift
    for service in "$@"; do
        while true; do
            id=$(dc ps -q "$service")
            health=$([ -n "$id" ] && "${docker:-docker}" inspect -f '{{.State.Health.Status}}' "$id" 2> /dev/null || echo missing)
            [ "$health" = healthy ] && break
            [ $SECONDS -lt $deadline ] \
                || fail "$service is $health after $timeout s; its last lines: $(dc logs --no-color --tail 5 "$service" 2>&1 | tail -5)"
            sleep 2
        done
    done
}

# The end of a smoke test, from its EXIT trap: on failure (`ok` false) compose's view, the last
# lines of every log and the test's own files in $work matching $2; always `down -v` and the
# work directory gone. Exits 1 unless the test passed.
smoke_finish() {  # tag file-glob
    trap - EXIT INT TERM
    if ! $ok; then
        echo "[$1] FAILED; logs:" >&2
        dc ps >&2 || true
        dc logs --no-color --tail 80 >&2 || true
        local file
        for file in "$work"/$2; do [ -f "$file" ] && { echo "--- $file" >&2; cat "$file" >&2; }; done
    fi
    dc down -v --remove-orphans > /dev/null 2>&1 || true
    rm -rf "$work"
    $ok && echo "[$1] passed" || exit 1
}

# The env-file lines that point the notifier's sms-http channel at the fake Twilio on the
# `backend` network (Twilio's own URL shape, basic auth, a From number), as README.md documents
# it, and tell the fake gateway the account it accepts.
smoke_twilio_env() {  # account-sid auth-token from-number
    cat <<ENV
SAFEWALK_SMS_URL=http://fake-sms:8080/2010-04-01/Accounts/$1/Messages.json
SAFEWALK_SMS_USER=$1
SAFEWALK_SMS_PASSWORD=$2
SAFEWALK_SMS_TEMPLATE='From=%2B${3#+}&To={phone}&Body={message}'
SMOKE_SMS_SID=$1
SMOKE_SMS_TOKEN=$2
ENV
}

# The env-file lines that build the images from the base images chosen (smoke_base_images) and
# tag them `smoke`.
smoke_image_env() {
    cat <<ENV
SAFEWALK_SWIFT_IMAGE=${SAFEWALK_SWIFT_IMAGE:-swift:6.1-bookworm}
SAFEWALK_RUNTIME_IMAGE=${SAFEWALK_RUNTIME_IMAGE:-debian:bookworm-slim}
SAFEWALK_BUILD_CONFIGURATION=${SAFEWALK_BUILD_CONFIGURATION:-release}
SAFEWALK_IMAGE_TAG=smoke
ENV
}

# Env-file lines: a random password for each of the five services' broker logins.
smoke_service_passwords() {
    local service
    for service in LOCATION_INGEST WATCHDOG COMPANION_CHAT NOTIFIER CONTACTS_STORE; do
        echo "${service}_MQTT_PASSWORD=$(smoke_password)"
    done
}

# Prints the first text the fake Twilio accepted for phone $1 (a JSON line), waiting up to 30 s;
# without one, says on stderr what the gateway saw and returns 1. A caller in `$(…)` must check
# the status (`|| exit 1`): a failure inside a command substitution stops only the subshell.
# Needs the caller's `dc` and `work`.
smoke_sms_to() {  # phone
    local deadline=$((SECONDS + 30))
    while true; do
        dc exec -T fake-sms cat /tmp/messages.jsonl > "$work/sms.log" 2> /dev/null || true
        grep -m1 "\"to\": \"$1\"" "$work/sms.log" && return 0
        if [ $SECONDS -ge $deadline ]; then
            echo "the fake SMS gateway accepted no text for $1 within 30 s after the alert; it saw: $(dc logs --no-color fake-sms 2>&1 | grep -E 'To=|refused' | tr '\n' ' ')" >&2
            return 1
        fi
        sleep 1
    done
}
