/* test_lesson11.c: lesson 11 (thread block clusters) -- it is listed; its
 * harness runs clean and shows what its README says: each cluster's CTAs in
 * one GPC, the histogram equal to the C count for clusters of 1 to 8, the
 * neighbour read right with cluster.sync() and racy without it (the finding
 * naming the missing cluster barrier), and the occupancy table's limiters;
 * the PTX holds what the README names (mapa, barrier.cluster, an atom on
 * shared memory through a generic address, no .shared::cluster spelling);
 * the H100 figures it quotes are clusters-h100.txt's (192 against 30 cycles
 * a step, the cluster ids, the driver's two refusals) and the model's
 * latencies the simulator's; its race, stepper and occupancy commands print
 * what it says; it asks before each answer; its xcheck.txt launches parse
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

/* The output of a warpsim command line (stdout and stderr), malloc'd; its
 * standard input is the text in (one printf format without %), or none. */
static char *sh_in(const char *in, const char *args)
{
    const char *w = getenv("WARPSIM");
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "printf '%s' | %s %s 2>&1", in ? in : "", w ? w : "build/warpsim", args);
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    char *out = calloc(1, 1 << 16);
    assert_non_null(out);
    out[fread(out, 1, (1 << 16) - 1, p)] = 0;
    pclose(p);
    return out;
}

static char *sh(const char *args)
{
    return sh_in(NULL, args);
}

/* README step 2: nvcc reaches the other CTA through a generic address
 * (mapa.u64, then a plain ld or atom), never a .shared::cluster spelling. */
static void test_lesson11_ptx_reaches_dsmem_through_generic_addresses(void **st)
{
    (void)st;
    char *p = lesson_read_text("lessons/11-clusters/kernel.ptx");
    assert_non_null(strstr(p, "mapa.u64"));
    assert_non_null(strstr(p, "\tld.u32 \t"));
    assert_non_null(strstr(p, "\tatom.add.u32 \t"));
    assert_null(strstr(p, "shared::cluster"));
    free(p);
    char *raw = lesson_read_text("lessons/11-clusters/README.md"), *r = lesson_squash(raw);
    assert_non_null(strstr(r, "nvcc writes `mapa.u64`, which gives a generic address, and then a plain `ld.u32` or "
                              "`atom.add.u32` through it"));
    free(r);
    free(raw);
}

/* The H100 figures of the README are clusters-h100.txt's: the remote and
 * local latencies a step, the cluster ids bit for bit, the two refusals;
 * and the model's latencies are what the simulator gives today. */
static void test_lesson11_h100_figures_are_recorded(void **st)
{
    (void)st;
    char *rec = lesson_read_text("traces/hw/clusters-h100.txt");
    const char *g = strstr(rec, "== dsmem_latency GPU\n");
    assert_non_null(g);
    g = strstr(g, "\"values\": [");
    assert_non_null(g);
    double own, remote, steps;
    assert_int_equal(sscanf(g, "\"values\": [%lf, %lf, %lf]", &own, &remote, &steps), 3);
    steps /= 2; /* out[2] is the chain's last index, 2 x 256 steps */
    char *raw = lesson_read_text("lessons/11-clusters/README.md"), *r = lesson_squash(raw);
    char want[256];
    snprintf(want, sizeof want, "took %.0f cycles a step, against %.0f through the CTA's own", remote / steps,
             own / steps);
    if (!strstr(r, want))
        fail_msg("README.md lacks \"%s\"", want);
    assert_non_null(strstr(r, "256 steps each"));
    assert_int_equal((int)steps, 256);
    char *o = sh("run tests/kernels/clusters.ptx --kernel _Z13dsmem_latencyPxi --grid 2 --block 32 --timing "
                 "--arg buf:i64[3]=fill:0 --arg i32:256");
    const char *v = strstr(o, "arg 0  i64[3]: ");
    assert_non_null(v);
    double m_own, m_remote;
    assert_int_equal(sscanf(v, "arg 0  i64[3]: %lf %lf", &m_own, &m_remote), 2);
    snprintf(want, sizeof want, "warpsim's timing model gives %.1f and %.1f for the same kernel", m_remote / 256,
             m_own / 256);
    if (!strstr(r, want))
        fail_msg("README.md lacks \"%s\"", want);
    free(o);
    /* cluster_ids: the GPU's values are the simulator's */
    const char *a = strstr(rec, "== cluster_ids GPU\n"), *b = strstr(rec, "== cluster_ids sim\n");
    assert_true(a && b);
    a = strstr(a, "\"values\": [");
    b = strstr(b, "\"values\": [");
    assert_true(a && b);
    size_t na = strcspn(a, "]"), nb = strcspn(b, "]");
    assert_true(na == nb && !strncmp(a, b, na));
    assert_non_null(strstr(r, "the H100 gave the simulator's cluster ranks and cluster ids bit for bit"));
    /* the two refusals */
    int refused = 0;
    for (const char *q = rec; (q = strstr(q, "cuLaunchKernelEx (cluster dimension) failed: "
                                             "CUDA_ERROR_INVALID_CLUSTER_SIZE")) != NULL; q++)
        refused++;
    assert_int_equal(refused, 2);
    assert_non_null(strstr(r, "the H100's driver refused both with `CUDA_ERROR_INVALID_CLUSTER_SIZE`"));
    free(r);
    free(raw);
    free(rec);
}

