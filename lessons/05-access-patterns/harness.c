/* harness.c: lesson 05 -- access patterns.  Runs the lesson's kernel.ptx in
 * the simulator with the timing model: a warp's global loads at a lane stride
 * of 1, 2, 8 and 32 floats (sectors per request, DRAM bytes, cycles), shared
 * memory at a lane stride of 1, 2, 32 and 33 words (bank-conflict replays,
 * cycles), and a transpose naive, through a shared tile and through a padded
 * one.  Every claim is computed from this run and marked "yes" or "NO". */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lesson.h"

#define CP_N 131072           /* threads of strided_copy: 512 blocks of 256 */
#define CP_BLOCK 256
#define SM_GRID 4             /* smem_stride: 4 blocks of 256, 32 reads a thread */
#define SM_BLOCK 256
#define SM_ITERS 32
#define TN 1024               /* the transposed matrix is TN x TN */

typedef struct {
    Device *dev;
    DeviceModule *mod;
    FILE *o;
    int wrong;                /* claims that did not hold, results that differ */
} Ctx;

/* Print a claim and whether this run bears it out. */
static void claim(Ctx *c, bool holds, const char *text)
{
    if (!holds)
        c->wrong++;
    fprintf(c->o, "   check: %-70s %s\n", text, holds ? "yes" : "NO");
}

/* One timed launch over two float buffers (a: na elements uploaded from src,
 * b: nb zero-filled, read back into dst when dst is non-NULL) and up to two
 * int scalars. */
static bool launch(Ctx *c, const char *kernel, DeviceDim3 grid, DeviceDim3 block, const float *src, size_t na,
                   float *dst, size_t nb, int nscalar, int s0, int s1, DeviceStats *st)
{
    DevicePtr pa = 0, pb = 0;
    void *args[4];
    int scal[2] = {s0, s1}, na_args = 0;
    bool ok = false;
    if (src) {
        if (!lesson_upload(c->dev, src, na * 4, &pa))
            return false;
        args[na_args++] = &pa;
    }
    if (!lesson_upload(c->dev, NULL, nb * 4, &pb))
        goto done;
    args[na_args++] = &pb;
    for (int k = 0; k < nscalar; k++)
        args[na_args++] = &scal[k];
    DeviceLaunch cfg = {.grid = grid, .block = block, .timing = true};
    DeviceFault fault;
    memset(st, 0, sizeof *st);
    if (lesson_launch_cfg(c->mod, kernel, &cfg, args, st, &fault) != SIM_OK) {
        fprintf(stderr, "warpsim lesson: %s stopped: %s\n", kernel, fault.msg);
        goto done;
    }
    ok = !dst || lesson_download(c->dev, dst, pb, nb * 4);
done:
    if (pb)
        device_free(c->dev, pb, NULL);
    if (pa)
        device_free(c->dev, pa, NULL);
    return ok;
}

static double ratio(uint64_t a, uint64_t b)
{
    return b ? (double)a / (double)b : 0.0;
}

