/* test_step_tile.c: `warpsim step` on tile kernels (lessons/include/
 * tile.cuh, lesson 13): `next tile` runs from one tile operation to the next,
 * each stop at one says in words what it will do (the array, its tile, the
 * padded or dropped elements), and inspect.h's view_tile_mark gives the
 * stepper what the marker says.  Run from the repository root. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "device.h"
#include "inspect.h"
#include "source.h"
#include "step_fixture.h"
#include "trace.h"

#define L13 "lessons/13-tiles/kernel.ptx"
#define SAXPY L13 " --kernel saxpy_tile --grid 4 --block 128 --arg buf:f32[1000]=rand:1 " \
    "--arg buf:f32[1000]=rand:2 --arg f32:1.5 --arg i32:1000"
#define ROWS L13 " --kernel row_stats --grid 4 --block 128 --arg buf:f32[4000]=rand:4 --arg buf:f32[4]=fill:0 " \
    "--arg buf:f32[4]=fill:0 --arg buf:f32[4]=fill:0 --arg i32:4 --arg i32:1000"
#define HIST L13 " --kernel histogram --grid 4 --block 128 --arg buf:i32[1000]=iota --arg buf:i32[1000]=fill:0 " \
    "--arg i32:1000 --arg i32:1000"

/* The text from the n-th (0-based) "(warpsim) " prompt on. */
static const char *after_prompt(int n)
{
    const char *p = out;
    for (int i = 0; p && i <= n; i++)
        if ((p = strstr(p, "(warpsim) ")))
            p += 10;
    return p;
}

static void test_next_tile_stops_at_each_tile_operation_in_order(void **s)
{
    (void)s;
    assert_int_equal(step(SAXPY, "next tile\nnext tile\nnext tile\nnext tile\n"), 0);
    const char *a = after_prompt(0), *b = after_prompt(1), *c = after_prompt(2), *d = after_prompt(3);
    assert_non_null(d);
    /* y = a * x + y: load x (arg0), load y (arg1), store y: all of line 32 */
    const char *l1 = strstr(a, "tile::load of a 256 f32 tile: tile 0 of arg0[1000], elements 0..255; all inside");
    const char *l2 = strstr(b, "tile::load of a 256 f32 tile: tile 0 of arg1[1000], elements 0..255; all inside");
    const char *st = strstr(c, "tile::store of a 256 f32 tile: tile 0 of arg1[1000], elements 0..255; all inside");
    assert_true(l1 && l1 < b);
    assert_true(l2 && l2 < c);
    assert_true(st && st < d);
    assert_non_null(strstr(a, "kernel.cu:32  //@ tile.load"));
    assert_non_null(strstr(c, "kernel.cu:32  //@ tile.store"));
    /* after the last one the warp runs to its end */
    assert_non_null(strstr(d, "block 0 warp 0 has exited"));
    assert_int_equal(count("\n        tile::"), 3); /* one description a stop */
}

static void test_next_tile_shows_the_partial_tile_padded_and_dropped(void **s)
{
    (void)s;
    /* block 3's tile is elements 768..1023 of 1000: 24 past the end */
    assert_int_equal(step(SAXPY, "focus block 3 warp 0\nnext tile\nnext tile 2\n"), 0);
    assert_non_null(strstr(out, "tile::load of a 256 f32 tile: tile 3 of arg0[1000], elements 768..1023; "
                                "24 outside the array take the pad (zero)"));
    /* `next tile 2` passes the second load and stops at the store */
    assert_null(strstr(out, "tile 3 of arg1[1000], elements 768..1023; 24 outside the array take"));
    assert_non_null(strstr(out, "tile::store of a 256 f32 tile: tile 3 of arg1[1000], elements 768..1023; "
                                "24 outside the array are dropped"));
}

static void test_next_tile_names_pads_reductions_and_atomics(void **s)
{
    (void)s;
    assert_int_equal(step(ROWS, "next tile\nnext tile\nnext tile\nnext tile\n"), 0);
    /* the 1x1024 row tile of a 4 x 1000 array: 24 columns padded */
    assert_non_null(strstr(out, "tile::load of a 1x1024 f32 tile: tile (0, 0) of arg0[4 x 1000], rows 0, "
                                "columns 0..1023; 24 outside the array take the pad (-inf)"));
    assert_non_null(strstr(out, "tile::sum of a 1x1024 f32 tile: one value, the same in every thread"));
    assert_non_null(strstr(out, "tile::reduce_max of a 1x1024 f32 tile"));
    assert_int_equal(step(HIST, "next tile 2\n"), 0);
    assert_non_null(strstr(out, "tile::atomic_add on 256 s32 elements of arg1[1000], relaxed, device scope: "
                                "each element one atomic update, their order unspecified"));
}

