/* test_grade.c: `warpsim grade` end to end on the student fixtures of
 * tests/grade/ -- each case of issue 7 ends with the right finding kind and
 * .cu line within a bounded time -- plus its formats (JSON and Gradescope
 * parsed back), its exit statuses, the replay command, the GPU path with a
 * simulator standing in for the GPU (agreement, the timeout), nvcc's
 * messages, and lesson 1's reference check itself.  Runs build/warpsim
 * ($WARPSIM); the cases that compile need nvcc and are skipped without it. */
#include <unistd.h>
#include "grade_int.h"
#include "lesson.h"

#include "grade_fixture.h"

/* Grade fixture tests/grade/NAME.cu against lesson 1. */
static JsonValue *grade_json(int *rc, const char *name, const char *extra)
{
    return grade_fixture(rc, 1, name, extra);
}

/* The report has a finding of kind at line; its file is the fixture. */
static const JsonValue *expect_finding(const JsonValue *r, const char *name, const char *kind, int line)
{
    return expect_fixture_finding(r, name, kind, line);
}

/* ---- the cases of issue 7 ------------------------------------------------- */

static void test_grade_atomic_solution_passes_but_misses_the_atomics_rubric(void **s)
{
    (void)s;
    need_nvcc();
    int rc;
    JsonValue *r = grade_json(&rc, "atomic", "");
    assert_int_equal(rc, 0);
    assert_true(passed(r));
    assert_int_equal(json_get(r, "findings")->n, 0);
    assert_int_equal((int)json_get_number(r, "score", -1), 90);
    assert_int_equal((int)json_get_number(r, "max_score", -1), 100);
    const JsonValue *at = item(r, "rubric: at most one atomicAdd per block");
    assert_false(json_get(at, "passed")->boolean);
    assert_non_null(strstr(json_get_string(at, "output"), "256 per block"));
}

static void test_grade_shared_memory_reduction_gets_full_marks(void **s)
{
    (void)s;
    need_nvcc();
    int rc;
    JsonValue *r = grade_json(&rc, "reduction", "");
    assert_int_equal(rc, 0);
    assert_true(passed(r));
    assert_int_equal((int)json_get_number(r, "score", -1), 100);
    assert_non_null(strstr(json_get_string(item(r, "n = 100000"), "output"), "correct in all 8 runs"));
}

/* Needs the race checker (DEVICE_CHECK_RACES findings). */
static void test_grade_racy_sum_fails_with_a_race_at_its_line(void **s)
{
    (void)s;
    need_nvcc();
    int rc;
    JsonValue *r = grade_json(&rc, "racy", "");
    assert_int_equal(rc, 1);
    assert_false(passed(r));
    const JsonValue *f = expect_finding(r, "racy", "race", 7);
    assert_non_null(strstr(json_get_string(f, "replay"), "--check races"));
}

/* Needs the race checker: the answer may come out right, the race must not. */
static void test_grade_missing_syncthreads_fails_with_a_race_at_its_line(void **s)
{
    (void)s;
    need_nvcc();
    int rc;
    JsonValue *r = grade_json(&rc, "nosync", "");
    assert_int_equal(rc, 1);
    expect_finding(r, "nosync", "race", 12);
    assert_false(json_get(item(r, "rubric: no data race"), "passed")->boolean);
}

static void test_grade_read_past_n_is_out_of_bounds_with_block_and_thread(void **s)
{
    (void)s;
    need_nvcc();
    int rc;
    JsonValue *r = grade_json(&rc, "oob", "");
    assert_int_equal(rc, 1);
    const JsonValue *f = expect_finding(r, "oob", "out-of-bounds", 7);
    assert_int_equal(json_get(f, "block")->type, JSON_ARRAY);
    assert_int_equal(json_get(f, "thread")->type, JSON_ARRAY);
    assert_string_equal(json_get_string(f, "test"), "n = 1 (a single element)");
    /* n = 256 is a multiple of the block: that test passes */
    assert_true(json_get(item(r, "n = 256"), "passed")->boolean);
    assert_false(json_get(item(r, "n = 257"), "passed")->boolean);
}

