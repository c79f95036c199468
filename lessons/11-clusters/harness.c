/* harness.c: lesson 11 -- thread block clusters.  Runs the lesson's
 * kernel.ptx in the simulator: where a cluster's CTAs land (one GPC, all at
 * once), a histogram split over the cluster's distributed shared memory
 * (the same bins for every cluster size, schedule and atomic order, against
 * a C count), a neighbour's shared memory read with and without
 * cluster.sync() (the race checker's finding), and how many clusters fit
 * at once (the occupancy model's max active clusters). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arch.h"
#include "argspec.h"
#include "lesson.h"
#include "occupancy.h"

#define N 8192
#define BINS 256
#define GRID 8
#define BLOCK 256

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

/* Launch kernel over device buffers args with cfg; false after printing. */
static bool run(Ctx *c, const char *kernel, DeviceLaunch cfg, void **args, DeviceFault *fault)
{
    DeviceStats st;
    SimStatus s = lesson_launch_cfg(c->mod, kernel, &cfg, args, &st, fault);
    if (s == SIM_ERR_FAULT)
        fprintf(c->o, "   %s faulted: %s: %s\n", kernel, fault->kind, fault->msg);
    return s == SIM_OK;
}

/* 1. Where the CTAs of clusters of 4 run: ranks, clusters, SMs. */
static bool placement(Ctx *c)
{
    fprintf(c->o, "1. Where a cluster runs -- where_am_i<<<%d, 32>>> with --cluster 4\n", GRID);
    DevicePtr d[3];
    for (int k = 0; k < 3; k++)
        if (!lesson_upload(c->dev, NULL, GRID * 4, &d[k]))
            return false;
    void *args[] = {&d[0], &d[1], &d[2]};
    DeviceFault f;
    DeviceLaunch cfg = {.grid = {GRID, 1, 1}, .block = {32, 1, 1}, .cluster = {4, 1, 1}};
    if (!run(c, "_Z10where_am_iPjS_S_", cfg, args, &f))
        return false;
    unsigned rank[GRID], cid[GRID], sm[GRID];
    if (!lesson_download(c->dev, rank, d[0], sizeof rank) || !lesson_download(c->dev, cid, d[1], sizeof cid) ||
        !lesson_download(c->dev, sm, d[2], sizeof sm))
        return false;
    int sms[ARCH_MAX_GPCS], ngpc = arch_gpc_layout(132, sms);
    fprintf(c->o, "   block  rank  cluster  SM   GPC (the model: %d GPCs, %d and %d SMs)\n", ngpc, sms[0],
            sms[ngpc - 1]);
    bool ok = true;
    int gpc_of[GRID];
    for (int b = 0; b < GRID; b++) {
        int g = 0, first = 0;
        while (g + 1 < ngpc && (int)sm[b] >= first + sms[g])
            first += sms[g++];
        gpc_of[b] = g;
        bool row = rank[b] == (unsigned)b % 4 && cid[b] == (unsigned)b / 4;
        ok &= row;
        fprintf(c->o, "   %5d  %4u  %7u  %3u  %3d%s\n", b, rank[b], cid[b], sm[b], g, verdict(c, row));
    }
    for (int b = 0; b < GRID; b++) {
        bool same = gpc_of[b] == gpc_of[b / 4 * 4];
        ok &= same;
        if (!same)
            fprintf(c->o, "   block %d left its cluster's GPC%s\n", b, verdict(c, false));
    }
    fprintf(c->o, "   Each cluster's 4 CTAs share one GPC and were dispatched together: a cluster\n"
                  "   starts only when its GPC has room for all of it.%s\n\n", ok ? "" : "   <- DIFFERS");
    return true;
}

/* 2. The histogram over distributed shared memory, for clusters of 1, 2, 4
 * and 8 under several schedules and atomic orders. */
