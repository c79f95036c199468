/* cmd_grade.c: `warpsim grade LESSON STUDENT.cu ...` -- the options, the
 * lesson's exercise (lesson.h) handed to the grader (grade/grade.h, which
 * does the work), a progress line on a terminal, the report written, and
 * the exit status.  Several submissions (or --out-dir) grade a class side
 * by side (grade_class_run): a report each, then a summary table. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cmd.h"
#include "grade.h"
#include "lesson.h"
#include "progress.h"

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
    "       warpsim grade LESSON A.cu B.cu ... [--out-dir DIR] [the options above but --out]\n"
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
    "  --threads N    run N simulator runs (or submissions) side by side (default:\n"
    "                 $WARPSIM_THREADS, else the cores available); the report is the\n"
    "                 same with any N\n"
    "  --out-dir DIR  a class: write each submission's report to DIR (made when\n"
    "                 missing) as NAME.txt, NAME.json or results-NAME.json (text,\n"
    "                 json, gradescope) for NAME.cu\n"
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
    "A class: give several .cu files (or one with --out-dir).  They are graded side by\n"
    "side, --threads N cores shared among them, each compile and its runs in a worker,\n"
    "so a class goes nearly as fast as separate processes.  Each report is the very\n"
    "report `warpsim grade LESSON FILE` writes: into --out-dir DIR, else to standard\n"
    "output one after another in the order given.  Then a summary table (submission,\n"
    "score, tests passed, findings, seconds; in the order given) on standard output,\n"
    "or on standard error when the reports went there.  Every file must exist and end\n"
    "in .cu, and with --out-dir no two may share a file name, or nothing is graded.\n"
    "\n"
    "Exit status: 0 every test passed, 1 a test failed (or the file does not compile),\n"
    "2 could not grade (unknown lesson, no exercise, no such file, no nvcc); the report\n"
    "is still written then, with a not-graded finding saying why.  A class exits with\n"
    "the highest of its submissions' statuses (0 all passed, 1 all graded and one or\n"
    "more failed, 2 one or more not graded or a report not written); 2 before any\n"
    "grading for bad usage, a missing or non-.cu file, or a shared file name.\n"
    "\n"
    "example:\n"
    "  warpsim grade 1 lessons/01-threads-and-races/exercise/block_sum.cu\n"
    "  warpsim grade 1 my_block_sum.cu --format gradescope --out /autograder/results/results.json\n"
    "  warpsim grade 1 submissions/*.cu --format json --out-dir reports\n";

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

/* Write r in format to f. */
static void write_report(FILE *f, const char *format, const GradeReport *r)
{
    if (!strcmp(format, "json"))
        grade_write_json(f, r);
    else if (!strcmp(format, "gradescope"))
        grade_write_gradescope(f, r);
    else
        grade_write_text(f, r);
}

/* ---- a class ------------------------------------------------------------------ */

/* What the summary keeps of one submission. */
typedef struct {
    int score, max_score, passed, ntests, nfindings;
    double seconds;
    int rc;                      /* single grade's exit status for it */
} Row;

typedef struct {
    const char *const *students;
    int n;
    const char *format, *out_dir;
    Row *rows;
    Progress progress;
    char gpu_note[512];          /* the last --gpu note printed (said once) */
} ClassRun;

/* NAME of dir/NAME.cu */
static void name_of(const char *path, char *buf, size_t cap)
{
    const char *b = strrchr(path, '/');
    b = b ? b + 1 : path;
    size_t n = strlen(b) - 3; /* ".cu", checked before */
    snprintf(buf, cap, "%.*s", (int)n, b);
}

/* Where --out-dir puts a submission's report: DIR/NAME.txt, DIR/NAME.json
 * or DIR/results-NAME.json (Gradescope's file name, NAME's own). */
static void report_path(const char *out_dir, const char *format, const char *student, char *buf, size_t cap)
{
    char name[4096];
    name_of(student, name, sizeof name);
    if (!strcmp(format, "gradescope"))
        snprintf(buf, cap, "%s/results-%s.json", out_dir, name);
    else
        snprintf(buf, cap, "%s/%s.%s", out_dir, name, strcmp(format, "json") ? "txt" : "json");
}

