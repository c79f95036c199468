/* timing_params.c: the timing model's parameters, one table per arch
 * profile, every value with its source.  Keys: [CPG] the CUDA C++
 * Programming Guide's arithmetic-throughput table (per SM per clock);
 * [LUO] Luo et al., "Benchmarking and Dissecting the Nvidia Hopper GPU
 * Architecture" (arXiv 2402.13499) and its 2025 extension (2501.12084);
 * [HW] measured on the H100 by tests/timing/microbench.txt into
 * traces/hw/timing-microbench-h100.json (Nsight Compute, base clock);
 * [JIA] Jia et al., "Dissecting the NVIDIA Volta/Turing GPU Architecture
 * through Microbenchmarking" (2018/2019); [DS] NVIDIA datasheets; [AF]
 * ../shared/reference/arch-facts.md; [EST] an estimate awaiting the H100
 * recordings in traces/hw/ (docs/timing.md says how it was chosen). */
#include <stddef.h>
#include <string.h>

#include "timing.h"

static const char *const names[TP_COUNT] = {
    [TP_CLOCK_MHZ] = "clock_mhz",
    [TP_LAT_FP32] = "lat_fp32", [TP_LAT_FP64] = "lat_fp64", [TP_LAT_INT] = "lat_int",
    [TP_LAT_IMUL] = "lat_imul", [TP_LAT_SFU] = "lat_sfu", [TP_LAT_CVT] = "lat_cvt",
    [TP_LAT_BRANCH] = "lat_branch", [TP_LAT_COLLECTIVE] = "lat_collective", [TP_LAT_INTDIV] = "lat_intdiv",
    [TP_INT_FP32] = "interval_fp32", [TP_INT_FP64] = "interval_fp64", [TP_INT_INT] = "interval_int",
    [TP_INT_SFU] = "interval_sfu", [TP_INT_CVT] = "interval_cvt", [TP_INT_COLLECTIVE] = "interval_collective",
    [TP_INT_INTDIV] = "interval_intdiv",
    [TP_SMEM_LAT] = "smem_latency", [TP_MIO_QUEUE] = "mio_queue",
    [TP_L1_LAT] = "l1_hit_latency", [TP_L1_SECTORS_PER_CYCLE] = "l1_sectors_per_cycle",
    [TP_L1_WAYS_MIN] = "l1_ways_min",
    [TP_SMEM_CONFIG_MIN] = "smem_config_min_kb", [TP_LG_QUEUE] = "lg_queue",
    [TP_L1_LINE_OUT] = "l1_cycles_per_line_out", [TP_L1_STORE_LINE_OUT] = "l1_cycles_per_store_line_out",
    [TP_L2_KB] = "l2_kb", [TP_L2_WAYS] = "l2_ways", [TP_L2_PARTITIONS] = "l2_partitions",
    [TP_L2_LAT] = "l2_hit_latency", [TP_L2_FAR_EXTRA] = "l2_far_extra",
    [TP_L2_BYTES_PER_CYCLE] = "l2_bytes_per_cycle",
    [TP_DRAM_LAT] = "dram_latency", [TP_DRAM_BYTES_PER_CYCLE] = "dram_bytes_per_cycle",
    [TP_DRAM_FETCH_SECTORS] = "dram_fetch_sectors", [TP_DRAM_SPREAD] = "dram_latency_spread",
    [TP_ATOM_LAT] = "atomic_latency", [TP_ATOM_SAME_ADDR] = "atomic_same_address_interval",
    [TP_ATOM_SAME_LINE] = "atomic_same_line_interval",
    [TP_SMEM_ATOM_LAT] = "smem_atomic_latency", [TP_ATOM_OUTSTANDING] = "atomic_outstanding",
    [TP_BAR_LAT] = "barrier_latency", [TP_MEMBAR_LAT] = "membar_latency",
    [TP_LAUNCH_OVERHEAD] = "launch_overhead", [TP_BLOCK_DISPATCH] = "block_dispatch",
    [TP_BLOCK_INTERVAL] = "block_interval",
    [TP_DSMEM_LAT] = "dsmem_latency",
};

