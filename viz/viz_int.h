/* viz_int.h: what the files of the visualizer share -- the canvas (an SDL
 * renderer with fonts, a cache of rendered text and the clickable regions
 * of the frame being drawn), the viewer's state (traces, time, selection),
 * the palette, and the five views.  The window (viz_window.c) and the
 * headless renderer (viz_headless.c) both draw through viz_frame_draw. */
#ifndef WARPSIM_VIZ_INT_H
#define WARPSIM_VIZ_INT_H

#include <SDL.h>
#include <SDL_ttf.h>
#include <stdbool.h>

#include "viz.h"
#include "viz_model.h"

#define VIZ_TEXT_CACHE 1024
#define VIZ_MAX_HITS 8192

typedef struct { int x, y, w, h; } VizBox;

enum { VIZ_FONT_SMALL, VIZ_FONT_NORMAL, VIZ_FONT_BOLD, VIZ_FONT_BIG, VIZ_FONT_MONO, VIZ_FONT_COUNT };

typedef struct {
    char s[112];              /* the text ("" free) */
    int font;
    Uint32 rgba;
    SDL_Texture *tx;
    int w, h;
} VizTextSlot;

typedef struct {
    SDL_Renderer *r;
    TTF_Font *font[VIZ_FONT_COUNT];
    VizTextSlot cache[VIZ_TEXT_CACHE];
    int w, h;                 /* output size, pixels */
    VizHit hits[VIZ_MAX_HITS];
    int nhits;
} VizCanvas;

typedef struct {
    VizModel *m[2];
    int n;                    /* traces shown: 1 or 2 */
    int view;                 /* VizView */
    uint64_t cycle;           /* the cycle shown, on the shared axis */
    uint64_t end;             /* the axis' end: the longest trace's end cycle */
    uint32_t pos[2];          /* each trace's position (events applied) */
    uint64_t t0, t1;          /* the visible window of the axis (zoom) */
    bool playing, help;
    double speed;             /* cycles per second while playing */
    double carry;             /* fraction of a cycle left over by play */
    int sel_sm;               /* -1: none */
    uint64_t sel_block;       /* VIZ_NONE: none */
    int sel_warp;             /* -1: none */
    uint32_t sel_addr;        /* index into the atomic addresses */
    uint32_t max_warps_per_sm[2]; /* per trace, 0 unknown */
    char status[256];         /* what the last step did */
} VizState;

/* ---- palette ------------------------------------------------------------ */
static const SDL_Color VIZ_BG = {244, 245, 248, 255}, VIZ_PANEL = {255, 255, 255, 255},
                       VIZ_INK = {28, 30, 36, 255}, VIZ_GREY = {105, 108, 118, 255},
                       VIZ_LINE = {214, 217, 224, 255}, VIZ_CURSOR = {216, 38, 38, 255},
                       VIZ_ACTIVE = {46, 160, 67, 255}, VIZ_INACTIVE = {196, 201, 210, 255},
                       VIZ_BARRIER = {240, 146, 24, 255}, VIZ_EXITED = {84, 86, 98, 255},
                       VIZ_NOTHREAD = {250, 250, 252, 255}, VIZ_UNKNOWN = {226, 228, 234, 255},
                       VIZ_RUNNING = {255, 244, 190, 255}, VIZ_SELECT = {20, 90, 220, 255},
                       VIZ_FAULT = {210, 30, 30, 255}, VIZ_LOAD = {58, 118, 220, 255},
                       VIZ_STORE = {232, 134, 34, 255}, VIZ_ATOM = {146, 76, 200, 255},
                       VIZ_DONE = {76, 168, 98, 255}, VIZ_LATEST = {250, 196, 36, 255},
                       VIZ_TILE_BUSY = {232, 240, 252, 255}, VIZ_STRIP = {60, 104, 196, 255},
                       VIZ_STRIP_PEAK = {178, 200, 238, 255};

/* ---- canvas (viz_canvas.c) ------------------------------------------------ */
/* Open the fonts (font_path or DejaVu) for drawing on r, w x h pixels.
 * false with msg filled when a font cannot be opened. */
