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
