/* test_exec_vec.c: the vector handlers (exec_vec.c, exec_vec_int.c) against
 * the plain ones, instruction by instruction.  One kernel's instructions are
 * decoded twice -- with exec_vec_test_mode(0) (the plain-C handlers, SSE2
 * for setp) and with the host's best (AVX2 where the CPU has it) -- and each
 * instruction of both programs runs on the same random register file
 * (random 64-bit values: high halves of 32-bit registers not zero, shift
 * counts around 32, edge values) with full, random, single-lane and empty
 * masks; the whole register and predicate files must come out bit for bit
 * the same (SQLite style: the clever path beside the plain one). */
#include <inttypes.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "exec_int.h"
#include "exec_vec.h"
#include "memory.h"
#include "ptx.h"

/* Every operation with a vector form, with register and immediate
 * operands, and a destination that is also a source. */
static const char *vec_ptx =
    ".version 8.0\n.target sm_90\n.address_size 64\n"
    ".visible .entry k()\n{\n"
    ".reg .pred %p<8>;\n.reg .b32 %r<8>;\n.reg .b64 %rd<8>;\n.reg .b16 %h<4>;\n"
    "add.s32 %r1, %r2, %r3;\nadd.u32 %r1, %r1, 77;\nadd.s32 %r3, %r2, %r3;\n"
    "sub.s32 %r1, %r2, %r3;\nsub.u32 %r1, %r2, -5;\n"
    "mul.lo.s32 %r1, %r2, %r3;\nmul.lo.u32 %r2, %r2, 1000003;\n"
    "and.b32 %r1, %r2, %r3;\nand.b32 %r1, %r2, 255;\nor.b32 %r1, %r2, %r3;\nxor.b32 %r1, %r2, %r3;\n"
    "xor.b32 %r4, %r4, -1;\n"
    "shl.b32 %r1, %r2, %r3;\nshl.b32 %r1, %r2, 0;\nshl.b32 %r1, %r2, 5;\nshl.b32 %r1, %r2, 31;\n"
    "shl.b32 %r1, %r2, 32;\nshl.b32 %r1, %r2, 4000000000;\n"
    "shr.u32 %r1, %r2, %r3;\nshr.u32 %r1, %r2, 1;\nshr.u32 %r1, %r2, 33;\nshr.b32 %r1, %r1, 7;\n"
    "shr.s32 %r1, %r2, %r3;\nshr.s32 %r1, %r2, 3;\nshr.s32 %r1, %r2, 31;\nshr.s32 %r1, %r2, 32;\n"
    "shr.s32 %r1, %r2, 2147483648;\n"
    "mad.lo.s32 %r1, %r2, %r3, %r4;\nmad.lo.u32 %r1, %r2, 12, %r1;\nmad.lo.s32 %r4, %r2, %r3, 9;\n"
    "mul.wide.s32 %rd1, %r2, %r3;\nmul.wide.u32 %rd1, %r2, %r3;\nmul.wide.s32 %rd1, %r2, 4;\n"
    "mul.wide.s32 %rd1, %r2, -4;\nmul.wide.u32 %rd2, %r2, 8;\n"
    "mad.wide.s32 %rd1, %r2, %r3, %rd4;\nmad.wide.u32 %rd1, %r2, %r3, %rd4;\nmad.wide.s32 %rd4, %r2, 4, %rd4;\n"
    "add.s64 %rd1, %rd2, %rd3;\nadd.u64 %rd1, %rd1, 4;\nsub.s64 %rd1, %rd2, %rd3;\nsub.u64 %rd3, %rd2, %rd3;\n"
    "and.b64 %rd1, %rd2, %rd3;\nor.b64 %rd1, %rd2, %rd3;\nxor.b64 %rd1, %rd2, %rd3;\nand.b64 %rd1, %rd2, -16;\n"
    "mov.u32 %r1, %r2;\nmov.b32 %r1, 12345;\nmov.u64 %rd1, %rd2;\nmov.b64 %rd1, -1;\nmov.u16 %h1, %h2;\n"
    "mov.s32 %r1, -7;\n"
    "cvta.to.global.u64 %rd1, %rd2;\ncvta.shared.u64 %rd1, %rd2;\ncvta.to.shared.u64 %rd1, %rd1;\n"
    "cvta.global.u32 %r1, %r2;\ncvta.to.shared.u32 %r1, %r2;\n"
    "setp.eq.s32 %p1, %r2, %r3;\nsetp.ne.s32 %p1, %r2, %r3;\nsetp.lt.s32 %p1, %r2, %r3;\n"
    "setp.le.s32 %p1, %r2, %r3;\nsetp.gt.s32 %p1, %r2, %r3;\nsetp.ge.s32 %p1, %r2, %r3;\n"
    "setp.eq.u32 %p1, %r2, %r3;\nsetp.ne.b32 %p1, %r2, %r3;\nsetp.lt.u32 %p1, %r2, %r3;\n"
    "setp.le.u32 %p1, %r2, %r3;\nsetp.gt.u32 %p1, %r2, %r3;\nsetp.ge.u32 %p1, %r2, %r3;\n"
    "setp.lt.s32 %p1|%p2, %r2, %r3;\nsetp.ge.u32 %p3|%p3, %r2, 7;\nsetp.ne.s32 %p4, %r2, 0;\n"
    "setp.lt.u32 %p1, 5, %r3;\n"
    "ret;\n}\n";