static bool histogram(Ctx *c, const unsigned *in)
{
    fprintf(c->o, "2. A histogram kept in the cluster's shared memory -- cluster_histogram<<<%d, %d>>>\n", GRID,
            BLOCK);
    unsigned want[BINS] = {0}, got[BINS];
    for (int i = 0; i < N; i++)
        want[in[i] % BINS]++;
    DevicePtr din, dh;
    if (!lesson_upload(c->dev, in, N * 4, &din) || !lesson_upload(c->dev, NULL, sizeof got, &dh))
        return false;
    int n = N;
    void *args[] = {&din, &n, &dh};
    fprintf(c->o, "   cluster  bins per CTA  seeds  every bin as the C count\n");
    static const unsigned sizes[] = {1, 2, 4, 8};
    for (int k = 0; k < 4; k++) {
        bool all = true;
        for (int seed = 0; seed < 4; seed++) {
            unsigned zero[BINS] = {0};
            if (device_memcpy_htod(c->dev, dh, zero, sizeof zero, NULL))
                return false;
            DeviceLaunch cfg = {.grid = {GRID, 1, 1}, .block = {BLOCK, 1, 1}, .smem = BINS / sizes[k] * 4,
                                .cluster = {sizes[k], 1, 1}, .seed = (uint64_t)seed,
                                .schedule = seed ? DEVICE_SCHED_RANDOM : DEVICE_SCHED_ROUNDROBIN,
                                .atomic_order = seed ? DEVICE_ATOMIC_RANDOM : DEVICE_ATOMIC_LANE};
            DeviceFault f;
            if (!run(c, "_Z17cluster_histogramPKjiPj", cfg, args, &f) || !lesson_download(c->dev, got, dh, sizeof got))
                return false;
            all &= !memcmp(got, want, sizeof got);
        }
        fprintf(c->o, "   %7u  %12u  %5d  %s%s\n", sizes[k], BINS / sizes[k], 4, all ? "yes" : "no", verdict(c, all));
    }
    fprintf(c->o, "   The cluster size changes where each bin lives and how much shared memory a CTA\n"
                  "   needs (%d bytes with clusters of 8), never the answer: the same bins in every\n"
                  "   order the atomics can take.\n\n", BINS / 8 * 4);
    return true;
}

/* 3. A neighbour's shared memory, with and without cluster.sync(). */
static bool neighbour(Ctx *c)
{
    fprintf(c->o, "3. Reading a neighbour's shared memory -- neighbour_read<<<%d, %d>>> --cluster 2\n", GRID, BLOCK);
    int in[GRID * BLOCK], out[GRID * BLOCK];
    for (int i = 0; i < GRID * BLOCK; i++)
        in[i] = i * 3 + 1;
    DevicePtr din, dout;
    if (!lesson_upload(c->dev, in, sizeof in, &din) || !lesson_upload(c->dev, NULL, sizeof out, &dout))
        return false;
    for (int synced = 1; synced >= 0; synced--) {
        void *args[] = {&din, &dout, &synced};
        DeviceLaunch cfg = {.grid = {GRID, 1, 1}, .block = {BLOCK, 1, 1}, .cluster = {2, 1, 1},
                            .checks = DEVICE_CHECK_RACES};
        DeviceFault f;
        if (!run(c, "_Z14neighbour_readPKiPii", cfg, args, &f) || !lesson_download(c->dev, out, dout, sizeof out))
            return false;
        int wrong = 0;
        for (int b = 0; b < GRID; b++)
            for (int t = 0; t < BLOCK; t++)
                wrong += out[b * BLOCK + t] != in[(b ^ 1) * BLOCK + t];
        int races = device_race_count(c->dev);
        bool as_expected = synced ? !wrong && !races : races > 0;
        fprintf(c->o, "   %-21s %4d of %d values wrong, race checker: %d finding%s%s\n",
                synced ? "with cluster.sync():" : "without it:", wrong, GRID * BLOCK, races, races == 1 ? "" : "s",
                verdict(c, as_expected));
        if (!synced && races)
            fprintf(c->o, "     %s: %s\n", device_race(c->dev, 0)->kind, device_race(c->dev, 0)->msg);
    }
    fprintf(c->o, "   The simulator ran each CTA of a cluster on its own SM; without the barrier a CTA\n"
                  "   read its neighbour's slice before the neighbour wrote it.  The second\n"
                  "   cluster.sync() matters too: a CTA that exits while its neighbour still reads its\n"
                  "   shared memory takes that memory with it (a fault here).\n\n");
    return true;
}

