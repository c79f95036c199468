/* test_timing_hw.c: the timing model against the H100.  Runs every launch of
 * the timing suite (tests/timing/families.txt) with `warpsim run --timing
 * --json` ($WARPSIM) and compares, family by family, the simulated cycles and
 * achieved occupancy with the Nsight Compute recording traces/hw/timing-h100.json:
 * Spearman rank correlation, headline ratio, mean absolute error, occupancy
 * difference, against the aims of issue 15.  Also tests the statistics, the
 * list, the recording's coverage and the committed PTX; those need no timing model. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "source.h"
#include "nvcc_probe.h"
#include "timing/suite.h"

#define FAMILIES "tests/timing/families.txt"
#define RECORDING "traces/hw/timing-h100.json"

/* The aims of issue 15, point 4. */
#define AIM_SPEARMAN 0.9     /* rank correlation of cycles, per family, at least */
#define AIM_HEADLINE 1.5     /* simulated headline ratio within this factor of the H100's */
#define AIM_MAE 0.25         /* mean absolute error of cycles relative to the H100, at most */
#define AIM_OCC_POINTS 5.0   /* achieved occupancy within this many percentage points */
/* Measured cycles this close count as tied when ranking (the suite's
 * run-to-run spread, two profiles of every launch in the recording: median
 * under 1%, a few launches up to 7%). */
#define HW_TIE 0.02

static const char *warpsim(void)
{
    const char *w = getenv("WARPSIM");
    return w ? w : "build/warpsim";
}

/* ---- the statistics ------------------------------------------------ */

static void test_spearman_of_same_and_reversed_orders(void **s)
{
    (void)s;
    double x[] = {1, 2, 3, 4, 5}, up[] = {10, 20, 35, 36, 90}, down[] = {9, 7, 5, 3, 1};
    assert_true(fabs(ts_spearman(x, up, 5) - 1.0) < 1e-12);
    assert_true(fabs(ts_spearman(x, down, 5) + 1.0) < 1e-12);
}

static void test_spearman_averages_tied_ranks(void **s)
{
    (void)s;
    double y[] = {10, 20, 20, 30}, r[4];
    ts_ranks(y, 4, r);
    assert_true(r[0] == 1.0 && r[1] == 2.5 && r[2] == 2.5 && r[3] == 4.0);
    /* ranks 1,2,3,4 against 1,2.5,2.5,4: sxy 4.5, sxx 5, syy 4.5 */
    double x[] = {1, 2, 3, 4};
    assert_true(fabs(ts_spearman(x, y, 4) - 4.5 / sqrt(5 * 4.5)) < 1e-12);
}

static void test_spearman_is_nan_without_an_order(void **s)
{
    (void)s;
    double x[] = {1, 2, 3}, flat[] = {7, 7, 7};
    assert_true(isnan(ts_spearman(x, flat, 3)));
    assert_true(isnan(ts_spearman(flat, x, 3)));
    assert_true(isnan(ts_spearman(x, x, 1)));
}

static void test_measured_cycles_within_the_tolerance_rank_as_ties(void **s)
{
    (void)s;
    double hw[] = {100, 250, 101.5, 103, 200}, r[5];
    ts_ranks_tol(hw, 5, 0.02, r); /* 100, 101.5, 103 chain into one tie */
    assert_true(r[0] == 2.0 && r[2] == 2.0 && r[3] == 2.0 && r[4] == 4.0 && r[1] == 5.0);
    ts_ranks_tol(hw, 5, 0.0, r); /* tol 0: plain ranks */
    assert_true(r[0] == 1.0 && r[2] == 2.0 && r[3] == 3.0);
    int g[5];
    assert_int_equal(ts_tie_groups(hw, 5, 0.02, g), 3);
    assert_true(g[0] == 0 && g[2] == 0 && g[3] == 0 && g[4] == 1 && g[1] == 2);
    /* a simulator that orders the near-tied three its own way is not judged on them */
    double sim[] = {30, 90, 20, 10, 60};
    assert_true(ts_spearman(sim, hw, 5) < 0.9);
    assert_true(fabs(ts_spearman_hw(sim, hw, 5, 0.02) - 1.0) < 1e-12);
    /* but one far outside its group still costs */
    double off[] = {95, 90, 20, 10, 60};
    assert_true(ts_spearman_hw(off, hw, 5, 0.02) < 0.95); /* 0.918 */
}

