/* harness.c: lesson 1 -- the thread hierarchy, then three ways to add n
 * numbers into one place: a racy read-add-write, atomicAdd, and staging in
 * shared memory with one atomic per block.  Runs the lesson's kernel.ptx in
 * the simulator and shows the results side by side. */
#include <stdio.h>
#include <stdlib.h>

#include "lesson.h"

#define BLOCK 256

static unsigned blocks_for(int n)
{
    return (unsigned)((n + BLOCK - 1) / BLOCK);
}

static bool show_hierarchy(const LessonEnv *env, Device *dev, DeviceModule *mod)
{
    FILE *o = env->out;
    const int n = 600;
    SimError err;
    DevicePtr b, w, l;
    if (device_malloc(dev, n * sizeof(int), &b, &err) || device_malloc(dev, n * sizeof(int), &w, &err) ||
        device_malloc(dev, n * sizeof(int), &l, &err)) {
        fprintf(stderr, "warpsim lesson: %s\n", err.msg);
        return false;
    }
    int nn = n;
    void *args[] = {&b, &w, &l, &nn};
    DeviceStats st;
    if (!lesson_launch(dev, mod, "hierarchy", blocks_for(n), BLOCK, args, &st))
        return false;
    int *hb = malloc(3 * n * sizeof(int));
    if (!hb)
        return false;
    device_memcpy_dtoh(dev, hb, b, n * sizeof(int), NULL);
    device_memcpy_dtoh(dev, hb + n, w, n * sizeof(int), NULL);
    device_memcpy_dtoh(dev, hb + 2 * n, l, n * sizeof(int), NULL);
    fprintf(o, "1. The hierarchy.  hierarchy<<<%u, %d>>> with n = %d: each thread writes where it sits.\n\n",
            blocks_for(n), BLOCK, n);
    fprintf(o, "     thread i   blockIdx.x   warp (threadIdx.x / 32)   lane (threadIdx.x %% 32)\n");
    static const int show[] = {0, 1, 31, 32, 255, 256, 511, 512, 575, 576, 599};
    for (size_t k = 0; k < sizeof show / sizeof *show; k++) {
        int i = show[k];
        fprintf(o, "     %8d   %10d   %23d   %22d\n", i, hb[i], hb[n + i], hb[2 * n + i]);
    }
    fprintf(o, "\n   %d threads need ceil(%d / %d) = %u blocks.  The last block starts at thread 512: it has\n"
               "   %d threads like every block, %d of them with work (i < n).  Warps 0 and 1 work with all\n"
               "   32 lanes, warp 2 with %d (its other %d lanes skip the work), warps 3 to 7 with none.\n"
               "   The launch made %llu warps for %llu threads; threads with i >= n skip the work.\n\n",
            n, n, BLOCK, blocks_for(n), BLOCK, n - 512, n - 512 - 64, 32 - (n - 512 - 64),
            (unsigned long long)st.warps, (unsigned long long)st.threads);
    free(hb);
    return true;
}

int lesson01_run(const LessonEnv *env)
{
    FILE *o = env->out;
    Device *dev;
    DeviceModule *mod;
    if (!lesson_open(env, &dev, &mod))
        return 2;
    fprintf(o, "Lesson 1: threads, blocks, warps -- and a race        (simulator, %s)\n"
               "kernels: %s/kernel.cu\n\n", device_arch(dev), env->dir);
    int rc = 2;
    if (!show_hierarchy(env, dev, mod))
        goto done;

    const int n = 10000;
    int *ones = malloc(n * sizeof(int));
    if (!ones)
        goto done;
    for (int i = 0; i < n; i++)
        ones[i] = 1;
    SimError err;
    DevicePtr in;
    if (device_malloc(dev, n * sizeof(int), &in, &err) || device_memcpy_htod(dev, in, ones, n * sizeof(int), &err)) {
        fprintf(stderr, "warpsim lesson: %s\n", err.msg);
        free(ones);
        goto done;
    }
    free(ones);
    fprintf(o, "2. Add n = %d ones into out[0] with %u blocks of %d threads, three ways.\n\n", n, blocks_for(n),
            BLOCK);
    fprintf(o, "     kernel        out[0]   expected   atomics   warp instructions\n");
    static const char *const names[] = {"racy_sum", "atomic_sum", "staged_sum"};
    int result[3];
    DeviceStats st[3];
    for (int k = 0; k < 3; k++) {
        DevicePtr out;
        int zero = 0, nn = n;
        if (device_malloc(dev, sizeof(int), &out, &err) || device_memcpy_htod(dev, out, &zero, sizeof zero, &err)) {
            fprintf(stderr, "warpsim lesson: %s\n", err.msg);
            goto done;
        }
        void *args[] = {&in, &out, &nn};
        if (!lesson_launch(dev, mod, names[k], blocks_for(n), BLOCK, args, &st[k]))
            goto done;
        device_memcpy_dtoh(dev, &result[k], out, sizeof(int), NULL);
        fprintf(o, "     %-10s %9d %10d %9llu %19llu   %s\n", names[k], result[k], n,
                (unsigned long long)st[k].atomics, (unsigned long long)st[k].warp_insts,
                result[k] == n ? "correct" : "WRONG: updates were lost");
    }
    fprintf(o, "\n   racy_sum:   out[0] = out[0] + in[i] is a read, an add and a write.  The 32 lanes of a\n"
               "               warp read the same old value together and all write old + 1: 31 of every\n"
               "               32 updates vanish, and warps overwrite each other too.  The simulator\n"
               "               runs one SM after another, so each block adds 1; on an H100 out[0] came out 1\n"
               "               in three runs of three (traces/hw/lesson01-h100.jsonl): the last thread\n"
               "               to write had read 0.  The total depends on timing: never safe.\n"
               "   atomic_sum: atomicAdd makes each read-modify-write indivisible.  Correct; its PTX asks\n"
               "               for one atomic per thread, %d on one address (ptxas may merge a warp's\n"
               "               integer adds into one: lesson 3).\n"
               "   staged_sum: each block adds its 256 values in shared memory (a tree of 8 steps with\n"
               "               __syncthreads between them), then thread 0 does one atomicAdd:\n"
               "               %llu atomics instead of %llu.\n\n",
            n, (unsigned long long)st[2].atomics, (unsigned long long)st[1].atomics);
    fprintf(o, "Try it yourself:\n"
               "   warpsim run %s/kernel.ptx --kernel racy_sum --grid %u --block %d \\\n"
               "       --arg buf:i32[%d]=fill:1 --arg buf:i32[1]=fill:0 --arg i32:%d\n"
               "Exercise: %s/exercise/README.md -- write block_sum.\n",
            env->dir, blocks_for(n), BLOCK, n, n, env->dir);
    rc = result[1] == n && result[2] == n && result[0] < n ? 0 : 1;
done:
    device_close(dev);
    return rc;
}
