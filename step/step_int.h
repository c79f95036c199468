/* step_int.h: what the stepper's files share -- the Stepper itself and the
 * functions one file offers the others.  Not a public contract: see step.h.
 * Calls go one way, top to bottom:
 *   step.c       the public API and the pause loop: calls step_cmd, step_show, step_core
 *   step_cmd.c   command lines: parsing, dispatch, help; calls the three leaves and step_core
 *   step_print.c, step_show.c, step_viz.c   print / where, info, stops / viz: call step_core
 *                and step_tile
 *   step_tile.c  tile operations (tile.cuh's markers) in words: calls step_core only
 *   step_core.c  the state of the paused machine, breakpoints, when to stop, formatting; calls none */
#ifndef WARPSIM_STEP_INT_H
#define WARPSIM_STEP_INT_H

#include <signal.h>

#include "step.h"
#include "trace.h"

/* How the launch goes on after a command resumes it. */
typedef enum {
    STEP_PAUSE,      /* stop at the very next instruction (the start) */
    STEP_STEP,       /* until the focus warp has issued `count` instructions */
    STEP_NEXT,       /* until the focus warp reaches another .cu line, `count` times */
    STEP_TILE,       /* until the focus warp begins a tile operation, `count` times */
    STEP_CONTINUE,   /* until a breakpoint (or the end) */
    STEP_QUIT        /* stop the launch */
} StepMode;

typedef struct {
    int id;
    char *file;      /* as written in the PTX (.file), for messages */
    int line;
    uint64_t hits;
    bool live;       /* false after delete */
} StepBreak;

#define STEP_MAX_BREAKS 64

/* A .cu file read for `where` (lines split in place). */
typedef struct {
    char *path;      /* the name the PTX uses */
    char *text;      /* NULL: not found (warned once) */
    char **lines;
    int nlines;
} StepSource;

struct Stepper {
    StepConfig cfg;
    /* the paused launch (valid during step_on_issue) */
    const SimView *v;
    uint64_t cur_block;          /* the warp about to issue */
    int cur_warp;
    int32_t cur_pc;              /* its pc; -2 not looked up yet (cur_pc()) */
    uint64_t max_block;          /* highest block seen issuing: blocks are
                                    dispatched in order, so a lower one that is
                                    not resident has finished */
    bool started;
    /* the focus */
    uint64_t fblock;
    int fwarp, flane;
    /* how to go on */
    StepMode mode;
    long count;                  /* step/next repetitions left */
    uint64_t focus_issued;       /* instructions the focus warp issued so far */
    uint64_t target;             /* STEP: stop once focus_issued reaches it */
    const char *next_file;       /* NEXT: the line we started on */
    int next_line;
    bool check_alive;            /* the focus warp just issued: is it still there? */
    /* breakpoints */
    StepBreak breaks[STEP_MAX_BREAKS];
    int nbreaks, next_break_id;
    int nlive;                   /* live breakpoints */
    uint8_t *break_at;           /* per pc: a live breakpoint starts here */
    int n_insts;
    volatile sig_atomic_t interrupted;  /* step_interrupt: stop at the next instruction */
    /* the commands */
    char last[256];              /* the last command (an empty line repeats it) */
    int errors;
    StepSource src[4];
    int nsrc;
    char *trace_path;            /* viz: the launch's trace, made once */
    uint64_t latest_cycle;       /* the largest cycle a stop has shown */
    int latest_sm;               /* the SM that was at it */
    bool told_slices;            /* why clocks differ between SMs: said once */
    uint64_t fault_at;           /* a replay: stop before warp instruction number
                                    fault_at - 1 (step_stop_before); 0 none */
    int fault_lane;
};

/* ---- step_tile.c: tile operations (lessons/include/tile.cuh) ------------- */

/* Does a tile operation begin at pc for warp (block, warp)?  *ev (trace.h):
 * what it will do, as the focus lane (or the first issuing lane) sees it. */
bool step_tile_at(Stepper *s, uint64_t block, int warp, int32_t pc, TraceEvent *ev);
/* What the tile operation beginning at the focus warp's pc does, in one
 * line; false when none begins there. */
bool step_tile_describe(Stepper *s, int32_t pc, char *buf, size_t cap);

