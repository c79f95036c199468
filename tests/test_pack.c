/* test_pack.c: registers packed into fewer slots (sim/exec_pack.c).  The
 * reduction's 32 registers fit in a quarter of the slots; every entry of
 * every kernel in tests/kernels/ and the lessons computes the same bytes,
 * faults, printf text and statistics packed and named (WARPSIM_PACK=0),
 * under each schedule; lanes of one warp on two paths whose temporaries
 * share slots keep their own values while the paths interleave; a register
 * read before it is written still reads 0; the stepper still reads a
 * register after its last use; a function too large to analyse, or whose
 * liveness would take too many passes, runs as named. */
#include <dirent.h>

#include "harness.h"
#include "sweep_fixture.h"
#include "device_int.h"
#include "exec_int.h"
#include "inspect.h"
#include "memory.h"

/* The distinct value-register slots the instructions of function `name`
 * name in insts (the named or the packed ones). */
static int slots_named(const SimProgram *p, const SimInst *insts, const char *name)
{
    int f = 0;
    while (f < p->ptx->n_funcs && strcmp(p->ptx->funcs[f].name, name))
        f++;
    assert_true(f < p->ptx->n_funcs);
    const SimFuncInfo *fi = &p->funcs[f];
    char seen[4096] = {0};
    int n = 0;
    assert_true(fi->n_vals < (int)sizeof seen);
    for (int pc = fi->entry_pc; pc < fi->end_pc; pc++) {
        const SimInst *in = &insts[pc];
        const int32_t fields[11] = {in->d,     in->d2,    in->base,  in->s[0],  in->s[1], in->s[2],
                                    in->s[3],  in->vd[0], in->vd[1], in->vd[2], in->vd[3]};
        for (int k = 0; k < 11; k++) {
            int32_t v = fields[k];
            if (v >= fi->reg_base && v < fi->reg_base + fi->n_vals && !seen[v - fi->reg_base]++)
                n++;
        }
    }
    return n;
}

static SimProgram *decode_text(const char *name, const char *text, size_t n, Memory **mem)
{
    SimError err;
    PtxModule *m = ptx_parse_module(name, text, n, &err);
    if (!m)
        fail_msg("%s: %s", name, err.msg);
    *mem = mem_new();
    SimProgram *p = exec_decode(m, *mem, &err);
    if (!p)
        fail_msg("%s: %s", name, err.msg);
    return p;
}

static SimProgram *decode_file(const char *path, Memory **mem)
{
    char msg[256];
    size_t n;
    char *text = source_read_file(path, &n, msg, sizeof msg);
    if (!text)
        fail_msg("%s (run the tests from the repository root)", msg);
    SimProgram *p = decode_text(path, text, n, mem);
    free(text);
    return p;
}

/* A one-kernel module (text, len bytes) whose kernel `entry` writes
 * out[tid] = tid + add for 32 threads: decoded, its kernel stays as named
 * (no packing), and launched, it writes that. */
static void expect_named_and_right(const char *name, const char *entry, const char *text, size_t len, uint32_t add)
{
    Memory *mem;
    SimProgram *p = decode_text(name, text, len, &mem);
    assert_null(p->funcs[0].pack);
    exec_program_free(p);
    mem_free_all(mem);
    DeviceModule *m = load_text(name, text);
    DevicePtr out = dalloc(32 * 4);
    void *args[] = {&out};
    DeviceLaunch cfg = {.grid = {1, 1, 1}, .block = {32, 1, 1}};
    SimError err;
    assert_int_equal(device_launch(m, entry, &cfg, args, NULL, NULL, &err), SIM_OK);
    uint32_t got[32];
    down(got, out, sizeof got);
    for (uint32_t l = 0; l < 32; l++)
        assert_int_equal(got[l], l + add);
}

static void test_the_reductions_registers_fit_a_quarter_of_the_slots(void **s)
{
    (void)s;
    Memory *mem;
    SimProgram *p = decode_file("tests/kernels/bench.ptx", &mem);
    assert_non_null(p->packed);
    int named = slots_named(p, p->insts, "bench_reduce"), packed = slots_named(p, p->packed, "bench_reduce");
    print_message("bench_reduce: %d register slots named, %d packed\n", named, packed);
    assert_int_equal(named, 24); /* %r<23> and %rd<9> less the unused %r0, %rd0 and ones never named */
    assert_true(packed * 3 <= named);
    exec_program_free(p);
    mem_free_all(mem);
}