static void test_grade_endless_loop_in_one_thread_ends_as_budget_exceeded(void **s)
{
    (void)s;
    need_nvcc();
    int rc;
    JsonValue *r = grade_json(&rc, "loop", "");
    assert_int_equal(rc, 1);
    const JsonValue *f = expect_finding(r, "loop", "budget-exceeded", 9);
    assert_non_null(strstr(json_get_string(f, "replay"), "--budget "));
    assert_true(took < 60);
}

/* Needs the race checker's barrier-divergence findings. */
static void test_grade_syncthreads_inside_a_branch_is_barrier_divergence(void **s)
{
    (void)s;
    need_nvcc();
    int rc;
    JsonValue *r = grade_json(&rc, "divergent", "");
    assert_int_equal(rc, 1);
    expect_finding(r, "divergent", "barrier-divergence", 16);
}

static void test_grade_wrong_answer_says_which_element_is_missing(void **s)
{
    (void)s;
    need_nvcc();
    int rc;
    JsonValue *r = grade_json(&rc, "wrong", "");
    assert_int_equal(rc, 1);
    const JsonValue *f = expect_finding(r, "wrong", "wrong-answer", 2); /* the kernel's line */
    assert_int_equal((int)json_get_number(f, "count", 0), 7 * 8);
    assert_non_null(strstr(json_get_string(item(r, "n = 257"), "output"),
                           "that is the sum without in[256], the last element"));
    assert_int_equal((int)json_get_number(r, "score", -1), 0); /* no right answer: no rubric points */
}

static void test_grade_file_that_does_not_compile_fails_with_line_and_message(void **s)
{
    (void)s;
    need_nvcc();
    int rc;
    JsonValue *r = grade_json(&rc, "nocompile", "");
    assert_int_equal(rc, 1);
    const JsonValue *f = expect_finding(r, "nocompile", "compile-error", 5);
    assert_int_equal((int)json_get_number(f, "column", 0), 5);
    assert_string_equal(json_get_string(f, "message"), "expected a \";\"");
    assert_non_null(strstr(json_get_string(f, "compiler_output"), "error"));
    assert_int_equal((int)json_get_number(r, "score", -1), 0);
}

/* nvcc -ptx does not run the back end; the grader does, as a GPU would. */
static void test_grade_kernel_ptxas_refuses_is_a_compile_error(void **s)
{
    (void)s;
    need_nvcc();
    int rc;
    JsonValue *r = grade_json(&rc, "bigsmem", "");
    assert_int_equal(rc, 1);
    const JsonValue *f = expect_finding(r, "bigsmem", "compile-error", 4); /* the kernel's line */
    assert_non_null(strstr(json_get_string(f, "message"), "too much shared data"));
}

static void test_grade_text_shows_the_source_line_and_the_replay(void **s)
{
    (void)s;
    need_nvcc();
    assert_int_equal(sh(false, "%s grade 1 tests/grade/oob.cu --runs 2", warpsim()), 1);
    assert_non_null(strstr(out, "out-of-bounds at tests/grade/oob.cu:7"));
    assert_non_null(strstr(out, "    7 |     s[threadIdx.x] = in[i];\n"));
    assert_non_null(strstr(out, "      |     ^~~~~~~~~~~~~~~~~~~~~~~\n"));
    assert_non_null(strstr(out, "replay: warpsim run tests/grade/oob.cu --kernel block_sum --grid 1 --block 256"));
    assert_non_null(strstr(out, "step:   warpsim step tests/grade/oob.cu"));
    assert_non_null(strstr(out, "Score: 40/100 -- FAILED"));
}

/* The replay command of a finding, run as printed, shows the same fault. */
static void test_grade_replay_command_reproduces_the_finding(void **s)
{
    (void)s;
    need_nvcc();
    int rc;
    JsonValue *r = grade_json(&rc, "oob", "--runs 3");
    const JsonValue *f = finding(r, "out-of-bounds");
    assert_non_null(f);
    const char *replay = json_get_string(f, "replay");
    assert_true(!strncmp(replay, "warpsim run ", 12));
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "%s %s", warpsim(), replay + strlen("warpsim "));
    assert_int_equal(sh(true, "%s", cmd), 1);
    assert_non_null(strstr(out, "kernel fault: out-of-bounds"));
    assert_non_null(strstr(out, "oob.cu:7"));
}

