/* viz_fixture.h: what the tests of tests/test_viz.c share -- temporary
 * paths, traces of lesson 1's kernels written through the host API
 * (harness.h's device), loading a model, rendering a view headless and
 * reading it back with the regions it drew.  Include after harness.h. */
#ifndef WARPSIM_TEST_VIZ_FIXTURE_H
#define WARPSIM_TEST_VIZ_FIXTURE_H

#include <time.h>
#include <unistd.h>

#include "viz.h"
#include "viz_image.h"
#include "viz_model.h"

#define LESSON1 "lessons/01-threads-and-races/kernel.ptx"
#define MAX_HITS 8192

static inline char *tmp_path(const char *name)
{
    static char buf[8][256];
    static int k;
    char *p = buf[k++ % 8];
    snprintf(p, 256, "/tmp/warpsim_test_viz_%d_%s", (int)getpid(), name);
    return p;
}

static inline double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* kernel of lesson 1 over n ones, grid x 256 threads, traced at level. */
static inline void trace_lesson1(const char *kernel, unsigned grid, int n, int level, const char *path)
{
    DeviceModule *m = load_file(LESSON1);
    int *in = malloc((size_t)n * sizeof *in);
    assert_non_null(in);
    for (int i = 0; i < n; i++)
        in[i] = 1;
    int zero = 0;
    DevicePtr din = up(in, (size_t)n * 4), dout = up(&zero, 4);
    void *args[] = {&din, &dout, &n};
    DeviceLaunch cfg = {.grid = {grid, 1, 1}, .block = {256, 1, 1}, .trace_path = path, .trace_level = level};
    SimError err;
    const char *entry = device_find_kernel(m, kernel, &err);
    assert_non_null(entry);
    if (device_launch(m, entry, &cfg, args, NULL, NULL, &err) != SIM_OK)
        fail_msg("launch: %s", err.msg);
    free(in);
}

static inline VizModel *load_ok(const char *path)
{
    SimError err;
    VizModel *m = viz_model_load(path, &err);
    if (!m)
        fail_msg("%s: %s", path, err.msg);
    return m;
}

/* Render view at cycle into out and read it back; hits into h. */
static inline void render(const char *const *paths, int n, int view, uint64_t at, uint64_t block, const char *out,
                   VizImage *im, VizHit *h, int *nh)
{
    VizOptions o;
    viz_options_init(&o);
    for (int i = 0; i < n; i++)
        o.paths[i] = paths[i];
    o.npaths = n;
    o.view = view;
    o.at_cycle = at;
    o.block = block;
    SimError err;
    if (viz_render_png(&o, out, h, MAX_HITS, nh, &err) != SIM_OK)
        fail_msg("viz_render_png: %s", err.msg);
    if (!viz_png_read(out, im))
        fail_msg("cannot read back %s", out);
    assert_int_equal(im->w, 1280);
    assert_int_equal(im->h, 800);
}

static inline int count_hits(const VizHit *h, int n, int kind, int trace)
{
    int k = 0;
    for (int i = 0; i < n; i++)
        k += h[i].kind == kind && h[i].trace == trace;
    return k;
}

static inline const VizHit *find_hit(const VizHit *h, int n, int kind, uint64_t id)
{
    for (int i = 0; i < n; i++)
        if (h[i].kind == kind && h[i].id == id && h[i].trace == 0)
            return &h[i];
    return NULL;
}

#endif
