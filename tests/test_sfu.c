/* test_sfu.c: cmocka tests for the special function unit (sim/alu_sfu.c,
 * sim/sfu_table.c).
 *
 * The H100's results for 4096 sampled inputs of each of 36 instruction
 * variants (traces/hw/sfu-samples-h100.bin, recorded by scripts/sfu/prove.cu
 * beside its exhaustive proof) are replayed through the simulator's
 * functions and must match bit for bit; the inputs are drawn the way
 * scripts/sfu/prove_host.c draws them (same mixer, same variant order).
 * Also: known hardware values, the table decoder on damaged blobs, and the
 * mul.ftz rounding edge the proof found. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "alu.h"
#include "sfu_table.h"

#define EQ(x, y) assert_int_equal((uint64_t)(x), (uint64_t)(y))
static uint32_t F(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }

/* ---- the sampled inputs (scripts/sfu/prove_host.h's order) ------------- */
enum {
    V_RCP, V_RCP_FTZ, V_RSQ, V_RSQ_FTZ, V_SQRT, V_SQRT_FTZ, V_EX2, V_EX2_FTZ,
    V_LG2, V_LG2_FTZ, V_SIN, V_SIN_FTZ, V_COS, V_COS_FTZ, V_TANH, V_RCP64,
    V_EX2_F16X2, V_EX2_BF16X2, V_TANH_F16X2, V_TANH_BF16X2,
    V_DIVA, V_DIVAF, V_DIVF, V_DIVFF, V_DIVA_B, V_N = V_DIVA_B + 12
};
#define NSAMP 4096

static uint32_t mix32(uint64_t z)
{
    z += 0x9e3779b97f4a7c15ull;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return (uint32_t)(z ^ (z >> 31));
}

static const uint32_t div_a[3] = {0x3f800000u, 0x00001000u, 0x7f61b1e6u};

static void sample_inputs(int v, uint32_t k, uint32_t *a, uint32_t *b)
{
    static const uint32_t edge[8] = {0, 1, 2, 126, 127, 128, 253, 254};
    uint64_t key = (uint64_t)v << 40 | k;
    uint32_t r = mix32(key), r2 = mix32(key ^ 0x5bd1e995ull);
    uint32_t e = (k & 3) == 0 ? (r >> 23) & 0xff : (k & 3) == 1 ? edge[r2 & 7] + ((r2 >> 3) & 1)
                                                  : 100 + r2 % 56;
    uint32_t x = (r & 0x807fffffu) | (e & 0xff) << 23;
    if (v >= V_DIVA_B) { *a = div_a[(v - V_DIVA_B) % 3]; *b = x; }
    else if (v >= V_DIVA) { *a = mix32(key ^ 0x1234567ull); *b = x; }
    else { *a = x; *b = 0; }
}

static uint32_t pair16(uint16_t (*f)(uint16_t), uint32_t x)
{
    return f((uint16_t)x) | (uint32_t)f((uint16_t)(x >> 16)) << 16;
}

static uint32_t model(int v, uint32_t a, uint32_t b)
{
    switch (v) {
    case V_RCP: return alu_f32_rcp_approx(a, false);
    case V_RCP_FTZ: return alu_f32_rcp_approx(a, true);
    case V_RSQ: return alu_f32_rsqrt_approx(a, false);
    case V_RSQ_FTZ: return alu_f32_rsqrt_approx(a, true);
    case V_SQRT: return alu_f32_sqrt_approx(a, false);
    case V_SQRT_FTZ: return alu_f32_sqrt_approx(a, true);
    case V_EX2: return alu_f32_ex2_approx(a, false);
    case V_EX2_FTZ: return alu_f32_ex2_approx(a, true);
    case V_LG2: return alu_f32_lg2_approx(a, false);
    case V_LG2_FTZ: return alu_f32_lg2_approx(a, true);
    case V_SIN: return alu_f32_sin_approx(a, false);
    case V_SIN_FTZ: return alu_f32_sin_approx(a, true);
    case V_COS: return alu_f32_cos_approx(a, false);
    case V_COS_FTZ: return alu_f32_cos_approx(a, true);
    case V_TANH: return alu_f32_tanh_approx(a);
    case V_RCP64: return (uint32_t)(alu_f64_rcp_approx((uint64_t)a << 32 | mix32(a)) >> 32);
    case V_EX2_F16X2: return pair16(alu_f16_ex2_approx, a);
    case V_EX2_BF16X2: return pair16(alu_bf16_ex2_approx, a);
    case V_TANH_F16X2: return pair16(alu_f16_tanh_approx, a);
    case V_TANH_BF16X2: return pair16(alu_bf16_tanh_approx, a);
    default: break;
    }
    int op = v >= V_DIVA_B ? (v - V_DIVA_B) / 3 : v - V_DIVA;
    return op == 0 ? alu_f32_div_approx(a, b, false) : op == 1 ? alu_f32_div_approx(a, b, true)
         : op == 2 ? alu_f32_div_full(a, b, false) : alu_f32_div_full(a, b, true);
}

