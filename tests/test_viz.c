/* test_viz.c: the trace visualizer (viz/viz.h, viz/viz_model.h).  The model
 * is run beside a naive replay of a synthetic trace with overlapping blocks;
 * warp states, atomics queues and bank words are checked on real traces of
 * lesson 1 (written through the host API); every view is rendered headless
 * and the PNG is read back to check the pixels that must be there; the
 * 100,000-block trace stays small and fast; bad traces and options are
 * errors; and the real window is driven under Xvfb and photographed.  Run
 * from the repository root ($WARPSIM names build/warpsim). */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

#include "harness.h"
#include "png.h"
#include "trace.h"
#include "viz_fixture.h"
#include "viz_xvfb.h"

/* Drawing tests need the SDL build; the trace-model tests run in any build. */
#ifdef WARPSIM_HAVE_SDL
#define NEED_SDL() ((void)0)
#else
#define NEED_SDL() skip()
#endif

static VizHit hits[MAX_HITS];

/* ---- the model beside a naive replay ------------------------------------ */

/* A trace of nb blocks on 4 SMs with overlapping lives, written directly:
 * up to 6 resident per SM, retired out of dispatch order. */
static void write_overlapping(const char *path, int nb)
{
    TraceLaunch l = {.level = TRACE_LEVEL_BLOCKS, .arch = 1, .kernel = 0, .grid = {(uint32_t)nb, 1, 1},
                     .block = {64, 1, 1}, .regs = TRACE_NONE, .sm_count = 4, .warp_size = 32};
    const char *strings[] = {"k", "sm_90"};
    SimError err;
    TraceWriter *t = trace_writer_open(path, &l, strings, 2, &err);
    assert_non_null(t);
    /* each cycle: maybe retire one resident block (a pseudo-random one), then
     * dispatch the next block to the SM with fewest resident if under 6 */
    uint64_t res[4][8];
    int nres[4] = {0}, next = 0;
    uint32_t seed = 12345;
    for (uint64_t cyc = 0; next < nb || nres[0] + nres[1] + nres[2] + nres[3]; cyc++) {
        seed = seed * 1103515245u + 12345u;
        int sm = (int)(seed >> 16) % 4;
        if (nres[sm] && (seed >> 8) % 3 == 0) {
            int k = (int)((seed >> 4) % (uint32_t)nres[sm]);
            TraceEvent e = {.type = TRACE_EV_BLOCK_RETIRE, .cycle = cyc, .block = res[sm][k]};
            e.u.blk.sm = (uint32_t)sm;
            trace_write_event(t, &e);
            res[sm][k] = res[sm][--nres[sm]];
        }
        for (int rep = 0; rep < 2 && next < nb; rep++) {
            int best = 0;
            for (int s = 1; s < 4; s++)
                best = nres[s] < nres[best] ? s : best;
            if (nres[best] >= 6)
                break;
            TraceEvent e = {.type = TRACE_EV_BLOCK_DISPATCH, .cycle = cyc, .block = (uint64_t)next};
            e.u.blk.sm = (uint32_t)best;
            trace_write_event(t, &e);
            res[best][nres[best]++] = (uint64_t)next++;
        }
    }
    assert_int_equal(trace_writer_close(t, 0, &err), SIM_OK);
}

static void test_viz_model_resident_and_occupancy_match_a_replay(void **s)
{
    (void)s;
    const char *path = tmp_path("overlap.wst");
    write_overlapping(path, 300);
    VizModel *m = load_ok(path);
    assert_int_equal(viz_model_nspans(m), 300);
    assert_int_equal(viz_model_max_resident(m), 6);
    /* replay the events one by one: the resident set of every SM after each */
    SimError err;
    TraceReader *r = trace_open_file(path, &err);
    assert_non_null(r);
    uint64_t nev = trace_nevents(r);
    uint64_t live[4][64];
    int nlive[4] = {0};
    uint32_t got[64];
    TraceEvent e;
    for (uint32_t pos = 0; pos <= nev; pos++) {
        for (uint32_t sm = 0; sm < 4; sm++) {
            uint32_t n = viz_model_resident(m, sm, pos, got, 64);
            assert_int_equal(n, nlive[sm]);
            for (uint32_t i = 0; i < n; i++) {
                const VizSpan *sp = viz_model_span(m, got[i]);
                bool found = false;
                for (int k = 0; k < nlive[sm]; k++)
                    found |= live[sm][k] == sp->block;
                assert_true(found);
                assert_int_equal(sp->sm, sm);
                assert_true(sp->slot < 6);
                for (uint32_t j = 0; j < i; j++) /* ordered by slot, so slots differ */
                    assert_true(viz_model_span(m, got[j])->slot < sp->slot);
            }
        }
        if (pos == nev || !trace_next(r, &e))
            break;
        uint32_t sm = e.u.blk.sm;
        if (e.type == TRACE_EV_BLOCK_DISPATCH) {
            live[sm][nlive[sm]++] = e.block;
        } else {
            for (int k = 0; k < nlive[sm]; k++)
                if (live[sm][k] == e.block)
                    live[sm][k--] = live[sm][--nlive[sm]];
        }
    }
    /* occupancy per column: average and peak against a cycle-by-cycle count */
    uint64_t end = viz_model_end_cycle(m);
    for (uint32_t sm = 0; sm < 4; sm++) {
        for (uint64_t c0 = 0; c0 + 10 < end; c0 += end / 7 + 1) {
            uint64_t c1 = c0 + (end - c0) / 2 + 7;
            double avg[13];
            uint32_t peak[13];
            viz_model_occupancy(m, sm, c0, c1, avg, peak, 13);
            for (int col = 0; col < 13; col++) {
                uint64_t cs = c0 + (uint64_t)((double)(c1 - c0) * col / 13);
                uint64_t ce = col == 12 ? c1 : c0 + (uint64_t)((double)(c1 - c0) * (col + 1) / 13);
                double sum = 0;
                uint32_t best = viz_model_resident(m, sm, viz_model_pos_at(m, cs ? cs - 1 : 0) * (cs > 0), got, 0);
                for (uint64_t x = cs; x < ce; x++)
                    sum += viz_model_resident(m, sm, viz_model_pos_at(m, x), got, 0);
                /* the peak also sees states between two events of one cycle */
                for (uint32_t p = viz_model_pos_at(m, cs ? cs - 1 : 0) * (cs > 0); p <= viz_model_pos_at(m, ce - 1); p++) {
                    uint32_t k = viz_model_resident(m, sm, p, got, 0);
                    best = k > best ? k : best;
                }
                if (ce > cs)
                    assert_true(avg[col] > sum / (double)(ce - cs) - 1e-9 && avg[col] < sum / (double)(ce - cs) + 1e-9);
                assert_int_equal(peak[col], best);
            }
        }
    }
    trace_close(r);
    viz_model_free(m);
    unlink(path);
}

