/* test_contract.c: cmocka tests for sim/contract.c, ptxas's mul + add -> fma
 * contraction decision, and for the decoder running the fused pairs as one
 * fma.
 *
 * traces/hw/fma-contraction-sm90.txt records, for every add/sub fed by a mul
 * in the committed PTX (the lessons, tests/kernels, and the probe kernels of
 * scripts/sfu/fma_probes.ptx), whether ptxas fused it: read from the machine
 * code by scripts/sfu/contraction_truth.py.  contract_plan must make exactly
 * the same decisions.  (With ptxas on the PATH, re-run that script to
 * regenerate the record.) */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <math.h>

#include "contract.h"
#include "harness.h"
#include "ptx.h"

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *b = malloc((size_t)n + 1);
    if (b && fread(b, 1, (size_t)n, f) != (size_t)n) {
        free(b);
        b = NULL;
    }
    fclose(f);
    if (b)
        b[n] = 0;
    *len = (size_t)n;
    return b;
}

/* decisions[line] = line of the fused mul, 0 when the add at line is not fused */
static int *plan_lines(const char *path, int *nlines)
{
    size_t len = 0;
    char *text = slurp(path, &len);
    assert_non_null(text);
    SimError err;
    PtxModule *m = ptx_parse_module(path, text, len, &err);
    if (!m)
        print_error("%s: %s\n", path, err.msg);
    assert_non_null(m);
    int n = 1;
    for (size_t k = 0; k < len; k++)
        n += text[k] == '\n';
    int *dec = calloc((size_t)n + 2, sizeof *dec);
    assert_non_null(dec);
    for (int fi = 0; fi < m->n_funcs; fi++) {
        const PtxFunc *f = &m->funcs[fi];
        if (!f->n_insts)
            continue;
        ContractFuse *plan = malloc(sizeof *plan * (size_t)f->n_insts);
        assert_non_null(plan);
        contract_plan(f, plan);
        for (int i = 0; i < f->n_insts; i++)
            if (plan[i].mul >= 0)
                dec[f->insts[i].ptx_line] = f->insts[plan[i].mul].ptx_line;
        free(plan);
    }
    ptx_module_free(m);
    free(text);
    *nlines = n;
    return dec;
}

static void test_contract_matches_ptxas_on_every_committed_ptx(void **s)
{
    (void)s;
    FILE *r = fopen("traces/hw/fma-contraction-sm90.txt", "r");
    assert_non_null(r);
    char line[512], cur[256] = "";
    int *dec = NULL, nlines = 0, checked = 0, fused = 0, bad = 0;
    while (fgets(line, sizeof line, r)) {
        char path[256];
        int add, mul, want;
        if (line[0] == '#' || sscanf(line, "%255s %d %d %d", path, &add, &mul, &want) != 4)
            continue;
        if (strcmp(path, cur)) {
            if (dec) {
                for (int k = 0; k <= nlines; k++)   /* nothing fused beyond the record */
                    if (dec[k] > 0 && bad++ < 20)
                        print_error("%s:%d: fused with line %d, not in the record\n", cur, k, dec[k]);
                free(dec);
            }
            snprintf(cur, sizeof cur, "%s", path);
            dec = plan_lines(path, &nlines);
        }
        assert_true(add > 0 && add <= nlines);
        int got = dec[add];
        if ((want && got != mul) || (!want && got)) {
            if (bad++ < 20)
                print_error("%s:%d: ptxas %s it with line %d, the simulator %s (%d)\n", path, add,
                            want ? "fused" : "did not fuse", mul, got ? "fuses" : "does not", got);
        }
        dec[add] = -1;
        checked++;
        fused += want;
    }
    if (dec) {
        for (int k = 0; k <= nlines; k++)
            if (dec[k] > 0 && bad++ < 20)
                print_error("%s:%d: fused with line %d, not in the record\n", cur, k, dec[k]);
        free(dec);
    }
    fclose(r);
    assert_true(checked > 150 && fused > 50);
    assert_int_equal(bad, 0);
}