/* ---- step_core.c: the paused machine, breakpoints, stops, formatting ---- */

/* Before (block, warp) issues (on_issue's arguments): note where the launch
 * is, and say whether to stop here; why gets the headline ("" none).  The
 * first call starts the session (focus on that warp). */
bool step_core_stop_here(Stepper *s, const SimView *v, uint64_t block, int warp, char *why, size_t cap);
/* After the stop (if any): (block, warp) issues now (s->mode says how the
 * launch goes on). */
void step_core_issued(Stepper *s, uint64_t block, int warp);
/* The focus warp's next pc (-1 when it has no runnable lane) and its mask. */
int32_t step_focus_pc(Stepper *s, uint32_t *mask);
/* Has the focus warp a lane that has not exited (false: not resident)? */
bool step_focus_alive(Stepper *s);
/* The instruction lane of vw is at, or waits at (a barrier); -1 exited. */
int32_t step_lane_pc(const ViewWarp *vw, int lane);
/* Is block b resident now (its SM in *sm); else has it finished (false:
 * not started yet). */
bool step_block_resident(Stepper *s, uint64_t b, int *sm);
bool step_block_finished(Stepper *s, uint64_t b);
/* Breakpoints: add one at file:line (file NULL: the file of the focus
 * warp's line, else any); true with "breakpoint N at f:l" in msg, false
 * with why not. */
bool step_break_add(Stepper *s, const char *file, int line, char *msg, size_t cap);
void step_break_delete(Stepper *s, int id);   /* id -1: all */
/* "error: ..." on the output, counted in s->errors. */
void step_error(Stepper *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A whole unsigned number, decimal or 0x hex. */
bool step_parse_u64(const char *t, uint64_t *v);
/* A register or scalar value of PtxType type (-1 unknown: 64-bit) as text:
 * decimal (hex too when large), floats exactly, predicates true/false. */
void step_format_value(int type, uint64_t v, char *buf, size_t cap);
/* PTX text with every run of blanks (tabs) made one space. */
void step_squeeze(char *d, size_t cap, const char *t);
/* "kernel.cu" for "lessons/01-threads-and-races/kernel.cu". */
const char *step_basename(const char *path);
/* The thread index (x,y,z) of lane of warp in a block of the launch's shape. */
DeviceDim3 step_thread_of(const Stepper *s, int warp, int lane);

/* ---- step_cmd.c: one command line ---- */

/* Run one command line; true when it resumes the launch (s->mode says how). */
bool step_cmd_run(Stepper *s, const char *line);

/* ---- step_print.c ---- */

/* The print command (argv[0] is "print"); false: it never resumes. */
bool step_cmd_print(Stepper *s, int argc, char **argv);

/* ---- step_show.c: where, info, stops, .cu source ---- */

/* Print "[block B warp W, SM s, cycle c] file:line  ptx" and the .cu line
 * for the focus warp, after why (NULL: none). */
void step_show_stop(Stepper *s, const char *why);
void step_show_where(Stepper *s);
void step_show_info(Stepper *s, const char *what);  /* warps lanes blocks sms barriers breakpoints registers */
/* Line `line` of .cu file `file` (NULL when unreadable or past its end). */
const char *step_source_line(Stepper *s, const char *file, int line);
/* The 32 lanes as marks: '#' issues next, '-' predicated off, '.' elsewhere
 * (diverged), 'b' at a barrier, 'w' at a warp sync, 'x' exited, ' ' absent. */
void step_lane_marks(Stepper *s, uint64_t block, int warp, char marks[33]);
void step_source_free(Stepper *s);

/* ---- step_viz.c: the paused launch in the visualizer ---- */

/* `viz [VIEW]` at the stepper's current cycle (view: gpu, sm, memory,
 * atomics).  The launch is run once more, from the start, in a fresh
 * simulator with a memory-level trace (the default schedule is
 * deterministic, so it replays identically), written once per session to a
 * temporary file that is kept (its path is printed); the window opens on it
 * at the current cycle with the focus block selected (without viz/, the
 * commands that do so are printed).  0, or nonzero with msg. */
int step_viz(Stepper *s, const char *view, char *msg, size_t cap);

#endif
