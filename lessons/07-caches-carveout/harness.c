/* harness.c: lesson 07 -- caches and the L1/shared carveout.  Runs the
 * lesson's kernel.ptx in the simulator with the timing model: a working set
 * re-read from L1, the same gather at carveouts 0, 50 and 100, the L2 behind
 * the L1, and a memory-bound stream at 1 and 8 resident blocks per SM.  Each
 * step asks first, then prints what the model measured and checks the claim
 * the lesson's README makes (directions and ratios, never fixed cycles). */
#include <stdio.h>
#include <string.h>

#include "lesson.h"

#define GATHER_GRID 132          /* one block per SM of an H100 */
#define STREAM_GRID 1056         /* 8 waves of 132 at one block per SM */
#define REGION_BYTES (128u * 1024u)

typedef struct {
    Device *dev;
    DeviceModule *mod;
    FILE *o;
    int wrong;                   /* claims the simulator did not bear out */
} Ctx;

typedef struct {
    double cycles, occupancy, l1_hit, l2_hit, dram_read, long_sb_share, long_sb_per_issue;
    double l1_kb, smem_kb;
} Result;

static double rate(uint64_t hits, uint64_t n)
{
    return n ? (double)hits / (double)n : 0.0;
}

/* One timed launch of `kernel` over a one-float output (and iters, when
 * iters >= 0) at carveout (-1: the default) with smem bytes of dynamic
 * shared memory. */
static bool timed(Ctx *c, const char *kernel, unsigned grid, unsigned smem, int carveout, int iters, Result *r)
{
    SimError err;
    if (device_set_attr(c->mod, kernel, DEVICE_ATTR_PREFERRED_CARVEOUT, carveout, &err) != SIM_OK) {
        fprintf(stderr, "warpsim lesson: %s: %s\n", kernel, err.msg);
        return false;
    }
    if (smem > 48 * 1024 && device_set_attr(c->mod, kernel, DEVICE_ATTR_MAX_DYNAMIC_SMEM, (int)smem, &err) != SIM_OK) {
        fprintf(stderr, "warpsim lesson: %s: %s\n", kernel, err.msg);
        return false;
    }
    DevicePtr out;
    float zero = 0.0f;
    if (!lesson_upload(c->dev, &zero, sizeof zero, &out))
        return false;
    void *args[2] = {&out, &iters};
    DeviceLaunch cfg = {.grid = {grid, 1, 1}, .block = {256, 1, 1}, .smem = smem, .timing = true};
    DeviceStats st;
    DeviceFault fault;
    SimStatus s = lesson_launch_cfg(c->mod, kernel, &cfg, args, &st, &fault);
    device_free(c->dev, out, NULL);
    if (s != SIM_OK) {
        if (s == SIM_ERR_FAULT)
            fprintf(stderr, "warpsim lesson: %s faulted: %s\n", kernel, fault.msg);
        return false;
    }
    const DeviceTiming *t = &st.timing;
    uint64_t all = 0;
    for (int k = 0; k < DEVICE_STALL_COUNT; k++)
        all += t->stall[k];
    *r = (Result){
        .cycles = (double)st.cycles,
        .occupancy = t->achieved_occupancy,
        .l1_hit = rate(t->l1_hits, t->l1_sectors),
        .l2_hit = rate(t->l2_hits, t->l2_sectors),
        .dram_read = (double)t->dram_read_bytes,
        .long_sb_share = rate(t->stall[DEVICE_STALL_LONG_SCOREBOARD], all),
        .long_sb_per_issue = st.warp_insts ? (double)t->stall[DEVICE_STALL_LONG_SCOREBOARD] / (double)st.warp_insts : 0,
        .l1_kb = (double)t->l1_bytes / 1024.0,
        .smem_kb = (double)t->smem_carveout_bytes / 1024.0,
    };
    return true;
}

static void check(Ctx *c, bool ok, const char *claim)
{
    if (!ok)
        c->wrong++;
    fprintf(c->o, "   %s %s\n", ok ? "holds: " : "WRONG: ", claim);
}

static bool step_reuse(Ctx *c)
{
    Result once, again;
    if (!timed(c, "l1_gather", GATHER_GRID, 0, 0, 0, &once) || !timed(c, "l1_gather", GATHER_GRID, 0, 0, 64, &again))
        return false;
    fprintf(c->o, "1. Reuse.  l1_gather: each of %d blocks reads its own 128 KB once (float4, coalesced),\n"
                  "   then each thread makes `iters` random reads inside those 128 KB.  Carveout 0: L1 %.0f KB.\n"
                  "   Question: what share of the load sectors hit L1 with iters = 0?  With iters = 64?\n\n",
            GATHER_GRID, again.l1_kb);
    fprintf(c->o, "     iters   L1 hit rate   cycles\n"
                  "         0      %5.1f%%   %8.0f\n"
                  "        64      %5.1f%%   %8.0f\n\n",
            100 * once.l1_hit, once.cycles, 100 * again.l1_hit, again.cycles);
    check(c, once.l1_hit < 0.10, "read once, nothing is found in L1 (under 10% hits)");
    check(c, again.l1_hit > 0.70, "re-read, the 128 KB working set answers from L1 (over 70% hits)");
    fputc('\n', c->o);
    return true;
}

