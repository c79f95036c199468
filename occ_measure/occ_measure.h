/* occ_measure.h: occupancy predicted and measured, the library behind
 * `warpsim occupancy`.  The model's answer for one launch laid out as text,
 * JSON, an explanation or the occupancy calculator's graphs (occ_report.c);
 * one launch measured on the GPU (or the simulator standing in) beside the
 * model and the CUDA occupancy API; the carveout sweep written as JSON; and
 * the analysis of a sweep file against the model (occ_measure.c).  The
 * arithmetic is sim/occupancy.h's, the measuring gpu/measure.h's.  Nothing
 * here exits; what is printed goes to the FILE given. */
#ifndef WARPSIM_OCC_MEASURE_H
#define WARPSIM_OCC_MEASURE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "arch.h"
#include "measure.h"
#include "occupancy.h"
#include "ptxas.h"

/* ---- the model's answer for one launch (occ_report.c) ---- */

/* A launch and what the model says about it.  The caller fills target,
 * config and (from ptxas_query) ptxas with ptx_path; occ_report_compute
 * fills the rest. */
typedef struct {
    ArchTarget target;              /* the arch (and named part: SM count) */
    OccConfig config;               /* block size, registers, shared memory, carveout, barriers */
    const char *ptx_path;           /* the --ptx file the resources came from, NULL for none */
    PtxasInfo ptxas;                /* ptxas -v's answer, when ptx_path is set */
    OccResult result;               /* occ_compute */
    OccBlockSizeResult best;        /* cudaOccupancyMaxPotentialBlockSize's answer */
    OccCluster cluster;             /* the cluster bound, when has_cluster */
    bool has_cluster;
} OccReport;

/* Fill rep->config for a launch of block threads with dynamic shared
 * memory smem_dyn and carveout (-1 default, else 0..100): registers and
 * static shared memory from rep->ptxas when rep->ptx_path is set, else regs
 * and smem_static; barriers per block as given, or when negative one (as
 * the runtime assumes) or ptxas's count when that is more. */
void occ_report_config(OccReport *rep, int block, int regs, size_t smem_static, size_t smem_dyn, int carveout,
                       int barriers);

/* Can any GPU of arch a launch this at all (block threads, regs per
 * thread or < 0 not given, barriers per block, dynamic shared memory)?
 * false with the sentence naming the first limit broken in why: what no
 * GPU can launch is an error, not "0 blocks per SM". */
bool occ_report_launchable(const ArchProfile *a, long long block, long long regs, long long barriers,
                           long long smem_dyn, char *why, size_t cap);

/* Compute result, best and (cluster > 0: thread-block clusters of that
 * size, nonportable allowing past 8) the cluster bound.  SIM_OK, or the
 * model's error (SIM_ERR_USAGE and a sentence for an impossible launch). */
SimStatus occ_report_compute(OccReport *rep, int cluster, bool nonportable, SimError *err);

/* rep, computed, shown: the summary (JSON with json) on out; then, when
 * not one block fits, SIM_ERR_USAGE and that sentence (the limits shown say
 * why); else the explanation with explain (on note), and the calculator's
 * graphs written to plot unless NULL ("plot written to" on note).  A plot
 * that cannot be written: its status, and the message names the file. */
SimStatus occ_report_show(const OccReport *rep, bool json, bool explain, const char *plot, FILE *out, FILE *note,
                          SimError *err);

/* The summary people read: blocks per SM, occupancy, the limiter(s), every
 * limit, registers, shared memory, the carveout, hardware residency, the
 * best block size, clusters; ptxas's registers and spills when it was asked. */
void occ_report_text(FILE *f, const OccReport *rep);
/* The same as one JSON object (blocks_per_sm, warps_per_sm, occupancy,
 * limiters, limits, smem_capacity, l1_capacity, ...), with a newline. */
void occ_report_json(FILE *f, const OccReport *rep);
/* Every limit in plain sentences with the arithmetic (sim/occupancy.h's
 * occ_explain), after a blank line. */
void occ_report_explain(FILE *f, const OccReport *rep);
/* The three graphs of NVIDIA's occupancy calculator (vary block size,
 * registers, shared memory; this launch marked) as a PNG at path.  SIM_OK,
 * SIM_ERR_NOMEM, or the PNG writer's error (no SDL2 built in, cannot write). */
SimStatus occ_report_plot(const char *path, const OccReport *rep, SimError *err);

/* Batch mode: read JSON lines from in ({"arch": "sm_90", "block": 256,
 * "regs": 32, ...}, occupancy.h's occ_batch_parse) and write one JSON line
 * each to out: the model's fields, or {"error": "line N: ..."}.  Blank lines
 * get no answer. */
void occ_report_batch(FILE *in, FILE *out);

/* ---- measuring (occ_measure.c) ---- */

/* What to measure and where. */
typedef struct {
    const char *arch;      /* the arch asked for, or NULL (the device's) */
    bool sim;              /* the simulator stands in for the GPU */
    int block, regs, carveout;
    size_t smem_static, smem_dyn;
    unsigned grid;         /* blocks, 0 = automatic */
    double wait_us;        /* each block's wait, 0 = automatic */
    bool ncu;              /* also ask Nsight Compute (re-runs argv under ncu) */
    bool tiny;             /* sweep: 8 configurations instead of 504 */
    int threads;           /* sweep on the simulator: launches side by side (pool.h);
                              <= 1 one at a time.  The sweep is the same with any count */
    /* sweep: called after each configuration with how many are done of how
     * many; true stops the sweep there (Ctrl-C: what was measured is kept
     * and written).  NULL none. */
    bool (*progress)(void *user, size_t done, size_t total);
    void *progress_user;
    bool timing;           /* also simulate the launch under the timing model
                              (sim/timing.h): residency in modelled time and the
                              model's achieved occupancy; on a GPU, a simulator of
                              the GPU's arch runs it beside the measurement */
    int argc;              /* the whole command line, for re-running under ncu */
    char **argv;
} OccMeasureOpts;

