/* grade_launch.c: the launches of a grading -- each run's schedule, atomic
 * order and seed, the arguments before and after a launch as the
 * exercise's check sees them, and the `warpsim run` / `warpsim step`
 * command line that replays a run (grade_int.h). */
#include "grade_int.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "argspec.h"

void grade_data_before(const GradeTest *T, GradeData *in)
{
    for (int i = 0; i < T->spec.nargs; i++) {
        const ArgSpec *a = &T->spec.args[i];
        int sz = argspec_type_size(a->type);
        in[i] = a->is_buffer ? (GradeData){a->data, a->count, sz} : (GradeData){&a->scalar, 1, sz};
    }
}

bool grade_data_after(const GradeTest *T, const LaunchResult *res, GradeData *out)
{
    grade_data_before(T, out);
    for (int b = 0; b < res->nbufs; b++) {
        const LaunchBuffer *lb = &res->bufs[b];
        if (!lb->data)
            return false;
        out[lb->arg].data = lb->data;
    }
    return true;
}

void grade_run_choice(const GradeCtx *c, int run, int *schedule, int *atomic_order, uint64_t *seed)
{
    /* run 0: the deterministic defaults; run 1: the adversarial policies;
     * then seeded random schedules and atomic orders */
    *schedule = run == 0 ? DEVICE_SCHED_ROUNDROBIN : run == 1 ? DEVICE_SCHED_ADVERSARIAL : DEVICE_SCHED_RANDOM;
    *atomic_order = run == 0 ? DEVICE_ATOMIC_LANE : run == 1 ? DEVICE_ATOMIC_ADVERSARIAL : DEVICE_ATOMIC_RANDOM;
    *seed = run == 0 ? 0 : c->o->seed + (uint64_t)run;
}

/* Append word to buf, in single quotes when a shell would treat it specially. */
static void put_word(char *buf, size_t cap, const char *w)
{
    size_t n = strlen(buf);
    bool plain = *w != 0;
    for (const char *p = w; *p; p++)
        if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_./:=,+-@%", *p))
            plain = false;
    if (n + 1 >= cap)
        return;
    if (n)
        buf[n++] = ' ';
    if (plain) {
        snprintf(buf + n, cap - n, "%s", w);
        return;
    }
    buf[n++] = '\'';
    for (const char *p = w; *p && n + 5 < cap; p++) {
        if (*p == '\'') {
            memcpy(buf + n, "'\\''", 4);
            n += 4;
        } else {
            buf[n++] = *p;
        }
    }
    buf[n++] = '\'';
    buf[n] = 0;
}

static void put_dim(char *buf, size_t cap, const char *opt, DeviceDim3 d)
{
    char t[48];
    if (d.z > 1)
        snprintf(t, sizeof t, "%u,%u,%u", d.x, d.y, d.z);
    else if (d.y > 1)
        snprintf(t, sizeof t, "%u,%u", d.x, d.y);
    else
        snprintf(t, sizeof t, "%u", d.x);
    put_word(buf, cap, opt);
    put_word(buf, cap, t);
}

void grade_command(const GradeCtx *c, const GradeTest *T, const char *verb, int run, char *buf, size_t cap)
{
    buf[0] = 0;
    put_word(buf, cap, "warpsim");
    put_word(buf, cap, verb);
    put_word(buf, cap, c->r->student);
    put_word(buf, cap, "--kernel");
    put_word(buf, cap, c->ex->kernel);
    put_dim(buf, cap, "--grid", T->launch.grid);
    put_dim(buf, cap, "--block", T->launch.block);
    char t[64];
    if (T->launch.smem) {
        snprintf(t, sizeof t, "%u", T->launch.smem);
        put_word(buf, cap, "--smem");
        put_word(buf, cap, t);
    }
    for (int i = 0; i < T->launch.nargs; i++) {
        put_word(buf, cap, "--arg");
        put_word(buf, cap, T->launch.args[i]);
    }
    if (run < 0) { /* the GPU */
        put_word(buf, cap, "--backend");
        put_word(buf, cap, "gpu");
        return;
    }
    snprintf(t, sizeof t, "%" PRIu64, T->budget);
    put_word(buf, cap, "--budget");
    put_word(buf, cap, t);
    /* the grader's printf ceiling (grade_sim.c sets it), so a printf-limit
     * finding replays as it was found */
    snprintf(t, sizeof t, "%" PRIu64, (uint64_t)GRADE_MAX_PRINTF);
    put_word(buf, cap, "--max-printf");
    put_word(buf, cap, t);
    int s, a;
    uint64_t seed;
    grade_run_choice(c, run, &s, &a, &seed);
    if (run > 0) {
        put_word(buf, cap, "--schedule");
        put_word(buf, cap, device_schedule_name(s));
        put_word(buf, cap, "--atomic-order");
        put_word(buf, cap, device_atomic_order_name(a));
        snprintf(t, sizeof t, "%" PRIu64, seed);
        put_word(buf, cap, "--seed");
        put_word(buf, cap, t);
    }
    put_word(buf, cap, "--check");
    put_word(buf, cap, "races");
}