static void test_grade_missing_kernel_lists_what_the_file_defines(void **s)
{
    (void)s;
    need_nvcc();
    int rc;
    JsonValue *r = grade_json(&rc, "misnamed", "");
    assert_int_equal(rc, 1);
    const JsonValue *f = finding(r, "signature");
    assert_non_null(f);
    assert_non_null(strstr(json_get_string(f, "message"), "no kernel named 'block_sum'"));
    assert_non_null(strstr(json_get_string(f, "message"), "blocksum"));
}

static void test_grade_wrong_parameters_are_a_signature_finding(void **s)
{
    (void)s;
    need_nvcc();
    int rc;
    JsonValue *r = grade_json(&rc, "params", "");
    assert_int_equal(rc, 1);
    const JsonValue *f = expect_finding(r, "params", "signature", 2);
    assert_non_null(strstr(json_get_string(f, "message"), "takes 2 parameters"));
}

/* ---- formats, options, statuses ------------------------------------------------ */

static void test_grade_json_has_exactly_the_documented_fields(void **s)
{
    (void)s;
    need_nvcc();
    int rc;
    JsonValue *r = grade_json(&rc, "oob", "--runs 1");
    expect_report_shape(r, "01-threads-and-races", 7 + 3);
    const JsonValue *f = finding(r, "out-of-bounds");
    static const char *const fk[] = {"kind", "file", "line", "message", "block", "thread", "test", "run", "seed",
                                     "count", "replay", "step"};
    for (size_t i = 0; i < sizeof fk / sizeof *fk; i++)
        if (!json_get(f, fk[i]))
            fail_msg("finding lacks \"%s\"", fk[i]);
    /* exactly one line */
    assert_ptr_equal(strchr(out, '\n'), out + strlen(out) - 1);
}

static void test_grade_gradescope_results_json_parses(void **s)
{
    (void)s;
    need_nvcc();
    char path[] = "/tmp/warpsim-test-grade-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    assert_int_equal(sh(false, "%s grade 1 tests/grade/atomic.cu --runs 2 --format gradescope --out %s", warpsim(),
                        path), 0);
    assert_string_equal(out, ""); /* all of it went to the file */
    size_t n;
    char msg[256];
    char *text = source_read_file(path, &n, msg, sizeof msg);
    unlink(path);
    assert_non_null(text);
    JsonValue *r = report = json_parse(text, n, msg, sizeof msg);
    free(text);
    if (!r)
        fail_msg("results.json: %s", msg);
    assert_int_equal((int)json_get_number(r, "score", -1), 90);
    assert_non_null(json_get_string(r, "output"));
    const JsonValue *ts = json_get(r, "tests");
    assert_int_equal(ts->n, 10);
    for (size_t i = 0; i < ts->n; i++) {
        assert_non_null(json_get_string(&ts->items[i], "name"));
        assert_true(json_get_number(&ts->items[i], "score", -1) >= 0);
        assert_true(json_get_number(&ts->items[i], "max_score", -1) > 0);
        assert_non_null(json_get_string(&ts->items[i], "output"));
        assert_string_equal(json_get_string(&ts->items[i], "visibility"), "visible");
    }
    if (system("command -v python3 >/dev/null 2>&1") == 0) { /* a second, independent parser */
        assert_int_equal(sh(false, "%s grade 1 tests/grade/nocompile.cu --format gradescope | python3 -m json.tool "
                                   ">/dev/null && echo ok", warpsim()), 0);
        assert_string_equal(out, "ok\n");
    }
}