static void test_viz_model_warp_states_follow_a_barrier(void **s)
{
    (void)s;
    const char *path = tmp_path("staged.wst");
    trace_lesson1("staged_sum", 4, 1000, TRACE_LEVEL_MEMORY, path);
    VizModel *m = load_ok(path);
    /* the first barrier arrival released at a later cycle, and its release */
    uint64_t nev = viz_model_nevents(m), arrive = nev, release = nev;
    SimError err;
    TraceReader *r = trace_open_file(path, &err);
    TraceEvent e, a = {0};
    for (uint64_t i = 0; trace_next(r, &e); i++) {
        if (e.type == TRACE_EV_BAR_ARRIVE && arrive == nev) {
            arrive = i;
            a = e;
        } else if (e.type == TRACE_EV_BAR_RELEASE && arrive < nev && e.block == a.block && e.cycle > a.cycle) {
            release = i;
            break;
        }
    }
    trace_close(r);
    assert_true(release < nev);
    VizWarpState w;
    uint32_t wp = a.u.arrive.warp;
    viz_model_warp_state(m, a.block, wp, (uint32_t)arrive, &w);
    assert_int_not_equal(w.state, VIZ_WARP_BARRIER);
    assert_true(w.has_issue);
    viz_model_warp_state(m, a.block, wp, (uint32_t)arrive + 1, &w);
    assert_int_equal(w.state, VIZ_WARP_BARRIER);
    assert_int_equal(w.bar_mask, 0xffffffffu);
    assert_int_equal(w.threads, 32);
    assert_int_equal(viz_model_barrier_waiting(m, a.block, 0, (uint32_t)arrive + 1), a.u.arrive.arrived);
    viz_model_warp_state(m, a.block, wp, (uint32_t)release + 1, &w);
    assert_int_not_equal(w.state, VIZ_WARP_BARRIER);
    assert_int_equal(viz_model_barrier_waiting(m, a.block, 0, (uint32_t)release + 1), 0);
    /* before its block is dispatched, and after the launch */
    const VizSpan *sp = viz_model_find_block(m, 3);
    assert_non_null(sp);
    viz_model_warp_state(m, 3, 0, sp->dpos, &w);
    assert_int_equal(w.state, VIZ_WARP_NOT_STARTED);
    viz_model_warp_state(m, 3, 7, (uint32_t)nev, &w);
    assert_int_equal(w.state, VIZ_WARP_EXITED);
    /* the source line of an issue is read from the .cu file the trace names */
    char line[200];
    viz_model_warp_state(m, a.block, wp, (uint32_t)arrive + 1, &w);
    assert_true(viz_model_source_line(m, w.file, w.line, line, sizeof line));
    assert_non_null(strstr(line, "__syncthreads"));
    viz_model_free(m);
    unlink(path);
}

static void test_viz_model_atomics_queue_in_order(void **s)
{
    (void)s;
    const char *path = tmp_path("atomic.wst");
    trace_lesson1("atomic_sum", 1, 256, TRACE_LEVEL_MEMORY, path); /* one SM: file order is update order */
    VizModel *m = load_ok(path);
    assert_int_equal(viz_model_natomic_addrs(m), 1);
    const VizAtomicAddr *a = viz_model_atomic_addr(m, 0);
    assert_int_equal(a->n, 256);
    for (uint32_t k = 0; k < a->n; k++) {
        const VizAtomic *u = viz_model_atomic(m, a->first + k);
        assert_int_equal(u->old, k); /* one after another: k ones added before it */
        assert_int_equal(u->val, k + 1);
        if (k)
            assert_true(u->order > viz_model_atomic(m, a->first + k - 1)->order);
        assert_int_equal(viz_model_atomics_done(m, a, u->pos), k);
        assert_int_equal(viz_model_atomics_done(m, a, u->pos + 1), k + 1);
    }
    viz_model_free(m);
    unlink(path);
}

/* ---- every view, rendered headless, read back ----------------------------- */