const char *timing_param_name(int id)
{
    return id >= 0 && id < TP_COUNT ? names[id] : NULL;
}

#define ROW(id, val, src) .v[id] = (val), .source[id] = (src)

/* H100 SXM5 (sm_90, 132 SMs, HBM3 3.35 TB/s, 50 MB L2). */
static const TimingParams h100 = {
    .arch = "sm_90", .part = "h100-sxm",
    ROW(TP_CLOCK_MHZ, 1589.7,
        "[HW] Nsight Compute locks the SM clock at base, 1589.7 MHz (timing-microbench-h100.json sm_clock_under_ncu): the recordings' cycles are at this clock"),
    ROW(TP_LAT_FP32, 4,
        "[HW] dependent FFMA chain 4.05 cycles (timing-microbench-h100.json fma_dependent_latency)"),
    ROW(TP_LAT_FP64, 8, "[JIA] DADD/DFMA 8 cycles on Volta; [LUO] Hopper alike"),
    ROW(TP_LAT_INT, 4, "[JIA] IADD3/LOP3/SHF 4 cycles"),
    ROW(TP_LAT_IMUL, 4, "[JIA] IMAD 4-5 cycles"),
    ROW(TP_LAT_SFU, 18, "[JIA] MUFU 14-23 cycles (RCP/EX2/SIN...)"),
    ROW(TP_LAT_CVT, 14, "[JIA] F2F/I2F conversions ~14 cycles"),
    ROW(TP_LAT_BRANCH, 11,
        "[HW] with one warp per scheduler a SASS branch holds its warp 11 cycles from its issue to the next: its static stall count, 5 (the BRA's control bits, fma_ilp1 in traces/hw/timing-sass-h100.txt), plus 6.0 cycles of branch_resolving and no_instruction (ilp1_w1: 0.85 a issue x 1,810 issues / 256 branches; ilp4_w1_long: 0.31 x 4,891 / 256; traces/hw/timing-h100.json)"),
    ROW(TP_LAT_COLLECTIVE, 23, "[JIA] SHFL ~23 cycles; VOTE shorter"),
    ROW(TP_LAT_INTDIV, 60, "[EST] div/rem.u32 compile to a ~20-instruction SASS sequence"),
    ROW(TP_INT_FP32, 1, "[CPG] CC 9.0: 128 FP32 results/SM/clk = 32 per sub-partition (two FMA pipes of 16 lanes, 2 cycles each a warp)"),
    ROW(TP_INT_FP64, 2, "[CPG] CC 9.0 (H100): 64 FP64 results/SM/clk = 16 per sub-partition"),
    ROW(TP_INT_INT, 2, "[CPG] CC 9.0: 64 INT32 add/logic results/SM/clk = the ALU's 16 lanes a sub-partition; as many multiply-adds on the heavy FMA pipe, where ptxas also puts shifts, moves and adds (IMAD.SHL/MOV/IADD in traces/hw/timing-sass-h100.txt)"),
    ROW(TP_INT_SFU, 8, "[CPG] CC 9.0: 16 transcendentals/SM/clk = 4 per sub-partition"),
    ROW(TP_INT_CVT, 8, "[CPG] CC 9.0: 16 type conversions/SM/clk"),
    ROW(TP_INT_COLLECTIVE, 2, "[CPG] CC 9.0: 32 warp shuffle results/SM/clk"),
    ROW(TP_INT_INTDIV, 20, "[EST] the SASS sequence of div/rem.u32"),
    ROW(TP_SMEM_LAT, 21,
        "[HW] shared-memory chase 29.0 cycles a step (timing-microbench-h100.json smem_load_latency), less the chase's address arithmetic as the model times it"),
    ROW(TP_MIO_QUEUE, 16, "[EST] shared-memory instructions queued before issue stalls: fitted, transpose and banks families (12-32 give occupancy within 0.8 points of each other; docs/timing.md item 20)"),
    ROW(TP_L1_LAT, 32,
        "[HW] L1-hit chase 39.56 cycles a step (timing-microbench-h100.json l1_hit_latency), less the chase's address arithmetic as the model times it"),
    ROW(TP_L1_SECTORS_PER_CYCLE, 4, "[EST] 128 B/clk/SM L1 load bandwidth (whitepaper figure for A100/H100)"),
    ROW(TP_L1_WAYS_MIN, 8, "[EST] associativity not published; sets a power of two"),
    ROW(TP_L1_LINE_OUT, 2,
        "[HW] fitted: coalescing s16 to s32 (16 to 32 lines a request, all misses) adds ~2 cycles a line per SM (traces/hw/timing-h100.json)"),
    ROW(TP_L1_STORE_LINE_OUT, 3,
        "[HW] fitted: transpose naive_1024 takes 24,033 cycles more than copy_1024 for 7,688 more lines an SM stores (31 more a column store): 3.1 cycles a line (traces/hw/timing-h100.json)"),
    ROW(TP_SMEM_CONFIG_MIN, 32,
        "[HW] Nsight Compute's configured shared memory: 32 KB at carveout 0 and 10 and for every kernel without shared memory (traces/hw/timing-h100.json; 25 -> 64, 40 -> 100, 50 -> 132, 60 -> 164, 75 -> 196, 100 -> 228 as the occupancy API rounds)"),
    ROW(TP_LG_QUEUE, 64,
        "[HW] fitted: transpose naive_1024's per-instruction stall samples (traces/hw/timing-stalls-h100.txt): a warp's last column store drains 4,387 cycles behind ~45 others queued in the L1 (96 L1 cycles each), and it waits 5,075 cycles in lg_throttle against 10,236 in long_scoreboard; 64 entries give 4,953 and 11,294 and 74.6% occupancy (H100 76.8%; 32 entries: 66.8%, 128: 84.4%)"),
    ROW(TP_L2_KB, 50 * 1024, "[DS] H100 SXM5 50 MB L2"),
    ROW(TP_L2_WAYS, 16, "[EST] associativity not published"),
    ROW(TP_L2_PARTITIONS, 2, "[LUO] the L2 is two partitions; the far one costs more"),
    ROW(TP_L2_LAT, 175,
        "[HW] L2-hit chase 249.3 cycles a step, both partitions alike (timing-microbench-h100.json l2_hit_latency): near = 249 - far_extra/2, less the chase's arithmetic"),
    ROW(TP_L2_FAR_EXTRA, 100,
        "[LUO] far-partition hits take ~100 cycles more (the H100 chase measures their average)"),
    ROW(TP_L2_BYTES_PER_CYCLE, 5500, "[EST] ~10 TB/s L2 read bandwidth at 1755 MHz (papers report 7-11 TB/s)"),
    ROW(TP_DRAM_LAT, 225,
        "[HW] DRAM chase 574.3 cycles a step (timing-microbench-h100.json dram_latency) less the 249 of an L2 hit, less half of dram_latency_spread (the chase measures the mean)"),
    ROW(TP_DRAM_BYTES_PER_CYCLE, 1948,
        "[HW] 1948 B/cycle read at the base clock, 3.10 TB/s (timing-microbench-h100.json dram_read_bandwidth)"),
    ROW(TP_DRAM_FETCH_SECTORS, 2,
        "[HW] coalescing s16 and s32 read 17.3 MB of DRAM for 8.65 MB of sectors asked, s8 8.7 MB (traces/hw/timing-h100.json): the L2 reads DRAM in aligned 64-byte sector pairs"),
    ROW(TP_DRAM_SPREAD, 200,
        "[HW] fitted: the H100's SMs finish unevenly (occupancy b1: sm__cycles_active max 6.2% over the mean; traces/hw/timing-h100.json), so the blocks of a wave end in a mixed order and b6's and b7's tail blocks spread over the SMs; with equal latencies the model's first-wave blocks end together and the tail goes to the lowest-numbered SMs (spread 0: b6 58.8% occupancy against 51.8; 200: b6 49.2%, b7 60.1% against 62.0, b1's SMs 1.4% apart; 400: b7 54.3%, 2.8% apart)"),
    ROW(TP_ATOM_LAT, 300, "[EST] an uncontended global atomic: L2 hit latency plus the ALU"),
    ROW(TP_ATOM_SAME_ADDR, 1.157,
        "[HW] 0.8645 updates of one address a cycle (timing-microbench-h100.json atomic_one_address_unaggregated): 1/0.8645"),
    ROW(TP_ATOM_SAME_LINE, 0.11,
        "[HW] fitted: atomics bins32 (32 counters in one 128-byte line) takes 29,000 cycles more than bins4096 for 262,144 updates, 9 a cycle (traces/hw/timing-h100.json)"),
    ROW(TP_SMEM_ATOM_LAT, 40, "[EST] native shared atomics: a shared load plus the ALU"),
    ROW(TP_ATOM_OUTSTANDING, 292,
        "[HW] fitted: atomics bins1's SMs go idle 44,700 cycles before its updates are done (sm__cycles_active.avg 260,951 of 305,678 after the launch overhead): 38,600 updates at 1.157 cycles, 292 an SM; bins32 sends 248 an SM and its SMs never wait (traces/hw/timing-h100.json)"),
    ROW(TP_BAR_LAT, 20, "[JIA] BAR.SYNC ~20 cycles when all warps have arrived"),
    ROW(TP_MEMBAR_LAT, 200, "[EST] MEMBAR.GPU waits for outstanding stores to reach L2"),
    ROW(TP_LAUNCH_OVERHEAD, 3335,
        "[HW] an empty kernel of one block: 3561 cycles (timing-microbench-h100.json launch_overhead), less its block's own cycles in the model (226: the fetch of its first instructions from L2 and its EXIT)"),
    ROW(TP_BLOCK_DISPATCH, 40, "[EST] from block dispatch to its warps' first issue"),
    ROW(TP_BLOCK_INTERVAL, 126,
        "[HW] an empty kernel grows by 0.957 cycles a block over 132 SMs = 126 cycles a block per SM (timing-microbench-h100.json launch_overhead, 1056 to 8448 blocks)"),
    ROW(TP_DSMEM_LAT, 180,
        "[LUO] distributed shared memory over the SM-to-SM network: about 180 cycles a dependent load (2402.13499, its DSM section), against ~29 for the SM's own shared memory; tests/kernels/clusters.cu dsmem_latency measures both on an H100"),
};

