/* grade.c: the grader's top (grade.h) -- grade_run reads the submission,
 * compiles it (grade_compile.c), finds its kernel and checks its
 * parameters, prepares each test's launch, runs the tests in the simulator
 * (grade_sim.c) and, when asked, on a GPU (grade_gpu.c), then scores the
 * tests and the rubric (grade_rubric.c).  The parts below it never call back
 * up here (grade_int.h says who calls whom). */
#include "grade_int.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "argspec.h"
#include "source.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* ---- findings before the runs ---------------------------------------------- */

static void not_run(GradeReport *r, const char *why)
{
    for (int i = 0; i < r->nitems; i++)
        snprintf(r->items[i].output, sizeof r->items[i].output, "%s", why);
}

/* Every item's score 0 and its output why; a finding of kind says it once. */
static void finding_for_all(GradeCtx *c, const char *kind, int line, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void finding_for_all(GradeCtx *c, const char *kind, int line, const char *fmt, ...)
{
    GradeFinding f;
    grade_finding_init(c, &f, kind, -1, -1);
    f.backend[0] = 0;
    snprintf(f.file, sizeof f.file, "%s", c->r->student);
    f.line = line;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(f.msg, sizeof f.msg, fmt, ap);
    va_end(ap);
    grade_finding_add(c, -1, &f, NULL);
    char why[sizeof c->r->items[0].output];
    snprintf(why, sizeof why, "not run (%s): %s", kind, f.msg);
    not_run(c->r, why);
}

static void compile_failed(GradeCtx *c, GradeCompileStatus st, char *log, const char *why)
{
    GradeReport *r = c->r;
    GradeFinding f;
    grade_finding_init(c, &f, "compile-error", -1, -1);
    f.backend[0] = 0;
    r->compiler_output = log;
    char file[256], emsg[900];
    int line, col;
    if (st == GRADE_COMPILE_TIMED_OUT) {
        snprintf(f.file, sizeof f.file, "%s", r->student);
        snprintf(f.msg, sizeof f.msg, "nvcc did not finish within %d seconds and was stopped", c->cin.limits.cpu_seconds);
    } else if (log && grade_compile_first_error(log, file, sizeof file, &line, &col, emsg, sizeof emsg)) {
        grade_student_file(c, file, f.file, sizeof f.file);
        f.line = line;
        f.col = col;
        snprintf(f.msg, sizeof f.msg, "%s", emsg);
        if (!line && strstr(emsg, "Entry function")) /* ptxas: about the kernel as a whole */
            f.line = grade_kernel_line(r, c->ex->kernel);
    } else {
        snprintf(f.file, sizeof f.file, "%s", r->student);
        snprintf(f.msg, sizeof f.msg, "%s", *why ? why : "nvcc failed (its messages are below)");
    }
    grade_finding_add(c, -1, &f, NULL);
    not_run(r, "not run: the file does not compile");
}

/* The line of the first #include naming name's last part, 0 when none. */
static int include_line(const GradeReport *r, const char *name)
{
    const char *base = strrchr(name, '/');
    base = base ? base + 1 : name;
    int line = 1;
    for (const char *p = r->source; p && *p; line++) {
        const char *nl = strchr(p, '\n');
        size_t n = nl ? (size_t)(nl - p) : strlen(p);
        const char *hash = memchr(p, '#', n), *inc = hash ? memmem(hash, n - (size_t)(hash - p), "include", 7) : NULL;
        if (inc && *base && memmem(inc, n - (size_t)(inc - p), base, strlen(base)))
            return line;
        p = nl ? nl + 1 : p + n;
    }
    return 0;
}

/* A name messages may carry as it is: no control characters, quotes or
 * backslashes. */
static bool printable(const char *s)
{
    for (; *s; s++)
        if ((unsigned char)*s < 0x20 || *s == 0x7f || *s == '"' || *s == '\\')
            return false;
    return true;
}

/* Read the submission once, through a sandbox's copy: a FIFO, a device, a
 * folder or a file past SOURCE_MAX_CU is refused without being read. */
static SimStatus read_submission(GradeCtx *c, SimError *err)
{
    GradeReport *r = c->r;
    char msg[1024];
    struct stat st;
    if (stat(r->student, &st) != 0)
        return sim_error_set(err, SIM_ERR_IO, r->student, 0, 0, "%s: cannot open: %s", r->student, strerror(errno));
    /* a link could make the report show any file the grader can read */
    if (lstat(r->student, &st) == 0 && S_ISLNK(st.st_mode)) {
        finding_for_all(c, "submission-refused", 0, "the submission was not read: %s is a symbolic link (a regular "
                        ".cu file is graded)", printable(r->student) ? r->student : "the file");
        return SIM_OK;
    }
    Sandbox *sb = sandbox_new("submit", msg, sizeof msg);
    if (!sb)
        return sim_error_set(err, SIM_ERR_NODEVICE, "", 0, 0, "%s", msg);
    if (sandbox_copy_in(sb, r->student, "kernel.cu", SOURCE_MAX_CU, msg, sizeof msg))
        r->source = sandbox_read(sb, "kernel.cu", SOURCE_MAX_CU, &r->source_len, msg, sizeof msg);
    sandbox_free(sb);
    if (!r->source)
        finding_for_all(c, "submission-refused", 0, "the submission was not read: %s (a regular .cu file of at most "
                        "%u MiB is graded)", msg, SOURCE_MAX_CU >> 20);
    return SIM_OK;
}

static bool signature_ok(GradeCtx *c, DeviceModule *mod)
{
    const GradeExercise *ex = c->ex;
    SimError err;
    sim_error_clear(&err);
    GradeFinding f;
    grade_finding_init(c, &f, "signature", -1, -1);
    snprintf(f.file, sizeof f.file, "%s", c->r->student);
    c->entry = device_find_kernel(mod, ex->kernel, &err);
    if (!c->entry) {
        snprintf(f.msg, sizeof f.msg, "%s.  The exercise needs: %s", err.msg, ex->signature);
        grade_finding_add(c, -1, &f, NULL);
        not_run(c->r, "not run: the kernel was not found");
        return false;
    }
    f.line = grade_kernel_line(c->r, ex->kernel);
    int np = device_kernel_nparams(mod, c->entry);
    bool ok = np == ex->nparams;
    for (int i = 0; ok && i < np; i++)
        ok = device_kernel_param_size(mod, c->entry, i) == ex->params[i].size;
    if (ok)
        return true;
    int k = snprintf(f.msg, sizeof f.msg, "%s takes %d parameter%s (", ex->kernel, np, np == 1 ? "" : "s");
    for (int i = 0; i < np && k > 0 && (size_t)k < sizeof f.msg; i++)
        k += snprintf(f.msg + k, sizeof f.msg - (size_t)k, "%s%d bytes", i ? ", " : "",
                      device_kernel_param_size(mod, c->entry, i));
    if (k > 0 && (size_t)k < sizeof f.msg)
        snprintf(f.msg + k, sizeof f.msg - (size_t)k, "), but the exercise needs: %s", ex->signature);
    grade_finding_add(c, -1, &f, NULL);
    not_run(c->r, "not run: the kernel's parameters do not match the exercise");
    return false;
}

/* ---- the whole grading ------------------------------------------------------ */

/* Parse each test's launch: false (with err filled) when the exercise's
 * own --arg specs are wrong. */
static bool prepare_tests(GradeCtx *c, SimError *err)
{
    const GradeExercise *ex = c->ex;
    char msg[512];
    for (int ti = 0; ti < ex->ntests; ti++) {
        GradeTest *T = &c->tests[ti];
        T->t = &ex->tests[ti];
        ex->launch(T->t, &T->launch);
        launch_spec_init(&T->spec);
        T->spec.kernel = c->entry;
        T->spec.grid = T->launch.grid;
        T->spec.block = T->launch.block;
        T->spec.have_grid = T->spec.have_block = true;
        T->spec.smem = T->launch.smem;
        if (T->launch.nargs != ex->nparams) {
            sim_error_set(err, SIM_ERR_USAGE, "", 0, 0, "the exercise's launch() gave %d arguments for %s's %d "
                          "parameters", T->launch.nargs, ex->kernel, ex->nparams);
            return false;
        }
        for (int i = 0; i < T->launch.nargs; i++, T->spec.nargs++)
            if (!argspec_parse(T->launch.args[i], &T->spec.args[i], msg, sizeof msg)) {
                sim_error_set(err, SIM_ERR_USAGE, "", 0, 0, "%s", msg);
                return false;
            }
        T->budget = grade_exercise_budget(ex, &T->launch);
        uint64_t ceiling = c->o->max_budget ? c->o->max_budget : GRADE_MAX_BUDGET;
        if (T->budget > ceiling)
            T->budget = ceiling;
    }
    return true;
}

/* What grade_run needs before it starts: a valid exercise and options. */
static bool inputs_ok(const GradeExercise *ex, const GradeOptions *o, SimError *err)
{
    char msg[256];
    if (!grade_exercise_valid(ex, msg, sizeof msg)) {
        sim_error_set(err, SIM_ERR_USAGE, "", 0, 0, "%s", msg);
        return false;
    }
    if (!o || !o->student || !*o->student) {
        sim_error_set(err, SIM_ERR_USAGE, "", 0, 0, "no student file to grade");
        return false;
    }
    if (o->runs < 1) {
        sim_error_set(err, SIM_ERR_USAGE, "", 0, 0, "runs per test must be at least 1, not %d", o->runs);
        return false;
    }
    return true;
}

SimStatus grade_run(const GradeExercise *ex, const GradeOptions *o, GradeReport *r, SimError *err)
{
    double t0 = now();
    memset(r, 0, sizeof *r);
    sim_error_clear(err);
    if (!inputs_ok(ex, o, err))
        return err->status;
    r->ex = ex;
    r->student = o->student;
    r->runs = o->runs;
    r->seed = o->seed;
    r->gpu_requested = o->gpu;
    r->max_score = grade_exercise_max_score(ex);
    r->nitems = ex->ntests + ex->nrubric;
    r->items = calloc((size_t)r->nitems, sizeof *r->items);
    GradeCtx c = {.r = r, .o = o, .ex = ex, .tests = calloc((size_t)ex->ntests, sizeof(GradeTest))};
    if (!r->items || !c.tests) {
        free(c.tests);
        return sim_error_set(err, SIM_ERR_NOMEM, "", 0, 0, "out of memory");
    }
    for (int i = 0; i < r->nitems; i++) {
        GradeItem *it = &r->items[i];
        it->rubric = i >= ex->ntests;
        snprintf(it->name, sizeof it->name, "%s%s", it->rubric ? "rubric: " : "",
                 it->rubric ? ex->rubric[i - ex->ntests].name : ex->tests[i].name);
        it->max_score = it->rubric ? ex->rubric[i - ex->ntests].points : ex->tests[i].points;
    }
    Device *dev = NULL;
    char *log = NULL;
    char msg[1024];
    if (read_submission(&c, err) != SIM_OK || !r->source)
        goto done;
    char folder[4096];
    if (realpath(o->student, folder)) {
        char *slash = strrchr(folder, '/');
        if (slash)
            slash[slash == folder] = 0;
    } else {
        folder[0] = 0;
    }
    c.cin.source = r->source;
    c.cin.source_len = r->source_len;
    c.cin.shown = printable(o->student) ? o->student : "submission.cu";
    c.cin.folder = folder[0] ? folder : NULL;
    c.cin.include_dir = o->include_dir;
    sandbox_limits_default(&c.cin.limits);
    c.cin.limits.wall_seconds = c.cin.limits.cpu_seconds =
        (unsigned)(o->compile_timeout > 0 ? o->compile_timeout : GRADE_COMPILE_TIMEOUT);
    c.cin.limits.address_space = o->compile_memory ? o->compile_memory : GRADE_COMPILE_MEMORY;
    msg[0] = 0;
    GradeCompileStatus cs = grade_compile(&c.cin, ex->arch, &c.ptx, &c.ptx_len, &log, msg, sizeof msg);
    if (cs == GRADE_COMPILE_UNAVAILABLE) {
        sim_error_set(err, SIM_ERR_NODEVICE, "", 0, 0, "%s", msg);
        goto done;
    }
    if (cs == GRADE_COMPILE_REFUSED) {
        finding_for_all(&c, "include-refused", include_line(r, msg), "the compile would read %s (an #include "
                        "or #line names it): refused; a submission may include regular files of its own folder and "
                        "the CUDA toolkit's headers only", msg);
        goto score;
    }
    if (cs != GRADE_COMPILED) {
        compile_failed(&c, cs, log, msg);
        goto score;
    }
    r->compiled = true;
    SimError derr;
    sim_error_clear(&derr);
    DeviceModule *mod;
    if (!(dev = device_open_sim(ex->arch, &derr))) {
        sim_error_set(err, derr.status ? derr.status : SIM_ERR_UNSUPPORTED, "", 0, 0, "%s", derr.msg);
        goto done;
    }
    if (device_load_ptx(dev, o->student, c.ptx, c.ptx_len, &mod, &derr)) {
        /* an instruction the simulator lacks, a call to malloc, ...: the
         * student's to know, with a score of 0 and the reason */
        char where[32] = "";
        if (derr.line)
            snprintf(where, sizeof where, "PTX line %d: ", derr.line);
        finding_for_all(&c, "unsupported", 0, "the simulator cannot run this kernel: %s%s", where, derr.msg);
        goto score;
    }
    if (!signature_ok(&c, mod))
        goto score;
    if (!prepare_tests(&c, err))
        goto done; /* the exercise itself is wrong */
    grade_sim_runs(&c);
    if (o->gpu)
        grade_gpu(&c);
score:
    grade_score_tests(&c);
    grade_score_rubric(&c);
    r->score = 0;
    r->passed = r->compiled;
    for (int i = 0; i < r->nitems; i++) {
        r->score += r->items[i].score;
        if (!r->items[i].rubric && !r->items[i].passed)
            r->passed = false;
    }
done:
    if (err->status != SIM_OK) {
        /* not the submission's doing, but the report still says why no
         * test ran, so a course's platform shows a reason */
        char why[sizeof err->msg];
        snprintf(why, sizeof why, "%s", err->msg);
        finding_for_all(&c, "not-graded", 0, "the grader could not grade this submission: %s", why);
        for (int i = 0; i < r->nitems; i++)
            r->items[i].score = 0, r->items[i].passed = false;
        r->score = 0;
        r->passed = false;
    }
    device_close(dev);
    if (!r->compiler_output)
        free(log);
    for (int ti = 0; ti < ex->ntests; ti++) {
        launch_spec_free(&c.tests[ti].spec);
        for (int i = 0; i < GRADE_MAX_PARAMS; i++)
            free(c.tests[ti].sim_out[i]);
    }
    free(c.tests);
    free(c.ptx);
    free(c.seen);
    r->seconds = now() - t0;
    return err->status;
}

void grade_report_free(GradeReport *r)
{
    free(r->source);
    free(r->compiler_output);
    free(r->items);
    free(r->findings);
    memset(r, 0, sizeof *r);
}