static void test_viz_gpu_view_colours_the_tile_of_a_resident_block(void **s)
{
    (void)s;
    NEED_SDL();
    const char *path = tmp_path("gpu.wst"), *png = tmp_path("gpu.png");
    trace_lesson1("staged_sum", 4, 1000, TRACE_LEVEL_BLOCKS, path);
    VizModel *m = load_ok(path);
    /* wherever and whenever block 2 ran: show its first cycle */
    const VizSpan *sp = viz_model_find_block(m, 2);
    assert_non_null(sp);
    uint32_t sm = sp->sm;
    uint64_t at = viz_model_event_cycle(m, sp->dpos);
    uint32_t nsm = viz_model_launch(m)->sm_count;
    viz_model_free(m);
    VizImage im = {0};
    int nh;
    render(&path, 1, VIZ_VIEW_GPU, at, VIZ_NONE, png, &im, hits, &nh);
    assert_int_equal(count_hits(hits, nh, VIZ_HIT_SM, 0), nsm);
    const VizHit *tile = find_hit(hits, nh, VIZ_HIT_SM, sm), *blk = find_hit(hits, nh, VIZ_HIT_BLOCK, 2);
    assert_non_null(tile);
    assert_non_null(blk);
    assert_true(tile->aux >= 1);
    assert_int_equal(blk->aux, sm);
    /* the block is drawn inside its SM's tile, in a saturated colour */
    assert_true(blk->x >= tile->x && blk->x + blk->w <= tile->x + tile->w);
    assert_true(blk->y >= tile->y && blk->y + blk->h <= tile->y + tile->h);
    VizRGB c = viz_image_at(&im, blk->x + 2, blk->y + 2);
    int hi = c.r > c.g ? (c.r > c.b ? c.r : c.b) : (c.g > c.b ? c.g : c.b);
    int lo = c.r < c.g ? (c.r < c.b ? c.r : c.b) : (c.g < c.b ? c.g : c.b);
    assert_true(hi - lo > 60);
    /* an SM with no block at that cycle stays white */
    const VizHit *idle = find_hit(hits, nh, VIZ_HIT_SM, (sm + 7) % nsm);
    assert_non_null(idle);
    assert_int_equal(idle->aux, 0);
    assert_true(viz_rgb_eq(viz_image_at(&im, idle->x + idle->w / 2, idle->y + idle->h / 3), 255, 255, 255));
    /* the legend and the time axis are drawn */
    assert_non_null(find_hit(hits, nh, VIZ_HIT_AXIS, 0));
    assert_true(viz_image_count(&im, 0, 0, 1280, 800, 216, 38, 38) > 20); /* the cursor */
    free(im.px);
    unlink(path);
    unlink(png);
}

static void test_viz_sm_view_shows_lanes_waiting_at_the_barrier(void **s)
{
    (void)s;
    NEED_SDL();
    const char *path = tmp_path("sm.wst"), *png = tmp_path("sm.png");
    trace_lesson1("staged_sum", 2, 512, TRACE_LEVEL_INSTRUCTIONS, path);
    /* the first arrival that waits: the cycle to show */
    SimError err;
    TraceReader *r = trace_open_file(path, &err);
    TraceEvent e;
    uint64_t at = 0, block = 0;
    uint32_t warp = 0;
    while (trace_next(r, &e))
        if (e.type == TRACE_EV_BAR_ARRIVE && e.u.arrive.arrived < 256) {
            at = e.cycle;
            block = e.block;
            warp = e.u.arrive.warp;
            break;
        }
    trace_close(r);
    VizImage im = {0};
    int nh;
    render(&path, 1, VIZ_VIEW_SM, at, block, png, &im, hits, &nh);
    assert_int_equal(count_hits(hits, nh, VIZ_HIT_WARP, 0), 8);
    const VizHit *row = find_hit(hits, nh, VIZ_HIT_WARP, warp);
    assert_non_null(row);
    assert_int_equal(row->aux, VIZ_WARP_BARRIER);
    /* 32 orange lane cells in that row, none in a warp not yet started */
    int orange = viz_image_count(&im, row->x, row->y, row->w, row->h, 240, 146, 24);
    assert_true(orange > 32 * 20);
    const VizHit *last = find_hit(hits, nh, VIZ_HIT_WARP, 7);
    assert_int_equal(viz_image_count(&im, last->x, last->y, last->w, last->h, 240, 146, 24), 0);
    free(im.px);
    unlink(path);
    unlink(png);
}

static const char conflict_ptx[] =
    ".version 8.0\n.target sm_90\n.address_size 64\n"
    ".visible .entry conflict()\n{\n.reg .b32 %r<4>;\n.shared .align 4 .b8 sm[4096];\n"
    "mov.u32 %r1, %tid.x;\nshl.b32 %r2, %r1, 7;\nmov.u32 %r3, sm;\nadd.s32 %r2, %r2, %r3;\n"
    "st.shared.u32 [%r2], %r1;\nshl.b32 %r2, %r1, 2;\nadd.s32 %r2, %r2, %r3;\nst.shared.u32 [%r2], %r1;\n"
    "ret;\n}\n";

static void test_viz_memory_view_stacks_a_32_way_conflict_in_bank_0(void **s)
{
    (void)s;
    NEED_SDL();
    const char *path = tmp_path("bank.wst"), *png = tmp_path("bank.png");
    DeviceModule *mod = load_text("conflict.ptx", conflict_ptx);
    DeviceLaunch cfg = {.grid = {1, 1, 1}, .block = {32, 1, 1}, .trace_path = path, .trace_level = TRACE_LEVEL_MEMORY};
    SimError err;
    assert_int_equal(device_launch(mod, "conflict", &cfg, NULL, NULL, NULL, &err), SIM_OK);
    /* the cycle of the first shared store: lane l writes word 32 l */
    TraceReader *r = trace_open_file(path, &err);
    TraceEvent e;
    uint64_t first = 0, second = 0;
    int k = 0;
    while (trace_next(r, &e))
        if (e.type == TRACE_EV_MEM && e.u.mem.space == TRACE_SPACE_SHARED)
            *(k++ ? &second : &first) = e.cycle;
    trace_close(r);
    assert_int_equal(k, 2);
    VizImage im = {0};
    int nh;
    render(&path, 1, VIZ_VIEW_MEMORY, first, VIZ_NONE, png, &im, hits, &nh);
    assert_int_equal(count_hits(hits, nh, VIZ_HIT_BANK, 0), 32);
    const VizHit *b0 = find_hit(hits, nh, VIZ_HIT_BANK, 0);
    assert_int_equal(b0->aux, 32);
    for (uint64_t b = 1; b < 32; b++)
        assert_int_equal(find_hit(hits, nh, VIZ_HIT_BANK, b)->aux, 0);
    assert_true(viz_image_count(&im, b0->x, b0->y, b0->w, b0->h, 210, 30, 30) > b0->w * b0->h / 2);
    free(im.px);
    /* the second store, lane l to word l: one word in every bank */
    render(&path, 1, VIZ_VIEW_MEMORY, second, VIZ_NONE, png, &im, hits, &nh);
    for (uint64_t b = 0; b < 32; b++) {
        const VizHit *h = find_hit(hits, nh, VIZ_HIT_BANK, b);
        assert_int_equal(h->aux, 1);
        assert_int_equal(viz_image_count(&im, h->x, h->y, h->w, h->h, 210, 30, 30), 0);
        assert_true(viz_image_count(&im, h->x, h->y, h->w, h->h, 232, 134, 34) > 0); /* a store */
    }
    free(im.px);
    unlink(path);
    unlink(png);
}

