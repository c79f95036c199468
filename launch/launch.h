/* launch.h: one kernel launch written the way `warpsim run` takes it
 * (--kernel K --grid G --block B [--smem S] [--budget N] --arg SPEC ...),
 * parsed from argv-like tokens, and run on any Device: buffers allocated
 * and filled, parameters checked against the PTX, launched, every buffer
 * read back.  Shared by `warpsim run` and `warpsim xcheck` so that both run
 * a launch line the same way on the simulator and on the GPU. */
#ifndef WARPSIM_LAUNCH_H
#define WARPSIM_LAUNCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "argspec.h"
#include "device.h"

#define LAUNCH_MAX_ARGS 64

typedef struct {
    const char *kernel;          /* --kernel (points into the tokens), NULL unset */
    DeviceDim3 grid, block;      /* --grid, --block */
    bool have_grid, have_block;
    bool block_optional;         /* the command lets --block be left out (warpsim
                                    run): launch_resolve_block takes the kernel's */
    unsigned long smem;          /* --smem: dynamic shared memory bytes */
    unsigned long long budget;   /* --budget: warp instructions, 0 = default */
    uint64_t max_memory;         /* --max-memory: bytes of simulated memory
                                    (device_set_memory_limit), 0 = the command's default */
    uint64_t max_printf;         /* --max-printf: bytes of printf output before a
                                    printf-limit fault (device_set_printf_limit), 0 none */
    ArgSpec args[LAUNCH_MAX_ARGS]; /* --arg, in order (owned: launch_spec_free) */
    int nargs;
    const char *trace_path;      /* write a trace here (set by `warpsim run --trace`), NULL none */
    int trace_level;             /* its TraceLevel */
    /* The simulator's choices (device.h): --schedule, --atomic-order,
     * --divergence, --seed, --check races.  Zero: the defaults. */
    int schedule, atomic_order, divergence;
    uint64_t seed;
    unsigned checks;             /* DEVICE_CHECK_* */
    bool timing;                 /* --timing: the simulator's timing model (DeviceLaunch.timing) */
    int carveout;                /* --carveout P: preferred carveout (-1 default .. 100), */
    bool have_carveout;          /* set with cuFuncSetAttribute's meaning when given */
    bool cooperative;            /* --cooperative: a cooperative launch (grid.sync()) */
    DeviceDim3 cluster;          /* --cluster: CTAs per cluster (DeviceLaunch.cluster), 0s unset */
    /* Called before every warp instruction (DeviceLaunch.on_issue, a
     * SimIssueFn of sim/inspect.h: `warpsim step`); NULL none. */
    int (*on_issue)(void *user, const struct SimView *view, uint64_t block, int warp);
    void *on_issue_user;
    /* Called between rounds of the schedule with blocks retired and total
     * (DeviceLaunch.on_progress): progress lines, Ctrl-C; NULL none. */
    int (*on_progress)(void *user, uint64_t retired, uint64_t total);
    void *on_progress_user;
} LaunchSpec;

/* The help text of the options above that choose how the simulator orders
 * what hardware leaves unordered (--schedule ... --check), for --help pages. */
extern const char launch_sched_help[];

/* What launch_parse_option made of argv[*i]. */
typedef enum {
    LAUNCH_OPT_NONE,    /* not a launch option (or one missing its value): the
                           caller handles it; *i unchanged */
    LAUNCH_OPT_TAKEN,   /* consumed (with its value); *i is on the last token used */
    LAUNCH_OPT_USAGE,   /* a bad value: msg says which ("--grid 'x': expected ...") */
    LAUNCH_OPT_BADSPEC  /* an --arg SPEC that argspec_parse rejected: msg is its reason */
} LaunchOpt;

/* Zero *s (no kernel, no args). */
void launch_spec_init(LaunchSpec *s);
/* Free the argument buffers; *s is then as after launch_spec_init. */
void launch_spec_free(LaunchSpec *s);

