/* grade_finding.c: the findings of a grading -- a race, a fault or a wrong
 * answer turned into a GradeFinding with its file, line, thread and replay
 * commands, and each finding recorded once (deduplicated by kind, file,
 * line and backend) with the tests and runs that showed it.  Called by
 * grade.c, grade_sim.c and grade_gpu.c (grade_int.h). */
#include "grade_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "argspec.h"
#include "file_read.h"

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

/* ---- a finding's fields ---------------------------------------------------- */

void grade_student_file(const GradeCtx *c, const char *file, char *out, size_t cap)
{
    /* the compiled PTX names the submission "kernel.cu" (its private copy);
     * anything else (a header, a name a #line chose) stays a bare name:
     * nothing is looked up or read by it */
    if (!*file || !strcmp(file, "kernel.cu") || (c->cin.shown && !strcmp(file, c->cin.shown)) ||
        !strcmp(file, c->r->student))
        snprintf(out, cap, "%s", c->r->student);
    else
        snprintf(out, cap, "%s", file);
}

static bool is_ident(char ch)
{
    return ch == '_' || (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9');
}

/* A wrong answer has no line of its own: it points at the kernel's declaration. */
int grade_kernel_line(const GradeReport *r, const char *name)
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

void grade_finding_init(GradeCtx *c, GradeFinding *f, const char *kind, int ti, int run)
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

static const char *race_kind(const char *k)
{
    if (!strcmp(k, "atomic-scope"))
        return "scope";
    if (!strcmp(k, "barrier-divergence"))
        return "barrier-divergence";
    return "race";
}

void grade_record_races(GradeCtx *c, const DeviceRace *races, int n, int ti, int run)
{
    for (int i = 0; i < n; i++) {
        const DeviceRace *x = &races[i];
        GradeFinding f;
        grade_finding_init(c, &f, race_kind(x->kind), ti, run);
        if (strcmp(f.kind, x->kind))
            snprintf(f.detail, sizeof f.detail, "%s", x->kind);
        grade_student_file(c, x->file, f.file, sizeof f.file);
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
    grade_finding_init(c, &f, x->kind, ti, run);
    grade_student_file(c, x->line ? x->file : "", f.file, sizeof f.file);
    f.line = x->line;
    snprintf(f.msg, sizeof f.msg, "%s", x->msg);
    if (!strcmp(x->kind, "printf-limit")) { /* the simulator's words name the launch, not the test */
        char lim[32];
        snprintf(f.msg, sizeof f.msg, "printf wrote more than %s in test %d (\"%.300s\"); the test was stopped.  "
                 "Print from one thread, or a few times, not from every thread in a loop",
                 file_size_text(GRADE_MAX_PRINTF, lim, sizeof lim), ti + 1, c->ex->tests[ti].name);
    }
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
    grade_finding_init(c, &f, "wrong-answer", ti, run);
    snprintf(f.file, sizeof f.file, "%s", c->r->student);
    f.line = grade_kernel_line(c->r, c->ex->kernel);
    snprintf(f.msg, sizeof f.msg, "%s: %s", c->ex->tests[ti].name, why);
    grade_finding_add(c, ti, &f, why);
}

