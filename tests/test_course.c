/* test_course.c: what the course's text says is what its programs print.
 * Lesson texts cite no material a learner lacks; statements a run can
 * check (lesson 1's last block, lesson 3's H100 count, lesson 4's stepper
 * cycle, lesson 2's explore advice) are run here, in the simulator, and the
 * hardware figures compared with their recordings in traces/hw/; and
 * lessons/COVERAGE.md has its 97 rows, each naming steps that exist. */
#include <glob.h>
#include <stdbool.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "lesson.h"
#include "lesson_fixture.h"
#include "source.h"
#include "xcheck.h"

static char *read_text(const char *path)
{
    char msg[256];
    size_t len;
    char *t = source_read_file(path, &len, msg, sizeof msg);
    if (!t)
        fail_msg("%s", msg);
    return t;
}

static const char *warpsim(void)
{
    const char *w = getenv("WARPSIM");
    return w ? w : "build/warpsim";
}

/* A lesson's harness output, malloc'd; its status in *rc. */
static char *run_lesson(const char *name, int *rc)
{
    const Lesson *l = lesson_find(name);
    assert_non_null(l);
    assert_non_null(l->run);
    char dir[256];
    snprintf(dir, sizeof dir, "lessons/%s", l->slug);
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    assert_non_null(f);
    LessonEnv env = {.dir = dir, .arch = "sm_90", .out = f};
    *rc = l->run(&env);
    fclose(f);
    return text;
}

/* Case-insensitive strstr. */
static const char *find_ci(const char *h, const char *n)
{
    size_t k = strlen(n);
    for (; *h; h++)
        if (!strncasecmp(h, n, k))
            return h;
    return NULL;
}

static void test_no_lesson_text_cites_material_the_learner_lacks(void **st)
{
    (void)st;
    static const char *const patterns[] = {"lessons/*/README.md", "lessons/*/exercise.md",
                                           "lessons/*/exercise/README.md", "lessons/COVERAGE.md"};
    static const char *const banned[] = {"seed note", "seed 00", "the seed's", "seed's test", "seeds/",
                                         "study note", "the notes assume"};
    int files = 0;
    for (size_t p = 0; p < sizeof patterns / sizeof *patterns; p++) {
        glob_t g;
        if (glob(patterns[p], 0, NULL, &g))
            continue;
        for (size_t i = 0; i < g.gl_pathc; i++, files++) {
            char *t = read_text(g.gl_pathv[i]);
            for (size_t b = 0; b < sizeof banned / sizeof *banned; b++)
                if (find_ci(t, banned[b]))
                    fail_msg("%s mentions \"%s\": a learner has no such material", g.gl_pathv[i], banned[b]);
            free(t);
        }
        globfree(&g);
    }
    assert_true(files >= 8);
    /* and what the harnesses print */
    for (int n = 1; n <= lesson_count(); n++) {
        const Lesson *l = lesson_at(n - 1);
        if (!l->run)
            continue;
        int rc;
        char *t = run_lesson(l->slug, &rc);
        for (size_t b = 0; b < sizeof banned / sizeof *banned; b++)
            if (find_ci(t, banned[b]))
                fail_msg("warpsim lesson %d prints \"%s\"", l->number, banned[b]);
        free(t);
    }
}

/* Lesson 1: block 2 of hierarchy<<<3, 256>>> with n = 600 has 256 threads, 88
 * with work -- not "a partial warp of 88 threads". */
static void test_lesson1_last_block_has_256_threads_88_with_work(void **st)
{
    (void)st;
    int rc;
    char *t = run_lesson("1", &rc);
    assert_int_equal(rc, 0);
    assert_non_null(strstr(t, "256 threads like every block, 88 of them with work"));
    assert_non_null(strstr(t, "warp 2 with 24"));
    assert_null(strstr(t, "a partial warp"));
    assert_non_null(strstr(t, "The launch made 24 warps for 768 threads"));
    free(t);
    char *r = read_text("lessons/01-threads-and-races/README.md");
    assert_non_null(strstr(r, "only 88\nof them have work"));
    assert_null(strstr(r, "threads queue on one address"));
    free(r);
}

