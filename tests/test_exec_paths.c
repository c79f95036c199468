/* test_exec_paths.c: the executor's fast paths against the plain ones.
 *
 * Full warps take shortcuts: fma.rn.f32 runs eight lanes at a time with
 * the host's FMA instruction (AVX2+FMA) or, without it, in double precision
 * with a per-lane fmaf fallback (exec_float.c); ld/st check every lane's
 * address at once and copy in one loop (region_of in exec_mem.c), falling
 * back to the lane-by-lane path when any lane would fault.  Here the same
 * kernels run on full warps, on partial warps (blocks of 40 threads) and
 * with single lanes, and every result is compared with C's fmaf() or with
 * the per-lane path's fault (SQLite style: the clever path beside a naive
 * reference).  A warp clears only the registers a lane may read before
 * writing them (exec_regs.c): blocks that do and blocks that do not write
 * a register share block slots, and each must still read 0 where it did not
 * write.  setp on 32-bit integers (exec_vec.c: AVX2 where the host has it,
 * else SSE2) is checked against C's comparisons on both paths.  The kernels are inline PTX.  Run from the repository root. */
#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "harness.h"
#include "exec_int.h"

static int teardown(void **s)
{
    exec_float_test_portable_fma(false);
    exec_vec_test_mode(-1);
    return harness_teardown(s);
}

static SimStatus launch(DeviceModule *m, unsigned grid, unsigned block, void **args, DeviceFault *fault)
{
    SimError err;
    DeviceLaunch cfg = {.grid = {grid, 1, 1}, .block = {block, 1, 1}, .smem = 0, .inst_budget = 0};
    memset(fault, 0, sizeof *fault);
    SimStatus st = device_launch(m, "k", &cfg, args, NULL, fault, &err);
    if (st != SIM_OK && st != SIM_ERR_FAULT)
        fail_msg("launch: %s", err.msg);
    return st;
}

