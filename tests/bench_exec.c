/* bench_exec.c: executor throughput.  Runs the kernels of
 * tests/kernels/bench.ptx (an arithmetic-heavy FMA/integer loop, a
 * shared-memory reduction, a memory-bound copy) through the host API, each
 * large enough to take about a second on one core, checks the results, and
 * prints "NAME: X M warp instructions/s" from DeviceStats, first untimed,
 * then with the timing model (DeviceLaunch.timing, "timed").  Not a cmocka
 * test: `make bench` runs it from the repository root; an argument (alu,
 * reduce, copy) runs one kernel only, for profiling.  Exit status 1 when a
 * launch fails or a result is wrong. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "device.h"

static Device *dev;
static DeviceModule *mod;

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

/* Launch kernel, print its rate; returns its stats. */
static DeviceStats bench(const char *label, const char *kernel, unsigned grid, unsigned block,
                         void **args)
{
    SimError err;
    DeviceStats st;
    DeviceFault f;
    memset(&st, 0, sizeof st);
    const char *entry = device_find_kernel(mod, kernel, &err);
    DeviceLaunch cfg = {.grid = {grid, 1, 1}, .block = {block, 1, 1}, .smem = 0, .inst_budget = 0};
    /* twice: the first launch also faults in the memory of every resident
     * block; the second reuses it, as repeated launches do.  Then twice
     * with the timing model. */
    for (int run = 0; run < 4; run++) {
        cfg.timing = run >= 2;
        if (!entry || device_launch(mod, entry, &cfg, args, &st, &f, &err) != SIM_OK) {
            fprintf(stderr, "bench: %s: %s%s\n", kernel, err.msg, f.faulted ? f.msg : "");
            exit(1);
        }
        printf("%s%s%s: %.1f M warp instructions/s  (%.2f M warp insts in %.3f s, %.1f M thread insts/s)\n",
               label, cfg.timing ? ", timed" : "", run & 1 ? ", again" : "", (double)st.warp_insts / st.seconds * 1e-6,
               (double)st.warp_insts * 1e-6, st.seconds, (double)st.thread_insts / st.seconds * 1e-6);
        if (cfg.timing)
            printf("    %llu cycles modelled, achieved occupancy %.1f%%\n", (unsigned long long)st.cycles,
                   100 * st.timing.achieved_occupancy);
    }
    fflush(stdout);
    return st;
}

int main(int argc, char **argv)
{
    const char *only = argc > 1 ? argv[1] : NULL; /* run one: alu, reduce, copy */
    SimError err;
    const char *path = "tests/kernels/bench.ptx";
    FILE *fp = fopen(path, "rb");
    if (!fp) {
        fprintf(stderr, "bench: cannot open %s (run from the repository root)\n", path);
        return 1;
    }
    static char text[1 << 20];
    size_t n = fread(text, 1, sizeof text, fp);
    fclose(fp);
    dev = device_open_sim("sm_90", &err);
    if (!dev || device_load_ptx(dev, path, text, n, &mod, &err) != SIM_OK) {
        fprintf(stderr, "bench: %s\n", err.msg);
        return 1;
    }
    int bad = 0;

    /* arithmetic: 256 warps x 4000 iterations of a dependent FMA/integer loop */
    if (!only || !strcmp(only, "alu")) {
        enum { G = 32, B = 256 };
        DevicePtr out = dalloc(G * B * 4, NULL), uout = dalloc(G * B * 4, NULL);
        int iters = 4000;
        bench("alu (fma + integer loop)", "bench_alu", G, B, (void *[]){&out, &uout, &iters});
    }

    /* shared-memory reduction: 8192 blocks of 256 */
    if (!only || !strcmp(only, "reduce")) {
        enum { G = 8192, B = 256, N = G * B };
        int *in = malloc(N * sizeof *in), *res = malloc(G * sizeof *res);
        for (int i = 0; i < N; i++)
            in[i] = (i * 7) % 1000 - 500;
        DevicePtr din = dalloc(N * 4, in), dout = dalloc(G * 4, NULL);
        int nn = N;
        bench("reduce (shared memory)", "bench_reduce", G, B, (void *[]){&din, &dout, &nn});
        device_memcpy_dtoh(dev, res, dout, G * 4, &err);
        for (int g = 0; g < G && !bad; g++) {
            int s = 0;
            for (int t = 0; t < B; t++)
                s += in[g * B + t];
            if (res[g] != s) {
                fprintf(stderr, "bench: reduce block %d: %d, want %d\n", g, res[g], s);
                bad = 1;
            }
        }
        free(in);
        free(res);
    }

    /* copy: 32 M ints as int4, grid-stride */
    if (!only || !strcmp(only, "copy")) {
        enum { N4 = 8 << 20 };
        int *in = malloc((size_t)N4 * 16), *back = malloc((size_t)N4 * 16);
        for (int i = 0; i < N4 * 4; i++)
            in[i] = i ^ 0x5a5a;
        DevicePtr din = dalloc((size_t)N4 * 16, in), dout = dalloc((size_t)N4 * 16, NULL);
        int nn = N4;
        bench("copy (int4, grid-stride)", "bench_copy", 1024, 256, (void *[]){&din, &dout, &nn});
        device_memcpy_dtoh(dev, back, dout, (size_t)N4 * 16, &err);
        if (memcmp(in, back, (size_t)N4 * 16)) {
            fprintf(stderr, "bench: copy mismatch\n");
            bad = 1;
        }
        free(in);
        free(back);
    }
    device_close(dev);
    return bad;
}
