/* harness.c: lesson 09 -- asynchronous copies and pipelines.  Runs the
 * lesson's kernel.ptx in the simulator with the timing model: the
 * synchronous copy-then-compute tile loop, the same loop with cp.async
 * waited for at once and double buffered (cycles and warp states), and a
 * read of a cooperative-groups memcpy_async's tile before its wait under the
 * race checker.  Each step asks first, then checks the README's claims. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lesson.h"

#define GRID 132                 /* one block per SM of an H100 */
#define BLOCK 256
#define TILES 8
#define TILE 1024
#define SUM_GRID 4               /* tile_sum: 4 blocks, one tile each */
#define RANDOM_SEED 1            /* tile_sum's early read on a random schedule */

typedef struct {
    Device *dev;
    DeviceModule *mod;
    FILE *o;
    const char *dir;
    int wrong;                   /* claims the simulator did not bear out */
} Ctx;

typedef struct {
    double cycles;
    double share[DEVICE_STALL_COUNT];   /* of all warp-cycles */
    int top;                            /* the state with the most cycles, "selected" aside */
    DeviceStats st;
} Result;

static void check(Ctx *c, bool ok, const char *claim)
{
    if (!ok)
        c->wrong++;
    fprintf(c->o, "   %s %s\n", ok ? "holds: " : "WRONG: ", claim);
}

/* One timed launch of a tile-loop kernel: TILES tiles, `work` FMAs each. */
static bool timed(Ctx *c, const char *kernel, int work, Result *r)
{
    DevicePtr out;
    float zero = 0.0f;
    if (!lesson_upload(c->dev, &zero, sizeof zero, &out))
        return false;
    int tiles = TILES;
    void *args[3] = {&out, &tiles, &work};
    DeviceLaunch cfg = {.grid = {GRID, 1, 1}, .block = {BLOCK, 1, 1}, .timing = true};
    DeviceFault fault;
    memset(r, 0, sizeof *r);
    SimStatus s = lesson_launch_cfg(c->mod, kernel, &cfg, args, &r->st, &fault);
    device_free(c->dev, out, NULL);
    if (s != SIM_OK) {
        if (s == SIM_ERR_FAULT)
            fprintf(stderr, "warpsim lesson: %s faulted: %s\n", kernel, fault.msg);
        return false;
    }
    uint64_t all = 0;
    for (int k = 0; k < DEVICE_STALL_COUNT; k++)
        all += r->st.timing.stall[k];
    r->cycles = (double)r->st.cycles;
    r->top = DEVICE_STALL_LONG_SCOREBOARD;
    for (int k = 0; k < DEVICE_STALL_COUNT; k++) {
        r->share[k] = all ? (double)r->st.timing.stall[k] / (double)all : 0.0;
        if (k != DEVICE_STALL_SELECTED && r->st.timing.stall[k] > r->st.timing.stall[r->top])
            r->top = k;
    }
    return true;
}

static bool step_sync(Ctx *c, Result *sync)
{
    if (!timed(c, "pipe_sync", 64, sync))
        return false;
    const DeviceStats *st = &sync->st;
    double per = (double)st->threads * TILES;
    fprintf(c->o, "1. The synchronous copy.  pipe_sync: %d blocks of %d threads walk %d tiles of %d floats each:\n"
                  "   t[threadIdx.x] = src[...] (one float4 a thread), __syncthreads(), a chain of 64 FMAs per\n"
                  "   thread, __syncthreads().\n"
                  "   Question: what instructions does the copy line become?  Why two barriers per tile?\n"
                  "   And while a tile arrives from DRAM, what are the warps doing?\n\n",
            GRID, BLOCK, TILES, TILE);
    fprintf(c->o, "     per thread and tile: %.0f global load, %.0f shared store;  per block and tile: %.0f barriers\n"
                  "     %.0f cycles; warp states: long_scoreboard %.0f%%, wait %.0f%%, barrier %.0f%%\n\n",
            (double)st->global_loads / per, (double)st->shared_stores / per,
            (double)st->barriers / ((double)st->blocks * TILES), sync->cycles,
            100 * sync->share[DEVICE_STALL_LONG_SCOREBOARD], 100 * sync->share[DEVICE_STALL_WAIT],
            100 * sync->share[DEVICE_STALL_BARRIER]);
    check(c, st->global_loads == (uint64_t)per && st->shared_stores == (uint64_t)per,
          "the copy is a global load into a register and a shared store from it, once a tile");
    check(c, st->barriers == st->blocks * 2 * TILES, "two block barriers a tile: after the copy and after the compute");
    check(c, sync->top == DEVICE_STALL_LONG_SCOREBOARD,
          "long_scoreboard (waiting for the global load) is where warps spend the most cycles");
    fputc('\n', c->o);
    return true;
}

