/* test_lesson11.c: lesson 11 (thread block clusters) -- it is listed; its
 * harness runs clean and shows what its README says: each cluster's CTAs in
 * one GPC, the histogram equal to the C count for clusters of 1 to 8, the
 * neighbour read right with cluster.sync() and racy without it (the finding
 * naming the missing cluster barrier), and the occupancy table's limiters;
 * the PTX holds what the README names (mapa, barrier.cluster, an atom on
 * shared memory through a generic address); its xcheck.txt launches parse
 * and run clean. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "lesson_fixture.h"

static void test_lesson11_is_listed(void **st)
{
    (void)st;
    const Lesson *l = lesson_find("11-clusters");
    assert_non_null(l);
    assert_int_equal(l->number, 11);
    assert_ptr_equal(lesson_find("11"), l);
}

static void test_lesson11_harness_shows_what_the_readme_says(void **st)
{
    (void)st;
    int rc;
    char *t = lesson_output("11", "lessons/11-clusters", &rc);
    if (rc != 0 || strstr(t, "DIFFERS"))
        fail_msg("lesson 11 (rc %d):\n%s", rc, t);
    assert_non_null(strstr(t, "Each cluster's 4 CTAs share one GPC"));
    for (int k = 1; k <= 8; k *= 2) {
        char row[64];
        snprintf(row, sizeof row, "   %7d  %12d      4  yes", k, 256 / k);
        if (!strstr(t, row))
            fail_msg("no histogram row \"%s\" in:\n%s", row, t);
    }
    assert_non_null(strstr(t, "with cluster.sync():     0 of 2048 values wrong, race checker: 0 findings"));
    const char *without = strstr(t, "without it:");
    assert_non_null(without);
    assert_null(strstr(without, " 0 of 2048 values wrong")); /* the race shows in the values too */
    assert_non_null(strstr(without, "no cluster.sync() (barrier.cluster) between them"));
    assert_non_null(strstr(t, "  1024        8   2 of  2                   32              256  the cluster (GPCs not "
                              "whole clusters)"));
    assert_non_null(strstr(t, "   128        4   8 of 16                  264             1056  the cluster (8 "
                              "blocks/SM at most)"));
    char *readme = lesson_read_text("lessons/11-clusters/README.md");
    assert_non_null(strstr(readme, "GPCs of 18 SMs and 6 of 16"));
    assert_non_null(strstr(readme, "248 clusters of 4"));
    free(readme);
    free(t);
}

static void test_lesson11_ptx_is_what_the_readme_says(void **st)
{
    (void)st;
    char *p = lesson_read_text("lessons/11-clusters/kernel.ptx");
    assert_non_null(strstr(p, "mapa.u64"));
    assert_non_null(strstr(p, "barrier.cluster.arrive"));
    assert_non_null(strstr(p, "barrier.cluster.wait"));
    assert_non_null(strstr(p, "%cluster_ctarank"));
    assert_non_null(strstr(p, "atom.add.u32")); /* the histogram's add through a generic address */
    free(p);
}

static void test_lesson11_xcheck_lines_parse_and_run(void **st)
{
    (void)st;
    const char *out = lesson_xcheck_runs("11-clusters", 3);
    assert_non_null(strstr(out, "3 launches checked, 0 mismatches"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lesson11_is_listed),
        cmocka_unit_test(test_lesson11_harness_shows_what_the_readme_says),
        cmocka_unit_test(test_lesson11_ptx_is_what_the_readme_says),
        cmocka_unit_test(test_lesson11_xcheck_lines_parse_and_run),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