static uint32_t f2u(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static float u2f(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }

/* xorshift64*: a fixed seed, so a failure names the same inputs each run */
static uint64_t rng = 0x9e3779b97f4a7c15ull;
static uint32_t rnd32(void)
{
    rng ^= rng >> 12;
    rng ^= rng << 25;
    rng ^= rng >> 27;
    return (uint32_t)((rng * 0x2545f4914f6cdd1dull) >> 32);
}

/* ---- fma.rn.f32 ------------------------------------------------------------ */

/* d[i] = fma.rn(a[i], b[i], c[i]) for i = ctaid.x * ntid.x + tid.x < n */
static const char *fma_ptx =
    ".version 8.0\n.target sm_90\n.address_size 64\n"
    ".visible .entry k(.param .u64 pa, .param .u64 pb, .param .u64 pc, .param .u64 pd, .param .u32 n)\n"
    "{\n"
    ".reg .pred %p<2>;\n.reg .b32 %r<8>;\n.reg .f32 %f<5>;\n.reg .b64 %rd<12>;\n"
    "ld.param.u64 %rd1, [pa];\nld.param.u64 %rd2, [pb];\nld.param.u64 %rd3, [pc];\n"
    "ld.param.u64 %rd4, [pd];\nld.param.u32 %r5, [n];\n"
    "mov.u32 %r1, %ctaid.x;\nmov.u32 %r2, %ntid.x;\nmov.u32 %r3, %tid.x;\n"
    "mad.lo.s32 %r4, %r1, %r2, %r3;\n"
    "setp.ge.u32 %p1, %r4, %r5;\n@%p1 bra DONE;\n"
    "mul.wide.u32 %rd5, %r4, 4;\n"
    "add.s64 %rd6, %rd1, %rd5;\nadd.s64 %rd7, %rd2, %rd5;\nadd.s64 %rd8, %rd3, %rd5;\n"
    "add.s64 %rd9, %rd4, %rd5;\n"
    "ld.global.f32 %f1, [%rd6];\nld.global.f32 %f2, [%rd7];\nld.global.f32 %f3, [%rd8];\n"
    "fma.rn.f32 %f4, %f1, %f2, %f3;\n"
    "st.global.f32 [%rd9], %f4;\n"
    "DONE:\nret;\n}\n";

#define NFMA 16384

typedef struct {
    uint32_t a[NFMA], b[NFMA], c[NFMA];
    int n;
} FmaInputs;

static void push(FmaInputs *in, float a, float b, float c)
{
    if (in->n < NFMA) {
        in->a[in->n] = f2u(a);
        in->b[in->n] = f2u(b);
        in->c[in->n] = f2u(c);
        in->n++;
    }
}

/* Special values, products whose exact value is a float midpoint nudged
 * by a tiny addend (the double path rounds those twice), results at the
 * edges of the normal range, subnormal and overflowing results, and random
 * bit patterns (every class: NaN payloads, infinities, subnormals). */
static void fma_inputs(FmaInputs *in)
{
    static const float sp[] = {0.0f, -0.0f, 1.0f, -1.0f, INFINITY, -INFINITY, NAN, -NAN,
                               FLT_MIN, -FLT_MIN, FLT_MAX, -FLT_MAX, 1e-45f, -1e-45f,
                               0x1p-127f, 0x1.fffffcp-127f, 0x1p-149f, 3.0f, 0.5f, 0x1p+64f,
                               0x1p-64f, 0x1.000002p+0f, 0x1.fffffep+127f};
    int ns = (int)(sizeof sp / sizeof *sp);
    in->n = 0;
    for (int i = 0; i < ns; i++)
        for (int j = 0; j < ns; j++)
            for (int k = 0; k < ns; k += 3)
                push(in, sp[i], sp[j], sp[k]);
    /* midpoints: (1 + i 2^-12)(1 + j 2^-12) with i, j odd and the product
     * below 2 is an odd multiple of 2^-24, exactly halfway between two
     * floats; +-2^-60 decides the rounding, but is lost in double */
    for (int t = 0; in->n < NFMA * 5 / 8 && t < 100000; t++) {
        int i = (int)(rnd32() % 2048) | 1, j = (int)(rnd32() % 2048) | 1;
        float a = 1.0f + (float)i * 0x1p-12f, b = 1.0f + (float)j * 0x1p-12f;
        if ((double)a * b >= 2.0)
            continue;
        int e = (int)(rnd32() % 120) - 60; /* scale: a 2^e, b 2^-e/2, c 2^(e/2) */
        float sa = ldexpf(a, e), sb = ldexpf(b, -e / 2);
        float tiny = ldexpf(1.0f, -60 + e - e / 2);
        if (rnd32() & 1)
            tiny = -tiny;
        if (rnd32() & 1) {
            sa = -sa;
        }
        push(in, sa, sb, tiny);
        push(in, sa, sb, 0.0f); /* exactly the midpoint: ties to even */
    }
    /* near overflow and underflow */
    for (int t = 0; t < 512; t++) {
        float big = ldexpf(1.0f + (float)(rnd32() % 8388608) * 0x1p-23f, 63 + (int)(rnd32() % 3));
        push(in, big, big, -ldexpf(1.0f, 127 + (int)(rnd32() % 2)));
        float small = ldexpf(1.0f + (float)(rnd32() % 8388608) * 0x1p-23f, -75 + (int)(rnd32() % 10));
        push(in, small, small, (rnd32() & 1) ? 0x1p-149f : -0x1p-140f);
        push(in, small, -small, u2f(rnd32() & 0x807fffffu)); /* subnormal addend */
    }
    while (in->n < NFMA)
        push(in, u2f(rnd32()), u2f(rnd32()), u2f(rnd32()));
}

static uint32_t ref_fma(uint32_t a, uint32_t b, uint32_t c)
{
    float r = fmaf(u2f(a), u2f(b), u2f(c));
    return r != r ? ALU_F32_CANON_NAN : f2u(r);
}

/* Run every input through the kernel with blocks of `block` threads. */
static void fma_run(const FmaInputs *in, unsigned block, uint32_t *out)
{
    DeviceModule *m = load_text("paths.ptx", fma_ptx);
    DevicePtr pa = up(in->a, sizeof in->a), pb = up(in->b, sizeof in->b), pc = up(in->c, sizeof in->c);
    DevicePtr pd = up(out, sizeof in->a);
    uint32_t n = (uint32_t)in->n;
    void *args[] = {&pa, &pb, &pc, &pd, &n};
    DeviceFault fault;
    assert_int_equal(launch(m, (n + block - 1) / block, block, args, &fault), SIM_OK);
    down(out, pd, sizeof in->a);
}

static void fma_check(const FmaInputs *in, const uint32_t *out, const char *what)
{
    int bad = 0;
    for (int i = 0; i < in->n; i++) {
        uint32_t want = ref_fma(in->a[i], in->b[i], in->c[i]);
        if (out[i] != want && bad++ < 5)
            print_error("%s: fma(%a, %a, %a) [%08x %08x %08x] gave %08x, fmaf %08x\n", what,
                        (double)u2f(in->a[i]), (double)u2f(in->b[i]), (double)u2f(in->c[i]),
                        in->a[i], in->b[i], in->c[i], out[i], want);
    }
    if (bad)
        fail_msg("%s: %d of %d fma.rn.f32 results differ from fmaf", what, bad, in->n);
}

static void test_exec_paths_fma_f32_full_warp_matches_fmaf(void **state)
{
    (void)state;
    static FmaInputs in;
    static uint32_t out[NFMA];
    fma_inputs(&in);
    int mids = 0;
    for (int i = 0; i < in.n; i++) { /* the inputs do reach the double path's fallback */
        double r = (double)u2f(in.a[i]) * u2f(in.b[i]) + u2f(in.c[i]);
        uint64_t u;
        memcpy(&u, &r, 8);
        mids += (u & 0x1fffffffu) == 0x10000000u && fabs(r) >= 0x1p-126 && fabs(r) <= 0x1p+127;
    }
    assert_true(mids > 1000);
    fma_run(&in, 256, out); /* host FMA where the CPU has it */
    fma_check(&in, out, "full warps");
    exec_float_test_portable_fma(true); /* the double path with its fallback */
    memset(out, 0, sizeof out);
    fma_run(&in, 256, out);
    exec_float_test_portable_fma(false);
    fma_check(&in, out, "full warps, portable path");
}

static void test_exec_paths_fma_f32_partial_warp_matches_fmaf(void **state)
{
    (void)state;
    static FmaInputs in;
    static uint32_t out[NFMA];
    fma_inputs(&in);
    fma_run(&in, 40, out); /* 32 + 8 lanes: the second warp is masked */
    fma_check(&in, out, "blocks of 40");
    in.n = NFMA - 5; /* and a ragged end: lanes past n are guarded off */
    memset(out, 0, sizeof out);
    fma_run(&in, 64, out);
    fma_check(&in, out, "guarded tail");
}

/* ---- setp on 32-bit integers (exec_vec.c) ---------------------------------
 * out[i]: bit k set when comparison k of a[i] and b[i] held -- eq ne lt le gt
 * ge as .s32 (bits 0-5), as .u32 (6-11), lt.s32 into p|q (12-13), and
 * a[i] >= 7 as .u32 (14). */
static const char *setp_ptx =
    ".version 8.0\n.target sm_90\n.address_size 64\n"
    ".visible .entry k(.param .u64 pa, .param .u64 pb, .param .u64 pd, .param .u32 n)\n"
    "{\n"
    ".reg .pred %p<20>;\n.reg .b32 %r<20>;\n.reg .b64 %rd<12>;\n"
    "ld.param.u64 %rd1, [pa];\nld.param.u64 %rd2, [pb];\nld.param.u64 %rd4, [pd];\nld.param.u32 %r5, [n];\n"
    "mov.u32 %r1, %ctaid.x;\nmov.u32 %r2, %ntid.x;\nmov.u32 %r3, %tid.x;\n"
    "mad.lo.s32 %r4, %r1, %r2, %r3;\n"
    "setp.ge.u32 %p0, %r4, %r5;\n@%p0 bra DONE;\n"
    "mul.wide.u32 %rd5, %r4, 4;\nadd.s64 %rd6, %rd1, %rd5;\nadd.s64 %rd7, %rd2, %rd5;\nadd.s64 %rd9, %rd4, %rd5;\n"
    "ld.global.u32 %r6, [%rd6];\nld.global.u32 %r7, [%rd7];\n"
    "setp.eq.s32 %p1, %r6, %r7;\nsetp.ne.s32 %p2, %r6, %r7;\nsetp.lt.s32 %p3, %r6, %r7;\n"
    "setp.le.s32 %p4, %r6, %r7;\nsetp.gt.s32 %p5, %r6, %r7;\nsetp.ge.s32 %p6, %r6, %r7;\n"
    "setp.eq.u32 %p7, %r6, %r7;\nsetp.ne.u32 %p8, %r6, %r7;\nsetp.lt.u32 %p9, %r6, %r7;\n"
    "setp.le.u32 %p10, %r6, %r7;\nsetp.gt.u32 %p11, %r6, %r7;\nsetp.ge.u32 %p12, %r6, %r7;\n"
    "setp.lt.s32 %p13|%p14, %r6, %r7;\nsetp.ge.u32 %p15, %r6, 7;\n"
    "mov.u32 %r9, 0;\n"
#define SETP_BIT(p, k) "selp.u32 %r10, " #k ", 0, %p" #p ";\nor.b32 %r9, %r9, %r10;\n"
    SETP_BIT(1, 1) SETP_BIT(2, 2) SETP_BIT(3, 4) SETP_BIT(4, 8) SETP_BIT(5, 16) SETP_BIT(6, 32)
    SETP_BIT(7, 64) SETP_BIT(8, 128) SETP_BIT(9, 256) SETP_BIT(10, 512) SETP_BIT(11, 1024)
    SETP_BIT(12, 2048) SETP_BIT(13, 4096) SETP_BIT(14, 8192) SETP_BIT(15, 16384)
#undef SETP_BIT
    "st.global.u32 [%rd9], %r9;\n"
    "DONE:\nret;\n}\n";
#define NSETP 4096

static uint32_t setp_ref(uint32_t a, uint32_t b)
{
    int32_t sa = (int32_t)a, sb = (int32_t)b;
    bool c[15] = {sa == sb, sa != sb, sa < sb, sa <= sb, sa > sb, sa >= sb,
                  a == b, a != b, a < b, a <= b, a > b, a >= b, sa < sb, !(sa < sb), a >= 7};
    uint32_t r = 0;
    for (int k = 0; k < 15; k++)
        r |= (uint32_t)c[k] << k;
    return r;
}

/* Every comparison on edge values, equal pairs and random ones, with
 * blocks of `block` threads and n of NSETP inputs (a ragged last warp). */
static void setp_run_check(unsigned block, uint32_t n, const char *what)
{
    static const uint32_t edge[] = {0, 1, 7, 8, 6, 0x7fffffffu, 0x80000000u, 0x80000001u, 0xffffffffu, 0xfffffff9u};
    static uint32_t a[NSETP], b[NSETP], out[NSETP];
    int ne = (int)(sizeof edge / sizeof *edge), i = 0;
    for (int x = 0; x < ne; x++)
        for (int y = 0; y < ne; y++, i++) {
            a[i] = edge[x];
            b[i] = edge[y];
        }
    for (; i < NSETP; i++) {
        a[i] = rnd32();
        b[i] = (i & 3) == 0 ? a[i] : (i & 3) == 1 ? a[i] ^ 0x80000000u : rnd32();
    }
    DeviceModule *m = load_text("setp.ptx", setp_ptx);
    DevicePtr pa = up(a, sizeof a), pb = up(b, sizeof b), pd = up(out, sizeof out);
    void *args[] = {&pa, &pb, &pd, &n};
    DeviceFault fault;
    assert_int_equal(launch(m, (n + block - 1) / block, block, args, &fault), SIM_OK);
    down(out, pd, sizeof out);
    int bad = 0;
    for (uint32_t j = 0; j < n; j++)
        if (out[j] != setp_ref(a[j], b[j]) && bad++ < 5)
            print_error("%s: a %08x b %08x: bits %04x, want %04x\n", what, a[j], b[j], out[j], setp_ref(a[j], b[j]));
    assert_int_equal(bad, 0);
}

static void test_exec_paths_setp32_matches_c_on_host_and_portable_paths(void **state)
{
    (void)state;
    setp_run_check(256, NSETP, "full warps");
    setp_run_check(40, NSETP - 3, "blocks of 40");
    exec_vec_test_mode(0); /* modules loaded from here on: the portable handlers */
    setp_run_check(256, NSETP, "full warps, portable");
    setp_run_check(40, NSETP - 3, "blocks of 40, portable");
    exec_vec_test_mode(-1);
}

/* ---- stores that fault in one lane --------------------------------------- */

/* out[...] at byte offset offs[t] gets 100 + t, for thread t of the block;
 * an offset of ~0 skips the store (the lane branches around it). */
static const char *st_ptx =
    ".version 8.0\n.target sm_90\n.address_size 64\n"
    ".visible .entry k(.param .u64 pout, .param .u64 poffs)\n"
    "{\n"
    ".reg .pred %p<2>;\n.reg .b32 %r<4>;\n.reg .b64 %rd<8>;\n"
    "ld.param.u64 %rd1, [pout];\nld.param.u64 %rd2, [poffs];\n"
    "mov.u32 %r1, %tid.x;\n"
    "mul.wide.u32 %rd3, %r1, 8;\nadd.s64 %rd4, %rd2, %rd3;\nld.global.u64 %rd5, [%rd4];\n"
    "setp.eq.s64 %p1, %rd5, -1;\n@%p1 bra DONE;\n"
    "add.s64 %rd6, %rd1, %rd5;\nadd.s32 %r2, %r1, 100;\n"
    "st.global.u32 [%rd6], %r2;\n"
    "DONE:\nret;\n}\n";

/* The line of st_ptx that holds its st.global. */
static int st_line(void)
{
    int line = 1;
    for (const char *s = st_ptx; *s && strncmp(s, "st.global", 9); s++)
        line += *s == '\n';
    return line;
}

typedef struct {
    SimStatus st;
    DeviceFault fault;
    uint32_t out[64];
} StResult;

/* One module and one pair of buffers for every run of a test, so that
 * faults name the same addresses and buffers. */
typedef struct {
    DeviceModule *m;
    unsigned nthreads;
    DevicePtr pout, poffs;    /* 4 * nthreads and 8 * nthreads bytes */
} StSetup;

static void st_setup(StSetup *s, unsigned nthreads)
{
    uint64_t zero[64] = {0};
    s->m = load_text("paths.ptx", st_ptx);
    s->nthreads = nthreads;
    s->pout = up(zero, 4 * (size_t)nthreads);
    s->poffs = up(zero, 8 * (size_t)nthreads);
}

/* Launch st_ptx on one block with offs, out zeroed first. */
static void st_run(const StSetup *s, const uint64_t *offs, StResult *r)
{
    SimError err;
    uint32_t zero[64] = {0};
    if (device_memcpy_htod(dev, s->pout, zero, 4 * (size_t)s->nthreads, &err) ||
        device_memcpy_htod(dev, s->poffs, offs, 8 * (size_t)s->nthreads, &err))
        fail_msg("htod: %s", err.msg);
    DevicePtr pout = s->pout, poffs = s->poffs;
    void *args[] = {&pout, &poffs};
    r->st = launch(s->m, 1, s->nthreads, args, &r->fault);
    memset(r->out, 0, sizeof r->out);
    down(r->out, pout, 4 * (size_t)s->nthreads);
}

/* Thread `bad` of nthreads gets bad_off; the warp faults at that lane with
 * the message the lone lane gets on the per-lane path; the lanes of its
 * warp before it stored, those after it did not, earlier warps all did. */
static void st_one_bad_lane(unsigned nthreads, unsigned bad, uint64_t bad_off, const char *kind,
                            const char *msg_part)
{
    uint64_t offs[64];
    static StResult full, lone;
    StSetup s;
    st_setup(&s, nthreads);
    for (unsigned t = 0; t < nthreads; t++)
        offs[t] = 4 * (uint64_t)t;
    offs[bad] = bad_off;
    st_run(&s, offs, &full);
    /* the reference: only the bad lane stores (a one-lane mask takes the
     * per-lane path's fault for that lane) */
    for (unsigned t = 0; t < nthreads; t++)
        offs[t] = t == bad ? bad_off : ~0ull;
    st_run(&s, offs, &lone);

    assert_int_equal(full.st, SIM_ERR_FAULT);
    assert_int_equal(lone.st, SIM_ERR_FAULT);
    assert_string_equal(full.fault.kind, kind);
    assert_string_equal(full.fault.msg, lone.fault.msg);
    if (!strstr(full.fault.msg, msg_part))
        fail_msg("message \"%s\" lacks \"%s\"", full.fault.msg, msg_part);
    assert_int_equal(full.fault.lane, (int)(bad % 32));
    assert_int_equal(full.fault.warp, (int)(bad / 32));
    assert_int_equal(full.fault.thread.x, bad);
    assert_int_equal(full.fault.ptx_line, st_line());
    assert_int_equal(full.fault.addr, lone.fault.addr);
    /* pinned: the lanes of the faulting warp store in lane order up to the
     * faulting lane; earlier warps ran to their end first; later lanes and
     * warps store nothing */
    for (unsigned t = 0; t < nthreads; t++) {
        uint32_t want = t < bad ? 100 + t : 0;
        if (full.out[t] != want)
            fail_msg("thread %u (bad %u of %u): stored %u, wanted %u", t, bad, nthreads, full.out[t], want);
    }
}

static void test_exec_paths_store_out_of_bounds_in_one_lane(void **state)
{
    (void)state;
    /* one element past the end of the 128-byte buffer, in lane 17 */
    st_one_bad_lane(32, 17, 128, "out-of-bounds",
                    "4-byte write at global address 0x");
    st_one_bad_lane(32, 17, 128, "out-of-bounds",
                    ": 4 bytes past the end of buffer #");
    /* far away: in no allocation */
    st_one_bad_lane(32, 5, 1ull << 40, "out-of-bounds", "which is in no allocation");
    /* the last lane, and the first */
    st_one_bad_lane(32, 31, 132, "out-of-bounds", "bytes past the end");
    st_one_bad_lane(32, 0, (uint64_t)-8, "out-of-bounds", "4-byte write at global address");
}

static void test_exec_paths_store_misaligned_in_one_lane(void **state)
{
    (void)state;
    st_one_bad_lane(32, 9, 4 * 9 + 2, "misaligned",
                    "4-byte write access at global address 0x");
    st_one_bad_lane(32, 9, 4 * 9 + 2, "misaligned", "is not aligned to 4 bytes");
    st_one_bad_lane(32, 30, 4 * 30 + 1, "misaligned", "is not aligned to 4 bytes");
}

static void test_exec_paths_partial_warp_store_faults_like_full(void **state)
{
    (void)state;
    /* 40 threads: warp 1 has 8 lanes; its lane 3 (thread 35) is bad */
    st_one_bad_lane(40, 35, 160, "out-of-bounds", "bytes past the end");
    st_one_bad_lane(40, 35, 4 * 35 + 2, "misaligned", "is not aligned to 4 bytes");
    /* and in the full warp 0 of the same block */
    st_one_bad_lane(40, 12, 4 * 12 + 2, "misaligned", "is not aligned to 4 bytes");
}

static void test_exec_paths_partial_warp_stores_every_lane(void **state)
{
    (void)state;
    uint64_t offs[64];
    static StResult r;
    for (unsigned n = 33; n <= 64; n += 7) {
        StSetup s;
        st_setup(&s, n);
        for (unsigned t = 0; t < n; t++)
            offs[t] = 4 * (uint64_t)(n - 1 - t); /* reversed: lanes write out of order */
        st_run(&s, offs, &r);
        assert_int_equal(r.st, SIM_OK);
        for (unsigned t = 0; t < n; t++)
            assert_int_equal(r.out[n - 1 - t], 100 + t);
    }
}

/* ---- shared memory at lane addresses a0 + l * step ----------------------------
 * ld/st find that pattern first (exec_mem.c's affine_of: a contiguous copy,
 * a broadcast, a stride, a reversed warp), before region_of's general
 * check.  One warp fills 512 bytes of shared memory with v4 stores, lanes
 * below nact store tid at tid * smul + sadd, then load at tid * lmul + ladd
 * (out[tid]) and every lane loads a v2 at tid * 8 (out[32 + tid],
 * out[64 + tid]); a plain-C model of the same steps gives the reference,
 * and a bad lane's fault is the general path's. */
static const char *smem_ptx =
    ".version 8.0\n.target sm_90\n.address_size 64\n"
    ".visible .entry k(.param .u64 pout, .param .u32 smul, .param .u32 sadd, .param .u32 lmul,\n"
    "                  .param .u32 ladd, .param .u32 nact)\n"
    "{\n"
    ".reg .pred %p<3>;\n.reg .b32 %r<20>;\n.reg .b64 %rd<8>;\n"
    ".shared .align 16 .b8 sm[4096];\n"
    "ld.param.u64 %rd1, [pout];\nld.param.u32 %r1, [smul];\nld.param.u32 %r2, [sadd];\n"
    "ld.param.u32 %r3, [lmul];\nld.param.u32 %r4, [ladd];\nld.param.u32 %r5, [nact];\n"
    "mov.u32 %r6, %tid.x;\nmov.u32 %r7, sm;\n"
    "shl.b32 %r8, %r6, 4;\nadd.s32 %r8, %r7, %r8;\nadd.u32 %r9, %r6, 1000;\n"
    "st.shared.v4.u32 [%r8], {%r9, %r9, %r9, %r9};\n"
    "bar.sync 0;\n"
    "setp.ge.u32 %p1, %r6, %r5;\n"
    "@%p1 bra SKIP;\n"
    "mad.lo.s32 %r10, %r6, %r1, %r2;\nadd.s32 %r10, %r10, %r7;\n"
    "st.shared.u32 [%r10], %r6;\n"
    "SKIP:\n"
    "bar.sync 0;\n"
    "mov.u32 %r11, 0;\n"
    "@%p1 bra OUT;\n"
    "mad.lo.s32 %r12, %r6, %r3, %r4;\nadd.s32 %r12, %r12, %r7;\n"
    "ld.shared.u32 %r11, [%r12];\n"
    "OUT:\n"
    "shl.b32 %r13, %r6, 3;\nadd.s32 %r13, %r13, %r7;\n"
    "ld.shared.v2.u32 {%r14, %r15}, [%r13];\n"
    "mul.wide.u32 %rd2, %r6, 4;\nadd.s64 %rd3, %rd1, %rd2;\n"
    "st.global.u32 [%rd3], %r11;\nst.global.u32 [%rd3+128], %r14;\nst.global.u32 [%rd3+256], %r15;\n"
    "ret;\n}\n";

typedef struct {
    int32_t smul, sadd, lmul, ladd;
    uint32_t nact;
} SmemCase;

/* Run one case; SIM_OK with out filled, or the fault. */
static SimStatus smem_run(DeviceModule *m, const SmemCase *c, uint32_t out[96], DeviceFault *fault)
{
    memset(out, 0xee, 96 * sizeof *out);
    DevicePtr po = up(out, 96 * sizeof *out);
    void *args[] = {&po, (void *)&c->smul, (void *)&c->sadd, (void *)&c->lmul, (void *)&c->ladd, (void *)&c->nact};
    SimStatus st = launch(m, 1, 32, args, fault);
    down(out, po, 96 * sizeof *out);
    device_free(dev, po, NULL);
    return st;
}

static void smem_reference(const SmemCase *c, uint32_t out[96])
{
    uint32_t sh[1024];
    for (int i = 0; i < 1024; i++)
        sh[i] = i < 128 ? (uint32_t)i / 4 + 1000 : 0;
    for (uint32_t l = 0; l < c->nact; l++) /* in lane order: the last lane's store stays */
        sh[(uint32_t)((int32_t)l * c->smul + c->sadd) / 4] = l;
    for (uint32_t l = 0; l < 32; l++) {
        out[l] = l < c->nact ? sh[(uint32_t)((int32_t)l * c->lmul + c->ladd) / 4] : 0;
        out[32 + l] = sh[2 * l];
        out[64 + l] = sh[2 * l + 1];
    }
}

static void test_exec_paths_shared_memory_lane_patterns_match_a_model(void **state)
{
    (void)state;
    DeviceModule *m = load_text("smem.ptx", smem_ptx);
    static const SmemCase cases[] = {
        {4, 0, 4, 0, 32},       /* s[tid], both ways */
        {-4, 124, 4, 0, 32},    /* stored reversed */
        {4, 0, -4, 124, 32},    /* loaded reversed */
        {8, 4, 8, 4, 32},       /* a stride of two words */
        {0, 64, 0, 64, 32},     /* one word for all: lane 31's store stays */
        {0, 64, 4, 48, 7},      /* ... of 7 lanes: lane 6's */
        {4, 256, 4, 256, 20},   /* partial warp */
        {4, 256, 4, 260, 1},    /* one lane */
        {12, 8, -12, 380, 32},  /* strides of three words */
        {4, 4032, 4, 4032, 16}, /* up to the last word */
    };
    uint32_t out[96], want[96];
    DeviceFault fault;
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        const SmemCase *c = &cases[i];
        SimStatus st = smem_run(m, c, out, &fault);
        if (st != SIM_OK)
            fail_msg("case %zu: %s: %s", i, fault.kind, fault.msg);
        smem_reference(c, want);
        for (int k = 0; k < 96; k++)
            if (out[k] != want[k])
                fail_msg("case %zu (smul %d sadd %d lmul %d ladd %d nact %u): out[%d] = %u, want %u", i, c->smul,
                         c->sadd, c->lmul, c->ladd, c->nact, k, out[k], want[k]);
    }
}

