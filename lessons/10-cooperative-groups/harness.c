/* harness.c: lesson 10 -- cooperative groups.  Runs the lesson's kernel.ptx
 * in the simulator: a warp's sum by hand and by tiles of 32, 16 and 8, what
 * a tile's shuffle cannot cross; a grid-wide sum by two launches, by one
 * cooperative launch with grid.sync() and (wrongly) with __syncthreads(),
 * the launch that forgets --cooperative and the one too big to be resident;
 * block barriers against grid barriers and one launch against two in the
 * timing model; CUB's reductions.  Each step asks first, then checks the
 * README's claim on what the simulator computed (no fixed cycle counts). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lesson.h"

#define N_SUM (1 << 20)          /* the grid-wide sum: 2^20 ones */
#define SUM_GRID 132             /* one block per SM of an H100 */
#define ROUNDS 20                /* barriers in a row, step 3 */
#define SEEDS 8                  /* random schedules, step 2 */

typedef struct {
    Device *dev;
    DeviceModule *mod;
    FILE *o;
    int wrong;                   /* claims the simulator did not bear out */
} Ctx;

static void check(Ctx *c, bool ok, const char *claim)
{
    if (!ok)
        c->wrong++;
    fprintf(c->o, "   %s %s\n", ok ? "holds: " : "WRONG: ", claim);
}

/* One launch over int buffers (lesson_run32); false when it did not run
 * cleanly (said on stderr). */
static bool run(Ctx *c, LessonLaunch *l, void *out[4], DeviceStats *st)
{
    DeviceFault fault;
    SimStatus s = lesson_run32(c->dev, c->mod, l, out, st, &fault);
    if (s == SIM_ERR_FAULT)
        fprintf(stderr, "warpsim lesson: %s faulted: %s\n", l->kernel, fault.msg);
    return s == SIM_OK;
}

static void print_ints(Ctx *c, const char *label, const int *v, int n)
{
    fprintf(c->o, "     %-13s", label);
    for (int i = 0; i < n; i++)
        fprintf(c->o, " %d", v[i]);
    fputc('\n', c->o);
}

/* ---- 1. groups below a block ---------------------------------------------- */

static bool step_tiles(Ctx *c)
{
    int in[64], shfl[2], t32[2], t16[4], t8[8];
    for (int i = 0; i < 64; i++)
        in[i] = i;
    struct {
        const char *k;
        int *out, n;
    } runs[4] = {{"warp_sum_shfl", shfl, 2}, {"tile32_sum", t32, 2}, {"tile16_sum", t16, 4}, {"tile8_sum", t8, 8}};
    for (int r = 0; r < 4; r++) {
        LessonLaunch l = {.kernel = runs[r].k, .grid = 1, .block = 64, .in = in, .n_in = 64, .nout = 1,
                          .out_n = {runs[r].n}};
        void *out[4] = {runs[r].out};
        DeviceStats st;
        if (!run(c, &l, out, &st))
            return false;
    }
    fprintf(c->o, "1. Groups below a block.  One block of 64 threads (two warps); in[i] = i.\n"
                  "   warp_sum_shfl adds a warp's 32 values with five __shfl_down_sync; tile32_sum does it\n"
                  "   with cg::tiled_partition<32> and cg::reduce; tile16_sum and tile8_sum with tiles of 16, 8.\n"
                  "   Question: how many sums does each write, and what is the first?\n\n");
    print_ints(c, "by hand", shfl, 2);
    print_ints(c, "tiles of 32", t32, 2);
    print_ints(c, "tiles of 16", t16, 4);
    print_ints(c, "tiles of 8", t8, 8);
    fputc('\n', c->o);
    bool same = shfl[0] == t32[0] && shfl[1] == t32[1], own = true;
    long total16 = 0, total8 = 0;
    for (int t = 0; t < 4; t++) {
        int want = 0;
        for (int k = 0; k < 16; k++)
            want += 16 * t + k;
        own &= t16[t] == want;
        total16 += t16[t];
    }
    for (int t = 0; t < 8; t++)
        total8 += t8[t];
    check(c, same && shfl[0] == 496 && shfl[1] == 1520, "a tile of 32 is a warp: the same two sums, 496 and 1520");
    check(c, own && t16[0] == 120, "a tile of 16 sums its own 16 values (0 + ... + 15 = 120), one sum per tile");
    check(c, total16 == 2016 && total8 == 2016 && t8[0] == 28, "tiles of 16 and of 8 cover the block: their sums add to 2016");
    fputc('\n', c->o);

    int w[64], t[64];
    const char *k2[2] = {"shfl_warp", "shfl_tile16"};
    int *o2[2] = {w, t};
    for (int r = 0; r < 2; r++) {
        LessonLaunch l = {.kernel = k2[r], .grid = 1, .block = 64, .in = in, .n_in = 64, .nout = 1,
                          .out_n = {64}, .nscalar = 1, .scalar = {4}};
        void *out[4] = {o2[r]};
        DeviceStats st;
        if (!run(c, &l, out, &st))
            return false;
    }
    fprintf(c->o, "   A shuffle 4 lanes down (out[i] = lane i+4's value): shfl_warp over the whole warp,\n"
                  "   shfl_tile16 inside a tile of 16 (tile.shfl_down).\n"
                  "   Question: what do threads 11, 12 and 28 receive from each?\n\n"
                  "     thread        11  12  13  14  15  16 ... 28\n"
                  "     whole warp    %2d  %2d  %2d  %2d  %2d  %2d ... %2d\n"
                  "     tile of 16    %2d  %2d  %2d  %2d  %2d  %2d ... %2d\n\n",
            w[11], w[12], w[13], w[14], w[15], w[16], w[28], t[11], t[12], t[13], t[14], t[15], t[16], t[28]);
    bool own_back = true;
    for (int i = 12; i < 16; i++)
        own_back &= t[i] == i && t[i + 16] == i + 16 && w[i] == i + 4;
    check(c, w[11] == 15 && t[11] == 15, "inside the tile both give lane i+4's value (thread 11 gets 15)");
    check(c, own_back, "a tile of 16's lanes 12..15 get their own value back: its shuffle does not cross into the next tile");
    check(c, w[28] == 28 && w[60] == 60, "the warp's shuffle does not cross into the next warp either (thread 28 gets 28)");
    fputc('\n', c->o);
    return true;
}

