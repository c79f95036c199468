/* harness.c: lesson 13 -- tile programming.  Runs the lesson's kernel.ptx
 * in the simulator: saxpy in SIMT and in tiles side by side (the same bits),
 * a 2-D tile space with partial tiles and a broadcast column, row
 * reductions, tile atomics within and across blocks under many atomic
 * orders, a hint and __restrict__ (the PTX changes, the result does not),
 * and the tile records the simulator writes into a trace. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "argspec.h"
#include "lesson.h"
#include "source.h"
#include "trace.h"

#define KT 128    /* tile::kThreads */
#define SEEDS 20
#define ARGS(...) ((void *[]){__VA_ARGS__})

typedef struct {
    Device *dev;
    DeviceModule *mod;
    FILE *o;
    const char *dir;
    int mismatches;
} Ctx;

static const char *verdict(Ctx *c, bool ok)
{
    if (!ok)
        c->mismatches++;
    return ok ? "" : "   <- DIFFERS";
}

static uint32_t bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

/* One launch: grid gx x gy of `block` threads, an atomic order and seed
 * (random schedule with it when seed >= 0), a trace when path is set. */
static bool run(Ctx *c, const char *k, unsigned gx, unsigned gy, unsigned block, int seed, const char *trace,
                void **args)
{
    DeviceLaunch cfg = {.grid = {gx, gy, 1}, .block = {block, 1, 1}, .trace_path = trace};
    if (seed >= 0) {
        cfg.schedule = DEVICE_SCHED_RANDOM;
        cfg.atomic_order = DEVICE_ATOMIC_RANDOM;
        cfg.seed = (uint64_t)seed;
    }
    DeviceFault f;
    SimStatus st = lesson_launch_cfg(c->mod, k, &cfg, args, NULL, &f);
    if (st == SIM_ERR_FAULT)
        fprintf(stderr, "warpsim lesson: %s faulted: %s\n", k, f.msg);
    return st == SIM_OK;
}

static DevicePtr buf(Ctx *c, const void *src, size_t bytes)
{
    DevicePtr p = 0;
    if (!lesson_upload(c->dev, src, bytes, &p))
        p = 0;
    return p;
}

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

/* The tile records of a trace, printed as `warpsim trace dump` does (at most
 * max of them, those of `block` only unless it is UINT64_MAX). */
static void print_tiles(Ctx *c, const char *path, uint64_t block, int max, int elems)
{
    SimError err;
    TraceReader *r = trace_open_file(path, &err);
    if (!r)
        return;
    TraceEvent e;
    int shown = 0;
    while (trace_next(r, &e) && shown < max) {
        if (e.type != TRACE_EV_TILE || (block != UINT64_MAX && e.block != block))
            continue;
        char line[256];
        fprintf(c->o, "     block %llu  %s\n", (unsigned long long)e.block, trace_tile_summary(&e, line, sizeof line));
        TraceTileElem el[8];
        uint32_t n = trace_tile_elems(&e, el, (uint32_t)elems);
        for (uint32_t k = 0; k < n; k++)
            if (el[k].updated && e.u.tile.dtype == 2) /* s32 */
                fprintf(c->o, "         %u. element %u, thread %u: %d -> %d\n", k + 1, el[k].elem, el[k].thread,
                        (int32_t)(uint32_t)el[k].old, (int32_t)(uint32_t)el[k].val);
            else if (el[k].updated)
                fprintf(c->o, "         %u. element %u, thread %u: 0x%llx -> 0x%llx\n", k + 1, el[k].elem,
                        el[k].thread, (unsigned long long)el[k].old, (unsigned long long)el[k].val);
        shown++;
    }
    trace_close(r);
}

static void tmp_trace(char *path, size_t cap)
{
    snprintf(path, cap, "/tmp/warpsim-lesson13-%d.wst", (int)getpid());
}

