/* xcheck.h: the cross-checker, the library behind `warpsim xcheck` -- each
 * lesson's checked launches (lessons/NN-topic/xcheck.txt), what the
 * reference side (a GPU, or a recording of one in traces/hw/) produced for
 * them, and the comparison of a simulated launch with that reference:
 * buffers bit for bit, order-dependent buffers by a stated property, and
 * occupancy (model vs the CUDA API).  Running both sides, recordings, and
 * reports to a FILE; which lessons to check is the caller's (lessons/).
 *
 * xcheck.txt: one launch per line in `warpsim run` syntax, '#' comments:
 *   [exact] --kernel K --grid G --block B [--smem S] --arg SPEC ...
 *   order-dependent ARG CRIT... [ARG CRIT...] --kernel K ...
 *   faster-than LINE [BY R] [exact | order-dependent ...] --kernel K ...
 * CRIT (every element of buffer argument ARG, on the simulator and on every
 * hardware run): below:V (< V), above:V (> V), range:LO,HI (LO <= x <= HI),
 * any (only reported).  An ARG with no CRIT is `any`.
 * faster-than: a time claim -- this launch (compared as the rest of its
 * line says, exact without more) takes at most 1/R of the time of the launch on line LINE of the same file
 * (R >= 1, default 1: simply faster).  It is judged on the simulator from
 * the timing model's cycles and on the reference from its measured time
 * (xcheck_check_times). */
#ifndef WARPSIM_XCHECK_H
#define WARPSIM_XCHECK_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "launch.h"

#define XCHECK_MAX_OD 8             /* order-dependent buffers per launch */
#define XCHECK_MAX_RUNS 32          /* hardware runs of an order-dependent launch */
#define XCHECK_SMALL 64             /* buffers up to this many elements are recorded in full */
#define XCHECK_OD_MAX_ELEMS 4096    /* order-dependent buffers are recorded in full: cap */
#define XCHECK_PATH_MAX 1400        /* the longest recording path xcheck_recordings_find gives */

typedef enum { XCHECK_ANY, XCHECK_BELOW, XCHECK_ABOVE, XCHECK_RANGE } XcheckCritKind;

typedef struct {
    int arg;                        /* buffer parameter index */
    XcheckCritKind kind;
    double lo, hi;                  /* below: hi; above: lo; range: both */
    char text[64];                  /* as written ("below:10000") */
} XcheckCrit;

/* One checked launch. */
typedef struct {
    char *line;                     /* the line as written, trimmed (owned) */
    int lineno;                     /* in its file, 0 when not from a file */
    bool order_dependent;
    XcheckCrit od[XCHECK_MAX_OD];
    int nod;
    LaunchSpec spec;
    char **toks;                    /* tokens spec points into (owned) */
    int than_line;                  /* faster-than LINE: that line, 0 none */
    double by;                      /* ... BY R (1 without) */
    int than_col, by_col;           /* columns of LINE and R (messages) */
    int than;                       /* xcheck_read_file: the index of that launch, -1 none */
    bool timed;                     /* xcheck_read_file: a time claim names it (it runs with
                                       the timing model; the reference measures it) */
} XcheckLaunch;

/* Parse one xcheck.txt line.  Returns 1 with *out filled, 0 for a blank or
 * comment line, -1 with msg ("column 9: ..." or "order-dependent arg 5 is
 * not a buffer"). */
int xcheck_parse_line(const char *line, XcheckLaunch *out, char *msg, size_t cap);
void xcheck_launch_free(XcheckLaunch *l);

/* Read a whole xcheck.txt: *out a malloc'd array of *n launches (free each,
 * then the array), each faster-than resolved (than, timed).  false with msg
 * "path:line: ..." on the first bad line; when the column is known the
 * message goes on with the line and a caret under that column. */
bool xcheck_read_file(const char *path, XcheckLaunch **out, int *n, char *msg, size_t cap);