/* ---- 2. crossing the block boundary -------------------------------------- */

/* The grid-wide sum of N_SUM ones by grid_sum (or grid_sum_syncthreads) with
 * cfg; *sum the result.  false when it did not run. */
static bool grid_sum(Ctx *c, const char *kernel, unsigned grid, int n, const DeviceLaunch *cfg, int *sum,
                     DeviceStats *st)
{
    int *ones = malloc((size_t)n * sizeof *ones), *partial = calloc(grid, sizeof *partial);
    if (!ones || !partial) {
        free(ones);
        free(partial);
        return false;
    }
    for (int i = 0; i < n; i++)
        ones[i] = 1;
    LessonLaunch l = {.kernel = kernel, .grid = grid, .block = 256, .in = ones, .n_in = n, .nout = 2,
                      .out_n = {(int)grid, 1}, .nscalar = 1, .scalar = {n}, .cfg = *cfg};
    void *out[4] = {partial, sum};
    bool ok = run(c, &l, out, st);
    free(ones);
    free(partial);
    return ok;
}

typedef struct {
    double two_cycles, one_cycles, overhead;
} SumTimes;

static bool step_grid(Ctx *c, SumTimes *tm)
{
    /* two launches: partial sums, then one warp over them */
    int *ones = malloc(N_SUM * sizeof *ones), partial[SUM_GRID], two = 0;
    if (!ones)
        return false;
    for (int i = 0; i < N_SUM; i++)
        ones[i] = 1;
    LessonLaunch p = {.kernel = "partial_sums", .grid = SUM_GRID, .block = 256, .in = ones, .n_in = N_SUM,
                      .nout = 1, .out_n = {SUM_GRID}, .nscalar = 1, .scalar = {N_SUM}, .cfg = {.timing = true}};
    void *po[4] = {partial};
    DeviceStats s1, s2, s3;
    bool ok = run(c, &p, po, &s1);
    free(ones);
    if (!ok)
        return false;
    LessonLaunch f = {.kernel = "final_sum", .grid = 1, .block = 32, .in = partial, .n_in = SUM_GRID, .nout = 1,
                      .out_n = {1}, .nscalar = 1, .scalar = {SUM_GRID}, .cfg = {.timing = true}};
    void *fo[4] = {&two};
    if (!run(c, &f, fo, &s2))
        return false;
    int one = 0;
    DeviceLaunch coop = {.cooperative = true, .timing = true};
    if (!grid_sum(c, "grid_sum", SUM_GRID, N_SUM, &coop, &one, &s3))
        return false;
    tm->two_cycles = (double)(s1.cycles + s2.cycles);
    tm->one_cycles = (double)s3.cycles;
    tm->overhead = (double)s3.timing.launch_overhead;

    fprintf(c->o, "2. Crossing the block boundary.  The sum of 2^20 = %d ones by %d blocks of 256 threads.\n"
                  "   Phase 1: each block sums its share into partial[block].  Phase 2: one warp adds the\n"
                  "   %d partial sums.  Phase 2 may start only when every block has finished phase 1.\n"
                  "   Question: where can that wait be?  Can __syncthreads() be it?\n\n",
            N_SUM, SUM_GRID, SUM_GRID);
    fprintf(c->o, "     two launches (partial_sums, then final_sum)         %d\n"
                  "     one cooperative launch, grid.sync() between phases  %d\n",
            two, one);
    int bad[SEEDS + 1], distinct = 0, wrong = 0;
    for (int k = 0; k <= SEEDS; k++) {
        DeviceLaunch cfg = {.schedule = k ? DEVICE_SCHED_RANDOM : DEVICE_SCHED_ROUNDROBIN, .seed = (uint64_t)k};
        DeviceStats st;
        bad[k] = 0;
        if (!grid_sum(c, "grid_sum_syncthreads", SUM_GRID, N_SUM, &cfg, &bad[k], &st))
            return false;
        wrong += bad[k] != N_SUM;
        bool seen = false;
        for (int j = 0; j < k; j++)
            seen |= bad[j] == bad[k];
        distinct += !seen;
    }
    fprintf(c->o, "     one launch, __syncthreads() between phases:\n"
                  "       default schedule                                  %d\n"
                  "       %d random schedules                               ",
            bad[0], SEEDS);
    for (int k = 1; k <= SEEDS; k++)
        fprintf(c->o, " %d", bad[k]);
    fprintf(c->o, "\n\n");
    check(c, two == N_SUM && one == N_SUM, "two launches and one cooperative launch with grid.sync() both count 1048576");
    check(c, wrong == SEEDS + 1 && distinct >= 2,
          "with __syncthreads() the sum is wrong under every schedule, and not always the same wrong sum");
    fputc('\n', c->o);
    return true;
}