static void test_every_kernel_runs_the_same_packed_and_named(void **s)
{
    (void)s;
    static const SweepRun runs[] = {{DEVICE_SCHED_ROUNDROBIN, 4}, {DEVICE_SCHED_ROUNDROBIN, 300},
                                    {DEVICE_SCHED_RANDOM, 4}, {DEVICE_SCHED_ADVERSARIAL, 4}};
    int files, compared = sweep_compare_switch("WARPSIM_PACK", runs, 4, &files);
    print_message("%d files: %d launches the same packed and named\n", files, compared);
    assert_true(files >= 50);
    assert_true(compared >= 600);
}

/* Odd and even lanes of each warp loop on temporaries of their own, which
 * packing puts in the same slots (no path holds both); their loops are long
 * enough that independent thread scheduling switches between the two groups
 * many times. */
static const char two_paths[] =
    ".version 8.0\n.target sm_90\n.address_size 64\n"
    ".visible .entry two_paths(.param .u64 out)\n{\n"
    "  .reg .pred %p<4>;\n  .reg .b32 %r<12>;\n  .reg .b64 %rd<4>;\n"
    "  ld.param.u64 %rd1, [out];\n  cvta.to.global.u64 %rd1, %rd1;\n"
    "  mov.u32 %r1, %tid.x;\n  and.b32 %r2, %r1, 1;\n  setp.eq.u32 %p1, %r2, 0;\n  @%p1 bra EVEN;\n"
    "  mul.lo.u32 %r3, %r1, 3;\n  mov.u32 %r4, 0;\n"
    "ODD:\n  mad.lo.u32 %r5, %r3, 7, 1;\n  add.u32 %r6, %r5, %r4;\n  mov.u32 %r3, %r6;\n"
    "  add.u32 %r4, %r4, 1;\n  setp.lt.u32 %p2, %r4, 200;\n  @%p2 bra ODD;\n"
    "  mov.u32 %r7, %r3;\n  bra DONE;\n"
    "EVEN:\n  mul.lo.u32 %r8, %r1, 5;\n  mov.u32 %r9, 0;\n"
    "EVENLOOP:\n  shl.b32 %r10, %r8, 1;\n  xor.b32 %r11, %r10, %r8;\n  add.u32 %r8, %r11, %r9;\n"
    "  add.u32 %r9, %r9, 1;\n  setp.lt.u32 %p3, %r9, 150;\n  @%p3 bra EVENLOOP;\n  mov.u32 %r7, %r8;\n"
    "DONE:\n  mul.wide.u32 %rd2, %r1, 4;\n  add.s64 %rd3, %rd1, %rd2;\n  st.global.u32 [%rd3], %r7;\n  ret;\n}\n";

static uint32_t two_paths_ref(uint32_t t)
{
    uint32_t v;
    if (t & 1) {
        v = t * 3;
        for (uint32_t i = 0; i < 200; i++)
            v = v * 7 + 1 + i;
    } else {
        v = t * 5;
        for (uint32_t i = 0; i < 150; i++)
            v = ((v << 1) ^ v) + i;
    }
    return v;
}

static void test_two_paths_of_a_warp_keep_their_own_registers(void **s)
{
    (void)s;
    DeviceModule *m = load_text("two_paths.ptx", two_paths);
    Memory *mem;
    SimError err;
    SimProgram *p = decode_text("two_paths.ptx", two_paths, strlen(two_paths), &mem);
    assert_non_null(p->packed);
    int named = slots_named(p, p->insts, "two_paths"), packed = slots_named(p, p->packed, "two_paths");
    assert_true(packed < named); /* the two paths' temporaries share slots */
    exec_program_free(p);
    mem_free_all(mem);
    enum { N = 256 };
    for (int sched = DEVICE_SCHED_ROUNDROBIN; sched <= DEVICE_SCHED_ADVERSARIAL; sched++) {
        DevicePtr out = dalloc(N * 4);
        void *args[] = {&out};
        DeviceLaunch cfg = {.grid = {1, 1, 1}, .block = {N, 1, 1}, .schedule = sched, .seed = 11};
        DeviceStats st;
        assert_int_equal(device_launch(m, "two_paths", &cfg, args, &st, NULL, &err), SIM_OK);
        uint32_t got[N];
        down(got, out, sizeof got);
        for (uint32_t t = 0; t < N; t++)
            if (got[t] != two_paths_ref(t))
                fail_msg("schedule %d: thread %u computed %u, not %u", sched, t, got[t], two_paths_ref(t));
        device_free(dev, out, NULL);
    }
}

