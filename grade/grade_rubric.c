/* grade_rubric.c: scoring a grading -- each test from its runs and the
 * findings they showed, each rubric item (no races, atomics per unit,
 * occupancy from ptxas and the occupancy model, modelled cycles) from the
 * tests whose answer was right (grade_int.h). */
#include "grade_int.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "arch.h"
#include "occupancy.h"
#include "ptxas.h"

/* Append a formatted line to an item's output. */
static void say(GradeItem *it, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void say(GradeItem *it, const char *fmt, ...)
{
    size_t n = strlen(it->output);
    if (n && n + 1 < sizeof it->output)
        it->output[n++] = '\n';
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(it->output + n, sizeof it->output - n, fmt, ap);
    va_end(ap);
}

/* "race (lost-update) at racy.cu:7" */
static void finding_label(const GradeFinding *f, char *buf, size_t cap)
{
    int k = snprintf(buf, cap, "%s", !strcmp(f->kind, "wrong-answer") ? "wrong answer" : f->kind);
    if (*f->detail && k >= 0 && (size_t)k < cap)
        k += snprintf(buf + k, cap - (size_t)k, " (%s)", f->detail);
    if (f->line && strcmp(f->kind, "wrong-answer") && k >= 0 && (size_t)k < cap)
        k += snprintf(buf + k, cap - (size_t)k, " at %s:%d", f->file, f->line);
    if (!strcmp(f->backend, "gpu") && k >= 0 && (size_t)k < cap)
        snprintf(buf + k, cap - (size_t)k, " on the GPU");
}

void grade_score_tests(GradeCtx *c)
{
    GradeReport *r = c->r;
    if (!r->compiled || !c->entry)
        return; /* every item already says why it did not run */
    for (int ti = 0; ti < c->ex->ntests; ti++) {
        GradeTest *T = &c->tests[ti];
        GradeItem *it = &r->items[ti];
        it->output[0] = 0;
        it->passed = T->runs_done > 0 && T->runs_correct == T->runs_done && !T->nhits && !T->more_hits &&
                     !T->gpu_failed;
        it->score = it->passed ? it->max_score : 0;
        if (it->passed) {
            char runs[32];
            snprintf(runs, sizeof runs, "all %d runs", T->runs_done);
            say(it, "correct in %s, with no race, fault or out-of-bounds access",
                T->runs_done == 1 ? "its one run" : T->runs_done == 2 ? "both runs" : runs);
        }
        bool wrong = false;
        for (int h = 0; h < T->nhits; h++) {
            const GradeHit *hit = &T->hits[h];
            const GradeFinding *f = &r->findings[hit->finding];
            char label[400];
            finding_label(f, label, sizeof label);
            wrong |= !strcmp(f->kind, "wrong-answer");
            if (!strcmp(f->backend, "gpu") || !T->runs_done) /* the GPU's one run, or none */
                say(it, "%s: %s", label, hit->msg);
            else
                say(it, "%s, in %d of %d run%s: %s", label, hit->runs, T->runs_done,
                    T->runs_done == 1 ? "" : "s", hit->msg);
        }
        if (T->more_hits)
            say(it, "... and %d more finding%s", T->more_hits, T->more_hits == 1 ? "" : "s");
        if (T->stopped && !T->runs_done)
            ; /* never run: its finding says why */
        else if (T->stopped && T->runs_done + 1 == r->runs)
            say(it, "run %d was skipped: it would end the same way", T->runs_done);
        else if (T->stopped && T->runs_done < r->runs)
            say(it, "runs %d to %d were skipped: they would end the same way", T->runs_done, r->runs - 1);
        if (!it->passed && !wrong && T->runs_correct > 0)
            say(it, "the answer was right in %d of %d run%s, but with the problem above a right answer is "
                    "luck, so the test fails", T->runs_correct, T->runs_done, T->runs_done == 1 ? "" : "s");
        if (T->gpu[0] && !T->gpu_failed) /* a failure is one of the findings above */
            say(it, "GPU: %s", T->gpu);
    }
}

/* ---- rubric ---------------------------------------------------------------- */

static bool is_sync_kind(const char *k)
{
    return !strcmp(k, "race") || !strcmp(k, "barrier-divergence") || !strcmp(k, "scope") ||
           !strcmp(k, "warp-sync") || !strcmp(k, "deadlock");
}

static void rubric_no_races(GradeCtx *c, GradeItem *it)
{
    const GradeReport *r = c->r;
    int n = 0;
    for (int i = 0; i < r->nfindings; i++) {
        const GradeFinding *f = &r->findings[i];
        if (!is_sync_kind(f->kind))
            continue;
        if (!n++)
            say(it, "not earned:");
        char label[400];
        finding_label(f, label, sizeof label);
        say(it, "  %s", label);
    }
    if (n)
        return;
    int runs = 0;
    for (int ti = 0; ti < c->ex->ntests; ti++)
        runs += c->tests[ti].runs_done;
    it->passed = true;
    say(it, "no race, barrier or scope problem in %d runs of %d tests", runs, c->ex->ntests);
}

static const char *per_name(GradePer p, bool plural)
{
    switch (p) {
    case GRADE_PER_ELEMENT:
        return plural ? "elements" : "element";
    case GRADE_PER_BLOCK:
        return plural ? "blocks" : "block";
    case GRADE_PER_LAUNCH:
        return plural ? "launches" : "launch";
    }
    return "?";
}

static void rubric_max_atomics(GradeCtx *c, const GradeRubric *ru, GradeItem *it)
{
    double worst = -1;
    int wt = -1;
    for (int ti = 0; ti < c->ex->ntests; ti++) {
        const GradeTest *T = &c->tests[ti];
        if (!T->runs_correct)
            continue;
        uint64_t units = grade_rubric_units(ru, T->t, &T->launch);
        double per = units ? (double)T->max_atomics / (double)units : (double)T->max_atomics;
        if (per >= worst) { /* on a tie, the largest test says the most */
            worst = per;
            wt = ti;
        }
    }
    const GradeTest *T = &c->tests[wt];
    uint64_t units = grade_rubric_units(ru, T->t, &T->launch);
    it->passed = worst <= ru->limit;
    say(it, "%s: %s: %" PRIu64 " atomic update%s for %" PRIu64 " %s (%.3g per %s; at most %g allowed)",
        it->passed ? "earned" : "not earned", T->t->name, T->max_atomics, T->max_atomics == 1 ? "" : "s", units,
        per_name(ru->per, units != 1), worst, per_name(ru->per, false), ru->limit);
}

static void rubric_min_occupancy(GradeCtx *c, const GradeRubric *ru, GradeItem *it)
{
    const GradeExercise *ex = c->ex;
    const ArchProfile *a = arch_find(ex->arch);
    char path[] = "/tmp/warpsim-grade-XXXXXX.ptx";
    int fd = mkstemps(path, 4);
    if (!a || fd < 0) {
        say(it, "not judged: %s", a ? "no temporary file for ptxas" : "unknown arch");
        if (fd >= 0)
            close(fd);
        return;
    }
    bool wrote = write(fd, c->ptx, c->ptx_len) == (ssize_t)c->ptx_len;
    close(fd);
    PtxasInfo px;
    memset(&px, 0, sizeof px);
    int rc = wrote ? ptxas_query(path, c->entry, ex->arch, 0, &px) : 2;
    unlink(path);
    if (rc) {
        say(it, "not earned: ptxas could not compile the kernel for %s, so its registers and shared memory "
                "are unknown (its message is above)", ex->arch);
        return;
    }
    const GradeLaunch *l = &c->tests[0].launch;
    OccConfig cfg;
    occ_config_init(&cfg);
    cfg.block_size = (int)(l->block.x * l->block.y * l->block.z);
    cfg.regs_per_thread = px.regs;
    cfg.smem_static = (size_t)px.smem;
    cfg.smem_dynamic = l->smem;
    cfg.barriers = px.barriers > 1 ? px.barriers : 1;
    OccResult o;
    SimError err;
    if (occ_compute(a, &cfg, &o, &err) != SIM_OK) {
        say(it, "not judged: %s", err.msg);
        return;
    }
    char lim[128];
    occ_limiters_format(o.limiters, lim, sizeof lim);
    it->passed = o.occupancy + 1e-9 >= ru->limit;
    say(it, "%s: occupancy %.0f%% on %s (at least %.0f%% wanted): %d block%s of %d threads per SM, limited by "
            "%s; the kernel uses %d registers per thread and %lld bytes of static shared memory per block",
        it->passed ? "earned" : "not earned", o.occupancy * 100, ex->arch, ru->limit * 100, o.blocks_per_sm,
        o.blocks_per_sm == 1 ? "" : "s", cfg.block_size, lim, px.regs, px.smem);
}

/* The timing model's cycles of the largest test's run 0, when it was right:
 * a time taken on a smaller test, or of a wrong answer, says nothing of the
 * size the item names.  Besides the cycles: the shared memory's bank-conflict
 * replays and the warps' commonest wait, where the time went. */
static void rubric_max_cycles(GradeCtx *c, const GradeRubric *ru, GradeItem *it)
{
    const GradeTest *T = &c->tests[c->ex->ntests - 1]; /* tests go smallest first */
    if (!T->timed) {
        say(it, "not earned: the largest test, %s, did not give the right answer in its first run (the default "
                "schedule, with the timing model), so there is no time to judge",
            T->t->name);
        return;
    }
    it->passed = (double)T->cycles <= ru->limit;
    char where[256] = "";
    int w = 0;
    if (T->bank_replays)
        w = snprintf(where, sizeof where, "; shared memory: %" PRIu64 " bank-conflict replays in %" PRIu64
                     " wavefronts", T->bank_replays, T->smem_wavefronts);
    if (T->top_stall >= 0 && w >= 0 && (size_t)w < sizeof where)
        snprintf(where + w, sizeof where - (size_t)w, "; the warps' commonest wait: %s, %.0f%% of warp-cycles",
                 device_stall_name(T->top_stall), T->top_stall_share * 100);
    say(it, "%s: %s: %" PRIu64 " cycles in the timing model on %s (at most %.0f wanted%s; `warpsim run ... "
            "--timing` shows where the time goes)",
        it->passed ? "earned" : "not earned", T->t->name, T->cycles, c->ex->arch, ru->limit, where);
}

void grade_score_rubric(GradeCtx *c)
{
    GradeReport *r = c->r;
    const GradeExercise *ex = c->ex;
    if (!r->compiled || !c->entry)
        return;
    bool any_right = false;
    for (int ti = 0; ti < ex->ntests; ti++)
        any_right |= c->tests[ti].runs_correct > 0;
    for (int k = 0; k < ex->nrubric; k++) {
        const GradeRubric *ru = &ex->rubric[k];
        GradeItem *it = &r->items[ex->ntests + k];
        it->output[0] = 0;
        it->passed = false;
        if (!any_right) {
            say(it, "not judged: no test gave the right answer");
        } else if (ru->kind == GRADE_RUBRIC_NO_RACES) {
            rubric_no_races(c, it);
        } else if (ru->kind == GRADE_RUBRIC_MAX_ATOMICS) {
            rubric_max_atomics(c, ru, it);
        } else if (ru->kind == GRADE_RUBRIC_MAX_CYCLES) {
            rubric_max_cycles(c, ru, it);
        } else {
            rubric_min_occupancy(c, ru, it);
        }
        it->score = it->passed ? it->max_score : 0;
    }
}
