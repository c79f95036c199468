/* bench_exec.c: executor throughput.  Runs the kernels of
 * tests/kernels/bench.ptx (an arithmetic-heavy FMA/integer loop, a
 * shared-memory tree reduction, a memory-bound copy, and seed 003's
 * sum_reduce) through the host API, each large enough to take about a
 * second on one core, checks the results, and prints "NAME: X M warp
 * instructions/s" from DeviceStats -- beside the same work written in plain
 * C and compiled here, so the distance to the machine's own speed is on
 * every run.  Each kernel's launch also runs with its SMs on N threads
 * (device_set_threads), and the native ratio is given for both; the
 * reduction's and the copy's timed launches too (every timing result the
 * one thread's: sim/timing_defer.c).  Then the
 * reduction launched 8 times side by side on 1 and N worker threads (pool.h,
 * as explore and grade run them).  N is WARPSIM_THREADS, else the cores.  Not a cmocka test: `make bench` runs it from the repository
 * root; an argument (alu, reduce, copy, sum_reduce, threads) runs one part
 * only, for profiling.  Exit status 1 when a launch fails or a result is
 * wrong. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "device.h"
#include "pool.h"

static Device *dev;
static DeviceModule *mod;
static const char *path = "tests/kernels/bench.ptx";
static char text[1 << 20];
static size_t text_len;

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static double cpu_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static DevicePtr dalloc(size_t bytes, const void *init)
{
    DevicePtr p;
    SimError err;
    if (device_malloc(dev, bytes, &p, &err) != SIM_OK ||
        (init && device_memcpy_htod(dev, p, init, bytes, &err) != SIM_OK)) {
        fprintf(stderr, "bench: %s\n", err.msg);
        exit(1);
    }
    return p;
}

/* Launches of each kernel by bench(): untimed twice, timed twice. */
#define WARM_RUNS 5 /* untimed launches after the first; the quickest is compared with plain C (best of its runs too: 3 or 5) */
#define BENCH_RUNS (1 + WARM_RUNS + 2)

/* Launch kernel, print its rate; returns its stats (the untimed second
 * run's), and the timed second run's in *timed (may be NULL). */
static DeviceStats bench(const char *label, const char *kernel, unsigned grid, unsigned block, void **args,
                         DeviceStats *timed)
{
    SimError err;
    DeviceStats st;
    DeviceFault f;
    memset(&st, 0, sizeof st);
    const char *entry = device_find_kernel(mod, kernel, &err);
    DeviceLaunch cfg = {.grid = {grid, 1, 1}, .block = {block, 1, 1}, .smem = 0, .inst_budget = 0};
    /* once cold: the first launch also faults in the memory of every
     * resident block; then WARM_RUNS times reusing it, as repeated launches
     * do, and the quickest of those is returned for the comparison with
     * plain C, which is the best of its runs too (the host's other tenants
     * move single runs by a tenth).  Then twice with the timing model
     * (DeviceLaunch.timing, "timed"). */
    DeviceStats untimed;
    memset(&untimed, 0, sizeof untimed);
    for (int run = 0; run < BENCH_RUNS; run++) {
        cfg.timing = run > WARM_RUNS;
        double c0 = cpu_now();
        if (!entry || device_launch(mod, entry, &cfg, args, &st, &f, &err) != SIM_OK) {
            fprintf(stderr, "bench: %s: %s%s\n", kernel, err.msg, f.faulted ? f.msg : "");
            exit(1);
        }
        double cpu = cpu_now() - c0;
        printf("%s%s%s: %.1f M warp instructions/s  (%.2f M warp insts in %.3f s, %.1f M thread insts/s; "
               "%.1f M/s of CPU time)\n",
               label, cfg.timing ? ", timed" : "", run == 0 || run == WARM_RUNS + 1 ? "" : ", again",
               (double)st.warp_insts / st.seconds * 1e-6,
               (double)st.warp_insts * 1e-6, st.seconds, (double)st.thread_insts / st.seconds * 1e-6,
               (double)st.warp_insts / cpu * 1e-6);
        if (cfg.timing)
            printf("    %llu cycles modelled, achieved occupancy %.1f%%\n", (unsigned long long)st.cycles,
                   100 * st.timing.achieved_occupancy);
        if (run >= 1 && run <= WARM_RUNS && (run == 1 || st.seconds < untimed.seconds))
            untimed = st;
        if (run == BENCH_RUNS - 1 && timed)
            *timed = st;
    }
    printf("%s, the quickest of %d warm launches: %.1f M warp instructions/s (%.3f s)\n", label, WARM_RUNS,
           (double)untimed.warp_insts / untimed.seconds * 1e-6, untimed.seconds);
    fflush(stdout);
    return untimed;
}