/* A100 SXM4 (sm_80, 108 SMs, HBM2e 1.55-2.0 TB/s, 40 MB L2): plausible. */
static const TimingParams a100 = {
    .arch = "sm_80", .part = "a100",
    ROW(TP_CLOCK_MHZ, 1410, "[DS] A100 boost clock 1410 MHz"),
    ROW(TP_LAT_FP32, 4, "[LUO] Ampere FFMA 4 cycles"),
    ROW(TP_LAT_FP64, 8, "[JIA] DFMA 8 cycles (Volta), Ampere alike"),
    ROW(TP_LAT_INT, 4, "[JIA] IADD3 4 cycles"),
    ROW(TP_LAT_IMUL, 4, "[JIA] IMAD 4-5 cycles"),
    ROW(TP_LAT_SFU, 18, "[JIA] MUFU 14-23 cycles"),
    ROW(TP_LAT_CVT, 14, "[JIA] conversions ~14 cycles"),
    ROW(TP_LAT_BRANCH, 11, "[EST] as sm_90"),
    ROW(TP_LAT_COLLECTIVE, 23, "[JIA] SHFL ~23 cycles"),
    ROW(TP_LAT_INTDIV, 60, "[EST] as sm_90"),
    ROW(TP_INT_FP32, 2, "[CPG] CC 8.0: 64 FP32 results/SM/clk"),
    ROW(TP_INT_FP64, 2, "[CPG] CC 8.0: 32 FP64 results/SM/clk (DFMA counts 2 ops)"),
    ROW(TP_INT_INT, 2, "[CPG] CC 8.0: 64 INT32 results/SM/clk"),
    ROW(TP_INT_SFU, 8, "[CPG] CC 8.0: 16 transcendentals/SM/clk"),
    ROW(TP_INT_CVT, 8, "[CPG] CC 8.0: 16 conversions/SM/clk"),
    ROW(TP_INT_COLLECTIVE, 2, "[CPG] CC 8.0: 32 shuffles/SM/clk"),
    ROW(TP_INT_INTDIV, 20, "[EST] as sm_90"),
    ROW(TP_SMEM_LAT, 29, "[LUO] Ampere shared load ~29 cycles"),
    ROW(TP_MIO_QUEUE, 16, "[EST] as sm_90"),
    ROW(TP_L1_LAT, 33, "[LUO] Ampere L1 hit ~33 cycles"),
    ROW(TP_L1_SECTORS_PER_CYCLE, 4, "[EST] 128 B/clk/SM (A100 whitepaper)"),
    ROW(TP_L1_WAYS_MIN, 8, "[EST] as sm_90"),
    ROW(TP_LG_QUEUE, 64, "[EST] as sm_90"),
    ROW(TP_L1_LINE_OUT, 2, "[EST] as sm_90"),
    ROW(TP_L1_STORE_LINE_OUT, 3, "[EST] as sm_90"),
    ROW(TP_SMEM_CONFIG_MIN, 8, "[EST] the occupancy API's capacity at carveout 0 (8 KB)"),
    ROW(TP_L2_KB, 40 * 1024, "[DS] A100 40 MB L2"),
    ROW(TP_L2_WAYS, 16, "[EST] as sm_90"),
    ROW(TP_L2_PARTITIONS, 2, "[DS] A100 L2 in two partitions"),
    ROW(TP_L2_LAT, 200, "[LUO] Ampere L2 hit ~200 cycles"),
    ROW(TP_L2_FAR_EXTRA, 100, "[EST] as sm_90"),
    ROW(TP_L2_BYTES_PER_CYCLE, 5100, "[EST] A100 L2 ~2.3x V100's per clock"),
    ROW(TP_DRAM_LAT, 150, "[LUO] Ampere global latency ~450 cycles: less the L2 hit (200) and half the spread"),
    ROW(TP_DRAM_FETCH_SECTORS, 2, "[EST] as sm_90 (64-byte DRAM reads)"),
    ROW(TP_DRAM_BYTES_PER_CYCLE, 1000, "[DS] 1.555 TB/s HBM2 at 1410 MHz = 1103 B/clk, ~90%"),
    ROW(TP_DRAM_SPREAD, 200, "[EST] as sm_90"),
    ROW(TP_ATOM_LAT, 240, "[EST] L2 hit plus the ALU"),
    ROW(TP_ATOM_SAME_ADDR, 1, "[EST] as sm_90"),
    ROW(TP_ATOM_SAME_LINE, 0.11, "[EST] as sm_90"),
    ROW(TP_SMEM_ATOM_LAT, 40, "[EST] as sm_90"),
    ROW(TP_ATOM_OUTSTANDING, 292, "[EST] as sm_90"),
    ROW(TP_BAR_LAT, 20, "[JIA] BAR.SYNC ~20 cycles"),
    ROW(TP_MEMBAR_LAT, 200, "[EST] as sm_90"),
    ROW(TP_LAUNCH_OVERHEAD, 1200, "[EST] ~1 us"),
    ROW(TP_BLOCK_DISPATCH, 40, "[EST] as sm_90"),
    ROW(TP_BLOCK_INTERVAL, 126, "[EST] as sm_90 (per SM)"),
    ROW(TP_DSMEM_LAT, 180, "[EST] unused: no clusters before sm_90"),
};

const TimingParams *timing_params_for(const ArchProfile *a)
{
    if (a && a->cc_major >= 9)
        return &h100;
    return &a100;
}