/* Lanes 16-31 read %r2 without writing it: 0, even though a temporary
 * that is dead by then was computed before it in every lane, and blocks
 * before them left their values in the same warp slots. */
static const char unset[] =
    ".version 8.0\n.target sm_90\n.address_size 64\n"
    ".visible .entry unset(.param .u64 out, .param .u64 junk)\n{\n"
    "  .reg .pred %p<2>;\n  .reg .b32 %r<8>;\n  .reg .b64 %rd<8>;\n"
    "  ld.param.u64 %rd1, [out];\n  ld.param.u64 %rd2, [junk];\n"
    "  mov.u32 %r1, %tid.x;\n  mov.u32 %r7, %ctaid.x;\n  mad.lo.u32 %r1, %r7, 32, %r1;\n"
    "  mul.wide.u32 %rd3, %r1, 4;\n"
    "  mul.lo.u32 %r6, %r1, 1234567;\n  add.s64 %rd4, %rd2, %rd3;\n  st.global.u32 [%rd4], %r6;\n"
    "  and.b32 %r3, %r1, 31;\n  setp.lt.u32 %p1, %r3, 16;\n  @%p1 mov.u32 %r2, 5;\n"
    "  add.u32 %r5, %r2, %r1;\n  add.s64 %rd5, %rd1, %rd3;\n  st.global.u32 [%rd5], %r5;\n  ret;\n}\n";

static void test_a_register_read_before_written_reads_zero(void **s)
{
    (void)s;
    DeviceModule *m = load_text("unset.ptx", unset);
    enum { B = 600, N = B * 32 };
    DevicePtr out = dalloc(N * 4), junk = dalloc(N * 4);
    void *args[] = {&out, &junk};
    DeviceLaunch cfg = {.grid = {B, 1, 1}, .block = {32, 1, 1}};
    SimError err;
    assert_int_equal(device_launch(m, "unset", &cfg, args, NULL, NULL, &err), SIM_OK);
    static uint32_t got[N];
    down(got, out, sizeof got);
    for (uint32_t t = 0; t < N; t++)
        if (got[t] != t + ((t & 31) < 16 ? 5u : 0u))
            fail_msg("thread %u: %u, not %u", t, got[t], t + ((t & 31) < 16 ? 5u : 0u));
}

/* The stepper (a launch with on_issue) runs the named slots: at the store,
 * the odd lanes' loop counter %r4 still reads 200 after its last use. */
typedef struct {
    int stops;
    uint64_t r4, r1;
} AtStore;

static int at_store(void *user, const SimView *v, uint64_t block, int warp)
{
    AtStore *a = user;
    int32_t pc;
    uint32_t mask;
    char text[128];
    if (block == 0 && warp == 0 && view_next(v, block, warp, &pc, &mask) &&
        view_inst(v, pc, text, sizeof text, NULL, NULL, NULL) && strstr(text, "st.global") && (mask & 2)) {
        bool pred;
        a->stops++;
        view_reg(v, block, warp, 1, "%r4", &a->r4, &pred);
        view_reg(v, block, warp, 1, "%r1", &a->r1, &pred);
    }
    return SIM_VIEW_CONTINUE;
}

static void test_the_stepper_reads_a_register_after_its_last_use(void **s)
{
    (void)s;
    DeviceModule *m = load_text("two_paths.ptx", two_paths);
    DevicePtr out = dalloc(64 * 4);
    void *args[] = {&out};
    AtStore a = {0};
    DeviceLaunch cfg = {.grid = {1, 1, 1}, .block = {64, 1, 1}, .on_issue = at_store, .on_issue_user = &a};
    SimError err;
    assert_int_equal(device_launch(m, "two_paths", &cfg, args, NULL, NULL, &err), SIM_OK);
    assert_true(a.stops >= 1);
    assert_int_equal(a.r1, 1);
    assert_int_equal(a.r4, 200);
}