static void test_viz_memory_view_counts_sectors_of_coalesced_loads(void **s)
{
    (void)s;
    NEED_SDL();
    const char *path = tmp_path("sectors.wst"), *png = tmp_path("sectors.png");
    trace_lesson1("staged_sum", 1, 256, TRACE_LEVEL_MEMORY, path);
    VizImage im = {0};
    int nh;
    render(&path, 1, VIZ_VIEW_MEMORY, UINT64_MAX - 1, 0, png, &im, hits, &nh);
    /* warps 1-7 last loaded 32 consecutive ints: 128 bytes, 4 sectors;
     * warp 0's last global access is its one atomicAdd: 1 sector */
    assert_int_equal(count_hits(hits, nh, VIZ_HIT_SECTOR, 0), 8);
    assert_int_equal(find_hit(hits, nh, VIZ_HIT_SECTOR, 0)->aux, 1);
    for (uint64_t w = 1; w < 8; w++) {
        const VizHit *h = find_hit(hits, nh, VIZ_HIT_SECTOR, w);
        assert_int_equal(h->aux, 4);
        assert_true(viz_image_count(&im, h->x, h->y, h->w, h->h, 58, 118, 220) > 4 * 10);
    }
    free(im.px);
    unlink(path);
    unlink(png);
}

static void test_viz_atomics_view_has_one_entry_per_update(void **s)
{
    (void)s;
    NEED_SDL();
    const char *path = tmp_path("queue.wst"), *png = tmp_path("queue.png");
    trace_lesson1("staged_sum", 4, 1000, TRACE_LEVEL_MEMORY, path);
    VizModel *m = load_ok(path);
    assert_int_equal(viz_model_natomic_addrs(m), 1);
    uint32_t n = viz_model_atomic_addr(m, 0)->n;
    assert_int_equal(n, 4); /* one atomicAdd per block */
    viz_model_free(m);
    VizImage im = {0};
    int nh;
    render(&path, 1, VIZ_VIEW_ATOMICS, UINT64_MAX - 1, VIZ_NONE, png, &im, hits, &nh);
    assert_int_equal(count_hits(hits, nh, VIZ_HIT_QUEUE, 0), n);
    assert_int_equal(count_hits(hits, nh, VIZ_HIT_ADDR, 0), 1);
    for (uint64_t k = 0; k < n; k++) {
        const VizHit *h = find_hit(hits, nh, VIZ_HIT_QUEUE, k);
        assert_int_equal(h->aux, 1);
        /* applied: green, the last one yellow */
        VizRGB want = k + 1 == n ? (VizRGB){250, 196, 36} : (VizRGB){76, 168, 98};
        assert_true(viz_image_count(&im, h->x, h->y, h->w, h->h, want.r, want.g, want.b) > h->w * h->h / 2);
    }
    free(im.px);
    /* at cycle 0 none is applied yet */
    render(&path, 1, VIZ_VIEW_ATOMICS, 0, VIZ_NONE, png, &im, hits, &nh);
    assert_int_equal(count_hits(hits, nh, VIZ_HIT_QUEUE, 0), n);
    for (uint64_t k = 0; k < n; k++)
        assert_int_equal(find_hit(hits, nh, VIZ_HIT_QUEUE, k)->aux, 0);
    free(im.px);
    unlink(path);
    unlink(png);
}

/* A tile kernel's trace: copy a 37 x 45 array through 16 x 32 tiles (the
 * right and bottom tiles partial), or a 64-element tile atomic on one slot. */
static void trace_tiles(const char *kernel, const char *path)
{
    DeviceModule *m = load_file("tests/kernels/tiles.ptx");
    SimError err;
    const char *entry = device_find_kernel(m, kernel, &err);
    assert_non_null(entry);
    DeviceLaunch cfg = {.grid = {1, 1, 1}, .block = {128, 1, 1}, .trace_path = path, .trace_level = TRACE_LEVEL_BLOCKS,
                        .atomic_order = DEVICE_ATOMIC_REVERSE};
    static float in[37 * 45];
    int rows = 37, cols = 45;
    DevicePtr din = up(in, sizeof in), dout = up(NULL, sizeof in);
    void *copy_args[] = {&din, &dout, &rows, &cols}, *slot_args[] = {&dout};
    if (device_launch(m, entry, &cfg, strcmp(kernel, "slot_sum_i32") ? copy_args : slot_args, NULL, NULL, &err))
        fail_msg("launch: %s", err.msg);
}