/* 1. saxpy in SIMT and in tiles. */
static bool saxpy(Ctx *c)
{
    enum { N = 1000 };
    float x[N], y[N], simt[N], tl[N], a = 1.5f;
    argspec_fill_rand(PTX_T_F32, 1, (uint8_t *)x, N);
    argspec_fill_rand(PTX_T_F32, 2, (uint8_t *)y, N);
    int n = N, same = 0, ref = 0;
    char path[128];
    tmp_trace(path, sizeof path);
    DevicePtr dx = buf(c, x, sizeof x), dy = buf(c, y, sizeof y), dy2 = buf(c, y, sizeof y);
    if (!dx || !dy || !dy2 || !run(c, "saxpy_simt", (N + 255) / 256, 1, 256, -1, NULL, ARGS(&dx, &dy, &a, &n)) ||
        !run(c, "saxpy_tile", (N + 255) / 256, 1, KT, -1, path, ARGS(&dx, &dy2, &a, &n)) ||
        !lesson_download(c->dev, simt, dy, sizeof simt) || !lesson_download(c->dev, tl, dy2, sizeof tl))
        return false;
    for (int i = 0; i < N; i++) {
        same += bits(simt[i]) == bits(tl[i]);
        ref += bits(tl[i]) == bits(fmaf(a, x[i], y[i]));
    }
    fprintf(c->o, "1. The same computation twice: y = 1.5 * x + y over %d floats.\n"
                  "   saxpy_simt: 4 blocks of 256 threads, one element each, `if (i < n)`.\n"
                  "   saxpy_tile: 4 blocks of %d threads, one 256-element tile each; the last tile\n"
                  "   (elements 768..1023) is partial: its load pads with 0, its store drops 24.\n"
                  "     elements equal bit for bit, SIMT vs tiles: %d of %d%s\n"
                  "     equal to fmaf(a, x, y) in C:             %d of %d%s\n"
                  "   The simulator sees the tiles (trace records, `warpsim trace dump`):\n",
            N, KT, same, N, verdict(c, same == N), ref, N, verdict(c, ref == N));
    print_tiles(c, path, 3, 3, 0);
    unlink(path);
    fputc('\n', c->o);
    return true;
}

/* 2. A 2-D tile space, partial tiles, a broadcast column. */
static bool scale_rows(Ctx *c)
{
    enum { R = 37, C = 45 };
    static float a[R * C], s[R], b[R * C];
    argspec_fill_rand(PTX_T_F32, 3, (uint8_t *)a, R * C);
    for (int r = 0; r < R; r++)
        s[r] = (float)(r + 1) * 0.5f;
    int rows = R, cols = C, ok = 0;
    DevicePtr da = buf(c, a, sizeof a), ds = buf(c, s, sizeof s), db = buf(c, NULL, sizeof b);
    if (!da || !ds || !db || !run(c, "scale_rows", 2, 3, KT, -1, NULL, ARGS(&da, &ds, &db, &rows, &cols)) ||
        !lesson_download(c->dev, b, db, sizeof b))
        return false;
    for (int r = 0; r < R; r++)
        for (int k = 0; k < C; k++)
            ok += bits(b[r * C + k]) == bits(a[r * C + k] * s[r]);
    fprintf(c->o, "2. A 2-D tile space.  A is %d x %d, a tile 16 x 32: the tile space is 3 x 2 tiles, and\n"
                  "   the grid is that tile space: grid (2, 3), tile (bid(1), bid(0)).  Tile (2, 1) covers\n"
                  "   rows 32..47 and columns 32..63 but only 5 x 13 of its 512 elements exist.\n"
                  "   s is loaded as a 16 x 1 column and broadcast across the 32 columns: t * col.\n"
                  "     B[r][k] == A[r][k] * s[r]: %d of %d%s\n\n",
            R, C, ok, R * C, verdict(c, ok == R * C));
    return true;
}

/* The header's reduction order: per thread its slots in order (element e in
 * thread e % 128), a butterfly over each warp, then the 4 warps in order. */
static float tree_sum(const float *v, int size)
{
    float acc[KT];
    for (int t = 0; t < KT; t++) {
        acc[t] = -0.0f;
        for (int e = t; e < size; e += KT)
            acc[t] += v[e];
    }
    for (int d = 16; d > 0; d /= 2) {
        float nx[KT];
        for (int t = 0; t < KT; t++)
            nx[t] = acc[t] + acc[t ^ d];
        memcpy(acc, nx, sizeof acc);
    }
    return ((acc[0] + acc[32]) + acc[64]) + acc[96];
}

