/* test_grade_hostile.c: `warpsim grade` on hostile submissions
 * (tests/grade/hostile/, one .cu per attack, and a few made here: a
 * symbolic link beside the file, a 10 MB file, a FIFO), under tight
 * limits.  Each must produce its finding, a valid JSON and Gradescope
 * report (UTF-8, control characters escaped), read nothing outside the
 * submission (no line of /etc/passwd, no variable of the environment),
 * write nothing outside the temporary folders, leave no process, and end
 * in seconds. */
#include "grade_fixture.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#define LIMITS "--runs 1 --max-memory 64M --max-budget 500000 --compile-timeout 30 --compile-memory 2G"
#define SECRET "warpsim-secret-7f3a9c1e"

static char work[256];         /* this case's folder: sub/ (the submission), cwd/, tmp/ */
static char reports[3][1 << 18]; /* json, gradescope, text */

/* Is s valid UTF-8 (no overlong forms, surrogates or code points past U+10FFFF)? */
static bool valid_utf8(const unsigned char *s, size_t n)
{
    for (size_t i = 0; i < n;) {
        unsigned c = s[i];
        size_t k = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
        if (!k || i + k > n)
            return false;
        unsigned cp = k == 1 ? c : k == 2 ? c & 0x1f : k == 3 ? c & 0x0f : c & 0x07;
        for (size_t j = 1; j < k; j++) {
            if ((s[i + j] & 0xc0) != 0x80)
                return false;
            cp = cp << 6 | (s[i + j] & 0x3f);
        }
        static const unsigned least[5] = {0, 0, 0x80, 0x800, 0x10000};
        if (cp < least[k] || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
            return false;
        i += k;
    }
    return true;
}

static void slurp(const char *path, char *buf, size_t cap)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        fail_msg("%s: not written", path);
    size_t n = fread(buf, 1, cap - 1, f);
    buf[n] = 0;
    fclose(f);
}

/* Entries of folder dir (not . and ..). */
static int entries(const char *dir, char *names, size_t cap)
{
    DIR *d = opendir(dir);
    if (!d)
        return -1;
    int n = 0;
    names[0] = 0;
    for (struct dirent *e; (e = readdir(d));)
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
            n++;
            strncat(names, e->d_name, cap - strlen(names) - 2);
            strncat(names, " ", cap - strlen(names) - 1);
        }
    closedir(d);
    return n;
}

/* A process of ours still running with mark in its environment. */
static bool process_left(const char *mark)
{
    DIR *d = opendir("/proc");
    bool found = false;
    for (struct dirent *e; d && !found && (e = readdir(d));) {
        if (e->d_name[0] < '1' || e->d_name[0] > '9')
            continue;
        char p[300], env[1 << 15];
        snprintf(p, sizeof p, "/proc/%s/environ", e->d_name);
        int fd = open(p, O_RDONLY);
        if (fd < 0)
            continue;
        ssize_t n = read(fd, env, sizeof env - 1);
        close(fd);
        for (ssize_t i = 0; n > 0 && i < n; i += (ssize_t)strlen(env + i) + 1) {
            env[n] = 0;
            if (!strcmp(env + i, mark))
                found = true;
        }
    }
    if (d)
        closedir(d);
    return found;
}

/* Nothing of /etc/passwd (a line of it) nor of the environment in text. */
static void nothing_leaked(const char *text, const char *what)
{
    assert_null(strstr(text, SECRET));
    FILE *f = fopen("/etc/passwd", "r");
    char line[512];
    while (f && fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = 0;
        if (strlen(line) >= 12 && strstr(text, line))
            fail_msg("%s report holds a line of /etc/passwd: %s", what, line);
    }
    if (f)
        fclose(f);
    if (strstr(text, "PATH=") || strstr(text, "HOME="))
        fail_msg("%s report holds environment variables", what);
}

/* The course's ceilings: bad values are refused with a message, and the
 * budget ceiling cuts an exercise's larger budget (recursion.cu runs out of
 * it in the 391-block test: its replay line carries the cut budget). */
