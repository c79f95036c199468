/* grade.c: the grading behind `warpsim grade` -- compile the submission,
 * find its kernel, run every test of the exercise K times in the simulator
 * with every check on, turn what went wrong into findings, score the tests
 * and the rubric (grade.h).  Rubric scoring is in grade_rubric.c, the
 * launches and replay commands in grade_launch.c, the GPU part in
 * grade_gpu.c, the writers in grade_report.c. */
#include "grade_int.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "argspec.h"
#include "source.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* ---- findings ------------------------------------------------------------- */

int grade_finding_add(GradeCtx *c, int ti, const GradeFinding *f, const char *test_msg)
{
    GradeReport *r = c->r;
    int idx = -1;
    for (int i = 0; i < r->nfindings && idx < 0; i++) {
        const GradeFinding *g = &r->findings[i];
        if (!strcmp(g->kind, f->kind) && !strcmp(g->file, f->file) && g->line == f->line &&
            !strcmp(g->backend, f->backend))
            idx = i;
    }
    if (idx < 0) {
        if (r->nfindings == c->findings_cap) {
            int cap = c->findings_cap ? 2 * c->findings_cap : 16;
            GradeFinding *nf = realloc(r->findings, (size_t)cap * sizeof *nf);
            long *nl = nf ? realloc(c->seen, (size_t)cap * sizeof *nl) : NULL;
            if (nf)
                r->findings = nf;
            if (!nf || !nl)
                return -1; /* out of memory: the finding is dropped, grading goes on */
            c->seen = nl;
            c->findings_cap = cap;
        }
        idx = r->nfindings++;
        r->findings[idx] = *f;
        r->findings[idx].count = 0;
        r->findings[idx].tests_mask = 0;
        c->seen[idx] = -1;
    }
    GradeFinding *g = &r->findings[idx];
    /* one run reporting the same line twice (a read-after-write and a
     * write-after-read) counts once */
    long key = (long)(ti + 1) * 100000 + f->run + 1;
    if (c->seen[idx] == key && ti >= 0)
        return idx;
    c->seen[idx] = key;
    g->count++;
    if (ti >= 0 && ti < 64)
        g->tests_mask |= 1ull << ti;
    if (ti < 0)
        return idx;
    GradeTest *T = &c->tests[ti];
    for (int h = 0; h < T->nhits; h++)
        if (T->hits[h].finding == idx) {
            T->hits[h].runs++;
            return idx;
        }
    if (T->nhits == GRADE_MAX_HITS) {
        T->more_hits++;
        return idx;
    }
    GradeHit *h = &T->hits[T->nhits++];
    h->finding = idx;
    h->runs = 1;
    h->first_run = f->run;
    snprintf(h->msg, sizeof h->msg, "%.599s", test_msg ? test_msg : f->msg);
    return idx;
}

/* ---- findings' fields ------------------------------------------------------ */

/* The submission's own path when file names the same file, else file. */
static void student_file(const GradeCtx *c, const char *file, char *out, size_t cap)
{
    char a[4096], b[4096];
    if (!*file || (realpath(file, a) && realpath(c->r->student, b) && !strcmp(a, b)))
        snprintf(out, cap, "%s", c->r->student);
    else
        snprintf(out, cap, "%s", file);
}

