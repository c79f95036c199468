/* test_timing_defer.c: the timing model's deferred answers (sim/timing_defer.c).
 * No answer of the L2 can be needed inside a round's slice: every arch's L2
 * answers later than a slice lasts, on every path; a deferred answer, and
 * the maxima, minima and sums made of it, come out as the model answering
 * at once computes them; an answer that would have been due inside its
 * round is caught; and every kernel of tests/kernels/ gives every timing
 * result bit for bit with answers deferred and with answers at once
 * (WARPSIM_TIMING_DEFER=0): the reference model beside the clever one. */
#include <dirent.h>

#include "harness.h"
#include "sweep_fixture.h"
#include "device_int.h"
#include "exec_int.h"
#include "timing_int.h"

static const ArchProfile *sm90(void) { return arch_find("sm_90"); }

static TimingModel *model(bool defer, DeviceTiming *out)
{
    TimingModel *tm = timing_model_new(timing_params_for(sm90()), 2, 64 * 1024, out);
    assert_non_null(tm);
    tm->defer = defer;
    tm->active_sms = 2;
    return tm;
}

/* The least an answer takes on every path that defers one: loads that hit
 * and miss L2, stores, near and far partitions, at busy and idle times. */
static void test_every_l2_answer_comes_later_than_a_slice_lasts(void **s)
{
    (void)s;
    for (int i = 0; i < arch_count(); i++) {
        const TimingParams *p = timing_params_for(arch_at(i));
        if (p->v[TP_L2_LAT] < TIMING_SLICE + 2)
            fail_msg("%s: an L2 hit takes %.0f cycles, a slice lasts %d: an SM could need an answer inside its "
                     "slice", arch_at(i)->name, p->v[TP_L2_LAT], TIMING_SLICE);
    }
    DeviceTiming out;
    TimingModel *tm = model(false, &out);
    uint64_t least = UINT64_MAX;
    for (int k = 0; k < 2000; k++) {
        uint64_t t = (uint64_t)k * 7 % 600;
        uint32_t line = (uint32_t)(k % 97) * 3;
        int op = k % 3 == 0 ? TIMING_L2_STORE : TIMING_L2_LOAD;
        uint64_t back = timing_l2_access(tm, k & 1, t, line, (uint8_t)(1u << (k % 4)), op);
        if (back - t < least)
            least = back - t;
    }
    assert_true(least >= (uint64_t)tm->p->v[TP_L2_LAT]);
    assert_true(least > TIMING_SLICE + 1);
    timing_model_free(tm);
}

/* A stand-in for the launch around a model: two SMs, no blocks. */
typedef struct {
    Exec x;
    SimSM sms[2];
} Launch;

static void launch_for(Launch *l, TimingModel *tm)
{
    memset(l, 0, sizeof *l);
    l->x.tm = tm;
    l->x.sms = l->sms;
    l->x.nsm = 2;
}

static void test_deferred_answers_and_what_is_made_of_them_are_the_immediate_ones(void **s)
{
    (void)s;
    DeviceTiming oa, ob;
    TimingModel *a = model(false, &oa), *b = model(true, &ob);
    b->sb = calloc(16, sizeof *b->sb); /* two scoreboard entries' worth (freed with the model) */
    b->sbk = calloc(16, sizeof *b->sbk);
    assert_true(b->sb && b->sbk);
    Launch l;
    launch_for(&l, b);
    enum { MAX = 96 };
    uint64_t va[MAX], vb[MAX], place[MAX], kept = 0;
    int sm_of[MAX], n = 0;
    /* SM 0 then SM 1, as a round sends them: loads through the L1 (misses,
     * then hits on a fill still on its way), stores, lines both SMs read */
    for (int sm = 0; sm < 2; sm++)
        for (int k = 0; k < 12; k++) {
            uint64_t t = 1000 + (uint64_t)k * 9;
            uint32_t line = (uint32_t)(k % 5 + (sm ? 3 : 0));
            sm_of[n] = sm;
            if (k % 4 == 3) {
                va[n] = timing_l2_access(a, sm, t, line, 0x3, TIMING_L2_STORE);
                vb[n++] = timing_defer_l2(b, sm, t, line, 0x3, TIMING_L2_STORE);
            } else {
                va[n] = timing_l1_load(a, sm, t, line, 0xf, NULL);
                vb[n++] = timing_l1_load(b, sm, t, line, 0xf, NULL);
            }
        }
    assert_true(timing_pend(vb[0]));
    /* what the scheduler makes of them: maxima and minima of two pending
     * values or of one and a known one (on either side of it), sums */
    int base = n;
    for (int k = 0; k + 1 < base && n + 3 <= MAX; k++) {
        int sm = sm_of[k + 1];
        if (sm_of[k] != sm)
            continue;
        sm_of[n] = sm;
        va[n] = va[k] > va[k + 1] ? va[k] : va[k + 1];
        vb[n++] = timing_vmax(b, sm, vb[k], vb[k + 1]);
        uint64_t c = 1150 + (uint64_t)k * 20; /* below, among and above the answers */
        sm_of[n] = sm;
        va[n] = va[k] < c ? va[k] : c;
        vb[n++] = timing_vmin(b, sm, vb[k], c);
        sm_of[n] = sm;
        va[n] = (va[k] > c ? va[k] : c) + 7;
        vb[n++] = timing_vadd_tv(b, sm, (TimingTv){timing_vmax(b, sm, c, vb[k]), 0}, 7).v;
    }
    for (int k = 0; k < n; k++)
        timing_defer_u64(b, sm_of[k], &place[k], vb[k]);
    /* the tagged maximum: the kind of the latest operand, then its reason */
    TimingTv ka = {1300, TIMING_SB_SHORT}, kb = ka;
    for (int k = 0; k < 8; k++) {
        TimingTv ea = {va[k], (uint8_t)(k & 1 ? TIMING_SB_LONG : TIMING_SB_FIXED)};
        TimingTv eb = {vb[k], ea.tag};
        ka = ea.v > ka.v ? ea : ka;
        kb = timing_vkmax(b, 0, kb, eb);
    }
    TimingTv rb = timing_vreason(b, 0, timing_vadd_tv(b, 0, kb, 4));
    timing_defer_sb(b, 0, &b->sb[0], &b->sbk[0], rb.v, TIMING_TAG_NODE);
    timing_defer_sb(b, 0, &b->sb[1], &b->sbk[1], kb.v, TIMING_TAG_NODE);
    timing_defer_add(b, 1, &kept, vb[base + 1]);
    timing_defer_add(b, 1, &kept, 5);
    const char *why;
    assert_true(timing_defer_resolve(&l.x, 1000 + TIMING_SLICE, &why));
    /* every place that held one now holds the immediate model's number */
    for (int k = 0; k < n; k++)
        if (place[k] != va[k])
            fail_msg("value %d (SM %d): %llu deferred, %llu at once", k, sm_of[k], (unsigned long long)place[k],
                     (unsigned long long)va[k]);
    assert_int_equal(kept, va[base + 1] + 5);
    assert_int_equal(b->sb[0], ka.v + 4);
    assert_int_equal(b->sbk[0], timing_sb_reason(ka.tag));
    assert_int_equal(b->sb[1], ka.v);
    assert_int_equal(b->sbk[1], ka.tag);
    assert_int_equal(oa.l2_sectors, ob.l2_sectors);
    assert_int_equal(oa.l2_hits, ob.l2_hits);
    assert_int_equal(oa.l1_hits, ob.l1_hits);
    assert_int_equal(oa.dram_read_bytes, ob.dram_read_bytes);
    assert_int_equal(oa.dram_write_bytes, ob.dram_write_bytes);
    assert_int_equal(a->end, b->end);
    timing_model_free(a);
    timing_model_free(b);
}

