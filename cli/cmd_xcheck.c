/* cmd_xcheck.c: `warpsim xcheck` -- run each lesson's checked launches
 * (lessons/NN-topic/xcheck.txt) in the simulator and on the GPU (or compare
 * with a recording of a GPU, traces/hw/<gpu>/xcheck.json), compare every
 * output buffer and the occupancy, print the two side by side, and write
 * recordings with --record.  The pieces are in xcheck.h. */
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "cmd.h"
#include "gpu.h"
#include "lesson.h"
#include "report.h"
#include "source.h"
#include "xcheck.h"

static const char xcheck_help[] =
    "usage: warpsim xcheck (LESSON... | --all) [--runs R] [--json] [--record DIR]\n"
    "                      [--backend gpu|sim] [--arch sm_XX]\n"
    "       warpsim xcheck --recorded [DIR | FILE.json] [LESSON...] [--json]\n"
    "\n"
    "Runs every launch in each lesson's xcheck.txt in the simulator and on the GPU\n"
    "and compares them: every output buffer bit for bit, order-dependent buffers by\n"
    "the property their line states, and blocks per SM (the occupancy model with the\n"
    "GPU's registers and static shared memory vs cuOccupancyMaxActiveBlocksPerMultiprocessor).\n"
    "\n"
    "  LESSON         a number (1) or folder name (01-threads-and-races)\n"
    "  --all          every lesson that has an xcheck.txt\n"
    "  --runs R       hardware runs of an order-dependent launch (default 3, at most 32)\n"
    "  --json         print exactly one JSON object\n"
    "  --record DIR   also write DIR/<gpu>/xcheck.json (e.g. --record traces/hw)\n"
    "  --backend sim  let a second simulator stand in for the GPU (tests the checker\n"
    "                 and the recorder on a machine without one; --arch picks it)\n"
    "  --recorded     no GPU: compare the simulator with recordings (default every\n"
    "                 traces/hw/*/xcheck.json)\n"
    "\n"
    "Exit status: 0 everything agrees, 1 a mismatch, 2 bad usage, no GPU, no recording.\n";

#define MAX_SEL 64

typedef struct {
    bool json, all, use_sim, recorded;
    int runs;
    const char *record_dir, *recorded_path, *arch;
    const char *sel[MAX_SEL];
    int nsel;
    char root[1024];             /* the lessons folder */
    bool first_lesson;           /* JSON: no comma before the next lesson */
    int launches, mismatches;
} Xc;

static int usage(const char *fmt, const char *a)
{
    fprintf(stderr, "warpsim xcheck: ");
    fprintf(stderr, fmt, a);
    fprintf(stderr, "\n(see warpsim xcheck --help)\n");
    return 2;
}

/* ---- printing one compared launch ---- */

static void value_text(PtxType t, const uint8_t *d, uint64_t count, char *buf, size_t cap)
{
    if (!d) {
        snprintf(buf, cap, "-");
    } else if (count == 1) {
        argspec_format_text(t, d, buf, cap);
    } else {
        snprintf(buf, cap, "xxh64 %016" PRIx64, xcheck_hash(d, count * (uint64_t)argspec_type_size(t)));
    }
}

static void elem_hex(PtxType t, const uint8_t *d, int64_t k, char *buf, size_t cap)
{
    char h[64];
    argspec_format_hex(t, d + k * argspec_type_size(t), h, sizeof h);
    snprintf(buf, cap, "[%" PRId64 "] 0x%s", k, h);
}

static const XcheckRefBuf *ref_buf(const XcheckRef *r, int arg)
{
    for (int k = 0; k < r->nbufs; k++)
        if (r->bufs[k].arg == arg)
            return &r->bufs[k];
    return NULL;
}

static const LaunchBuffer *sim_buf(const LaunchResult *s, int arg)
{
    for (int k = 0; k < s->nbufs; k++)
        if (s->bufs[k].arg == arg)
            return &s->bufs[k];
    return NULL;
}