/* Launches of each kernel by one_launch_threads(). */
#define THREADED_RUNS 2

/* The same launch (timed or not) with its SMs on the default thread count
 * (WARPSIM_THREADS, else the cores; device_set_threads), twice: its rate
 * beside one thread's (one, from bench()), and the same cycles (timed:
 * every timing result the same).  Returns the second run's stats. */
static DeviceStats one_launch_threads(const char *label, const char *kernel, unsigned grid, unsigned block,
                                      void **args, const DeviceStats *one, bool timed)
{
    int n = 1;
    char msg[200];
    if (!pool_threads_default(&n, msg, sizeof msg))
        n = 1;
    SimError err;
    DeviceStats st;
    DeviceFault f;
    memset(&st, 0, sizeof st);
    const char *entry = device_find_kernel(mod, kernel, &err);
    DeviceLaunch cfg = {.grid = {grid, 1, 1}, .block = {block, 1, 1}, .timing = timed};
    device_set_threads(dev, n);
    for (int run = 0; run < THREADED_RUNS; run++) {
        double c0 = cpu_now();
        if (!entry || device_launch(mod, entry, &cfg, args, &st, &f, &err) != SIM_OK) {
            fprintf(stderr, "bench: %s: %s%s\n", kernel, err.msg, f.faulted ? f.msg : "");
            exit(1);
        }
        double cpu = cpu_now() - c0;
        printf("%s%s, one launch's SMs on %d threads%s: %.1f M warp instructions/s (%.3f s; %.1f M/s of CPU time): "
               "%.2fx one thread's speed; ran on %d thread%s%s%s%s\n",
               label, timed ? ", timed" : "", n, run ? ", again" : "", (double)st.warp_insts / st.seconds * 1e-6, st.seconds,
               (double)st.warp_insts / cpu * 1e-6, one->seconds / st.seconds, st.sm_threads,
               st.sm_threads == 1 ? "" : "s", st.sm_threads_note[0] ? " (" : "", st.sm_threads_note,
               st.sm_threads_note[0] ? ")" : "");
    }
    device_set_threads(dev, 1);
    if (st.warp_insts != one->warp_insts || st.cycles != one->cycles ||
        (timed && memcmp(&st.timing, &one->timing, sizeof st.timing))) {
        fprintf(stderr, "bench: %s: %d threads ran %llu warp instructions in %llu cycles, one thread %llu in %llu\n",
                kernel, n, (unsigned long long)st.warp_insts, (unsigned long long)st.cycles,
                (unsigned long long)one->warp_insts, (unsigned long long)one->cycles);
        exit(1);
    }
    fflush(stdout);
    return st;
}

/* The native version took secs (best of its runs): print the distance, for
 * one thread and for the launch on several (many). */
static void native_line(const DeviceStats *st, const DeviceStats *many, double secs)
{
    double ratio = st->seconds / secs, rmany = many->seconds / secs;
    printf("  native C, the same work compiled here (thread after thread, one core): %.3f ms (%.0f M "
           "warp-instruction equivalents/s); the simulator takes %.*fx as long on one thread, %.*fx on %d\n",
           secs * 1e3, (double)st->warp_insts / secs * 1e-6, ratio < 10 ? 2 : 0, ratio, rmany < 10 ? 2 : 0, rmany,
           many->sm_threads);
    fflush(stdout);
}

/* ---- the kernels in plain C (tests/kernels/bench.cu, thread by thread) ---- */

/* With the CPU's FMA instruction where it has one (fmaf is otherwise a
 * library call), so that native C is as fast as this machine allows. */
#if defined(__x86_64__) && defined(__GNUC__)
#define NATIVE_FMA_TARGET __attribute__((target("fma")))
#else
#define NATIVE_FMA_TARGET
#endif
NATIVE_FMA_TARGET static void native_alu_fma(int nthreads, int iters, float *out, unsigned *uout)
{
    for (int i = 0; i < nthreads; i++) {
        float a = (float)i * 0.001f, b = 1.0001f, c = 0.5f;
        unsigned h = (unsigned)i * 2654435761u;
        for (int k = 0; k < iters; k++) {
            a = fmaf(a, b, c);
            c = fmaf(c, 0.999f, -a * 0.0001f);
            h = (h ^ (h >> 13)) * 0x5bd1e995u + (unsigned)k;
            h += h << 3;
        }
        out[i] = a + c;
        uout[i] = h;
    }
}

