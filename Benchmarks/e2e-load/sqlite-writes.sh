#!/usr/bin/env bash
# SQLite's writes per second by one service while a stack runs: `pwrite64` calls (in WAL mode
# two per page a commit writes: the frame's header, then the page) and `fdatasync` calls (the
# checkpoints), all threads, counted by `strace -c` over SECONDS. How often a service commits
# at walking pace, which instruction counts do not show (BENCHMARKS.md). strace slows the
# traced process; the counts, not its CPU, are the figure. Needs `strace` (Debian package).
#
#   .build/release/e2e-load-bench run --walkers 1000 --silent 10 --window 60 &
#   sleep 75; bash Benchmarks/e2e-load/sqlite-writes.sh 30 watchdog
set -euo pipefail
seconds=${1:-30}
service=${2:-watchdog}
pid=$(pgrep -f "release/$service\$" | head -1 || true)
[ -n "$pid" ] || { echo "no running $service" >&2; exit 1; }
out=$(mktemp)
timeout "$seconds" strace -f -c -e trace=pwrite64,fdatasync -p "$pid" 2> "$out" || true
for call in pwrite64 fdatasync; do
    calls=$(awk -v c="$call" '$NF == c { print $4 + 0 }' "$out" | tail -1)
    echo "$service $call $(( ${calls:-0} / seconds ))/s"
done
rm -f "$out"