/* Lesson 3: the H100's count of count_wrong_scope is the recorded one
 * (xcheck.json: 0x136c = 4972), the simulator's count is the same, and the
 * README quotes it; the float-sum figures are those of the recordings. */
static void test_lesson3_hardware_figures_are_the_recorded_ones(void **st)
{
    (void)st;
    char *x = read_text("traces/hw/nvidia-h100-80gb-hbm3/xcheck.json");
    const char *k = strstr(x, "--kernel count_wrong_scope");
    assert_non_null(k);
    assert_non_null(strstr(k, "\"xxh64\"")); /* the input's hash, then the count in full */
    const char *hex = strstr(k, "\"hex\": \"");
    const char *runs = strstr(k, "\"runs\": [\"");
    const char *v = hex && (!runs || hex < runs) ? hex + 8 : runs ? runs + 10 : NULL;
    assert_non_null(v);
    unsigned recorded = (unsigned)strtoul(v, NULL, 16);
    assert_int_equal(recorded, 4972);
    free(x);
    int rc;
    char *t = run_lesson("3", &rc);
    assert_int_equal(rc, 0);
    assert_non_null(strstr(t, "count_wrong_scope   one counter for all 40 blocks   count          4972"));
    assert_non_null(strstr(t, "37 in 100 launches"));
    assert_non_null(strstr(t, "warpsim step"));
    assert_non_null(strstr(t, "warpsim viz"));
    free(t);
    char *e = read_text("traces/hw/nvidia-h100-80gb-hbm3/explore-sum_atomic_f32.txt");
    assert_non_null(strstr(e, "37 distinct results in 100 runs"));
    assert_non_null(strstr(e, "min -209.118958 (seed 34), max -209.118256"));
    free(e);
    char *r = read_text("lessons/03-atomics/README.md");
    assert_non_null(strstr(r, "4,972 positive values"));
    assert_null(strstr(r, "4,999"));
    assert_non_null(strstr(r, "37 distinct in 100 launches | -209.118958 .. -209.118256"));
    assert_non_null(strstr(r, "| 309,198 |"));
    free(r);
    char *h = read_text("traces/hw/timing-h100.json");
    assert_non_null(strstr(h, "\"launch\": \"bins1\", \"kernel\": \"atomic_bins\""));
    assert_non_null(strstr(h, "\"cycles\": 309198"));
    assert_non_null(strstr(h, "\"cycles\": 14545"));
    assert_non_null(strstr(h, "\"cycles\": 7692"));
    free(h);
    char *s = read_text("traces/hw/timing-sass-h100.txt");
    assert_non_null(strstr(s, "REDUX.SUM"));
    assert_non_null(strstr(s, "VOTEU.ANY"));
    free(s);
}

/* The launch of `kernel` in lesson `slug` of recording r (the first whose
 * line names it). */
static const XcheckRef *recorded_launch(const XcheckRecording *r, const char *slug, const char *kernel)
{
    char key[96];
    snprintf(key, sizeof key, "--kernel %s ", kernel);
    for (int i = 0; i < r->n; i++)
        for (int k = 0; !strcmp(r->lessons[i].slug, slug) && k < r->lessons[i].n; k++)
            if (strstr(r->lessons[i].refs[k].line, key))
                return &r->lessons[i].refs[k];
    fail_msg("%s: no launch of %s recorded", slug, kernel);
    return NULL;
}

/* Run j of the order-dependent buffer arg of a recorded launch, as one
 * 32-bit word. */
