#!/usr/bin/env bash
# Makes the two base images the Dockerfile needs on a machine that reaches Debian's mirror but
# no image registry:
#   safewalk/bookworm        Debian 12 minbase from debootstrap   (stands in for debian:bookworm-slim)
#   safewalk/swift-builder   that + build packages + the host's Swift toolchain (for swift:6.1-bookworm)
# Then: SAFEWALK_SWIFT_IMAGE=safewalk/swift-builder SAFEWALK_RUNTIME_IMAGE=safewalk/bookworm docker compose build
#   SWIFT_TOOLCHAIN   the toolchain root holding usr/bin/swift (default: from `command -v swift`)
#   DOCKER            the docker client (default: docker)
# Needs root (debootstrap) and the debootstrap package. Images that already exist are kept.
set -euo pipefail
docker=${DOCKER:-docker}
here=$(cd "$(dirname "$0")" && pwd)

if ! "$docker" image inspect safewalk/bookworm > /dev/null 2>&1; then
    command -v debootstrap > /dev/null || { echo "debootstrap is not installed: apt-get install debootstrap" >&2; exit 1; }
    rootfs=$(mktemp -d /tmp/safewalk-rootfs.XXXXXX)
    trap 'rm -rf "$rootfs"' EXIT
    echo "[local-images] debootstrap bookworm (a few minutes)"
    debootstrap --variant=minbase bookworm "$rootfs" > "$rootfs.log" 2>&1 || { tail -20 "$rootfs.log" >&2; exit 1; }
    tar -C "$rootfs" -c . | "$docker" import - safewalk/bookworm
    rm -rf "$rootfs" "$rootfs.log"
fi

if ! "$docker" image inspect safewalk/swift-builder > /dev/null 2>&1; then
    toolchain=${SWIFT_TOOLCHAIN:-$(dirname "$(dirname "$(dirname "$(readlink -f "$(command -v swift)")")")")}
    [ -x "$toolchain/usr/bin/swift" ] || { echo "no Swift toolchain at $toolchain (set SWIFT_TOOLCHAIN)" >&2; exit 1; }
    echo "[local-images] swift-builder from $toolchain"
    "$docker" build -t safewalk/swift-builder -f "$here/swift-builder.Dockerfile" "$toolchain"
fi
"$docker" image ls 'safewalk/*'
