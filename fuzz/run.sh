#!/bin/sh
# Runs every fuzz target (or the ones named) for SECONDS seconds each (default 60) and prints how long each ran.
#
#   fuzz/run.sh                 # all four targets, 60 s each
#   SECONDS_EACH=600 fuzz/run.sh normalize validate
#
# It needs cargo-fuzz (`cargo install cargo-fuzz`) and a nightly toolchain (`cargo +nightly`); the corpus comes from
# `python3 fuzz/seed.py`. Crashes and timeouts land in fuzz/artifacts/<target>/; each becomes a regression test.
set -u
cd "$(dirname "$0")"
failed=""
seconds="${SECONDS_EACH:-60}"
targets="${*:-resolve normalize validate batch_line}"
for target in $targets; do
    mkdir -p "corpus/$target"
    start=$(date +%s)
    echo "fuzz: $target for ${seconds} s, started $(date -u +%Y-%m-%dT%H:%M:%SZ)"
    # -timeout makes an input slower than 10 s a finding; -rss_limit_mb one that needs more than 4 GiB.
    if cargo +nightly fuzz run "$target" "corpus/$target" -- \
        -max_total_time="$seconds" -timeout=10 -rss_limit_mb=4096 -print_final_stats=1; then
        outcome="no finding"
    else
        outcome="a FINDING in artifacts/$target/"
        failed="$failed $target"
    fi
    end=$(date +%s)
    echo "fuzz: $target ran $((end - start)) s in all (build and corpus load included): $outcome"
done
if [ -n "$failed" ]; then
    echo "fuzz: findings in:$failed"
    exit 1
fi