static uint32_t recorded_word(const XcheckRef *ref, int arg, int j)
{
    for (int b = 0; b < ref->nbufs; b++)
        if (ref->bufs[b].arg == arg) {
            assert_true(j < ref->bufs[b].nruns);
            uint32_t w;
            memcpy(&w, ref->bufs[b].runs[j], 4);
            return w;
        }
    fail_msg("%s: no buffer %d", ref->line, arg);
    return 0;
}

/* Lesson 3's figures from the H100's xcheck recording -- who ended
 * last_writer, who won first_claim, the float sums' range per kernel -- are
 * the committed recording's (the README kept an earlier recording's after
 * the launches were recorded again). */
static void test_lesson3_readme_quotes_the_xcheck_recording(void **st)
{
    (void)st;
    XcheckRecording rec;
    char msg[512];
    if (!xcheck_recording_read("traces/hw/nvidia-h100-80gb-hbm3/xcheck.json", &rec, msg, sizeof msg))
        fail_msg("%s", msg);
    assert_int_equal(rec.info.runs, 3);
    char *raw = read_text("lessons/03-atomics/README.md");
    /* the README's line breaks do not matter */
    for (char *p = raw; *p; p++)
        if (*p == '\n')
            *p = ' ';
    const XcheckRef *lw = recorded_launch(&rec, "03-atomics", "last_writer");
    const XcheckRef *fc = recorded_launch(&rec, "03-atomics", "first_claim");
    uint32_t w[3], c[3];
    for (int j = 0; j < 3; j++) {
        w[j] = recorded_word(lw, 0, j);
        c[j] = recorded_word(fc, 0, j);
    }
    char want[200];
    if (w[0] == w[1] && w[1] == w[2])
        snprintf(want, sizeof want, "`last_writer` ended with thread %u all three times", w[0]);
    else
        snprintf(want, sizeof want, "`last_writer` ended with threads %u, %u and %u", w[0], w[1], w[2]);
    if (!strstr(raw, want))
        fail_msg("lessons/03-atomics/README.md does not say \"%s\"", want);
    snprintf(want, sizeof want, "`first_claim` was won by %u, %u and %u", c[0], c[1], c[2]);
    if (!strstr(raw, want))
        fail_msg("lessons/03-atomics/README.md does not say \"%s\"", want);
    static const char *const sums[] = {"sum_warp_f32", "sum_block_f32"};
    for (int k = 0; k < 2; k++) {
        const XcheckRef *ref = recorded_launch(&rec, "03-atomics", sums[k]);
        float v[3], lo = 0, hi = 0;
        int distinct = 0;
        for (int j = 0; j < 3; j++) {
            uint32_t u = recorded_word(ref, 1, j);
            memcpy(&v[j], &u, 4);
            bool seen = false;
            for (int i = 0; i < j; i++)
                seen |= v[i] == v[j];
            distinct += !seen;
            lo = j == 0 || v[j] < lo ? v[j] : lo;
            hi = j == 0 || v[j] > hi ? v[j] : hi;
        }
        snprintf(want, sizeof want, "| `%s` | %d distinct in 3 launches | %.6f .. %.6f |", sums[k], distinct,
                 (double)lo, (double)hi);
        if (!strstr(raw, want))
            fail_msg("lessons/03-atomics/README.md has no row \"%s\"", want);
    }
    free(raw);
    xcheck_recording_free(&rec);
}

/* Lesson 2: `warpsim explore` of activemask_vs_ballot gives one result, as
 * the README now says (it used to promise variation). */
static void test_lesson2_activemask_vs_ballot_explores_to_one_result(void **st)
{
    (void)st;
    char cmd[1024];
    snprintf(cmd, sizeof cmd,
             "%s explore lessons/02-warps/kernel.ptx --kernel activemask_vs_ballot --grid 1 --block 32 "
             "--arg buf:i32[32]=iota --arg buf:u32[32]=fill:0 --arg buf:u32[32]=fill:0 --arg buf:i32[32]=fill:0 "
             "--runs 50 2>&1",
             warpsim());
    char *out = lesson_run_cmd(cmd);
    assert_null(strstr(out, "distinct results"));
    int same = 0;
    for (const char *p = out; (p = strstr(p, "the same in every run")); p++)
        same++;
    if (same != 4)
        fail_msg("%s", out);
    free(out);
    char *r = read_text("lessons/02-warps/README.md");
    assert_non_null(strstr(r, "So does `activemask_vs_ballot` (50 runs, one result)"));
    free(r);
}