static void class_done(void *arg, int i, const GradeReport *r, SimStatus st, const SimError *err)
{
    ClassRun *k = arg;
    const char *who = k->students[i];
    Row *row = &k->rows[i];
    progress_end(&k->progress);
    row->rc = 0;
    if (st != SIM_OK) {
        fprintf(stderr, "warpsim grade: %s: %s\n", who, err->msg);
        row->rc = 2;
    }
    if (r->gpu_requested && !r->gpu_ran && strcmp(k->gpu_note, r->gpu_note)) {
        snprintf(k->gpu_note, sizeof k->gpu_note, "%s", r->gpu_note);
        fprintf(stderr, "warpsim grade: --gpu: %s; graded on the simulator only\n",
                r->gpu_note[0] ? r->gpu_note : "the GPU part did not run");
    }
    char path[8300];
    FILE *f = stdout;
    if (k->out_dir) {
        report_path(k->out_dir, k->format, who, path, sizeof path);
        if (!(f = fopen(path, "w")))
            fprintf(stderr, "warpsim grade: %s: cannot write: %s\n", path, strerror(errno));
    }
    if (f) {
        write_report(f, k->format, r);
        if (k->out_dir ? fclose(f) != 0 : fflush(f) != 0) {
            fprintf(stderr, "warpsim grade: %s: write failed: %s\n", k->out_dir ? path : "standard output",
                    strerror(errno));
            f = NULL;
        }
    }
    if (!f)
        row->rc = 2;
    else if (!row->rc)
        row->rc = r->passed ? 0 : 1;
    row->score = r->score;
    row->max_score = r->max_score;
    row->nfindings = r->nfindings;
    row->seconds = r->seconds;
    row->ntests = r->ex->ntests;
    for (int t = 0; t < r->nitems; t++)
        row->passed += !r->items[t].rubric && r->items[t].passed;
    progress_update(&k->progress, (uint64_t)i + 1, (uint64_t)k->n);
}

/* The summary table, in the order given, and the class's exit status. */
static int class_summary(const ClassRun *k, FILE *o, double seconds)
{
    int w = (int)strlen("submission"), rc = 0, counts[3] = {0};
    for (int i = 0; i < k->n; i++) {
        int l = (int)strlen(k->students[i]);
        w = l > w ? (l > 60 ? 60 : l) : w;
    }
    fprintf(o, "%-*s  %9s  %7s  %8s  %7s\n", w, "submission", "score", "tests", "findings", "seconds");
    for (int i = 0; i < k->n; i++) {
        const Row *r = &k->rows[i];
        char score[32], tests[32];
        snprintf(score, sizeof score, "%d/%d", r->score, r->max_score);
        snprintf(tests, sizeof tests, "%d/%d", r->passed, r->ntests);
        fprintf(o, "%-*s  %9s  %7s  %8d  %7.1f%s\n", w, k->students[i], score, tests, r->nfindings, r->seconds,
                r->rc == 2 ? "  (not graded)" : "");
        counts[r->rc]++;
        rc = r->rc > rc ? r->rc : rc;
    }
    fprintf(o, "%d submission%s in %.1f s: %d passed, %d failed, %d not graded\n", k->n, k->n == 1 ? "" : "s",
            seconds, counts[0], counts[1], counts[2]);
    return rc;
}

static double wall_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Everything checked before anything runs: each file there, and with
 * --out-dir no two reports at one path and the folder usable. */
static bool class_inputs_ok(const char *const *students, int n, const char *out_dir, const char *format)
{
    for (int i = 0; i < n; i++) {
        struct stat st;
        if (stat(students[i], &st) != 0) {
            fprintf(stderr, "warpsim grade: %s: cannot open: %s (nothing was graded)\n", students[i], strerror(errno));
            return false;
        }
        if (!S_ISREG(st.st_mode)) {
            fprintf(stderr, "warpsim grade: %s: not a regular file (nothing was graded)\n", students[i]);
            return false;
        }
    }
    if (!out_dir)
        return true;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < i; j++) {
            char a[8300], b[8300];
            report_path(out_dir, format, students[i], a, sizeof a);
            report_path(out_dir, format, students[j], b, sizeof b);
            if (!strcmp(a, b)) {
                fprintf(stderr, "warpsim grade: %s and %s have the same file name: both reports would be %s; "
                                "rename one, or grade them into separate --out-dir folders (nothing was graded)\n",
                        students[j], students[i], a);
                return false;
            }
        }
    struct stat st;
    if (mkdir(out_dir, 0777) != 0 && (errno != EEXIST || stat(out_dir, &st) != 0 || !S_ISDIR(st.st_mode))) {
        fprintf(stderr, "warpsim grade: --out-dir %s: %s (nothing was graded)\n", out_dir,
                errno == EEXIST ? "not a folder" : strerror(errno));
        return false;
    }
    return true;
}