static void test_grade_cannot_grade_is_status_2_with_a_reason(void **s)
{
    (void)s;
    assert_int_equal(sh(true, "%s grade 99 tests/grade/atomic.cu", warpsim()), 2);
    assert_non_null(strstr(out, "no lesson '99'"));
    /* a lesson with no graded exercise is refused (lesson 4 was one until
     * it got poly_int): every such lesson of the registry */
    int without = 0;
    for (int i = 0; i < lesson_count(); i++) {
        if (lesson_at(i)->exercise)
            continue;
        without++;
        assert_int_equal(sh(true, "%s grade %d tests/grade/atomic.cu", warpsim(), lesson_at(i)->number), 2);
        assert_non_null(strstr(out, "has no graded exercise"));
    }
    if (!without)
        printf("note: every lesson has a graded exercise; the refusal of one without was not run\n");
    assert_int_equal(sh(true, "%s grade 1 tests/grade/no-such-file.cu", warpsim()), 2);
    assert_non_null(strstr(out, "no-such-file.cu: cannot open"));
    assert_int_equal(sh(true, "%s grade 1", warpsim()), 2);
    assert_non_null(strstr(out, "missing STUDENT.cu"));
    assert_int_equal(sh(true, "%s grade 1 x.cu --format yaml", warpsim()), 2);
    assert_non_null(strstr(out, "expected text, json or gradescope"));
    assert_int_equal(sh(true, "%s grade 1 x.cu --runs 0", warpsim()), 2);
    assert_int_equal(sh(true, "%s grade --help", warpsim()), 0);
    assert_non_null(strstr(out, "example:"));
}

/* ---- --gpu, with a simulator standing in for the GPU --------------------------- */

static void test_grade_gpu_path_reports_agreement(void **s)
{
    (void)s;
    need_nvcc();
    int rc;
    JsonValue *r = grade_json(&rc, "reduction", "--runs 2 --gpu-sim");
    assert_int_equal(rc, 0);
    const JsonValue *g = json_get(r, "gpu");
    assert_non_null(g);
    assert_true(json_get(g, "ran")->boolean);
    assert_non_null(strstr(json_get_string(g, "note"), "7 of 7 tests correct"));
    assert_non_null(strstr(json_get_string(item(r, "n = 1000"), "output"),
                           "GPU: correct, the same output as the simulator's run 0"));
}

static void test_grade_gpu_fault_becomes_a_finding(void **s)
{
    (void)s;
    need_nvcc();
    int rc;
    JsonValue *r = grade_json(&rc, "oob", "--runs 1 --gpu-sim");
    assert_int_equal(rc, 1);
    const JsonValue *fs = json_get(r, "findings");
    bool on_gpu = false;
    for (size_t i = 0; i < fs->n; i++) {
        const char *b = json_get_string(&fs->items[i], "backend");
        on_gpu |= b && !strcmp(b, "gpu") && !strcmp(json_get_string(&fs->items[i], "kind"), "out-of-bounds");
    }
    assert_true(on_gpu);
}

static void test_grade_gpu_timeout_stops_an_endless_kernel(void **s)
{
    (void)s;
    need_nvcc();
    int rc;
    JsonValue *r = grade_json(&rc, "loop", "--runs 1 --gpu-sim --gpu-timeout 1");
    assert_int_equal(rc, 1);
    const JsonValue *f = finding(r, "timeout");
    assert_non_null(f);
    assert_string_equal(json_get_string(f, "backend"), "gpu");
    assert_non_null(strstr(json_get_string(f, "message"), "after 1 s"));
    assert_true(took < 30);
}

static void test_grade_gpu_without_a_gpu_says_so_and_grades_anyway(void **s)
{
    (void)s;
    need_nvcc();
    if (system("ls /dev/nvidia0 >/dev/null 2>&1") == 0)
        skip(); /* this machine has a GPU */
    assert_int_equal(sh(true, "%s grade 1 tests/grade/atomic.cu --runs 1 --gpu", warpsim()), 0);
    assert_non_null(strstr(out, "--gpu: no GPU: "));
    assert_non_null(strstr(out, "graded on the simulator only"));
    assert_non_null(strstr(out, "Score: 90/100"));
}

/* ---- pieces ------------------------------------------------------------------ */

static void test_grade_reads_nvccs_first_error_with_its_column(void **s)
{
    (void)s;
    const char *log = "k.cu(3): warning #177-D: variable \"x\" was declared but never referenced\n"
                      "      int x;\n          ^\n\n"
                      "k.cu(4): error: identifier \"j\" is undefined\n"
                      "        atomicAdd(out, in[j]);\n"
                      "                          ^\n\n1 error detected in the compilation of \"k.cu\".\n";
    char file[64], msg[128];
    int line, col;
    assert_true(grade_compile_first_error(log, file, sizeof file, &line, &col, msg, sizeof msg));
    assert_string_equal(file, "k.cu");
    assert_int_equal(line, 4);
    assert_int_equal(col, 25);
    assert_string_equal(msg, "identifier \"j\" is undefined");
    assert_true(grade_compile_first_error("nvcc fatal   : Unknown option '-x'\n", file, sizeof file, &line, &col,
                                          msg, sizeof msg));
    assert_int_equal(line, 0);
    assert_false(grade_compile_first_error("all good\n", file, sizeof file, &line, &col, msg, sizeof msg));
}

