/* xcheck_run.c: running a cross-check -- each launch on the simulator and
 * on the reference device (a GPU, or a second simulator standing in for
 * one), or against a recording; what a recording says about its device;
 * saving recordings and finding them again.  Calls down to xcheck_report.c
 * (reports), xcheck.c (comparing) and xcheck_record.c (writing); none of
 * them calls back. */
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "gpu.h"
#include "pool.h"
#include "xcheck.h"

static XcheckRefBuf *ref_buf(XcheckRef *r, int arg)
{
    for (int k = 0; k < r->nbufs; k++)
        if (r->bufs[k].arg == arg)
            return &r->bufs[k];
    return NULL;
}

static uint8_t *dup_bytes(const uint8_t *d, size_t n)
{
    uint8_t *c = d ? malloc(n ? n : 1) : NULL;
    if (c)
        memcpy(c, d, n);
    return c;
}

void xcheck_run_reference(Device *dev, DeviceModule *mod, const XcheckLaunch *l, int nruns, XcheckRef *ref)
{
    memset(ref, 0, sizeof *ref);
    ref->line = strdup(l->line);
    ref->regs = ref->api_blocks = -1;
    ref->static_smem = ref->local_bytes = -1;
    ref->time = -1;
    bool gpu = gpu_is_gpu(dev), stand_in_timed = !gpu && l->timed;
    snprintf(ref->time_unit, sizeof ref->time_unit, "%s", gpu ? "ms" : "cycles");
    int runs = l->order_dependent || (gpu && l->timed) ? nruns : 1; /* modelled cycles do not vary */
    double times[XCHECK_MAX_RUNS];
    int ntimes = 0;
    LaunchSpec spec = l->spec;
    spec.timing = spec.timing || stand_in_timed;
    for (int k = 0; k < runs; k++) {
        LaunchResult r;
        char msg[512];
        SimStatus st = launch_run(dev, mod, &spec, &r, msg, sizeof msg);
        if (st == SIM_OK && gpu && r.stats.kernel_ms > 0)
            times[ntimes++] = r.stats.kernel_ms;
        else if (st == SIM_OK && stand_in_timed && r.stats.timing.on)
            times[ntimes++] = (double)r.stats.cycles;
        if (st && st != SIM_ERR_FAULT) {
            snprintf(ref->fault, sizeof ref->fault, "launch-error");
            launch_result_free(&r);
            break;
        }
        if (st == SIM_ERR_FAULT)
            snprintf(ref->fault, sizeof ref->fault, "%s", r.fault.kind);
        if (k == 0) {
            ref->regs = r.stats.regs_per_thread < 0 ? 0 : r.stats.regs_per_thread; /* simulator: none counted */
            ref->static_smem = (long long)r.stats.static_smem;
            ref->local_bytes = (long long)r.stats.local_bytes;
        }
        for (int b = 0; b < r.nbufs; b++) {
            const LaunchBuffer *lb = &r.bufs[b];
            size_t bytes = lb->count * (uint64_t)argspec_type_size(lb->type);
            if (k == 0) {
                XcheckRefBuf *rb = &ref->bufs[ref->nbufs++];
                *rb = (XcheckRefBuf){.arg = lb->arg, .type = lb->type, .count = lb->count};
                rb->data = dup_bytes(lb->data, bytes);
                rb->hash = lb->data ? xcheck_hash(lb->data, bytes) : 0;
            }
            XcheckRefBuf *rb = ref_buf(ref, lb->arg);
            if (rb && xcheck_crit_for(l, lb->arg) && lb->data)
                rb->runs[rb->nruns++] = dup_bytes(lb->data, bytes);
        }
        launch_result_free(&r);
        if (ref->fault[0])
            break; /* a faulted GPU context is gone */
    }
    if (ntimes && !ref->fault[0])
        ref->time = xcheck_median(times, ntimes);
    const char *entry = device_find_kernel(mod, l->spec.kernel, NULL);
    int block = (int)(l->spec.block.x * l->spec.block.y * l->spec.block.z), api = -1;
    if (gpu) {
        if (entry && !ref->fault[0] && gpu_occupancy_max_active_blocks(mod, entry, block, l->spec.smem, &api, NULL))
            api = -1;
    } else {
        api = xcheck_model_blocks(device_arch(dev), &l->spec, ref->regs, ref->static_smem); /* stand-in */
    }
    ref->api_blocks = api;
}