static void test_mean_abs_error_and_ratios(void **s)
{
    (void)s;
    double sim[] = {110, 90, 150}, hw[] = {100, 100, 100}, bad[] = {100, 0, 100};
    assert_true(fabs(ts_mean_abs_rel_error(sim, hw, 3) - (0.1 + 0.1 + 0.5) / 3) < 1e-12);
    assert_true(isnan(ts_mean_abs_rel_error(sim, bad, 3)));
    assert_true(isnan(ts_mean_abs_rel_error(sim, hw, 0)));
    assert_true(ts_ratio(6, 3) == 2.0 && isnan(ts_ratio(1, 0)));
    assert_true(ts_factor_apart(2, 4) == 2.0 && ts_factor_apart(4, 2) == 2.0);
    assert_true(isnan(ts_factor_apart(-1, 2)));
}

/* ---- the list -------------------------------------------------------- */

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static void expect_rejected(const char *text, const char *needle)
{
    char path[] = "/tmp/warpsim-families-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    write_file(path, text);
    TsSuite suite;
    char msg[512] = "";
    bool ok = ts_load(&suite, path, msg, sizeof msg);
    unlink(path);
    if (ok || !strstr(msg, needle))
        fail_msg("expected a message with '%s' for:\n%s\ngot: %s", needle, text, ok ? "(accepted)" : msg);
}

static void test_list_rejects_bad_lines_with_their_line_number(void **s)
{
    (void)s;
    const char *L = "launch a k.ptx --kernel k --grid 1 --block 32\n";
    char two[256];
    snprintf(two, sizeof two, "family f v headline=a/b\n%slaunch b k.ptx --kernel k --grid 1 --block 32\n", L);
    expect_rejected(L, ":1: expected: launch NAME FILE");
    expect_rejected("famly f v headline=a/b\n", ":1: 'famly': expected family or launch");
    expect_rejected("family f v\n", ":1: expected: family NAME VARIABLE headline=SLOW/FAST");
    expect_rejected("family f v headline=a/c\nlaunch a k.ptx\nlaunch b k.ptx\n", "its headline names a launch");
    expect_rejected("family f v headline=a/b aims=maybe\n", "expected aims=enforce or aims=report");
    expect_rejected("family f v headline=a/b\nlaunch a k.ptx --carveout 101\n", ":2: --carveout expects");
    expect_rejected("family f v headline=a/b\nlaunch a k.ptx\nlaunch a k.ptx\n", ":3: a second launch 'a'");
    expect_rejected("family f v headline=a/b\nlaunch a k.ptx\n", "fewer than 2 launches");
    /* and a good one */
    char path[] = "/tmp/warpsim-families-XXXXXX";
    int fd = mkstemp(path);
    close(fd);
    write_file(path, two);
    TsSuite suite;
    char msg[512];
    bool ok = ts_load(&suite, path, msg, sizeof msg);
    unlink(path);
    assert_true(ok);
    assert_int_equal(suite.nfam, 1);
    assert_int_equal(suite.nl, 2);
    assert_true(suite.fam[0].enforce);
    assert_string_equal(suite.l[1].tok[0], "k.ptx");
    ts_free(&suite);
}

/* Every launch of the suite is a complete `warpsim run` launch whose file
 * exists; 8 families, each sweeping at least 3 launches. */