/* A cooperative grid_sum launch of grid blocks of `block` threads that only
 * asks to be launched: SIM_OK, or the refusal with its message in msg. */
static SimStatus try_coop(Ctx *c, unsigned grid, unsigned block, bool cooperative, DeviceFault *fault, char *msg,
                          size_t cap)
{
    int n = (int)(grid * block);
    DevicePtr in, partial, out;
    SimStatus st = SIM_ERR_USAGE;
    if (!lesson_upload(c->dev, NULL, (size_t)n * 4, &in))
        return st;
    if (lesson_upload(c->dev, NULL, (size_t)grid * 4, &partial)) {
        if (lesson_upload(c->dev, NULL, 4, &out)) {
            void *args[4] = {&in, &partial, &out, &n};
            DeviceLaunch cfg = {.grid = {grid, 1, 1}, .block = {block, 1, 1}, .cooperative = cooperative};
            SimError err;
            sim_error_clear(&err);
            st = device_launch(c->mod, "grid_sum", &cfg, args, NULL, fault, &err);
            snprintf(msg, cap, "%s", st == SIM_ERR_FAULT ? fault->msg : st ? err.msg : "");
            device_free(c->dev, out, NULL);
        }
        device_free(c->dev, partial, NULL);
    }
    device_free(c->dev, in, NULL);
    return st;
}

/* The most blocks of `block` threads of grid_sum resident at once. */
static unsigned resident(Ctx *c, unsigned block)
{
    DeviceLaunch cfg = {.grid = {1u << 20, 1, 1}, .block = {block, 1, 1}};
    return (unsigned)device_resident_blocks(c->mod, "grid_sum", &cfg);
}