static void test_viz_tile_view_draws_the_tile_space_padding_and_drops(void **s)
{
    (void)s;
    const char *path = tmp_path("tiles.wst"), *png = tmp_path("tiles.png");
    trace_tiles("copy_partial_2d", path);
    VizModel *m = load_ok(path);
    assert_int_equal(viz_model_ntiles(m), 12); /* 6 tiles, each loaded and stored */
    const VizTile *t2 = viz_model_tile(m, 2);
    assert_int_equal(t2->op, TRACE_TILE_LOAD);
    assert_int_equal(t2->special, 16 * 32 - 16 * 13); /* tile (0, 1): columns 45..63 padded */
    assert_int_equal(viz_model_tiles_done(m, t2->pos), 2);
    assert_int_equal(viz_model_tiles_done(m, t2->pos + 1), 3);
    viz_model_free(m);
    VizImage im;
    int nh;
    render(&path, 1, VIZ_VIEW_TILE, UINT64_MAX - 1, VIZ_NONE, png, &im, hits, &nh);
    /* two arrays (read above, written below) of 3 x 2 tiles, each touched once */
    assert_int_equal(count_hits(hits, nh, VIZ_HIT_TILE, 0), 12);
    assert_int_equal(count_hits(hits, nh, VIZ_HIT_TILEOP, 0), 12);
    const VizHit *src = NULL, *dst = NULL;
    for (int i = 0; i < nh; i++)
        if (hits[i].kind == VIZ_HIT_TILE && hits[i].id == 1) { /* tile (0, 1) */
            assert_int_equal(hits[i].aux, 1);
            *(src ? &dst : &src) = &hits[i];
        }
    assert_non_null(src);
    assert_non_null(dst);
    assert_true(src->y < dst->y);
    /* the right part of tile (0, 1) lies past the array's edge: the source's
     * padding is drawn in blue, the destination's dropped stores in orange */
    int rx = src->x + src->w * 13 / 32 + 2, rw = src->w - (rx - src->x);
    assert_true(viz_image_count(&im, rx, src->y, rw, src->h, 58, 118, 220) > 20);
    assert_true(viz_image_count(&im, rx, dst->y, rw, dst->h, 232, 134, 34) > 20);
    assert_int_equal(viz_image_count(&im, src->x, src->y, src->w * 13 / 32 - 2, src->h, 58, 118, 220), 0);
    for (uint64_t k = 0; k < 12; k++)
        assert_int_equal(find_hit(hits, nh, VIZ_HIT_TILEOP, k)->aux, 1);
    free(im.px);
    /* before the first tile operation: nothing applied yet */
    render(&path, 1, VIZ_VIEW_TILE, 0, VIZ_NONE, png, &im, hits, &nh);
    for (uint64_t k = 0; k < 12; k++) {
        const VizHit *h = find_hit(hits, nh, VIZ_HIT_TILEOP, k);
        if (h)
            assert_int_equal(h->aux, 0);
    }
    assert_int_equal(viz_image_count(&im, rx, src->y, rw, src->h, 58, 118, 220), 0);
    free(im.px);
    unlink(path);
    unlink(png);
}

static void test_viz_tile_view_replays_a_tile_atomics_order(void **s)
{
    (void)s;
    const char *path = tmp_path("tatom.wst"), *png = tmp_path("tatom.png");
    trace_tiles("slot_sum_i32", path);
    VizImage im;
    int nh;
    render(&path, 1, VIZ_VIEW_TILE, UINT64_MAX - 1, VIZ_NONE, png, &im, hits, &nh);
    assert_int_equal(count_hits(hits, nh, VIZ_HIT_TILEELEM, 0), 64);
    VizModel *m = load_ok(path);
    const VizTile *t = viz_model_tile(m, 0);
    assert_int_equal(t->op, TRACE_TILE_ATOM);
    /* reverse order: the first update applied is lane 31's */
    assert_int_equal(viz_model_tile_elem(m, t->first)->thread, 31);
    for (uint64_t k = 0; k < 64; k++) {
        const VizHit *h = find_hit(hits, nh, VIZ_HIT_TILEELEM, k);
        assert_non_null(h);
        assert_int_equal(h->aux, 1);
        if (k) /* listed down the columns in order */
            assert_true(h->y > find_hit(hits, nh, VIZ_HIT_TILEELEM, k - 1)->y ||
                        h->x > find_hit(hits, nh, VIZ_HIT_TILEELEM, k - 1)->x);
    }
    viz_model_free(m);
    free(im.px);
    /* a trace without tiles says so */
    const char *plain = tmp_path("plain.wst");
    trace_lesson1("atomic_sum", 1, 32, TRACE_LEVEL_BLOCKS, plain);
    render(&plain, 1, VIZ_VIEW_TILE, 0, VIZ_NONE, png, &im, hits, &nh);
    assert_int_equal(count_hits(hits, nh, VIZ_HIT_TILE, 0), 0);
    free(im.px);
    unlink(plain);
    unlink(path);
    unlink(png);
}

static void test_viz_two_traces_side_by_side(void **s)
{
    (void)s;
    NEED_SDL();
    const char *a = tmp_path("a.wst"), *b = tmp_path("b.wst"), *png = tmp_path("ab.png");
    trace_lesson1("staged_sum", 4, 1000, TRACE_LEVEL_WARPS, a);
    trace_lesson1("atomic_sum", 4, 1000, TRACE_LEVEL_MEMORY, b);
    const char *paths[] = {a, b};
    for (int v = 0; v < VIZ_VIEW_COUNT; v++) {
        VizImage im;
        int nh;
        render(paths, 2, v, 100, VIZ_NONE, png, &im, hits, &nh);
        if (v == VIZ_VIEW_GPU) {
            assert_int_equal(count_hits(hits, nh, VIZ_HIT_SM, 0), 132);
            assert_int_equal(count_hits(hits, nh, VIZ_HIT_SM, 1), 132);
            /* the left panel's tiles are left of the right panel's */
            const VizHit *l = NULL, *r = NULL;
            for (int i = 0; i < nh; i++)
                if (hits[i].kind == VIZ_HIT_SM && hits[i].id == 131)
                    *(hits[i].trace ? &r : &l) = &hits[i];
            assert_true(l->x + l->w <= r->x);
        }
        if (v == VIZ_VIEW_SM)
            assert_int_equal(count_hits(hits, nh, VIZ_HIT_WARP, 1), 8);
        if (v == VIZ_VIEW_ATOMICS)
            assert_int_equal(count_hits(hits, nh, VIZ_HIT_ADDR, 1), 1);
        assert_int_equal(count_hits(hits, nh, VIZ_HIT_AXIS, 0), 1);
        free(im.px);
    }
    unlink(a);
    unlink(b);
    unlink(png);
}

/* ---- size and speed ------------------------------------------------------- */

static const char nop_ptx[] = ".version 8.0\n.target sm_90\n.address_size 64\n"
                              ".visible .entry nop()\n{\nret;\n}\n";

