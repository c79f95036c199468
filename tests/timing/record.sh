#!/bin/sh
# record.sh OUTDIR: records the timing suite on the GPU with Nsight Compute.
# Run from a folder holding tests/timing/ and hw_record (built from
# tests/timing/hw_record.c against build/libwarpsim.a, see docs/timing-suite.md).
# Every launch of families.txt and microbench.txt runs once under ncu with
# caches flushed before each replay pass and clocks locked at base; the
# microbenchmarks also run once without ncu.  Writes into OUTDIR: env.txt,
# log.txt, suite.csv + suite.jsonl (suite2.* a second time), micro.csv + micro.jsonl, micro-plain.jsonl,
# sass.txt (the machine code of every kernel);
# tests/timing/ncu2json.py turns them into traces/hw/timing-*.json.
set -u
out=${1:?usage: record.sh OUTDIR}
log=$out/log.txt
rec=./hw_record
{ date -u; nvidia-smi; ncu --version; nvcc --version; uname -a; } >"$out/env.txt" 2>&1

# Chase buffers for microbench.txt: next[k*stride] = ((k+1) % nodes) * stride.
python3 - >>"$log" 2>&1 <<'EOF'
import numpy as np
def chase(path, words, stride):
    nodes = words // stride
    a = np.zeros(words, dtype=np.uint32)
    k = np.arange(nodes, dtype=np.int64)
    a[k * stride] = ((k + 1) % nodes * stride).astype(np.uint32)
    a.tofile(path)
    print("chase", path, words, "words", nodes, "nodes of", stride * 4, "bytes")
chase("/tmp/chase_16k.bin", 4096, 32)
chase("/tmp/chase_8m.bin", 2097152, 32)
chase("/tmp/chase_256m.bin", 67108864, 1056)
EOF

# The metrics we want.  If ncu refuses the list, those whose base name its
# --query-metrics does not know are dropped (and named in the log); if it
# still refuses, sections alone are collected.
want="gpc__cycles_elapsed.max gpc__cycles_elapsed.avg sm__cycles_elapsed.avg sm__cycles_elapsed.max
sm__cycles_active.avg sm__cycles_active.max smsp__cycles_active.avg gpu__time_duration.sum
sm__warps_active.avg.pct_of_peak_sustained_active sm__maximum_warps_per_active_cycle_pct
l1tex__t_sector_hit_rate.pct lts__t_sector_hit_rate.pct dram__bytes_read.sum dram__bytes_write.sum
l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum
l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum
l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum
l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum lts__t_sectors_srcunit_tex_op_read.sum
lts__t_sectors_op_red.sum lts__t_sectors_op_atom.sum smsp__inst_executed.sum smsp__issue_active.avg.per_cycle_active
sm__ctas_launched.sum"
sections="--section WarpStateStats --section Occupancy --section LaunchStats"
common="--cache-control all --clock-control base"
try() { ncu $common $sections ${1:+--metrics $1} --launch-count 1 $rec tests/timing/families.txt occupancy >>"$log" 2>&1; }
metrics=$(echo $want | tr ' ' ',')
if ! try "$metrics"; then
    ncu --query-metrics --chip gh100 >/tmp/ncu-metrics.txt 2>&1
    metrics=""
    for m in $want; do
        if grep -q "^${m%%.*}[[:space:]]" /tmp/ncu-metrics.txt; then metrics="$metrics${metrics:+,}$m"
        else echo "metric dropped (unknown base name): $m" >>"$log"; fi
    done
    if [ -z "$metrics" ] || ! try "$metrics"; then
        echo "ncu refused the metric list; falling back to sections" >>"$log"
        metrics=""
        sections="$sections --section SpeedOfLight --section MemoryWorkloadAnalysis_Tables"
    fi
fi
echo "metrics: $metrics" >>"$log"
mflag=${metrics:+--metrics $metrics}

run() { # NAME LIST
    ncu $common $sections $mflag -f -o "/tmp/$1" $rec "tests/timing/$2" >"/tmp/$1.out" 2>>"$log"
    echo "ncu $1: exit $?" >>"$log"
    grep '^{' "/tmp/$1.out" >"$out/$1.jsonl"
    grep -v '^{' "/tmp/$1.out" >>"$log"
    ncu --import "/tmp/$1.ncu-rep" --csv --page raw --print-units base >"$out/$1.csv" 2>>"$log"
}
run suite families.txt
run suite2 families.txt          # the same again: run-to-run spread
run micro microbench.txt
$rec tests/timing/microbench.txt >"$out/micro-plain.jsonl" 2>>"$log"
echo "plain microbench: exit $?" >>"$log"

# The machine code of every suite kernel, for reading what the GPU ran
# (toolkit ptxas; the driver's own JIT compiles the same PTX at load time).
for f in tests/timing/*.ptx; do
    echo "=== $f"
    ptxas -arch=sm_90 -O3 "$f" -o /tmp/k.cubin && cuobjdump -sass /tmp/k.cubin
done >"$out/sass.txt" 2>&1
