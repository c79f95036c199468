/* sweep_fixture.h: what test_timing_identical.c, test_timing_defer.c,
 * test_pack.c and test_memrow.c share to run every entry of every kernel in
 * tests/kernels/ (and the lessons: sweep_compare_switch) -- a buffer of
 * BUF bytes for each pointer parameter, filled afresh before each launch
 * with small non-negative ints, 64 for every other parameter, and the
 * outcome: status, statistics, fault, printf text and every buffer.
 * Include after harness.h. */
#ifndef WARPSIM_TEST_SWEEP_FIXTURE_H
#define WARPSIM_TEST_SWEEP_FIXTURE_H

#include <dirent.h>

#include "device_int.h"

#define DIR_KERNELS "tests/kernels"
#define BUF 65536

typedef struct {
    SimStatus st;
    DeviceStats stats;
    DeviceFault fault;
    char *printf_text;
    uint8_t *bufs[64];
    int nbufs;
} Outcome;

static inline void outcome_free(Outcome *o)
{
    free(o->printf_text);
    for (int i = 0; i < o->nbufs; i++)
        free(o->bufs[i]);
}

/* Whether the sweep can call entry: at most 64 parameters, none larger
 * than 8 bytes (a struct passed by value is not). */
static inline bool sweep_fits(DeviceModule *m, const char *entry)
{
    int np = device_kernel_nparams(m, entry);
    for (int i = 0; i < np; i++)
        if (device_kernel_param_size(m, entry, i) > 8)
            return false;
    return np >= 0 && np <= 64;
}

/* Buffers for every pointer parameter of entry, on the current device. */
static inline void alloc_args(DeviceModule *m, const char *entry, DevicePtr *ptrs)
{
    int np = device_kernel_nparams(m, entry);
    for (int i = 0; i < np && i < 64; i++)
        if (device_kernel_param_size(m, entry, i) == 8) {
            SimError err;
            assert_int_equal(device_malloc(dev, BUF, &ptrs[i], &err), SIM_OK);
        }
}

static inline void free_args(DeviceModule *m, const char *entry, const DevicePtr *ptrs)
{
    int np = device_kernel_nparams(m, entry);
    for (int i = 0; i < np && i < 64; i++)
        if (ptrs[i])
            device_free(dev, ptrs[i], NULL);
}

/* One launch of entry (grid blocks of 128 threads, 1 KB of dynamic shared
 * memory, a budget of 2 million warp instructions; timed or not; under
 * DEVICE_SCHED_* schedule with seed) on buffers ptrs (the same allocations
 * for every run, so fault messages name the same buffers), filled afresh.
 * Its seconds are zeroed. */
static inline Outcome sweep_run_sched(DeviceModule *m, const char *entry, const DevicePtr *ptrs, unsigned grid,
                                      bool timing, int schedule, uint64_t seed)
{
    Outcome o;
    memset(&o, 0, sizeof o);
    SimError err;
    int np = device_kernel_nparams(m, entry);
    uint64_t vals[64];
    void *args[64];
    assert_true(np >= 0 && np <= 64);
    uint8_t *init = malloc(BUF);
    assert_non_null(init);
    for (int i = 0; i < BUF; i++)
        init[i] = (uint8_t)(i % 4 == 0 ? i / 4 % 97 : 0); /* small non-negative ints */
    for (int i = 0; i < np; i++) {
        vals[i] = 0;
        if (device_kernel_param_size(m, entry, i) == 8) {
            assert_int_equal(device_memcpy_htod(dev, ptrs[i], init, BUF, &err), SIM_OK);
            vals[i] = ptrs[i];
        } else {
            vals[i] = 64; /* counts and sizes */
        }
        args[i] = &vals[i];
    }
    free(init);
    DeviceLaunch cfg = {.grid = {grid, 1, 1}, .block = {128, 1, 1}, .smem = 1024, .inst_budget = 2000000,
                        .timing = timing, .schedule = schedule, .seed = seed};
    o.st = device_launch(m, entry, &cfg, args, &o.stats, &o.fault, &err);
    o.stats.seconds = 0;
    o.printf_text = strdup(device_printf_output(dev));
    for (int i = 0; i < np; i++)
        if (ptrs[i]) {
            o.bufs[o.nbufs] = malloc(BUF);
            assert_int_equal(device_memcpy_dtoh(dev, o.bufs[o.nbufs++], ptrs[i], BUF, &err), SIM_OK);
        }
    return o;
}

/* Fail unless a and b (of the launch `what` names) agree in status,
 * fault, printf text, every buffer and every statistic. */
static inline void sweep_expect_same(const char *what, const Outcome *a, const Outcome *b)
{
    if (a->st != b->st || memcmp(&a->fault, &b->fault, sizeof a->fault))
        fail_msg("%s: status or fault differ: '%s' against '%s'", what, a->fault.msg, b->fault.msg);
    if (strcmp(a->printf_text, b->printf_text))
        fail_msg("%s: printf output differs", what);
    for (int i = 0; i < a->nbufs; i++)
        if (memcmp(a->bufs[i], b->bufs[i], BUF))
            fail_msg("%s: buffer %d differs", what, i);
    if (memcmp(&a->stats, &b->stats, sizeof a->stats))
        fail_msg("%s: statistics or timing differ: %llu against %llu cycles, %llu against %llu warp instructions, "
                 "occupancy %.6f against %.6f", what, (unsigned long long)a->stats.cycles,
                 (unsigned long long)b->stats.cycles, (unsigned long long)a->stats.warp_insts,
                 (unsigned long long)b->stats.warp_insts, a->stats.timing.achieved_occupancy,
                 b->stats.timing.achieved_occupancy);
}