static bool coalescing(Ctx *c)
{
    static const int stride[4] = {1, 2, 8, 32};
    float *in = malloc((size_t)CP_N * 32 * sizeof *in), *out = malloc((size_t)CP_N * sizeof *out);
    if (!in || !out) {
        free(in);
        free(out);
        fprintf(stderr, "warpsim lesson: out of memory\n");
        return false;
    }
    for (size_t i = 0; i < (size_t)CP_N * 32; i++)
        in[i] = (float)(i % 1000);
    fprintf(c->o, "1. Coalescing.  strided_copy: thread i copies in[i * stride] to out[i]; %d threads, %d warps.\n"
                  "   Memory moves in 32-byte sectors, 8 floats each.\n"
                  "   Question: how many sectors does one warp's load touch at stride 1, 2, 8 and 32?\n"
                  "   And how much slower is stride 32 than stride 1?\n\n"
                  "     stride   sectors/request   DRAM bytes read   cycles    result\n",
            CP_N, CP_N / 32);
    double spr[4];
    uint64_t cyc[4], dram[4];
    bool ok = true;
    for (int s = 0; s < 4 && ok; s++) {
        DeviceStats st;
        ok = launch(c, "strided_copy", (DeviceDim3){CP_N / CP_BLOCK, 1, 1}, (DeviceDim3){CP_BLOCK, 1, 1}, in,
                    (size_t)CP_N * stride[s], out, CP_N, 2, stride[s], CP_N, &st);
        if (!ok)
            break;
        int bad = 0;
        for (int i = 0; i < CP_N; i++)
            bad += out[i] != in[(size_t)i * stride[s]];
        if (bad)
            c->wrong++;
        spr[s] = ratio(st.timing.l1_sectors, CP_N / 32);
        cyc[s] = st.cycles;
        dram[s] = st.timing.dram_read_bytes;
        fprintf(c->o, "     %6d   %15.1f   %15llu   %6llu    %s\n", stride[s], spr[s], (unsigned long long)dram[s],
                (unsigned long long)cyc[s], bad ? "DIFFERS" : "matches C");
    }
    free(in);
    free(out);
    if (!ok)
        return false;
    fprintf(c->o, "\n   Answer: 4, 8, 32, 32.  32 lanes x 4 bytes = 128 bytes = 4 sectors when the floats are\n"
                  "   consecutive; stride 2 spreads them over 256 bytes (8 sectors, half of each unused); from\n"
                  "   stride 8 on every lane has a sector of its own, and 28 of its 32 bytes are wasted.\n"
                  "   Stride 32 moves 8x the bytes of stride 1 for the same useful data: stride 32 is %.1fx\n"
                  "   slower than stride 1 here.\n\n",
            ratio(cyc[3], cyc[0]));
    claim(c, spr[0] > 3.5 && spr[0] < 4.5, "stride 1: 4 sectors per request");
    claim(c, spr[1] > 7.5 && spr[1] < 8.5, "stride 2: 8 sectors per request");
    claim(c, spr[2] > 31 && spr[3] > 31, "stride 8 and 32: 32 sectors per request");
    claim(c, dram[3] >= 4 * dram[0], "stride 32 reads at least 4x the DRAM bytes of stride 1");
    claim(c, cyc[3] * 2 >= cyc[0] * 3, "stride 32 takes at least 1.5x the cycles of stride 1");
    fprintf(c->o, "\n");
    return true;
}

static bool banks(Ctx *c)
{
    static const int stride[4] = {1, 2, 32, 33};
    static float out[SM_GRID * SM_BLOCK];
    fprintf(c->o, "2. Bank conflicts.  smem_stride: lane l reads shared word l * stride, %d times.  Shared\n"
                  "   memory has 32 banks of 4-byte words; word w is in bank w %% 32, and a bank serves one\n"
                  "   word per pass: lanes that need different words of one bank wait for a replay.\n"
                  "   Question: how many passes does one warp's read take at stride 1, 2, 32 and 33?\n\n"
                  "     stride   replays per read   cycles\n",
            SM_ITERS);
    uint64_t cyc[4];
    double rpr[4];
    const double reads = (double)SM_GRID * SM_BLOCK / 32 * SM_ITERS;
    for (int s = 0; s < 4; s++) {
        DeviceStats st;
        if (!launch(c, "smem_stride", (DeviceDim3){SM_GRID, 1, 1}, (DeviceDim3){SM_BLOCK, 1, 1}, NULL, 0, out,
                    SM_GRID * SM_BLOCK, 2, stride[s], SM_ITERS, &st))
            return false;
        cyc[s] = st.cycles;
        rpr[s] = (double)st.timing.bank_conflict_replays / reads;
        fprintf(c->o, "     %6d   %16.1f   %6llu\n", stride[s], rpr[s], (unsigned long long)cyc[s]);
    }
    fprintf(c->o, "\n   Answer: 1, 2, 32, 1.  Stride 1: 32 lanes, 32 banks.  Stride 2: lanes l and l + 16 share\n"
                  "   a bank, 2 passes.  Stride 32: every lane is in bank 0, 32 passes, 31 replays.  Stride 33:\n"
                  "   lane l is in bank l again -- one word of padding per row undoes the conflict.  (The\n"
                  "   stores that fill the array are conflict-free and add no replays.)  Stride 32 is %.1fx\n"
                  "   slower than stride 1, stride 33 %.1fx.\n\n",
            ratio(cyc[2], cyc[0]), ratio(cyc[3], cyc[0]));
    claim(c, rpr[0] < 0.05 && rpr[3] < 0.05, "stride 1 and 33: no replays");
    claim(c, rpr[1] > 0.95 && rpr[1] < 1.05, "stride 2: one replay per read");
    claim(c, rpr[2] > 30.9 && rpr[2] < 31.1, "stride 32: 31 replays per read");
    claim(c, cyc[2] * 2 >= cyc[0] * 3, "stride 32 takes at least 1.5x the cycles of stride 1");
    claim(c, cyc[3] * 3 <= cyc[2] * 2, "stride 33 takes at most 2/3 of the cycles of stride 32");
    fprintf(c->o, "\n");
    return true;
}