static void test_exec_paths_shared_memory_bad_lane_faults_as_lane_by_lane(void **state)
{
    (void)state;
    DeviceModule *m = load_text("smem.ptx", smem_ptx);
    static const struct {
        SmemCase c;
        const char *kind, *msg;
        int lane;
    } cases[] = {
        /* past the end from lane 16 on; below 0 (a huge unsigned address) from lane 16 on */
        {{4, 4032, 4, 0, 32}, "out-of-bounds", "4-byte access to shared address 0x1000 outside the 4096 bytes", 16},
        {{-4, 60, 4, 0, 32}, "out-of-bounds", "outside the 4096 bytes of shared memory", 16},
        /* a 2-byte offset: every lane misaligned, lane 0 first */
        {{4, 2, 4, 0, 32}, "misaligned", "4-byte write access at shared address 0x2 is not aligned to 4 bytes", 0},
        /* the load's turn: lane 31 just past the end */
        {{4, 0, 4, 3972, 32}, "out-of-bounds", "shared address 0x1000 outside", 31},
    };
    uint32_t out[96];
    DeviceFault fault;
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        SimStatus st = smem_run(m, &cases[i].c, out, &fault);
        assert_int_equal(st, SIM_ERR_FAULT);
        assert_string_equal(fault.kind, cases[i].kind);
        if (!strstr(fault.msg, cases[i].msg))
            fail_msg("case %zu: message \"%s\" lacks \"%s\"", i, fault.msg, cases[i].msg);
        assert_int_equal(fault.lane, cases[i].lane);
    }
}

