/* cmd_xcheck.c: `warpsim xcheck` -- run each lesson's checked launches
 * (lessons/NN-topic/xcheck.txt) in the simulator and on the GPU (or compare
 * with a recording of a GPU, traces/hw/<gpu>/xcheck.json), and write
 * recordings with --record.  Options, the choice of lessons (lesson.h),
 * messages and exit codes; running, comparing and reporting are xcheck.h's. */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cmd.h"
#include "gpu.h"
#include "lesson.h"
#include "report.h"
#include "source.h"
#include "xcheck.h"

static const char xcheck_help[] =
    "usage: warpsim xcheck (LESSON... | --all) [--runs R] [--json] [--record DIR]\n"
    "                      [--backend gpu|sim] [--arch sm_XX] [--threads N]\n"
    "       warpsim xcheck --recorded [DIR | FILE.json] [LESSON...] [--json] [--threads N]\n"
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
    "  --threads N    run N simulator launches side by side (default: $WARPSIM_THREADS,\n"
    "                 else the cores available; GPU launches go one at a time); the\n"
    "                 report is the same with any N\n"
    "\n"
    "Exit status: 0 everything agrees, 1 a mismatch, 2 bad usage, no GPU, no recording.\n";

#define MAX_SEL 64

typedef struct {
    bool json, all, use_sim, recorded;
    int runs;
    int threads;                 /* --threads */
    const char *record_dir, *recorded_path, *arch;
    const char *sel[MAX_SEL];
    int nsel;
    char root[1024];             /* the lessons folder */
    XcheckReport rep;            /* on stdout */
} Xc;

static int usage(const char *fmt, const char *a)
{
    fprintf(stderr, "warpsim xcheck: ");
    fprintf(stderr, fmt, a);
    fprintf(stderr, "\n(see warpsim xcheck --help)\n");
    return 2;
}

/* ---- running ---- */

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

/* Load lesson slug's kernel.ptx on dev; with sim, also keep its text and
 * name there for the worker threads (sim->ptx is then the caller's). */
static bool load_lesson_ptx(Xc *x, const char *slug, Device *dev, DeviceModule **mod, uint64_t *hash,
                            XcheckSim *sim, char *path, size_t pcap)
{
    char msg[512];
    size_t len;
    snprintf(path, pcap, "%s/%s/kernel.ptx", x->root, slug);
    char *ptx = source_read_file(path, &len, msg, sizeof msg);
    if (!ptx) {
        fprintf(stderr, "warpsim xcheck: %s\n", msg);
        return false;
    }
    SimError err;
    sim_error_clear(&err);
    bool ok = !device_load_ptx(dev, path, ptx, len, mod, &err);
    if (!ok) {
        fprintf(stderr, "warpsim xcheck: on the %s: ", device_backend(dev));
        report_error(stderr, &err, ptx, len);
    }
    if (hash)
        *hash = xcheck_hash(ptx, len);
    if (sim && ok) {
        *sim = (XcheckSim){.dev = dev, .mod = *mod, .path = path, .ptx = ptx, .ptx_len = len,
                           .threads = x->threads};
        return true;
    }
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
    XcheckSim xs = {0};
    char spath[1400], rpath[1400];
    int rc = 2;
    if (load_lesson_ptx(x, slug, sim, &sm, &rec->ptx_hash, &xs, spath, sizeof spath) &&
        load_lesson_ptx(x, slug, refdev, &rm, NULL, NULL, rpath, sizeof rpath) &&
        xcheck_check_lesson_live(&x->rep, slug, ref_desc, &xs, refdev, rm, ls, n, x->runs, rec))
        rc = 0;
    free((char *)xs.ptx);
    for (int i = 0; i < n; i++)
        xcheck_launch_free(&ls[i]);
    free(ls);
    return rc;
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
    xcheck_device_info(refdev, x->arch, x->runs, info);
    Device *sim = device_open_sim(info->arch, &err);
    int rc = 2;
    if (!sim) {
        fprintf(stderr, "warpsim xcheck: the simulator has no profile for the GPU's %s: %s\n", info->arch, err.msg);
        device_close(refdev);
        return 2;
    }
    char desc[2048];
    xcheck_reference_text(info, NULL, desc, sizeof desc);
    xcheck_report_live_begin(&x->rep, info);
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
    rc = x->rep.mismatches ? 1 : 0;
    if (x->record_dir) {
        char path[XCHECK_PATH_MAX], msg[1600];
        if (!xcheck_recording_save(x->record_dir, &rec, path, sizeof path, msg, sizeof msg)) {
            fprintf(stderr, "warpsim xcheck: %s\n", msg);
            rc = 2;
            goto out;
        }
        if (!x->json)
            printf("\nrecorded %s\n", path);
    }
out:
    if (rc != 2)
        xcheck_report_live_end(&x->rep);
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
    xcheck_reference_text(&rec.info, path, desc, sizeof desc);
    xcheck_report_recording_begin(&x->rep, path, &rec.info, first);
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
        if (!xcheck_check_lesson_recorded(&x->rep, rec.info.arch, desc, note, &xs, L, msg, sizeof msg)) {
            fprintf(stderr, "warpsim xcheck: %s: %s\n", path, msg);
            rc = 2;
        }
        free((char *)xs.ptx);
    }
    xcheck_report_recording_end(&x->rep);
    device_close(sim);
    xcheck_recording_free(&rec);
    return rc;
}

static int recorded(Xc *x)
{
    char dflt[1100], files[16][XCHECK_PATH_MAX];
    const char *p = x->recorded_path;
    if (!p) {
        snprintf(dflt, sizeof dflt, "%s/../traces/hw", x->root);
        p = dflt;
    }
    int nf = xcheck_recordings_find(p, files, 16);
    if (!nf) {
        fprintf(stderr, "warpsim xcheck: no recording found in %s (record one on a GPU machine with "
                        "`warpsim xcheck --all --record traces/hw`)\n", p);
        return 2;
    }
    xcheck_report_recorded_begin(&x->rep);
    int rc = 0;
    for (int i = 0; i < nf && rc != 2; i++)
        rc = recorded_file(x, files[i], i == 0);
    if (rc == 2)
        return 2;
    xcheck_report_recorded_end(&x->rep, nf);
    return x->rep.mismatches ? 1 : 0;
}

int cmd_xcheck(int argc, char **argv)
{
    Xc x = {.runs = 3, .arch = "sm_90"};
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        bool has_val = i + 1 < argc;
        int th = cmd_threads_option("xcheck", argc, argv, &i, &x.threads);
        if (th < 0)
            return 2;
        if (th > 0) {
            continue;
        } else if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
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
            /* a path (a folder, a .json, anything with a '/'), not a lesson */
            if (has_val && argv[i + 1][0] != '-' &&
                ((n > 5 && !strcmp(argv[i + 1] + n - 5, ".json")) || strchr(argv[i + 1], '/') ||
                 (stat(argv[i + 1], &st) == 0 && S_ISDIR(st.st_mode))))
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
    if (!x.threads && !cmd_threads_default("xcheck", &x.threads))
        return 2;
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
    xcheck_report_init(&x.rep, stdout, x.json);
    return x.recorded ? recorded(&x) : live(&x);
}