/* ---- the simulator's launches side by side (pool.h) ---- */

typedef struct {
    SimStatus st;
    LaunchResult r;
    char msg[1024];
} SimRun;

/* Called on the calling thread for launch i, in order. */
typedef void (*TakeFn)(void *user, int i, SimRun *run);

typedef struct {
    const XcheckSim *sim;
    const XcheckLaunch *ls;
    SimRun *slots;
    size_t window;
    Device **devs;
    DeviceModule **mods;
    TakeFn take;
    void *user;
} SimRuns;

static int sim_work(void *user, size_t i, int w)
{
    SimRuns *x = user;
    SimRun *s = &x->slots[i % x->window];
    memset(s, 0, sizeof *s);
    if (!x->devs[w]) {
        SimError err;
        sim_error_clear(&err);
        x->devs[w] = device_open_sim(device_arch(x->sim->dev), &err);
        if (!x->devs[w] ||
            device_load_ptx(x->devs[w], x->sim->path, x->sim->ptx, x->sim->ptx_len, &x->mods[w], &err)) {
            snprintf(s->msg, sizeof s->msg, "worker thread %d: %s", w, err.msg);
            s->st = err.status ? err.status : SIM_ERR_NOMEM;
            return 0;
        }
    }
    s->st = launch_run(x->devs[w], x->mods[w], &x->ls[i].spec, &s->r, s->msg, sizeof s->msg);
    return 0;
}

static int sim_fold(void *user, size_t i, int rc)
{
    (void)rc;
    SimRuns *x = user;
    SimRun *s = &x->slots[i % x->window];
    x->take(x->user, (int)i, s);
    launch_result_free(&s->r);
    return 0;
}

/* Run ls[0..n) on the simulator, handing each result to take in order;
 * false when memory ran out (nothing taken). */
static bool sim_runs(const XcheckSim *sim, const XcheckLaunch *ls, int n, TakeFn take, void *user)
{
    int threads = sim->threads > 1 && sim->ptx ? sim->threads : 1;
    SimRuns x = {.sim = sim, .ls = ls, .window = pool_window(threads), .take = take, .user = user};
    x.slots = calloc(x.window, sizeof *x.slots);
    x.devs = calloc((size_t)threads, sizeof *x.devs);
    x.mods = calloc((size_t)threads, sizeof *x.mods);
    bool ok = x.slots && x.devs && x.mods;
    if (ok) {
        x.devs[0] = sim->dev;
        x.mods[0] = sim->mod;
        pool_run(threads, (size_t)n, x.window, sim_work, sim_fold, &x);
        for (int w = 1; w < threads; w++)
            device_close(x.devs[w]);
    }
    free(x.slots);
    free(x.devs);
    free(x.mods);
    return ok;
}

typedef struct {
    XcheckReport *rep;
    const char *arch;
    const XcheckLaunch *ls;
    Device *refdev;
    DeviceModule *rm;
    int runs;
    XcheckRecLesson *rec;        /* live */
    const XcheckRecLesson *L;    /* recorded */
} Take;

static void take_live(void *user, int i, SimRun *s)
{
    Take *t = user;
    XcheckRef *ref = &t->rec->refs[t->rec->n++];
    xcheck_run_reference(t->refdev, t->rm, &t->ls[i], t->runs, ref);
    xcheck_report_launch(t->rep, t->arch, &t->ls[i], s->st, &s->r, s->msg, ref, i == 0);
}

