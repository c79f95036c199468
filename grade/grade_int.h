/* grade_int.h: what the grader's files share and nothing else needs; the
 * public contract is grade.h.  Calls go one way, top to bottom:
 *   grade.c (grade_run)  -> grade_compile.c, grade_sim.c, grade_gpu.c,
 *                           grade_rubric.c, grade_finding.c, grade_exercise.c
 *   grade_sim.c          -> grade_finding.c, grade_launch.c
 *   grade_gpu.c          -> grade_finding.c, grade_launch.c, grade_compile.c
 *   grade_finding.c      -> grade_launch.c;   grade_rubric.c -> grade_exercise.c
 *   grade_compile.c, grade_launch.c, grade_exercise.c and grade_report.c
 *   (the public writers) call no other file of the grader.
 * Every program the grader starts (nvcc -M, nvcc, ptxas, the GPU child)
 * goes through launch/sandbox.h: grade_compile.c and grade_gpu.c. */
#ifndef WARPSIM_GRADE_INT_H
#define WARPSIM_GRADE_INT_H

#include "grade.h"
#include "launch.h"
#include "sandbox.h"

/* ---- grade_compile.c: the submission through nvcc and ptxas ------------------ */

typedef enum {
    GRADE_COMPILED,              /* *ptx holds the PTX */
    GRADE_COMPILE_FAILED,        /* nvcc or ptxas rejected the file, or a limit stopped
                                    it: *log holds their messages, msg the limit */
    GRADE_COMPILE_TIMED_OUT,     /* nvcc ran past the wall limit and was killed */
    GRADE_COMPILE_REFUSED,       /* an #include names a file outside the submission's
                                    folder and the toolkit's headers: msg names it */
    GRADE_COMPILE_UNAVAILABLE    /* no nvcc, no temporary folder, or interrupted: msg says which */
} GradeCompileStatus;

/* What grade_compile compiles: the submission's text as read once before
 * (never the path again), how reports name it, and where its headers are. */
typedef struct {
    const char *source;          /* the text, source_len bytes */
    size_t source_len;
    const char *shown;           /* the name messages use for it (printable) */
    const char *folder;          /* the submission's folder: #include "x.h" reads there; NULL none */
    const char *include_dir;     /* the course's headers (GradeOptions.include_dir); NULL none */
    SandboxLimits limits;        /* of each program (nvcc -M, nvcc, ptxas) */
} GradeCompileInput;

/* Compile in->source for arch in a private sandbox (sandbox.h): first
 * `nvcc -M`, whose list of every file the compile would read is checked
 * (the sandbox, in->folder, the toolkit's include folders and the system's
 * C/C++ headers, regular files only); then nvcc -ptx -lineinfo -O3 (the
 * flags `warpsim run` uses, so a replay runs the very same PTX), then
 * ptxas for arch when it is found (it refuses what a GPU could not load:
 * too much shared memory, bad inline asm -- reported at the .cu line of
 * the asm).  Each program runs in its own process group under in->limits
 * and is killed with warpsim.  *ptx (NUL-terminated, *len bytes; its
 * .file names the submission "kernel.cu", a header its name in the
 * folder) and *log (messages, paths outside the submission replaced by
 * grade_compile_scrub) are malloc'd for the caller. */
GradeCompileStatus grade_compile(const GradeCompileInput *in, const char *arch, char **ptx, size_t *len,
                                 char **log, char *msg, size_t cap);

/* text (a compiler's messages) with its paths rewritten for a report:
 * the sandbox's kernel.cu (or a bare "kernel.cu") becomes shown, the
 * sandbox's and folder's own paths relative names, the toolkit's and the
 * system headers' "<cuda>/..." and "<system>/...", and any other absolute
 * path "<outside>".  malloc'd; NULL when out of memory. */
char *grade_compile_scrub(const char *text, const char *sandbox, const char *folder, const char *toolkit,
                          const char *shown);

/* The first error in nvcc's messages ("f.cu(4): error: expected a \";\""):
 * its file, line, column (from the caret line under the echoed source; 0
 * when there is none) and message; or a line of nvcc fatal / ptxas error
 * (file "", line 0).  false when no line looks like one. */
bool grade_compile_first_error(const char *log, char *file, size_t fcap, int *line, int *col, char *emsg,
                               size_t ecap);

/* ---- the state of one grading (filled by grade.c) ------------------------------ */

#define GRADE_MAX_HITS 16

/* A finding as one test saw it. */
typedef struct {
    int finding;                 /* index in report->findings */
    int runs;                    /* runs of this test that showed it */
    int first_run;
    char msg[600];               /* this test's message (a wrong answer's values) */
} GradeHit;

