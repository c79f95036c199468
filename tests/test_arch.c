/* test_arch.c: the architecture profiles and named parts (sim/arch.c):
 * lookups by every accepted spelling, the numbers of arch-facts.md Tables 1
 * to 4 on each profile, and the error that lists the known names. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "arch.h"

static void test_arch_find_accepts_every_spelling(void **s)
{
    (void)s;
    const ArchProfile *a = arch_find("sm_90");
    assert_non_null(a);
    assert_ptr_equal(arch_find("SM_90"), a);
    assert_ptr_equal(arch_find("sm90"), a);
    assert_ptr_equal(arch_find("90"), a);
    assert_ptr_equal(arch_find("9.0"), a);
    assert_ptr_equal(arch_find("compute_90"), a);
    assert_ptr_equal(arch_find("sm_90a"), a);
    assert_ptr_equal(arch_find("sm_120"), arch_find_cc(12, 0));
    assert_ptr_equal(arch_find("10.3"), arch_find_cc(10, 3));
    assert_null(arch_find("sm_99"));
    assert_null(arch_find("sm_"));
    assert_null(arch_find("9"));
    assert_null(arch_find("h100-sxm"));
    assert_null(arch_find(NULL));
}

static void test_every_issue_arch_is_present_in_cc_order(void **s)
{
    (void)s;
    static const char *const want[] = {"sm_70", "sm_75", "sm_80", "sm_86", "sm_87",
                                       "sm_89", "sm_90", "sm_100", "sm_103", "sm_120"};
    assert_int_equal(arch_count(), 10);
    for (int i = 0; i < 10; i++) {
        const ArchProfile *a = arch_at(i);
        assert_string_equal(a->name, want[i]);
        assert_ptr_equal(arch_find(want[i]), a);
        assert_int_equal(a->warp_size, 32);
        assert_int_equal(a->max_threads_per_block, 1024);
        assert_int_equal(a->max_warps_per_sm * a->warp_size, a->max_threads_per_sm);
        assert_int_equal(a->regs_per_sm, 65536);
        assert_int_equal(a->max_regs_per_thread, 255);
        assert_int_equal(a->smem_per_block, 48 * 1024);
        /* the largest carveout is the SM's shared memory */
        assert_int_equal(a->carveout_kb[a->n_carveouts - 1] * 1024, a->smem_per_sm);
        /* opt-in = SM size minus the reserve */
        assert_int_equal(a->smem_per_block_optin + a->smem_reserved_per_block, a->smem_per_sm);
        assert_true(a->unified_cache >= a->smem_per_sm);
        assert_non_null(arch_part_find(a->reference_part));
        if (i)
            assert_true(a->cc_major * 10 + a->cc_minor >
                        arch_at(i - 1)->cc_major * 10 + arch_at(i - 1)->cc_minor);
    }
    assert_null(arch_at(10));
    assert_null(arch_at(-1));
}

static void test_table_numbers_of_a_few_archs(void **s)
{
    (void)s;
    const ArchProfile *a = arch_find("sm_75");
    assert_int_equal(a->max_threads_per_sm, 1024);
    assert_int_equal(a->max_blocks_per_sm, 16);
    assert_int_equal(a->smem_per_sm, 65536);
    assert_int_equal(a->smem_reserved_per_block, 0);
    assert_int_equal(a->smem_alloc_unit, 256);
    assert_int_equal(a->n_carveouts, 2);
    a = arch_find("sm_89");
    assert_int_equal(a->max_warps_per_sm, 48);
    assert_int_equal(a->max_blocks_per_sm, 24);
    assert_int_equal(a->smem_per_block_optin, 101376);
    a = arch_find("sm_90");
    assert_int_equal(a->smem_per_sm, 233472);
    assert_int_equal(a->smem_reserved_per_block, 1024);
    assert_int_equal(a->smem_alloc_unit, 128);
    assert_int_equal(a->unified_cache, 256 * 1024);
    assert_int_equal(a->cluster_max_portable, 8);
    assert_int_equal(a->cluster_max_nonportable, 16);
    assert_int_equal(arch_find("sm_86")->cluster_max_portable, 0);
    a = arch_find("sm_120");
    assert_int_equal(a->max_blocks_per_sm, 24);          /* not the guide's 32 */
    assert_int_equal(a->barrier_slots_per_block, 1);
    assert_int_equal(a->virtual_resources_per_sm, 128);
}

static void test_parts_resolve_with_their_sm_counts(void **s)
{
    (void)s;
    static const struct { const char *name, *arch; int sms; } want[] = {
        {"v100", "sm_70", 80}, {"t4", "sm_75", 40}, {"a100", "sm_80", 108},
        {"a10", "sm_86", 72}, {"rtx3090", "sm_86", 82}, {"rtx4090", "sm_89", 128},
        {"l4", "sm_89", 58}, {"h100-sxm", "sm_90", 132}, {"h100-pcie", "sm_90", 114},
        {"h200", "sm_90", 132}, {"b200", "sm_100", 148}, {"rtx5090", "sm_120", 170},
    };
    for (size_t i = 0; i < sizeof want / sizeof *want; i++) {
        ArchTarget t;
        assert_int_equal(arch_resolve(want[i].name, &t, NULL), SIM_OK);
        assert_string_equal(t.arch->name, want[i].arch);
        assert_int_equal(t.sm_count, want[i].sms);
        assert_true(t.by_part);
        assert_string_equal(t.part->name, want[i].name);
    }
    ArchTarget t;
    assert_int_equal(arch_resolve("H100_SXM", &t, NULL), SIM_OK);
    assert_int_equal(t.sm_count, 132);
    /* a bare arch gets its reference part's SM count */
    assert_int_equal(arch_resolve("sm_80", &t, NULL), SIM_OK);
    assert_false(t.by_part);
    assert_int_equal(t.sm_count, 108);
    for (int i = 0; i < arch_part_count(); i++)
        assert_non_null(arch_find(arch_part_at(i)->arch));
    assert_null(arch_part_at(arch_part_count()));
}

static void test_unknown_name_lists_the_known_ones(void **s)
{
    (void)s;
    ArchTarget t;
    SimError e;
    sim_error_clear(&e);
    assert_int_equal(arch_resolve("gtx1080", &t, &e), SIM_ERR_USAGE);
    assert_int_equal(e.status, SIM_ERR_USAGE);
    assert_non_null(strstr(e.msg, "unknown GPU 'gtx1080'"));
    assert_non_null(strstr(e.msg, "sm_70"));
    assert_non_null(strstr(e.msg, "sm_120"));
    assert_non_null(strstr(e.msg, "h100-sxm"));
    assert_non_null(strstr(e.msg, "rtx5090"));
    char buf[16];
    arch_list_names(buf, sizeof buf, false);  /* truncates, stays terminated */
    assert_true(strlen(buf) < sizeof buf);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_arch_find_accepts_every_spelling),
        cmocka_unit_test(test_every_issue_arch_is_present_in_cc_order),
        cmocka_unit_test(test_table_numbers_of_a_few_archs),
        cmocka_unit_test(test_parts_resolve_with_their_sm_counts),
        cmocka_unit_test(test_unknown_name_lists_the_known_ones),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