/* Lesson 4: the stepper starts block 40 on SM 0 at the cycle the README
 * names; --block 100 shows 100% occupancy, as the README says. */
static void test_lesson4_step_and_occupancy_claims_hold(void **st)
{
    (void)st;
    char cmd[1200];
    snprintf(cmd, sizeof cmd,
             "printf 'info sms\\nfocus block 40\\nstep\\ninfo sms\\n' | %s step lessons/04-occupancy/kernel.ptx "
             "--kernel scale_pad --gpu t4 --grid 80 --block 256 --smem 40000 --arg buf:f32[20480]=rand:1 "
             "--arg buf:f32[20480]=fill:0 --arg f32:2.5 --arg i32:20480 2>&1",
             warpsim());
    char *out = lesson_run_cmd(cmd);
    if (!strstr(out, "[block 40 warp 0, SM 0, cycle 47]") ||
        !strstr(out, "SMs 0-39    1 block each, 8 of 32 warps (25% occupancy)") || !strstr(out, "40 finished"))
        fail_msg("%s", out);
    free(out);
    snprintf(cmd, sizeof cmd, "%s occupancy --arch sm_100 --block 100 --regs 16 2>&1", warpsim());
    out = lesson_run_cmd(cmd);
    if (!strstr(out, "occupancy           100.0%") || !strstr(out, "16   (limited by warps)"))
        fail_msg("%s", out);
    free(out);
    char *r = read_text("lessons/04-occupancy/README.md");
    assert_non_null(strstr(r, "at cycle 47"));
    assert_null(strstr(r, "cycle 46"));
    assert_non_null(strstr(r, "It says **100%**"));
    assert_null(strstr(r, "cannot choose or query"));
    assert_null(strstr(r, "backend lands"));
    free(r);
}

/* `warpsim lesson 4` runs its steps (it used to print only its README): every
 * occupancy answer is the README's figure, scale_pad computes 2.5 * in[i]
 * with either amount of shared memory, and the two launches end at the same
 * simulated cycle, as the harness says (no latency for more warps to hide). */
static void test_lesson4_harness_runs_its_steps(void **st)
{
    (void)st;
    int rc;
    char *t = run_lesson("4", &rc);
    if (rc != 0 || strstr(t, "DIFFERS"))
        fail_msg("lesson 4 returned %d:\n%s", rc, t);
    int q = 0;
    for (const char *p = t; (p = strstr(p, "Question:")); p++)
        q++;
    assert_true(q >= 10);
    const char *a = strstr(t, "scale_pad<<<80, 256, 40000>>>"), *b = strstr(t, "scale_pad<<<80, 256, 4>>>");
    assert_non_null(a);
    assert_non_null(b);
    const char *ca = strstr(a, "ended at cycle "), *cb = strstr(b, "ended at cycle ");
    assert_non_null(ca);
    assert_non_null(cb);
    assert_int_equal(atoi(ca + 15), atoi(cb + 15));
    assert_non_null(strstr(t, "Faster?  Not here"));
    free(t);
    char *r = read_text("lessons/04-occupancy/README.md");
    assert_non_null(strstr(r, "Run it: `warpsim lesson 4` asks each step's question"));
    assert_non_null(strstr(r, "(exercise/README.md) (`warpsim grade 4`)"));
    free(r);
}