static bool step_carveout(Ctx *c, Result r[3])
{
    static const int pct[3] = {0, 50, 100};
    for (int k = 0; k < 3; k++)
        if (!timed(c, "l1_gather", GATHER_GRID, 0, pct[k], 64, &r[k]))
            return false;
    fprintf(c->o, "2. The carveout.  The same gather (iters = 64) with the shared-memory carveout at 0, 50\n"
                  "   and 100%%.  The kernel uses no shared memory at all.\n"
                  "   Question: does the hit rate move?  Which way, and what happens to the time?\n\n"
                  "     carveout   shared    L1       L1 hit rate   cycles    vs carveout 0\n");
    for (int k = 0; k < 3; k++)
        fprintf(c->o, "     %4d%%     %4.0f KB  %4.0f KB     %5.1f%%   %8.0f      %.2fx\n", pct[k], r[k].smem_kb,
                r[k].l1_kb, 100 * r[k].l1_hit, r[k].cycles, r[k].cycles / r[0].cycles);
    fputc('\n', c->o);
    check(c, r[0].l1_hit > r[1].l1_hit && r[1].l1_hit > r[2].l1_hit,
          "the hit rate falls as shared memory takes L1's room (0 > 50 > 100)");
    check(c, r[0].l1_kb >= 128 && r[2].l1_kb < 128, "128 KB fits L1 at carveout 0 and not at 100");
    check(c, r[2].cycles >= 1.5 * r[0].cycles, "carveout 100 is at least 1.5x slower than carveout 0");
    fputc('\n', c->o);
    return true;
}

static void step_l2(Ctx *c, const Result r[3])
{
    double footprint = (double)GATHER_GRID * REGION_BYTES;
    fprintf(c->o, "3. L2 behind L1.  L1 is per SM; L2 (50 MB on an H100) is shared by all SMs and sits before DRAM.\n"
                  "   Question: when L1 misses at carveout 100, where do the sectors come from?  How many\n"
                  "   bytes does DRAM deliver at each carveout?  (The %d blocks own %.1f MB in all.)\n\n"
                  "     carveout   L2 hit rate   DRAM bytes read\n",
            GATHER_GRID, footprint / 1e6);
    static const int pct[3] = {0, 50, 100};
    for (int k = 0; k < 3; k++)
        fprintf(c->o, "     %4d%%       %5.1f%%     %12.0f\n", pct[k], 100 * r[k].l2_hit, r[k].dram_read);
    fputc('\n', c->o);
    check(c, r[2].l2_hit > r[0].l2_hit + 0.30, "L1's misses become L2 hits: L2's hit rate rises by over 30 points");
    bool same = true;
    for (int k = 0; k < 3; k++)
        same &= r[k].dram_read >= footprint && r[k].dram_read <= 1.05 * footprint;
    check(c, same, "DRAM delivers each block's 128 KB once at every carveout (within 5%)");
    fputc('\n', c->o);
}

static bool step_occupancy(Ctx *c)
{
    Result b1, b8;
    /* dynamic shared memory sized so that 1 or 8 blocks fit an SM */
    if (!timed(c, "stream_sum", STREAM_GRID, 232448, -1, -1, &b1) ||
        !timed(c, "stream_sum", STREAM_GRID, 28160, -1, -1, &b8))
        return false;
    fprintf(c->o, "4. Occupancy hides latency.  stream_sum: %d blocks, 16 loads a thread, one in flight per\n"
                  "   warp.  Unused dynamic shared memory lets 1 or 8 blocks (8 or 64 warps) sit on an SM.\n"
                  "   Question: how much faster is 8 blocks per SM?  Do its warps wait less for memory?\n\n"
                  "     blocks/SM   achieved occupancy   cycles   long_scoreboard: share   per issued inst\n"
                  "         1            %5.1f%%        %8.0f            %5.1f%%         %6.1f\n"
                  "         8            %5.1f%%        %8.0f            %5.1f%%         %6.1f\n\n"
                  "   1 block per SM takes %.2fx as long as 8.\n\n",
            STREAM_GRID, 100 * b1.occupancy, b1.cycles, 100 * b1.long_sb_share, b1.long_sb_per_issue,
            100 * b8.occupancy, b8.cycles, 100 * b8.long_sb_share, b8.long_sb_per_issue, b1.cycles / b8.cycles);
    check(c, b1.occupancy < 0.15 && b8.occupancy > 0.75, "occupancy goes from about 12.5% to over 75%");
    check(c, b1.cycles >= 3.0 * b8.cycles, "1 block per SM is at least 3x slower than 8");
    check(c, b1.long_sb_share > 0.5 && b8.long_sb_share > 0.5,
          "at both, warps spend most of their cycles in long_scoreboard: each still waits as long");
    fputc('\n', c->o);
    return true;
}

int lesson07_run(const LessonEnv *env)
{
    Ctx c = {.o = env->out};
    if (!lesson_open(env, &c.dev, &c.mod))
        return 2;
    fprintf(c.o, "Lesson 07: caches and the L1/shared carveout (timing model, %s)\n\n", env->arch);
    Result r[3];
    bool ran = step_reuse(&c) && step_carveout(&c, r);
    if (ran)
        step_l2(&c, r);
    ran = ran && step_occupancy(&c);
    if (ran)
        fprintf(c.o, "Try it yourself: lessons/07-caches-carveout/README.md has the commands to look closer.\n");
    device_close(c.dev);
    if (!ran)
        return 2;
    if (c.wrong)
        fprintf(c.o, "%d claim(s) did not hold in this build of the timing model.\n", c.wrong);
    return c.wrong ? 1 : 0;
}