/* Parse argv[*i] (and its value argv[*i + 1]) into s when it is one of the
 * launch options above.  Messages go into msg (one line, no prefix). */
LaunchOpt launch_parse_option(LaunchSpec *s, int argc, char **argv, int *i, char *msg, size_t cap);

/* For commands shaped like `warpsim run FILE [launch options]`: an argument
 * no option took is the FILE when it is the first such, else a usage error
 * (an unknown option, an option missing its value, a second FILE).  false
 * with msg (one line) on error; has_val: another argument follows a. */
bool launch_take_file(const char *a, bool has_val, const char **file, char *msg, size_t cap);
/* After the options: the FILE and a complete launch (--kernel, --grid,
 * --block unless s->block_optional) given?  false with msg naming the first
 * thing missing. */
bool launch_check_complete(const char *file, const LaunchSpec *s, char *msg, size_t cap);

/* Parse a whole launch from tokens (nothing but launch options) and check it
 * is complete (--kernel, --grid, --block: a launch line of xcheck.txt or a
 * grader's test names its block size).  false with msg on any problem. */
bool launch_parse_tokens(LaunchSpec *s, int argc, char **argv, char *msg, size_t cap);

/* Without --block: fill s->block from the kernel's .reqntid, else its
 * .maxntid (a tile kernel declares __launch_bounds__(tile::kThreads), so it
 * needs only --grid).  true when s has a block size afterwards; false with
 * msg ("kernel K declares no .reqntid or .maxntid: give --block") when the
 * kernel declares neither, or is not in mod.  launch_run calls it itself;
 * call it first where the block size is needed before the launch. */
bool launch_resolve_block(DeviceModule *mod, LaunchSpec *s, char *msg, size_t cap);

/* A byte count with an optional binary unit: "4096", "64K", "256M",
 * "4G", "4GiB", "1T".  false when text is not one or is 0 or overflows. */
bool launch_parse_bytes(const char *text, uint64_t *out);

/* "4" / "4,2" / "4,2,1" (also "4x2"): positive integers. */
bool launch_parse_dim(const char *text, DeviceDim3 *d);

/* Split line into tokens the way a shell would for plain words, but with no
 * shell: blanks separate; '...' keeps everything literally; "..." and bare
 * words take \c as c; an unquoted # at the start of a token begins a
 * comment.  Returns the token count (0 for a blank or comment line) with
 * *out a malloc'd NULL-terminated array (launch_tokens_free), or -1 with msg
 * ("column 17: unterminated quote"). */
int launch_tokenize(const char *line, char ***out, char *msg, size_t cap);
void launch_tokens_free(char **toks);

/* One buffer after the launch. */
typedef struct {
    int arg;                     /* its parameter index */
    PtxType type;
    uint64_t count;              /* elements */
    uint8_t *data;               /* count x size bytes, little-endian (owned) */
} LaunchBuffer;

/* What a launch produced. */
typedef struct {
    const char *entry;           /* PTX entry name (owned by the module) */
    SimStatus status;            /* SIM_OK or SIM_ERR_FAULT */
    DeviceStats stats;
    DeviceFault fault;           /* filled when status is SIM_ERR_FAULT */
    LaunchBuffer bufs[LAUNCH_MAX_ARGS]; /* the buffer arguments, in order */
    int nbufs;
    char sfu[160];               /* the kernel's first approximate instruction
                                    (device_kernel_sfu), "" when it has none */
} LaunchResult;

/* Run s on mod's device: find the kernel, check the argument count and
 * sizes against its parameters, allocate and fill the buffers, launch, read
 * every buffer back and free the allocations.  SIM_OK or SIM_ERR_FAULT (the
 * kernel faulted; buffers are still read back when the device allows) with
 * *r filled; another status with msg (one line, no prefix) when the launch
 * could not be made.  Free *r with launch_result_free in every case. */
SimStatus launch_run(Device *dev, DeviceModule *mod, const LaunchSpec *s, LaunchResult *r, char *msg,
                     size_t cap);
void launch_result_free(LaunchResult *r);

#endif
