/* test_threads.c: independent launches side by side (pool.h) change
 * nothing a user sees -- explore, grade, the occupancy sweep and xcheck
 * print the same bytes with --threads 1 and --threads 4 -- and a bad
 * --threads or WARPSIM_THREADS is refused by name.  Also the simulator's
 * allocator, whose addresses appear in fault messages: a launch that frees
 * what it allocated leaves the next one the same addresses. */
#include "grade_fixture.h"

#include "device.h"

/* Run `warpsim ARGS --threads N` (stdout and stderr, with the seconds any
 * report prints removed) into *text (malloc'd); return the status. */
static int run_threads(char **text, int threads, const char *args)
{
    int rc = sh(false, "WARPSIM_NO_PROGRESS=1 %s %s --threads %d >build/tests/threads_out.txt 2>&1; rc=$?; "
                       "sed -e 's/\"seconds\": [0-9.]*//' -e 's/in [0-9.]* s\\b/in S s/' build/tests/threads_out.txt; "
                       "exit $rc",
                warpsim(), args, threads);
    *text = strdup(out);
    assert_non_null(*text);
    return rc;
}

/* The command gives the same output and status with 1 and 4 threads;
 * needle must be in it (so the comparison is of a real report). */
static void same_with_1_and_4(const char *args, const char *needle)
{
    char *one, *four;
    int rc1 = run_threads(&one, 1, args), rc4 = run_threads(&four, 4, args);
    if (!strstr(one, needle))
        fail_msg("`warpsim %s` printed no '%s': %.600s", args, needle, one);
    if (strcmp(one, four)) {
        size_t k = 0;
        while (one[k] == four[k])
            k++;
        fail_msg("`warpsim %s`: --threads 1 and 4 differ at byte %zu:\n%.300s\n---\n%.300s", args, k,
                 one + (k > 100 ? k - 100 : 0), four + (k > 100 ? k - 100 : 0));
    }
    assert_int_equal(rc1, rc4);
    free(one);
    free(four);
}

#define L1 "lessons/01-threads-and-races/kernel.ptx"
#define L3 "lessons/03-atomics/kernel.ptx"

static void test_explore_float_sum_is_the_same_with_4_threads(void **s)
{
    (void)s;
    same_with_1_and_4("explore " L3 " --kernel sum_atomic_f32 --grid 40 --block 256 --arg buf:f32[10000]=rand:1 "
                      "--arg buf:f32[1]=fill:0 --arg i32:10000 --runs 60 --show 100",
                      "distinct results in 60 runs");
    same_with_1_and_4("explore " L3 " --kernel sum_atomic_f32 --grid 40 --block 256 --arg buf:f32[10000]=rand:1 "
                      "--arg buf:f32[1]=fill:0 --arg i32:10000 --runs 30 --json",
                      "\"runs\": 30");
}

static void test_explore_faults_and_races_are_the_same_with_4_threads(void **s)
{
    (void)s;
    /* fault messages carry global addresses: every worker's device must
     * give the same ones as one device reused run after run */
    same_with_1_and_4("explore " L1 " --kernel atomic_sum --grid 8 --block 256 --arg buf:i32[1000]=fill:1 "
                      "--arg buf:i32[1]=fill:0 --arg i32:2000 --runs 12 --json",
                      "global address 0x");
    same_with_1_and_4("explore " L1 " --kernel racy_sum --grid 40 --block 256 --arg buf:i32[10000]=fill:1 "
                      "--arg buf:i32[1]=fill:0 --arg i32:10000 --runs 20 --check races",
                      "race check: findings in 20 of 20 runs");
}

static void test_grade_reports_are_the_same_with_4_threads(void **s)
{
    (void)s;
    need_nvcc();
    const char *cases[] = {"racy", "oob", "loop", "reduction"};
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char args[512];
        snprintf(args, sizeof args, "grade 1 tests/grade/%s.cu --runs 6 --format json", cases[i]);
        same_with_1_and_4(args, "\"findings\"");
    }
}

static void test_occupancy_sweep_file_is_the_same_with_4_threads(void **s)
{
    (void)s;
    char *a = NULL, *b = NULL;
    for (int k = 0; k < 2; k++) {
        assert_int_equal(sh(true, "%s occupancy --sweep-carveout build/tests/threads_sweep%d.json --backend sim "
                                  "--sweep-tiny --grid 264 --threads %d", warpsim(), k, k ? 4 : 1), 0);
        assert_non_null(strstr(out, "8 of 8 configurations measured"));
        char path[64], msg[256];
        size_t len;
        snprintf(path, sizeof path, "build/tests/threads_sweep%d.json", k);
        char *t = source_read_file(path, &len, msg, sizeof msg);
        if (!t)
            fail_msg("%s", msg);
        *(k ? &b : &a) = t;
    }
    assert_non_null(strstr(a, "\"configs\": ["));
    assert_string_equal(a, b);
    free(a);
    free(b);
}

