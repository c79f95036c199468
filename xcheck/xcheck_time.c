/* xcheck_time.c: time claims of xcheck.txt (faster-than LINE BY R) -- each
 * judged twice: on the simulator from the timing model's cycles, on the
 * reference from its measured times (a GPU's cuEvent milliseconds, a
 * recording of them, or a second simulator's cycles) -- and their report
 * (one row per side, or one JSON object per claim). */
#include <stdlib.h>
#include <string.h>

#include "report.h"
#include "xcheck.h"

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double xcheck_median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* Launch k on the simulator with the timing model: its cycles, or 0 with
 * the status when it did not run clean. */
static uint64_t timed_cycles(const XcheckSim *sim, const XcheckLaunch *l, SimStatus *st)
{
    LaunchSpec spec = l->spec;
    spec.timing = true;
    LaunchResult r;
    char msg[512];
    *st = launch_run(sim->dev, sim->mod, &spec, &r, msg, sizeof msg);
    uint64_t c = *st == SIM_OK && r.stats.timing.on ? r.stats.cycles : 0;
    if (*st == SIM_OK && !c)
        *st = SIM_ERR_UNSUPPORTED; /* ran, but without the timing model */
    launch_result_free(&r);
    return c;
}

int xcheck_check_times(XcheckReport *rep, const XcheckSim *sim, const XcheckLaunch *ls, int n,
                       const double *ref_time, const char *unit, const char *no_times)
{
    uint64_t *cycles = calloc(n ? (size_t)n : 1, sizeof *cycles);
    SimStatus *sst = calloc(n ? (size_t)n : 1, sizeof *sst);
    int claims = 0;
    for (int k = 0; cycles && sst && k < n; k++)
        if (ls[k].timed)
            cycles[k] = timed_cycles(sim, &ls[k], &sst[k]);
    for (int i = 0; i < n; i++) {
        const XcheckLaunch *l = &ls[i];
        if (!l->than_line || l->than < 0)
            continue;
        XcheckTimeCmp c = {.i = i, .than = l->than};
        if (cycles && sst) {
            c.sst[0] = sst[l->than];
            c.sst[1] = sst[i];
            c.cycles[0] = cycles[l->than];
            c.cycles[1] = cycles[i];
        } else {
            c.sst[0] = c.sst[1] = SIM_ERR_NOMEM;
        }
        if (c.cycles[0] && c.cycles[1]) {
            c.sim_ratio = (double)c.cycles[0] / (double)c.cycles[1];
            c.sim_holds = c.sim_ratio >= l->by;
        }
        if (ref_time && ref_time[l->than] > 0 && ref_time[i] > 0) {
            c.ref_known = true;
            c.ref_time[0] = ref_time[l->than];
            c.ref_time[1] = ref_time[i];
            c.ref_ratio = c.ref_time[0] / c.ref_time[1];
            c.ref_holds = c.ref_ratio >= l->by;
        }
        c.ok = c.sim_holds && (!c.ref_known || c.ref_holds);
        rep->times++;
        rep->time_fails += !c.ok;
        xcheck_report_time(rep, ls, &c, unit ? unit : "", c.ref_known ? "" : no_times);
        claims++;
    }
    free(cycles);
    free(sst);
    return claims;
}

/* "ratio 27.3x: holds" or why it is not known, for one side. */
static void side_text(char *buf, size_t cap, double a, double b, const char *unit, double ratio, bool holds)
{
    snprintf(buf, cap, "%.6g / %.6g %s = %.3gx  %s", a, b, unit, ratio, holds ? "holds" : "FAILS");
}

void xcheck_report_time(XcheckReport *x, const XcheckLaunch *ls, const XcheckTimeCmp *c, const char *unit,
                        const char *no_times)
{
    const XcheckLaunch *l = &ls[c->i], *t = &ls[c->than];
    FILE *f = x->f;
    char claim[256], simc[256], refc[256];
    snprintf(claim, sizeof claim, "%s (line %d) faster than %s (line %d) by %gx", l->spec.kernel, l->lineno,
             t->spec.kernel, t->lineno, l->by);
    if (c->sst[0] || c->sst[1])
        snprintf(simc, sizeof simc, "not run with the timing model (%s)", sim_status_name(c->sst[0] ? c->sst[0] : c->sst[1]));
    else
        side_text(simc, sizeof simc, (double)c->cycles[0], (double)c->cycles[1], "cycles", c->sim_ratio,
                  c->sim_holds);
    if (c->ref_known)
        side_text(refc, sizeof refc, c->ref_time[0], c->ref_time[1], unit, c->ref_ratio, c->ref_holds);
    else
        snprintf(refc, sizeof refc, "not judged: %s", no_times && no_times[0] ? no_times : "no times");
    if (x->json) {
        fprintf(f, "%s{\"claim\": ", x->in_times ? ", " : "], \"times\": [");
        x->in_times = true;
        report_json_string(f, l->line);
        fprintf(f, ", \"line\": %d, \"than_line\": %d, \"by\": %g, \"ok\": %s, \"simulator\": {\"cycles\": [%llu, %llu], "
                   "\"ratio\": %.6g, \"holds\": %s}, \"reference\": ",
                l->lineno, t->lineno, l->by, c->ok ? "true" : "false", (unsigned long long)c->cycles[0],
                (unsigned long long)c->cycles[1], c->sim_ratio, c->sim_holds ? "true" : "false");
        if (c->ref_known) {
            fprintf(f, "{\"times\": [%.6g, %.6g], \"unit\": ", c->ref_time[0], c->ref_time[1]);
            report_json_string(f, unit);
            fprintf(f, ", \"ratio\": %.6g, \"holds\": %s}}", c->ref_ratio, c->ref_holds ? "true" : "false");
        } else {
            fprintf(f, "{\"not_judged\": ");
            report_json_string(f, no_times && no_times[0] ? no_times : "no times");
            fprintf(f, "}}");
        }
        return;
    }
    fprintf(f, "  time: %s%s\n", claim, c->ok ? "" : "  <-- FAILS");
    fprintf(f, "    %-20s %s\n", "simulator", simc);
    fprintf(f, "    %-20s %s\n", "reference", refc);
}
