/* step.c: the stepper's public face (step.h) -- making and freeing a
 * Stepper, and step_on_issue, the callback the simulator calls before every
 * warp instruction: step_core decides whether to stop; at a stop the pause
 * loop shows where (step_show) and runs the caller's command lines
 * (step_cmd) until one resumes the launch. */
#include "step_int.h"

#include <stdlib.h>
#include <unistd.h>

Stepper *step_new(const StepConfig *cfg)
{
    if (!cfg || !cfg->read || !cfg->out)
        return NULL;
    Stepper *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->cfg = *cfg;
    s->mode = STEP_PAUSE;
    s->next_break_id = 1;
    return s;
}

void step_free(Stepper *s)
{
    if (!s)
        return;
    for (int i = 0; i < s->nbreaks; i++)
        free(s->breaks[i].file);
    free(s->break_at);
    step_source_free(s);
    if (s->trace_path)
        unlink(s->trace_path); /* viz's replay trace lives as long as the session */
    free(s->trace_path);
    free(s);
}

void step_stop_before(Stepper *s, uint64_t insts, int lane)
{
    s->fault_at = insts;
    s->fault_lane = lane >= 0 && lane < 32 ? lane : 0;
}

void step_interrupt(Stepper *s) { s->interrupted = 1; }
bool step_quit_requested(const Stepper *s) { return s->mode == STEP_QUIT; }
int step_errors(const Stepper *s) { return s->errors; }

int step_on_issue(void *user, const SimView *v, uint64_t block, int warp)
{
    Stepper *s = user;
    char why[256];
    if (step_core_stop_here(s, v, block, warp, why, sizeof why)) {
        const StepConfig *c = &s->cfg;
        if (c->running)
            c->running(c->user, s, false);
        step_show_stop(s, *why ? why : NULL);
        for (;;) {
            const char *line = c->read(c->user, "(warpsim) ");
            if (!line) {
                fprintf(c->out, c->interactive ? "quit\n" : "(end of the commands: quit)\n");
                s->mode = STEP_QUIT;
                break;
            }
            if (step_cmd_run(s, line))
                break;
        }
        fflush(c->out);
        if (c->running && s->mode != STEP_QUIT)
            c->running(c->user, s, true);
    }
    step_core_issued(s, block, warp);
    return s->mode == STEP_QUIT ? SIM_VIEW_STOP : SIM_VIEW_CONTINUE;
}