static void native_alu(int nthreads, int iters, float *out, unsigned *uout)
{
#if defined(__x86_64__) && defined(__GNUC__)
    if (__builtin_cpu_supports("fma")) {
        native_alu_fma(nthreads, iters, out, uout);
        return;
    }
#endif
    for (int i = 0; i < nthreads; i++) {
        float a = (float)i * 0.001f, b = 1.0001f, c = 0.5f;
        unsigned h = (unsigned)i * 2654435761u;
        for (int k = 0; k < iters; k++) {
            a = fmaf(a, b, c);
            c = fmaf(c, 0.999f, -a * 0.0001f);
            h = (h ^ (h >> 13)) * 0x5bd1e995u + (unsigned)k;
            h += h << 3;
        }
        out[i] = a + c;
        uout[i] = h;
    }
}

static void native_reduce(const int *in, int *out, int n, int grid, int block)
{
    int s[1024];
    for (int g = 0; g < grid; g++) {
        for (int t = 0; t < block; t++) {
            int i = g * block + t;
            s[t] = i < n ? in[i] : 0;
        }
        for (int stride = block / 2; stride > 0; stride >>= 1)
            for (int t = 0; t < stride; t++)
                s[t] += s[t + stride];
        out[g] = s[0];
    }
}

static void native_copy(const int *in, int *out, int n4)
{
    for (int i = 0; i < n4; i++)
        memcpy(out + 4 * i, in + 4 * i, 16); /* an int4 */
}

static void native_sum_reduce(const float *a, float *s, int grid, int block)
{
    float staging[512];
    for (int g = 0; g < grid; g++) {
        for (int t = 0; t < block; t++)
            staging[t] = a[g * block + t];
        float local = 0.0f;
        for (int i = 0; i < block; i++)
            local = local + staging[i];
        s[0] += local;
    }
}

/* Run fn(arg) `reps` times; the best wall time. */
#define BEST_OF(reps, secs, call)                                                                                     \
    do {                                                                                                              \
        secs = 1e30;                                                                                                  \
        for (int r_ = 0; r_ < (reps); r_++) {                                                                         \
            double t_ = now();                                                                                        \
            call;                                                                                                     \
            t_ = now() - t_;                                                                                          \
            if (t_ < secs)                                                                                            \
                secs = t_;                                                                                            \
        }                                                                                                             \
    } while (0)

/* ---- independent launches side by side (pool.h) ---- */

enum { PAR_LAUNCHES = 8, PAR_GRID = 1024, PAR_BLOCK = 256 };

typedef struct {
    Device *devs[POOL_MAX_THREADS];
    DeviceModule *mods[POOL_MAX_THREADS];
    int *in;
    uint64_t insts[PAR_LAUNCHES];
    int sums[PAR_LAUNCHES][PAR_GRID];
    int failed;
} Par;

static int par_work(void *user, size_t k, int w)
{
    Par *p = user;
    SimError err;
    if (!p->devs[w]) {
        p->devs[w] = device_open_sim("sm_90", &err);
        if (!p->devs[w] || device_load_ptx(p->devs[w], path, text, text_len, &p->mods[w], &err))
            return 1;
    }
    Device *d = p->devs[w];
    DevicePtr din, dout;
    int n = PAR_GRID * PAR_BLOCK;
    if (device_malloc(d, (size_t)n * 4, &din, &err) || device_memcpy_htod(d, din, p->in, (size_t)n * 4, &err) ||
        device_malloc(d, PAR_GRID * 4, &dout, &err))
        return 1;
    DeviceLaunch cfg = {.grid = {PAR_GRID, 1, 1}, .block = {PAR_BLOCK, 1, 1}};
    DeviceStats st;
    DeviceFault f;
    const char *entry = device_find_kernel(p->mods[w], "bench_reduce", &err);
    int rc = !entry || device_launch(p->mods[w], entry, &cfg, (void *[]){&din, &dout, &n}, &st, &f, &err) ||
             device_memcpy_dtoh(d, p->sums[k], dout, PAR_GRID * 4, &err);
    p->insts[k] = st.warp_insts;
    device_free(d, din, NULL);
    device_free(d, dout, NULL);
    return rc;
}

static int par_fold(void *user, size_t k, int rc)
{
    Par *p = user;
    (void)k;
    p->failed |= rc;
    return 0;
}

