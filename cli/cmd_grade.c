/* cmd_grade.c: `warpsim grade LESSON STUDENT.cu` -- the options, the
 * lesson's exercise (lesson.h) handed to the grader (grade/grade.h, which
 * does the work), a progress line on a terminal, the report written, and
 * the exit status. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd.h"
#include "grade.h"
#include "lesson.h"

/* The grader's progress as one status line on stderr, redrawn in place. */
static void progress_line(void *arg, const GradeExercise *ex, int test, int run, int runs)
{
    (void)arg;
    if (test < 0)
        fprintf(stderr, "\r\033[K");
    else
        fprintf(stderr, "\r\033[Kgrading: test %d of %d (%s), run %d of %d", test + 1, ex->ntests,
                ex->tests[test].name, run + 1, runs);
    fflush(stderr);
}

static const char grade_help[] =
    "usage: warpsim grade LESSON STUDENT.cu [--runs K] [--seed N] [--format text|json|gradescope]\n"
    "                     [--out FILE] [--gpu [--gpu-timeout S]] [--threads N]\n"
    "                     [--max-memory SIZE] [--max-budget N] [--compile-timeout S]\n"
    "                     [--compile-memory SIZE]\n"
    "\n"
    "Grades a student's kernel against a lesson's exercise.  The file is compiled with\n"
    "nvcc -ptx -lineinfo; the kernel is found by the exercise's name; each test of the\n"
    "exercise runs K times in the simulator -- run 0 with the default schedule, run 1\n"
    "with adversarial ones, the others with random schedules and atomic orders -- with\n"
    "race checking, bounds checking, deadlock detection and an instruction budget on.\n"
    "A test passes when every run gives the right answer with no finding: a right\n"
    "answer with a race fails.  Each finding says what, where (.cu line, block, thread),\n"
    "and gives the `warpsim run` (and `warpsim step`) command that replays it.\n"
    "\n"
    "  LESSON         the lesson number (1) or folder name (01-threads-and-races)\n"
    "  --runs K       runs per test (default %d)\n"
    "  --seed N       seed of the random runs: run k >= 1 uses N + k (default 0)\n"
    "  --format F     text (default), json, or gradescope (Gradescope's results.json)\n"
    "  --out FILE     write the report to FILE instead of standard output\n"
    "  --gpu          also run each test once on the GPU, in a child process with a\n"
    "                 fresh CUDA context, and report agreement (without a GPU: one\n"
    "                 line says so and grading goes on in the simulator)\n"
    "  --gpu-timeout S  seconds one GPU launch may take before the process is killed\n"
    "                 (default %d)\n"
    "  --gpu-sim      a second simulator stands in for the GPU (tests the --gpu path\n"
    "                 on a machine without one)\n"
    "  --threads N    run N simulator runs side by side (default: $WARPSIM_THREADS,\n"
    "                 else the cores available); the report is the same with any N\n"
    "\n"
    "Limits (a course sets them; nothing in a submission can raise them):\n"
    "  --max-memory SIZE      simulated memory of one launch: global buffers, shared\n"
    "                         memory of its blocks, local memory of its threads\n"
    "                         (default 256M; K, M, G suffixes); a test needing more\n"
    "                         is not run and a memory-limit finding says why\n"
    "  --max-budget N         warp instructions one launch may issue, whatever the\n"
    "                         exercise allows (default %llu)\n"
    "  --compile-timeout S    wall and CPU seconds of nvcc and of ptxas (default %d)\n"
    "  --compile-memory SIZE  their address space (default 4G)\n"
    "The submission is read once (a regular file of at most 8 MiB) and compiled in a\n"
    "private folder; an #include outside its folder, the course's headers (lessons/\n"
    "include: #include \"tile.cuh\") and the CUDA toolkit's headers is refused; reports\n"
    "show source lines of the submission only, escaped.\n"
    "\n"
    "Exit status: 0 every test passed, 1 a test failed (or the file does not compile),\n"
    "2 could not grade (unknown lesson, no exercise, no such file, no nvcc); the report\n"
    "is still written then, with a not-graded finding saying why.\n"
    "\n"
    "example:\n"
    "  warpsim grade 1 lessons/01-threads-and-races/exercise/block_sum.cu\n"
    "  warpsim grade 1 my_block_sum.cu --format gradescope --out /autograder/results/results.json\n";

static int usage_error(const char *fmt, const char *a)
{
    return cmd_usage("grade", fmt, a);
}

static bool parse_count(const char *v, long lo, long hi, long *out)
{
    char *end;
    errno = 0;
    long x = strtol(v, &end, 10);
    if (!*v || *end || errno || x < lo || x > hi)
        return false;
    *out = x;
    return true;
}

/* "256M", "1G", "65536": bytes, at least 1 MiB, at most 1 TiB. */
static bool parse_size(const char *v, uint64_t *out)
{
    char *end;
    errno = 0;
    if (!*v || *v == '-')
        return false;
    unsigned long long x = strtoull(v, &end, 10);
    int shift = !*end ? 0 : (*end == 'K' || *end == 'k') ? 10 : (*end == 'M' || *end == 'm') ? 20
                          : (*end == 'G' || *end == 'g') ? 30 : -1;
    if (errno || shift < 0 || (*end && end[1]) || x > (1ull << 40) >> shift)
        return false;
    *out = (uint64_t)x << shift;
    return *out >= (1u << 20);
}

