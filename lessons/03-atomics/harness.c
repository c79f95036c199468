/* harness.c: lesson 3 -- atomics.  Runs the lesson's kernel.ptx in the
 * simulator: one sum four ways (contended atomics, a warp shuffle then one
 * atomic per warp, a block reduction then one per block, and two passes with
 * no atomics), each under many seeds of the schedule and the atomic order;
 * scope (atomicAdd_block right and wrong); and atomicExch, atomicCAS and a
 * ticket counter, whose old values depend on the order. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "argspec.h"
#include "lesson.h"

#define N 10000
#define BLOCK 256
#define GRID ((N + BLOCK - 1) / BLOCK)
#define SEEDS 20

typedef struct {
    Device *dev;
    DeviceModule *mod;
    FILE *o;
    int mismatches;
} Ctx;

static const char *verdict(Ctx *c, bool ok)
{
    if (!ok)
        c->mismatches++;
    return ok ? "" : "   <- DIFFERS";
}

/* A launch of the whole input under one seed of random schedule and atomic
 * order (seed < 0: the deterministic defaults). */
static LessonLaunch sum_launch(const char *kernel, const void *in, int nout_elems, int seed)
{
    LessonLaunch l = {.kernel = kernel, .grid = GRID, .block = BLOCK, .in = in, .n_in = N, .nout = 1,
                      .out_n = {nout_elems}, .nscalar = 1, .scalar = {N}};
    if (seed >= 0) {
        l.cfg.schedule = DEVICE_SCHED_RANDOM;
        l.cfg.atomic_order = DEVICE_ATOMIC_RANDOM;
        l.cfg.seed = (uint64_t)seed;
    }
    return l;
}

/* The float sum of kernel k under `seed`: one launch, or for "two-pass" the
 * per-block partials and then the in-order sum of them. */
static bool float_sum(Ctx *c, const char *k, const float *in, int seed, float *sum, DeviceStats *st)
{
    if (strcmp(k, "two-pass")) {
        LessonLaunch l = sum_launch(k, in, 1, seed);
        void *out[4] = {sum};
        return lesson_run32(c->dev, c->mod, &l, out, st, NULL) == SIM_OK;
    }
    float part[GRID];
    LessonLaunch a = sum_launch("block_partials_f32", in, GRID, seed);
    void *out[4] = {part};
    if (lesson_run32(c->dev, c->mod, &a, out, st, NULL) != SIM_OK)
        return false;
    DeviceStats s2;
    LessonLaunch b = {.kernel = "sum_in_order_f32", .grid = 1, .block = 32, .in = part, .n_in = GRID, .nout = 1,
                      .out_n = {1}, .nscalar = 1, .scalar = {GRID}, .cfg = a.cfg};
    void *out2[4] = {sum};
    if (lesson_run32(c->dev, c->mod, &b, out2, &s2, NULL) != SIM_OK)
        return false;
    st->warp_insts += s2.warp_insts;
    st->atomics += s2.atomics;
    return true;
}

/* How many distinct values among v[0..n). */
static int distinct_u32(const uint32_t *v, int n)
{
    int d = 0;
    for (int i = 0; i < n; i++) {
        int j = 0;
        while (j < i && v[j] != v[i])
            j++;
        d += j == i;
    }
    return d;
}

