#!/usr/bin/env python3
# ncu2json.py DIR: turns what tests/timing/record.sh wrote into DIR (env.txt,
# suite.csv + suite.jsonl, micro.csv + micro.jsonl, micro-plain.jsonl) into
# traces/hw/timing-h100.json (one launch a line: family, launch, kernel,
# metrics) and traces/hw/timing-microbench-h100.json.  Nsight Compute's rows
# come in launch order and are paired with the recorder's lines by position;
# the kernel names must agree.
import csv, json, re, sys

d = sys.argv[1]
out_suite = sys.argv[2] if len(sys.argv) > 2 else "traces/hw/timing-h100.json"
out_micro = sys.argv[3] if len(sys.argv) > 3 else "traces/hw/timing-microbench-h100.json"

env = open(f"{d}/env.txt").read()
def grab(pat, default="?"):
    m = re.search(pat, env)
    return m.group(1).strip() if m else default
machine = {
    "gpu": grab(r"\|\s+\d+\s+(NVIDIA [^|]*?)\s{2,}"),
    "driver": grab(r"Driver Version:\s*(\S+)"),
    "cuda": grab(r"release ([\d.]+, V[\d.]+)"),
    "ncu": grab(r"Version ([\d.]+)"),
    "date": grab(r"^\w{3} (\w{3} +\d+ [\d:]+ \w+ UTC \d+)"),
}

# Metrics kept per launch (Nsight Compute names), and the short names of the
# stall reasons (smsp__average_warps_issue_stalled_<reason>_per_issue_active.ratio:
# warps stalled for that reason per issued instruction).
KEEP = [
    "gpc__cycles_elapsed.max", "gpc__cycles_elapsed.avg", "sm__cycles_elapsed.avg", "sm__cycles_elapsed.max",
    "sm__cycles_active.avg", "sm__cycles_active.max", "smsp__cycles_active.avg", "gpu__time_duration.sum",
    "sm__warps_active.avg.pct_of_peak_sustained_active", "sm__maximum_warps_per_active_cycle_pct",
    "l1tex__t_sector_hit_rate.pct", "lts__t_sector_hit_rate.pct", "dram__bytes_read.sum", "dram__bytes_write.sum",
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum", "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum",
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
    "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",
    "l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum", "lts__t_sectors_srcunit_tex_op_read.sum",
    "lts__t_sectors_op_red.sum", "lts__t_sectors_op_atom.sum", "smsp__inst_executed.sum",
    "smsp__issue_active.avg.per_cycle_active", "smsp__average_warps_active_per_inst_executed.ratio",
    "sm__ctas_launched.sum", "launch__registers_per_thread", "launch__shared_mem_config_size",
    "launch__occupancy_limit_blocks", "launch__occupancy_limit_registers", "launch__occupancy_limit_shared_mem",
    "launch__occupancy_limit_warps", "launch__occupancy_limit_barriers", "launch__waves_per_multiprocessor",
]
STALL = re.compile(r"^smsp__average_warps_issue_stalled_(\w+)_per_issue_active\.ratio$")

def num(s):
    s = s.replace(",", "")
    try:
        v = float(s)
    except ValueError:
        return None
    return int(v) if v.is_integer() and abs(v) < 2**53 else v

def load(name):
    rows = list(csv.reader(open(f"{d}/{name}.csv")))
    head, units, data = rows[0], rows[1], rows[2:]
    recs = [json.loads(l) for l in open(f"{d}/{name}.jsonl") if l.startswith("{")]
    if len(recs) != len(data):
        sys.exit(f"{name}: {len(recs)} launches but {len(data)} ncu rows")
    out = []
    for rec, row in zip(recs, data):
        col = dict(zip(head, row))
        if col["Kernel Name"] != rec["kernel"]:
            sys.exit(f"{name}: launch {rec['launch']} is {rec['kernel']} but ncu row says {col['Kernel Name']}")
        m = {"cycles": num(col["gpc__cycles_elapsed.max"]),
             "achieved_occupancy_pct": num(col["sm__warps_active.avg.pct_of_peak_sustained_active"])}
        for k in KEEP:
            if k in col and num(col[k]) is not None:
                m[k] = num(col[k])
        stalls = {}
        for k, v in col.items():
            s = STALL.match(k)
            if s and num(v) is not None:
                stalls[s.group(1)] = num(v)
        m["stalls"] = dict(sorted(stalls.items(), key=lambda kv: -kv[1]))
        out.append({"family": rec["family"], "launch": rec["launch"], "kernel": rec["kernel"],
                    "grid": rec["grid"], "block": rec["block"], "smem": rec["smem"], "carveout": rec["carveout"],
                    "regs": rec.get("regs"), "metrics": m, "buffers": rec.get("buffers", [])})
    return out