/* ---- the decoder runs a fused pair as one fma ------------------------ */

/* Inputs of tests/kernels/contract.cu's kernels (scripts/sfu/contract_h100.cu
 * draws the same): +-1.m * 2^e, e in [-2, 2]. */
static float input(uint32_t k)
{
    uint64_t z = k * 0x9e3779b97f4a7c15ull + 0x632be59bd9b4e019ull;
    z = (z ^ (z >> 31)) * 0xbf58476d1ce4e5b9ull;
    z ^= z >> 29;
    uint32_t u = (uint32_t)z;
    uint32_t bits = (u & 0x807fffffu) | (uint32_t)(125 + (u >> 23) % 5) << 23;
    float f;
    memcpy(&f, &bits, 4);
    return f;
}

#define N 1024

static void run1(DeviceModule *m, const char *kernel, void **args)
{
    SimError err;
    const char *entry = device_find_kernel(m, kernel, &err);
    assert_non_null(entry);
    DeviceLaunch cfg = {.grid = {N / 128, 1, 1}, .block = {128, 1, 1}};
    DeviceStats st;
    DeviceFault fault;
    assert_int_equal(device_launch(m, entry, &cfg, args, &st, &fault, &err), SIM_OK);
}

/* v.x * v.y - v.z: nvcc writes mul.f32 + sub.f32, ptxas fuses them (the
 * H100 gives fmaf(x, y, -z): traces/hw/fma-contraction-h100.txt), and so
 * must the simulator; mul_reused's product is also stored, so there it
 * rounds twice; mul_then_branch's sub is in the next block: twice too. */
static void test_contract_decoder_fuses_where_ptxas_does(void **s)
{
    (void)s;
    DeviceModule *m = load_file("tests/kernels/contract.ptx");
    float in[4 * N], out[2 * N];
    for (int k = 0; k < 4 * N; k++)
        in[k] = input((uint32_t)k);
    DevicePtr din = up(in, sizeof in), dout = up(NULL, sizeof out);
    int n = N;
    void *args[] = {&din, &dout, &n};
    run1(m, "f4_mul_sub", args);
    down(out, dout, sizeof(float) * N);
    int fused = 0, differ = 0;
    for (int i = 0; i < N; i++) {
        float x = in[4 * i], y = in[4 * i + 1], z = in[4 * i + 2];
        volatile float p = x * y;
        float two = p - z, one = fmaf(x, y, -z);
        fused += memcmp(&out[i], &one, 4) == 0;
        differ += memcmp(&one, &two, 4) != 0;
    }
    assert_int_equal(fused, N);
    assert_true(differ > 10);        /* the inputs tell the two apart */

    run1(m, "mul_reused", args);
    down(out, dout, sizeof out);
    int twice = 0;
    differ = 0;
    for (int i = 0; i < N; i++) {
        volatile float p = in[i] * in[i + N];
        float two = p + 1.0f, one = fmaf(in[i], in[i + N], 1.0f);
        twice += memcmp(&out[i], &two, 4) == 0 && memcmp(&out[i + N], (const void *)&p, 4) == 0;
        differ += memcmp(&one, &two, 4) != 0;
    }
    assert_int_equal(twice, N);
    assert_true(differ > 10);

    run1(m, "mul_then_branch", args);
    down(out, dout, sizeof(float) * N);
    twice = 0;
    for (int i = 0; i < N; i++) {
        volatile float p = in[i] * in[i + N];
        float want = in[i] > 0.0f ? p - in[i + 2 * N] : p;
        twice += memcmp(&out[i], &want, 4) == 0;
    }
    assert_int_equal(twice, N);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_contract_matches_ptxas_on_every_committed_ptx),
        cmocka_unit_test_setup_teardown(test_contract_decoder_fuses_where_ptxas_does, harness_setup_sim,
                                        harness_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
