/* xcheck.h: the pieces of `warpsim xcheck` -- each lesson's checked launches
 * (lessons/NN-topic/xcheck.txt), what the reference side (a GPU, or a
 * recording of one in traces/hw/) produced for them, and the comparison of a
 * simulated launch with that reference: buffers bit for bit, order-dependent
 * buffers by a stated property, and occupancy (model vs the CUDA API).
 *
 * xcheck.txt: one launch per line in `warpsim run` syntax, '#' comments:
 *   [exact] --kernel K --grid G --block B [--smem S] --arg SPEC ...
 *   order-dependent ARG CRIT... [ARG CRIT...] --kernel K ...
 * CRIT (every element of buffer argument ARG, on the simulator and on every
 * hardware run): below:V (< V), above:V (> V), range:LO,HI (LO <= x <= HI),
 * any (only reported).  An ARG with no CRIT is `any`. */
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
} XcheckLaunch;

/* Parse one xcheck.txt line.  Returns 1 with *out filled, 0 for a blank or
 * comment line, -1 with msg ("column 9: ..." or "order-dependent arg 5 is
 * not a buffer"). */
int xcheck_parse_line(const char *line, XcheckLaunch *out, char *msg, size_t cap);
void xcheck_launch_free(XcheckLaunch *l);

/* Read a whole xcheck.txt: *out a malloc'd array of *n launches (free each,
 * then the array).  false with msg "path:line: ..." on the first bad line. */
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

#endif