/* One test of the exercise as it is graded. */
typedef struct {
    const GradeExerciseTest *t;
    GradeLaunch launch;
    LaunchSpec spec;             /* the launch with its arguments parsed */
    uint64_t budget;
    int runs_done, runs_correct;
    bool stopped;                /* later runs skipped (an endless loop, a deadlock) */
    GradeHit hits[GRADE_MAX_HITS];
    int nhits;
    int more_hits;               /* findings beyond GRADE_MAX_HITS */
    uint64_t max_atomics;        /* the most atomics of a correct run */
    bool timed;                  /* run 0 ran with the timing model and was right */
    uint64_t cycles;             /* its modelled cycles (DeviceStats.cycles) */
    uint64_t smem_wavefronts;    /* its shared-memory wavefronts and */
    uint64_t bank_replays;       /* bank-conflict replays (DeviceTiming) */
    int top_stall;               /* the warp state with the most warp-cycles
                                    besides selected (DEVICE_STALL_*), -1 none */
    double top_stall_share;      /* its share of all warp-cycles, 0..1 */
    bool sim_out_ok;             /* run 0 finished: sim_out holds its buffers */
    uint8_t *sim_out[GRADE_MAX_PARAMS];
    bool gpu_done, gpu_failed;
    char gpu[700];               /* the GPU's verdict, one line */
} GradeTest;

typedef struct {
    GradeReport *r;
    const GradeOptions *o;
    const GradeExercise *ex;
    GradeTest *tests;            /* ex->ntests */
    GradeCompileInput cin;       /* the submission as compiled (also again for a GPU's arch) */
    const char *entry;           /* the kernel's PTX entry name */
    char *ptx;                   /* the PTX graded (owned by grade_run) */
    size_t ptx_len;
    long *seen;                  /* per finding: the (test, run) that last counted it */
    int findings_cap;
} GradeCtx;

/* ---- grade_launch.c: runs, arguments, replay commands -------------------------- */

/* The schedule, atomic order and seed of run k. */
void grade_run_choice(const GradeCtx *c, int run, int *schedule, int *atomic_order, uint64_t *seed);

/* The argument data of test T before a launch (in[]), and after it from
 * res (out[]; scalars are as before).  false when a buffer could not be
 * read back. */
void grade_data_before(const GradeTest *T, GradeData *in);
bool grade_data_after(const GradeTest *T, const LaunchResult *res, GradeData *out);

/* The command line that replays test T's launch with the choices of run
 * (schedule, atomic order, seed; run -1: on the GPU): verb is "run" or
 * "step". */
void grade_command(const GradeCtx *c, const GradeTest *T, const char *verb, int run, char *buf, size_t cap);

/* ---- grade_finding.c: findings -------------------------------------------------- */

/* Zero *f and fill what every finding of test ti (-1: none), run (-1: the
 * GPU, or none) shares: kind, backend, the run's choices, replay commands. */
void grade_finding_init(GradeCtx *c, GradeFinding *f, const char *kind, int ti, int run);

/* Record finding f seen by test ti (-1: none) with that test's message
 * test_msg (NULL: f->msg).  Deduplicates by kind, file, line and backend.
 * Returns the finding's index, -1 when out of memory (it is dropped). */
int grade_finding_add(GradeCtx *c, int ti, const GradeFinding *f, const char *test_msg);

/* The submission's own path when file names the same file (or is ""),
 * else file, into out. */
void grade_student_file(const GradeCtx *c, const char *file, char *out, size_t cap);

/* The line declaring kernel `name` in the student's source, 0 when not
 * found: where a finding without a line of its own points. */
int grade_kernel_line(const GradeReport *r, const char *name);

/* Findings of test ti in run k (k = -1: on the GPU): each of the n races
 * the device reported (races[], copied from device_race), a fault, a wrong answer (why: the exercise's explanation). */
void grade_record_races(GradeCtx *c, const DeviceRace *races, int n, int ti, int run);
void grade_record_fault(GradeCtx *c, int ti, int run, const DeviceFault *x);
void grade_record_wrong(GradeCtx *c, int ti, int run, const char *why);

/* ---- grade_sim.c: the runs in the simulator ------------------------------------- */

/* Run every test o->runs times, each run on a fresh simulator of the
 * exercise's arch with a fresh module from c->ptx, o->threads runs side by
 * side; record findings, correct runs and run 0's outputs in c->tests in
 * (test, run) order, the same with any number of threads; a test stops
 * early after an endless loop, a deadlock or a failed launch. */
void grade_sim_runs(GradeCtx *c);

/* ---- grade_gpu.c: the runs on a GPU --------------------------------------------- */

/* Run every test once on the GPU (or its stand-in) in a child process with
 * a fresh context, each launch bounded by o->gpu_timeout seconds; record
 * agreement in each test's gpu fields and faults, timeouts and wrong
 * answers as findings; set r->gpu_ran and r->gpu_note. */
void grade_gpu(GradeCtx *c);

/* ---- grade_rubric.c: scores ----------------------------------------------------- */

/* Score every test item from its runs and hits, and every rubric item. */
void grade_score_tests(GradeCtx *c);
void grade_score_rubric(GradeCtx *c);

#endif