/* The reduction launched PAR_LAUNCHES times on `threads` workers: warp
 * instructions a second over the whole batch. */
static double par_run(Par *p, int threads, double *secs)
{
    double t0 = now();
    pool_run(threads, PAR_LAUNCHES, pool_window(threads), par_work, par_fold, p);
    *secs = now() - t0;
    uint64_t total = 0;
    for (int k = 0; k < PAR_LAUNCHES; k++)
        total += p->insts[k];
    return (double)total / *secs * 1e-6;
}

static int bench_threads(void)
{
    int n;
    char msg[200];
    if (!pool_threads_default(&n, msg, sizeof msg)) {
        fprintf(stderr, "bench: %s\n", msg);
        return 1;
    }
    Par *p = calloc(1, sizeof *p);
    int bad = 0;
    p->in = malloc((size_t)PAR_GRID * PAR_BLOCK * sizeof *p->in);
    for (int i = 0; i < PAR_GRID * PAR_BLOCK; i++)
        p->in[i] = (i * 13) % 2000 - 1000;
    double s1, sn;
    par_run(p, 1, &s1); /* warm every worker's memory once */
    double r1 = par_run(p, 1, &s1);
    int want[PAR_GRID];
    memcpy(want, p->sums[0], sizeof want);
    double rn = par_run(p, n, &sn);
    par_run(p, n, &sn); /* the workers' memory is warm now */
    rn = par_run(p, n, &sn);
    for (int k = 0; k < PAR_LAUNCHES; k++)
        bad |= memcmp(p->sums[k], want, sizeof want) != 0;
    bad |= p->failed;
    printf("independent launches (reduce, %d blocks, %d launches, a simulator per worker): 1 thread %.1f M warp "
           "instructions/s (%.2f s), %d threads %.1f M/s (%.2f s): %.2fx\n",
           PAR_GRID, PAR_LAUNCHES, r1, s1, n, rn, sn, s1 / sn);
    if (bad)
        fprintf(stderr, "bench: independent launches: a launch failed or its sums differ\n");
    for (int w = 0; w < POOL_MAX_THREADS; w++)
        if (p->devs[w])
            device_close(p->devs[w]);
    free(p->in);
    free(p);
    return bad;
}

