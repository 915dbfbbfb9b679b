#!/usr/bin/env bash
# Fuzzes every payload decoder with libFuzzer (coverage-guided) plus AddressSanitizer.
#   Fuzz/run.sh [SECONDS]      default 60; the report in BENCHMARKS.md used 600
# Crashes are written to Fuzz/crashes/; the seed corpus is Fuzz/corpus/ (grown in a copy).
set -euo pipefail
cd "$(dirname "$0")"
seconds=${1:-60}
mkdir -p .build crashes
swiftc -sanitize=fuzzer,address -parse-as-library -O -g \
    -module-name SafeWalkCoreFuzz $(find ../Shared/SafeWalkCore -name '*.swift' | sort) \
    ../Services/notifier/Kit/PercentEncoding.swift FuzzPayloadDecoders.swift \
    -o .build/fuzz-decoders
work=$(mktemp -d)
cp corpus/* "$work"/
./.build/fuzz-decoders "$work" -max_total_time="$seconds" -max_len=4096 -rss_limit_mb=4096 \
    -artifact_prefix=crashes/ -print_final_stats=1 2>&1 | tail -25
rm -rf "$work"