bool viz_canvas_open(VizCanvas *c, SDL_Renderer *r, int w, int h, const char *font_path, char *msg, size_t cap);
void viz_canvas_close(VizCanvas *c);
void viz_fill(VizCanvas *c, VizBox b, SDL_Color col);
void viz_frame_rect(VizCanvas *c, VizBox b, SDL_Color col, int thickness);
void viz_line(VizCanvas *c, int x0, int y0, int x1, int y1, SDL_Color col);
/* Text anchored at (x, y): ax/ay 0 left/top, 1 centre, 2 right/bottom.
 * Returns its width.  Clipped to max_w pixels when max_w > 0. */
int viz_text(VizCanvas *c, int font, const char *s, int x, int y, int ax, int ay, SDL_Color col);
int viz_text_clip(VizCanvas *c, int font, const char *s, int x, int y, int max_w, SDL_Color col);
/* Text wrapped at spaces to max_w, at most max_lines lines; returns the
 * lines drawn. */
int viz_text_wrap(VizCanvas *c, int font, const char *s, int x, int y, int max_w, int max_lines, SDL_Color col);
int viz_textf(VizCanvas *c, int font, int x, int y, SDL_Color col, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));
int viz_text_width(VizCanvas *c, int font, const char *s);
int viz_font_height(VizCanvas *c, int font);
void viz_hit(VizCanvas *c, VizBox b, int kind, int trace, uint64_t id, uint64_t aux);
/* A colour per block (hues spread by the golden ratio). */
SDL_Color viz_block_color(uint64_t block);
/* Black or white, whichever reads on bg. */
SDL_Color viz_ink_on(SDL_Color bg);

/* A legend: a row of swatches with labels along the bottom of area, wrapped
 * to as many rows as needed.  Returns the height it took. */
typedef struct { SDL_Color col; const char *label; int outline; } VizLegendItem;
int viz_legend(VizCanvas *c, VizBox area, const VizLegendItem *items, int n);
/* The colour of a warp state (TRACE_STATE_*; VIZ_UNKNOWN outside), and a
 * legend of all of them under Nsight Compute's names (returns its height). */
SDL_Color viz_state_color(int state);
int viz_state_legend(VizCanvas *c, VizBox area);

/* ---- state (viz_state.c) ----------------------------------------------- */
/* Load the traces of o and place the time at o->at_cycle.  false with err. */
bool viz_state_open(VizState *s, const VizOptions *o, SimError *err);
void viz_state_close(VizState *s);
/* Show cycle c (clamped to the axis): every event of cycle <= c applied. */
void viz_state_seek(VizState *s, uint64_t c);
/* One event forward (dir 1) or back (-1), whichever trace has it first. */
void viz_state_step_event(VizState *s, int dir);
/* One cycle forward or back. */
void viz_state_step_cycle(VizState *s, int dir);
/* Advance by dt seconds of play. */
void viz_state_play(VizState *s, double dt);
/* Zoom the visible window by factor (< 1 in) about cycle c. */
void viz_state_zoom(VizState *s, double factor, uint64_t about);
/* The block the SM, memory views show for trace t (selected, or chosen). */
uint64_t viz_state_block(const VizState *s, int t);

/* ---- drawing (viz_frame.c and the views) ---------------------------- */
/* The whole frame: title and tabs, the view (per trace), status, the time
 * axis, the help when on. */
void viz_frame_draw(VizCanvas *c, VizState *s);
/* The time axis box of a frame of this size (for dragging). */
VizBox viz_frame_axis(const VizCanvas *c);
/* The cycle at x on the axis. */
uint64_t viz_frame_axis_cycle(const VizCanvas *c, const VizState *s, int x);

void viz_view_gpu(VizCanvas *c, const VizState *s, int t, VizBox b);
void viz_view_sm(VizCanvas *c, const VizState *s, int t, VizBox b);
void viz_view_memory(VizCanvas *c, const VizState *s, int t, VizBox b);
void viz_view_atomics(VizCanvas *c, const VizState *s, int t, VizBox b);
void viz_view_tile(VizCanvas *c, const VizState *s, int t, VizBox b);

#endif
