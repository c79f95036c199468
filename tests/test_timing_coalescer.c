/* test_timing_coalescer.c: the coalescer (sim/timing_coalescer.c) -- the
 * 128-byte lines and 32-byte sectors one warp access touches, per access
 * pattern: consecutive words, strides, broadcast, misalignment, wide
 * vectors, partial warps. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "timing.h"

#define FULL 0xffffffffu

static TimingAccess pattern(uint32_t mask, uint64_t base, uint64_t stride, unsigned size)
{
    uint64_t a[32];
    for (int l = 0; l < 32; l++)
        a[l] = base + (uint64_t)l * stride;
    TimingAccess acc;
    timing_coalesce(mask, a, size, &acc);
    return acc;
}

static void test_consecutive_floats_are_one_line_four_sectors(void **s)
{
    (void)s;
    TimingAccess a = pattern(FULL, 0x1000, 4, 4);
    assert_int_equal(a.nlines, 1);
    assert_int_equal(a.nsectors, 4);
    assert_int_equal(a.sectors[0], 0xf);
}

static void test_misaligned_consecutive_floats_straddle_two_lines(void **s)
{
    (void)s;
    TimingAccess a = pattern(FULL, 0x1000 + 64, 4, 4);
    assert_int_equal(a.nlines, 2);
    assert_int_equal(a.nsectors, 4);
}

static void test_stride_2_floats_touch_8_sectors(void **s)
{
    (void)s;
    TimingAccess a = pattern(FULL, 0x1000, 8, 4);
    assert_int_equal(a.nlines, 2);
    assert_int_equal(a.nsectors, 8);
}

static void test_stride_32_floats_touch_a_line_per_lane(void **s)
{
    (void)s;
    TimingAccess a = pattern(FULL, 0x1000, 128, 4);
    assert_int_equal(a.nlines, 32);
    assert_int_equal(a.nsectors, 32);
}

static void test_broadcast_is_one_sector(void **s)
{
    (void)s;
    TimingAccess a = pattern(FULL, 0x1004, 0, 4);
    assert_int_equal(a.nlines, 1);
    assert_int_equal(a.nsectors, 1);
}

static void test_float4_per_lane_is_four_lines_sixteen_sectors(void **s)
{
    (void)s;
    TimingAccess a = pattern(FULL, 0x1000, 16, 16);
    assert_int_equal(a.nlines, 4);
    assert_int_equal(a.nsectors, 16);
}

static void test_partial_warp_counts_only_its_lanes(void **s)
{
    (void)s;
    TimingAccess a = pattern(0x000000ffu, 0x1000, 128, 4); /* 8 lanes, stride 128 B */
    assert_int_equal(a.nlines, 8);
    assert_int_equal(a.nsectors, 8);
    a = pattern(0, 0x1000, 4, 4);
    assert_int_equal(a.nlines, 0);
    assert_int_equal(a.nsectors, 0);
}

static void test_element_across_a_sector_boundary_takes_both(void **s)
{
    (void)s;
    TimingAccess a = pattern(1, 0x1000 + 30, 0, 4);
    assert_int_equal(a.nsectors, 2);
    assert_int_equal(a.nlines, 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_consecutive_floats_are_one_line_four_sectors),
        cmocka_unit_test(test_misaligned_consecutive_floats_straddle_two_lines),
        cmocka_unit_test(test_stride_2_floats_touch_8_sectors),
        cmocka_unit_test(test_stride_32_floats_touch_a_line_per_lane),
        cmocka_unit_test(test_broadcast_is_one_sector),
        cmocka_unit_test(test_float4_per_lane_is_four_lines_sixteen_sectors),
        cmocka_unit_test(test_partial_warp_counts_only_its_lanes),
        cmocka_unit_test(test_element_across_a_sector_boundary_takes_both),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