static void test_hostile_limits_are_checked_and_cut_the_budget(void **s)
{
    (void)s;
    assert_int_equal(sh(true, "%s grade 1 x.cu --max-memory 12Q", warpsim()), 2);
    assert_non_null(strstr(out, "--max-memory '12Q': expected a size"));
    assert_int_equal(sh(true, "%s grade 1 x.cu --max-memory 1K", warpsim()), 2); /* under 1 MiB */
    assert_int_equal(sh(true, "%s grade 1 x.cu --compile-memory -4G", warpsim()), 2);
    assert_int_equal(sh(true, "%s grade 1 x.cu --max-budget 0", warpsim()), 2);
    assert_non_null(strstr(out, "--max-budget '0'"));
    assert_int_equal(sh(true, "%s grade 1 x.cu --compile-timeout 0", warpsim()), 2);
    need_nvcc();
    int rc;
    grade_path(&rc, 1, "tests/grade/hostile/recursion.cu", "--runs 1 --max-budget 1500000");
    assert_int_equal(rc, 1);
    const JsonValue *f = finding(report, "budget-exceeded");
    assert_non_null(f);
    assert_non_null(strstr(json_get_string(f, "replay"), "--budget 1500000"));
}

/* warpsim's absolute path (the tests run it from other folders). */
static const char *self(void)
{
    static char buf[1024];
    if (!realpath(warpsim(), buf))
        fail_msg("%s: not found", warpsim());
    return buf;
}

/* CPU seconds of every child waited for so far. */
static double child_cpu(void)
{
    struct rusage u;
    getrusage(RUSAGE_CHILDREN, &u);
    return (double)u.ru_utime.tv_sec + u.ru_utime.tv_usec / 1e6 + (double)u.ru_stime.tv_sec + u.ru_stime.tv_usec / 1e6;
}