static bool transpose(Ctx *c)
{
    static const char *const k[3] = {"transpose_naive", "transpose_smem", "transpose_padded"};
    static float a[TN * TN], b[TN * TN];
    for (int i = 0; i < TN * TN; i++)
        a[i] = (float)i;
    fprintf(c->o, "3. Transpose, %dx%d floats, blocks of 32x8 threads each moving a 32x32 tile.\n"
                  "   naive: reads a row, writes a column.  smem: reads a row into a 32x32 shared tile, writes\n"
                  "   a row from a column of the tile.  padded: the same with a 32x33 tile.\n"
                  "   Question: which is fastest, and where does each lose time?\n\n"
                  "     kernel             L2 sectors   bank replays   cycles    result\n",
            TN, TN);
    uint64_t cyc[3], l2[3], rep[3];
    for (int m = 0; m < 3; m++) {
        DeviceStats st;
        if (!launch(c, k[m], (DeviceDim3){TN / 32, TN / 32, 1}, (DeviceDim3){32, 8, 1}, a, TN * TN, b, TN * TN, 1, TN,
                    0, &st))
            return false;
        int bad = 0;
        for (int y = 0; y < TN; y++)
            for (int x = 0; x < TN; x++)
                bad += b[x * TN + y] != a[y * TN + x];
        if (bad)
            c->wrong++;
        cyc[m] = st.cycles;
        l2[m] = st.timing.l2_sectors;
        rep[m] = st.timing.bank_conflict_replays;
        fprintf(c->o, "     %-17s %11llu   %12llu   %6llu    %s\n", k[m], (unsigned long long)l2[m],
                (unsigned long long)rep[m], (unsigned long long)cyc[m], bad ? "DIFFERS" : "matches C");
    }
    fprintf(c->o, "\n   Answer: padded.  naive's writes are a column: 32 lanes, 32 sectors, each used for 4\n"
                  "   bytes (%.1fx padded's L2 sectors).  smem fixes the global side but reads the tile by\n"
                  "   column, and a column of a 32-wide float tile is one bank: 32-way conflicts.  One word\n"
                  "   of padding per row moves each row one bank on; naive is %.1fx and smem %.1fx the\n"
                  "   cycles of padded here.\n\n",
            ratio(l2[0], l2[2]), ratio(cyc[0], cyc[2]), ratio(cyc[1], cyc[2]));
    claim(c, l2[0] * 2 >= l2[2] * 3, "naive moves at least 1.5x the L2 sectors of padded");
    claim(c, rep[1] > 0 && rep[2] == 0, "smem has bank-conflict replays, padded none");
    claim(c, cyc[0] > cyc[2], "naive is slower than padded");
    claim(c, cyc[1] > cyc[2], "smem is slower than padded");
    fprintf(c->o, "\n");
    return true;
}

int lesson05_run(const LessonEnv *env)
{
    Ctx c = {.o = env->out};
    if (!lesson_open(env, &c.dev, &c.mod))
        return 2;
    fprintf(c.o, "Lesson 05: access patterns        (simulator with the timing model, %s)\n"
                 "kernels: %s/kernel.cu\n"
                 "Cycles are the timing model's estimate: compare them with each other, not with a GPU.\n\n",
            device_arch(c.dev), env->dir);
    bool ran = coalescing(&c) && banks(&c) && transpose(&c);
    if (ran) {
        fprintf(c.o, "Look closer -- the same launches, with every counter:\n"
                     "   warpsim run %s/kernel.ptx --kernel smem_stride --grid 1 --block 32 \\\n"
                     "       --arg buf:f32[32]=fill:0 --arg i32:32 --arg i32:4 --timing\n"
                     "   warpsim run %s/kernel.ptx --kernel transpose_smem --grid 2,2 --block 32,8 \\\n"
                     "       --arg buf:f32[4096]=rand:1 --arg buf:f32[4096]=fill:0 --arg i32:64 --timing\n"
                     "Compare with a GPU: warpsim xcheck 05-access-patterns\n"
                     "Exercise: %s/exercise/README.md -- a transpose through shared memory without "
                     "bank conflicts (warpsim grade 5).\n",
                env->dir, env->dir, env->dir);
        if (c.wrong)
            fprintf(c.o, "\n%d check%s did not hold (marked NO or DIFFERS above).\n", c.wrong,
                    c.wrong == 1 ? "" : "s");
    }
    device_close(c.dev);
    return !ran ? 2 : c.wrong ? 1 : 0;
}