static bool sums(Ctx *c, const float *in, const int *in_i)
{
    FILE *o = c->o;
    static const char *const kernels[] = {"sum_atomic_f32", "sum_warp_f32", "sum_block_f32", "two-pass"};
    /* traces/hw/nvidia-h100-80gb-hbm3/: explore-sum_atomic_f32.txt (100 launches), xcheck.json (3) */
    static const char *const h100[] = {"37 in 100 launches", "3 in 3 launches", "2 in 3 launches", "(not recorded)"};
    double exact = 0;
    for (int i = 0; i < N; i++)
        exact += in[i];
    fprintf(o, "1. One sum, four ways.  %d floats in [-1, 1) (--arg buf:f32[%d]=rand:1), %d blocks of %d.\n"
               "   Each kernel ran under %d seeds of a random schedule and atomic order.\n\n"
               "     kernel           sum (seed 0)   atomics   warp instr.   distinct sums   on an H100:\n"
               "                                                             in %d seeds     distinct sums\n",
            N, N, GRID, BLOCK, SEEDS, SEEDS);
    for (int k = 0; k < 4; k++) {
        float s[SEEDS];
        DeviceStats st0, st;
        for (int seed = 0; seed < SEEDS; seed++)
            if (!float_sum(c, kernels[k], in, seed, &s[seed], seed ? &st : &st0))
                return false;
        int d = distinct_u32((const uint32_t *)s, SEEDS);
        bool near = fabs(s[0] - exact) < 1e-3;
        /* atomics in one order: several sums; the two-pass sum: always one */
        bool ok = near && (k == 3 ? d == 1 : k == 0 ? d > 1 : true);
        fprintf(o, "     %-15s %13.6f %9llu %13llu %15d   %s%s\n", kernels[k], s[0], (unsigned long long)st0.atomics,
                (unsigned long long)st0.warp_insts, d, h100[k], verdict(c, ok));
    }
    int isum[SEEDS];
    DeviceStats ist;
    for (int seed = 0; seed < SEEDS; seed++) {
        LessonLaunch l = sum_launch("sum_atomic_i32", in_i, 1, seed);
        void *out[4] = {&isum[seed]};
        if (lesson_run32(c->dev, c->mod, &l, out, &ist, NULL) != SIM_OK)
            return false;
    }
    int id = distinct_u32((const uint32_t *)isum, SEEDS);
    int64_t iwant = 0;
    for (int i = 0; i < N; i++)
        iwant += in_i[i];
    fprintf(o, "     %-15s %13d %9llu %13llu %15d   1 (any order: same sum)%s\n", "sum_atomic_i32", isum[0],
            (unsigned long long)ist.atomics, (unsigned long long)ist.warp_insts, id,
            verdict(c, id == 1 && isum[0] == (int32_t)(uint32_t)(uint64_t)iwant));
    fprintf(o, "\n   The exact sum is %.7f.  Float addition rounds after every step, so (a + b) + c and\n"
               "   a + (b + c) differ in the last bits: the order of the atomic updates -- which nobody\n"
               "   chooses -- shows in the result.  Fewer atomics, fewer orders: one per warp gives fewer\n"
               "   distinct sums, one per block fewer still; two passes with a fixed order give one.\n"
               "   Integer addition is associative (wrapping included): any order, the same sum.\n\n"
               "   Contention: every atomic on one address is done one after another at the memory\n"
               "   system, so %d threads hitting out[0] queue %d deep.  Reducing in registers and\n"
               "   shared memory first costs more instructions (the simulator counts them above) but\n"
               "   almost no atomics; on an H100, 262,144 integer atomicAdds to one address took\n"
               "   309,198 cycles, one per warp 14,545, one per block 7,692 (traces/hw/timing-h100.json).\n"
               "   For an integer add to one address, ptxas may do it for you: it turns a warp's 32 adds\n"
               "   into one (REDUX.SUM, then one REDG; traces/hw/timing-sass-h100.txt) -- it may,\n"
               "   addition of integers being associative.  Float adds it leaves alone.\n\n",
            exact, N, N);
    return true;
}

/* The contention experiment of README's "Are they slower?" under the timing
 * model (docs/timing.md): the timing suite's shape, 262,144 floats in 1,024
 * blocks of 256, one atomic per element, per warp and per block; the
 * simulated cycles beside what an H100 recorded for the suite's integer
 * kernels (traces/hw/timing-h100.json, family atomics, Nsight Compute
 * cycles).  The claim checked is the direction: each reduction is faster. */