/* The order-dependent criterion for arg, or NULL when arg compares exactly. */
const XcheckCrit *xcheck_crit_for(const XcheckLaunch *l, int arg);

/* XXH64 (seed 0) of bytes: the hash recordings keep (`xxhsum -H1` of the raw
 * little-endian buffer gives the same). */
uint64_t xcheck_hash(const void *data, size_t len);

/* Element k of a buffer as a double (integers converted, floats widened). */
double xcheck_elem(PtxType t, const uint8_t *data, uint64_t k);

/* Does every element of data satisfy c? */
bool xcheck_crit_holds(const XcheckCrit *c, PtxType t, const uint8_t *data, uint64_t count);

/* "00000001 0000002a" (space-separated element bit patterns) into a malloc'd
 * string, and back: xcheck_unhex fills count elements of type t into a
 * malloc'd buffer, NULL when the text does not hold exactly that. */
char *xcheck_hex(PtxType t, const uint8_t *data, uint64_t count);
uint8_t *xcheck_unhex(PtxType t, const char *text, uint64_t count);

/* What the reference side (GPU or recording) gave for one buffer. */
typedef struct {
    int arg;
    PtxType type;
    uint64_t count;
    uint64_t hash;                  /* of run 0 */
    uint8_t *data;                  /* run 0's values; NULL when only the hash is known */
    int nruns;                      /* order-dependent buffers: runs kept */
    uint8_t *runs[XCHECK_MAX_RUNS]; /* their values (owned) */
} XcheckRefBuf;

/* What the reference side gave for one launch. */
typedef struct {
    char *line;                     /* the launch line (owned) */
    char fault[32];                 /* "" or the fault kind of a run */
    int regs;                       /* registers per thread, -1 unknown */
    long long static_smem;          /* bytes, -1 unknown */
    long long local_bytes;          /* bytes per thread, -1 unknown */
    int api_blocks;                 /* cuOccupancyMaxActiveBlocksPerMultiprocessor, -1 unknown */
    double time;                    /* the launch's time: the median over the runs of a timed
                                       launch; -1 unknown (an older recording, a fault) */
    char time_unit[8];              /* "ms" (a GPU: cuEvent elapsed time) or "cycles" (a
                                       second simulator: the timing model) */
    XcheckRefBuf bufs[LAUNCH_MAX_ARGS];
    int nbufs;
} XcheckRef;

void xcheck_ref_free(XcheckRef *r);

/* Verdicts. */
typedef enum {
    XCHECK_IDENTICAL,               /* bit for bit */
    XCHECK_DIFFERS,                 /* at index (or by hash when index < 0) */
    XCHECK_HOLDS,                   /* order-dependent: the property holds everywhere */
    XCHECK_FAILS,                   /* order-dependent: it fails on the sim or a run */
    XCHECK_MISSING                  /* the buffer is absent on one side */
} XcheckVerdict;

typedef struct {
    int arg;
    PtxType type;
    uint64_t count;
    XcheckVerdict verdict;
    int64_t index;                  /* DIFFERS: first differing element, -1 hash only */
    const XcheckCrit *crit;         /* order-dependent: its criterion */
    bool sim_holds;                 /* order-dependent: on the simulator */
    int runs_holding;               /* and on how many of the reference runs */
} XcheckBufCmp;

/* Compare a simulated launch with the reference.  Fills cmp (one per
 * simulated buffer) and returns true when everything agrees. */
bool xcheck_compare_buffers(const XcheckLaunch *l, const LaunchResult *sim, const XcheckRef *ref,
                            XcheckBufCmp *cmp, int *ncmp);

/* One launch compared as a whole: its buffers, faults and occupancy. */
typedef struct {
    bool ran;                       /* the simulator ran it (clean or to a fault) */
    bool sim_fault;                 /* ... and it faulted */
    int model_blocks;               /* xcheck_model_blocks, -1 unknown */
    bool occ_known;                 /* model and API answer both known */
    bool occ_ok;                    /* they agree (true when not known) */
    XcheckBufCmp bufs[LAUNCH_MAX_ARGS];
    int nbufs;
    bool ok;                        /* everything agrees: buffers, no fault, occupancy */
} XcheckLaunchCmp;

