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
    int runs = l->order_dependent ? nruns : 1;
    for (int k = 0; k < runs; k++) {
        LaunchResult r;
        char msg[512];
        SimStatus st = launch_run(dev, mod, &l->spec, &r, msg, sizeof msg);
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
    const char *entry = device_find_kernel(mod, l->spec.kernel, NULL);
    int block = (int)(l->spec.block.x * l->spec.block.y * l->spec.block.z), api = -1;
    if (gpu_is_gpu(dev)) {
        if (entry && !ref->fault[0] && gpu_occupancy_max_active_blocks(mod, entry, block, l->spec.smem, &api, NULL))
            api = -1;
    } else {
        api = xcheck_model_blocks(device_arch(dev), &l->spec, ref->regs, ref->static_smem); /* stand-in */
    }
    ref->api_blocks = api;
}

bool xcheck_check_lesson_live(XcheckReport *rep, const char *slug, const char *ref_desc, Device *sim,
                              DeviceModule *sm, Device *refdev, DeviceModule *rm, const XcheckLaunch *ls, int n,
                              int runs, XcheckRecLesson *rec)
{
    char msg[1024];
    rec->slug = strdup(slug);
    rec->refs = calloc(n ? (size_t)n : 1, sizeof *rec->refs);
    if (!rec->slug || !rec->refs)
        return false;
    xcheck_report_lesson_begin(rep, slug, device_arch(sim), ref_desc, "");
    for (int i = 0; i < n; i++) {
        LaunchResult r;
        SimStatus st = launch_run(sim, sm, &ls[i].spec, &r, msg, sizeof msg);
        XcheckRef *ref = &rec->refs[rec->n++];
        xcheck_run_reference(refdev, rm, &ls[i], runs, ref);
        xcheck_report_launch(rep, device_arch(sim), &ls[i], st, &r, msg, ref, i == 0);
        launch_result_free(&r);
    }
    xcheck_report_lesson_end(rep);
    return true;
}

bool xcheck_check_lesson_recorded(XcheckReport *rep, const char *arch, const char *ref_desc, const char *note,
                                  Device *sim, DeviceModule *mod, const XcheckRecLesson *L, char *msg, size_t cap)
{
    bool ok = true;
    char why[1024];
    xcheck_report_lesson_begin(rep, L->slug, arch, ref_desc, note);
    for (int k = 0; k < L->n; k++) {
        XcheckLaunch l;
        LaunchResult r;
        memset(&r, 0, sizeof r);
        int p = xcheck_parse_line(L->refs[k].line, &l, why, sizeof why);
        if (p <= 0) {
            snprintf(msg, cap, "lesson %s, launch %d: %s", L->slug, k, p < 0 ? why : "empty line");
            ok = false;
            break;
        }
        SimStatus st = launch_run(sim, mod, &l.spec, &r, why, sizeof why);
        xcheck_report_launch(rep, arch, &l, st, &r, why, &L->refs[k], k == 0);
        launch_result_free(&r);
        xcheck_launch_free(&l);
    }
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
