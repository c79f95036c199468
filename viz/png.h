/* png.h: write an RGBA image to a PNG file with libpng.  Used by the
 * occupancy plots (viz/plot.c) and by the visualizer's headless frames. */
#ifndef WARPSIM_VIZ_PNG_H
#define WARPSIM_VIZ_PNG_H

#include <stdint.h>

#include "error.h"

/* Write width x height pixels to path.  rgba points at the first row; each
 * row is 4 x width bytes R, G, B, A, and rows are stride bytes apart
 * (stride >= 4 x width).  SIM_OK, or SIM_ERR_IO (the file cannot be written;
 * message names path) / SIM_ERR_USAGE (bad size) with err filled; a failed
 * write leaves no partial file behind. */
SimStatus viz_png_write(const char *path, const uint8_t *rgba, int width, int height,
                        int stride, SimError *err);

#endif