static void test_next_tile_without_tiles_and_bad_counts(void **s)
{
    (void)s;
    /* a SIMT kernel: no tile operation, the focus warp runs to its end */
    assert_int_equal(step(L13 " --kernel saxpy_simt --grid 4 --block 256 --arg buf:f32[1000]=rand:1 "
                              "--arg buf:f32[1000]=rand:2 --arg f32:1.5 --arg i32:1000",
                          "next tile\n"),
                     0);
    assert_non_null(strstr(out, "block 0 warp 0 has exited"));
    assert_int_equal(count("\n        tile::"), 0);
    assert_int_equal(step(SAXPY, "next tile 0\nnext tile x\nnext tile 1 2\n"), 2);
    assert_int_equal(count("expected a count from 1 to 10^9"), 2);
    assert_non_null(strstr(out, "takes at most one count"));
    /* no --block: the kernel's __launch_bounds__(tile::kThreads) gives 128 */
    assert_int_equal(step(L13 " --kernel saxpy_tile --grid 4 --arg buf:f32[1000]=rand:1 --arg buf:f32[1000]=rand:2 "
                              "--arg f32:1.5 --arg i32:1000",
                          "quit\n"),
                     0);
    assert_non_null(strstr(out, "saxpy_tile<<<(4,1,1), (128,1,1), 0>>>"));
    assert_int_equal(step(L13 " --kernel saxpy_simt --grid 4 --arg buf:f32[1000]=rand:1 --arg buf:f32[1000]=rand:2 "
                              "--arg f32:1.5 --arg i32:1000",
                          "quit\n"),
                     2);
    assert_non_null(strstr(out, "declares no .reqntid or .maxntid (no __launch_bounds__): give --block"));
    assert_int_equal(step(SAXPY, "help next\n"), 0);
    assert_non_null(strstr(out, "next tile"));
}

/* ---- view_tile_mark, through the library ------------------------------- */

typedef struct {
    int begins, inside;          /* block 3 warp 0's markers */
    uint32_t special[4], tn[4], cols[4];
    uint8_t op[4];
} Marks;

static int on_issue(void *user, const SimView *v, uint64_t block, int warp)
{
    Marks *mk = user;
    int32_t pc;
    uint32_t m;
    if (block != 3 || warp != 0 || !view_next(v, block, warp, &pc, &m))
        return SIM_VIEW_CONTINUE;
    bool begins = true;
    TraceEvent ev;
    if (!view_tile_mark(v, block, warp, 0, pc, &begins, &ev))
        return SIM_VIEW_CONTINUE;
    if (!begins) {
        mk->inside++;
        return SIM_VIEW_CONTINUE;
    }
    int k = mk->begins++;
    if (k < 4) {
        mk->op[k] = ev.u.tile.op;
        mk->special[k] = ev.u.tile.special;
        mk->tn[k] = ev.u.tile.tn;
        mk->cols[k] = ev.u.tile.cols;
    }
    assert_false(view_tile_mark(v, block, warp, 32, pc, &begins, &ev)); /* no such lane */
    assert_false(view_tile_mark(v, 99, warp, 0, pc, &begins, &ev));     /* not resident */
    return SIM_VIEW_CONTINUE;
}

static void test_view_tile_mark_decodes_the_markers(void **s)
{
    (void)s;
    SimError err;
    Device *d = device_open_sim("sm_90", &err);
    assert_non_null(d);
    size_t len;
    char msg[256];
    char *ptx = source_read_file(L13, &len, msg, sizeof msg);
    assert_non_null(ptx);
    DeviceModule *m;
    assert_int_equal(device_load_ptx(d, L13, ptx, len, &m, &err), SIM_OK);
    DevicePtr x, y;
    assert_int_equal(device_malloc(d, 1000 * 4, &x, &err), SIM_OK);
    assert_int_equal(device_malloc(d, 1000 * 4, &y, &err), SIM_OK);
    float a = 1.5f;
    int n = 1000;
    void *args[] = {&x, &y, &a, &n};
    Marks mk = {0};
    DeviceLaunch cfg = {.grid = {4, 1, 1}, .block = {128, 1, 1}, .on_issue = on_issue, .on_issue_user = &mk};
    assert_int_equal(device_launch(m, "saxpy_tile", &cfg, args, NULL, NULL, &err), SIM_OK);
    assert_int_equal(mk.begins, 3);
    assert_int_equal(mk.inside, 0);
    uint8_t want[3] = {TRACE_TILE_LOAD, TRACE_TILE_LOAD, TRACE_TILE_STORE};
    for (int k = 0; k < 3; k++) {
        assert_int_equal(mk.op[k], want[k]);
        assert_int_equal(mk.special[k], 24);
        assert_int_equal(mk.tn[k], 256);
        assert_int_equal(mk.cols[k], 1000);
    }
    free(ptx);
    device_close(d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_next_tile_stops_at_each_tile_operation_in_order),
        cmocka_unit_test(test_next_tile_shows_the_partial_tile_padded_and_dropped),
        cmocka_unit_test(test_next_tile_names_pads_reductions_and_atomics),
        cmocka_unit_test(test_next_tile_without_tiles_and_bad_counts),
        cmocka_unit_test(test_view_tile_mark_decodes_the_markers),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