static void test_sfu_replays_h100_samples_bit_for_bit(void **s)
{
    (void)s;
    FILE *f = fopen("traces/hw/sfu-samples-h100.bin", "rb");
    assert_non_null(f);
    uint32_t *hw = malloc(4u * NSAMP * V_N);
    assert_non_null(hw);
    assert_int_equal(fread(hw, 4, (size_t)NSAMP * V_N, f), (size_t)NSAMP * V_N);
    fclose(f);
    int bad = 0;
    for (int v = 0; v < V_N; v++)
        for (uint32_t k = 0; k < NSAMP; k++) {
            uint32_t a, b, want = hw[v * NSAMP + k];
            sample_inputs(v, k, &a, &b);
            uint32_t got = model(v, a, b);
            if (got != want && bad++ < 10)
                print_error("variant %d sample %u: a=%08x b=%08x H100 %08x simulator %08x\n", v, k, a, b,
                            want, got);
        }
    free(hw);
    assert_int_equal(bad, 0);
}

/* ---- values the issue reported, from the H100 ------------------------- */
static void test_sfu_known_hardware_values(void **s)
{
    (void)s;
    /* __sinf(-6.4f): 123 ulp from the correctly rounded 0xbdeeb166 */
    EQ(alu_f32_sin_approx(F(-6.4f), false), 0xbdeeb0ebu);
    /* MUFU.SIN of a tiny turn: x / 2pi below 2^-25 turns is 0 */
    EQ(alu_f32_sin_approx(F(1e-7f), false), 0);
    /* half a turn: SIN gives -0 (the table's second half is negated);
     * sin.approx.ftz.f32 of 0x40490fdc (just above pi) on the H100 */
    EQ(alu_f32_sin_approx(0x40490fdcu, true), 0x80000000u);
    EQ(alu_f32_cos_approx(0x3fc90fdcu, true), 0x80000000u);
    /* lg2 below 1/2 negates in one's complement: lg2(2^-126) is one ulp above -126 */
    EQ(alu_f32_lg2_approx(0x00800000u, true), 0xc2fbffffu);
    /* rcp.approx.f32 of the largest float goes through 0.25 scaling to a subnormal */
    EQ(alu_f32_rcp_approx(0x7f7fffffu, false) & 0x7f800000u, 0);
    /* rcp.approx.ftz.f64 ignores the low word */
    EQ(alu_f64_rcp_approx(0x4008000012345678ull), alu_f64_rcp_approx(0x4008000000000000ull));
    /* tanh: x below 2^-8 passes through, 1 from 8 up */
    EQ(alu_f32_tanh_approx(F(0x1p-9f)), F(0x1p-9f));
    EQ(alu_f32_tanh_approx(F(-8.0f)), F(-1.0f));
}

/* The proof found mul.ftz rounding a product just below 2^-126 up to 2^-126
 * where the H100 flushes it (it rounds as if the exponent were unbounded). */
static void test_sfu_mul_ftz_flushes_product_rounding_up_to_min_normal(void **s)
{
    (void)s;
    EQ(alu_f32_mul(0x0cb5e5eau, 0x33342512u, ALU_RN, true, false), 0);
    EQ(alu_f32_div_approx(0x0cb5e5eau, 0x4bb5e5ebu, true), 0);
    EQ(alu_f32_div_full(0x8cd839c3u, 0xcbd839c3u, true), 0);
    /* without .ftz the subnormal-format rounding stands */
    EQ(alu_f32_mul(0x0cb5e5eau, 0x33342512u, ALU_RN, false, false), 0x00800000u);
    /* a product that rounds to 2^-126 either way stays */
    EQ(alu_f32_mul(0x00800000u, 0x3f800000u, ALU_RN, true, false), 0x00800000u);
}

/* ---- the table decoder ------------------------------------------------- */
extern const unsigned char sfu_blob_start[], sfu_blob_end[];

