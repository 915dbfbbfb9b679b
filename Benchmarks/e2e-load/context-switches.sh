#!/usr/bin/env bash
# Context switches per second of each SafeWalk service and of mosquitto, all threads summed
# (voluntary + involuntary, /proc/PID/task/*/status), over SECONDS while a stack runs:
# how often each process is woken, which instruction counts do not show (BENCHMARKS.md).
#
#   .build/release/e2e-load-bench run --walkers 20000 --silent 200 --window 90 &
#   sleep 85; bash Benchmarks/e2e-load/context-switches.sh 30
set -euo pipefail
seconds=${1:-30}

switches() {  # pid
    local total=0 task
    for task in /proc/"$1"/task/*/status; do
        total=$((total + $(awk '/ctxt_switches/ { s += $2 } END { print s + 0 }' "$task" 2>/dev/null || echo 0)))
    done
    echo "$total"
}

declare -A pid before
for name in location-ingest watchdog companion-chat notifier contacts-store mosquitto; do
    if [ "$name" = mosquitto ]; then
        pid[$name]=$(pgrep -x mosquitto | head -1 || true)
    else
        pid[$name]=$(pgrep -f "release/$name\$" | head -1 || true)
    fi
    [ -n "${pid[$name]}" ] && before[$name]=$(switches "${pid[$name]}")
done
sleep "$seconds"
for name in "${!before[@]}"; do
    echo "$name $(( ($(switches "${pid[$name]}") - ${before[$name]}) / seconds ))/s"
done | sort