static int grade_class(const Lesson *l, const GradeOptions *o, const char *const *students, int n,
                       const char *format, const char *out_dir)
{
    if (!class_inputs_ok(students, n, out_dir, format))
        return 2;
    ClassRun k = {.students = students, .n = n, .format = format, .out_dir = out_dir};
    k.rows = calloc((size_t)n, sizeof *k.rows);
    if (!k.rows) {
        fprintf(stderr, "warpsim grade: out of memory\n");
        return 2;
    }
    progress_start(&k.progress, "grade", "submissions", getenv("WARPSIM_NO_PROGRESS") != NULL);
    double t0 = wall_now();
    SimError err;
    int rc;
    if (grade_class_run(l->exercise, o, students, n, class_done, &k, &err) != SIM_OK) {
        fprintf(stderr, "warpsim grade: %s\n", err.msg);
        rc = 2;
    } else {
        progress_end(&k.progress);
        /* with the reports on standard output, the table goes beside them
         * on standard error, so what stdout carries stays reports only */
        rc = class_summary(&k, out_dir ? stdout : stderr, wall_now() - t0);
    }
    free(k.rows);
    return rc;
}

/* The command, with students (argc slots) for the .cu files. */
static int grade_main(int argc, char **argv, const char **students)
{
    const char *lesson = NULL, *format = "text", *out = NULL, *out_dir = NULL;
    int nstudents = 0;
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
        } else if (!strcmp(a, "--out-dir") && has_val) {
            out_dir = argv[++i];
            if (!*out_dir)
                return usage_error("--out-dir '%s': expected a folder", out_dir);
        } else if (a[0] == '-' && a[1]) {
            return usage_error(has_val || a[1] != '-' ? "unknown option '%s'" : "option '%s' needs a value", a);
        } else if (!lesson) {
            lesson = a;
        } else {
            students[nstudents++] = a;
        }
    }
    if (!o.threads && !cmd_threads_default("grade", &o.threads))
        return 2;
    if (!lesson || !nstudents)
        return usage_error("%s", !lesson ? "missing LESSON and STUDENT.cu" : "missing STUDENT.cu");
    bool class = nstudents > 1 || out_dir;
    if (class && out)
        return usage_error("%s", nstudents > 1 ? "--out FILE takes one submission; several are written with "
                                                 "--out-dir DIR"
                                               : "--out FILE and --out-dir DIR: one or the other");
    for (int i = 0; i < nstudents; i++) {
        size_t sl = strlen(students[i]);
        if (sl < 3 || strcmp(students[i] + sl - 3, ".cu")) {
            fprintf(stderr, "warpsim grade: '%s' is not a .cu file: the grader takes the student's CUDA source and "
                            "compiles it itself (a .ptx runs with warpsim run)%s\n", students[i],
                    class ? " (nothing was graded)" : "");
            return 2;
        }
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
    if (class)
        return grade_class(l, &o, students, nstudents, format, out_dir);
    o.student = students[0];
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
    write_report(f, format, &r);
    if (!rc)
        rc = r.passed ? 0 : 1;
    if (out && fclose(f)) {
        fprintf(stderr, "warpsim grade: %s: write failed: %s\n", out, strerror(errno));
        rc = 2;
    }
    grade_report_free(&r);
    return rc;
}

int cmd_grade(int argc, char **argv)
{
    const char **students = calloc((size_t)argc + 1, sizeof *students);
    if (!students) {
        fprintf(stderr, "warpsim grade: out of memory\n");
        return 2;
    }
    int rc = grade_main(argc, argv, students);
    free(students);
    return rc;
}