/* The three columns and the verdict of one buffer. */
static void buf_columns(const XcheckBufCmp *c, const LaunchResult *sim, const XcheckRef *ref, char *sc, char *rc,
                        char *verdict, size_t cap)
{
    const LaunchBuffer *s = sim_buf(sim, c->arg);
    const XcheckRefBuf *r = ref_buf(ref, c->arg);
    if (c->verdict == XCHECK_MISSING) {
        snprintf(sc, cap, "%s", s && s->data ? "present" : "missing");
        snprintf(rc, cap, "%s", r ? "present (other shape)" : "missing");
        snprintf(verdict, cap, "MISSING");
    } else if (c->crit) {
        value_text(s->type, s->data, s->count, sc, cap);
        size_t n = 0;
        rc[0] = 0;
        for (int k = 0; k < r->nruns && n + 1 < cap; k++) {
            char v[64];
            value_text(r->type, r->runs[k], r->count, v, sizeof v);
            n += (size_t)snprintf(rc + n, cap - n, "%s%s", k ? ", " : "", v);
        }
        snprintf(verdict, cap, "%s %s (sim %s, %d/%d runs)", c->crit->text,
                 c->verdict == XCHECK_HOLDS ? "holds" : "FAILS", c->sim_holds ? "yes" : "no", c->runs_holding,
                 r->nruns);
    } else if (c->verdict == XCHECK_DIFFERS && c->index >= 0) {
        elem_hex(s->type, s->data, c->index, sc, cap);
        elem_hex(r->type, r->data, c->index, rc, cap);
        snprintf(verdict, cap, "DIFFERS");
    } else {
        value_text(s->type, s->data, s->count, sc, cap);
        if (r->data)
            value_text(r->type, r->data, r->count, rc, cap);
        else
            snprintf(rc, cap, "xxh64 %016" PRIx64, r->hash);
        if (c->verdict == XCHECK_DIFFERS && s->count == 1) /* same value, other hash */
            snprintf(rc + strlen(rc), cap - strlen(rc), " (xxh64 %016" PRIx64 ")", r->hash);
        snprintf(verdict, cap, "%s", c->verdict == XCHECK_IDENTICAL ? "identical" : "DIFFERS");
    }
}

static void json_str(const char *s)
{
    report_json_string(stdout, s);
}