/* xorshift64*: a fixed seed, so a failure names the same inputs each run */
static uint64_t rng = 0x2545f4914f6cdd1dull;
static uint64_t rnd64(void)
{
    rng ^= rng >> 12;
    rng ^= rng << 25;
    rng ^= rng >> 27;
    return rng * 0x2545f4914f6cdd1dull;
}

/* a register value: random, a small count or an edge value in the low half
 * (with a random high half, which a 32-bit op ignores), or equal halves */
static uint64_t rnd_val(void)
{
    static const uint32_t edge[] = {0, 1, 2, 7, 31, 32, 33, 63, 64, 0x7fffffffu, 0x80000000u, 0x80000001u,
                                    0xffffffffu, 0xfffffff9u};
    uint64_t r = rnd64(), hi = r & 0xffffffff00000000ull;
    switch ((r >> 8) % 6) {
    case 0: return hi | (r >> 16) % 40;
    case 1: return hi | edge[(r >> 16) % (sizeof edge / sizeof *edge)];
    case 2: return (uint32_t)(r >> 3);
    case 3: return (r >> 20) % 40;
    default: return rnd64();
    }
}

static SimProgram *decode(int mode)
{
    SimError err;
    exec_vec_test_mode(mode);
    PtxModule *ptx = ptx_parse_module("vec.ptx", vec_ptx, strlen(vec_ptx), &err);
    if (!ptx)
        fail_msg("parse: %s", err.msg);
    static Memory *mem;
    if (!mem)
        mem = mem_new();
    SimProgram *p = exec_decode(ptx, mem, &err);
    exec_vec_test_mode(-1);
    if (!p)
        fail_msg("decode: %s", err.msg);
    return p;
}

static uint32_t rnd_mask(int k)
{
    switch (k % 5) {
    case 0: return FULL_MASK;
    case 1: return 1u << (rnd64() % WARP);
    case 2: return (uint32_t)rnd64();
    case 3: return (uint32_t)rnd64() & (uint32_t)rnd64(); /* sparse */
    default: return k % 10 == 4 ? 0 : FULL_MASK & ~(1u << (rnd64() % WARP)); /* none, or all but one */
    }
}