static bool step_coresidency(Ctx *c)
{
    unsigned r256 = resident(c, 256), r1024 = resident(c, 1024);
    fprintf(c->o, "   Question: grid.sync() makes every block wait for every other.  What if some blocks are\n"
                  "   not on an SM yet, waiting for a resident one to finish?  And what if the launch is not\n"
                  "   cooperative?\n\n");
    DeviceFault fault;
    char m1[512], m2[512], m3[512];
    SimStatus plain = try_coop(c, 8, 256, false, &fault, m1, sizeof m1);
    char kind[32];
    snprintf(kind, sizeof kind, "%s", plain == SIM_ERR_FAULT ? fault.kind : "none");
    SimStatus fits = try_coop(c, r256, 256, true, &fault, m2, sizeof m2);
    SimStatus over = try_coop(c, r256 + 1, 256, true, &fault, m3, sizeof m3);
    fprintf(c->o, "     grid_sum, 8 blocks, not cooperative:   %s%s%s\n", plain == SIM_ERR_FAULT ? "fault: " : "ran",
            plain == SIM_ERR_FAULT ? kind : "", plain == SIM_ERR_FAULT ? "" : "");
    fprintf(c->o, "     resident at once (132 SMs):            %u blocks of 256 threads (%u per SM), %u of 1024 (%u per SM)\n",
            r256, r256 / 132, r1024, r1024 / 132);
    fprintf(c->o, "     cooperative, %4u blocks of 256:       %s\n", r256, fits == SIM_OK ? "ran" : m2);
    fprintf(c->o, "     cooperative, %4u blocks of 256:       refused: %s\n\n", r256 + 1, over == SIM_OK ? "(ran)" : m3);
    check(c, plain == SIM_ERR_FAULT && !strcmp(kind, "trap"),
          "without a cooperative launch grid.sync() has no barrier to use: the kernel traps");
    check(c, r256 == 8 * 132 && r1024 == 2 * 132, "2048 threads per SM: 8 blocks of 256 or 2 of 1024 on each of 132 SMs");
    check(c, fits == SIM_OK && over == SIM_ERR_USAGE && strstr(m3, "cudaErrorCooperativeLaunchTooLarge"),
          "1056 blocks launch; 1057 are refused before they start (cudaErrorCooperativeLaunchTooLarge)");
    fputc('\n', c->o);
    return true;
}

/* ---- 3. what a crossing costs -------------------------------------------- */

typedef struct {
    double cycles, barrier_share;
    const char *top;             /* the stall reason with the most warp-cycles */
} SyncTime;

static const char *stall_names[DEVICE_STALL_COUNT] = {
    [DEVICE_STALL_LONG_SCOREBOARD] = "long_scoreboard", [DEVICE_STALL_BARRIER] = "barrier",
};

static bool sync_time(Ctx *c, const char *kernel, bool coop, int rounds, SyncTime *t)
{
    enum { THREADS = SUM_GRID * 256 };
    static int out[THREADS];
    LessonLaunch l = {.kernel = kernel, .grid = SUM_GRID, .block = 256, .nout = 1, .out_n = {THREADS},
                      .nscalar = 1, .scalar = {rounds}, .cfg = {.cooperative = coop, .timing = true}};
    void *o[4] = {out};
    DeviceStats st;
    if (!run(c, &l, o, &st))
        return false;
    uint64_t all = 0, best = 0;
    int top = 0;
    for (int k = 0; k < DEVICE_STALL_COUNT; k++) {
        all += st.timing.stall[k];
        if (st.timing.stall[k] > best)
            best = st.timing.stall[top = k];
    }
    *t = (SyncTime){.cycles = (double)st.cycles,
                    .barrier_share = all ? (double)st.timing.stall[DEVICE_STALL_BARRIER] / (double)all : 0,
                    .top = stall_names[top] ? stall_names[top] : "another"};
    return true;
}