bool xcheck_check_lesson_live(XcheckReport *rep, const char *slug, const char *ref_desc, const XcheckSim *sim,
                              Device *refdev, DeviceModule *rm, const XcheckLaunch *ls, int n, int runs,
                              XcheckRecLesson *rec)
{
    rec->slug = strdup(slug);
    rec->refs = calloc(n ? (size_t)n : 1, sizeof *rec->refs);
    if (!rec->slug || !rec->refs)
        return false;
    const char *arch = device_arch(sim->dev);
    Take t = {.rep = rep, .arch = arch, .ls = ls, .refdev = refdev, .rm = rm, .runs = runs, .rec = rec};
    xcheck_report_lesson_begin(rep, slug, arch, ref_desc, "");
    bool ok = sim_runs(sim, ls, n, take_live, &t);
    double *times = calloc(n ? (size_t)n : 1, sizeof *times);
    const char *unit = n ? rec->refs[0].time_unit : "";
    for (int k = 0; times && k < rec->n; k++)
        times[k] = rec->refs[k].time;
    if (ok && times)
        xcheck_check_times(rep, sim, ls, n, times, unit, "the reference measured no time for one of these launches (a fault, or no cuEvent time)");
    ok = ok && times;
    free(times);
    xcheck_report_lesson_end(rep);
    return ok;
}

static void take_recorded(void *user, int i, SimRun *s)
{
    Take *t = user;
    xcheck_report_launch(t->rep, t->arch, &t->ls[i], s->st, &s->r, s->msg, &t->L->refs[i], i == 0);
}

/* Judge the time claims of cl[0..ncl) with the times L recorded for the
 * same lines. */
static bool recorded_times(XcheckReport *rep, const XcheckSim *sim, const XcheckRecLesson *L,
                           const XcheckLaunch *cl, int ncl)
{
    bool any = false;
    for (int k = 0; k < ncl; k++)
        any |= cl[k].than_line > 0;
    if (!any)
        return true;
    double *times = malloc((size_t)ncl * sizeof *times);
    if (!times)
        return false;
    const char *unit = "";
    bool some = false;
    for (int k = 0; k < ncl; k++) {
        times[k] = -1;
        for (int j = 0; j < L->n; j++)
            if (L->refs[j].line && !strcmp(L->refs[j].line, cl[k].line) && L->refs[j].time > 0) {
                times[k] = L->refs[j].time;
                unit = L->refs[j].time_unit;
                some = true;
            }
    }
    xcheck_check_times(rep, sim, cl, ncl, times, unit,
                       some ? "the recording has no time for one of these lines (record again)"
                            : "the recording has no times (made before time claims; record again)");
    free(times);
    return true;
}

bool xcheck_check_lesson_recorded(XcheckReport *rep, const char *arch, const char *ref_desc, const char *note,
                                  const XcheckSim *sim, const XcheckRecLesson *L, const XcheckLaunch *claims,
                                  int nclaims, char *msg, size_t cap)
{
    bool ok = true;
    char why[1024];
    XcheckLaunch *ls = calloc(L->n ? (size_t)L->n : 1, sizeof *ls);
    int n = 0;
    xcheck_report_lesson_begin(rep, L->slug, arch, ref_desc, note);
    /* every line parsed first; the launches before a bad one run and are reported */
    for (; ls && n < L->n; n++) {
        int p = xcheck_parse_line(L->refs[n].line, &ls[n], why, sizeof why);
        if (p <= 0) {
            snprintf(msg, cap, "lesson %s, launch %d: %s", L->slug, n, p < 0 ? why : "empty line");
            ok = false;
            break;
        }
    }
    Take t = {.rep = rep, .arch = arch, .ls = ls, .L = L};
    if (!ls || !sim_runs(sim, ls, n, take_recorded, &t)) {
        snprintf(msg, cap, "lesson %s: out of memory", L->slug);
        ok = false;
    }
    if (ok && !recorded_times(rep, sim, L, claims, nclaims)) {
        snprintf(msg, cap, "lesson %s: out of memory", L->slug);
        ok = false;
    }
    for (int k = 0; ls && k < n; k++)
        xcheck_launch_free(&ls[k]);
    free(ls);
    xcheck_report_lesson_end(rep);
    return ok;
}