static bool step_async(Ctx *c, const Result *sync)
{
    static const int works[3] = {4, 16, 64};
    Result a1[3], a2[3];
    for (int k = 0; k < 3; k++)
        if (!timed(c, "pipe_async1", works[k], &a1[k]) || !timed(c, "pipe_async2", works[k], &a2[k]))
            return false;
    const Result *one = &a1[2], *two = &a2[2];
    fprintf(c->o, "2. cp.async.  pipe_async1 copies with __pipeline_memcpy_async, commits the group and waits\n"
                  "   for it at once (__pipeline_wait_prior(0)).  pipe_async2 keeps two tiles in shared memory:\n"
                  "   it starts tile i+1's copy, then waits for all but the newest group (wait_prior(1)) and\n"
                  "   computes on tile i while i+1 is in flight.\n"
                  "   Question: is pipe_async1 faster than pipe_sync?  How much faster is pipe_async2, and\n"
                  "   which warp state shrinks?\n\n"
                  "     kernel        global loads   shared stores   cycles   vs pipe_sync   long_scoreboard   top state\n");
    const Result *row[3] = {sync, one, two};
    static const char *names[3] = {"pipe_sync", "pipe_async1", "pipe_async2"};
    for (int k = 0; k < 3; k++)
        fprintf(c->o, "     %-12s  %12llu   %13llu   %6.0f       %.2fx           %5.1f%%      %s\n", names[k],
                (unsigned long long)row[k]->st.global_loads, (unsigned long long)row[k]->st.shared_stores,
                row[k]->cycles, sync->cycles / row[k]->cycles, 100 * row[k]->share[DEVICE_STALL_LONG_SCOREBOARD],
                device_stall_name(row[k]->top));
    fprintf(c->o, "\n     FMAs per thread      4        16        64\n     async1 / async2 ");
    bool every = true;
    for (int k = 0; k < 3; k++) {
        fprintf(c->o, "   %.2fx  ", a1[k].cycles / a2[k].cycles);
        every &= a1[k].cycles >= 1.15 * a2[k].cycles;
    }
    fprintf(c->o, "\n\n");
    check(c, one->st.global_loads == 0 && one->st.shared_stores == 0,
          "cp.async copies global to shared with no load or store instruction of the thread's own");
    check(c, one->cycles >= 0.9 * sync->cycles && one->cycles <= 1.1 * sync->cycles,
          "waited for at once, cp.async gains nothing: pipe_async1 is within 10% of pipe_sync");
    check(c, one->cycles >= 1.25 * two->cycles, "double buffered, pipe_async2 is at least 1.25x faster than pipe_async1");
    check(c, two->share[DEVICE_STALL_LONG_SCOREBOARD] < 0.5 * sync->share[DEVICE_STALL_LONG_SCOREBOARD],
          "long_scoreboard's share of the warps' cycles falls to under half of pipe_sync's");
    check(c, every, "double buffering wins at 4, 16 and 64 FMAs per thread (at least 1.15x)");
    fputc('\n', c->o);
    return true;
}

/* The line of kernel.cu that holds `mark`, 0 when none. */
static int line_of(const Ctx *c, const char *mark)
{
    char path[1024], buf[512];
    snprintf(path, sizeof path, "%s/kernel.cu", c->dir);
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    int n = 0, found = 0;
    while (!found && fgets(buf, sizeof buf, f)) {
        n++;
        if (strstr(buf, mark))
            found = n;
    }
    fclose(f);
    return found;
}

/* tile_sum over in = 0, 1, 2, ..., on the default schedule or on a random
 * one (seed): the sums right, the sums that are 0 (the tile as it was
 * before the copy), the findings counted. */