int cmd_grade(int argc, char **argv)
{
    const char *lesson = NULL, *format = "text", *out = NULL;
    char inc[4096];
    GradeOptions o = {.runs = GRADE_DEFAULT_RUNS, .gpu_timeout = GRADE_GPU_TIMEOUT,
                      .include_dir = lesson_include_dir(inc, sizeof inc)};
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        bool has_val = i + 1 < argc;
        long v;
        int th = cmd_threads_option("grade", argc, argv, &i, &o.threads);
        if (th < 0)
            return 2;
        if (th > 0) {
            continue;
        } else if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            printf(grade_help, GRADE_DEFAULT_RUNS, GRADE_GPU_TIMEOUT, (unsigned long long)GRADE_MAX_BUDGET,
                   GRADE_COMPILE_TIMEOUT);
            return 0;
        } else if (!strcmp(a, "--gpu")) {
            o.gpu = true;
        } else if (!strcmp(a, "--gpu-sim")) {
            o.gpu = o.gpu_sim = true;
        } else if (!strcmp(a, "--runs") && has_val) {
            if (!parse_count(argv[++i], 1, 10000, &v))
                return usage_error("--runs '%s': expected a count from 1 to 10000", argv[i]);
            o.runs = (int)v;
        } else if (!strcmp(a, "--gpu-timeout") && has_val) {
            if (!parse_count(argv[++i], 1, 3600, &v))
                return usage_error("--gpu-timeout '%s': expected seconds from 1 to 3600", argv[i]);
            o.gpu_timeout = (int)v;
        } else if (!strcmp(a, "--compile-timeout") && has_val) {
            if (!parse_count(argv[++i], 1, 3600, &v))
                return usage_error("--compile-timeout '%s': expected seconds from 1 to 3600", argv[i]);
            o.compile_timeout = (int)v;
        } else if ((!strcmp(a, "--max-memory") || !strcmp(a, "--compile-memory")) && has_val) {
            uint64_t *dst = a[2] == 'm' ? &o.max_memory : &o.compile_memory;
            if (!parse_size(argv[++i], dst))
                return usage_error(a[2] == 'm' ? "--max-memory '%s': expected a size such as 256M or 1G"
                                               : "--compile-memory '%s': expected a size such as 4G", argv[i]);
        } else if (!strcmp(a, "--max-budget") && has_val) {
            char *end;
            const char *b = argv[++i];
            errno = 0;
            o.max_budget = strtoull(b, &end, 10);
            if (!*b || *end || b[0] == '-' || errno || !o.max_budget)
                return usage_error("--max-budget '%s': expected a positive count of warp instructions", b);
        } else if (!strcmp(a, "--seed") && has_val) {
            char *end;
            const char *s = argv[++i];
            errno = 0;
            o.seed = strtoull(s, &end, 0);
            if (!*s || *end || s[0] == '-' || errno)
                return usage_error("--seed '%s': expected a non-negative integer", s);
        } else if (!strcmp(a, "--format") && has_val) {
            format = argv[++i];
            if (strcmp(format, "text") && strcmp(format, "json") && strcmp(format, "gradescope"))
                return usage_error("--format '%s': expected text, json or gradescope", format);
        } else if (!strcmp(a, "--out") && has_val) {
            out = argv[++i];
        } else if (a[0] == '-' && a[1]) {
            return usage_error(has_val || a[1] != '-' ? "unknown option '%s'" : "option '%s' needs a value", a);
        } else if (!lesson) {
            lesson = a;
        } else if (!o.student) {
            o.student = a;
        } else {
            return usage_error("unexpected argument '%s' (one LESSON and one STUDENT.cu)", a);
        }
    }
    if (!o.threads && !cmd_threads_default("grade", &o.threads))
        return 2;
    if (!lesson || !o.student)
        return usage_error("%s", !lesson ? "missing LESSON and STUDENT.cu" : "missing STUDENT.cu");
    size_t sl = strlen(o.student);
    if (sl < 3 || strcmp(o.student + sl - 3, ".cu")) {
        fprintf(stderr, "warpsim grade: '%s' is not a .cu file: the grader takes the student's CUDA source and "
                        "compiles it itself (a .ptx runs with warpsim run)\n", o.student);
        return 2;
    }
    const Lesson *l = lesson_find(lesson);
    if (!l) {
        fprintf(stderr, "warpsim grade: no lesson '%s' (warpsim lesson --list shows them)\n", lesson);
        return 2;
    }
    if (!l->exercise) {
        fprintf(stderr, "warpsim grade: lesson %d (%s) has no graded exercise yet\n", l->number, l->slug);
        return 2;
    }
    if (isatty(2))
        o.progress = progress_line;
    GradeReport r;
    SimError err;
    int rc = 0;
    if (grade_run(l->exercise, &o, &r, &err) != SIM_OK) {
        fprintf(stderr, "warpsim grade: %s\n", err.msg);
        rc = 2;
        if (!r.ex) { /* nothing graded: bad options, no report to write */
            grade_report_free(&r);
            return 2;
        }
    }
    if (r.gpu_requested && !r.gpu_ran)
        fprintf(stderr, "warpsim grade: --gpu: %s; graded on the simulator only\n",
                r.gpu_note[0] ? r.gpu_note : "the GPU part did not run");
    FILE *f = out ? fopen(out, "w") : stdout;
    if (!f) {
        fprintf(stderr, "warpsim grade: %s: cannot write: %s\n", out, strerror(errno));
        grade_report_free(&r);
        return 2;
    }
    if (!strcmp(format, "json"))
        grade_write_json(f, &r);
    else if (!strcmp(format, "gradescope"))
        grade_write_gradescope(f, &r);
    else
        grade_write_text(f, &r);
    if (!rc)
        rc = r.passed ? 0 : 1;
    if (out && fclose(f)) {
        fprintf(stderr, "warpsim grade: %s: write failed: %s\n", out, strerror(errno));
        rc = 2;
    }
    grade_report_free(&r);
    return rc;
}