static void today(char *buf, size_t cap)
{
    time_t t = time(NULL);
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(buf, cap, "%Y-%m-%d", &tm);
}

void xcheck_device_info(Device *refdev, const char *sim_arch, int runs, XcheckDeviceInfo *info)
{
    memset(info, 0, sizeof *info);
    SimError err;
    sim_error_clear(&err);
    if (gpu_is_gpu(refdev)) {
        if (gpu_device_info(refdev, info->device, sizeof info->device, info->driver, sizeof info->driver,
                            &info->cuda_version, &err))
            snprintf(info->device, sizeof info->device, "GPU");
    } else {
        snprintf(info->device, sizeof info->device, "warpsim simulator %s", sim_arch);
        snprintf(info->driver, sizeof info->driver, "none");
    }
    snprintf(info->backend, sizeof info->backend, "%s", device_backend(refdev));
    snprintf(info->arch, sizeof info->arch, "%s", device_arch(refdev));
    today(info->date, sizeof info->date);
    info->runs = runs;
}

/* mkdir -p */
static bool make_dirs(const char *path)
{
    char p[XCHECK_PATH_MAX];
    snprintf(p, sizeof p, "%s", path);
    for (char *s = p + 1;; s++) {
        if (*s == '/' || !*s) {
            char c = *s;
            *s = 0;
            if (mkdir(p, 0777) && errno != EEXIST)
                return false;
            if (!(*s = c))
                return true;
        }
    }
}

void xcheck_reference_text(const XcheckDeviceInfo *info, const char *path, char *buf, size_t cap)
{
    if (path)
        snprintf(buf, cap, "%.16s recorded %.128s (%.32s, driver %.64s, CUDA %d.%d) in %.1400s", info->backend,
                 info->device, info->date, info->driver, info->cuda_version / 1000, info->cuda_version % 1000 / 10,
                 path);
    else if (!strcmp(info->backend, "gpu"))
        snprintf(buf, cap, "gpu %s (%s)", info->device, info->arch);
    else
        snprintf(buf, cap, "a second simulator standing in for a GPU (%s)", info->arch);
}

bool xcheck_recording_save(const char *dir, const XcheckRecording *r, char *path, size_t pcap, char *msg,
                           size_t cap)
{
    char slug[128];
    xcheck_slug(r->info.device, slug, sizeof slug);
    snprintf(path, pcap, "%s/%s", dir, slug);
    if (!make_dirs(path)) {
        snprintf(msg, cap, "cannot create %s", path);
        return false;
    }
    snprintf(path + strlen(path), pcap - strlen(path), "/xcheck.json");
    return xcheck_recording_write(path, r, msg, cap);
}

int xcheck_recordings_find(const char *p, char (*files)[XCHECK_PATH_MAX], int max)
{
    int nf = 0;
    struct stat st;
    size_t pl = strlen(p);
    if (max < 1)
        return 0;
    if (pl > 5 && !strcmp(p + pl - 5, ".json")) {
        snprintf(files[nf++], XCHECK_PATH_MAX, "%s", p);
    } else {
        snprintf(files[0], XCHECK_PATH_MAX, "%s/xcheck.json", p);
        if (stat(files[0], &st) == 0) {
            nf = 1;
        } else {
            DIR *d = opendir(p);
            struct dirent *e;
            while (d && (e = readdir(d)) && nf < max) {
                snprintf(files[nf], XCHECK_PATH_MAX, "%s/%s/xcheck.json", p, e->d_name);
                if (e->d_name[0] != '.' && stat(files[nf], &st) == 0)
                    nf++;
            }
            if (d)
                closedir(d);
        }
    }
    /* readdir order is not sorted: sort for stable output */
    for (int i = 1; i < nf; i++)
        for (int j = i; j > 0 && strcmp(files[j - 1], files[j]) > 0; j--) {
            char t[XCHECK_PATH_MAX];
            memcpy(t, files[j], sizeof t);
            memcpy(files[j], files[j - 1], sizeof t);
            memcpy(files[j - 1], t, sizeof t);
        }
    return nf;
}
