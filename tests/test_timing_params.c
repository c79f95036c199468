/* test_timing_params.c: the parameter tables (sim/timing_params.c): every
 * arch profile gets a table, every row of it has a name, a value and a
 * source, and the values hang together (latencies ordered as the memory
 * hierarchy is, the H100's published sizes). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "arch.h"
#include "timing.h"

static void test_every_row_of_every_table_has_a_name_value_and_source(void **s)
{
    (void)s;
    for (int i = 0; i < arch_count(); i++) {
        const TimingParams *p = timing_params_for(arch_at(i));
        assert_non_null(p);
        for (int id = 0; id < TP_COUNT; id++) {
            const char *name = timing_param_name(id);
            if (!name || !p->source[id] || strlen(p->source[id]) < 8 || p->source[id][0] != '[')
                fail_msg("%s: parameter %d (%s) has no source", p->arch, id, name ? name : "?");
            if (p->v[id] <= 0)
                fail_msg("%s: %s is %g", p->arch, name, p->v[id]);
        }
    }
    assert_null(timing_param_name(TP_COUNT));
    assert_null(timing_param_name(-1));
}

static void test_latencies_follow_the_memory_hierarchy(void **s)
{
    (void)s;
    for (int i = 0; i < arch_count(); i++) {
        const double *v = timing_params_for(arch_at(i))->v;
        assert_true(v[TP_LAT_FP32] < v[TP_SMEM_LAT]);
        assert_true(v[TP_SMEM_LAT] <= v[TP_L1_LAT]);
        assert_true(v[TP_L1_LAT] < v[TP_L2_LAT]);
        assert_true(v[TP_DRAM_BYTES_PER_CYCLE] < v[TP_L2_BYTES_PER_CYCLE]);
    }
}

static void test_hopper_gets_the_h100_table_and_ampere_its_own(void **s)
{
    (void)s;
    const TimingParams *h = timing_params_for(arch_find("sm_90"));
    const TimingParams *a = timing_params_for(arch_find("sm_80"));
    assert_string_equal(h->part, "h100-sxm");
    assert_string_equal(a->part, "a100");
    assert_true(h->v[TP_L2_KB] == 50 * 1024);
    assert_true(a->v[TP_L2_KB] == 40 * 1024);
    assert_true(h->v[TP_INT_FP32] == 1 && a->v[TP_INT_FP32] == 2); /* 128 vs 64 FP32 lanes per SM */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_row_of_every_table_has_a_name_value_and_source),
        cmocka_unit_test(test_latencies_follow_the_memory_hierarchy),
        cmocka_unit_test(test_hopper_gets_the_h100_table_and_ampere_its_own),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