static void test_suite_launches_are_complete_run_lines(void **s)
{
    (void)s;
    TsSuite suite;
    char msg[1024];
    if (!ts_load(&suite, FAMILIES, msg, sizeof msg))
        fail_msg("%s", msg);
    assert_true(suite.nfam >= 8);
    assert_true(suite.nl >= 50 && suite.nl <= 100);
    for (int f = 0; f < suite.nfam; f++)
        assert_true(suite.fam[f].n >= 3);
    for (int i = 0; i < suite.nl; i++) {
        const TsLaunch *l = &suite.l[i];
        char *opts[128];
        int n = 0;
        ts_launch_options(l, opts, &n);
        LaunchSpec spec;
        launch_spec_init(&spec);
        if (!launch_parse_tokens(&spec, n, opts, msg, sizeof msg))
            fail_msg("%s line %d: %s", FAMILIES, l->line, msg);
        launch_spec_free(&spec);
        if (access(l->tok[0], R_OK))
            fail_msg("%s line %d: no file %s", FAMILIES, l->line, l->tok[0]);
    }
    ts_free(&suite);
}

/* ---- the recording --------------------------------------------------- */

typedef struct {
    double cycles, occ_pct;
    char kernel[TS_NAME];
} HwRow;

/* The recorded row of (family, launch): one launch a line in RECORDING. */
static bool hw_row(const char *text, const char *family, const char *launch, HwRow *out)
{
    char key[200];
    snprintf(key, sizeof key, "{\"family\": \"%s\", \"launch\": \"%s\",", family, launch);
    const char *p = strstr(text, key);
    if (!p)
        return false;
    const char *e = strchr(p, '\n');
    size_t n = e ? (size_t)(e - p) : strlen(p);
    char *line = strndup(p, n);
    bool ok = ts_json_number(line, "cycles", &out->cycles) &&
              ts_json_number(line, "achieved_occupancy_pct", &out->occ_pct) &&
              ts_json_string(line, "kernel", out->kernel, sizeof out->kernel);
    free(line);
    return ok;
}

static char *read_recording(void)
{
    size_t len = 0;
    char msg[256];
    char *t = source_read_file(RECORDING, &len, msg, sizeof msg);
    if (!t)
        fail_msg("%s", msg);
    return t;
}

/* The kernel named on a launch line (--kernel K). */
static const char *launch_kernel(const TsLaunch *l)
{
    for (int i = 1; i + 1 < l->ntok; i++)
        if (!strcmp(l->tok[i], "--kernel"))
            return l->tok[i + 1];
    return "";
}

/* The recording covers every launch of the list, with the same kernel, and
 * on the H100 every family's headline launch is the slower by at least 25%:
 * each family shows the effect it is there for. */
static void test_recording_covers_the_suite_and_shows_each_effect(void **s)
{
    (void)s;
    TsSuite suite;
    char msg[1024];
    if (!ts_load(&suite, FAMILIES, msg, sizeof msg))
        fail_msg("%s", msg);
    char *rec = read_recording();
    for (int i = 0; i < suite.nl; i++) {
        const TsLaunch *l = &suite.l[i];
        HwRow r;
        if (!hw_row(rec, suite.fam[l->family].name, l->name, &r))
            fail_msg("%s has no record of %s/%s: record the suite again (tests/timing/record.sh)", RECORDING,
                     suite.fam[l->family].name, l->name);
        assert_string_equal(r.kernel, launch_kernel(l));
        assert_true(r.cycles > 0);
        assert_true(r.occ_pct > 0 && r.occ_pct <= 100);
    }
    for (int f = 0; f < suite.nfam; f++) {
        HwRow slow, fast;
        assert_true(hw_row(rec, suite.fam[f].name, suite.fam[f].slow, &slow));
        assert_true(hw_row(rec, suite.fam[f].name, suite.fam[f].fast, &fast));
        if (!(ts_ratio(slow.cycles, fast.cycles) >= 1.25))
            fail_msg("family %s: on the H100 %s takes only %.2fx the cycles of %s", suite.fam[f].name,
                     suite.fam[f].slow, ts_ratio(slow.cycles, fast.cycles), suite.fam[f].fast);
    }
    free(rec);
    ts_free(&suite);
}

