/* explore_run.c: the K runs of an exploration, side by side on worker
 * threads (pool.h), each worker with a simulated Device of its own, and
 * tallied on the calling thread in seed order so that the tally is the
 * same with any number of threads (explore.h). */
#include "explore.h"

#include <stdlib.h>
#include <string.h>

#include "pool.h"

typedef struct {
    LaunchResult res;
    SimStatus st;
    char *printed;           /* the run's printf text (owned), NULL none */
    bool races;
    char msg[1024];
} Slot;

typedef struct {
    const ExploreRun *how;
    Explore *e;
    Slot *slots;
    size_t window;
    Device **devs;           /* per worker; devs[0] is how->dev */
    DeviceModule **mods;
    const char **entry;
    ExploreRunStatus status;
    char *msg;
    size_t cap;
} Ctx;

static int work(void *user, size_t k, int w)
{
    Ctx *c = user;
    Slot *s = &c->slots[k % c->window];
    memset(s, 0, sizeof *s);
    if (!c->devs[w]) {
        SimError err;
        sim_error_clear(&err);
        c->devs[w] = device_open_sim(device_arch(c->how->dev), &err);
        if (!c->devs[w] ||
            device_load_ptx(c->devs[w], c->how->path, c->how->ptx, c->how->ptx_len, &c->mods[w], &err)) {
            snprintf(s->msg, sizeof s->msg, "worker thread %d: %s", w, err.msg);
            s->st = err.status ? err.status : SIM_ERR_NOMEM;
            return 1;
        }
    }
    LaunchSpec spec = *c->how->spec; /* shares the argument data, read only */
    spec.seed = c->how->spec->seed + k;
    s->st = launch_run(c->devs[w], c->mods[w], &spec, &s->res, s->msg, sizeof s->msg);
    if (s->st == SIM_OK || s->st == SIM_ERR_FAULT) {
        const char *p = device_printf_output(c->devs[w]);
        if (p && *p && !(s->printed = strdup(p))) {
            snprintf(s->msg, sizeof s->msg, "out of memory keeping a run's printf text");
            return 2;
        }
        s->races = device_race_count(c->devs[w]) > 0;
    }
    return 0;
}

static void slot_free(Slot *s)
{
    launch_result_free(&s->res);
    free(s->printed);
    s->printed = NULL;
}

static int fold(void *user, size_t k, int rc)
{
    Ctx *c = user;
    Slot *s = &c->slots[k % c->window];
    int stop = 0;
    if (rc == 2) {
        snprintf(c->msg, c->cap, "%s", s->msg);
        c->status = EXPLORE_OUT_OF_MEMORY;
        stop = 1;
    } else if (rc || (s->st && s->st != SIM_ERR_FAULT)) {
        snprintf(c->msg, c->cap, "%s", s->msg);
        c->status = EXPLORE_LAUNCH_FAILED;
        stop = 1;
    } else {
        if (c->entry)
            *c->entry = device_find_kernel(c->how->mod, c->how->spec->kernel, NULL);
        if (!explore_add(c->e, &s->res, c->how->spec->seed + k, s->printed, s->races)) {
            snprintf(c->msg, c->cap, "out of memory after %llu runs", (unsigned long long)k);
            c->status = EXPLORE_OUT_OF_MEMORY;
            stop = 1;
        } else if (c->how->progress && c->how->progress(c->how->progress_user, c->e)) {
            c->status = EXPLORE_STOPPED;
            stop = 1;
        }
    }
    slot_free(s);
    return stop;
}

ExploreRunStatus explore_run(Explore *e, const ExploreRun *how, const char **entry, char *msg, size_t cap)
{
    int threads = how->threads < 1 ? 1 : how->threads;
    if (strcmp(device_backend(how->dev), "simulator") || !how->ptx)
        threads = 1; /* a GPU runs one launch at a time */
    Ctx c = {.how = how, .e = e, .window = pool_window(threads), .entry = entry, .msg = msg, .cap = cap};
    c.slots = calloc(c.window, sizeof *c.slots);
    c.devs = calloc((size_t)threads, sizeof *c.devs);
    c.mods = calloc((size_t)threads, sizeof *c.mods);
    if (!c.slots || !c.devs || !c.mods) {
        snprintf(msg, cap, "out of memory");
        c.status = EXPLORE_OUT_OF_MEMORY;
        goto done;
    }
    c.devs[0] = how->dev;
    c.mods[0] = how->mod;
    pool_run(threads, how->runs, c.window, work, fold, &c);
    for (size_t i = 0; i < c.window; i++)
        slot_free(&c.slots[i]); /* runs started after a failure */
    for (int w = 1; w < threads; w++)
        device_close(c.devs[w]);
done:
    free(c.slots);
    free(c.devs);
    free(c.mods);
    return c.status;
}