/* sweep_run_sched under the default schedule. */
static inline Outcome sweep_run(DeviceModule *m, const char *entry, const DevicePtr *ptrs, unsigned grid, bool timing)
{
    return sweep_run_sched(m, entry, ptrs, grid, timing, DEVICE_SCHED_ROUNDROBIN, 0);
}

/* sweep_run_sched with the switch var (WARPSIM_PACK, WARPSIM_TIMING_DEFER)
 * at its default (on) or at 0 (off), unset again after. */
static inline Outcome sweep_run_switch(const char *var, bool on, DeviceModule *m, const char *entry,
                                       const DevicePtr *ptrs, unsigned grid, bool timing, int schedule, uint64_t seed)
{
    if (on)
        unsetenv(var);
    else
        setenv(var, "0", 1);
    Outcome o = sweep_run_sched(m, entry, ptrs, grid, timing, schedule, seed);
    unsetenv(var);
    return o;
}

/* The next .ptx file of d (opened on DIR_KERNELS) in path; false at the
 * end. */
static inline bool sweep_next_ptx(DIR *d, char path[512])
{
    for (struct dirent *e; (e = readdir(d));) {
        size_t n = strlen(e->d_name);
        if (n >= 5 && !strcmp(e->d_name + n - 4, ".ptx")) {
            snprintf(path, 512, "%s/%s", DIR_KERNELS, e->d_name);
            return true;
        }
    }
    return false;
}

/* The .ptx files the sweep runs: tests/kernels/ and every lesson's. */
static inline int sweep_files(char (*paths)[512], int cap)
{
    int n = 0;
    DIR *d = opendir(DIR_KERNELS);
    if (!d)
        fail_msg("cannot open %s (run from the repository root)", DIR_KERNELS);
    while (n < cap && sweep_next_ptx(d, paths[n]))
        n++;
    closedir(d);
    if (!(d = opendir("lessons")))
        fail_msg("cannot open lessons (run from the repository root)");
    for (struct dirent *e; n < cap && (e = readdir(d));)
        if (e->d_name[0] >= '0' && e->d_name[0] <= '9') {
            snprintf(paths[n], 512, "lessons/%s/kernel.ptx", e->d_name);
            FILE *f = fopen(paths[n], "rb");
            if (f) {
                fclose(f);
                n++;
            }
        }
    closedir(d);
    return n;
}

typedef struct {
    int schedule;
    unsigned grid;
} SweepRun;

/* Every entry of every sweep file, runs[0..nruns) each, on two devices
 * (dev and one of its own) with the same launches in the same order, so
 * that their heaps evolve alike: with the switch var off ("0") on dev --
 * while the modules load and while they run -- and unset on the other;
 * each pair of outcomes the same (sweep_expect_same).  Returns the launches
 * compared, *files the files. */
static inline int sweep_compare_switch(const char *var, const SweepRun *runs, int nruns, int *files)
{
    SimError err;
    Device *off = dev, *on = device_open_sim("sm_90", &err);
    assert_non_null(on);
    static char paths[128][512];
    int compared = 0;
    *files = sweep_files(paths, 128);
    for (int i = 0; i < *files; i++) {
        dev = off;
        setenv(var, "0", 1);
        DeviceModule *ma = load_file(paths[i]);
        unsetenv(var);
        dev = on;
        DeviceModule *mb = load_file(paths[i]);
        for (int f = 0; f < ma->ptx->n_funcs; f++) {
            const char *entry = ma->ptx->funcs[f].name;
            if (!ma->ptx->funcs[f].is_entry || !sweep_fits(ma, entry))
                continue;
            DevicePtr pa[64] = {0}, pb[64] = {0};
            dev = off;
            alloc_args(ma, entry, pa);
            dev = on;
            alloc_args(mb, entry, pb);
            for (int r = 0; r < nruns; r++) {
                dev = off;
                Outcome a = sweep_run_switch(var, false, ma, entry, pa, runs[r].grid, false, runs[r].schedule, 7);
                dev = on;
                Outcome b = sweep_run_switch(var, true, mb, entry, pb, runs[r].grid, false, runs[r].schedule, 7);
                char what[700];
                snprintf(what, sizeof what, "%.400s %.200s grid %u schedule %d", paths[i], entry, runs[r].grid,
                         runs[r].schedule);
                sweep_expect_same(what, &a, &b);
                compared++;
                outcome_free(&a);
                outcome_free(&b);
            }
            dev = off;
            free_args(ma, entry, pa);
            dev = on;
            free_args(mb, entry, pb);
        }
    }
    dev = off;
    device_close(on);
    return compared;
}

#endif