/* Lesson 4's section 3: step 6's experiment in the timing model, simulated
 * achieved occupancy beside the theoretical and the H100's measured one;
 * the simulator's cycles move the H100's way (computed each run), and
 * `warpsim xcheck 4` judges the time claim xcheck.txt states (8 blocks per
 * SM at least 1.3x faster than 1). */
static void test_lesson4_shows_simulated_against_measured_occupancy(void **st)
{
    (void)st;
    int rc;
    char *t = run_lesson("4", &rc);
    const char *s3 = strstr(t, "3. Simulated vs measured occupancy");
    if (rc != 0 || !s3)
        fail_msg("lesson 4 returned %d:\n%s", rc, t);
    double theo[2], ach[2], hocc[2], hcyc[2];
    unsigned long long cyc[2];
    static const char *const rows[] = {"     1 block per SM ", "     8 blocks per SM "};
    for (int k = 0; k < 2; k++) {
        const char *r = strstr(s3, rows[k]);
        assert_non_null(r);
        r += strlen(rows[k]);
        if (sscanf(r, " %lf%% %lf%% %llu %lf%% %lf", &theo[k], &ach[k], &cyc[k], &hocc[k], &hcyc[k]) != 5)
            fail_msg("row: %.120s", r);
    }
    assert_true(theo[0] == 12.5 && theo[1] == 100.0);
    assert_true(ach[0] > 0 && ach[0] <= theo[0] && ach[1] <= theo[1] && ach[1] > 2 * ach[0]);
    assert_true(cyc[0] > cyc[1]);
    assert_true(hocc[0] == 12.2 && hocc[1] == 91.5 && hcyc[0] == 93614 && hcyc[1] == 17477);
    assert_non_null(strstr(s3, "1 block per SM is "));
    assert_null(strstr(s3, "DIFFERS"));
    /* the H100's event times the harness and README quote are the recording's */
    XcheckRecording rec;
    char msg[512];
    if (!xcheck_recording_read("traces/hw/nvidia-h100-80gb-hbm3/xcheck.json", &rec, msg, sizeof msg))
        fail_msg("%s", msg);
    char *readme = read_text("lessons/04-occupancy/README.md");
    for (char *p = readme; *p; p++)
        if (*p == '\n')
            *p = ' ';
    static const char *const smem[] = {"--smem 232448 ", "--smem 4 "};
    for (int k = 0; k < 2; k++) {
        const XcheckRef *ref = NULL;
        for (int l = 0; l < rec.n && !ref; l++)
            for (int i = 0; !ref && !strcmp(rec.lessons[l].slug, "04-occupancy") && i < rec.lessons[l].n; i++)
                if (strstr(rec.lessons[l].refs[i].line, "--grid 1056 ") && strstr(rec.lessons[l].refs[i].line, smem[k]))
                    ref = &rec.lessons[l].refs[i];
        assert_non_null(ref);
        char want[32];
        snprintf(want, sizeof want, "%.5f ms", ref->time);
        if (!strstr(t, want))
            fail_msg("lesson 4's harness does not quote the recorded %s", want);
        if (!strstr(readme, want))
            fail_msg("lesson 4's README does not quote the recorded %s", want);
    }
    free(readme);
    xcheck_recording_free(&rec);
    free(t);
    char cmd[256];
    snprintf(cmd, sizeof cmd, "%s xcheck 4 --backend sim 2>&1", warpsim());
    char *out = lesson_run_cmd(cmd);
    if (!strstr(out, "1 time claim judged, 0 failing") || !strstr(out, " 0 mismatches"))
        fail_msg("%s", out);
    free(out);
}

/* `warpsim lesson 3` ends with the stepper and visualizer commands (the
 * command takes them from the README's first `warpsim step` line). */
static void test_lesson3_command_offers_the_stepper_and_visualizer(void **st)
{
    (void)st;
    char cmd[256];
    snprintf(cmd, sizeof cmd, "%s lesson 3 </dev/null 2>&1", warpsim());
    char *out = lesson_run_cmd(cmd);
    if (!strstr(out, "Step through this lesson's kernel") || !strstr(out, "warpsim viz lesson.wst") ||
        !strstr(out, "--kernel last_writer"))
        fail_msg("%s", out);
    free(out);
}