/* ---- the recorder ------------------------------------------------------ */

/* tests/timing/hw_record.c is built by hand on a GPU machine, not by make:
 * build it here against the library and run the atomics family with --sim,
 * so it cannot rot, and the suite's atomics add up in the simulator (every
 * total 262144, the bins an even share).  Only for the plain build/ (a
 * sanitizer library would need its flags). */
static void test_recorder_builds_and_runs_a_family_in_the_simulator(void **s)
{
    (void)s;
    if (strcmp(warpsim(), "build/warpsim") || access("build/libwarpsim.a", R_OK)) {
        printf("skip: the recorder is checked against build/libwarpsim.a only (WARPSIM is %s)\n", warpsim());
        skip();
    }
    char out[1 << 15];
    const char *cmd = "cc -std=c11 -D_GNU_SOURCE -O1 -Isim -Igpu -Ilaunch -Itests/timing tests/timing/hw_record.c "
                      "build/libwarpsim.a -o build/hw_record -lz -lpthread -ldl -lm 2>&1 && "
                      "build/hw_record --sim tests/timing/families.txt atomics 2>&1";
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    size_t n = fread(out, 1, sizeof out - 1, p);
    out[n] = 0;
    int st = pclose(p);
    if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
        fail_msg("the recorder failed:\n%s", out);
    const char *want[] = {"\"launch\": \"bins1\"", "\"values\": [262144]", "\"count\": 32, \"values\": [8192, 8192",
                          "\"count\": 1024, \"values\": [256, 256", "\"launch\": \"block\""};
    for (size_t i = 0; i < sizeof want / sizeof *want; i++)
        if (!strstr(out, want[i]))
            fail_msg("no '%s' in the recorder's output:\n%s", want[i], out);
    int lines = 0, sums = 0;
    for (const char *q = out; (q = strstr(q, "\"status\": \"ok\"")); q++)
        lines++;
    for (const char *q = out; (q = strstr(q, "[262144]")); q++)
        sums++;
    assert_int_equal(lines, 6); /* bins1, bins32, bins1024, bins4096, warp, block */
    assert_int_equal(sums, 3);  /* bins1, warp, block */
}

/* ---- the committed PTX ----------------------------------------------- */

static void test_committed_timing_ptx_matches_the_cu(void **s)
{
    (void)s;
    need_working_nvcc("tests/timing/*.ptx not checked against their .cu");
    const char *names[] = {"memory", "atomics", "smem", "compute", "async", "microbench"};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
        char cu[128], ptx[128], cmd[300], msg[256];
        snprintf(cu, sizeof cu, "tests/timing/%s.cu", names[i]);
        snprintf(ptx, sizeof ptx, "tests/timing/%s.ptx", names[i]);
        size_t clen = 0;
        char *committed = source_read_file(ptx, &clen, msg, sizeof msg);
        if (!committed)
            fail_msg("%s", msg);
        snprintf(cmd, sizeof cmd, "sh scripts/gen_ptx.sh %s -", cu);
        FILE *p = popen(cmd, "r");
        assert_non_null(p);
        size_t cap = clen + 4096, n = 0;
        char *fresh = malloc(cap);
        size_t got;
        while ((got = fread(fresh + n, 1, cap - n, p)) > 0) {
            n += got;
            if (n == cap)
                fresh = realloc(fresh, cap *= 2);
        }
        if (pclose(p) != 0)
            fail_msg("nvcc failed on %s", cu);
        if (n != clen || memcmp(fresh, committed, n))
            fail_msg("%s is not what %s compiles to: sh scripts/gen_ptx.sh %s, commit, and record again", ptx, cu,
                     cu);
        free(fresh);
        free(committed);
    }
}

/* ---- the simulator against the recording ------------------------------ */