/* Compare the simulator's run of l (sst: launch_run's status, sim its
 * result, meaningful for SIM_OK and SIM_ERR_FAULT) with ref, the model's
 * occupancy on arch with the API's; fills *c and returns c->ok. */
bool xcheck_compare_launch(const char *arch, const XcheckLaunch *l, SimStatus sst, const LaunchResult *sim,
                           const XcheckRef *ref, XcheckLaunchCmp *c);

/* (xcheck_report.c) The three printed columns of one compared buffer: the
 * simulator's value, the reference's (a value, "xxh64 ...", "[k] 0x..." at
 * a difference, or the runs of an order-dependent buffer) and the verdict
 * text, each into a buffer of cap bytes. */
void xcheck_buf_columns(const XcheckBufCmp *c, const LaunchResult *sim, const XcheckRef *ref, char *sim_col,
                        char *ref_col, char *verdict, size_t cap);

/* Occupancy of the launch under the model (sim/occupancy.h) with the
 * reference's registers and static shared memory, on arch; -1 when the arch
 * is unknown or the counts are. */
int xcheck_model_blocks(const char *arch, const LaunchSpec *s, int regs, long long static_smem);

/* A recording's folder name for a device name: "NVIDIA H100 80GB HBM3" ->
 * "nvidia-h100-80gb-hbm3". */
void xcheck_slug(const char *name, char *buf, size_t cap);

/* ---- recordings (xcheck_record.c): traces/hw/<gpu>/xcheck.json ---- */

typedef struct {
    char device[128];               /* "NVIDIA H100 80GB HBM3" */
    char backend[16];               /* "gpu", or "simulator" for a stand-in */
    char arch[16];                  /* "sm_90" (the compute capability) */
    char driver[64];                /* kernel driver version, "580.159.04" */
    int cuda_version;               /* cuDriverGetVersion: 13000 is 13.0 */
    char date[32];                  /* "2026-11-22" (UTC) */
    int runs;                       /* hardware runs of order-dependent launches */
} XcheckDeviceInfo;

typedef struct {
    char *slug;                     /* "01-threads-and-races" */
    uint64_t ptx_hash;              /* XXH64 of the kernel.ptx that ran */
    XcheckRef *refs;                /* one per launch, in xcheck.txt order */
    int n;
} XcheckRecLesson;

typedef struct {
    XcheckDeviceInfo info;
    XcheckRecLesson *lessons;
    int n;
} XcheckRecording;

/* Write r as pretty, stable JSON (one buffer per line) to path, creating
 * nothing but the file.  false with msg when it cannot be written. */
bool xcheck_recording_write(const char *path, const XcheckRecording *r, char *msg, size_t cap);
/* Read a recording.  false with msg ("path: line 4, column 2: ..." or
 * "path: lessons[0].launches[2]: missing \"line\"") on bad input. */
bool xcheck_recording_read(const char *path, XcheckRecording *r, char *msg, size_t cap);
void xcheck_recording_free(XcheckRecording *r);

/* ---- running (xcheck_run.c) ---- */

/* Where and how a cross-check is reported, and its running count. */
typedef struct {
    FILE *f;                        /* the report's stream */
    bool json;                      /* one JSON object (begin ... end) instead of text */
    bool first_lesson;              /* JSON: no comma before the next lesson */
    int launches, mismatches;       /* launches reported so far, and those that disagreed */
    int times, time_fails;          /* time claims judged, and those that failed */
    bool in_times;                  /* JSON: the lesson's "times" array is open */
} XcheckReport;