suite = load("suite")
try:  # record.sh profiles the suite twice: the second run's cycles show the spread
    for r, r2 in zip(suite, load("suite2")):
        r["metrics"]["cycles_repeat"] = r2["metrics"]["cycles"]
except FileNotFoundError:
    pass
with open(out_suite, "w") as f:
    f.write("{\"what\": \"tests/timing/families.txt on the GPU under Nsight Compute (tests/timing/record.sh)\",\n")
    f.write(" \"machine\": %s,\n" % json.dumps(machine))
    f.write(" \"ncu\": \"--cache-control all --clock-control base; one replayed profile a launch\",\n")
    f.write(" \"cycles\": \"gpc__cycles_elapsed.max: the kernel's elapsed cycles (Nsight Compute's Elapsed Cycles)\",\n")
    f.write(" \"cycles_repeat\": \"cycles of the same launch in a second profile of the whole suite\",\n")
    f.write(" \"achieved_occupancy_pct\": \"sm__warps_active.avg.pct_of_peak_sustained_active\",\n")
    f.write(" \"stalls\": \"smsp__average_warps_issue_stalled_<reason>_per_issue_active.ratio, largest first\",\n")
    f.write(" \"launches\": [\n")
    for i, r in enumerate(suite):
        r = dict(r)
        r.pop("buffers")
        f.write("  " + json.dumps(r) + (",\n" if i + 1 < len(suite) else "\n"))
    f.write(" ]}\n")

# ---- microbenchmarks ---------------------------------------------------
micro = {(r["family"], r["launch"]): r for r in load("micro")}
plain = {}
for l in open(f"{d}/micro-plain.jsonl"):
    if l.startswith("{"):
        r = json.loads(l)
        plain[(r["family"], r["launch"])] = r

def outv(r, i):  # out[i] of a microbenchmark: the u64 buffer of 4
    for b in r["buffers"]:
        if b["count"] == 4:
            return b["values"][i]
    return None

def per_step(fam, a, b, na, nb, src, idx=0):
    ra, rb = src[(fam, a)], src[(fam, b)]
    return (outv(rb, idx) - outv(ra, idx)) / (nb - na)

res = {}
def lat(key, fam, a, b, na, nb, how, ns=False):
    e = {"how": how,
         "cycles_base_clock": round(per_step(fam, a, b, na, nb, micro), 2),
         "cycles_boost_clock": round(per_step(fam, a, b, na, nb, plain), 2)}
    if ns:
        e["ns_base_clock"] = round(per_step(fam, a, b, na, nb, micro, 1), 2)
        e["ns_boost_clock"] = round(per_step(fam, a, b, na, nb, plain, 1), 2)
    res[key] = e

lat("fma_dependent_latency", "fma_latency", "n1024", "n8192", 1024, 8192,
    "one thread, a chain of dependent fmaf (FFMA), clock64 around it; (cycles(8192) - cycles(1024)) / 7168")
lat("smem_load_latency", "smem_latency", "n1024", "n8192", 1024, 8192,
    "one thread chasing j = s[j] through shared memory; difference of 8192 and 1024 steps / 7168 "
    "(includes the address arithmetic of the chase, about one IMAD/LEA)")
lat("l1_hit_latency", "l1_hit_latency", "n1024", "n4096", 1024, 4096,
    "one thread chasing next[j] (ld.global, L1-cached) around 128 nodes 128 B apart (16 KB), after a warm lap; "
    "difference of 4096 and 1024 steps / 3072", ns=True)
lat("l2_hit_latency", "l2_hit_latency", "n4096", "n16384", 4096, 16384,
    "one thread chasing next[j] with ld.global.cg (L1 bypassed) over 65536 nodes 128 B apart (8 MB), after one "
    "full warm lap; difference of 16384 and 4096 steps / 12288", ns=True)
lat("l2_hit_latency_through_l1_miss", "l2_hit_latency", "ca_n4096", "ca_n16384", 4096, 16384,
    "as l2_hit_latency but with the L1-cached load: every step an L1 miss that hits L2", ns=True)
lat("dram_latency", "dram_latency", "n2048", "n8192", 2048, 8192,
    "one thread chasing next[j] with ld.global.cg through a 256 MB buffer, nodes 4224 B apart, cold (caches "
    "flushed by ncu; the plain run starts after the buffer's upload, whose first part has left L2); "
    "difference of 8192 and 2048 steps / 6144; includes TLB misses of a new 4 KB region each step", ns=True)