/* 4. How many clusters fit at once on an H100: 128-thread blocks (16 per
 * SM, but a cluster launch uses at most 8) and 1024-thread blocks (2 per SM:
 * clusters of 8 leave SMs of every GPC over). */
static void how_many(Ctx *c)
{
    ArchTarget t;
    if (arch_resolve("h100-sxm", &t, NULL) != SIM_OK)
        return;
    fprintf(c->o, "4. How many clusters fit at once -- the occupancy model, H100 SXM (%d SMs)\n", t.sm_count);
    fprintf(c->o, "   block  cluster  blocks/SM  max active clusters  blocks resident  limiter\n");
    static const int blocks[] = {128, 1024}, sizes[] = {1, 2, 4, 8};
    for (int b = 0; b < 2; b++)
        for (int k = 0; k < 4; k++) {
            OccConfig cfg;
            occ_config_init(&cfg);
            cfg.block_size = blocks[b];
            cfg.regs_per_thread = 32;
            OccResult r;
            OccCluster cl;
            if (occ_compute(t.arch, &cfg, &r, NULL) != SIM_OK ||
                occ_cluster(t.arch, t.sm_count, &cfg, sizes[k], false, &cl, NULL) != SIM_OK)
                return;
            fprintf(c->o, "   %5d  %7d  %2d of %2d  %19d  %15d  %s\n", blocks[b], sizes[k], cl.blocks_per_sm,
                    r.blocks_per_sm, cl.max_active_clusters, cl.max_active_clusters * sizes[k],
                    !cl.cluster_limits ? "the SM"
                    : cl.blocks_per_sm < r.blocks_per_sm ? "the cluster (8 blocks/SM at most)"
                                                         : "the cluster (GPCs not whole clusters)");
        }
    fprintf(c->o, "   A cluster must fit in one GPC, so a GPC whose SMs do not divide into whole\n"
                  "   clusters leaves room unused, and the model keeps at most 8 blocks of a cluster launch\n"
                  "   on an SM (a rule from an H200's occupancy API, undocumented; that query is not among\n"
                  "   the recordings in traces/hw/).  `warpsim occupancy --cluster N` says which limits;\n"
                  "   the model is an upper bound (the same H200 answered 248, not 264, for 128-thread\n"
                  "   blocks in clusters of 4).\n\n");
}

int lesson11_run(const LessonEnv *env)
{
    Ctx c = {.o = env->out};
    if (!lesson_open(env, &c.dev, &c.mod))
        return 2;
    fprintf(c.o, "Lesson 11: thread block clusters        (simulator, %s)\n"
                 "kernels: %s/kernel.cu\n\n", device_arch(c.dev), env->dir);
    unsigned *in = malloc(N * sizeof *in);
    if (!in) {
        device_close(c.dev);
        return 2;
    }
    argspec_fill_rand(PTX_T_U32, 11, (uint8_t *)in, N);
    bool ran = placement(&c) && histogram(&c, in) && neighbour(&c);
    if (ran) {
        how_many(&c);
        fprintf(c.o, "Try it yourself -- the race, and where it is:\n"
                     "   warpsim run %s/kernel.ptx --kernel neighbour_read --grid %d --block %d --cluster 2 \\\n"
                     "       --arg buf:i32[%d]=iota --arg buf:i32[%d]=fill:0 --arg i32:0 --check races\n"
                     "   warpsim occupancy --gpu h100-sxm --block %d --regs 32 --cluster 8\n",
                env->dir, GRID, BLOCK, GRID * BLOCK, GRID * BLOCK, BLOCK);
        if (c.mismatches)
            fprintf(c.o, "\n%d result%s differ from the expected values (marked DIFFERS above).\n", c.mismatches,
                    c.mismatches == 1 ? "" : "s");
    }
    free(in);
    device_close(c.dev);
    return !ran ? 2 : c.mismatches ? 1 : 0;
}
