/* test_viz_states.c: warp states of timed traces in the visualizer.  The
 * model's state lookup is run beside a naive scan of every record of a real
 * timed trace (lesson 07's gather); the GPU view, rendered headless, stripes
 * the blocks in the states' colours -- mostly long_scoreboard for the gather
 * -- with a legend of every state, and draws none of it for the same launch
 * untimed; the SM view colours each warp's label by the state the model
 * gives.  Run from the repository root. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "harness.h"
#include "trace.h"
#include "viz_fixture.h"

#ifdef WARPSIM_HAVE_SDL
#define NEED_SDL() ((void)0)
#else
#define NEED_SDL() skip()
#endif

static VizHit hits[MAX_HITS];

/* The colours of viz_state_color (viz/viz_canvas.c), by TRACE_STATE_*. */
static const uint8_t state_rgb[TRACE_STATE_COUNT][3] = {
    {214, 58, 64}, {236, 128, 170}, {124, 172, 232}, {240, 146, 24}, {150, 98, 54}, {146, 76, 200}, {128, 24, 36},
    {196, 56, 176}, {238, 208, 56}, {46, 160, 67}, {108, 128, 158}, {36, 158, 158}, {150, 150, 150}};

#define LESSON7 "lessons/07-caches-carveout/kernel.ptx"

/* Lesson 07's gather (grid blocks of 256, iters random reads a thread),
 * timed or not, traced at level warps. */
static void trace_gather(unsigned grid, int iters, bool timing, const char *path)
{
    SimError err;
    DeviceModule *m = load_file(LESSON7);
    DevicePtr out = dalloc(4);
    void *args[] = {&out, &iters};
    DeviceLaunch cfg = {.grid = {grid, 1, 1}, .block = {256, 1, 1}, .timing = timing, .trace_path = path,
                        .trace_level = TRACE_LEVEL_WARPS};
    const char *entry = device_find_kernel(m, "l1_gather", &err);
    assert_non_null(entry);
    if (device_launch(m, entry, &cfg, args, NULL, NULL, &err))
        fail_msg("launch: %s", err.msg);
    device_free(dev, out, &err);
}

/* The naive answer: scan every record of the file. */
static int naive_stall(const char *path, uint64_t block, uint32_t warp, uint64_t cycle)
{
    SimError err;
    TraceReader *r = trace_open_file(path, &err);
    assert_non_null(r);
    TraceEvent e;
    int found = -1;
    while (trace_next(r, &e) && found < 0) {
        if (e.type != TRACE_EV_WARP_STATE || e.block != block || e.u.states.warp != warp)
            continue;
        uint64_t total = 0;
        for (uint32_t i = 0; i < e.u.states.n; i++)
            total += e.u.states.cycles[i];
        uint64_t t = e.cycle + 1 - total;
        for (uint32_t i = 0; i < e.u.states.n && found < 0; i++) {
            if (cycle >= t && cycle < t + e.u.states.cycles[i])
                found = e.u.states.state[i];
            t += e.u.states.cycles[i];
        }
    }
    trace_close(r);
    return found;
}

static void test_viz_states_lookup_matches_a_naive_scan(void **s)
{
    (void)s;
    const char *path = tmp_path("states.wst");
    trace_gather(3, 4, true, path);
    VizModel *m = load_ok(path);
    assert_true(viz_model_has_states(m));
    uint64_t end = viz_model_end_cycle(m);
    uint32_t seed = 7;
    int known = 0, counts[TRACE_STATE_COUNT] = {0};
    for (int k = 0; k < 300; k++) {
        seed = seed * 1103515245u + 12345u;
        uint64_t block = (seed >> 8) % 3;
        uint32_t warp = (seed >> 4) % 8;
        uint64_t cycle = (uint64_t)(seed >> 10) % (end + 10);
        int want = naive_stall(path, block, warp, cycle);
        uint64_t since = UINT64_MAX;
        int got = viz_model_warp_stall(m, block, warp, cycle, &since);
        if (got != want)
            fail_msg("block %llu warp %u cycle %llu: model %d, scan %d", (unsigned long long)block, warp,
                     (unsigned long long)cycle, got, want);
        if (got >= 0) {
            known++;
            counts[got]++;
            assert_true(since <= cycle);
        }
    }
    assert_true(known > 200); /* the warps live most of the launch */
    /* a state record's event line names its warp and runs */
    uint64_t ev = 0;
    while (ev < viz_model_nevents(m) && viz_model_event_type(m, ev) != TRACE_EV_WARP_STATE)
        ev++;
    assert_true(ev < viz_model_nevents(m));
    char line[300];
    viz_model_describe_event(m, ev, line, sizeof line);
    assert_non_null(strstr(line, " warp "));
    assert_non_null(strstr(line, "selected 1"));
    assert_true(counts[TRACE_STATE_LONG_SCOREBOARD] > known / 2);
    viz_model_free(m);
    /* an untimed trace says nothing */
    trace_gather(3, 4, false, path);
    m = load_ok(path);
    assert_false(viz_model_has_states(m));
    assert_int_equal(viz_model_warp_stall(m, 0, 0, 10, NULL), -1);
    VizWarpState ws;
    viz_model_warp_state(m, 0, 0, (uint32_t)(viz_model_nevents(m) / 2), &ws);
    assert_int_equal(ws.stall, -1);
    viz_model_free(m);
    unlink(path);
}