/* A new text of cap bytes opening kernel `entry(out)` with declarations
 * decls and %rd1 = out; *len its length so far. */
static char *kernel_head(size_t cap, size_t *len, const char *entry, const char *decls)
{
    char *t = malloc(cap);
    assert_non_null(t);
    *len = (size_t)snprintf(t, cap,
                            ".version 8.0\n.target sm_90\n.address_size 64\n"
                            ".visible .entry %s(.param .u64 out)\n{\n%s  ld.param.u64 %%rd1, [out];\n", entry, decls);
    return t;
}

/* A kernel with more value registers than the analysis takes runs as
 * named, and right. */
static void test_a_function_too_large_to_pack_runs_as_named(void **s)
{
    (void)s;
    enum { R = 9000 };
    size_t cap = (size_t)R * 48 + 4096, len;
    char decls[64];
    snprintf(decls, sizeof decls, "  .reg .b32 %%r<%d>;\n  .reg .b64 %%rd<4>;\n", R + 1);
    char *t = kernel_head(cap, &len, "wide", decls);
    len += (size_t)snprintf(t + len, cap - len, "  mov.u32 %%r0, %%tid.x;\n");
    for (int i = 1; i <= R; i++)
        len += (size_t)snprintf(t + len, cap - len, "  add.u32 %%r%d, %%r%d, %d;\n", i, i - 1, i % 7);
    len += (size_t)snprintf(t + len, cap - len,
                            "  mov.u32 %%r0, %%tid.x;\n  mul.wide.u32 %%rd2, %%r0, 4;\n  add.s64 %%rd3, %%rd1, %%rd2;\n"
                            "  st.global.u32 [%%rd3], %%r%d;\n  ret;\n}\n", R);
    uint32_t add = 0;
    for (int i = 1; i <= R; i++)
        add += (uint32_t)(i % 7);
    expect_named_and_right("wide.ptx", "wide", t, len, add);
    free(t);
}

/* Blocks laid out against their order (each jumps to the one before it in
 * the text), a register live through all of them: liveness would take one
 * pass a block.  Past the module's bound the function stays as named, and
 * runs right. */
static void test_liveness_that_would_take_a_pass_a_block_stops_at_its_bound(void **s)
{
    (void)s;
    enum { N = 20000 };
    size_t cap = (size_t)N * 32 + 4096, len;
    char *t = kernel_head(cap, &len, "chain", "  .reg .b32 %r<4>;\n  .reg .b64 %rd<4>;\n");
    len += (size_t)snprintf(t + len, cap - len, "  mov.u32 %%r1, %%tid.x;\n  bra B0;\n");
    len += (size_t)snprintf(t + len, cap - len,
                            "B%d:\n  add.u32 %%r2, %%r1, 5;\n  mul.wide.u32 %%rd2, %%r1, 4;\n"
                            "  add.s64 %%rd3, %%rd1, %%rd2;\n  st.global.u32 [%%rd3], %%r2;\n  ret;\n", N);
    for (int k = N - 1; k >= 0; k--)
        len += (size_t)snprintf(t + len, cap - len, "B%d:\n  bra B%d;\n", k, k + 1);
    len += (size_t)snprintf(t + len, cap - len, "}\n");
    expect_named_and_right("chain.ptx", "chain", t, len, 5);
    free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_the_reductions_registers_fit_a_quarter_of_the_slots),
        cmocka_unit_test_setup_teardown(test_every_kernel_runs_the_same_packed_and_named, harness_setup_sim,
                                        harness_teardown),
        cmocka_unit_test_setup_teardown(test_two_paths_of_a_warp_keep_their_own_registers, harness_setup_sim,
                                        harness_teardown),
        cmocka_unit_test_setup_teardown(test_a_register_read_before_written_reads_zero, harness_setup_sim,
                                        harness_teardown),
        cmocka_unit_test_setup_teardown(test_the_stepper_reads_a_register_after_its_last_use, harness_setup_sim,
                                        harness_teardown),
        cmocka_unit_test_setup_teardown(test_a_function_too_large_to_pack_runs_as_named, harness_setup_sim,
                                        harness_teardown),
        cmocka_unit_test_setup_teardown(test_liveness_that_would_take_a_pass_a_block_stops_at_its_bound,
                                        harness_setup_sim, harness_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