/* Compare and print one launch; returns true when it agrees. */
static bool report_launch(Xc *x, const char *arch, const XcheckLaunch *l, SimStatus sst, const LaunchResult *sim,
                          const char *sim_msg, const XcheckRef *ref, bool first)
{
    XcheckBufCmp cmp[LAUNCH_MAX_ARGS];
    int n = 0;
    bool ran = sst == SIM_OK || sst == SIM_ERR_FAULT;
    bool ok = ran && xcheck_compare_buffers(l, sim, ref, cmp, &n);
    bool sim_fault = sst == SIM_ERR_FAULT;
    ok = ok && !sim_fault && !ref->fault[0];
    int model = xcheck_model_blocks(arch, &l->spec, ref->regs, ref->static_smem);
    bool occ_known = model >= 0 && ref->api_blocks >= 0, occ_ok = !occ_known || model == ref->api_blocks;
    ok = ok && occ_ok;
    x->launches++;
    x->mismatches += !ok;
    const LaunchSpec *s = &l->spec;
    char shape[96];
    snprintf(shape, sizeof shape, "<<<(%u,%u,%u), (%u,%u,%u), %lu>>>", s->grid.x, s->grid.y, s->grid.z, s->block.x,
             s->block.y, s->block.z, s->smem);
    char sc[512], rc[512], vd[512];
    if (x->json) {
        printf("%s{\"line\": ", first ? "" : ", ");
        json_str(l->line);
        printf(", \"kernel\": ");
        json_str(s->kernel);
        printf(", \"ok\": %s, \"sim_fault\": ", ok ? "true" : "false");
        if (!ran)
            json_str(sim_msg);
        else if (sim_fault)
            json_str(sim->fault.kind);
        else
            printf("null");
        printf(", \"ref_fault\": ");
        if (ref->fault[0])
            json_str(ref->fault);
        else
            printf("null");
        printf(", \"occupancy\": {\"model_blocks_per_sm\": %d, \"api_blocks_per_sm\": %d, \"regs\": %d, "
               "\"static_smem\": %lld, \"agree\": %s}, \"buffers\": [",
               model, ref->api_blocks, ref->regs, ref->static_smem, occ_ok ? "true" : "false");
        static const char *const vnames[] = {"identical", "differs", "holds", "fails", "missing"};
        for (int i = 0; i < n; i++) {
            buf_columns(&cmp[i], sim, ref, sc, rc, vd, sizeof sc);
            printf("%s{\"arg\": %d, \"type\": \"%s\", \"count\": %" PRIu64 ", \"verdict\": \"%s\", \"index\": %" PRId64
                   ", \"simulator\": ",
                   i ? ", " : "", cmp[i].arg, argspec_type_name(cmp[i].type), cmp[i].count, vnames[cmp[i].verdict],
                   cmp[i].index);
            json_str(sc);
            printf(", \"reference\": ");
            json_str(rc);
            if (cmp[i].crit) {
                printf(", \"criterion\": ");
                json_str(cmp[i].crit->text);
            }
            printf("}");
        }
        printf("]}");
        return ok;
    }
    printf("  %s %s  %s%s\n", s->kernel, shape, l->order_dependent ? "order-dependent" : "exact",
           ok ? "" : "  <-- MISMATCH");
    if (!ran) {
        printf("    the simulator could not run it: %s\n", sim_msg);
        return false;
    }
    if (sim_fault)
        printf("    the simulator faulted: %s: %s\n", sim->fault.kind, sim->fault.msg);
    if (ref->fault[0])
        printf("    the reference faulted: %s\n", ref->fault);
    for (int i = 0; i < n; i++) {
        char what[64];
        snprintf(what, sizeof what, "arg %d %s[%" PRIu64 "]", cmp[i].arg, argspec_type_name(cmp[i].type),
                 cmp[i].count);
        buf_columns(&cmp[i], sim, ref, sc, rc, vd, sizeof sc);
        printf("    %-20s %-24s %-24s %s\n", what, sc, rc, vd);
    }
    if (occ_known) {
        snprintf(sc, sizeof sc, "%d blocks/SM (model)", model);
        snprintf(rc, sizeof rc, "%d blocks/SM (API)", ref->api_blocks);
        snprintf(vd, sizeof vd, "%s  (%d regs, %lld B static smem)", occ_ok ? "agree" : "DIFFERS", ref->regs,
                 ref->static_smem);
    } else {
        snprintf(sc, sizeof sc, "%s", model >= 0 ? "model" : "-");
        snprintf(rc, sizeof rc, "-");
        snprintf(vd, sizeof vd, "not compared (registers or API answer unknown)");
    }
    printf("    %-20s %-24s %-24s %s\n", "occupancy", sc, rc, vd);
    return ok;
}

static void lesson_header(Xc *x, const char *slug, const char *sim_arch, const char *ref_desc, const char *note)
{
    if (x->json) {
        printf("%s{\"lesson\": ", x->first_lesson ? "" : ", ");
        json_str(slug);
        printf(", \"note\": ");
        json_str(note);
        printf(", \"launches\": [");
    } else {
        printf("%s%s: simulator %s vs %s%s%s\n", x->first_lesson ? "" : "\n", slug, sim_arch, ref_desc,
               note[0] ? "\n  note: " : "", note);
        printf("    %-20s %-24s %-24s %s\n", "", "simulator", "reference", "verdict");
    }
    x->first_lesson = false;
}

static void lesson_footer(Xc *x)
{
    if (x->json)
        printf("]}");
}

/* ---- running ---- */

static char *lesson_file(const Xc *x, const char *slug, const char *name, size_t *len, char *msg, size_t cap)
{
    char path[1400];
    snprintf(path, sizeof path, "%s/%s/%s", x->root, slug, name);
    return source_read_file(path, len, msg, cap);
}

static bool has_xcheck(const Xc *x, const char *slug)
{
    char path[1400];
    struct stat st;
    snprintf(path, sizeof path, "%s/%s/xcheck.txt", x->root, slug);
    return stat(path, &st) == 0;
}