static int count_rgb(const VizImage *im, int x, int y, int w, int h, int state)
{
    return viz_image_count(im, x, y, w, h, state_rgb[state][0], state_rgb[state][1], state_rgb[state][2]);
}

static void test_viz_states_gpu_view_stripes_blocks_mostly_long_scoreboard(void **s)
{
    (void)s;
    NEED_SDL();
    const char *path = tmp_path("gpu.wst"), *png = tmp_path("gpu.png");
    trace_gather(16, 16, true, path);
    VizImage im = {0};
    int nh;
    render(&path, 1, VIZ_VIEW_GPU, VIZ_AT_MIDDLE, VIZ_NONE, png, &im, hits, &nh);
    int area = 0, lsb = 0, issuing = 0, blocks = 0;
    for (int i = 0; i < nh; i++) {
        if (hits[i].kind != VIZ_HIT_BLOCK)
            continue;
        blocks++;
        area += hits[i].w * hits[i].h;
        lsb += count_rgb(&im, hits[i].x, hits[i].y, hits[i].w, hits[i].h, TRACE_STATE_LONG_SCOREBOARD);
        issuing += count_rgb(&im, hits[i].x, hits[i].y, hits[i].w, hits[i].h, TRACE_STATE_SELECTED);
    }
    assert_int_equal(blocks, 16);
    if (lsb * 2 < area) /* the gather waits for its loads most of the time */
        fail_msg("long_scoreboard covers %d of %d block pixels (issuing %d)", lsb, area, issuing);
    /* the legend names every state: each swatch's colour is there */
    for (int st = 0; st < TRACE_STATE_COUNT; st++)
        if (count_rgb(&im, 0, im.h - 200, im.w, 200, st) < 100)
            fail_msg("no legend swatch for %s", trace_state_name(st));
    free(im.px);
    /* the same launch untimed: no state colour in the blocks, no legend */
    trace_gather(16, 16, false, path);
    render(&path, 1, VIZ_VIEW_GPU, VIZ_AT_MIDDLE, VIZ_NONE, png, &im, hits, &nh);
    assert_int_equal(count_rgb(&im, 0, 0, im.w, im.h, TRACE_STATE_LONG_SCOREBOARD), 0);
    assert_int_equal(count_rgb(&im, 0, 0, im.w, im.h, TRACE_STATE_SLEEPING), 0);
    free(im.px);
    unlink(path);
    unlink(png);
}

static void test_viz_states_sm_view_colours_each_warp_by_its_state(void **s)
{
    (void)s;
    NEED_SDL();
    const char *path = tmp_path("sm.wst"), *png = tmp_path("sm.png");
    trace_gather(2, 16, true, path);
    VizModel *m = load_ok(path);
    uint64_t at = viz_model_end_cycle(m) / 2;
    uint32_t pos = viz_model_pos_at(m, at);
    VizImage im = {0};
    int nh;
    render(&path, 1, VIZ_VIEW_SM, at, 1, png, &im, hits, &nh);
    assert_int_equal(count_hits(hits, nh, VIZ_HIT_WARP, 0), 8);
    int lsb = 0;
    for (uint32_t w = 0; w < 8; w++) {
        VizWarpState ws;
        viz_model_warp_state(m, 1, w, pos, &ws);
        assert_true(ws.stall >= 0); /* every warp lives at the middle of the launch */
        lsb += ws.stall == TRACE_STATE_LONG_SCOREBOARD;
        const VizHit *row = find_hit(hits, nh, VIZ_HIT_WARP, w);
        assert_non_null(row);
        /* the label at the row's left is in the state's colour */
        int n = count_rgb(&im, row->x, row->y, 44, row->h, ws.stall);
        if (n < 200)
            fail_msg("warp %u (%s): %d pixels of its colour in its label", w, trace_state_name(ws.stall), n);
    }
    assert_true(lsb >= 4);
    viz_model_free(m);
    free(im.px);
    unlink(path);
    unlink(png);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
#define T(f) cmocka_unit_test(f)
        T(test_viz_states_lookup_matches_a_naive_scan),
        T(test_viz_states_gpu_view_stripes_blocks_mostly_long_scoreboard),
        T(test_viz_states_sm_view_colours_each_warp_by_its_state),
#undef T
    };
    return cmocka_run_group_tests(tests, harness_setup_sim, harness_teardown);
}