a4, a16 = micro[("atomic_one_address", "i4")], micro[("atomic_one_address", "i16")]
n4, n16 = 132 * 256 * 4, 132 * 256 * 16
c4, c16 = a4["metrics"]["cycles"], a16["metrics"]["cycles"]
res["atomic_one_address_throughput"] = {
    "how": "132 x 256 threads each atomicAdd(p, 1) 4 or 16 times; Nsight Compute gpc__cycles_elapsed.max at "
           "base clock; (atomics(16) - atomics(4)) / (cycles(16) - cycles(4)).  ptxas aggregates these per warp "
           "(VOTEU.ANY, UFLO, POPC, then one REDG.ADD of the popcount from one lane: sass.txt), so L2 sees one "
           "update a warp: warp_updates_per_cycle is the rate of updates to one address",
    "atomics_per_cycle": round((n16 - n4) / (c16 - c4), 4),
    "warp_updates_per_cycle": round((n16 - n4) / 32 / (c16 - c4), 4),
    "cycles_per_atomic": round((c16 - c4) / (n16 - n4), 4),
    "cycles_4": c4, "cycles_16": c16, "final_count_16": a16["buffers"][0]["values"][0]}
b1 = [r for r in suite if r["family"] == "atomics" and r["launch"] == "bins1"][0]
blk = [r for r in suite if r["family"] == "atomics" and r["launch"] == "bins4096"][0]
res["atomic_one_address_unaggregated"] = {
    "how": "families.txt atomics/bins1: 262144 threads, one REDG.E.ADD each (not aggregated: the added value "
           "comes from memory) to one address, minus the cycles of bins4096 (the same kernel, 64 threads an "
           "address) as the fixed cost; updates / cycles",
    "updates_per_cycle": round(262144 / (b1["metrics"]["cycles"] - blk["metrics"]["cycles"]), 4),
    "cycles_bins1": b1["metrics"]["cycles"], "cycles_bins4096": blk["metrics"]["cycles"]}
if ("launch_overhead", "g1") in micro:
    cyc = {g: micro[("launch_overhead", f"g{g}")]["metrics"]["cycles"] for g in (1, 132, 1056, 8448)}
    res["launch_overhead"] = {
        "how": "an empty kernel (mb_empty, blocks of 256 threads) at 1, 132, 1056 and 8448 blocks: Nsight Compute "
               "gpc__cycles_elapsed.max at base clock; per_block_cycles = (cycles(8448) - cycles(1056)) / 7392, "
               "the cost of dispatching and retiring one more block of 8 warps across the 132 SMs",
        "cycles": {str(g): c for g, c in cyc.items()},
        "per_block_cycles": round((cyc[8448] - cyc[1056]) / 7392, 3)}
if ("dram_bandwidth", "m64") in micro:
    m64, m256 = micro[("dram_bandwidth", "m64")]["metrics"], micro[("dram_bandwidth", "m256")]["metrics"]
    extra = (256 - 64) << 20
    res["dram_read_bandwidth"] = {
        "how": "mb_stream_read (1056 blocks of 256 threads, float4 grid-stride loads) reading 64 MB and 256 MB "
               "once, caches flushed; (bytes(256) - bytes(64)) / (cycles(256) - cycles(64)), and the same over "
               "gpu__time_duration",
        "bytes_per_cycle_base_clock": round(extra / (m256["cycles"] - m64["cycles"]), 1),
        "gb_per_s": round(extra / (m256["gpu__time_duration.sum"] - m64["gpu__time_duration.sum"]), 1),
        "dram_bytes_read_256": m256.get("dram__bytes_read.sum")}
longest = max(suite, key=lambda r: r["metrics"]["cycles"])
res["sm_clock_under_ncu"] = {
    "how": f"cycles / gpu__time_duration of the longest suite launch ({longest['family']}/{longest['launch']}): "
           "the SM clock Nsight Compute locked at base",
    "mhz": round(longest["metrics"]["cycles"] / longest["metrics"]["gpu__time_duration.sum"] * 1000, 1)}
with open(out_micro, "w") as f:
    json.dump({"what": "tests/timing/microbench.txt (tests/timing/microbench.cu) on the GPU: latencies from "
                       "clock64 (SM cycles) and %globaltimer (ns) inside the kernel, under Nsight Compute "
                       "(clocks locked at base) and in a plain run (the GPU's own clocks)",
               "machine": machine, "results": res,
               "raw": {f"{k[0]}/{k[1]}": {"under_ncu": outv(v, 0), "under_ncu_ns": outv(v, 1),
                                          "plain": outv(plain[k], 0), "plain_ns": outv(plain[k], 1),
                                          "ncu_cycles": v["metrics"]["cycles"]}
                       for k, v in micro.items()}}, f, indent=1)
    f.write("\n")