/* The README states these numbers: keep them in step. */
static void test_viz_100000_blocks_load_small_and_fast(void **s)
{
    (void)s;
    NEED_SDL();
    const char *path = tmp_path("big.wst"), *png = tmp_path("big.png");
    DeviceModule *mod = load_text("nop.ptx", nop_ptx);
    DeviceLaunch cfg = {.grid = {100000, 1, 1}, .block = {256, 1, 1}, .trace_path = path,
                        .trace_level = TRACE_LEVEL_BLOCKS};
    SimError err;
    assert_int_equal(device_launch(mod, "nop", &cfg, NULL, NULL, NULL, &err), SIM_OK);
    double t0 = now_s();
    VizModel *m = load_ok(path);
    double load = now_s() - t0;
    assert_int_equal(viz_model_nspans(m), 100000);
    size_t bytes = viz_model_memory(m), file = viz_model_file_size(m);
    print_message("100,000 blocks at level blocks: trace %zu bytes, model %zu bytes, loaded in %.3f s\n", file,
                  bytes, load);
    assert_true(bytes < 12u << 20);  /* about 100 bytes a block */
    assert_true(load < 5.0);
    /* every SM's resident blocks, halfway */
    uint32_t pos = viz_model_pos_at(m, viz_model_end_cycle(m) / 2), one, total = 0;
    t0 = now_s();
    for (uint32_t sm = 0; sm < viz_model_launch(m)->sm_count; sm++)
        total += viz_model_resident(m, sm, pos, &one, 1);
    assert_int_equal(total, viz_model_dispatched(m, pos) - viz_model_retired(m, pos));
    viz_model_free(m);
    VizImage im = {0};
    int nh;
    t0 = now_s();
    render(&path, 1, VIZ_VIEW_GPU, VIZ_AT_MIDDLE, VIZ_NONE, png, &im, hits, &nh);
    double frame = now_s() - t0;
    print_message("a GPU-view frame of it (load + draw + PNG): %.3f s\n", frame);
    assert_true(frame < 10.0);
    free(im.px);
    unlink(path);
    unlink(png);
}

/* ---- bad input -------------------------------------------------------- */

static void test_viz_rejects_missing_corrupt_and_truncated_traces(void **s)
{
    (void)s;
    NEED_SDL();
    const char *path = tmp_path("bad.wst"), *png = tmp_path("bad.png");
    VizOptions o;
    viz_options_init(&o);
    o.paths[0] = tmp_path("missing.wst");
    o.npaths = 1;
    SimError err;
    assert_int_equal(viz_render_png(&o, png, NULL, 0, NULL, &err), SIM_ERR_IO);
    assert_non_null(strstr(err.file, "missing.wst"));
    trace_lesson1("staged_sum", 1, 256, TRACE_LEVEL_WARPS, path);
    FILE *f = fopen(path, "r+b");
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    /* one flipped byte in the middle: the CRC says so */
    fseek(f, len / 2, SEEK_SET);
    int c = fgetc(f);
    fseek(f, len / 2, SEEK_SET);
    fputc(c ^ 0x40, f);
    fclose(f);
    o.paths[0] = path;
    assert_int_equal(viz_render_png(&o, png, NULL, 0, NULL, &err), SIM_ERR_PARSE);
    assert_non_null(strstr(err.msg, "byte"));
    assert_int_equal(access(png, F_OK), -1); /* nothing written */
    /* truncated */
    assert_int_equal(truncate(path, len - 3), 0);
    assert_int_equal(viz_render_png(&o, png, NULL, 0, NULL, &err), SIM_ERR_PARSE);
    assert_non_null(strstr(err.msg, "byte"));
    /* bad options */
    trace_lesson1("staged_sum", 1, 256, TRACE_LEVEL_WARPS, path);
    o.width = 100;
    assert_int_equal(viz_render_png(&o, png, NULL, 0, NULL, &err), SIM_ERR_USAGE);
    o.width = 0;
    o.npaths = 3;
    assert_int_equal(viz_render_png(&o, png, NULL, 0, NULL, &err), SIM_ERR_USAGE);
    char msg[300];
    const char *none[] = {tmp_path("nothing.wst")};
    assert_int_equal(viz_window(none, 1, 0, VIZ_VIEW_GPU, msg, sizeof msg), 2);
    assert_non_null(strstr(msg, "nothing.wst"));
    unlink(path);
}

/* ---- the command ---------------------------------------------------------- */

static const char *warpsim(void)
{
    const char *w = getenv("WARPSIM");
    return w ? w : "build/warpsim";
}

