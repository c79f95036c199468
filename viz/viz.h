/* viz.h: the trace visualizer.  Opens one trace (or two, side by side on
 * one time axis) and shows it in five views: the GPU (SMs as tiles with
 * their resident blocks and occupancy over time), one SM (a block's warps as
 * rows of 32 lanes), memory (shared-memory banks and conflicts, global
 * accesses in 32-byte sectors), atomics (each address's queue of element
 * updates in order) and tiles (an array as its tile space, tile.cuh).  Either in an SDL2 window (viz_window*) or as one frame
 * rendered off screen into a PNG (viz_render_png), with no display.
 *
 * Everything SDL stays inside viz/; callers (`warpsim viz`, the stepper)
 * see only this header.  Traces are read through sim/trace.h. */
#ifndef WARPSIM_VIZ_H
#define WARPSIM_VIZ_H

#include <stddef.h>
#include <stdint.h>

#include "error.h"

/* The views, in the order of their keys 1-5. */
typedef enum { VIZ_VIEW_GPU = 0, VIZ_VIEW_SM, VIZ_VIEW_MEMORY, VIZ_VIEW_ATOMICS, VIZ_VIEW_TILE, VIZ_VIEW_COUNT } VizView;

/* "gpu", "sm", "memory", "atomics", "tile"; and back (-1 when unknown). */
const char *viz_view_name(int view);
int viz_view_parse(const char *name);

#define VIZ_AT_MIDDLE UINT64_MAX   /* VizOptions.at_cycle: the middle of the launch */
#define VIZ_AT_END (UINT64_MAX - 1) /* VizOptions.at_cycle: its end */
#define VIZ_NONE UINT64_MAX        /* VizOptions.block: no selection */

typedef struct {
    const char *paths[2];      /* one or two traces */
    int npaths;
    uint64_t at_cycle;         /* the cycle shown first (VIZ_AT_MIDDLE) */
    int view;                  /* VizView */
    int width, height;         /* pixels; 0 = 1280 x 800 */
    uint64_t block;            /* block selected first, VIZ_NONE: the views pick */
    int sm;                    /* SM selected first, -1: the views pick */
    /* The arch's warps per SM for the occupancy strips (resident warps /
     * this), looked up by the caller from the trace's arch name ("sm_90");
     * NULL, or 0 returned: the strips are scaled to the busiest SM instead. */
    uint32_t (*max_warps_per_sm)(const char *arch);
    const char *font_path;     /* NULL: DejaVu Sans (fonts-dejavu-core) */
    const char *script;        /* window only: commands run as if typed, for
                                  tests (see viz_window_opts); NULL none */
} VizOptions;

/* Defaults: no paths, at cycle 0, the GPU view, 1280 x 800, nothing selected. */
void viz_options_init(VizOptions *o);

/* Path of the DejaVu font file ("DejaVuSans.ttf") into buf: the system's
 * (fonts-dejavu-core), else the copy `make install` put beside an installed
 * warpsim (PREFIX/share/warpsim/fonts); the system path when neither is
 * there, for the error message.  Returns buf. */
const char *viz_font(const char *file, char *buf, size_t cap);

/* Where one clickable thing was drawn in a frame (the window uses these for
 * clicks; tests use them to know where to look). */
typedef enum {
    VIZ_HIT_SM = 1,      /* id = SM */
    VIZ_HIT_BLOCK,       /* id = block */
    VIZ_HIT_WARP,        /* id = warp index in the selected block */
    VIZ_HIT_ADDR,        /* id = index of the address (viz_model_atomic_addr) */
    VIZ_HIT_QUEUE,       /* id = index of the update in the address's queue;
                            aux 1 when it has been applied at the shown cycle */
    VIZ_HIT_BANK,        /* id = shared-memory bank 0..31; aux = words it serves */
    VIZ_HIT_SECTOR,      /* id = warp; aux = 32-byte sectors of its access */
    VIZ_HIT_AXIS,        /* the time axis */
    VIZ_HIT_TAB,         /* id = VizView */
    VIZ_HIT_TILE,        /* tile view: id = tile (row-major in the tile space);
                            aux = loads and stores of it applied so far */
    VIZ_HIT_TILEOP,      /* tile view: id = tile record; aux 1 when applied */
    VIZ_HIT_TILEELEM     /* tile view: id = listed element of the latest tile
                            atomic, in the order applied; aux 1 an update */
} VizHitKind;

typedef struct {
    int x, y, w, h;
    int kind;            /* VizHitKind */
    int trace;           /* 0 or 1: which trace's panel */
    uint64_t id;
    uint64_t aux;
} VizHit;

/* Render one frame of o->view at o->at_cycle into a PNG at out, with no
 * display (SDL's software renderer on a surface).  When hits is not NULL it
 * receives up to cap regions and *nhits their number.  SIM_OK; SIM_ERR_IO /
 * SIM_ERR_PARSE / SIM_ERR_UNSUPPORTED for an unreadable, corrupt or too
 * large trace (message names the file and byte); SIM_ERR_USAGE for bad
 * options; SIM_ERR_NODEVICE when SDL or the font fails. */
SimStatus viz_render_png(const VizOptions *o, const char *out, VizHit *hits, int cap, int *nhits,
                         SimError *err);

/* Open the window and run until the user quits.  Keys: space play/pause,
 * right arrow one event, `.` one cycle, left arrow and `,` back, Home/End,
 * + and - speed, 1-5 views, h help, q or Esc quit; the mouse clicks or drags
 * the time axis to scrub, selects an SM, block, warp or address by clicking
 * it, and its wheel zooms the time axis.
 *
 * o->script, when set, is a list of commands separated by ';' or newlines,
 * run one after the other as if a person did them: `key NAME` (space, right,
 * left, period, comma, plus, minus, home, end, h, q, escape, 1-4), `click X
 * Y`, `drag X0 Y0 X1 Y1`, `wheel N X Y`, `wait MS`, `print TEXT` (to
 * stdout, flushed: lets a test know the window is up), `state` (prints
 * "state cycle=N view=V sm=S block=B warp=W window=T0-T1 playing=0|1
 * help=0|1 speed=X": what the commands before it did).
 *
 * Returns 0 when the user quit, 2 with msg filled when a trace cannot be
 * loaded or there is no display ("... use --png OUT.png"). */
int viz_window_opts(const VizOptions *o, char *msg, size_t cap);

/* The same for callers that only have paths: the stepper's `viz` command
 * opens the window on its trace at the current cycle.  view: VizView. */
int viz_window(const char *const *paths, int n, uint64_t at_cycle, int view, char *msg, size_t cap);

#endif