/* Make this case's folders; the submission goes in sub/. */
static void fresh_work(void)
{
    snprintf(work, sizeof work, "%s/warpsim-hostile-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    assert_non_null(mkdtemp(work));
    char p[400];
    const char *sub[] = {"sub", "cwd", "tmp"};
    for (int i = 0; i < 3; i++) {
        snprintf(p, sizeof p, "%s/%s", work, sub[i]);
        assert_int_equal(mkdir(p, 0700), 0);
    }
}

static void remove_work(void)
{
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", work);
    assert_int_equal(system(cmd), 0);
}

/* Grade sub/name (made by the caller) in all three formats and check
 * everything the file's banner promises; kind is the finding it must
 * produce (NULL: none needed, the kernel is fine). */
static void grade_hostile(const char *name, const char *kind, const char *extra)
{
    static const char *fmt[3] = {"json", "gradescope", "text"};
    char mark[64];
    snprintf(mark, sizeof mark, "WARPSIM_HOSTILE_MARK=%d", (int)getpid());
    double t0 = now(), cpu0 = child_cpu();
    for (int k = 0; k < 3; k++) {
        int rc = sh(true, "cd '%s/cwd' && env TMPDIR='%s/tmp' %s WARPSIM_SECRET=" SECRET " %s grade 1 '%s/sub/%s' "
                    LIMITS " %s --format %s --out '%s/report.%s'", work, work, mark, self(), work, name,
                    extra ? extra : "", fmt[k], work, fmt[k]);
        if (rc != 0 && rc != 1)
            fail_msg("grade %s --format %s: exit %d: %.600s", name, fmt[k], rc, out);
        char p[400];
        snprintf(p, sizeof p, "%s/report.%s", work, fmt[k]);
        slurp(p, reports[k], sizeof reports[k]);
        nothing_leaked(reports[k], fmt[k]);
        nothing_leaked(out, "stderr");
        if (!valid_utf8((const unsigned char *)reports[k], strlen(reports[k])))
            fail_msg("%s: the %s report is not valid UTF-8", name, fmt[k]);
        for (const char *c = reports[k]; *c; c++)
            if ((unsigned char)*c < 0x20 && *c != '\n')
                fail_msg("%s: the %s report holds control character 0x%02x", name, fmt[k], *c);
    }
    /* CPU time of the gradings and their children (nvcc): the wall time
     * also counts whatever else shares the machine, so it is only bounded
     * loosely */
    double secs = now() - t0, cpu = child_cpu() - cpu0;
    if (cpu > 60 || secs > 300)
        fail_msg("%s: three gradings took %.1f s of CPU, %.1f s of wall time", name, cpu, secs);
    char msg[256];
    free_report(NULL);
    report = json_parse(reports[0], strlen(reports[0]), msg, sizeof msg);
    if (!report)
        fail_msg("%s: the JSON report does not parse (%s)", name, msg);
    if (kind && !finding(report, kind))
        fail_msg("%s: no %s finding in %.1500s", name, kind, reports[0]);
    JsonValue *gs = json_parse(reports[1], strlen(reports[1]), msg, sizeof msg);
    if (!gs)
        fail_msg("%s: the Gradescope report does not parse (%s)", name, msg);
    const JsonValue *tests = json_get(gs, "tests");
    bool shape = json_get(gs, "score") && tests && tests->type == JSON_ARRAY && tests->n > 0 && json_get_string(gs, "output");
    double score = json_get_number(gs, "score", -1);
    json_free(gs);
    assert_true(shape);
    if (kind && strcmp(kind, "race") && strcmp(kind, "out-of-bounds") && strcmp(kind, "memory-limit") &&
        strcmp(kind, "budget-exceeded") && score != 0)
        fail_msg("%s: %s gives a score of %g, not 0", name, kind, score);
    /* nothing written outside the temporary folders, all of them gone */
    char names[2048], p[400];
    snprintf(p, sizeof p, "%s/cwd", work);
    if (entries(p, names, sizeof names) != 0)
        fail_msg("%s: written in the current folder: %s", name, names);
    snprintf(p, sizeof p, "%s/tmp", work);
    if (entries(p, names, sizeof names) != 0)
        fail_msg("%s: temporary folders left: %s", name, names);
    struct stat st;
    snprintf(p, sizeof p, "%s/sub/PWNED", work);
    if (stat(p, &st) == 0 || stat("PWNED", &st) == 0)
        fail_msg("%s: a command of the file name ran", name);
    assert_false(process_left(mark));
}

/* Copy tests/grade/hostile/NAME into a fresh sub/ under the same name. */
static void copy_case(const char *name)
{
    fresh_work();
    char cmd[1200];
    snprintf(cmd, sizeof cmd, "cp 'tests/grade/hostile/%s' '%s/sub/'", name, work);
    assert_int_equal(system(cmd), 0);
}

static void hostile_case(const char *name, const char *kind)
{
    need_nvcc();
    copy_case(name);
    grade_hostile(name, kind, NULL);
    remove_work();
}

/* Run finding f's replay line (what a student copies from the report);
 * its exit status, its output in out. */
static int run_replay(const JsonValue *f)
{
    const char *r = json_get_string(f, "replay");
    assert_non_null(r);
    assert_true(strncmp(r, "warpsim run ", 12) == 0);
    /* its printf output can be megabytes: keep the end, where the fault is */
    return sh(true, "cd '%s/cwd' && env TMPDIR='%s/tmp' %s %s > '%s/replay.txt' 2>&1; rc=$?; tail -c 4000 "
              "'%s/replay.txt'; exit $rc", work, work, self(), r + 8, work, work);
}

#define CASE(fn, file, kind) \
    static void fn(void **s) { (void)s; hostile_case(file, kind); }

CASE(test_hostile_command_in_the_file_name_never_runs, "p$(touch PWNED).cu", NULL)
CASE(test_hostile_line_to_etc_passwd_shows_no_line_of_it, "line_passwd.cu", "out-of-bounds")
CASE(test_hostile_line_to_proc_environ_shows_no_variable, "line_environ.cu", "out-of-bounds")
CASE(test_hostile_line_to_dev_stdin_is_refused_not_waited_on, "line_stdin.cu", "include-refused")
CASE(test_hostile_include_etc_passwd_is_refused, "include_passwd.cu", "include-refused")
CASE(test_hostile_include_dev_zero_is_refused, "include_zero.cu", "include-refused")
CASE(test_hostile_include_dev_stdin_is_refused, "include_stdin.cu", "include-refused")
CASE(test_hostile_include_climbing_out_of_the_folder_is_refused, "include_dotdot.cu", "include-refused")
CASE(test_hostile_bad_utf8_gives_valid_reports, "badutf8.cu", "out-of-bounds")
CASE(test_hostile_unsupported_instruction_is_a_finding, "unsupported.cu", "unsupported")
CASE(test_hostile_recursion_ends_at_the_budget, "recursion.cu", "budget-exceeded")
CASE(test_hostile_device_malloc_is_a_finding, "device_malloc.cu", "out-of-bounds")

/* 64 KiB of local memory a thread: the finding counts the blocks the
 * simulator holds at once, in the words.  Under --max-memory 64M
 * the 4-block test is the first one refused (64 MiB of local memory and
 * its buffers); the 1-block tests (16 MiB) run. */
static void test_hostile_local_memory_past_the_limit_is_a_finding(void **s)
{
    (void)s;
    need_nvcc();
    copy_case("local64k.cu");
    grade_hostile("local64k.cu", "memory-limit", NULL);
    const JsonValue *f = finding(report, "memory-limit");
    const char *msg = json_get_string(f, "message");
    assert_non_null(strstr(msg, "local memory: 64 KiB per thread \u00d7 256 threads \u00d7 4 resident blocks = 64 MiB"));
    assert_non_null(strstr(msg, "exceeds the 64 MiB limit; the test was not run"));
    assert_non_null(strstr(reports[2], "\u00d7 391 resident blocks = 6.1 GiB exceeds the 64 MiB limit"));
    assert_int_equal((int)json_get_number(f, "tests", 0), 2);
    /* the replay carries the grader's limit, so it ends the same way */
    assert_non_null(strstr(json_get_string(f, "replay"), " --max-memory 67108864"));
    assert_int_equal(run_replay(f), 1);
    assert_non_null(strstr(out, "kernel fault: memory-limit"));
    remove_work();
}
CASE(test_hostile_endless_loop_ends_at_the_budget, "endless.cu", "budget-exceeded")

/* --gpu-sim's stand-in for the GPU stops printf at the same ceiling: the
 * GPU side of the grade reports printf-limit too, and the grading still
 * ends in seconds (without it the stand-in printed 64 MiB per test). */
static void test_hostile_huge_printf_on_the_gpu_stand_in(void **s)
{
    (void)s;
    need_nvcc();
    copy_case("huge_printf.cu");
    grade_hostile("huge_printf.cu", "printf-limit", "--gpu-sim");
    assert_true(took < 20);
    const JsonValue *fs = json_get(report, "findings");
    int gpu = 0;
    for (size_t i = 0; i < fs->n; i++) {
        const char *k = json_get_string(&fs->items[i], "kind"), *b = json_get_string(&fs->items[i], "backend");
        gpu += k && b && !strcmp(k, "printf-limit") && !strcmp(b, "gpu");
    }
    assert_int_equal(gpu, 1);
    remove_work();
}

/* Every thread printing in a long loop once took 30 s to grade: the
 * grader's printf ceiling (GRADE_MAX_PRINTF) stops each test at 1 MiB with
 * a finding that says so, and the grading ends in seconds. */
static void test_hostile_huge_printf_ends_at_the_printf_limit(void **s)
{
    (void)s;
    need_nvcc();
    copy_case("huge_printf.cu");
    grade_hostile("huge_printf.cu", "printf-limit", NULL);
    assert_true(took < 10); /* the last of the three gradings (text) */
    const JsonValue *f = finding(report, "printf-limit");
    assert_non_null(strstr(json_get_string(f, "message"), "printf wrote more than 1 MiB in test 1 "));
    assert_non_null(strstr(json_get_string(f, "message"), "the test was stopped"));
    assert_int_equal((int)json_get_number(f, "line", 0), 6);
    assert_non_null(strstr(reports[2], "printf-limit at "));
    /* the replay carries the grader's printf ceiling, so it stops the same way */
    assert_non_null(strstr(json_get_string(f, "replay"), " --max-printf 1048576"));
    assert_int_equal(run_replay(f), 1);
    assert_non_null(strstr(out, "kernel fault: printf-limit"));
    assert_non_null(strstr(out, "printf wrote more than 1 MiB, this launch's printf limit"));
    remove_work();
}

static void test_hostile_ansi_escapes_never_reach_the_terminal_raw(void **s)
{
    (void)s;
    need_nvcc();
    copy_case("ansi.cu");
    grade_hostile("ansi.cu", "out-of-bounds", NULL);
    assert_null(strchr(reports[2], '\033'));
    assert_non_null(strstr(reports[2], "\\x1b[2J")); /* the line shown, escaped */
    remove_work();
}

static void test_hostile_inline_asm_ptxas_rejects_names_the_cu_line(void **s)
{
    (void)s;
    need_nvcc();
    copy_case("bad_asm.cu");
    grade_hostile("bad_asm.cu", "compile-error", NULL);
    const JsonValue *f = finding(report, "compile-error");
    assert_int_equal((int)json_get_number(f, "line", 0), 6);
    assert_null(strstr(json_get_string(f, "message"), "Ptx assembly aborted"));
    assert_null(strstr(reports[0], "warpsim-grade-")); /* no sandbox path in the compiler's output */
    remove_work();
}

static void test_hostile_symlink_beside_the_file_is_refused(void **s)
{
    (void)s;
    need_nvcc();
    copy_case("symlink_include.cu");
    char p[400];
    snprintf(p, sizeof p, "%s/sub/escape.h", work);
    assert_int_equal(symlink("/etc/passwd", p), 0);
    grade_hostile("symlink_include.cu", "include-refused", NULL);
    remove_work();
}

static void test_hostile_submission_that_is_a_symlink_is_refused(void **s)
{
    (void)s;
    fresh_work();
    char p[400];
    snprintf(p, sizeof p, "%s/sub/link.cu", work);
    assert_int_equal(symlink("/etc/passwd", p), 0);
    grade_hostile("link.cu", "submission-refused", NULL);
    assert_non_null(strstr(reports[0], "symbolic link"));
    remove_work();
}

static void test_hostile_ten_megabyte_file_is_refused_unread(void **s)
{
    (void)s;
    fresh_work();
    char p[400];
    snprintf(p, sizeof p, "%s/sub/huge.cu", work);
    FILE *f = fopen(p, "w");
    assert_non_null(f);
    for (int i = 0; i < 10 * 1024 * 16; i++)
        fputs("// padding padding padding padding padding padding padding padding\n", f);
    fclose(f);
    grade_hostile("huge.cu", "submission-refused", NULL);
    remove_work();
}

static void test_hostile_fifo_is_refused_without_waiting(void **s)
{
    (void)s;
    fresh_work();
    char p[400];
    snprintf(p, sizeof p, "%s/sub/fifo.cu", work);
    assert_int_equal(mkfifo(p, 0600), 0);
    grade_hostile("fifo.cu", "submission-refused", NULL);
    assert_true(took < 10);
    remove_work();
}

/* A missing file cannot be graded (exit 2), but the report is still
 * written, with a score of 0 and the reason. */
static void test_hostile_missing_file_still_writes_a_gradescope_report(void **s)
{
    (void)s;
    fresh_work();
    char p[400];
    snprintf(p, sizeof p, "%s/gs.json", work);
    assert_int_equal(sh(true, "%s grade 1 %s/sub/none.cu --format gradescope --out %s", warpsim(), work, p), 2);
    slurp(p, reports[1], sizeof reports[1]);
    char msg[256];
    JsonValue *gs = json_parse(reports[1], strlen(reports[1]), msg, sizeof msg);
    assert_non_null(gs);
    assert_int_equal((int)json_get_number(gs, "score", -1), 0);
    assert_non_null(strstr(json_get_string(gs, "output"), "not-graded"));
    json_free(gs);
    remove_work();
}

/* A stand-in nvcc that never finishes, first on PATH (and a child of
 * its own, `sleep`, in its process group). */
static void slow_nvcc(void)
{
    char p[400];
    snprintf(p, sizeof p, "%s/bin", work);
    assert_int_equal(mkdir(p, 0700), 0);
    snprintf(p, sizeof p, "%s/bin/nvcc", work);
    FILE *f = fopen(p, "w");
    assert_non_null(f);
    fputs("#!/bin/sh\nsleep 60\n", f);
    fclose(f);
    assert_int_equal(chmod(p, 0700), 0);
    snprintf(p, sizeof p, "cp tests/grade/atomic.cu '%s/sub/'", work);
    assert_int_equal(system(p), 0);
}

static void test_hostile_compile_past_its_timeout_is_killed_with_its_group(void **s)
{
    (void)s;
    fresh_work();
    slow_nvcc();
    char mark[64], p[400];
    snprintf(mark, sizeof mark, "WARPSIM_HOSTILE_MARK=t%d", (int)getpid());
    int rc = sh(true, "cd '%s/cwd' && env PATH='%s/bin':\"$PATH\" TMPDIR='%s/tmp' %s %s grade 1 '%s/sub/atomic.cu' "
                "--compile-timeout 1 --format json --out '%s/r.json'", work, work, work, mark, self(), work, work);
    assert_int_equal(rc, 1);
    assert_true(took < 15);
    snprintf(p, sizeof p, "%s/r.json", work);
    slurp(p, reports[0], sizeof reports[0]);
    char msg[256];
    report = json_parse(reports[0], strlen(reports[0]), msg, sizeof msg);
    assert_non_null(report);
    const JsonValue *f = finding(report, "compile-error");
    assert_non_null(f);
    assert_non_null(strstr(json_get_string(f, "message"), "within 1 seconds"));
    assert_false(process_left(mark));
    char names[1024];
    snprintf(p, sizeof p, "%s/tmp", work);
    assert_int_equal(entries(p, names, sizeof names), 0);
    remove_work();
}

static void test_hostile_sigterm_during_the_compile_kills_nvcc_too(void **s)
{
    (void)s;
    fresh_work();
    slow_nvcc();
    char mark[64], p[400];
    snprintf(mark, sizeof mark, "WARPSIM_HOSTILE_MARK=i%d", (int)getpid());
    sh(true, "cd '%s/cwd' && env PATH='%s/bin':\"$PATH\" TMPDIR='%s/tmp' %s %s grade 1 '%s/sub/atomic.cu' "
       "--format json --out '%s/r.json' & p=$!; sleep 1.5; kill -TERM $p; wait $p; echo rc=$?", work, work, work, mark,
       self(), work, work);
    /* a background job of sh ignores SIGINT, so SIGTERM (handled alike) */
    assert_non_null(strstr(out, "rc=143")); /* ended by the signal, raised again */
    assert_true(took < 15);
    assert_false(process_left(mark)); /* no nvcc (nor its sleep) left running */
    char names[1024];
    snprintf(p, sizeof p, "%s/tmp", work);
    assert_int_equal(entries(p, names, sizeof names), 0);
    remove_work();
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_teardown(test_hostile_command_in_the_file_name_never_runs, free_report),
        cmocka_unit_test_teardown(test_hostile_line_to_etc_passwd_shows_no_line_of_it, free_report),
        cmocka_unit_test_teardown(test_hostile_line_to_proc_environ_shows_no_variable, free_report),
        cmocka_unit_test_teardown(test_hostile_line_to_dev_stdin_is_refused_not_waited_on, free_report),
        cmocka_unit_test_teardown(test_hostile_include_etc_passwd_is_refused, free_report),
        cmocka_unit_test_teardown(test_hostile_include_dev_zero_is_refused, free_report),
        cmocka_unit_test_teardown(test_hostile_include_dev_stdin_is_refused, free_report),
        cmocka_unit_test_teardown(test_hostile_include_climbing_out_of_the_folder_is_refused, free_report),
        cmocka_unit_test_teardown(test_hostile_ansi_escapes_never_reach_the_terminal_raw, free_report),
        cmocka_unit_test_teardown(test_hostile_bad_utf8_gives_valid_reports, free_report),
        cmocka_unit_test_teardown(test_hostile_unsupported_instruction_is_a_finding, free_report),
        cmocka_unit_test_teardown(test_hostile_recursion_ends_at_the_budget, free_report),
        cmocka_unit_test_teardown(test_hostile_device_malloc_is_a_finding, free_report),
        cmocka_unit_test_teardown(test_hostile_inline_asm_ptxas_rejects_names_the_cu_line, free_report),
        cmocka_unit_test_teardown(test_hostile_local_memory_past_the_limit_is_a_finding, free_report),
        cmocka_unit_test_teardown(test_hostile_endless_loop_ends_at_the_budget, free_report),
        cmocka_unit_test_teardown(test_hostile_huge_printf_ends_at_the_printf_limit, free_report),
        cmocka_unit_test_teardown(test_hostile_huge_printf_on_the_gpu_stand_in, free_report),
        cmocka_unit_test_teardown(test_hostile_symlink_beside_the_file_is_refused, free_report),
        cmocka_unit_test_teardown(test_hostile_submission_that_is_a_symlink_is_refused, free_report),
        cmocka_unit_test_teardown(test_hostile_ten_megabyte_file_is_refused_unread, free_report),
        cmocka_unit_test_teardown(test_hostile_fifo_is_refused_without_waiting, free_report),
        cmocka_unit_test_teardown(test_hostile_missing_file_still_writes_a_gradescope_report, free_report),
        cmocka_unit_test_teardown(test_hostile_compile_past_its_timeout_is_killed_with_its_group, free_report),
        cmocka_unit_test_teardown(test_hostile_limits_are_checked_and_cut_the_budget, free_report),
        cmocka_unit_test_teardown(test_hostile_sigterm_during_the_compile_kills_nvcc_too, free_report),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