/* Run `ENV warpsim viz ARGS` through the shell; stdout+stderr into out. */
static int run_viz(char *out, size_t cap, const char *env, const char *args)
{
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "%s %s viz %s 2>&1", env, warpsim(), args);
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    size_t n = fread(out, 1, cap - 1, p);
    out[n] = 0;
    int st = pclose(p);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static void test_viz_command_png_and_errors(void **s)
{
    (void)s;
    NEED_SDL();
    static char out[1 << 16];
    char args[1024];
    const char *path = tmp_path("cli.wst"), *png = tmp_path("cli.png");
    trace_lesson1("staged_sum", 2, 512, TRACE_LEVEL_MEMORY, path);
    assert_int_equal(run_viz(out, sizeof out, "", "--help"), 0);
    assert_non_null(strstr(out, "example:"));
    snprintf(args, sizeof args, "%s --view sm --at 40 --size 900x600 --png %s", path, png);
    assert_int_equal(run_viz(out, sizeof out, "", args), 0);
    VizImage im = {0};
    assert_true(viz_png_read(png, &im));
    assert_int_equal(im.w, 900);
    assert_int_equal(im.h, 600);
    free(im.px);
    /* bad options and bad traces: exit 2 and a message naming the problem */
    snprintf(args, sizeof args, "%s --view banks --png %s", path, png);
    assert_int_equal(run_viz(out, sizeof out, "", args), 2);
    assert_non_null(strstr(out, "--view 'banks'"));
    snprintf(args, sizeof args, "%s --size 10x10 --png %s", path, png);
    assert_int_equal(run_viz(out, sizeof out, "", args), 2);
    snprintf(args, sizeof args, "%s %s %s --png %s", path, path, path, png);
    assert_int_equal(run_viz(out, sizeof out, "", args), 2);
    assert_int_equal(run_viz(out, sizeof out, "", ""), 2);
    assert_non_null(strstr(out, "missing FILE"));
    snprintf(args, sizeof args, "%s --png %s", tmp_path("nope.wst"), png);
    assert_int_equal(run_viz(out, sizeof out, "", args), 2);
    assert_non_null(strstr(out, "nope.wst"));
    FILE *f = fopen(path, "r+b");
    assert_non_null(f);
    fseek(f, 40, SEEK_SET);
    fputc(0xff, f); /* the kernel string index */
    fclose(f);
    snprintf(args, sizeof args, "%s --png %s", path, png);
    assert_int_equal(run_viz(out, sizeof out, "", args), 2);
    assert_non_null(strstr(out, "byte"));
    /* no display: say so, and point at --png */
    trace_lesson1("staged_sum", 2, 512, TRACE_LEVEL_BLOCKS, path);
    assert_int_equal(run_viz(out, sizeof out, "env -u DISPLAY -u WAYLAND_DISPLAY SDL_VIDEODRIVER=x11", path), 2);
    assert_non_null(strstr(out, "no display"));
    assert_non_null(strstr(out, "--png"));
    /* and with no video driver chosen either: SDL would fall back to its
     * invisible offscreen driver and the window would wait forever */
    assert_int_equal(run_viz(out, sizeof out, "env -u DISPLAY -u WAYLAND_DISPLAY -u SDL_VIDEODRIVER", path), 2);
    assert_non_null(strstr(out, "no display (set DISPLAY, or use --png OUT.png)"));
    /* what an option names must be in the trace (4 blocks of lesson 1's
     * staged_sum here, 132 SMs): no silent clamping */
    snprintf(args, sizeof args, "%s --block 77 --png %s", path, png);
    assert_int_equal(run_viz(out, sizeof out, "", args), 2);
    assert_non_null(strstr(out, "--block 77: the grid has 2 blocks (0..1)"));
    snprintf(args, sizeof args, "%s --sm 500 --png %s", path, png);
    assert_int_equal(run_viz(out, sizeof out, "", args), 2);
    assert_non_null(strstr(out, "--sm 500: the trace's GPU has 132 SMs (0..131)"));
    snprintf(args, sizeof args, "%s --at 99999 --png %s", path, png);
    assert_int_equal(run_viz(out, sizeof out, "", args), 2);
    assert_non_null(strstr(out, "--at 99999: the launch ends at cycle"));
    snprintf(args, sizeof args, "%s --at end --png %s", path, png);
    assert_int_equal(run_viz(out, sizeof out, "", args), 0);
    snprintf(args, sizeof args, "%s --script 'key banana'", path);
    assert_int_equal(run_viz(out, sizeof out, "", args), 2);
    assert_non_null(strstr(out, "key banana"));
    unlink(path);
    unlink(png);
}

/* ---- the real window, under Xvfb ------------------------------------------ */

static void test_viz_window_under_xvfb_steps_scrubs_zooms_and_switches_view(void **s)
{
    (void)s;
    NEED_SDL();
    if (!xvfb_have("Xvfb") || !xvfb_have("xwd")) {
        printf("skip: Xvfb or xwd is not installed (apt-get install xvfb x11-apps); the window was not tested\n");
        skip();
    }
    const char *path = tmp_path("win.wst"), *dump = tmp_path("win.xwd");
    trace_lesson1("staged_sum", 4, 1000, TRACE_LEVEL_MEMORY, path);
    int display = -1;
    pid_t x = xvfb_start(1440, 900, &display);
    if (x < 0)
        fail_msg("Xvfb did not start");
    /* the window: step three events, click the middle of the time axis (at
     * y 749 of 800: see viz_frame_axis), zoom with the wheel, switch to the
     * SM view with a key; `state` prints what each did */
    char *viz[] = {(char *)warpsim(), "viz", (char *)path, "--size", "1280x800", "--script",
                   "wait 200; state; key right; key right; key right; state; click 665 749; state; "
                   "wheel 3 665 749; state; key 2; state; wait 300; print shot; wait 3000; key q",
                   NULL};
    int out = -1;
    /* In `make asan` the window's process is not leak-checked: SDL's X11
     * driver dlopens libdbus, which keeps blocks to the end and is unloaded
     * before LeakSanitizer looks, so no suppression can name it.  The code
     * the window shares with --png (model, views, canvas) is checked by the
     * tests above, in this process. */
    setenv("LSAN_OPTIONS", "detect_leaks=0", 1);
    pid_t w = xvfb_spawn(viz, display, &out, true);
    char buf[4096] = "";
    size_t len = 0;
    bool up = w > 0 && xvfb_read_until(out, buf, sizeof buf, &len, "shot", 30.0);
    char *xwd[] = {"xwd", "-root", "-silent", "-out", (char *)dump, NULL};
    int shot = up ? xvfb_wait(xvfb_spawn(xwd, display, NULL, false), 20.0) : -1;
    int rc = w > 0 ? xvfb_wait(w, 30.0) : -1;
    if (out >= 0)
        close(out);
    xvfb_stop(x);
    if (!up)
        fail_msg("the window did not come up under Xvfb; it printed: %s", buf);
    assert_int_equal(shot, 0);
    assert_int_equal(rc, 0); /* `key q` quit it */
    /* what the keys and the mouse did, from the `state` lines */
    unsigned long long cyc[5], t0[5], t1[5];
    char view[5][16];
    const char *p = buf;
    for (int i = 0; i < 5; i++) {
        p = strstr(p, "state cycle=");
        if (!p || sscanf(p, "state cycle=%llu view=%15s sm=%*d block=%*d warp=%*d window=%llu-%llu", &cyc[i], view[i],
                         &t0[i], &t1[i]) != 4)
            fail_msg("state line %d missing in: %s", i + 1, buf);
        p++;
    }
    VizModel *m = load_ok(path);
    unsigned long long end = viz_model_end_cycle(m);
    uint64_t third = viz_model_pos_cycle(m, viz_model_pos_at(m, 0) + 3); /* three events on */
    viz_model_free(m);
    assert_int_equal(cyc[0], 0);
    assert_int_equal(cyc[1], third);                             /* right arrow x3 */
    assert_true(cyc[2] > end * 45 / 100 && cyc[2] < end * 55 / 100); /* the click */
    assert_true(t0[3] > 0 && t1[3] < end && t1[3] - t0[3] < end * 6 / 10); /* zoomed in */
    assert_true(t0[3] <= cyc[3] && cyc[3] <= t1[3]);
    assert_string_equal(view[3], "gpu");
    assert_string_equal(view[4], "sm");                          /* key 2 */
    VizImage im = {0};
    if (!viz_xwd_read(dump, &im))
        fail_msg("cannot read the screenshot %s", dump);
    assert_int_equal(im.w, 1440);
    assert_int_equal(im.h, 900);
    /* keep a PNG of it for people to look at */
    SimError err;
    const char *png = "/tmp/warpsim_viz_xvfb.png";
    if (viz_png_write(png, im.px, im.w, im.h, im.w * 4, &err) == SIM_OK)
        print_message("the Xvfb screenshot: %s\n", png);
    /* not blank, the window is there (its title bar), the root around it,
     * and the keys took it to the SM view (green active lanes) */
    assert_true(viz_image_colours(&im, 400) > 40);
    assert_true(viz_image_count(&im, 0, 0, im.w, im.h, 36, 40, 52) > 1000 * 30);
    assert_true(viz_image_count(&im, 0, 0, im.w, im.h, 46, 160, 67) > 32 * 100);
    assert_true(viz_image_count(&im, 0, 0, im.w, 40, 0, 0, 0) > 0 ||
                viz_image_count(&im, 0, 0, 60, im.h, 0, 0, 0) > 0);
    free(im.px);
    unlink(dump);
    unlink(path);
}