/* 3. Reductions with the right pads. */
static bool row_stats(Ctx *c)
{
    enum { R = 4, C = 1000 };
    static float a[R * C];
    float sum[R], mx[R], dev[R];
    argspec_fill_rand(PTX_T_F32, 4, (uint8_t *)a, R * C);
    int rows = R, cols = C, ok = 0;
    DevicePtr da = buf(c, a, sizeof a), ds = buf(c, NULL, sizeof sum), dm = buf(c, NULL, sizeof mx),
              dd = buf(c, NULL, sizeof dev);
    if (!da || !ds || !dm || !dd || !run(c, "row_stats", R, 1, KT, -1, NULL, ARGS(&da, &ds, &dm, &dd, &rows, &cols)) ||
        !lesson_download(c->dev, sum, ds, sizeof sum) || !lesson_download(c->dev, mx, dm, sizeof mx) ||
        !lesson_download(c->dev, dev, dd, sizeof dev))
        return false;
    fprintf(c->o, "3. Reductions.  One block per row of a %d x %d matrix, one 1 x 1024 tile per row:\n"
                  "   24 elements of padding.  sum pads with 0, reduce_max with -inf: padding must not\n"
                  "   change the result.  The mean deviation uses where() to zero the padding.\n"
                  "     row   sum           max        mean |x - mean|   (C, in the header's order)\n",
            R, C);
    for (int r = 0; r < R; r++) {
        float t[1024], d[1024], m = -INFINITY;
        for (int e = 0; e < 1024; e++) {
            t[e] = e < C ? a[r * C + e] : 0.0f;
            if (e < C && t[e] > m)
                m = t[e];
        }
        float s = tree_sum(t, 1024), mean = s / C;
        for (int e = 0; e < 1024; e++)
            d[e] = e < C ? fabsf(t[e] - mean) : 0.0f;
        float dv = tree_sum(d, 1024) / C;
        bool same = bits(s) == bits(sum[r]) && bits(m) == bits(mx[r]) && bits(dv) == bits(dev[r]);
        ok += same;
        fprintf(c->o, "     %d   %11.6f   %8.6f   %8.6f%s\n", r, sum[r], mx[r], dev[r], verdict(c, same));
    }
    fprintf(c->o, "   The order of a tile reduction is fixed, so a float sum gives the same bits on\n"
                  "   every run -- unlike the atomics below.\n\n");
    (void)ok;
    return true;
}

