/* test_timing_smem.c: the shared-memory unit (sim/timing_smem.c): bank
 * conflicts as wavefronts -- strides 1, 2, 32, 33 of 4-byte words,
 * broadcast, 8- and 16-byte accesses in phases. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "timing.h"

static int wavefronts(uint64_t stride_words, unsigned size, int *degree, int *phases)
{
    uint64_t a[32];
    for (int l = 0; l < 32; l++)
        a[l] = (uint64_t)l * stride_words * 4;
    return timing_smem_wavefronts(0xffffffffu, a, size, degree, phases);
}

static void test_stride_1_is_one_wavefront(void **s)
{
    (void)s;
    int d, p;
    assert_int_equal(wavefronts(1, 4, &d, &p), 1);
    assert_int_equal(d, 1);
    assert_int_equal(p, 1);
}

static void test_stride_2_is_a_two_way_conflict(void **s)
{
    (void)s;
    int d;
    assert_int_equal(wavefronts(2, 4, &d, NULL), 2);
    assert_int_equal(d, 2);
}

static void test_stride_32_puts_every_lane_in_one_bank(void **s)
{
    (void)s;
    int d;
    assert_int_equal(wavefronts(32, 4, &d, NULL), 32);
    assert_int_equal(d, 32);
}

static void test_stride_33_is_conflict_free_again(void **s)
{
    (void)s;
    int d;
    assert_int_equal(wavefronts(33, 4, &d, NULL), 1);
    assert_int_equal(d, 1);
}

static void test_broadcast_of_one_word_is_one_wavefront(void **s)
{
    (void)s;
    assert_int_equal(wavefronts(0, 4, NULL, NULL), 1);
}

static void test_wide_accesses_go_in_phases(void **s)
{
    (void)s;
    int d, p;
    /* 8-byte elements, consecutive: two half-warp phases, no conflict */
    assert_int_equal(wavefronts(2, 8, &d, &p), 2);
    assert_int_equal(p, 2);
    assert_int_equal(d, 1);
    /* 16-byte elements, consecutive: four quarter-warp phases */
    assert_int_equal(wavefronts(4, 16, &d, &p), 4);
    assert_int_equal(p, 4);
}

static void test_inactive_lanes_cost_nothing(void **s)
{
    (void)s;
    uint64_t a[32] = {0};
    int p;
    assert_int_equal(timing_smem_wavefronts(0, a, 4, NULL, &p), 0);
    assert_int_equal(p, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_stride_1_is_one_wavefront),
        cmocka_unit_test(test_stride_2_is_a_two_way_conflict),
        cmocka_unit_test(test_stride_32_puts_every_lane_in_one_bank),
        cmocka_unit_test(test_stride_33_is_conflict_free_again),
        cmocka_unit_test(test_broadcast_of_one_word_is_one_wavefront),
        cmocka_unit_test(test_wide_accesses_go_in_phases),
        cmocka_unit_test(test_inactive_lanes_cost_nothing),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