/* ---- registers read before written ------------------------------------------
 * Odd blocks write r3; every block writes r4 under a guard true in odd
 * blocks only (a guarded write is no write for sure), then reads both.  r9 is read by
 * its own first write, in a loop.  Lanes whose tid + ctaid is odd write r7,
 * and every lane reads its neighbour's (shfl), written or not.  Thread t
 * of block b stores r8 * 1000 + r3 + r4 + r9. */
static const char *unset_ptx =
    ".version 8.0\n.target sm_90\n.address_size 64\n"
    ".visible .entry k(.param .u64 pout)\n"
    "{\n"
    ".reg .pred %p<4>;\n.reg .b32 %r<16>;\n.reg .b64 %rd<4>;\n"
    "ld.param.u64 %rd1, [pout];\n"
    "mov.u32 %r1, %ctaid.x;\nmov.u32 %r2, %tid.x;\n"
    "and.b32 %r10, %r1, 1;\nsetp.eq.u32 %p1, %r10, 0;\n"
    "@%p1 bra READ;\n"
    "mov.u32 %r3, 77;\n"
    "READ:\n"
    "@!%p1 mov.u32 %r4, 88;\n"
    "add.u32 %r5, %r3, %r4;\n"
    "mov.u32 %r6, 0;\n"
    "LOOP:\n"
    "add.u32 %r9, %r9, %r1;\nadd.u32 %r6, %r6, 1;\nsetp.lt.u32 %p2, %r6, 3;\n@%p2 bra LOOP;\n"
    "xor.b32 %r11, %r2, %r1;\nand.b32 %r11, %r11, 1;\nsetp.eq.u32 %p3, %r11, 0;\n"
    "@%p3 bra SHFL;\n"
    "mov.u32 %r7, 5;\n"
    "SHFL:\n"
    "shfl.sync.bfly.b32 %r8, %r7, 1, 31, -1;\n"
    "add.u32 %r12, %r5, %r9;\nmad.lo.s32 %r13, %r8, 1000, %r12;\n"
    "mov.u32 %r14, %ntid.x;\nmad.lo.s32 %r15, %r1, %r14, %r2;\n"
    "mul.wide.u32 %rd2, %r15, 4;\nadd.s64 %rd3, %rd1, %rd2;\n"
    "st.global.u32 [%rd3], %r13;\n"
    "ret;\n}\n";