/* Instruction i of both programs on `trials` random states. */
static void run_both(SimProgram *ref, SimProgram *vec, int i, int trials)
{
    size_t nr = (size_t)ref->n_regs * WARP, np = (size_t)ref->n_preds + 1;
    uint64_t *r0 = calloc(nr, 8), *r1 = calloc(nr, 8);
    uint32_t *p0 = calloc(np, 4), *p1 = calloc(np, 4);
    assert_non_null(r0);
    assert_non_null(r1);
    assert_non_null(p0);
    assert_non_null(p1);
    static Exec x0, x1;
    x0.prog = ref;
    x1.prog = vec;
    const SimInst *a = &ref->insts[i], *b = &vec->insts[i];
    for (int t = 0; t < trials; t++) {
        for (size_t k = 0; k < nr; k++)
            r0[k] = rnd_val();
        for (size_t k = 0; k < np; k++)
            p0[k] = (uint32_t)rnd64();
        memcpy(r1, r0, nr * 8);
        memcpy(p1, p0, np * 4);
        Warp w0 = {.r = r0, .p = p0}, w1 = {.r = r1, .p = p1};
        uint32_t m = rnd_mask(t);
        a->fn(&x0, &w0, a, m);
        b->fn(&x1, &w1, b, m);
        if (memcmp(r0, r1, nr * 8) || memcmp(p0, p1, np * 4)) {
            for (size_t k = 0; k < nr; k++)
                if (r0[k] != r1[k]) {
                    print_error("instruction %d, mask %08x: slot %zu lane %zu: %016" PRIx64 ", want %016" PRIx64 "\n",
                                i, m, k / WARP, k % WARP, r1[k], r0[k]);
                    break;
                }
            for (size_t k = 0; k < np; k++)
                if (p0[k] != p1[k]) {
                    print_error("instruction %d, mask %08x: predicate %zu: %08x, want %08x\n", i, m, k, p1[k], p0[k]);
                    break;
                }
            fail();
        }
    }
    free(r0);
    free(r1);
    free(p0);
    free(p1);
}

static void test_exec_vec_handlers_match_plain_ones_on_random_registers_and_masks(void **state)
{
    (void)state;
    SimProgram *ref = decode(0), *vec = decode(-1);
    assert_int_equal(ref->n_insts, vec->n_insts);
    /* the kernel's instructions: its lines after the declarations, but ret */
    int n = -1, pc = ref->funcs[0].entry_pc, differ = 0;
    for (const char *s = strstr(vec_ptx, "%h<4>;\n") + 7; *s; s++)
        n += *s == '\n';
    n--; /* the closing brace */
    assert_true(pc + n < ref->n_insts);
    for (int i = pc; i < pc + n; i++) {
        differ += ref->insts[i].fn != vec->insts[i].fn;
        run_both(ref, vec, i, 400);
    }
    if (exec_vec_avx2()) /* every instruction took its vector form (mov.u16 too) */
        assert_int_equal(differ, n);
    else
        print_message("no AVX2 here: the portable handlers against themselves\n");
    exec_program_free(ref);
    exec_program_free(vec);
}

/* exec_vec_affine on both paths: affine lanes (any step, wrapping around
 * 2^64), and the same with one lane off by one bit. */
static void test_exec_vec_affine_finds_exactly_the_affine_lanes_on_both_paths(void **state)
{
    (void)state;
    uint64_t b[WARP];
    for (int t = 0; t < 4000; t++) {
        uint64_t b0 = rnd64(), st = t % 3 == 0 ? rnd64() : t % 3 == 1 ? (uint64_t)(t % 17) * 4 : (uint64_t)-(t % 9);
        for (int l = 0; l < WARP; l++)
            b[l] = b0 + (uint64_t)l * st;
        int bad = t & 1 ? -1 : (int)(rnd64() % WARP);
        if (bad >= 0)
            b[bad] ^= 1ull << (rnd64() % 64);
        for (int mode = -1; mode <= 0; mode++) {
            uint64_t step = 0;
            exec_vec_test_mode(mode);
            bool ok = exec_vec_affine(b, &step);
            exec_vec_test_mode(-1);
            assert_int_equal(step, b[1] - b[0]);
            assert_int_equal(ok, bad < 0); /* lane 0 or 1 off: another step, which lane 2 breaks */
        }
    }
}