/* ---- odd traces --------------------------------------------------------- */

/* Every trace of the reader's fuzz corpus that the reader accepts when its
 * CRC is not checked -- odd but well-formed: retires without dispatches,
 * blocks dispatched twice, barriers never released -- is given a right
 * CRC and drawn in every view without trouble. */
static void test_viz_draws_every_trace_of_the_fuzz_corpus(void **s)
{
    (void)s;
    NEED_SDL();
    const char *dir = "tests/corpus/trace", *path = tmp_path("corpus.wst"), *png = tmp_path("corpus.png");
    DIR *dp = opendir(dir);
    if (!dp)
        fail_msg("cannot open %s (run from the repository root)", dir);
    int drawn = 0;
    struct dirent *de;
    while ((de = readdir(dp))) {
        if (de->d_name[0] == '.')
            continue;
        char in[512];
        snprintf(in, sizeof in, "%s/%s", dir, de->d_name);
        FILE *f = fopen(in, "rb");
        assert_non_null(f);
        static uint8_t d[1 << 20];
        size_t n = fread(d, 1, sizeof d, f);
        fclose(f);
        SimError err;
        TraceReader *r = trace_open_mem(in, d, n, TRACE_READ_NO_CRC, &err);
        if (!r)
            continue;
        trace_close(r);
        uint32_t crc = trace_crc32(0, d, n - 4);
        for (int i = 0; i < 4; i++)
            d[n - 4 + (size_t)i] = (uint8_t)(crc >> (8 * i));
        f = fopen(path, "wb");
        assert_non_null(f);
        assert_int_equal(fwrite(d, 1, n, f), n);
        fclose(f);
        for (int v = 0; v < VIZ_VIEW_COUNT; v++) {
            VizOptions o;
            viz_options_init(&o);
            o.paths[0] = path;
            o.npaths = 1;
            o.view = v;
            o.at_cycle = VIZ_AT_MIDDLE;
            o.width = 640;
            o.height = 480;
            if (viz_render_png(&o, png, NULL, 0, NULL, &err) != SIM_OK)
                fail_msg("%s, %s view: %s", in, viz_view_name(v), err.msg);
        }
        drawn++;
    }
    closedir(dp);
    print_message("%d traces of the corpus drawn in every view\n", drawn);
    assert_true(drawn >= 4);
    unlink(path);
    unlink(png);
}

#ifndef WARPSIM_HAVE_SDL
/* A warpsim built without SDL2 says which packages bring the visualizer. */
static void test_viz_without_sdl_names_the_packages(void **s)
{
    (void)s;
    static char out[4096];
    const char *path = tmp_path("absent.wst");
    trace_lesson1("staged_sum", 2, 512, TRACE_LEVEL_BLOCKS, path);
    char args[1024];
    snprintf(args, sizeof args, "%s --png %s", path, tmp_path("absent.png"));
    assert_int_equal(run_viz(out, sizeof out, "", args), 2);
    assert_non_null(strstr(out, "built without SDL2; install libsdl2-dev libsdl2-ttf-dev"));
    unlink(path);
}
#endif

int main(void)
{
    const struct CMUnitTest tests[] = {
#define T(f) cmocka_unit_test(f)
        T(test_viz_model_resident_and_occupancy_match_a_replay),
        T(test_viz_model_warp_states_follow_a_barrier),
        T(test_viz_model_atomics_queue_in_order),
        T(test_viz_gpu_view_colours_the_tile_of_a_resident_block),
        T(test_viz_sm_view_shows_lanes_waiting_at_the_barrier),
        T(test_viz_memory_view_stacks_a_32_way_conflict_in_bank_0),
        T(test_viz_memory_view_counts_sectors_of_coalesced_loads),
        T(test_viz_atomics_view_has_one_entry_per_update),
        T(test_viz_tile_view_draws_the_tile_space_padding_and_drops),
        T(test_viz_tile_view_replays_a_tile_atomics_order),
        T(test_viz_two_traces_side_by_side),
        T(test_viz_100000_blocks_load_small_and_fast),
        T(test_viz_rejects_missing_corrupt_and_truncated_traces),
        T(test_viz_command_png_and_errors),
        T(test_viz_draws_every_trace_of_the_fuzz_corpus),
        T(test_viz_window_under_xvfb_steps_scrubs_zooms_and_switches_view),
#ifndef WARPSIM_HAVE_SDL
        T(test_viz_without_sdl_names_the_packages),
#endif
#undef T
    };
    return cmocka_run_group_tests(tests, harness_setup_sim, harness_teardown);
}
