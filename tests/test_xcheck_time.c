/* test_xcheck_time.c: xcheck.txt time claims (faster-than LINE [BY R]) --
 * the parser (good lines, bad lines with the column and a caret), a claim
 * that holds and one that fails on the simulator, a second simulator
 * standing in for the GPU (its "measured" time is its modelled cycles),
 * the recorded times judged by --recorded, and a recording made before
 * time claims (the simulator's side alone, and the report says so). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include <cmocka.h>

#include "launch.h"
#include "source.h"
#include "xcheck.h"

#define DIR "build/test-xcheck-time"
#define REC DIR "/hw/warpsim-simulator-sm-90/xcheck.json"
#define OLD "traces/hw/nvidia-h100-80gb-hbm3/xcheck.json"

static char out[1 << 20];

static int run(const char *fmt, ...)
{
    char args[2048], cmd[2300];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(args, sizeof args, fmt, ap);
    va_end(ap);
    const char *w = getenv("WARPSIM");
    snprintf(cmd, sizeof cmd, "%s %s 2>&1", w ? w : "build/warpsim", args);
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    size_t n = fread(out, 1, sizeof out - 1, p);
    out[n] = 0;
    int st = pclose(p);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

#define LAUNCH "--kernel k --grid 1 --block 32 --arg buf:f32[4]=fill:0"

static void test_parse_reads_faster_than(void **s)
{
    (void)s;
    XcheckLaunch l;
    char msg[256];
    assert_int_equal(xcheck_parse_line("faster-than 3 BY 2 " LAUNCH, &l, msg, sizeof msg), 1);
    assert_int_equal(l.than_line, 3);
    assert_true(l.by == 2);
    assert_false(l.order_dependent);
    assert_string_equal(l.spec.kernel, "k");
    assert_int_equal(l.than, -1); /* resolved by xcheck_read_file */
    xcheck_launch_free(&l);
    assert_int_equal(xcheck_parse_line("faster-than 12 " LAUNCH, &l, msg, sizeof msg), 1);
    assert_int_equal(l.than_line, 12);
    assert_true(l.by == 1);
    xcheck_launch_free(&l);
    assert_int_equal(xcheck_parse_line("faster-than 4 by 1.5 order-dependent 0 range:0,1 " LAUNCH, &l, msg, sizeof msg),
                     1);
    assert_true(l.by == 1.5 && l.order_dependent && l.nod == 1);
    xcheck_launch_free(&l);
    assert_int_equal(xcheck_parse_line(LAUNCH, &l, msg, sizeof msg), 1);
    assert_int_equal(l.than_line, 0);
    xcheck_launch_free(&l);
}