static void test_an_answer_due_inside_its_round_is_caught(void **s)
{
    (void)s;
    DeviceTiming o;
    TimingModel *tm = model(true, &o);
    Launch l;
    launch_for(&l, tm);
    const char *why = NULL;
    timing_defer_l2(tm, 0, 1000, 7, 0xf, TIMING_L2_LOAD);
    assert_true(timing_defer_resolve(&l.x, 1000 + TIMING_SLICE, &why)); /* a slice: fine */
    assert_null(why);
    timing_defer_l2(tm, 1, 1000, 9, 0xf, TIMING_L2_LOAD);
    /* a round longer than the L2's quickest answer: the SM could have needed it */
    assert_false(timing_defer_resolve(&l.x, 1000 + (uint64_t)tm->p->v[TP_L2_LAT], &why));
    assert_non_null(why);
    assert_non_null(strstr(why, "due inside the round"));
    timing_model_free(tm);
}

/* Each way on its own device, the same launches in the same order on
 * both: the device heap (malloc in a kernel) and the allocations evolve
 * alike. */
static void test_every_kernel_times_the_same_with_answers_deferred(void **s)
{
    (void)s;
    SimError err;
    Device *at_once = dev, *deferred = device_open_sim("sm_90", &err);
    assert_non_null(deferred);
    DIR *d = opendir(DIR_KERNELS);
    if (!d)
        fail_msg("cannot open %s (run from the repository root)", DIR_KERNELS);
    int compared = 0, files = 0;
    for (char path[512]; sweep_next_ptx(d, path);) {
        dev = at_once;
        DeviceModule *ma = load_file(path);
        dev = deferred;
        DeviceModule *mb = load_file(path);
        files++;
        for (int f = 0; f < ma->ptx->n_funcs; f++) {
            if (!ma->ptx->funcs[f].is_entry)
                continue;
            const char *entry = ma->ptx->funcs[f].name;
            DevicePtr pa[64] = {0}, pb[64] = {0};
            dev = at_once;
            alloc_args(ma, entry, pa);
            dev = deferred;
            alloc_args(mb, entry, pb);
            /* one block per SM at most, and a grid of several waves */
            static const unsigned grids[2] = {4, 300};
            for (int g = 0; g < 2; g++) {
                dev = at_once;
                Outcome now = sweep_run_switch("WARPSIM_TIMING_DEFER", false, ma, entry, pa, grids[g], true,
                                               DEVICE_SCHED_ROUNDROBIN, 0);
                dev = deferred;
                Outcome later = sweep_run_switch("WARPSIM_TIMING_DEFER", true, mb, entry, pb, grids[g], true,
                                                 DEVICE_SCHED_ROUNDROBIN, 0);
                char what[600];
                snprintf(what, sizeof what, "%s %s grid %u", path, entry, grids[g]);
                sweep_expect_same(what, &now, &later);
                compared++;
                outcome_free(&now);
                outcome_free(&later);
            }
            dev = at_once;
            free_args(ma, entry, pa);
            dev = deferred;
            free_args(mb, entry, pb);
        }
    }
    closedir(d);
    dev = at_once;
    device_close(deferred);
    print_message("%d files: %d timed launches the same with answers deferred and at once\n", files, compared);
    assert_true(files >= 20);
    assert_true(compared >= 200);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_l2_answer_comes_later_than_a_slice_lasts),
        cmocka_unit_test(test_deferred_answers_and_what_is_made_of_them_are_the_immediate_ones),
        cmocka_unit_test(test_an_answer_due_inside_its_round_is_caught),
        cmocka_unit_test_setup_teardown(test_every_kernel_times_the_same_with_answers_deferred, harness_setup_sim,
                                        harness_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