/* 4. Tile atomics. */
static bool atomics(Ctx *c)
{
    enum { N = 10000, G = (N + 255) / 256 };
    static float fin[N];
    static int iin[N];
    argspec_fill_rand(PTX_T_F32, 5, (uint8_t *)fin, N);
    for (int i = 0; i < N; i++)
        iin[i] = (int)(i * 7919u % 201) - 100;
    uint32_t si[SEEDS], sf[SEEDS], bi[SEEDS], bf[SEEDS];
    int n = N;
    DevicePtr dfi = buf(c, fin, sizeof fin), dii = buf(c, iin, sizeof iin);
    if (!dfi || !dii)
        return false;
    for (int seed = 0; seed < SEEDS; seed++) {
        uint32_t z = 0;
        DevicePtr s1 = buf(c, &z, 4), s2 = buf(c, &z, 4), s3 = buf(c, &z, 4), s4 = buf(c, &z, 4);
        if (!s1 || !s2 || !s3 || !s4 || !run(c, "slot_sum_i32", 1, 1, KT, seed, NULL, ARGS(&dii, &s1)) ||
            !run(c, "slot_sum_f32", 1, 1, KT, seed, NULL, ARGS(&dfi, &s2)) ||
            !run(c, "block_sum_i32", G, 1, KT, seed, NULL, ARGS(&dii, &s3, &n)) ||
            !run(c, "block_sum_f32", G, 1, KT, seed, NULL, ARGS(&dfi, &s4, &n)) ||
            !lesson_download(c->dev, &si[seed], s1, 4) || !lesson_download(c->dev, &sf[seed], s2, 4) ||
            !lesson_download(c->dev, &bi[seed], s3, 4) || !lesson_download(c->dev, &bf[seed], s4, 4))
            return false;
    }
    int dsi = distinct_u32(si, SEEDS), dsf = distinct_u32(sf, SEEDS), dbi = distinct_u32(bi, SEEDS),
        dbf = distinct_u32(bf, SEEDS);
    int isum = 0, ibsum = 0;
    for (int i = 0; i < 256; i++)
        isum += iin[i];
    for (int i = 0; i < N; i++)
        ibsum += iin[i];
    fprintf(c->o, "4. Tile atomics: one atomic update per element; each is atomic, the call is not, and\n"
                  "   the order of the elements' updates is unspecified.  Each kernel ran under %d seeds\n"
                  "   of a random atomic order and schedule:\n"
                  "     kernel          contention             scope    distinct results\n"
                  "     slot_sum_i32    256 elements, 1 slot   block    %d%s\n"
                  "     slot_sum_f32    256 elements, 1 slot   block    %d%s\n"
                  "     block_sum_i32   %d blocks, out[0]      device   %d%s\n"
                  "     block_sum_f32   %d blocks, out[0]      device   %d%s\n"
                  "   Integer addition does not care about the order; float addition rounds\n"
                  "   differently in every order.  (block_sum reduces each tile first: %d atomics, not %d.)\n",
            SEEDS, dsi, verdict(c, dsi == 1 && (int)si[0] == isum), dsf, verdict(c, dsf > 1), G, dbi,
            verdict(c, dbi == 1 && (int)bi[0] == ibsum), G, dbf, verdict(c, dbf > 1), G, N);
    /* the histogram: padding must not count */
    enum { H = 16, HN = 1000 };
    int key[HN], hist[H] = {0}, want[H] = {0}, hn = HN, nb = H;
    for (int i = 0; i < HN; i++) {
        key[i] = (int)(i * 2654435761u % H);
        want[key[i]]++;
    }
    DevicePtr dk = buf(c, key, sizeof key), dh = buf(c, hist, sizeof hist);
    if (!dk || !dh || !run(c, "histogram", 4, 1, KT, 7, NULL, ARGS(&dk, &dh, &hn, &nb)) ||
        !lesson_download(c->dev, hist, dh, sizeof hist))
        return false;
    int hok = !memcmp(hist, want, sizeof want);
    fprintf(c->o, "   histogram: %d keys into %d bins in tiles of 256; the last tile's 24 padded\n"
                  "   elements get index -1, which the tile atomic skips.  Bin 0 holds %d (want %d)%s\n",
            HN, H, hist[0], want[0], verdict(c, hok));
    char path[128];
    tmp_trace(path, sizeof path);
    DeviceLaunch cfg = {.grid = {1, 1, 1}, .block = {KT, 1, 1}, .trace_path = path,
                        .atomic_order = DEVICE_ATOMIC_REVERSE};
    uint32_t z = 0;
    DevicePtr s = buf(c, &z, 4);
    if (!s || lesson_launch_cfg(c->mod, "slot_sum_i32", &cfg, ARGS(&dii, &s), NULL, NULL) != SIM_OK)
        return false;
    fprintf(c->o, "   The trace records each element's update in the order applied (here\n"
                  "   --atomic-order reverse: lane 31 of each warp first):\n");
    print_tiles(c, path, UINT64_MAX, 2, 4);
    unlink(path);
    fputc('\n', c->o);
    return true;
}

/* The lines of entry k's body in the PTX text that contain `what`. */
static int count_in_entry(const char *ptx, const char *k, const char *what)
{
    char head[128];
    snprintf(head, sizeof head, ".entry %s(", k);
    const char *a = strstr(ptx, head);
    if (!a)
        return -1;
    const char *end = strstr(a, "\n}");
    int n = 0;
    for (const char *p = strstr(a, what); p && (!end || p < end); p = strstr(p + 1, what))
        n++;
    return n;
}