/* The heading line "## ..." of a lesson README that starts with `want`
 * (after "## "): true when one exists. */
static bool readme_has_heading(const char *readme, const char *want, size_t wlen)
{
    for (const char *h = readme; (h = strstr(h, "## ")); h += 3)
        if ((h == readme || h[-1] == '\n') && !strncmp(h + 3, want, wlen))
            return true;
    return false;
}

/* lessons/NN-* for lesson number nn, into dir; false when none. */
static bool lesson_dir(int nn, char *dir, size_t cap)
{
    char pat[64];
    snprintf(pat, sizeof pat, "lessons/%02d-*", nn);
    glob_t g;
    if (glob(pat, GLOB_ONLYDIR, NULL, &g))
        return false;
    snprintf(dir, cap, "%s", g.gl_pathv[0]);
    globfree(&g);
    return true;
}

/* Every "NN §K", "NN §\"words\"" and "NN Ex" in a lesson-step cell names
 * something that exists; returns how many it named. */
static int check_steps(const char *cell, size_t len, int row)
{
    int named = 0;
    for (size_t i = 0; i + 3 < len; i++) {
        if (!(cell[i] >= '0' && cell[i] <= '9' && cell[i + 1] >= '0' && cell[i + 1] <= '9' && cell[i + 2] == ' '))
            continue;
        if (i > 0 && cell[i - 1] != ' ' && cell[i - 1] != ',' && cell[i - 1] != '(')
            continue;
        const char *r = cell + i + 3;
        bool sect = !strncmp(r, "\xc2\xa7", 2), ex = !strncmp(r, "Ex", 2) && (r[2] == ',' || r[2] == ' ' || r[2] == '|');
        if (!sect && !ex)
            continue;
        int nn = (cell[i] - '0') * 10 + (cell[i + 1] - '0');
        char dir[256], path[300];
        if (!lesson_dir(nn, dir, sizeof dir))
            fail_msg("COVERAGE.md row %d names lesson %02d, which does not exist", row, nn);
        named++;
        if (ex) {
            snprintf(path, sizeof path, "%s/exercise/README.md", dir);
            FILE *f = fopen(path, "r");
            if (!f) {
                snprintf(path, sizeof path, "%s/exercise.md", dir);
                f = fopen(path, "r");
            }
            if (!f)
                fail_msg("COVERAGE.md row %d names %02d Ex: %s has no exercise", row, nn, dir);
            fclose(f);
            continue;
        }
        snprintf(path, sizeof path, "%s/README.md", dir);
        char *readme = read_text(path);
        const char *k = r + 2;
        char want[128];
        if (*k == '"') {
            const char *e = strchr(k + 1, '"');
            assert_non_null(e);
            snprintf(want, sizeof want, "%.*s", (int)(e - k - 1), k + 1);
            if (!readme_has_heading(readme, want, strlen(want)))
                fail_msg("COVERAGE.md row %d: %s has no heading \"## %s\"", row, path, want);
        } else {
            int step = atoi(k);
            assert_true(step > 0);
            char a[32], b[32];
            snprintf(a, sizeof a, "%d. ", step);
            snprintf(b, sizeof b, "Step %d:", step);
            if (!readme_has_heading(readme, a, strlen(a)) && !readme_has_heading(readme, b, strlen(b)))
                fail_msg("COVERAGE.md row %d: %s has no section or step %d", row, path, step);
        }
        free(readme);
    }
    return named;
}

/* lessons/COVERAGE.md: 97 rows (14, 11, 42, 17, 13 per note, numbered in
 * order), every step it names exists, "yes" only with a recording that is
 * in traces/hw/, and a row with no step says what will teach it or why not. */