static void test_parse_rejects_bad_time_claims_with_a_column(void **s)
{
    (void)s;
    static const struct {
        const char *line, *want;
    } bad[] = {
        {"faster-than " LAUNCH, "column 13: faster-than: expected the line number"},
        {"faster-than x " LAUNCH, "column 13: faster-than 'x': expected a line number"},
        {"faster-than 0 " LAUNCH, "column 13: faster-than '0': expected a line number"},
        {"faster-than  7 BY " LAUNCH, "column 19: faster-than 7 BY: expected a factor"},
        {"faster-than 7 BY 0.5 " LAUNCH, "column 18: BY '0.5': expected a factor of at least 1"},
        {"faster-than 7 BY two " LAUNCH, "column 18: BY 'two'"},
        {"faster-than 7 BY 2", "faster-than 7: expected the launch (--kernel ...) after it"},
        {"faster-than 7 bogus " LAUNCH, "'bogus': a line starts with exact, order-dependent, faster-than"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        XcheckLaunch l;
        char msg[256];
        assert_int_equal(xcheck_parse_line(bad[i].line, &l, msg, sizeof msg), -1);
        if (!strstr(msg, bad[i].want))
            fail_msg("'%s': got '%s', want '%s'", bad[i].line, msg, bad[i].want);
    }
}

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static void test_read_file_resolves_claims_and_carets_bad_ones(void **s)
{
    (void)s;
    assert_int_equal(system("mkdir -p " DIR), 0);
    write_file(DIR "/good.txt", "# a comment\n" LAUNCH "\n\nfaster-than 2 BY 3 " LAUNCH "\n" LAUNCH "\n");
    XcheckLaunch *ls;
    int n;
    char msg[1024];
    if (!xcheck_read_file(DIR "/good.txt", &ls, &n, msg, sizeof msg))
        fail_msg("%s", msg);
    assert_int_equal(n, 3);
    assert_int_equal(ls[1].lineno, 4);
    assert_int_equal(ls[1].than, 0);
    assert_true(ls[0].timed && ls[1].timed && !ls[2].timed);
    for (int i = 0; i < n; i++)
        xcheck_launch_free(&ls[i]);
    free(ls);
    /* line 1 is a comment: no launch to beat */
    write_file(DIR "/bad.txt", "# a comment\n" LAUNCH "\nfaster-than 1 " LAUNCH "\n");
    assert_false(xcheck_read_file(DIR "/bad.txt", &ls, &n, msg, sizeof msg));
    assert_string_equal(msg, DIR "/bad.txt:3:13: faster-than 1: line 1 is not a launch line of this file\n"
                             "    faster-than 1 " LAUNCH "\n"
                             "                ^");
    write_file(DIR "/self.txt", "faster-than 1 " LAUNCH "\n");
    assert_false(xcheck_read_file(DIR "/self.txt", &ls, &n, msg, sizeof msg));
    assert_non_null(strstr(msg, "self.txt:1:13: faster-than 1: line 1 is this line itself"));
    /* a parse error with a column gets the caret too */
    write_file(DIR "/by.txt", LAUNCH "\nfaster-than 1 BY 0.5 " LAUNCH "\n");
    assert_false(xcheck_read_file(DIR "/by.txt", &ls, &n, msg, sizeof msg));
    assert_non_null(strstr(msg, "by.txt:2:18: BY '0.5': expected a factor of at least 1"));
    assert_non_null(strstr(msg, "\n                     ^"));
    /* errors without a column keep their old form */
    write_file(DIR "/plain.txt", "--kernel k --grid 1\n");
    assert_false(xcheck_read_file(DIR "/plain.txt", &ls, &n, msg, sizeof msg));
    assert_string_equal(msg, DIR "/plain.txt:1: missing --block");
}

/* Lesson 3's kernels at 32768 floats: one atomic per element against a block
 * reduction, claimed both ways, judged on the simulator alone and with
 * reference times. */
static void test_a_claim_holds_and_one_fails_on_the_simulator(void **s)
{
    (void)s;
    assert_int_equal(system("mkdir -p " DIR), 0);
#define SUM(k) "--kernel " k " --grid 128 --block 256 --arg buf:f32[32768]=rand:1 --arg buf:f32[1]=fill:0 --arg i32:32768"
    write_file(DIR "/claims.txt", "order-dependent 1 " SUM("sum_atomic_f32") "\n"
                                  "faster-than 1 BY 4 order-dependent 1 " SUM("sum_block_f32") "\n"
                                  "faster-than 2 order-dependent 1 " SUM("sum_atomic_f32") "\n");
    XcheckLaunch *ls;
    int n;
    char msg[1024];
    if (!xcheck_read_file(DIR "/claims.txt", &ls, &n, msg, sizeof msg))
        fail_msg("%s", msg);
    size_t len;
    char *ptx = source_read_file("lessons/03-atomics/kernel.ptx", &len, msg, sizeof msg);
    assert_non_null(ptx);
    SimError err;
    sim_error_clear(&err);
    Device *dev = device_open_sim("sm_90", &err);
    assert_non_null(dev);
    DeviceModule *mod;
    assert_int_equal(device_load_ptx(dev, "kernel.ptx", ptx, len, &mod, &err), SIM_OK);
    XcheckSim xs = {.dev = dev, .mod = mod, .path = "kernel.ptx"};
    char *text;
    size_t tlen;
    FILE *f = open_memstream(&text, &tlen);
    XcheckReport rep;
    xcheck_report_init(&rep, f, false);
    assert_int_equal(xcheck_check_times(&rep, &xs, ls, n, NULL, NULL, "no reference here"), 2);
    fclose(f);
    assert_int_equal(rep.times, 2);
    assert_int_equal(rep.time_fails, 1);
    assert_non_null(strstr(text, "  time: sum_block_f32 (line 2) faster than sum_atomic_f32 (line 1) by 4x\n"));
    assert_non_null(strstr(text, "  time: sum_atomic_f32 (line 3) faster than sum_block_f32 (line 2) by 1x  <-- FAILS\n"));
    assert_non_null(strstr(text, "x  holds\n"));
    assert_non_null(strstr(text, "x  FAILS\n"));
    assert_non_null(strstr(text, "not judged: no reference here"));
    free(text);
    /* with reference times: the first claim fails there (2 / 1 < 4); the second holds there (1 / 0.5 >= 1)
     * but still fails on the simulator */
    double times[3] = {2, 1, 0.5};
    f = open_memstream(&text, &tlen);
    xcheck_report_init(&rep, f, true);
    assert_int_equal(xcheck_check_times(&rep, &xs, ls, n, times, "ms", ""), 2);
    fclose(f);
    assert_int_equal(rep.time_fails, 2);
    assert_non_null(strstr(text, "\"reference\": {\"times\": [2, 1], \"unit\": \"ms\", \"ratio\": 2, \"holds\": false}"));
    assert_non_null(strstr(text, "\"reference\": {\"times\": [1, 0.5], \"unit\": \"ms\", \"ratio\": 2, \"holds\": true}"));
    free(text);
    for (int i = 0; i < n; i++)
        xcheck_launch_free(&ls[i]);
    free(ls);
    free(ptx);
    device_close(dev);
}

static void test_median_of_runs(void **s)
{
    (void)s;
    double a[] = {3, 1, 2}, b[] = {4, 1, 3, 2}, c[] = {7};
    assert_true(xcheck_median(a, 3) == 2);
    assert_true(xcheck_median(b, 4) == 2.5);
    assert_true(xcheck_median(c, 1) == 7);
}

/* A second simulator stands in for the GPU: its measured time is its
 * modelled cycles, so both ratios agree; the recording keeps the times and
 * --recorded judges the reference's side from them. */
static void test_stand_in_records_times_and_recorded_judges_them(void **s)
{
    (void)s;
    assert_int_equal(system("rm -rf " DIR "/hw"), 0);
    assert_int_equal(run("xcheck 3 4 --backend sim --runs 2 --record " DIR "/hw"), 0);
    assert_non_null(strstr(out, "3 time claims judged, 0 failing")); /* lesson 3's two, lesson 4's one */
    const char *c = strstr(out, "time: sum_block_f32 (line 33) faster than sum_atomic_f32 (line 31) by 10x");
    assert_non_null(c);
    char simr[128], refr[128];
    assert_int_equal(sscanf(strstr(c, "simulator"), "simulator %127[^\n]", simr), 1);
    assert_int_equal(sscanf(strstr(c, "reference"), "reference %127[^\n]", refr), 1);
    assert_string_equal(simr, refr);
    assert_non_null(strstr(simr, " cycles = "));
    XcheckRecording r;
    char msg[512];
    if (!xcheck_recording_read(REC, &r, msg, sizeof msg))
        fail_msg("%s", msg);
    assert_int_equal(r.n, 2);
    int timed = 0;
    for (int k = 0; k < r.lessons[0].n; k++)
        if (r.lessons[0].refs[k].time > 0) {
            timed++;
            assert_string_equal(r.lessons[0].refs[k].time_unit, "cycles");
        }
    assert_int_equal(timed, 3); /* lesson 3: the three launches its claims name */
    xcheck_recording_free(&r);
    assert_int_equal(run("xcheck --recorded " DIR "/hw"), 0);
    c = strstr(out, "time: sum_block_f32 (line 33)");
    assert_non_null(c);
    assert_int_equal(sscanf(strstr(c, "reference"), "reference %127[^\n]", refr), 1);
    assert_string_equal(simr, refr);
    assert_null(strstr(out, "not judged"));
    assert_int_equal(run("xcheck --recorded " REC " 3 --json"), 0);
    assert_non_null(strstr(out, "\"times\": [{\"claim\": \"faster-than 31 BY 5 order-dependent"));
    assert_non_null(strstr(out, "\"unit\": \"cycles\""));
    assert_non_null(strstr(out, "\"time_claims\": 2, \"time_failures\": 0, \"ok\": true"));
}

/* A recorded time that breaks the claim fails the check (status 1). */
static void test_recorded_time_that_breaks_a_claim_fails(void **s)
{
    (void)s;
    size_t len;
    char msg[256];
    char *text = source_read_file(REC, &len, msg, sizeof msg);
    assert_non_null(text);
    char *t = strstr(text, "\"time\": "); /* lesson 3's sum_atomic_f32, the launch both claims beat */
    assert_non_null(t);
    size_t k = strlen("\"time\": ");
    while (t[k] >= '0' && t[k] <= '9')
        k++;
    FILE *f = fopen(DIR "/slow.json", "w");
    assert_non_null(f);
    fwrite(text, 1, (size_t)(t - text), f);
    fputs("\"time\": 1", f);
    fputs(t + k, f);
    fclose(f);
    free(text);
    assert_int_equal(run("xcheck --recorded " DIR "/slow.json 3"), 1);
    assert_non_null(strstr(out, "by 10x  <-- FAILS"));
    assert_non_null(strstr(out, "2 time claims judged, 2 failing"));
    assert_non_null(strstr(out, " 0 mismatches")); /* the buffers still agree */
}

/* A recording made before time claims (the stand-in's recording with its
 * time lines taken out, as the H100 recording committed before them) still
 * reads, and --recorded judges the simulator's side alone and says why. */
static void test_old_recording_judges_the_simulator_side_only(void **s)
{
    (void)s;
    assert_int_equal(system("mkdir -p " DIR "/old && grep -v -e '\"time\": ' -e '\"time_unit\": ' " REC " > " DIR
                            "/old/xcheck.json"), 0);
    XcheckRecording r;
    char msg[512];
    if (!xcheck_recording_read(DIR "/old/xcheck.json", &r, msg, sizeof msg))
        fail_msg("%s", msg);
    for (int l = 0; l < r.n; l++)
        for (int k = 0; k < r.lessons[l].n; k++)
            assert_true(r.lessons[l].refs[k].time < 0);
    xcheck_recording_free(&r);
    assert_int_equal(run("xcheck --recorded " DIR "/old 3 4"), 0);
    assert_non_null(strstr(out, "reference            not judged: the recording has no times (made before time "
                                "claims; record again)"));
    assert_non_null(strstr(out, "3 time claims judged, 0 failing"));
    const char *c = strstr(out, "time: sum_block_f32 (line 33) faster than sum_atomic_f32 (line 31) by 10x");
    assert_non_null(c);
    assert_non_null(strstr(c, "holds"));
    /* the hardware recording committed in traces/hw reads whether or not it has times yet */
    if (!xcheck_recording_read(OLD, &r, msg, sizeof msg))
        fail_msg("%s", msg);
    xcheck_recording_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse_reads_faster_than),
        cmocka_unit_test(test_parse_rejects_bad_time_claims_with_a_column),
        cmocka_unit_test(test_read_file_resolves_claims_and_carets_bad_ones),
        cmocka_unit_test(test_a_claim_holds_and_one_fails_on_the_simulator),
        cmocka_unit_test(test_median_of_runs),
        cmocka_unit_test(test_stand_in_records_times_and_recorded_judges_them),
        cmocka_unit_test(test_recorded_time_that_breaks_a_claim_fails),
        cmocka_unit_test(test_old_recording_judges_the_simulator_side_only),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