int main(int argc, char **argv)
{
    const char *only = argc > 1 ? argv[1] : NULL; /* run one: alu, reduce, copy, sum_reduce, threads */
    SimError err;
    FILE *fp = fopen(path, "rb");
    if (!fp) {
        fprintf(stderr, "bench: cannot open %s (run from the repository root)\n", path);
        return 1;
    }
    text_len = fread(text, 1, sizeof text, fp);
    fclose(fp);
    dev = device_open_sim("sm_90", &err);
    if (!dev || device_load_ptx(dev, path, text, text_len, &mod, &err) != SIM_OK) {
        fprintf(stderr, "bench: %s\n", err.msg);
        return 1;
    }
    int bad = 0;
    double secs;

    /* arithmetic: 256 warps x 4000 iterations of a dependent FMA/integer loop */
    if (!only || !strcmp(only, "alu")) {
        enum { G = 32, B = 256 };
        DevicePtr out = dalloc(G * B * 4, NULL), uout = dalloc(G * B * 4, NULL);
        int iters = 4000;
        DeviceStats st = bench("alu (fma + integer loop)", "bench_alu", G, B, (void *[]){&out, &uout, &iters}, NULL);
        DeviceStats stn = one_launch_threads("alu (fma + integer loop)", "bench_alu", G, B,
                                             (void *[]){&out, &uout, &iters}, &st, false);
        float *fo = malloc(G * B * 4), *fn = malloc(G * B * 4);
        unsigned *uo = malloc(G * B * 4), *un = malloc(G * B * 4);
        device_memcpy_dtoh(dev, fo, out, G * B * 4, &err);
        device_memcpy_dtoh(dev, uo, uout, G * B * 4, &err);
        BEST_OF(3, secs, native_alu(G * B, iters, fn, un));
        native_line(&st, &stn, secs);
        if (memcmp(fo, fn, G * B * 4) || memcmp(uo, un, G * B * 4)) {
            fprintf(stderr, "bench: alu: the simulator and native C disagree\n");
            bad = 1;
        }
        free(fo);
        free(fn);
        free(uo);
        free(un);
    }

    /* shared-memory reduction: 8192 blocks of 256 */
    if (!only || !strcmp(only, "reduce")) {
        enum { G = 8192, B = 256, N = G * B };
        int *in = malloc(N * sizeof *in), *res = malloc(G * sizeof *res), *nat = malloc(G * sizeof *nat);
        for (int i = 0; i < N; i++)
            in[i] = (i * 7) % 1000 - 500;
        DevicePtr din = dalloc(N * 4, in), dout = dalloc(G * 4, NULL);
        int nn = N;
        DeviceStats stt, st = bench("reduce (shared memory)", "bench_reduce", G, B, (void *[]){&din, &dout, &nn}, &stt);
        DeviceStats stn = one_launch_threads("reduce (shared memory)", "bench_reduce", G, B,
                                             (void *[]){&din, &dout, &nn}, &st, false);
        one_launch_threads("reduce (shared memory)", "bench_reduce", G, B, (void *[]){&din, &dout, &nn}, &stt, true);
        device_memcpy_dtoh(dev, res, dout, G * 4, &err);
        BEST_OF(5, secs, native_reduce(in, nat, N, G, B));
        native_line(&st, &stn, secs);
        for (int g = 0; g < G && !bad; g++)
            if (res[g] != nat[g]) {
                fprintf(stderr, "bench: reduce block %d: %d, want %d\n", g, res[g], nat[g]);
                bad = 1;
            }
        free(in);
        free(res);
        free(nat);
    }

    /* copy: 32 M ints as int4, grid-stride */
    if (!only || !strcmp(only, "copy")) {
        enum { N4 = 8 << 20 };
        int *in = malloc((size_t)N4 * 16), *back = malloc((size_t)N4 * 16), *nat = malloc((size_t)N4 * 16);
        for (int i = 0; i < N4 * 4; i++)
            in[i] = i ^ 0x5a5a;
        DevicePtr din = dalloc((size_t)N4 * 16, in), dout = dalloc((size_t)N4 * 16, NULL);
        int nn = N4;
        DeviceStats stt,
            st = bench("copy (int4, grid-stride)", "bench_copy", 1024, 256, (void *[]){&din, &dout, &nn}, &stt);
        DeviceStats stn = one_launch_threads("copy (int4, grid-stride)", "bench_copy", 1024, 256,
                                             (void *[]){&din, &dout, &nn}, &st, false);
        one_launch_threads("copy (int4, grid-stride)", "bench_copy", 1024, 256, (void *[]){&din, &dout, &nn}, &stt,
                           true);
        device_memcpy_dtoh(dev, back, dout, (size_t)N4 * 16, &err);
        BEST_OF(3, secs, native_copy(in, nat, N4));
        native_line(&st, &stn, secs);
        if (memcmp(in, back, (size_t)N4 * 16) || memcmp(in, nat, (size_t)N4 * 16)) {
            fprintf(stderr, "bench: copy mismatch\n");
            bad = 1;
        }
        free(in);
        free(back);
        free(nat);
    }

    /* seed 003's sum_reduce: 1024 blocks of 256 floats, one atomic per block */
    if (!only || !strcmp(only, "sum_reduce")) {
        enum { G = 1024, B = 256, N = G * B };
        float *a = malloc(N * sizeof *a), s = 0, nat = 0;
        for (int i = 0; i < N; i++)
            a[i] = (float)((i * 7) % 1000) * 0.001f;
        DevicePtr da = dalloc(N * 4, a), ds = dalloc(4, &s);
        DeviceStats st = bench("sum_reduce (seed 003: shared staging, thread 0 sums, one atomic per block)",
                               "bench_sum_reduce", G, B, (void *[]){&da, &ds}, NULL);
        DeviceStats stn = one_launch_threads("sum_reduce (seed 003)", "bench_sum_reduce", G, B,
                                             (void *[]){&da, &ds}, &st, false);
        device_memcpy_dtoh(dev, &s, ds, 4, &err); /* every launch adds the sum once more */
        BEST_OF(5, secs, (nat = 0, native_sum_reduce(a, &nat, G, B)));
        native_line(&st, &stn, secs);
        float want = (BENCH_RUNS + THREADED_RUNS) * nat;
        if (fabsf(s - want) > 1e-4f * fabsf(want)) {
            fprintf(stderr, "bench: sum_reduce: %g, want %g\n", (double)s, (double)want);
            bad = 1;
        }
        free(a);
    }
    device_close(dev);

    if (!only || !strcmp(only, "threads"))
        bad |= bench_threads();
    return bad;
}