/* 5 and 6: hints and __restrict__ change the PTX, not the result. */
static bool codegen(Ctx *c)
{
    enum { N = 3000 };
    static float in[N], a[N], b[N], o1[N], o2[N];
    argspec_fill_rand(PTX_T_F32, 6, (uint8_t *)in, N);
    int n = N;
    DevicePtr di = buf(c, in, sizeof in), d1 = buf(c, NULL, sizeof o1), d2 = buf(c, NULL, sizeof o2);
    if (!di || !d1 || !d2 || !run(c, "copy_plain", (N + 255) / 256, 1, KT, -1, NULL, ARGS(&di, &d1, &n)) ||
        !run(c, "copy_hinted", (N + 255) / 256, 1, KT, -1, NULL, ARGS(&di, &d2, &n)) ||
        !lesson_download(c->dev, o1, d1, sizeof o1) || !lesson_download(c->dev, o2, d2, sizeof o2))
        return false;
    char path[1200], msg[256];
    snprintf(path, sizeof path, "%s/kernel.ptx", c->dir);
    size_t len;
    char *ptx = source_read_file(path, &len, msg, sizeof msg);
    if (!ptx)
        return false;
    int same = !memcmp(o1, o2, sizeof o1) && !memcmp(o1, in, sizeof in);
    int cs_plain = count_in_entry(ptx, "copy_plain", ".cs."), cs_hint = count_in_entry(ptx, "copy_hinted", ".cs.");
    fprintf(c->o, "5. A hint: copy_hinted passes tile::latency<9>{} to its load and store.\n"
                  "     streaming accesses (.cs) in the PTX: copy_plain %d, copy_hinted %d%s\n"
                  "     outputs identical, bit for bit: %s%s\n",
            cs_plain, cs_hint, verdict(c, cs_plain == 0 && cs_hint > 0), same ? "yes" : "no", verdict(c, same));
    DevicePtr d3 = buf(c, NULL, sizeof a), d4 = buf(c, NULL, sizeof b);
    if (!d3 || !d4 || !run(c, "twice_restrict", (N / 2 + 255) / 256, 1, 256, -1, NULL, ARGS(&di, &d3, &n)) ||
        !run(c, "twice_alias", (N / 2 + 255) / 256, 1, 256, -1, NULL, ARGS(&di, &d4, &n)) ||
        !lesson_download(c->dev, a, d3, sizeof a) || !lesson_download(c->dev, b, d4, sizeof b)) {
        free(ptx);
        return false;
    }
    int nc_r = count_in_entry(ptx, "twice_restrict", "ld.global.nc"), nc_a = count_in_entry(ptx, "twice_alias",
                                                                                           "ld.global.nc");
    same = !memcmp(a, b, sizeof a);
    fprintf(c->o, "6. __restrict__: twice_restrict and twice_alias (SIMT) differ only in the promise.\n"
                  "     read-only loads (ld.global.nc): with __restrict__ %d, without %d%s\n"
                  "     outputs identical: %s%s\n"
                  "   (The tile kernels add_restrict and add_alias compile to the same PTX: a tile is\n"
                  "   loaded whole before anything is stored.)\n\n",
            nc_r, nc_a, verdict(c, nc_r > 0 && nc_a == 0), same ? "yes" : "no", verdict(c, same));
    free(ptx);
    return true;
}

int lesson13_run(const LessonEnv *env)
{
    Ctx c = {.o = env->out, .dir = env->dir};
    if (!lesson_open(env, &c.dev, &c.mod))
        return 2;
    fprintf(c.o, "Lesson 13: tile programming        (simulator, %s)\n"
                 "kernels: %s/kernel.cu, written with lessons/include/tile.cuh\n\n",
            device_arch(c.dev), env->dir);
    bool ran = saxpy(&c) && scale_rows(&c) && row_stats(&c) && atomics(&c) && codegen(&c);
    if (ran) {
        fprintf(c.o, "Try it yourself (a tile kernel needs only --grid):\n"
                     "   warpsim explore %s/kernel.ptx --kernel slot_sum_f32 --grid 1 --block 128 \\\n"
                     "       --arg buf:f32[256]=rand:5 --arg buf:f32[1]=fill:0 --runs 100\n"
                     "   warpsim run %s/kernel.ptx --kernel saxpy_tile --grid 4 --arg buf:f32[1000]=rand:1 \\\n"
                     "       --arg buf:f32[1000]=rand:2 --arg f32:1.5 --arg i32:1000 --trace t.wst\n"
                     "   warpsim trace dump t.wst;  warpsim viz t.wst --view tile\n",
                env->dir, env->dir);
        if (c.mismatches)
            fprintf(c.o, "\n%d result%s differ from the expected values (marked DIFFERS above).\n", c.mismatches,
                    c.mismatches == 1 ? "" : "s");
    }
    device_close(c.dev);
    return !ran ? 2 : c.mismatches ? 1 : 0;
}