/* Step 3 and the README's commands: the race's lines, the stepper's
 * early read, the occupancy answer for clusters of 8 big CTAs. */
static void test_lesson11_commands_show_what_the_readme_says(void **st)
{
    (void)st;
    char *raw = lesson_read_text("lessons/11-clusters/README.md"), *r = lesson_squash(raw);
    char *o = sh("run lessons/11-clusters/kernel.ptx --kernel neighbour_read --grid 8 --block 256 --cluster 2 "
                 "--arg buf:i32[2048]=iota --arg buf:i32[2048]=fill:0 --arg i32:0 --check races");
    if (!strstr(o, "write by block (1,0,0) thread (0,0,0) (warp 0 lane 0) at lessons/11-clusters/kernel.cu:58") ||
        !strstr(o, "read by block (0,0,0) thread (0,0,0) (warp 0 lane 0) at lessons/11-clusters/kernel.cu:62"))
        fail_msg("%s", o);
    assert_non_null(strstr(r, "a write at kernel.cu:58 and a read at kernel.cu:62"));
    assert_non_null(strstr(r, "Without it half the values come out wrong (1024 of 2048)"));
    free(o);
    static const char *script = "break 62\\ncontinue\\nstep 3\\nprint %%r15\\n";
    o = sh_in(script, "step lessons/11-clusters/kernel.ptx --kernel neighbour_read --grid 8 --block 256 --cluster 2 "
                      "--arg buf:i32[2048]=iota --arg buf:i32[2048]=fill:0 --arg i32:0");
    if (!strstr(o, "%r15 (b32) in block 0 warp 0:\n  lanes 0-31         0\n"))
        fail_msg("%s", o);
    free(o);
    o = sh_in(script, "step lessons/11-clusters/kernel.ptx --kernel neighbour_read --grid 8 --block 256 --cluster 2 "
                      "--arg buf:i32[2048]=iota --arg buf:i32[2048]=fill:0 --arg i32:1");
    if (!strstr(o, "%r15 (b32) in block 1 warp 0:\n  lanes  0-7 :          0          1          2") ||
        !strstr(o, "lanes 24-31:         24         25         26         27         28         29         30         31"))
        fail_msg("%s", o);
    assert_non_null(strstr(r, "`break 62`, `continue`, `step 3`, `print %r15`: block 0's first warp read 0 in every "
                              "lane, where block 1's slice will hold 256 ... 287; with `--arg i32:1` the first warp "
                              "there is block 1's, and it reads 0 ... 31"));
    free(o);
    o = sh("occupancy --gpu h100-sxm --block 1024 --regs 32 --cluster 8");
    if (!strstr(o, "max active clusters 32 ") || !strstr(o, "32 clusters x 8 = 256 blocks resident"))
        fail_msg("%s", o);
    assert_non_null(strstr(r, "`warpsim occupancy --gpu h100-sxm --block 1024 --regs 32 --cluster 8`"));
    assert_non_null(strstr(r, "256, in 32 clusters."));
    free(o);
    /* predict, then check; the stepper, the visualizer and the exercise */
    int predicts = 0;
    for (const char *q = r; (q = strstr(q, "**Predict:**")) != NULL; q++)
        predicts++;
    assert_int_equal(predicts, 4);
    assert_non_null(strstr(r, "`warpsim step lessons/11-clusters/kernel.ptx"));
    assert_non_null(strstr(r, "`warpsim viz c.wst --view gpu`"));
    assert_non_null(strstr(r, "`warpsim grade 11`"));
    free(r);
    free(raw);
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
        cmocka_unit_test(test_lesson11_ptx_reaches_dsmem_through_generic_addresses),
        cmocka_unit_test(test_lesson11_h100_figures_are_recorded),
        cmocka_unit_test(test_lesson11_commands_show_what_the_readme_says),
        cmocka_unit_test(test_lesson11_xcheck_lines_parse_and_run),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