#define TN 262144
static bool contention_times(Ctx *c)
{
    static const char *const kernels[] = {"sum_atomic_f32", "sum_warp_f32", "sum_block_f32"};
    static const char *const h100[] = {"309,198 (atomic_bins, 1 bin)", "14,545 (warp_reduce_atomic)",
                                       "7,692 (block_reduce)"};
    static const double h100_cycles[] = {309198, 14545, 7692};
    float *in = malloc(TN * sizeof *in);
    if (!in)
        return false;
    argspec_fill_rand(PTX_T_F32, 1, (uint8_t *)in, TN);
    uint64_t cyc[3] = {0};
    double occ[3] = {0};
    bool ok = true;
    for (int k = 0; k < 3 && ok; k++) {
        float sum = 0;
        LessonLaunch l = {.kernel = kernels[k], .grid = TN / BLOCK, .block = BLOCK, .in = in, .n_in = TN, .nout = 1,
                          .out_n = {1}, .nscalar = 1, .scalar = {TN}};
        l.cfg.timing = true;
        void *out[4] = {&sum};
        DeviceStats st;
        ok = lesson_run32(c->dev, c->mod, &l, out, &st, NULL) == SIM_OK && st.timing.on && st.cycles > 0;
        cyc[k] = ok ? st.cycles : 0;
        occ[k] = ok ? st.timing.achieved_occupancy : 0;
    }
    free(in);
    if (!ok)
        return false;
    fprintf(c->o, "   The same experiment in the simulator's timing model (warpsim run --timing), %d floats\n"
                  "   in %d blocks of %d:\n\n"
                  "     kernel           simulated cycles   faster   achieved occ.   an H100, cycles               faster\n",
            TN, TN / BLOCK, BLOCK);
    for (int k = 0; k < 3; k++)
        fprintf(c->o, "     %-15s  %16llu   %5.1fx   %12.0f%%    %-29s %5.1fx%s\n", kernels[k],
                (unsigned long long)cyc[k], (double)cyc[0] / (double)cyc[k], 100 * occ[k], h100[k],
                h100_cycles[0] / h100_cycles[k], verdict(c, k == 0 || cyc[k] < cyc[k - 1]));
    fprintf(c->o, "\n   \"faster\" is against one atomic per element.  The model serialises the updates of one\n"
                  "   address at L2 as the GPU does, so the queue, not the instruction count, sets the time;\n"
                  "   xcheck.txt states the claim (faster-than ... BY 5 and BY 10) and `warpsim xcheck 3`\n"
                  "   judges it on the simulator and on a GPU.\n\n");
    return true;
}