/* Run l on the reference device: nruns times when it is order-dependent
 * or timed (at most XCHECK_MAX_RUNS; stopping at the first fault, which ends
 * a GPU context), once otherwise; fill *ref (free with xcheck_ref_free):
 * buffers, registers, static shared memory, the fault kind ("launch-error"
 * when it could not launch), the occupancy API's blocks per SM (on a second
 * simulator the model stands in), and the time: on a GPU the median of the
 * runs' cuEvent times (DeviceStats.kernel_ms; every launch), on a second
 * simulator the timing model's cycles (timed launches only). */
void xcheck_run_reference(Device *dev, DeviceModule *mod, const XcheckLaunch *l, int nruns, XcheckRef *ref);

/* What a recording says about the reference device: its name, driver and
 * CUDA version (a GPU), or "warpsim simulator <sim_arch>" for a stand-in;
 * backend, arch, today's UTC date and runs. */
void xcheck_device_info(Device *refdev, const char *sim_arch, int runs, XcheckDeviceInfo *info);

/* How reports name the reference: "gpu NAME (sm_90)", "a second simulator
 * standing in for a GPU (sm_90)", or, for a recording read from path (not
 * NULL), "gpu recorded NAME (DATE, driver D, CUDA 13.0) in PATH". */
void xcheck_reference_text(const XcheckDeviceInfo *info, const char *path, char *buf, size_t cap);

/* The simulator side of a lesson's launches: the device and module the
 * first worker uses, and the module's text, from which every further
 * worker thread loads the same module on a simulator of its own (dev's
 * arch).  threads <= 1 (or ptx NULL): every launch on dev, one at a time.
 * Reports are the same, byte for byte, with any number of threads. */
typedef struct {
    Device *dev;
    DeviceModule *mod;
    const char *path;               /* the module's file name (messages) */
    const char *ptx;                /* its text (borrowed), NULL: one thread */
    size_t ptx_len;
    int threads;                    /* simulator launches side by side (pool.h) */
} XcheckSim;

/* Check one lesson live: every launch of ls[0..n) on the simulator (sim,
 * side by side) and on the reference (module rm; one at a time, in order),
 * reported to rep under a lesson header in order; rec gets the slug and
 * what the reference gave, for a recording (free with
 * xcheck_recording_free as part of its recording).  false only when memory
 * ran out, before anything was reported. */
bool xcheck_check_lesson_live(XcheckReport *rep, const char *slug, const char *ref_desc, const XcheckSim *sim,
                              Device *refdev, DeviceModule *rm, const XcheckLaunch *ls, int n, int runs,
                              XcheckRecLesson *rec);

/* Check one recorded lesson: every launch line of L run on the simulator
 * (sim, side by side) and compared with what L recorded, reported to rep
 * in order; note ("" for none) is shown under the lesson header.  Then the
 * time claims of claims[0..nclaims) (the lesson's xcheck.txt as it is now,
 * xcheck_read_file; NULL, 0 for none), judged with the times L recorded for
 * the same lines (none in recordings made before time claims: then the
 * simulator's side alone, and the report says so).  false with msg
 * ("lesson S, launch K: column 9: ...") when a recorded line does not
 * parse; the launches before it are reported. */
bool xcheck_check_lesson_recorded(XcheckReport *rep, const char *arch, const char *ref_desc, const char *note,
                                  const XcheckSim *sim, const XcheckRecLesson *L, const XcheckLaunch *claims,
                                  int nclaims, char *msg, size_t cap);

/* ---- time claims (xcheck_time.c) ---- */

/* One judged faster-than claim: launch i against launch than. */
typedef struct {
    int i, than;                    /* indexes into the lesson's launches */
    SimStatus sst[2];               /* the simulator's timed runs of than and i */
    uint64_t cycles[2];             /* their modelled cycles (than, i) */
    double sim_ratio;               /* cycles[0] / cycles[1], 0 when not run */
    bool sim_holds;
    bool ref_known;                 /* the reference has both times */
    double ref_time[2];             /* (than, i) */
    double ref_ratio;
    bool ref_holds;
    bool ok;                        /* holds on the simulator and, when known, the reference */
} XcheckTimeCmp;