static bool tile_sum(Ctx *c, int early, int seed, int *right, int *zeros, int *nraces, DeviceRace *first)
{
    static float in[SUM_GRID * TILE], out[SUM_GRID * BLOCK];
    for (int i = 0; i < SUM_GRID * TILE; i++)
        in[i] = (float)i;
    LessonLaunch l = {.kernel = "tile_sum", .grid = SUM_GRID, .block = BLOCK, .in = in, .n_in = SUM_GRID * TILE,
                      .nout = 1, .out_n = {SUM_GRID * BLOCK}, .nscalar = 1, .scalar = {early},
                      .cfg = {.checks = DEVICE_CHECK_RACES,
                              .schedule = seed ? DEVICE_SCHED_RANDOM : DEVICE_SCHED_ROUNDROBIN,
                              .seed = (uint64_t)seed}};
    void *outs[4] = {out};
    DeviceFault fault;
    if (lesson_run32(c->dev, c->mod, &l, outs, NULL, &fault) != SIM_OK) {
        fprintf(stderr, "warpsim lesson: tile_sum faulted: %s\n", fault.msg);
        return false;
    }
    *right = *zeros = 0;
    for (int b = 0; b < SUM_GRID; b++)
        for (int t = 0; t < BLOCK; t++) {
            const float *q = in + b * TILE + 4 * ((t + 1) % BLOCK);
            *right += out[b * BLOCK + t] == q[0] + q[1] + q[2] + q[3];
            *zeros += out[b * BLOCK + t] == 0.0f;
        }
    *nraces = device_race_count(c->dev);
    memset(first, 0, sizeof *first);
    if (*nraces)
        *first = *device_race(c->dev, 0);
    return true;
}

static bool step_race(Ctx *c)
{
    int ok_right, ok_zeros, ok_races, early_right, early_zeros, early_races, rnd_right, rnd_zeros, rnd_races;
    DeviceRace f0, f1, f2;
    if (!tile_sum(c, 0, 0, &ok_right, &ok_zeros, &ok_races, &f0) ||
        !tile_sum(c, 1, 0, &early_right, &early_zeros, &early_races, &f1) ||
        !tile_sum(c, 1, RANDOM_SEED, &rnd_right, &rnd_zeros, &rnd_races, &f2))
        return false;
    int line = line_of(c, "// too early");
    fprintf(c->o, "3. Touching the tile before the wait.  tile_sum copies a tile with cooperative_groups::\n"
                  "   memcpy_async(block, ...) -- the whole block copies, \"as if by another thread\" -- and each\n"
                  "   thread adds up its neighbour's float4 of it.  With early = 1 it reads before cg::wait(block).\n"
                  "   Question: what does the early read see?  What does the race checker say, and where?\n\n"
                  "     early = 0: %d of %d sums right, %d race finding(s)\n"
                  "     early = 1: %d of %d sums right (%d are 0), %d race finding(s)\n",
            ok_right, SUM_GRID * BLOCK, ok_races, early_right, SUM_GRID * BLOCK, early_zeros, early_races);
    if (early_races)
        fprintf(c->o, "       %s: %s\n       %s by thread %u at kernel.cu:%d; %s by thread %u at kernel.cu:%d\n",
                f1.kind, f1.msg, f1.first.op, f1.first.thread.x, f1.first.line, f1.second.op, f1.second.thread.x,
                f1.second.line);
    fprintf(c->o, "     early = 1, --schedule random --seed %d: %d of %d sums right (%d are 0)\n\n", RANDOM_SEED,
            rnd_right, SUM_GRID * BLOCK, rnd_zeros);
    check(c, ok_right == SUM_GRID * BLOCK && ok_races == 0,
          "after cg::wait(block) every sum is right and the checker finds nothing");
    check(c, early_races > 0 && !strcmp(f1.kind, "cp-async") && line > 0 && f1.second.line == line,
          "read before the wait, the checker reports a cp-async race at the early read's line");
    check(c, early_right < SUM_GRID * BLOCK, "the early sums are wrong: the copies had not landed");
    check(c, early_zeros == SUM_GRID * BLOCK,
          "on the default schedule every early read sees the tile as it was before the copy (zeros)");
    check(c, rnd_right > 0 && rnd_right < SUM_GRID * BLOCK && rnd_races > 0,
          "in another order of the warps a few early reads find the copy landed: the result depends on the order");
    fputc('\n', c->o);
    return true;
}

int lesson09_run(const LessonEnv *env)
{
    Ctx c = {.o = env->out, .dir = env->dir};
    if (!lesson_open(env, &c.dev, &c.mod))
        return 2;
    fprintf(c.o, "Lesson 09: asynchronous copies and pipelines (timing model, %s)\n\n", env->arch);
    Result sync;
    bool ran = step_sync(&c, &sync) && step_async(&c, &sync) && step_race(&c);
    if (ran)
        fprintf(c.o, "4. What the hardware does (LDGSTS, TMA) has no kernel to run: README.md, step 4.\n\n"
                     "Try it yourself: lessons/09-async-copies/README.md has the commands to look closer.\n");
    device_close(c.dev);
    if (!ran)
        return 2;
    if (c.wrong)
        fprintf(c.o, "%d claim(s) did not hold in this build of the timing model.\n", c.wrong);
    return c.wrong ? 1 : 0;
}
