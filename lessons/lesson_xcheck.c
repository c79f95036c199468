/* lesson_xcheck.c: which lessons `warpsim xcheck` checks, their kernel.ptx
 * loaded on the simulator and on the GPU (or a second simulator), and the
 * live check, recording and recorded comparison of each (lesson_xcheck.h). */
#include "lesson_xcheck.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "gpu.h"
#include "lesson.h"
#include "report.h"
#include "source.h"

typedef struct {
    const LessonXcheckOptions *o;
    XcheckReport *rep;
    char root[1024];             /* the lessons folder */
} Ctx;


static bool has_xcheck(const Ctx *x, const char *slug)
{
    char path[1400];
    struct stat st;
    snprintf(path, sizeof path, "%s/%s/xcheck.txt", x->root, slug);
    return stat(path, &st) == 0;
}

/* Is lesson slug selected (by number or name)? */
static bool selected(const Ctx *x, const char *slug)
{
    if (x->o->all || !x->o->nsel)
        return true;
    for (int i = 0; i < x->o->nsel; i++) {
        const Lesson *l = lesson_find(x->o->sel[i]);
        if ((l && !strcmp(l->slug, slug)) || !strcmp(x->o->sel[i], slug))
            return true;
    }
    return false;
}

/* Load lesson slug's kernel.ptx on dev; with sim, also keep its text and
 * name there for the worker threads (sim->ptx is then the caller's). */
static bool load_lesson_ptx(Ctx *x, const char *slug, Device *dev, DeviceModule **mod, uint64_t *hash,
                            XcheckSim *sim, char *path, size_t pcap)
{
    char msg[512];
    size_t len;
    snprintf(path, pcap, "%s/%s/kernel.ptx", x->root, slug);
    char *ptx = source_read_file(path, &len, msg, sizeof msg);
    if (!ptx) {
        fprintf(x->o->err, "warpsim xcheck: %s\n", msg);
        return false;
    }
    SimError err;
    sim_error_clear(&err);
    bool ok = !device_load_ptx(dev, path, ptx, len, mod, &err);
    if (!ok) {
        fprintf(x->o->err, "warpsim xcheck: on the %s: ", device_backend(dev));
        report_error(x->o->err, &err, ptx, len);
    }
    if (hash)
        *hash = xcheck_hash(ptx, len);
    if (sim && ok) {
        *sim = (XcheckSim){.dev = dev, .mod = *mod, .path = path, .ptx = ptx, .ptx_len = len,
                           .threads = x->o->threads};
        return true;
    }
    free(ptx);
    return ok;
}

/* Live check of one lesson; fills rec when recording.  2 when it cannot run. */
static int live_lesson(Ctx *x, Device *sim, Device *refdev, const char *slug, const char *ref_desc,
                       XcheckRecLesson *rec)
{
    char msg[1024], path[1400];
    snprintf(path, sizeof path, "%s/%s/xcheck.txt", x->root, slug);
    XcheckLaunch *ls;
    int n;
    if (!xcheck_read_file(path, &ls, &n, msg, sizeof msg)) {
        fprintf(x->o->err, "warpsim xcheck: %s\n", msg);
        return 2;
    }
    DeviceModule *sm, *rm;
    XcheckSim xs = {0};
    char spath[1400], rpath[1400];
    int rc = 2;
    if (load_lesson_ptx(x, slug, sim, &sm, &rec->ptx_hash, &xs, spath, sizeof spath) &&
        load_lesson_ptx(x, slug, refdev, &rm, NULL, NULL, rpath, sizeof rpath) &&
        xcheck_check_lesson_live(x->rep, slug, ref_desc, &xs, refdev, rm, ls, n, x->o->runs, rec))
        rc = 0;
    free((char *)xs.ptx);
    for (int i = 0; i < n; i++)
        xcheck_launch_free(&ls[i]);
    free(ls);
    return rc;
}

static int live(Ctx *x, char *saved, size_t saved_cap)
{
    SimError err;
    sim_error_clear(&err);
    Device *refdev = x->o->use_sim ? device_open_sim(x->o->arch, &err) : device_open_gpu(0, &err);
    if (!refdev) {
        fprintf(x->o->err, "warpsim xcheck: %s\n", err.msg);
        if (!x->o->use_sim)
            fprintf(x->o->err, "warpsim xcheck: no GPU here; try `warpsim xcheck --recorded` to compare with "
                            "recorded hardware results\n");
        return 2;
    }
    XcheckRecording rec;
    memset(&rec, 0, sizeof rec);
    XcheckDeviceInfo *info = &rec.info;
    xcheck_device_info(refdev, x->o->arch, x->o->runs, info);
    Device *sim = device_open_sim(info->arch, &err);
    int rc = 2;
    if (!sim) {
        fprintf(x->o->err, "warpsim xcheck: the simulator has no profile for the GPU's %s: %s\n", info->arch, err.msg);
        device_close(refdev);
        return 2;
    }
    char desc[2048];
    xcheck_reference_text(info, NULL, desc, sizeof desc);
    xcheck_report_live_begin(x->rep, info);
    rec.lessons = calloc((size_t)lesson_count(), sizeof *rec.lessons);
    int done = 0;
    for (int i = 0; rec.lessons && i < lesson_count(); i++) {
        const Lesson *l = lesson_at(i);
        if (!selected(x, l->slug) || (x->o->all && !has_xcheck(x, l->slug)))
            continue;
        if (!x->o->all && !has_xcheck(x, l->slug)) {
            fprintf(x->o->err, "warpsim xcheck: lesson %s has no xcheck.txt\n", l->slug);
            goto out;
        }
        if (live_lesson(x, sim, refdev, l->slug, desc, &rec.lessons[rec.n++]))
            goto out;
        done++;
    }
    if (!done) {
        fprintf(x->o->err, "warpsim xcheck: no lesson to check\n");
        goto out;
    }
    rc = x->rep->mismatches || x->rep->time_fails ? 1 : 0;
    if (x->o->record_dir) {
        char path[XCHECK_PATH_MAX], msg[1600];
        if (!xcheck_recording_save(x->o->record_dir, &rec, path, sizeof path, msg, sizeof msg)) {
            fprintf(x->o->err, "warpsim xcheck: %s\n", msg);
            rc = 2;
            goto out;
        }
        snprintf(saved, saved_cap, "%s", path);
    }
out:
    if (rc != 2)
        xcheck_report_live_end(x->rep);
    xcheck_recording_free(&rec);
    device_close(sim);
    device_close(refdev);
    return rc;
}