/* Is lesson slug selected (by number or name)? */
static bool selected(const Xc *x, const char *slug)
{
    if (x->all || !x->nsel)
        return true;
    for (int i = 0; i < x->nsel; i++) {
        const Lesson *l = lesson_find(x->sel[i]);
        if ((l && !strcmp(l->slug, slug)) || !strcmp(x->sel[i], slug))
            return true;
    }
    return false;
}

static uint8_t *dup_bytes(const uint8_t *d, size_t n)
{
    uint8_t *c = d ? malloc(n ? n : 1) : NULL;
    if (c)
        memcpy(c, d, n);
    return c;
}

/* Run launch l `runs` times on the reference device and collect what it gave. */
static void run_reference(Xc *x, Device *dev, DeviceModule *mod, const XcheckLaunch *l, XcheckRef *ref)
{
    memset(ref, 0, sizeof *ref);
    ref->line = strdup(l->line);
    ref->regs = ref->api_blocks = -1;
    ref->static_smem = ref->local_bytes = -1;
    int runs = l->order_dependent ? x->runs : 1;
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
            XcheckRefBuf *rb = (XcheckRefBuf *)ref_buf(ref, lb->arg);
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

static bool load_lesson_ptx(Xc *x, const char *slug, Device *dev, DeviceModule **mod, uint64_t *hash)
{
    char msg[512], path[1400];
    size_t len;
    char *ptx = lesson_file(x, slug, "kernel.ptx", &len, msg, sizeof msg);
    if (!ptx) {
        fprintf(stderr, "warpsim xcheck: %s\n", msg);
        return false;
    }
    snprintf(path, sizeof path, "%s/%s/kernel.ptx", x->root, slug);
    SimError err;
    sim_error_clear(&err);
    bool ok = !device_load_ptx(dev, path, ptx, len, mod, &err);
    if (!ok) {
        fprintf(stderr, "warpsim xcheck: on the %s: ", device_backend(dev));
        report_error(stderr, &err, ptx, len);
    }
    if (hash)
        *hash = xcheck_hash(ptx, len);
    free(ptx);
    return ok;
}

/* Live check of one lesson; fills rec when recording.  2 when it cannot run. */
static int live_lesson(Xc *x, Device *sim, Device *refdev, const char *slug, const char *ref_desc,
                       XcheckRecLesson *rec)
{
    char msg[1024], path[1400];
    snprintf(path, sizeof path, "%s/%s/xcheck.txt", x->root, slug);
    XcheckLaunch *ls;
    int n;
    if (!xcheck_read_file(path, &ls, &n, msg, sizeof msg)) {
        fprintf(stderr, "warpsim xcheck: %s\n", msg);
        return 2;
    }
    DeviceModule *sm, *rm;
    int rc = 2;
    if (!load_lesson_ptx(x, slug, sim, &sm, &rec->ptx_hash) || !load_lesson_ptx(x, slug, refdev, &rm, NULL))
        goto done;
    rec->slug = strdup(slug);
    rec->refs = calloc(n ? (size_t)n : 1, sizeof *rec->refs);
    if (!rec->slug || !rec->refs)
        goto done;
    lesson_header(x, slug, device_arch(sim), ref_desc, "");
    for (int i = 0; i < n; i++) {
        LaunchResult r;
        SimStatus st = launch_run(sim, sm, &ls[i].spec, &r, msg, sizeof msg);
        XcheckRef *ref = &rec->refs[rec->n++];
        run_reference(x, refdev, rm, &ls[i], ref);
        report_launch(x, device_arch(sim), &ls[i], st, &r, msg, ref, i == 0);
        launch_result_free(&r);
    }
    lesson_footer(x);
    rc = 0;
done:
    for (int i = 0; i < n; i++)
        xcheck_launch_free(&ls[i]);
    free(ls);
    return rc;
}

static void today(char *buf, size_t cap)
{
    time_t t = time(NULL);
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(buf, cap, "%Y-%m-%d", &tm);
}

/* mkdir -p */
static bool make_dirs(const char *path)
{
    char p[1400];
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

static int live(Xc *x)
{
    SimError err;
    sim_error_clear(&err);
    Device *refdev = x->use_sim ? device_open_sim(x->arch, &err) : device_open_gpu(0, &err);
    if (!refdev) {
        fprintf(stderr, "warpsim xcheck: %s\n", err.msg);
        if (!x->use_sim)
            fprintf(stderr, "warpsim xcheck: no GPU here; try `warpsim xcheck --recorded` to compare with "
                            "recorded hardware results\n");
        return 2;
    }
    XcheckRecording rec;
    memset(&rec, 0, sizeof rec);
    XcheckDeviceInfo *info = &rec.info;
    if (gpu_is_gpu(refdev)) {
        if (gpu_device_info(refdev, info->device, sizeof info->device, info->driver, sizeof info->driver,
                            &info->cuda_version, &err))
            snprintf(info->device, sizeof info->device, "GPU");
    } else {
        snprintf(info->device, sizeof info->device, "warpsim simulator %s", x->arch);
        snprintf(info->driver, sizeof info->driver, "none");
    }
    snprintf(info->backend, sizeof info->backend, "%s", device_backend(refdev));
    snprintf(info->arch, sizeof info->arch, "%s", device_arch(refdev));
    today(info->date, sizeof info->date);
    info->runs = x->runs;
    Device *sim = device_open_sim(info->arch, &err);
    int rc = 2;
    if (!sim) {
        fprintf(stderr, "warpsim xcheck: the simulator has no profile for the GPU's %s: %s\n", info->arch, err.msg);
        device_close(refdev);
        return 2;
    }
    char desc[256];
    if (gpu_is_gpu(refdev))
        snprintf(desc, sizeof desc, "gpu %s (%s)", info->device, info->arch);
    else
        snprintf(desc, sizeof desc, "a second simulator standing in for a GPU (%s)", info->arch);
    if (x->json) {
        printf("{\"mode\": \"live\", \"checks\": [{\"reference\": {\"device\": ");
        json_str(info->device);
        printf(", \"backend\": \"%s\", \"arch\": \"%s\"}, \"lessons\": [", info->backend, info->arch);
    }
    rec.lessons = calloc((size_t)lesson_count(), sizeof *rec.lessons);
    int done = 0;
    for (int i = 0; rec.lessons && i < lesson_count(); i++) {
        const Lesson *l = lesson_at(i);
        if (!selected(x, l->slug) || (x->all && !has_xcheck(x, l->slug)))
            continue;
        if (!x->all && !has_xcheck(x, l->slug)) {
            fprintf(stderr, "warpsim xcheck: lesson %s has no xcheck.txt\n", l->slug);
            goto out;
        }
        if (live_lesson(x, sim, refdev, l->slug, desc, &rec.lessons[rec.n++]))
            goto out;
        done++;
    }
    if (!done) {
        fprintf(stderr, "warpsim xcheck: no lesson to check\n");
        goto out;
    }
    rc = x->mismatches ? 1 : 0;
    if (x->record_dir) {
        char slug[128], path[1400], msg[1600];
        xcheck_slug(info->device, slug, sizeof slug);
        snprintf(path, sizeof path, "%s/%s", x->record_dir, slug);
        if (!make_dirs(path)) {
            fprintf(stderr, "warpsim xcheck: cannot create %s\n", path);
            rc = 2;
            goto out;
        }
        snprintf(path + strlen(path), sizeof path - strlen(path), "/xcheck.json");
        if (!xcheck_recording_write(path, &rec, msg, sizeof msg)) {
            fprintf(stderr, "warpsim xcheck: %s\n", msg);
            rc = 2;
            goto out;
        }
        if (!x->json)
            printf("\nrecorded %s\n", path);
    }
out:
    if (x->json && rc != 2)
        printf("]}], \"launches\": %d, \"mismatches\": %d, \"ok\": %s}\n", x->launches, x->mismatches,
               rc ? "false" : "true");
    else if (!x->json && rc != 2)
        printf("\n%d launch%s checked, %d mismatch%s\n", x->launches, x->launches == 1 ? "" : "es", x->mismatches,
               x->mismatches == 1 ? "" : "es");
    xcheck_recording_free(&rec);
    device_close(sim);
    device_close(refdev);
    return rc;
}

/* Compare the simulator with one recording file. */
static int recorded_file(Xc *x, const char *path, bool first)
{
    XcheckRecording rec;
    char msg[1024];
    if (!xcheck_recording_read(path, &rec, msg, sizeof msg)) {
        fprintf(stderr, "warpsim xcheck: %s\n", msg);
        return 2;
    }
    SimError err;
    sim_error_clear(&err);
    Device *sim = device_open_sim(rec.info.arch, &err);
    if (!sim) {
        fprintf(stderr, "warpsim xcheck: %s: %s\n", path, err.msg);
        xcheck_recording_free(&rec);
        return 2;
    }
    char desc[2048];
    int dn = snprintf(desc, sizeof desc, "%.16s recorded %.128s (%.32s, driver %.64s, CUDA %d.%d) in %.1400s", rec.info.backend,
             rec.info.device, rec.info.date, rec.info.driver, rec.info.cuda_version / 1000,
             rec.info.cuda_version % 1000 / 10, path);
    (void)dn;
    if (x->json) {
        printf("%s{\"reference\": {\"file\": ", first ? "" : ", ");
        json_str(path);
        printf(", \"device\": ");
        json_str(rec.info.device);
        printf(", \"backend\": ");
        json_str(rec.info.backend);
        printf(", \"arch\": ");
        json_str(rec.info.arch);
        printf(", \"date\": ");
        json_str(rec.info.date);
        printf("}, \"lessons\": [");
    }
    x->first_lesson = true;
    int rc = 0;
    for (int li = 0; li < rec.n && rc != 2; li++) {
        const XcheckRecLesson *L = &rec.lessons[li];
        if (!selected(x, L->slug))
            continue;
        DeviceModule *mod;
        uint64_t hash;
        if (!load_lesson_ptx(x, L->slug, sim, &mod, &hash)) {
            rc = 2;
            break;
        }
        lesson_header(x, L->slug, rec.info.arch, desc,
                      hash == L->ptx_hash ? "" : "kernel.ptx changed since this recording; record it again");
        for (int k = 0; k < L->n; k++) {
            XcheckLaunch l;
            LaunchResult r;
            memset(&r, 0, sizeof r);
            int p = xcheck_parse_line(L->refs[k].line, &l, msg, sizeof msg);
            if (p <= 0) {
                fprintf(stderr, "warpsim xcheck: %s: lesson %s, launch %d: %s\n", path, L->slug, k,
                        p < 0 ? msg : "empty line");
                rc = 2;
                break;
            }
            SimStatus st = launch_run(sim, mod, &l.spec, &r, msg, sizeof msg);
            report_launch(x, rec.info.arch, &l, st, &r, msg, &L->refs[k], k == 0);
            launch_result_free(&r);
            xcheck_launch_free(&l);
        }
        lesson_footer(x);
    }
    if (x->json)
        printf("]}");
    device_close(sim);
    xcheck_recording_free(&rec);
    return rc;
}

static int recorded(Xc *x)
{
    char dflt[1100], files[16][1400];
    int nf = 0;
    const char *p = x->recorded_path;
    if (!p) {
        snprintf(dflt, sizeof dflt, "%s/../traces/hw", x->root);
        p = dflt;
    }
    struct stat st;
    size_t pl = strlen(p);
    if (pl > 5 && !strcmp(p + pl - 5, ".json")) {
        snprintf(files[nf++], sizeof files[0], "%s", p);
    } else {
        snprintf(files[0], sizeof files[0], "%s/xcheck.json", p);
        if (stat(files[0], &st) == 0) {
            nf = 1;
        } else {
            DIR *d = opendir(p);
            struct dirent *e;
            while (d && (e = readdir(d)) && nf < 16) {
                snprintf(files[nf], sizeof files[0], "%s/%s/xcheck.json", p, e->d_name);
                if (e->d_name[0] != '.' && stat(files[nf], &st) == 0)
                    nf++;
            }
            if (d)
                closedir(d);
        }
    }
    if (!nf) {
        fprintf(stderr, "warpsim xcheck: no recording found in %s (record one on a GPU machine with "
                        "`warpsim xcheck --all --record traces/hw`)\n", p);
        return 2;
    }
    /* readdir order is not sorted: sort for stable output */
    for (int i = 1; i < nf; i++)
        for (int j = i; j > 0 && strcmp(files[j - 1], files[j]) > 0; j--) {
            char t[1400];
            memcpy(t, files[j], sizeof t);
            memcpy(files[j], files[j - 1], sizeof t);
            memcpy(files[j - 1], t, sizeof t);
        }
    if (x->json)
        printf("{\"mode\": \"recorded\", \"checks\": [");
    int rc = 0;
    for (int i = 0; i < nf && rc != 2; i++)
        rc = recorded_file(x, files[i], i == 0);
    if (rc == 2)
        return 2;
    rc = x->mismatches ? 1 : 0;
    if (x->json)
        printf("], \"launches\": %d, \"mismatches\": %d, \"ok\": %s}\n", x->launches, x->mismatches,
               rc ? "false" : "true");
    else
        printf("\n%d launch%s checked against %d recording%s, %d mismatch%s\n", x->launches,
               x->launches == 1 ? "" : "es", nf, nf == 1 ? "" : "s", x->mismatches, x->mismatches == 1 ? "" : "es");
    return rc;
}

int cmd_xcheck(int argc, char **argv)
{
    Xc x = {.runs = 3, .arch = "sm_90", .first_lesson = true};
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        bool has_val = i + 1 < argc;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            fputs(xcheck_help, stdout);
            return 0;
        } else if (!strcmp(a, "--json")) {
            x.json = true;
        } else if (!strcmp(a, "--all")) {
            x.all = true;
        } else if (!strcmp(a, "--runs") && has_val) {
            char *end;
            long r = strtol(argv[++i], &end, 10);
            if (*end || r < 1 || r > XCHECK_MAX_RUNS)
                return usage("--runs '%s': expected 1 to 32", argv[i]);
            x.runs = (int)r;
        } else if (!strcmp(a, "--record") && has_val) {
            x.record_dir = argv[++i];
        } else if (!strcmp(a, "--recorded")) {
            x.recorded = true;
            struct stat st;
            size_t n = has_val ? strlen(argv[i + 1]) : 0;
            if (has_val && argv[i + 1][0] != '-' &&
                ((n > 5 && !strcmp(argv[i + 1] + n - 5, ".json")) || (stat(argv[i + 1], &st) == 0 && S_ISDIR(st.st_mode))))
                x.recorded_path = argv[++i];
        } else if (!strcmp(a, "--backend") && has_val) {
            const char *b = argv[++i];
            if (strcmp(b, "sim") && strcmp(b, "gpu"))
                return usage("--backend '%s': expected gpu or sim", b);
            x.use_sim = !strcmp(b, "sim");
        } else if ((!strcmp(a, "--arch") || !strcmp(a, "--gpu")) && has_val) {
            x.arch = argv[++i];
        } else if (a[0] == '-' && a[1]) {
            return usage(has_val || a[1] != '-' ? "unknown option '%s'" : "option '%s' needs a value", a);
        } else if (x.nsel == MAX_SEL) {
            return usage("more than %s lessons", "64");
        } else {
            if (!lesson_find(a))
                return usage("no lesson '%s' (warpsim lesson --list)", a);
            x.sel[x.nsel++] = a;
        }
    }
    if (x.recorded && (x.record_dir || x.use_sim))
        return usage("%s", "--recorded compares with a recording: no --record or --backend with it");
    if (!x.recorded && !x.all && !x.nsel)
        return usage("%s", "name lessons or --all");
    if (x.all && x.nsel)
        return usage("%s", "name lessons or --all, not both");
    if (!lesson_root(x.root, sizeof x.root)) {
        fprintf(stderr, "warpsim xcheck: cannot find the lessons folder (set WARPSIM_LESSONS)\n");
        return 2;
    }
    return x.recorded ? recorded(&x) : live(&x);
}