/* Open the device to measure on: the simulator for o->sim (o->arch or
 * sm_90), else GPU 0.  name gets the device's name ("warpsim simulator",
 * the GPU's, or "GPU"); note gets "" or a sentence for the user (the GPU
 * there is not the arch asked for).  NULL with err filled when none opens. */
/* Is o a launch the measurement can make (1..1024 threads, unless a sweep,
 * which picks its own; 1..255 registers; at most 48 KB of static shared
 * memory)?  false with the sentence in why. */
bool occ_measure_check(const OccMeasureOpts *o, bool sweep, char *why, size_t cap);

Device *occ_measure_open(const OccMeasureOpts *o, char *name, size_t name_cap, char *note, size_t note_cap,
                         SimError *err);

/* One measured launch: predicted beside measured. */
typedef struct {
    char device[128];      /* the device's name */
    char arch[16];         /* its arch */
    bool sim;              /* measured in the simulator */
    MeasureResult r;       /* the launch, the model, the API, the residency (owned) */
    int predicted_waves;   /* ceil(grid / (model resident blocks per SM * SMs)) */
    int max_warps;         /* warps an SM holds on arch */
    bool ncu_asked;
    double ncu;            /* Nsight Compute's sm__warps_active percentage, -1 none */
    bool timed;            /* o->timing: simulated under the timing model */
    MeasureResult tr;      /* with timed on a GPU, the simulator's run (owned);
                              with timed in the simulator, r is that run */
} OccMeasurement;

/* The timed simulator run of m (&m->r or &m->tr), NULL without timing. */
const MeasureResult *occ_measure_timed(const OccMeasurement *m);

/* Load the synthetic kernel with o's registers and static shared memory on
 * d (named name), run one launch of o's shape and measure it; ask ncu when
 * o->ncu.  SIM_OK and *m (free with occ_measure_free); SIM_ERR_USAGE for a
 * launch that cannot run (the message says why), else the device's error. */
SimStatus occ_measure_one(Device *d, const char *name, const OccMeasureOpts *o, OccMeasurement *m,
                          SimError *err);
void occ_measure_free(OccMeasurement *m);
/* Predicted beside measured: a table (text), or one JSON object with
 * "predicted" and "measured" members.  With timing, one more column
 * (simulated in modelled time: residency and the timing model's achieved
 * occupancy) and a "simulated" member; in the simulator that column is the
 * measured one. */
void occ_measure_report(FILE *f, bool json, const OccMeasurement *m);

/* How a sweep went. */
typedef struct {
    int configs;           /* configurations in the sweep */
    int measured;          /* of them measured and written */
    bool failed;           /* some configuration failed (each said so to log) */
    double seconds;        /* host time of the whole sweep */
    bool scored;           /* the device's arch is known: score holds */
    SweepScore score;      /* the written rows against the model */
} OccSweepSummary;

/* The carveout sweep: measure every configuration (measure_sweep_configs)
 * with o's registers, static shared memory, grid and wait on d (named
 * name), writing the sweep's JSON to json as it goes; a configuration that
 * fails is written to log in one line ("...: block B, dyn D, carveout C:
 * why") and skipped when it cannot run, or ends the sweep.  SIM_OK with *s
 * filled, or the error of loading the kernel (nothing measured). */
SimStatus occ_measure_sweep(Device *d, const char *name, const OccMeasureOpts *o, FILE *json, FILE *log,
                            OccSweepSummary *s, SimError *err);
/* "N of M configurations measured on DEV (ARCH) in S s; written to PATH"
 * and the score line. */
void occ_measure_report_sweep(FILE *f, const OccSweepSummary *s, const char *device, const char *arch,
                              const char *path);

/* Read the sweep file at path and score it against the model on arch (NULL:
 * the file's, else sm_90), writing to report the rows where the model's
 * resident_blocks_per_sm misses and the scores of the API, the model and
 * the "carveout ignored" hypothesis.  SIM_OK, or SIM_ERR_IO ("cannot read
 * PATH"), SIM_ERR_USAGE ("PATH: unknown arch", "PATH: no configurations
 * found"), before anything is written. */
SimStatus occ_measure_analyze(const char *path, const char *arch, FILE *report, SimError *err);

/* `warpsim occupancy --measure` and `--sweep-carveout` whole: open the GPU
 * (or the simulator standing in) for o; without sweep, measure one launch
 * and report it on out (JSON with json); with sweep (an open file, named
 * sweep_path), write the carveout sweep there and its summary on out.  A
 * note when the device is not the arch asked for, and what stops it, go to
 * err as "warpsim occupancy: ..." lines.  0 done, 1 a measurement failed,
 * 2 no device or a launch the device refuses. */
int occ_measure_run(const OccMeasureOpts *o, bool json, FILE *sweep, const char *sweep_path, FILE *out, FILE *err);

#endif