/* The writers on a race finding (the simulator's race checker fills these
 * in a real grading): kind, detail, line with its marker, both accesses. */
static void test_grade_report_shows_a_race_with_both_accesses(void **s)
{
    (void)s;
    const Lesson *l = lesson_find("1");
    GradeItem items[10];
    memset(items, 0, sizeof items);
    for (int i = 0; i < 10; i++) {
        snprintf(items[i].name, sizeof items[i].name, i < 7 ? "test %d" : "rubric: item %d", i);
        items[i].rubric = i >= 7;
        items[i].max_score = 10;
    }
    GradeFinding f = {.kind = "race", .detail = "lost-update", .backend = "simulator",
                      .file = "tests/grade/racy.cu", .line = 7, .msg = "out[0] is read and written back",
                      .has_thread = true, .block = {1, 0, 0}, .thread = {3, 0, 0}, .op = "write",
                      .has_other = true, .other_block = {0, 0, 0}, .other_thread = {5, 0, 0}, .other_line = 7,
                      .other_op = "read", .test = 2, .run = 3, .schedule = DEVICE_SCHED_RANDOM,
                      .atomic_order = DEVICE_ATOMIC_RANDOM, .seed = 3, .count = 12, .tests_mask = 0x6,
                      .replay = "warpsim run x", .step = "warpsim step x"};
    char msg[128];
    GradeReport r = {.ex = l->exercise, .student = "tests/grade/racy.cu", .runs = 8, .compiled = true,
                     .items = items, .nitems = 10, .findings = &f, .nfindings = 1, .max_score = 100};
    r.source = source_read_file(r.student, &r.source_len, msg, sizeof msg);
    assert_non_null(r.source);
    char *text = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&text, &len);
    grade_write_text(m, &r);
    fclose(m);
    assert_non_null(strstr(text, "1. race (lost-update) at tests/grade/racy.cu:7 -- 12 times, in 2 tests\n"));
    assert_non_null(strstr(text, "    7 |         out[0] += in[i];\n"));
    assert_non_null(strstr(text, "      |         ^~~~~~~~~~~~~~~~\n"));
    assert_non_null(strstr(text, "block (1,0,0) thread (3,0,0) (write); before it: block (0,0,0) thread (5,0,0) "
                                 "(read) at line 7"));
    assert_non_null(strstr(text, "run 3 (schedule random, atomic order random, seed 3)"));
    free(text);
    m = open_memstream(&text, &len);
    grade_write_json(m, &r);
    fclose(m);
    JsonValue *j = report = json_parse(text, len, msg, sizeof msg);
    free(text);
    free(r.source);
    assert_non_null(j);
    const JsonValue *jf = &json_get(j, "findings")->items[0];
    assert_string_equal(json_get_string(jf, "detail"), "lost-update");
    assert_string_equal(json_get_string(json_get(jf, "other"), "op"), "read");
    assert_string_equal(json_get_string(jf, "schedule"), "random");
    assert_int_equal((int)json_get_number(jf, "tests", 0), 2);
}

/* The writers on text a student controls: a source line with an ANSI
 * escape and a byte that is not UTF-8, a finding a #line put in
 * /etc/passwd.  The text is escaped, the JSON and Gradescope output valid
 * UTF-8, and no file a finding names is read. */