/* Compare the simulator with one recording file. */
static int recorded_file(Ctx *x, const char *path, bool first)
{
    XcheckRecording rec;
    char msg[1024];
    if (!xcheck_recording_read(path, &rec, msg, sizeof msg)) {
        fprintf(x->o->err, "warpsim xcheck: %s\n", msg);
        return 2;
    }
    SimError err;
    sim_error_clear(&err);
    Device *sim = device_open_sim(rec.info.arch, &err);
    if (!sim) {
        fprintf(x->o->err, "warpsim xcheck: %s: %s\n", path, err.msg);
        xcheck_recording_free(&rec);
        return 2;
    }
    char desc[2048];
    xcheck_reference_text(&rec.info, path, desc, sizeof desc);
    xcheck_report_recording_begin(x->rep, path, &rec.info, first);
    int rc = 0;
    for (int li = 0; li < rec.n && rc != 2; li++) {
        const XcheckRecLesson *L = &rec.lessons[li];
        if (!selected(x, L->slug))
            continue;
        DeviceModule *mod;
        uint64_t hash;
        XcheckSim xs;
        char ppath[1400];
        if (!load_lesson_ptx(x, L->slug, sim, &mod, &hash, &xs, ppath, sizeof ppath)) {
            rc = 2;
            break;
        }
        const char *note = hash == L->ptx_hash ? "" : "kernel.ptx changed since this recording; record it again";
        /* the lesson's time claims as its xcheck.txt states them now */
        XcheckLaunch *cl = NULL;
        int ncl = 0;
        char cpath[1400];
        snprintf(cpath, sizeof cpath, "%s/%s/xcheck.txt", x->root, L->slug);
        if (has_xcheck(x, L->slug) && !xcheck_read_file(cpath, &cl, &ncl, msg, sizeof msg)) {
            fprintf(x->o->err, "warpsim xcheck: %s\n", msg);
            rc = 2;
        } else if (!xcheck_check_lesson_recorded(x->rep, rec.info.arch, desc, note, &xs, L, cl, ncl, msg,
                                                 sizeof msg)) {
            fprintf(x->o->err, "warpsim xcheck: %s: %s\n", path, msg);
            rc = 2;
        }
        for (int k = 0; k < ncl; k++)
            xcheck_launch_free(&cl[k]);
        free(cl);
        free((char *)xs.ptx);
    }
    xcheck_report_recording_end(x->rep);
    device_close(sim);
    xcheck_recording_free(&rec);
    return rc;
}

static int recorded(Ctx *x)
{
    char dflt[1100], files[16][XCHECK_PATH_MAX];
    const char *p = x->o->recorded_path;
    if (!p) {
        snprintf(dflt, sizeof dflt, "%s/../traces/hw", x->root);
        p = dflt;
    }
    int nf = xcheck_recordings_find(p, files, 16);
    if (!nf) {
        fprintf(x->o->err, "warpsim xcheck: no recording found in %s (record one on a GPU machine with "
                        "`warpsim xcheck --all --record traces/hw`)\n", p);
        return 2;
    }
    xcheck_report_recorded_begin(x->rep);
    int rc = 0;
    for (int i = 0; i < nf && rc != 2; i++)
        rc = recorded_file(x, files[i], i == 0);
    if (rc == 2)
        return 2;
    xcheck_report_recorded_end(x->rep, nf);
    return x->rep->mismatches || x->rep->time_fails ? 1 : 0;
}

/* The lessons folder, or false (said on o->err). */
static bool open_ctx(Ctx *x, const LessonXcheckOptions *o, XcheckReport *rep)
{
    x->o = o;
    x->rep = rep;
    if (!lesson_root(x->root, sizeof x->root)) {
        fprintf(o->err, "warpsim xcheck: cannot find the lessons folder (set WARPSIM_LESSONS)\n");
        return false;
    }
    return true;
}

int lesson_xcheck_live(const LessonXcheckOptions *o, XcheckReport *rep, char *saved, size_t saved_cap)
{
    Ctx x;
    if (saved_cap)
        saved[0] = 0;
    return open_ctx(&x, o, rep) ? live(&x, saved, saved_cap) : 2;
}

int lesson_xcheck_recorded(const LessonXcheckOptions *o, XcheckReport *rep)
{
    Ctx x;
    return open_ctx(&x, o, rep) ? recorded(&x) : 2;
}
