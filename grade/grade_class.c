/* grade_class.c: grading a class (grade.h, grade_class_run) -- many
 * submissions of one exercise side by side on the worker pool (pool.h),
 * each a whole grade_run (its nvcc and ptxas, then its simulator runs) in a
 * worker, the reports handed back in the order given.  Grading one
 * submission after another spends most of its time in nvcc, which is one
 * process per submission; here a class keeps every core busy. */
#include "grade.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "pool.h"

typedef struct {
    GradeReport r;
    SimStatus st;
    SimError err;
} Slot;

typedef struct {
    const GradeExercise *ex;
    const GradeOptions *o;
    const char *const *students;
    int n;
    int threads;                 /* the class's worker threads, all told */
    int side;                    /* submissions graded side by side at most */
    Slot *slots;
    size_t window;
    atomic_int running;          /* submissions being graded now */
    GradeClassDoneFn done;
    void *arg;
} Class;

/* How the cores are shared.  A submission is a compile (one nvcc, ~1 s,
 * which no thread count speeds up) and then K runs of each test, which
 * grade_run spreads over o.threads workers of its own.  So the class runs
 * min(threads, n) submissions at once, and each gets the cores the others
 * leave: threads / (the submissions that can be graded beside it -- those
 * running now and those not started yet, at most `side`).  A class of 46
 * on 16 cores runs 16 submissions of 1 thread each, compiles included; a
 * class of 2 runs both at once with 8 threads each, so their runs still
 * use every core; the last submissions of a big class, started when fewer
 * are left, get more.  The thread count changes no report (grade.h). */
static int threads_for(Class *k, size_t task, int others)
{
    int beside = others + (k->n - (int)task); /* running, this one, and those not started */
    if (beside > k->side)
        beside = k->side;
    int t = beside > 0 ? k->threads / beside : k->threads;
    return t < 1 ? 1 : t;
}

static int work(void *user, size_t task, int worker)
{
    (void)worker;
    Class *k = user;
    Slot *s = &k->slots[task % k->window];
    int others = atomic_fetch_add(&k->running, 1);
    GradeOptions o = *k->o;
    o.student = k->students[task];
    o.threads = threads_for(k, task, others);
    o.progress = NULL; /* the caller hears of whole submissions, in order */
    o.progress_arg = NULL;
    s->st = grade_run(k->ex, &o, &s->r, &s->err);
    atomic_fetch_sub(&k->running, 1);
    return 0;
}

static int fold(void *user, size_t task, int rc)
{
    (void)rc;
    Class *k = user;
    Slot *s = &k->slots[task % k->window];
    k->done(k->arg, (int)task, &s->r, s->st, &s->err);
    grade_report_free(&s->r);
    return 0;
}

SimStatus grade_class_run(const GradeExercise *ex, const GradeOptions *o, const char *const *students, int n,
                          GradeClassDoneFn done, void *arg, SimError *err)
{
    char msg[256];
    sim_error_clear(err);
    if (!o || !done || !students || n < 1)
        return sim_error_set(err, SIM_ERR_USAGE, "", 0, 0, "no submissions to grade");
    if (!grade_exercise_valid(ex, msg, sizeof msg))
        return sim_error_set(err, SIM_ERR_USAGE, "", 0, 0, "%s", msg);
    if (o->runs < 1)
        return sim_error_set(err, SIM_ERR_USAGE, "", 0, 0, "runs per test must be at least 1, not %d", o->runs);
    for (int i = 0; i < n; i++)
        if (!students[i] || !*students[i])
            return sim_error_set(err, SIM_ERR_USAGE, "", 0, 0, "submission %d has no file name", i + 1);
    Class k = {.ex = ex, .o = o, .students = students, .n = n, .done = done, .arg = arg};
    k.threads = o->threads < 1 ? 1 : o->threads;
    k.side = k.threads < n ? k.threads : n;
    k.window = pool_window(k.side);
    atomic_init(&k.running, 0);
    k.slots = calloc(k.window, sizeof *k.slots);
    if (!k.slots)
        return sim_error_set(err, SIM_ERR_NOMEM, "", 0, 0, "out of memory");
    pool_run(k.side, (size_t)n, k.window, work, fold, &k);
    free(k.slots);
    return SIM_OK;
}