static void test_coverage_table_has_97_rows_and_real_steps(void **st)
{
    (void)st;
    char *t = read_text("lessons/COVERAGE.md");
    static const int per_note[5] = {14, 11, 42, 17, 13};
    int count[5] = {0}, rows = 0, taught = 0, yes = 0;
    for (const char *line = t; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
        int note, num;
        if (sscanf(line, "| %d-%d |", &note, &num) != 2)
            continue;
        rows++;
        assert_true(note >= 0 && note <= 4);
        count[note]++;
        if (num != count[note])
            fail_msg("COVERAGE.md: point %03d-%d is out of order (expected %d)", note, num, count[note]);
        /* the cells: | note | point | step | gpu | */
        const char *c[5];
        const char *p = line;
        for (int k = 0; k < 5; k++) {
            p = strchr(p, '|');
            while (p && p[-1] == '\\')
                p = strchr(p + 1, '|');
            assert_non_null(p);
            c[k] = ++p;
        }
        const char *step = c[2] + 1, *gpu = c[3] + 1;
        size_t slen = (size_t)(c[3] - 1 - step);
        int named = check_steps(step, slen, rows);
        if (!strncmp(step, "none", 4)) {
            if (named)
                fail_msg("COVERAGE.md row %d says none but names a step", rows);
            if (strncmp(step, "none yet: planned ", 18) && strncmp(step, "none: ", 6))
                fail_msg("COVERAGE.md row %d: a point with no step says which lesson will teach it or why not",
                         rows);
        } else {
            if (!named)
                fail_msg("COVERAGE.md row %d names no lesson step", rows);
            taught++;
        }
        if (!strncmp(gpu, "yes", 3)) {
            yes++;
            if (!named)
                fail_msg("COVERAGE.md row %d is GPU-verified with no step", rows);
            const char *a = strchr(gpu, '`'), *b = a ? strchr(a + 1, '`') : NULL;
            if (!a || !b || strncmp(a + 1, "traces/hw/", 10))
                fail_msg("COVERAGE.md row %d says yes but names no recording in traces/hw/", rows);
            char path[256];
            snprintf(path, sizeof path, "%.*s", (int)(b - a - 1), a + 1);
            FILE *f = fopen(path, "r");
            if (!f)
                fail_msg("COVERAGE.md row %d names %s, which is not there", rows, path);
            fclose(f);
        } else if (strncmp(gpu, "no", 2)) {
            fail_msg("COVERAGE.md row %d: GPU-verified is neither yes nor no", rows);
        }
    }
    assert_int_equal(rows, 97);
    for (int k = 0; k < 5; k++)
        if (count[k] != per_note[k])
            fail_msg("COVERAGE.md: note %03d has %d rows, expected %d", k, count[k], per_note[k]);
    char totals[128];
    snprintf(totals, sizeof totals, "Totals: %d of 97 points taught by a step", taught);
    assert_non_null(strstr(t, totals));
    snprintf(totals, sizeof totals, "%d of them with a GPU recording", yes);
    assert_non_null(strstr(t, totals));
    free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_no_lesson_text_cites_material_the_learner_lacks),
        cmocka_unit_test(test_lesson1_last_block_has_256_threads_88_with_work),
        cmocka_unit_test(test_lesson3_hardware_figures_are_the_recorded_ones),
        cmocka_unit_test(test_lesson3_readme_quotes_the_xcheck_recording),
        cmocka_unit_test(test_lesson2_activemask_vs_ballot_explores_to_one_result),
        cmocka_unit_test(test_lesson4_step_and_occupancy_claims_hold),
        cmocka_unit_test(test_lesson4_harness_runs_its_steps),
        cmocka_unit_test(test_lesson4_shows_simulated_against_measured_occupancy),
        cmocka_unit_test(test_lesson3_command_offers_the_stepper_and_visualizer),
        cmocka_unit_test(test_coverage_table_has_97_rows_and_real_steps),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
