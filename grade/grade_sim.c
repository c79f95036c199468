/* grade_sim.c: the runs of a grading in the simulator -- every test K
 * times, run 0 with the default schedule and atomic order and the others
 * with seeded adversarial and random ones, race checking and the
 * instruction budget on; what goes wrong is handed to grade_finding.c, what
 * goes right is counted for the scores (grade_int.h). */
#include "grade_int.h"

#include <stdio.h>
#include <string.h>

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
        grade_finding_init(c, &f, "launch-failed", ti, run);
        snprintf(f.file, sizeof f.file, "%s", c->r->student);
        f.line = grade_kernel_line(c->r, c->ex->kernel);
        snprintf(f.msg, sizeof f.msg, "the launch could not be made: %.900s", msg);
        grade_finding_add(c, ti, &f, NULL);
        T->stopped = true;
        launch_result_free(&res);
        return;
    }
    grade_record_races(c, dev, ti, run);
    if (st == SIM_ERR_FAULT) {
        grade_record_fault(c, ti, run, &res.fault);
        /* an endless loop or a deadlock ends the same way in every run */
        if (!strcmp(res.fault.kind, "budget-exceeded") || !strcmp(res.fault.kind, "deadlock"))
            T->stopped = true;
        launch_result_free(&res);
        return;
    }
    GradeData in[GRADE_MAX_PARAMS], out[GRADE_MAX_PARAMS];
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

static void progress(const GradeCtx *c, int ti, int run)
{
    if (c->o->progress)
        c->o->progress(c->o->progress_arg, c->ex, ti, run, c->o->runs);
}

void grade_sim_runs(GradeCtx *c, Device *dev, DeviceModule *mod)
{
    SimError err;
    sim_error_clear(&err);
    for (int ti = 0; ti < c->ex->ntests; ti++)
        for (int run = 0; run < c->o->runs && !c->tests[ti].stopped; run++) {
            progress(c, ti, run);
            /* a fresh module each run, as a fresh program would have: a
             * __device__ variable the kernel changes starts from its
             * initial value again */
            DeviceModule *fresh;
            if (device_load_ptx(dev, c->r->student, c->ptx, c->ptx_len, &fresh, &err))
                fresh = mod;
            run_once(c, dev, fresh, ti, run);
        }
    progress(c, -1, 0);
}