/* Run `warpsim run <launch> --timing --json`; its stdout+stderr into out. */
static int run_launch(const TsLaunch *l, char *out, size_t cap)
{
    char cmd[4096];
    size_t k = (size_t)snprintf(cmd, sizeof cmd, "%s run", warpsim());
    for (int i = 0; i < l->ntok && k < sizeof cmd; i++)
        k += (size_t)snprintf(cmd + k, sizeof cmd - k, " '%s'", l->tok[i]);
    snprintf(cmd + k, sizeof cmd - k, " --timing --json 2>&1");
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    size_t n = 0, got;
    while (n + 1 < cap && (got = fread(out + n, 1, cap - 1 - n, p)) > 0)
        n += got;
    out[n] = 0;
    char sink[4096];
    while (fread(sink, 1, sizeof sink, p) > 0) /* the rest of an over-long answer */
        ;
    int st = pclose(p);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* stats.cycles and stats.timing.achieved_occupancy (0..1) from the JSON. */
static bool sim_numbers(const char *json, double *cycles, double *occ, char *why, size_t cap)
{
    const char *st = strstr(json, "\"stats\":");
    if (!st) {
        snprintf(why, cap, "no \"stats\" object");
        return false;
    }
    const char *tm = strstr(st, "\"timing\":");
    if (!tm) {
        snprintf(why, cap, "no stats.timing object (is --timing on?)");
        return false;
    }
    if (!ts_json_number(st, "cycles", cycles) || !(*cycles > 0)) {
        snprintf(why, cap, "no positive stats.cycles");
        return false;
    }
    if (!ts_json_number(tm, "achieved_occupancy", occ) || !(*occ >= 0 && *occ <= 1)) {
        snprintf(why, cap, "no stats.timing.achieved_occupancy in [0, 1]");
        return false;
    }
    return true;
}

static char answer[1 << 22];

static void test_simulated_timing_follows_the_h100_family_by_family(void **s)
{
    (void)s;
    TsSuite suite;
    char msg[1024];
    if (!ts_load(&suite, FAMILIES, msg, sizeof msg))
        fail_msg("%s", msg);
    /* Is there a timing model?  `warpsim run --timing` refused means not yet. */
    int rc = run_launch(&suite.l[0], answer, sizeof answer);
    if (rc == 2 && strstr(answer, "--timing")) {
        char first[200];
        snprintf(first, sizeof first, "%.*s", (int)strcspn(answer, "\n"), answer);
        printf("skip: this warpsim has no timing model (`warpsim run --timing` refused: %s); the %d launches "
               "of %s wait for it (issue 15)\n", first, suite.nl, FAMILIES);
        ts_free(&suite);
        skip();
    }
    char *rec = read_recording();
    static double sim_c[TS_MAX_LAUNCHES], sim_o[TS_MAX_LAUNCHES], hw_c[TS_MAX_LAUNCHES], hw_o[TS_MAX_LAUNCHES];
    for (int i = 0; i < suite.nl; i++) {
        const TsLaunch *l = &suite.l[i];
        const char *fam = suite.fam[l->family].name;
        if (i > 0)
            rc = run_launch(l, answer, sizeof answer);
        char why[200];
        if (rc != 0)
            fail_msg("%s/%s (%s line %d): warpsim run --timing exited %d:\n%.2000s", fam, l->name, FAMILIES, l->line,
                     rc, answer);
        if (!sim_numbers(answer, &sim_c[i], &sim_o[i], why, sizeof why))
            fail_msg("%s/%s: %s in:\n%.2000s", fam, l->name, why, answer);
        HwRow r;
        if (!hw_row(rec, fam, l->name, &r))
            fail_msg("%s has no record of %s/%s", RECORDING, fam, l->name);
        hw_c[i] = r.cycles;
        hw_o[i] = r.occ_pct;
    }
    bool report_only = getenv("WARPSIM_TIMING_AIMS") && !strcmp(getenv("WARPSIM_TIMING_AIMS"), "report");
    char misses[4096] = "";
    size_t mlen = 0;
    printf("timing model against %s (aims: rank >= %.2f, headline within %.1fx, MAE <= %.0f%%, occupancy "
           "within %.0f points)\n", RECORDING, AIM_SPEARMAN, AIM_HEADLINE, AIM_MAE * 100, AIM_OCC_POINTS);
    printf("%-11s %3s %7s %-24s %8s %8s %7s %7s  %s\n", "family", "n", "rank", "headline", "sim", "H100", "MAE",
           "occ.pts", "aims");
    for (int f = 0; f < suite.nfam; f++) {
        const TsFamily *fa = &suite.fam[f];
        int a = fa->first, n = fa->n;
        double rho = ts_spearman_hw(sim_c + a, hw_c + a, n, HW_TIE);
        int is = ts_find(&suite, f, fa->slow), ifa = ts_find(&suite, f, fa->fast);
        double hs = ts_ratio(sim_c[is], sim_c[ifa]), hh = ts_ratio(hw_c[is], hw_c[ifa]);
        double apart = ts_factor_apart(hs, hh);
        double mae = ts_mean_abs_rel_error(sim_c + a, hw_c + a, n);
        double occ = 0;
        for (int i = a; i < a + n; i++)
            occ = fmax(occ, fabs(sim_o[i] * 100 - hw_o[i]));
        char head[64], miss[200] = "";
        snprintf(head, sizeof head, "%s/%s", fa->slow, fa->fast);
        size_t k = 0;
        if (!(rho >= AIM_SPEARMAN))
            k += (size_t)snprintf(miss + k, sizeof miss - k, " rank");
        if (!(apart <= AIM_HEADLINE))
            k += (size_t)snprintf(miss + k, sizeof miss - k, " headline");
        if (!(mae <= AIM_MAE))
            k += (size_t)snprintf(miss + k, sizeof miss - k, " MAE");
        if (!(occ <= AIM_OCC_POINTS))
            k += (size_t)snprintf(miss + k, sizeof miss - k, " occupancy");
        printf("%-11s %3d %7.3f %-24s %7.2fx %7.2fx %6.1f%% %7.1f  %s%s\n", fa->name, n, rho, head, hs, hh,
               mae * 100, occ, k ? "missed:" : "met", k ? miss : "");
        if (k && fa->enforce && mlen < sizeof misses)
            mlen += (size_t)snprintf(misses + mlen, sizeof misses - mlen, " %s(%s)", fa->name, miss + 1);
    }
    for (int i = 0; i < suite.nl; i++)
        printf("  %-11s %-13s sim %9.0f  H100 %9.0f  (%+5.0f%%)  occupancy sim %5.1f%%  H100 %5.1f%%\n",
               suite.fam[suite.l[i].family].name, suite.l[i].name, sim_c[i], hw_c[i],
               100 * (sim_c[i] - hw_c[i]) / hw_c[i], sim_o[i] * 100, hw_o[i]);
    free(rec);
    ts_free(&suite);
    if (mlen && !report_only)
        fail_msg("aims missed by families marked aims=enforce in %s:%s (WARPSIM_TIMING_AIMS=report prints "
                 "without failing)", FAMILIES, misses);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_spearman_of_same_and_reversed_orders),
        cmocka_unit_test(test_spearman_averages_tied_ranks),
        cmocka_unit_test(test_spearman_is_nan_without_an_order),
        cmocka_unit_test(test_measured_cycles_within_the_tolerance_rank_as_ties),
        cmocka_unit_test(test_mean_abs_error_and_ratios),
        cmocka_unit_test(test_list_rejects_bad_lines_with_their_line_number),
        cmocka_unit_test(test_suite_launches_are_complete_run_lines),
        cmocka_unit_test(test_recording_covers_the_suite_and_shows_each_effect),
        cmocka_unit_test(test_recorder_builds_and_runs_a_family_in_the_simulator),
        cmocka_unit_test(test_committed_timing_ptx_matches_the_cu),
        cmocka_unit_test(test_simulated_timing_follows_the_h100_family_by_family),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