static bool step_cost(Ctx *c, const SumTimes *tm)
{
    SyncTime b0, b1, g0, g1;
    if (!sync_time(c, "sync_block", false, 0, &b0) || !sync_time(c, "sync_block", false, ROUNDS, &b1) ||
        !sync_time(c, "sync_grid", true, 0, &g0) || !sync_time(c, "sync_grid", true, ROUNDS, &g1))
        return false;
    double per_block = (b1.cycles - b0.cycles) / ROUNDS, per_grid = (g1.cycles - g0.cycles) / ROUNDS;
    fprintf(c->o, "3. What a crossing costs (timing model).  sync_block and sync_grid: %d blocks of 256,\n"
                  "   %d barriers in a row, of the block (__syncthreads) or of the grid (grid.sync()).\n"
                  "   Question: how much more does a grid barrier cost than a block barrier?\n\n"
                  "                   0 barriers   %d barriers   per barrier   warps at the barrier\n"
                  "     block          %8.0f     %8.0f      %8.1f        %5.1f%%\n"
                  "     grid           %8.0f     %8.0f      %8.1f        %5.1f%%\n\n"
                  "   A grid barrier costs %.1fx a block barrier; the most warp-cycles of sync_grid are in\n"
                  "   the `%s` state.\n\n",
            SUM_GRID, ROUNDS, ROUNDS, b0.cycles, b1.cycles, per_block, 100 * b1.barrier_share, g0.cycles, g1.cycles,
            per_grid, 100 * g1.barrier_share, per_grid / per_block, g1.top);
    check(c, per_grid >= 5 * per_block, "a grid barrier costs at least 5 times a block barrier");
    check(c, !strcmp(g1.top, "barrier"), "sync_grid's warps wait mostly in the `barrier` state");
    fprintf(c->o, "\n   Question: the sum of step 2 -- is one cooperative launch with a grid.sync() faster than\n"
                  "   two launches?\n\n"
                  "     two launches   %8.0f cycles (two launch overheads of %.0f)\n"
                  "     one launch     %8.0f cycles (one launch overhead, one grid barrier)\n\n",
            tm->two_cycles, tm->overhead, tm->one_cycles);
    check(c, tm->two_cycles > tm->one_cycles && tm->two_cycles - tm->one_cycles >= 0.5 * tm->overhead,
          "one cooperative launch is faster: it saves a launch overhead and pays one grid barrier");
    fputc('\n', c->o);
    return true;
}

/* ---- 4. the library -------------------------------------------------------- */

static bool step_cub(Ctx *c)
{
    int in[512], blk[2], warp[16], mine[16];
    unsigned x = 12345;
    for (int i = 0; i < 512; i++) {
        x = x * 1664525u + 1013904223u;
        in[i] = (int)(x >> 20) - 2048;
    }
    const char *k[3] = {"cub_block_sum", "cub_warp_sum", "warp_sum_shfl"};
    int *o[3] = {blk, warp, mine}, n[3] = {2, 16, 16};
    for (int r = 0; r < 3; r++) {
        LessonLaunch l = {.kernel = k[r], .grid = 2, .block = 256, .in = in, .n_in = 512, .nout = 1, .out_n = {n[r]}};
        void *out[4] = {o[r]};
        DeviceStats st;
        if (!run(c, &l, out, &st))
            return false;
    }
    int want[2] = {0, 0};
    for (int i = 0; i < 512; i++)
        want[i / 256] += in[i];
    bool warps = !memcmp(warp, mine, sizeof warp);
    fprintf(c->o, "4. The library.  cub::BlockReduce and cub::WarpReduce (CUB, part of CCCL) over 512 random\n"
                  "   ints in 2 blocks of 256.\n"
                  "   Question: do they give what steps 1 and 2 computed by hand?\n\n"
                  "     cub::BlockReduce   %d %d   (C on the host: %d %d)\n"
                  "     cub::WarpReduce    %d %d %d ...   (warp_sum_shfl: %d %d %d ...)\n\n",
            blk[0], blk[1], want[0], want[1], warp[0], warp[1], warp[2], mine[0], mine[1], mine[2]);
    check(c, blk[0] == want[0] && blk[1] == want[1] && warps,
          "CUB's block and warp sums are the hand-written ones, in one line each");
    fputc('\n', c->o);
    return true;
}

int lesson10_run(const LessonEnv *env)
{
    Ctx c = {.o = env->out};
    if (!lesson_open(env, &c.dev, &c.mod))
        return 2;
    fprintf(c.o, "Lesson 10: cooperative groups (%s)\n\n", env->arch);
    SumTimes tm;
    bool ran = step_tiles(&c) && step_grid(&c, &tm) && step_coresidency(&c) && step_cost(&c, &tm) && step_cub(&c);
    if (ran)
        fprintf(c.o, "5. Several GPUs: CUDA 11 had groups across GPUs (this_multi_grid()); CUDA 12 removed them,\n"
                     "   and the simulator has one GPU: the README only describes what took their place.\n\n"
                     "Try it yourself: lessons/10-cooperative-groups/README.md has the commands to look closer.\n");
    device_close(c.dev);
    if (!ran)
        return 2;
    if (c.wrong)
        fprintf(c.o, "%d claim(s) did not hold in this build of the simulator.\n", c.wrong);
    return c.wrong ? 1 : 0;
}