/* exec_vec_lowest on both paths against a plain scan: lanes at a few pcs
 * (a diverged warp's groups) or many, any mask, the empty one too. */
static void test_exec_vec_lowest_finds_the_lowest_group_on_both_paths(void **state)
{
    (void)state;
    int32_t p[WARP];
    for (int t = 0; t < 4000; t++) {
        uint32_t r = t % 50 == 0 ? 0 : rnd_mask(t);
        int spread = t % 4 == 0 ? 1 << 30 : 1 + t % 5;
        for (int l = 0; l < WARP; l++)
            p[l] = (int32_t)(rnd64() % (uint64_t)spread) - (t % 7 == 0 ? spread / 2 : 0);
        int32_t want = INT32_MAX;
        uint32_t want_at = 0;
        for (int l = 0; l < WARP; l++)
            if (r >> l & 1)
                want = p[l] < want ? p[l] : want;
        for (int l = 0; l < WARP; l++)
            if ((r >> l & 1) && p[l] == want)
                want_at |= 1u << l;
        for (int mode = -1; mode <= 0; mode++) {
            uint32_t at = 0xdeadbeef;
            exec_vec_test_mode(mode);
            int32_t got = exec_vec_lowest(p, r, &at);
            exec_vec_test_mode(-1);
            assert_int_equal(got, want);
            assert_int_equal(at, want_at);
        }
    }
}

/* exec_vec_fill, _and, _load32 and _store32 on both paths against plain
 * loops, at unaligned addresses and with random masks; bytes around the
 * stored ones and lanes outside the mask keep their values. */
static void test_exec_vec_copies_match_plain_loops_on_both_paths(void **state)
{
    (void)state;
    uint64_t a[WARP], d[WARP], want[WARP];
    uint8_t mem[4 * WARP + 16], wmem[4 * WARP + 16];
    for (int t = 0; t < 2000; t++) {
        int mode = t & 1 ? -1 : 0, off = (int)(rnd64() % 8);
        uint32_t m = rnd_mask(t / 2);
        uint64_t v = rnd64(), wm = t % 3 == 0 ? ~0ull : t % 3 == 1 ? 0xffffffffu : 0xffffu;
        for (int l = 0; l < WARP; l++) {
            a[l] = rnd_val();
            d[l] = want[l] = rnd64();
        }
        for (size_t k = 0; k < sizeof mem; k++)
            mem[k] = wmem[k] = (uint8_t)rnd64();
        exec_vec_test_mode(mode);
        exec_vec_fill(d, v, m);
        for (int l = 0; l < WARP; l++)
            if (m >> l & 1)
                want[l] = v;
        assert_memory_equal(d, want, sizeof d);
        exec_vec_and(d, a, wm, m);
        for (int l = 0; l < WARP; l++)
            if (m >> l & 1)
                want[l] = a[l] & wm;
        assert_memory_equal(d, want, sizeof d);
        bool sgn = t % 4 >= 2;
        exec_vec_load32(d, mem + off, sgn);
        for (int l = 0; l < WARP; l++) {
            uint32_t u;
            memcpy(&u, mem + off + 4 * l, 4);
            want[l] = sgn ? (uint64_t)(int64_t)(int32_t)u : u;
        }
        assert_memory_equal(d, want, sizeof d);
        exec_vec_store32(mem + off, a);
        for (int l = 0; l < WARP; l++) {
            uint32_t u = (uint32_t)a[l];
            memcpy(wmem + off + 4 * l, &u, 4);
        }
        assert_memory_equal(mem, wmem, sizeof mem);
        exec_vec_test_mode(-1);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_exec_vec_handlers_match_plain_ones_on_random_registers_and_masks),
        cmocka_unit_test(test_exec_vec_affine_finds_exactly_the_affine_lanes_on_both_paths),
        cmocka_unit_test(test_exec_vec_copies_match_plain_loops_on_both_paths),
        cmocka_unit_test(test_exec_vec_lowest_finds_the_lowest_group_on_both_paths),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
