/* plot.h: line charts rendered off screen (SDL2 software renderer, SDL2_ttf
 * text) into a PNG.  `warpsim occupancy --plot` draws the three graphs of
 * NVIDIA's occupancy calculator with it; the charts know nothing of
 * occupancy: the caller computes the series.  SDL stays inside plot.c. */
#ifndef WARPSIM_VIZ_PLOT_H
#define WARPSIM_VIZ_PLOT_H

#include "error.h"

/* One chart: a step series (y holds from x[i] until x[i+1]) and a marked
 * point, the current configuration. */
typedef struct {
    const char *title;        /* "Impact of varying block size" */
    const char *xlabel;       /* "threads per block" */
    const char *ylabel;       /* "active warps per SM" */
    const double *x, *y;      /* n points, x ascending */
    int n;
    double xmin, xmax;        /* axis ranges */
    double ymin, ymax;
    double xtick, ytick;      /* spacing of tick marks and grid lines (> 0) */
    double mark_x, mark_y;    /* the marked point */
    const char *mark_label;   /* text beside the mark, may be NULL */
} VizChart;

/* Render n charts (1 to 3) in a 2 x 2 grid, the fourth cell holding
 * n_lines lines of text (a caption, may be 0), under a title, into a
 * width x height PNG at path.  Font: font_path, or DejaVu Sans at
 * /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf when NULL.
 * SIM_OK, SIM_ERR_IO (font or file), SIM_ERR_NODEVICE (SDL failed),
 * SIM_ERR_USAGE (bad arguments), with err filled. */
SimStatus viz_plot_charts(const char *path, const char *title, const VizChart *charts, int n,
                          const char *const *lines, int n_lines, int width, int height,
                          const char *font_path, SimError *err);

#endif
