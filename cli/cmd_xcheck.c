/* cmd_xcheck.c: `warpsim xcheck` -- run each lesson's checked launches
 * (lessons/NN-topic/xcheck.txt) in the simulator and on the GPU (or compare
 * with a recording of a GPU, traces/hw/<gpu>/xcheck.json), and write
 * recordings with --record.  Options, messages and exit codes; the lessons'
 * side is lesson_xcheck.h's, running, comparing and reporting xcheck.h's. */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cmd.h"
#include "lesson.h"
#include "lesson_xcheck.h"

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
    XcheckReport rep;            /* on stdout */
} Xc;

static int usage(const char *fmt, const char *a)
{
    return cmd_usage("xcheck", fmt, a);
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
    xcheck_report_init(&x.rep, stdout, x.json);
    LessonXcheckOptions o = {.all = x.all, .sel = x.sel, .nsel = x.nsel, .runs = x.runs, .threads = x.threads,
                             .use_sim = x.use_sim, .arch = x.arch, .record_dir = x.record_dir,
                             .recorded_path = x.recorded_path, .err = stderr};
    if (x.recorded)
        return lesson_xcheck_recorded(&o, &x.rep);
    char saved[XCHECK_PATH_MAX];
    int rc = lesson_xcheck_live(&o, &x.rep, saved, sizeof saved);
    if (*saved && !x.json)
        printf("\nrecorded %s\n", saved);
    return rc;
}