static void test_sfu_tables_decode_and_report_sizes(void **s)
{
    (void)s;
    for (int t = 0; t < SFU_T_COUNT; t++) {
        SimError e;
        assert_int_equal(sfu_table_require((SfuTable)t, &e), SIM_OK);
        assert_non_null(sfu_table((SfuTable)t));
    }
    EQ(sfu_table(SFU_T_RCP)[0], 0x3f800000u);      /* RCP(1) = 1 */
    EQ(sfu_table(SFU_T_SIN)[1u << 23], 0x3f800000u); /* SIN(1/4 turn) = 1 */
    EQ(sfu_table_size(SFU_T_TANH), (8u << 19) + (3u << 21));
    SimError e;
    assert_int_equal(sfu_table_require(SFU_T_COUNT, &e), SIM_ERR_USAGE);
}

static void test_sfu_blob_decode_rejects_damage(void **s)
{
    (void)s;
    size_t len = (size_t)(sfu_blob_end - sfu_blob_start);
    unsigned char *b = malloc(len);
    uint32_t *out = malloc(4u << 23);
    assert_non_null(b);
    assert_non_null(out);
    SimError e;
    memcpy(b, sfu_blob_start, len);
    assert_int_equal(sfu_blob_decode(b, len, "rcp", out, 1u << 23, &e), SIM_OK);
    assert_int_equal(sfu_blob_decode(b, len, "nope", out, 4, &e), SIM_ERR_IO);
    assert_non_null(strstr(e.msg, "not in the blob"));
    assert_int_equal(sfu_blob_decode(b, len, "rcp", out, 1000, &e), SIM_ERR_IO);
    assert_non_null(strstr(e.msg, "expected"));
    assert_int_equal(sfu_blob_decode(b, 100, "rcp", out, 1u << 23, &e), SIM_ERR_IO);
    b[0] = 'X';
    assert_int_equal(sfu_blob_decode(b, len, "rcp", out, 1u << 23, &e), SIM_ERR_IO);
    assert_non_null(strstr(e.msg, "bad magic"));
    b[0] = 'W';
    b[8 + 24 + 40] ^= 0x55;                             /* inside rcp's zlib stream */
    assert_int_equal(sfu_blob_decode(b, len, "rcp", out, 1u << 23, &e), SIM_ERR_IO);
    free(b);
    free(out);
}

static const PtxInst *first_inst(PtxModule *m)
{
    return &m->funcs[0].insts[0];
}

static int table_of(const char *line)
{
    char src[512];
    snprintf(src, sizeof src,
             ".version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n"
             ".reg .f32 %%f<4>; .reg .f64 %%fd<4>; .reg .b16 %%h<4>; .reg .b32 %%r<4>;\n%s\nret;\n}\n", line);
    SimError e;
    PtxModule *m = ptx_parse_module("t.ptx", src, strlen(src), &e);
    if (!m)
        fail_msg("%s: %s", line, e.msg);
    int t = sfu_inst_table(first_inst(m));
    ptx_module_free(m);
    return t;
}

static void test_sfu_inst_table_names_the_unit_behind_an_instruction(void **s)
{
    (void)s;
    assert_int_equal(table_of("sin.approx.ftz.f32 %f1, %f2;"), SFU_T_SIN);
    assert_int_equal(table_of("cos.approx.f32 %f1, %f2;"), SFU_T_SIN);
    assert_int_equal(table_of("rcp.approx.ftz.f64 %fd1, %fd2;"), SFU_T_RCP64H);
    assert_int_equal(table_of("div.full.f32 %f1, %f2, %f3;"), SFU_T_RCP);
    assert_int_equal(table_of("ex2.approx.f16 %h1, %h2;"), SFU_T_EX2_F16);
    assert_int_equal(table_of("tanh.approx.bf16x2 %r1, %r2;"), SFU_T_TANH_BF16);
    assert_int_equal(table_of("div.rn.f32 %f1, %f2, %f3;"), -1);
    assert_int_equal(table_of("sqrt.rn.f32 %f1, %f2;"), -1);
    assert_int_equal(table_of("rsqrt.approx.f64 %fd1, %fd2;"), -1);  /* not MUFU-table based here */
    assert_int_equal(table_of("add.f32 %f1, %f2, %f3;"), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sfu_replays_h100_samples_bit_for_bit),
        cmocka_unit_test(test_sfu_known_hardware_values),
        cmocka_unit_test(test_sfu_mul_ftz_flushes_product_rounding_up_to_min_normal),
        cmocka_unit_test(test_sfu_tables_decode_and_report_sizes),
        cmocka_unit_test(test_sfu_blob_decode_rejects_damage),
        cmocka_unit_test(test_sfu_inst_table_names_the_unit_behind_an_instruction),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