static void test_exec_paths_registers_read_before_written_are_zero_in_every_block(void **state)
{
    (void)state;
    /* blocks of 1024: two resident per SM, so 600 blocks come in waves and
     * reuse the slots (and registers) of the blocks before them */
    enum { G = 600, B = 1024 };
    DeviceModule *m = load_text("unset.ptx", unset_ptx);
    static uint32_t out[G * B];
    DevicePtr po = up(out, sizeof out);
    void *args[] = {&po};
    DeviceFault fault;
    for (int run = 0; run < 2; run++) { /* the second launch reuses the first's registers */
        assert_int_equal(launch(m, G, B, args, &fault), SIM_OK);
        down(out, po, sizeof out);
        for (uint32_t b = 0; b < G; b++)
            for (uint32_t t = 0; t < B; t++) {
                uint32_t want = (((t ^ b) & 1) ? 0 : 5000) + ((b & 1) ? 77 + 88 : 0) + 3 * b;
                if (out[b * B + t] != want)
                    fail_msg("launch %d, block %u thread %u: %u, want %u", run, b, t, out[b * B + t], want);
            }
    }
}

int main(void)
{
#define T(name) cmocka_unit_test_setup_teardown(name, harness_setup_sim, teardown)
    const struct CMUnitTest tests[] = {
        T(test_exec_paths_fma_f32_full_warp_matches_fmaf),
        T(test_exec_paths_fma_f32_partial_warp_matches_fmaf),
        T(test_exec_paths_setp32_matches_c_on_host_and_portable_paths),
        T(test_exec_paths_store_out_of_bounds_in_one_lane),
        T(test_exec_paths_store_misaligned_in_one_lane),
        T(test_exec_paths_partial_warp_store_faults_like_full),
        T(test_exec_paths_partial_warp_stores_every_lane),
        T(test_exec_paths_shared_memory_lane_patterns_match_a_model),
        T(test_exec_paths_shared_memory_bad_lane_faults_as_lane_by_lane),
        T(test_exec_paths_registers_read_before_written_are_zero_in_every_block),
    };
#undef T
    return cmocka_run_group_tests(tests, NULL, NULL);
}
