#!/bin/sh
# same_results.sh OUT_DIR [WARPSIM]: run every launch line of every lesson's
# xcheck.txt (plus the benchmark's reduction) under three schedules, with
# race checking and a memory-level trace, and write what each printed (the
# JSON report without its seconds) and the trace's text dump into OUT_DIR,
# one file per launch.  Run it with two builds and `diff -r` the folders:
# a change that makes the executor faster must leave them byte-identical.
set -u
out=$1
w=${2:-build/warpsim}
mkdir -p "$out"
n=0
for f in lessons/[0-9]*/xcheck.txt; do
    dir=$(dirname "$f")
    grep -v '^[[:space:]]*#' "$f" | grep -v '^[[:space:]]*$' | sed 's/^order-dependent [0-9]* [^ ]* //' | while IFS= read -r line; do
        for sched in roundrobin random adversarial; do
            n=$((n + 1))
            tag="$(basename "$dir")-$(printf '%s' "$line" | cksum | cut -d' ' -f1)-$sched"
            # shellcheck disable=SC2086
            eval "$w run $dir/kernel.ptx $line --schedule $sched --seed 7 --check races --json --quiet \
                --trace $out/$tag.wst --trace-level memory" 2>&1 | sed 's/"seconds": [0-9.e+-]*//' > "$out/$tag.out"
            [ -f "$out/$tag.wst" ] && $w trace dump "$out/$tag.wst" > "$out/$tag.trace" 2>&1
            rm -f "$out/$tag.wst"
        done
    done
done
for sched in roundrobin random adversarial; do
    $w run tests/kernels/bench.ptx --kernel bench_reduce --grid 600 --block 256 --arg buf:i32[153600]=rand:3 \
        --arg buf:i32[600]=fill:0 --arg i32:153600 --schedule $sched --seed 5 --json --quiet \
        --trace "$out/bench-$sched.wst" --trace-level warps 2>&1 | sed 's/"seconds": [0-9.e+-]*//' > "$out/bench-$sched.out"
    $w trace dump "$out/bench-$sched.wst" > "$out/bench-$sched.trace" 2>&1
    rm -f "$out/bench-$sched.wst"
done
ls "$out" | wc -l