/* Judge the faster-than claims of ls[0..n) (xcheck_read_file resolved
 * them): each launch a claim names runs once more on sim->dev with the
 * timing model; ref_time[k] (-1 unknown) and unit are the reference's
 * times of launch k, NULL when it has none.  Each claim is reported to rep
 * (counted in rep->times and rep->time_fails); no_times ("" none) says why
 * the reference's side is not judged.  Returns the number of claims. */
int xcheck_check_times(XcheckReport *rep, const XcheckSim *sim, const XcheckLaunch *ls, int n,
                       const double *ref_time, const char *unit, const char *no_times);

/* The median of v[0..n) (n >= 1; v is sorted in place): the mean of the
 * two middle values when n is even. */
double xcheck_median(double *v, int n);

/* Report one judged claim (text: a line per side; JSON: one object of the
 * lesson's "times" array). */
void xcheck_report_time(XcheckReport *rep, const XcheckLaunch *ls, const XcheckTimeCmp *c, const char *unit,
                        const char *no_times);

/* Save r as dir/<slug of its device>/xcheck.json, creating the folders;
 * path gets the file's path.  false with msg ("cannot create DIR/SLUG" or
 * xcheck_recording_write's). */
bool xcheck_recording_save(const char *dir, const XcheckRecording *r, char *path, size_t pcap, char *msg,
                           size_t cap);

/* The recordings a path names: itself when it ends in .json, else
 * PATH/xcheck.json when it exists, else every PATH/<dir>/xcheck.json (not
 * hidden folders), sorted.  Fills files[0..max) and returns the count
 * (0: none found). */
int xcheck_recordings_find(const char *path, char (*files)[XCHECK_PATH_MAX], int max);

/* ---- reports (xcheck_report.c) ---- */

/* Start a report on f (text, or JSON when json). */
void xcheck_report_init(XcheckReport *rep, FILE *f, bool json);

/* Compare one launch (xcheck_compare_launch), count it, and report it: the
 * kernel and shape, faults, a row per buffer and the occupancy row (text),
 * or one object of the lesson's "launches" array (JSON; first: no comma
 * before it).  sim_msg says why the simulator could not run it.  Returns
 * whether it agrees. */
bool xcheck_report_launch(XcheckReport *rep, const char *arch, const XcheckLaunch *l, SimStatus sst,
                          const LaunchResult *sim, const char *sim_msg, const XcheckRef *ref, bool first);

/* A lesson's header (text: "slug: simulator ARCH vs REF", the note, the
 * column names; JSON: opens its object) and its end. */
void xcheck_report_lesson_begin(XcheckReport *rep, const char *slug, const char *sim_arch, const char *ref_desc,
                                const char *note);
void xcheck_report_lesson_end(XcheckReport *rep);

/* A live check: JSON opens {"mode": "live", "checks": [{"reference": ...,
 * "lessons": [ (text: nothing); the end closes it with the counts and
 * "ok" (text: "N launches checked, M mismatches"). */
void xcheck_report_live_begin(XcheckReport *rep, const XcheckDeviceInfo *info);
void xcheck_report_live_end(XcheckReport *rep);

/* A check against recordings: recorded_begin opens {"mode": "recorded",
 * "checks": [ (JSON only); each recording file opens with its path and
 * device (first: no comma) and closes; recorded_end closes with the counts
 * (text: "N launches checked against F recordings, M mismatches"). */
void xcheck_report_recorded_begin(XcheckReport *rep);
void xcheck_report_recording_begin(XcheckReport *rep, const char *path, const XcheckDeviceInfo *info, bool first);
void xcheck_report_recording_end(XcheckReport *rep);
void xcheck_report_recorded_end(XcheckReport *rep, int nfiles);

#endif