static void test_grade_report_escapes_and_never_reads_a_named_file(void **s)
{
    (void)s;
    const Lesson *l = lesson_find("1");
    GradeItem items[10];
    memset(items, 0, sizeof items);
    for (int i = 0; i < 10; i++) {
        snprintf(items[i].name, sizeof items[i].name, i < 7 ? "test %d" : "rubric: item %d", i);
        items[i].rubric = i >= 7;
        items[i].max_score = 10;
        snprintf(items[i].output, sizeof items[i].output, "out \033[31mred\xff");
    }
    GradeFinding f[2] = {{.kind = "out-of-bounds", .backend = "simulator", .file = "s.cu", .line = 2,
                          .msg = "bad \xc3\x28 byte", .test = -1, .run = -1},
                         {.kind = "out-of-bounds", .backend = "simulator", .file = "/etc/passwd", .line = 1,
                          .msg = "named elsewhere", .test = -1, .run = -1}};
    char src[] = "// line 1\n    out[9] = 1; // \033[2J\xff\xfe\n";
    GradeReport r = {.ex = l->exercise, .student = "s.cu", .runs = 1, .compiled = true, .source = src,
                     .source_len = strlen(src), .items = items, .nitems = 10, .findings = f, .nfindings = 2,
                     .max_score = 100};
    char *text = NULL, msg[128];
    size_t len = 0;
    FILE *m = open_memstream(&text, &len);
    grade_write_text(m, &r);
    fclose(m);
    assert_null(strchr(text, '\033'));
    assert_non_null(strstr(text, "    2 |     out[9] = 1; // \\x1b[2J\\xff\\xfe\n"));
    assert_non_null(strstr(text, "bad \\xc3( byte"));
    assert_null(strstr(text, "root:")); /* line 1 of /etc/passwd */
    const char *named = strstr(text, "at /etc/passwd:1\n     named elsewhere\n");
    assert_non_null(named);
    assert_null(strstr(named, "1 | ")); /* no line shown for it, not even the submission's line 1 */
    free(text);
    void (*writers[2])(FILE *, const GradeReport *) = {grade_write_json, grade_write_gradescope};
    for (int w = 0; w < 2; w++) {
        m = open_memstream(&text, &len);
        writers[w](m, &r);
        fclose(m);
        for (size_t i = 0; i < len; i++)
            assert_true((unsigned char)text[i] >= 0x20 || text[i] == '\n');
        assert_null(strstr(text, "\xff"));
        assert_null(strstr(text, "root:"));
        assert_non_null(strstr(text, "\\ufffd"));
        JsonValue *j = json_parse(text, len, msg, sizeof msg);
        assert_non_null(j);
        json_free(j);
        free(text);
    }
}

/* A compiler's messages in a report: the sandbox's copy is the student's
 * file again, the toolkit's and system headers short names, any other path
 * of the grader's machine gone. */
static void test_grade_compile_scrub_replaces_paths_outside_the_submission(void **s)
{
    (void)s;
    char *t = grade_compile_scrub("/tmp/warpsim-grade-X/kernel.cu(3): error: x\n"
                                  "kernel.cu(4): error: y\n"
                                  "/tmp/warpsim-grade-X/src/helper.h(2): note\n"
                                  "/usr/local/cuda-13.0/include/cuda.h(9): warning\n"
                                  "In file included from /home/grader/secret/key.h:1,\n"
                                  "/usr/include/stdio.h:5: note \"/etc/passwd\"\n",
                                  "/tmp/warpsim-grade-X", "/home/student/hw", "/usr/local/cuda-13.0", "hw/sum.cu");
    assert_non_null(t);
    assert_string_equal(t, "hw/sum.cu(3): error: x\n"
                           "hw/sum.cu(4): error: y\n"
                           "helper.h(2): note\n"
                           "<cuda>/include/cuda.h(9): warning\n"
                           "In file included from <outside>:1,\n"
                           "<system>/stdio.h:5: note \"<outside>\"\n");
    free(t);
}