static void test_xcheck_is_the_same_with_4_threads(void **s)
{
    (void)s;
    same_with_1_and_4("xcheck --recorded", "launches checked against");
    same_with_1_and_4("xcheck --all --backend sim --json", "\"launches\"");
}

static void test_bad_thread_counts_are_usage_errors(void **s)
{
    (void)s;
    const char *cmds[] = {"explore " L1 " --kernel racy_sum --grid 1 --block 32 --arg buf:i32[32]=fill:1 "
                          "--arg buf:i32[1]=fill:0 --arg i32:32",
                          "grade 1 tests/grade/racy.cu", "occupancy --sweep-carveout build/tests/x.json --backend sim",
                          "xcheck --recorded", "run " L1 " --kernel racy_sum --grid 1 --block 32 "
                          "--arg buf:i32[32]=fill:1 --arg buf:i32[1]=fill:0 --arg i32:32"};
    const char *bad[] = {"0", "-2", "four", "3x", ""};
    for (size_t c = 0; c < sizeof cmds / sizeof *cmds; c++) {
        char verb[16];
        sscanf(cmds[c], "%15s", verb);
        for (size_t b = 0; b < sizeof bad / sizeof *bad; b++) {
            assert_int_equal(sh(true, "%s %s --threads '%s'", warpsim(), cmds[c], bad[b]), 2);
            char want[128];
            snprintf(want, sizeof want, "warpsim %s: --threads '%s': expected a thread count from 1 to 1024", verb,
                     bad[b]);
            if (!strstr(out, want))
                fail_msg("`%s --threads '%s'`: no '%s' in: %.400s", cmds[c], bad[b], want, out);
        }
        assert_int_equal(sh(true, "WARPSIM_THREADS=lots %s %s", warpsim(), cmds[c]), 2);
        char want[128];
        snprintf(want, sizeof want, "warpsim %s: WARPSIM_THREADS='lots': expected a thread count", verb);
        if (!strstr(out, want))
            fail_msg("`WARPSIM_THREADS=lots %s`: no '%s' in: %.400s", cmds[c], want, out);
    }
    /* a good WARPSIM_THREADS is taken, and --threads wins over a bad one */
    assert_int_equal(sh(true, "WARPSIM_THREADS=3 %s xcheck --recorded 1", warpsim()), 0);
    assert_int_equal(sh(true, "WARPSIM_THREADS=0 %s xcheck --recorded 1 --threads 2", warpsim()), 0);
}

static void test_help_pages_name_threads(void **s)
{
    (void)s;
    const char *verbs[] = {"run", "explore", "grade", "occupancy", "xcheck"};
    for (size_t i = 0; i < sizeof verbs / sizeof *verbs; i++) {
        assert_int_equal(sh(false, "%s %s --help", warpsim(), verbs[i]), 0);
        if (!strstr(out, "--threads N"))
            fail_msg("warpsim %s --help does not name --threads N", verbs[i]);
    }
}

/* The addresses device_malloc gives after buffers were freed. */
static void test_sim_addresses_repeat_once_a_launch_freed_its_buffers(void **s)
{
    (void)s;
    SimError err;
    Device *d = device_open_sim("sm_90", &err);
    assert_non_null(d);
    DevicePtr a, b, c, a2, b2;
    assert_int_equal(device_malloc(d, 1000, &a, &err), SIM_OK);
    assert_int_equal(device_malloc(d, 64, &b, &err), SIM_OK);
    assert_true(b > a);
    assert_int_equal(device_free(d, b, &err), SIM_OK);
    assert_int_equal(device_malloc(d, 64, &c, &err), SIM_OK);
    assert_true(c == b); /* the top one freed: its place is given again */
    assert_int_equal(device_free(d, a, &err), SIM_OK);
    assert_int_equal(device_malloc(d, 8, &a2, &err), SIM_OK);
    assert_true(a2 > c); /* a hole below a live allocation is not reused */
    assert_int_equal(device_free(d, c, &err), SIM_OK);
    assert_int_equal(device_free(d, a2, &err), SIM_OK);
    assert_int_equal(device_malloc(d, 1000, &a2, &err), SIM_OK);
    assert_int_equal(device_malloc(d, 64, &b2, &err), SIM_OK);
    assert_true(a2 == a && b2 == b); /* all freed: as on a fresh device */
    device_close(d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_explore_float_sum_is_the_same_with_4_threads),
        cmocka_unit_test(test_explore_faults_and_races_are_the_same_with_4_threads),
        cmocka_unit_test(test_grade_reports_are_the_same_with_4_threads),
        cmocka_unit_test(test_occupancy_sweep_file_is_the_same_with_4_threads),
        cmocka_unit_test(test_xcheck_is_the_same_with_4_threads),
        cmocka_unit_test(test_bad_thread_counts_are_usage_errors),
        cmocka_unit_test(test_help_pages_name_threads),
        cmocka_unit_test(test_sim_addresses_repeat_once_a_launch_freed_its_buffers),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
