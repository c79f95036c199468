/* viz_absent.c: the visualizer's drawing entry points in a warpsim built
 * without SDL2, SDL2_ttf or libpng (the Makefile compiles this file instead
 * of viz/'s SDL files).  Each says which packages bring the feature; the
 * trace model (viz_model.c, viz_query.c) and the options (viz_state.c) are
 * plain C and stay. */
#include "plot.h"
#include "png.h"
#include "viz.h"

#include <stdio.h>

#define VIZ_ABSENT "built without SDL2; install libsdl2-dev libsdl2-ttf-dev libpng-dev and rebuild"

static SimStatus absent(SimError *err, const char *what)
{
    sim_error_set(err, SIM_ERR_NODEVICE, NULL, 0, 0, "%s is " VIZ_ABSENT, what);
    return SIM_ERR_NODEVICE;
}

SimStatus viz_render_png(const VizOptions *o, const char *out, VizHit *hits, int cap, int *nhits,
                         SimError *err)
{
    (void)o, (void)out, (void)hits, (void)cap;
    if (nhits)
        *nhits = 0;
    return absent(err, "the visualizer");
}

int viz_window_opts(const VizOptions *o, char *msg, size_t cap)
{
    (void)o;
    snprintf(msg, cap, "the visualizer is " VIZ_ABSENT);
    return 2;
}

int viz_window(const char *const *paths, int n, uint64_t at_cycle, int view, char *msg, size_t cap)
{
    (void)paths, (void)n, (void)at_cycle, (void)view;
    snprintf(msg, cap, "the visualizer is " VIZ_ABSENT);
    return 2;
}

SimStatus viz_plot_charts(const char *path, const char *title, const VizChart *charts, int n,
                          const char *const *lines, int n_lines, int width, int height,
                          const char *font_path, SimError *err)
{
    (void)path, (void)title, (void)charts, (void)n, (void)lines, (void)n_lines;
    (void)width, (void)height, (void)font_path;
    return absent(err, "the occupancy plot");
}

SimStatus viz_png_write(const char *path, const uint8_t *rgba, int width, int height, int stride,
                        SimError *err)
{
    (void)path, (void)rgba, (void)width, (void)height, (void)stride;
    return absent(err, "PNG output");
}