/* Lesson 1's reference against a plain sum, and its explanations. */
static void test_lesson1_check_is_the_wrapping_sum_and_explains_a_missing_element(void **s)
{
    (void)s;
    const GradeExercise *ex = lesson_find("1")->exercise;
    assert_non_null(ex);
    assert_string_equal(ex->kernel, "block_sum");
    const GradeExerciseTest *t = &ex->tests[4]; /* n = 257 */
    assert_int_equal(t->n, 257);
    GradeLaunch l;
    ex->launch(t, &l);
    assert_int_equal(l.grid.x, 2);
    assert_int_equal(l.block.x, 256);
    assert_string_equal(l.args[0], "buf:i32[257]=rand:257");
    int32_t in[257], sum = 0, n = 257;
    for (int i = 0; i < n; i++) {
        in[i] = INT32_MAX - 3 * i;
        sum = (int32_t)((uint32_t)sum + (uint32_t)in[i]);
    }
    int32_t res = sum;
    GradeData before[3] = {{in, 257, 4}, {&(int32_t){0}, 1, 4}, {&n, 1, 4}};
    GradeData after[3] = {{in, 257, 4}, {&res, 1, 4}, {&n, 1, 4}};
    char msg[600];
    assert_true(ex->check(t, before, after, msg, sizeof msg));
    res = (int32_t)((uint32_t)sum - (uint32_t)in[256]);
    assert_false(ex->check(t, before, after, msg, sizeof msg));
    assert_non_null(strstr(msg, "that is the sum without in[256], the last element"));
    res = (int32_t)((uint32_t)sum + (uint32_t)in[3]);
    assert_false(ex->check(t, before, after, msg, sizeof msg));
    assert_non_null(strstr(msg, "in[3] was added twice"));
    res = 0;
    assert_false(ex->check(t, before, after, msg, sizeof msg));
    assert_non_null(strstr(msg, "still 0"));
    assert_int_equal(grade_exercise_max_score(ex), 100);
    assert_int_equal(grade_exercise_budget(ex, &l), 2 * 8 * ex->budget_per_warp + GRADE_BUDGET_BASE);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_teardown(test_grade_atomic_solution_passes_but_misses_the_atomics_rubric, free_report),
        cmocka_unit_test_teardown(test_grade_shared_memory_reduction_gets_full_marks, free_report),
        cmocka_unit_test_teardown(test_grade_racy_sum_fails_with_a_race_at_its_line, free_report),
        cmocka_unit_test_teardown(test_grade_missing_syncthreads_fails_with_a_race_at_its_line, free_report),
        cmocka_unit_test_teardown(test_grade_read_past_n_is_out_of_bounds_with_block_and_thread, free_report),
        cmocka_unit_test_teardown(test_grade_endless_loop_in_one_thread_ends_as_budget_exceeded, free_report),
        cmocka_unit_test_teardown(test_grade_syncthreads_inside_a_branch_is_barrier_divergence, free_report),
        cmocka_unit_test_teardown(test_grade_wrong_answer_says_which_element_is_missing, free_report),
        cmocka_unit_test_teardown(test_grade_file_that_does_not_compile_fails_with_line_and_message, free_report),
        cmocka_unit_test_teardown(test_grade_kernel_ptxas_refuses_is_a_compile_error, free_report),
        cmocka_unit_test_teardown(test_grade_text_shows_the_source_line_and_the_replay, free_report),
        cmocka_unit_test_teardown(test_grade_replay_command_reproduces_the_finding, free_report),
        cmocka_unit_test_teardown(test_grade_missing_kernel_lists_what_the_file_defines, free_report),
        cmocka_unit_test_teardown(test_grade_wrong_parameters_are_a_signature_finding, free_report),
        cmocka_unit_test_teardown(test_grade_json_has_exactly_the_documented_fields, free_report),
        cmocka_unit_test_teardown(test_grade_gradescope_results_json_parses, free_report),
        cmocka_unit_test_teardown(test_grade_cannot_grade_is_status_2_with_a_reason, free_report),
        cmocka_unit_test_teardown(test_grade_gpu_path_reports_agreement, free_report),
        cmocka_unit_test_teardown(test_grade_gpu_fault_becomes_a_finding, free_report),
        cmocka_unit_test_teardown(test_grade_gpu_timeout_stops_an_endless_kernel, free_report),
        cmocka_unit_test_teardown(test_grade_gpu_without_a_gpu_says_so_and_grades_anyway, free_report),
        cmocka_unit_test_teardown(test_grade_reads_nvccs_first_error_with_its_column, free_report),
        cmocka_unit_test_teardown(test_grade_report_shows_a_race_with_both_accesses, free_report),
        cmocka_unit_test(test_lesson1_check_is_the_wrapping_sum_and_explains_a_missing_element),
        cmocka_unit_test(test_grade_report_escapes_and_never_reads_a_named_file),
        cmocka_unit_test(test_grade_compile_scrub_replaces_paths_outside_the_submission),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