static bool scope(Ctx *c, const int *in_i)
{
    FILE *o = c->o;
    int counts[GRID], total = 0, want_total = 0;
    bool per_ok = true;
    LessonLaunch l = sum_launch("count_per_block", in_i, GRID, -1);
    void *out[4] = {counts};
    if (lesson_run32(c->dev, c->mod, &l, out, NULL, NULL) != SIM_OK)
        return false;
    for (int b = 0; b < GRID; b++) {
        int want = 0;
        for (int i = b * BLOCK; i < (b + 1) * BLOCK && i < N; i++)
            want += in_i[i] > 0;
        per_ok &= counts[b] == want;
        total += counts[b];
        want_total += want;
    }
    int one = 0;
    LessonLaunch w = sum_launch("count_wrong_scope", in_i, 1, -1);
    w.cfg.checks = DEVICE_CHECK_RACES;
    void *out2[4] = {&one};
    if (lesson_run32(c->dev, c->mod, &w, out2, NULL, NULL) != SIM_OK)
        return false;
    int nr = device_race_count(c->dev), scope_findings = 0;
    const DeviceRace *first = NULL;
    for (int i = 0; i < nr; i++)
        if (!strcmp(device_race(c->dev, i)->kind, "atomic-scope") && !scope_findings++)
            first = device_race(c->dev, i);
    fprintf(o, "2. Scope.  Count the positive inputs (%d of them) with atomicAdd_block, whose PTX is\n"
               "   atom.global.cta.add: atomic only among the threads of one block.\n\n"
               "     count_per_block     each block its own counter      sum of counts %5d%s\n"
               "     count_wrong_scope   one counter for all %d blocks   count         %5d%s\n",
            want_total, total, verdict(c, per_ok && total == want_total), GRID, one, verdict(c, one == want_total));
    if (first)
        fprintf(o, "       race check: %s at %s:%d -- %s\n", first->kind, first->file, first->second.line, first->msg);
    else
        fprintf(o, "       race check: no atomic-scope finding   <- DIFFERS: a .cta atomic on an address other\n"
                   "       blocks update must be reported\n");
    if (!first)
        c->mismatches++;
    fprintf(o, "\n   Per-block counters see contention only inside their block: .cta scope is right and can\n"
               "   be cheaper.  One counter for all blocks needs device scope (atomicAdd, .gpu), or\n"
               "   atomicAdd_system (.sys) when the CPU or another GPU updates it too.  The wrong scope\n"
               "   may still count right on today's GPU; the program is incorrect all the same, and\n"
               "   `warpsim run ... --check races` says so.\n\n");
    return true;
}

/* Each of lesson 3's old-value kernels takes (int *p, int *per_thread, int n):
 * run it with *p starting at init; *p comes back in *p_after. */
static bool run_old(Ctx *c, const char *kernel, int init, int seed, int *p_after, int *per_thread, int m)
{
    LessonLaunch l = {.kernel = kernel, .grid = (unsigned)((m + BLOCK - 1) / BLOCK), .block = BLOCK, .in = &init,
                      .n_in = 1, .in_back = p_after, .nout = 1, .out_n = {m}, .nscalar = 1, .scalar = {m},
                      .cfg = {.schedule = DEVICE_SCHED_RANDOM, .atomic_order = DEVICE_ATOMIC_RANDOM,
                              .seed = (uint64_t)seed}};
    void *out[4] = {per_thread};
    return lesson_run32(c->dev, c->mod, &l, out, NULL, NULL) == SIM_OK;
}

static bool old_values(Ctx *c)
{
    FILE *o = c->o;
    enum { M = 1000 };
    static int prev[M], won[M], ticket[M];
    static char seen[M + 1];
    uint32_t last[SEEDS], owner[SEEDS], ticket0[SEEDS];
    bool ok = true;
    for (int seed = 0; seed < SEEDS; seed++) {
        int lw, ow, counter;
        if (!run_old(c, "last_writer", -1, seed, &lw, prev, M) || !run_old(c, "first_claim", -1, seed, &ow, won, M) ||
            !run_old(c, "take_ticket", 0, seed, &counter, ticket, M))
            return false;
        /* atomicExch: prev[] holds -1 and every index but the last, each once */
        memset(seen, 0, sizeof seen);
        for (int i = 0; i < M; i++)
            if (prev[i] >= -1 && prev[i] < M)
                seen[prev[i] + 1]++;
        for (int v = -1; v < M; v++)
            ok &= seen[v + 1] == (v != lw);
        ok &= lw >= 0 && lw < M;
        /* atomicCAS: one winner, and it is the owner */
        int winners = 0;
        for (int i = 0; i < M; i++)
            winners += won[i] != 0;
        ok &= winners == 1 && ow >= 0 && ow < M && won[ow];
        /* atomicAdd +1: the counter ends at M, tickets 0..M-1 each once */
        memset(seen, 0, sizeof seen);
        for (int i = 0; i < M; i++)
            if (ticket[i] >= 0 && ticket[i] < M)
                seen[ticket[i]]++;
        for (int v = 0; v < M; v++)
            ok &= seen[v] == 1;
        ok &= counter == M;
        last[seed] = (uint32_t)lw;
        owner[seed] = (uint32_t)ow;
        ticket0[seed] = (uint32_t)ticket[0];
    }
    char tk[48];
    snprintf(tk, sizeof tk, "atomicAdd(1): counter %d, tickets 0..%d", M, M - 1);
    fprintf(o, "3. When the old value matters, the order shows.  %d threads, %d seeds.\n\n"
               "     kernel        every run guarantees                        what varies         distinct\n"
               "     last_writer   %-42s  who came last       %8d\n"
               "     first_claim   %-42s  who won             %8d\n"
               "     take_ticket   %-42s  thread 0's ticket   %8d\n"
               "     (seed 0: thread %u came last, thread %u won the claim, thread 0 drew ticket %u)%s\n\n",
            M, SEEDS, "atomicExch: prev[] chains -1 .. last", distinct_u32(last, SEEDS),
            "atomicCAS(-1 -> i): exactly one winner", distinct_u32(owner, SEEDS), tk, distinct_u32(ticket0, SEEDS),
            last[0], owner[0], ticket0[0], verdict(c, ok));
    fprintf(o, "   Each atomic is indivisible, and that is all: which thread gets there first is not\n"
               "   defined.  A kernel may rely on the guarantee (one winner, distinct tickets), never on\n"
               "   who.  `warpsim explore` runs such a kernel under many orders and counts the results.\n\n");
    return true;
}