static bool is_ident(char ch)
{
    return ch == '_' || (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9');
}

/* The line declaring the kernel in the student's source, 0 when not found:
 * where a wrong answer points (the answer has no single line of its own). */
static int kernel_line(const GradeReport *r, const char *name)
{
    const char *s = r->source;
    size_t n = strlen(name);
    int line = 1;
    if (!s)
        return 0;
    for (const char *p = s; *p; p++) {
        if (*p == '\n') {
            line++;
        } else if (p[0] == '/' && p[1] == '/') {
            while (p[1] && p[1] != '\n')
                p++;
        } else if (!strncmp(p, name, n) && (p == s || !is_ident(p[-1]))) {
            const char *q = p + n;
            while (*q == ' ' || *q == '\t')
                q++;
            if (*q == '(')
                return line;
        }
    }
    return 0;
}

/* Fill the fields every finding of test ti, run k shares. */
static void finding_init(GradeCtx *c, GradeFinding *f, const char *kind, int ti, int run)
{
    memset(f, 0, sizeof *f);
    snprintf(f->kind, sizeof f->kind, "%s", kind);
    /* run -1 of a test is its GPU run; without a test, the compiler speaks */
    snprintf(f->backend, sizeof f->backend, "%s", run >= 0 ? "simulator" : ti >= 0 ? "gpu" : "");
    f->test = ti;
    f->run = run;
    if (run >= 0)
        grade_run_choice(c, run, &f->schedule, &f->atomic_order, &f->seed);
    if (ti >= 0) {
        grade_command(c, &c->tests[ti], "run", run, f->replay, sizeof f->replay);
        if (run >= 0)
            grade_command(c, &c->tests[ti], "step", run, f->step, sizeof f->step);
    }
}

/* Which parameter an out-of-bounds message's "(N bytes, ..." allocation is,
 * when exactly one buffer argument has that size. */
static void name_buffer(const GradeCtx *c, const GradeTest *T, char *msg, size_t cap)
{
    const char *p = strstr(msg, " bytes, element ");
    if (!p)
        return;
    while (p > msg && p[-1] >= '0' && p[-1] <= '9')
        p--;
    unsigned long long bytes = strtoull(p, NULL, 10);
    int found = -1, count = 0;
    for (int i = 0; i < T->spec.nargs; i++) {
        const ArgSpec *a = &T->spec.args[i];
        if (a->is_buffer && a->count * (uint64_t)argspec_type_size(a->type) == bytes) {
            found = i;
            count++;
        }
    }
    if (count == 1) {
        size_t n = strlen(msg);
        snprintf(msg + n, cap - n, "; that buffer is parameter %d, '%s', of %llu elements", found,
                 c->ex->params[found].decl, (unsigned long long)T->spec.args[found].count);
    }
}

/* ---- one run --------------------------------------------------------------- */

static const char *race_kind(const char *k)
{
    if (!strcmp(k, "atomic-scope"))
        return "scope";
    if (!strcmp(k, "barrier-divergence"))
        return "barrier-divergence";
    return "race";
}

static void record_races(GradeCtx *c, Device *dev, int ti, int run)
{
    for (int i = 0; i < device_race_count(dev); i++) {
        const DeviceRace *x = device_race(dev, i);
        GradeFinding f;
        finding_init(c, &f, race_kind(x->kind), ti, run);
        if (strcmp(f.kind, x->kind))
            snprintf(f.detail, sizeof f.detail, "%s", x->kind);
        student_file(c, x->file, f.file, sizeof f.file);
        f.line = x->second.line ? x->second.line : x->first.line;
        if (!strcmp(x->space, "shared") || !strcmp(x->space, "global"))
            snprintf(f.msg, sizeof f.msg, "%s (%s memory)", x->msg, x->space);
        else
            snprintf(f.msg, sizeof f.msg, "%s", x->msg);
        f.has_thread = true;
        f.block = x->second.block;
        f.thread = x->second.thread;
        snprintf(f.op, sizeof f.op, "%s", x->second.op);
        f.has_other = true;
        f.other_block = x->first.block;
        f.other_thread = x->first.thread;
        f.other_line = x->first.line;
        snprintf(f.other_op, sizeof f.other_op, "%s", x->first.op);
        grade_finding_add(c, ti, &f, NULL);
    }
}

void grade_record_fault(GradeCtx *c, int ti, int run, const DeviceFault *x)
{
    const GradeTest *T = &c->tests[ti];
    GradeFinding f;
    finding_init(c, &f, x->kind, ti, run);
    student_file(c, x->line ? x->file : "", f.file, sizeof f.file);
    f.line = x->line;
    snprintf(f.msg, sizeof f.msg, "%s", x->msg);
    if (!strcmp(x->kind, "out-of-bounds"))
        name_buffer(c, T, f.msg, sizeof f.msg);
    f.has_thread = true;
    f.block = x->block;
    f.thread = x->thread;
    grade_finding_add(c, ti, &f, NULL);
}

void grade_record_wrong(GradeCtx *c, int ti, int run, const char *why)
{
    GradeFinding f;
    finding_init(c, &f, "wrong-answer", ti, run);
    snprintf(f.file, sizeof f.file, "%s", c->r->student);
    f.line = kernel_line(c->r, c->ex->kernel);
    snprintf(f.msg, sizeof f.msg, "%s: %s", c->ex->tests[ti].name, why);
    grade_finding_add(c, ti, &f, why);
}

static void run_once(GradeCtx *c, Device *dev, DeviceModule *mod, int ti, int run)
{
    GradeTest *T = &c->tests[ti];
    LaunchSpec *s = &T->spec;
    grade_run_choice(c, run, &s->schedule, &s->atomic_order, &s->seed);
    s->checks = DEVICE_CHECK_RACES;
    s->budget = T->budget;
    LaunchResult res;
    char msg[1024];
    SimStatus st = launch_run(dev, mod, s, &res, msg, sizeof msg);
    T->runs_done++;
    if (st != SIM_OK && st != SIM_ERR_FAULT) {
        GradeFinding f;
        finding_init(c, &f, "launch-failed", ti, run);
        snprintf(f.file, sizeof f.file, "%s", c->r->student);
        f.line = kernel_line(c->r, c->ex->kernel);
        snprintf(f.msg, sizeof f.msg, "the launch could not be made: %.900s", msg);
        grade_finding_add(c, ti, &f, NULL);
        T->stopped = true;
        launch_result_free(&res);
        return;
    }
    record_races(c, dev, ti, run);
    if (st == SIM_ERR_FAULT) {
        grade_record_fault(c, ti, run, &res.fault);
        /* an endless loop or a deadlock ends the same way in every run */
        if (!strcmp(res.fault.kind, "budget-exceeded") || !strcmp(res.fault.kind, "deadlock"))
            T->stopped = true;
        launch_result_free(&res);
        return;
    }
    ExerciseData in[EXERCISE_MAX_PARAMS], out[EXERCISE_MAX_PARAMS];
    grade_data_before(T, in);
    char why[600];
    if (!grade_data_after(T, &res, out)) {
        grade_record_wrong(c, ti, run, "the output could not be read back");
    } else if (c->ex->check(T->t, in, out, why, sizeof why)) {
        T->runs_correct++;
        if (res.stats.atomics > T->max_atomics)
            T->max_atomics = res.stats.atomics;
    } else {
        grade_record_wrong(c, ti, run, why);
    }
    if (run == 0 && !T->sim_out_ok) { /* kept for the GPU's agreement */
        T->sim_out_ok = true;
        for (int b = 0; b < res.nbufs; b++) {
            T->sim_out[res.bufs[b].arg] = res.bufs[b].data;
            res.bufs[b].data = NULL;
        }
    }
    launch_result_free(&res);
}

/* ---- the whole grading ------------------------------------------------------ */

static void not_run(GradeReport *r, const char *why)
{
    for (int i = 0; i < r->nitems; i++)
        snprintf(r->items[i].output, sizeof r->items[i].output, "%s", why);
}

static void compile_failed(GradeCtx *c, GradeCompileStatus st, char *log)
{
    GradeReport *r = c->r;
    GradeFinding f;
    finding_init(c, &f, "compile-error", -1, -1);
    f.backend[0] = 0;
    r->compiler_output = log;
    char file[256], emsg[900];
    int line, col;
    if (st == GRADE_COMPILE_TIMED_OUT) {
        snprintf(f.file, sizeof f.file, "%s", r->student);
        snprintf(f.msg, sizeof f.msg, "nvcc did not finish within %d seconds and was stopped", GRADE_COMPILE_TIMEOUT);
    } else if (grade_compile_first_error(log, file, sizeof file, &line, &col, emsg, sizeof emsg)) {
        student_file(c, file, f.file, sizeof f.file);
        f.line = line;
        f.col = col;
        snprintf(f.msg, sizeof f.msg, "%s", emsg);
        if (!line && strstr(emsg, "Entry function")) /* ptxas: about the kernel as a whole */
            f.line = kernel_line(r, c->ex->kernel);
    } else {
        snprintf(f.file, sizeof f.file, "%s", r->student);
        snprintf(f.msg, sizeof f.msg, "nvcc failed (its messages are below)");
    }
    grade_finding_add(c, -1, &f, NULL);
    not_run(r, "not run: the file does not compile");
}

static bool signature_ok(GradeCtx *c, DeviceModule *mod)
{
    const Exercise *ex = c->ex;
    SimError err;
    sim_error_clear(&err);
    GradeFinding f;
    finding_init(c, &f, "signature", -1, -1);
    snprintf(f.file, sizeof f.file, "%s", c->r->student);
    c->entry = device_find_kernel(mod, ex->kernel, &err);
    if (!c->entry) {
        snprintf(f.msg, sizeof f.msg, "%s.  The exercise needs: %s", err.msg, ex->signature);
        grade_finding_add(c, -1, &f, NULL);
        not_run(c->r, "not run: the kernel was not found");
        return false;
    }
    f.line = kernel_line(c->r, ex->kernel);
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

static void progress(const GradeCtx *c, int ti, int run)
{
    if (!c->o->progress)
        return;
    if (ti < 0)
        fprintf(stderr, "\r\033[K");
    else
        fprintf(stderr, "\r\033[Kgrading: test %d of %d (%s), run %d of %d", ti + 1, c->ex->ntests,
                c->ex->tests[ti].name, run + 1, c->o->runs);
    fflush(stderr);
}

int grade_run(const Lesson *l, const GradeOptions *o, GradeReport *r, char *msg, size_t cap)
{
    double t0 = now();
    memset(r, 0, sizeof *r);
    r->lesson = l;
    r->ex = l->exercise;
    r->student = o->student;
    r->runs = o->runs;
    r->seed = o->seed;
    r->gpu_requested = o->gpu;
    const Exercise *ex = l->exercise;
    if (!ex) {
        snprintf(msg, cap, "lesson %d (%s) has no graded exercise yet", l->number, l->slug);
        return 2;
    }
    r->max_score = exercise_max_score(ex);
    r->nitems = ex->ntests + ex->nrubric;
    r->items = calloc((size_t)r->nitems, sizeof *r->items);
    GradeCtx c = {.r = r, .o = o, .ex = ex, .tests = calloc((size_t)ex->ntests, sizeof(GradeTest))};
    if (!r->items || !c.tests) {
        free(c.tests);
        snprintf(msg, cap, "out of memory");
        return 2;
    }
    for (int i = 0; i < r->nitems; i++) {
        GradeItem *it = &r->items[i];
        it->rubric = i >= ex->ntests;
        snprintf(it->name, sizeof it->name, "%s%s", it->rubric ? "rubric: " : "",
                 it->rubric ? ex->rubric[i - ex->ntests].name : ex->tests[i].name);
        it->max_score = it->rubric ? ex->rubric[i - ex->ntests].points : ex->tests[i].points;
    }
    int rc = 2;
    Device *dev = NULL;
    char *log = NULL;
    r->source = source_read_file(o->student, &r->source_len, msg, cap);
    if (!r->source)
        goto done;
    GradeCompileStatus cs = grade_compile(o->student, ex->arch, GRADE_COMPILE_TIMEOUT, &c.ptx, &c.ptx_len, &log,
                                          msg, cap);
    if (cs == GRADE_COMPILE_UNAVAILABLE)
        goto done;
    rc = 0;
    if (cs != GRADE_COMPILED) {
        compile_failed(&c, cs, log);
        goto score;
    }
    r->compiled = true;
    SimError err;
    sim_error_clear(&err);
    DeviceModule *mod;
    if (!(dev = device_open_sim(ex->arch, &err)) ||
        device_load_ptx(dev, o->student, c.ptx, c.ptx_len, &mod, &err)) {
        if (err.line)
            snprintf(msg, cap, "the simulator cannot run this kernel: PTX line %d: %s", err.line, err.msg);
        else
            snprintf(msg, cap, "the simulator cannot run this kernel: %s", err.msg);
        rc = 2;
        goto done;
    }
    if (!signature_ok(&c, mod))
        goto score;
    for (int ti = 0; ti < ex->ntests; ti++) {
        GradeTest *T = &c.tests[ti];
        T->t = &ex->tests[ti];
        ex->launch(T->t, &T->launch);
        launch_spec_init(&T->spec);
        T->spec.kernel = c.entry;
        T->spec.grid = T->launch.grid;
        T->spec.block = T->launch.block;
        T->spec.have_grid = T->spec.have_block = true;
        T->spec.smem = T->launch.smem;
        for (int i = 0; i < T->launch.nargs; i++, T->spec.nargs++)
            if (!argspec_parse(T->launch.args[i], &T->spec.args[i], msg, cap)) {
                rc = 2; /* the exercise itself is wrong */
                goto done;
            }
        T->budget = exercise_budget(ex, &T->launch);
    }
    for (int ti = 0; ti < ex->ntests; ti++)
        for (int run = 0; run < o->runs && !c.tests[ti].stopped; run++) {
            progress(&c, ti, run);
            /* a fresh module each run, as a fresh program would have: a
             * __device__ variable the kernel changes starts from its
             * initial value again */
            DeviceModule *fresh;
            if (device_load_ptx(dev, o->student, c.ptx, c.ptx_len, &fresh, &err))
                fresh = mod;
            run_once(&c, dev, fresh, ti, run);
        }
    progress(&c, -1, 0);
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
    device_close(dev);
    if (!r->compiler_output)
        free(log);
    for (int ti = 0; ti < ex->ntests; ti++) {
        launch_spec_free(&c.tests[ti].spec);
        for (int i = 0; i < EXERCISE_MAX_PARAMS; i++)
            free(c.tests[ti].sim_out[i]);
    }
    free(c.tests);
    free(c.ptx);
    free(c.seen);
    r->seconds = now() - t0;
    return rc;
}

void grade_report_free(GradeReport *r)
{
    free(r->source);
    free(r->compiler_output);
    free(r->items);
    free(r->findings);
    memset(r, 0, sizeof *r);
}