int lesson03_run(const LessonEnv *env)
{
    Ctx c = {.o = env->out};
    if (!lesson_open(env, &c.dev, &c.mod))
        return 2;
    fprintf(c.o, "Lesson 3: atomics        (simulator, %s)\n"
                 "kernels: %s/kernel.cu\n\n", device_arch(c.dev), env->dir);
    float *in = malloc(N * sizeof *in);
    int *in_i = malloc(N * sizeof *in_i);
    bool ran = false;
    if (in && in_i) {
        argspec_fill_rand(PTX_T_F32, 1, (uint8_t *)in, N);
        argspec_fill_rand(PTX_T_S32, 2, (uint8_t *)in_i, N);
        ran = sums(&c, in, in_i) && contention_times(&c) && scope(&c, in_i) && old_values(&c);
    }
    if (ran) {
        fprintf(c.o, "Try it yourself:\n"
                     "   warpsim explore %s/kernel.ptx --kernel sum_atomic_f32 --grid %d --block %d \\\n"
                     "       --arg buf:f32[%d]=rand:1 --arg buf:f32[1]=fill:0 --arg i32:%d --runs 100\n"
                     "Look closer -- the queue of exchanges on one address, drawn in the order they hit memory,\n"
                     "and the same launch paused before every warp instruction:\n"
                     "   warpsim run %s/kernel.ptx --kernel last_writer --grid 4 --block %d \\\n"
                     "       --arg buf:i32[1]=fill:-1 --arg buf:i32[1000]=fill:0 --arg i32:1000 \\\n"
                     "       --trace lw.wst --trace-level memory\n"
                     "   warpsim viz lw.wst --view atomics\n"
                     "   warpsim step %s/kernel.ptx --kernel last_writer --grid 4 --block %d \\\n"
                     "       --arg buf:i32[1]=fill:-1 --arg buf:i32[1000]=fill:0 --arg i32:1000\n"
                     "Exercise: %s/exercise/README.md -- count with one atomic per warp.\n",
                env->dir, GRID, BLOCK, N, N, env->dir, BLOCK, env->dir, BLOCK, env->dir);
        if (c.mismatches)
            fprintf(c.o, "\n%d result%s differ from the expected values (marked DIFFERS above).\n", c.mismatches,
                    c.mismatches == 1 ? "" : "s");
    }
    free(in);
    free(in_i);
    device_close(c.dev);
    return !ran ? 2 : c.mismatches ? 1 : 0;
}
