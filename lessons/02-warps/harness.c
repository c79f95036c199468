/* harness.c: lesson 2 -- warp-level programming.  Runs the lesson's
 * kernel.ptx in the simulator: shuffle reductions, votes, segments of a
 * warp, partial warps, match and redux, the strange shuffle puzzle
 * under both divergence models, and __activemask() against
 * __ballot_sync().  Every result is shown beside the value a plain C model
 * (or, for the strange shuffle, an H100) gives. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lesson.h"

typedef struct {
    Device *dev;
    DeviceModule *mod;
    FILE *o;
    int mismatches;
} Ctx;

static SimStatus launch(Ctx *c, LessonLaunch *l, void *out[4], DeviceStats *st, DeviceFault *fault)
{
    return lesson_run32(c->dev, c->mod, l, out, st, fault);
}

static const char *verdict(Ctx *c, bool ok)
{
    if (!ok)
        c->mismatches++;
    return ok ? "" : "   <- DIFFERS";
}

/* The lanes of warp w of a block of `block` threads that exist. */
static int lanes_of(unsigned block, int w)
{
    int left = (int)block - 32 * w;
    return left < 32 ? left : 32;
}

static bool shuffle_sums(Ctx *c)
{
    FILE *o = c->o;
    int in[100], down[4], xr[100];
    for (int i = 0; i < 100; i++)
        in[i] = i;
    LessonLaunch l = {.kernel = "shuffle_sums", .grid = 2, .block = 64, .in = in, .n_in = 100, .nout = 2,
                .out_n = {4, 100}, .nscalar = 1, .scalar = {100}};
    void *out[4] = {down, xr};
    DeviceStats st;
    if (launch(c, &l, out, &st, NULL) != SIM_OK)
        return false;
    fprintf(o, "1. The shuffle reduction.  shuffle_sums<<<2, 64>>> over in[i] = i, n = 100: four warps, the\n"
               "   last holding only 4 values (lanes past n add 0).\n\n"
               "     warp   values    __shfl_down_sync   __shfl_xor_sync            expected\n"
               "                       (lane 0)           (lanes that agree)\n");
    for (int w = 0; w < 4; w++) {
        int lo = 32 * w, hi = lo + 31 < 99 ? lo + 31 : 99, want = 0, agree = 0;
        for (int i = lo; i <= hi; i++)
            want += in[i];
        for (int i = lo; i <= hi; i++)
            agree += xr[i] == want;
        int cnt = hi - lo + 1;
        char vals[16];
        snprintf(vals, sizeof vals, "%d..%d", lo, hi);
        fprintf(o, "     %4d   %-8s  %12d        %8d (%2d of %2d)    %8d%s\n", w, vals, down[w], xr[lo], agree, cnt,
                want, verdict(c, down[w] == want && agree == cnt));
    }
    fprintf(o, "\n   Five steps (offsets 16, 8, 4, 2, 1) instead of 31 additions by one thread, and no shared\n"
               "   memory: the lanes read each other's registers.  With __shfl_down_sync only lane 0 ends\n"
               "   with the total; the butterfly __shfl_xor_sync leaves it in every lane.\n\n");
    return true;
}

static bool votes(Ctx *c)
{
    FILE *o = c->o;
    int in[96];
    for (int i = 0; i < 96; i++)
        in[i] = i >= 80 ? 100 + i : (i % 3 ? i : -i); /* warp 3 all positive; else every third not */
    unsigned ballot[4];
    int any[4], all[4], count[4];
    LessonLaunch l = {.kernel = "votes", .grid = 2, .block = 48, .in = in, .n_in = 96, .nout = 4, .out_n = {4, 4, 4, 4}};
    void *out[4] = {ballot, any, all, count};
    if (launch(c, &l, out, NULL, NULL) != SIM_OK)
        return false;
    fprintf(o, "2. Votes.  votes<<<2, 48>>>: a block of 48 threads is a full warp and a partial warp of 16\n"
               "   lanes, so each lane passes the mask of the lanes that exist.  Predicate: in[i] > 0.\n\n"
               "     warp   lanes   __ballot_sync   __any_sync   __all_sync   __popc    expected\n");
    for (int w = 0; w < 4; w++) {
        int lanes = lanes_of(48, w % 2), first = (w / 2) * 48 + (w % 2) * 32;
        unsigned want = 0;
        for (int k = 0; k < lanes; k++)
            want |= (unsigned)(in[first + k] > 0) << k;
        unsigned mask = lanes == 32 ? 0xffffffffu : (1u << lanes) - 1;
        int wany = want != 0, wall = want == mask, wcount = __builtin_popcount(want);
        fprintf(o, "     %4d   %5d     0x%08x   %10d   %10d   %6d    0x%08x %d %d %d%s\n", w, lanes, ballot[w], any[w],
                all[w], count[w], want, wany, wall, wcount,
                verdict(c, ballot[w] == want && !!any[w] == wany && !!all[w] == wall && count[w] == wcount));
    }
    fprintf(o, "\n   A mask must name only lanes that exist and reach the call: the partial warps use\n"
               "   0x0000ffff, not 0xffffffff (the simulator reports a mask naming a missing lane).\n\n");
    return true;
}

static bool segments(Ctx *c)
{
    FILE *o = c->o;
    int in[30], seg[30];
    for (int i = 0; i < 30; i++)
        in[i] = i;
    LessonLaunch l = {.kernel = "segmented_sum", .grid = 1, .block = 32, .in = in, .n_in = 30, .nout = 1, .out_n = {30},
                .nscalar = 1, .scalar = {30}};
    void *out[4] = {seg};
    if (launch(c, &l, out, NULL, NULL) != SIM_OK)
        return false;
    fprintf(o, "3. Segments.  segmented_sum<<<1, 32>>>, n = 30, width 8: four independent 8-lane groups,\n"
               "   each summed and broadcast from its lane 0.\n\n"
               "     lanes    sum in every lane of the segment   expected\n");
    for (int g = 0; g < 4; g++) {
        int lo = 8 * g, hi = lo + 7 < 29 ? lo + 7 : 29, want = 0, agree = 0;
        for (int i = lo; i <= hi; i++)
            want += in[i];
        for (int i = lo; i <= hi; i++)
            agree += seg[i] == want;
        fprintf(o, "     %2d..%-2d   %6d (%d of %d lanes)                %6d%s\n", lo, hi, seg[lo], agree, hi - lo + 1,
                want, verdict(c, agree == hi - lo + 1));
    }
    fprintf(o, "\n   Lane numbers in a call with a width are relative to the segment: __shfl_sync(m, v, 0, 8)\n"
               "   reads lane 0 of *this* segment; __shfl_down_sync never crosses a segment's end.\n\n");
    return true;
}

static bool partial_warps(Ctx *c)
{
    FILE *o = c->o;
    int in[96], tree[4], redux[4];
    for (int i = 0; i < 96; i++)
        in[i] = i;
    LessonLaunch l = {.kernel = "partial_warp_sum", .grid = 2, .block = 48, .in = in, .n_in = 96, .nout = 2,
                .out_n = {4, 4}};
    void *out[4] = {tree, redux};
    if (launch(c, &l, out, NULL, NULL) != SIM_OK)
        return false;
    fprintf(o, "4. Partial warps.  partial_warp_sum<<<2, 48>>> over in[i] = i: a shuffle tree that reads only\n"
               "   lanes that exist, and __reduce_add_sync (one redux.sync instruction).\n\n"
               "     warp   lanes   shuffle tree   __reduce_add_sync   expected\n");
    for (int w = 0; w < 4; w++) {
        int lanes = lanes_of(48, w % 2), first = (w / 2) * 48 + (w % 2) * 32, want = 0;
        for (int k = 0; k < lanes; k++)
            want += in[first + k];
        fprintf(o, "     %4d   %5d   %12d   %17d   %8d%s\n", w, lanes, tree[w], redux[w], want,
                verdict(c, tree[w] == want && redux[w] == want));
    }
    fprintf(o, "\n");
    return true;
}

static bool match_hist(Ctx *c)
{
    FILE *o = c->o;
    enum { N = 64, BINS = 5 };
    unsigned key[N];
    int hist[BINS], peers[N], wmax[2];
    for (int i = 0; i < N; i++)
        key[i] = (unsigned)(i * i + 3 * i) / 7; /* a few repeated keys per warp */
    LessonLaunch l = {.kernel = "match_histogram", .grid = 1, .block = N, .in = key, .n_in = N, .nout = 3,
                      .out_n = {BINS, N, 2}, .nscalar = 2, .scalar = {N, BINS}};
    void *out[4] = {hist, peers, wmax};
    DeviceStats st;
    if (launch(c, &l, out, &st, NULL) != SIM_OK)
        return false;
    int want[BINS] = {0}, wm[2] = {-1, -1}, groups = 0;
    for (int i = 0; i < N; i++) {
        int k = (int)(key[i] % BINS);
        want[k]++;
        if (k > wm[i / 32])
            wm[i / 32] = k;
    }
    for (int w = 0; w < 2; w++) /* distinct keys per warp = atomics the leaders make */
        for (int k = 0; k < BINS; k++)
            for (int i = 32 * w; i < 32 * w + 32; i++)
                if ((int)(key[i] % BINS) == k) {
                    groups++;
                    break;
                }
    unsigned want_peers0 = 0;
    for (int i = 0; i < 32; i++)
        want_peers0 |= (unsigned)(key[i] % BINS == key[0] % BINS) << i;
    bool ok = (unsigned)peers[0] == want_peers0 && wmax[0] == wm[0] && wmax[1] == wm[1] &&
              st.atomics == (uint64_t)groups;
    for (int k = 0; k < BINS; k++)
        ok &= hist[k] == want[k];
    fprintf(o, "5. Match and redux.  match_histogram<<<1, 64>>>: a histogram of 64 keys into %d bins.\n\n"
               "     bin        ", BINS);
    for (int k = 0; k < BINS; k++)
        fprintf(o, "%5d", k);
    fprintf(o, "\n     count      ");
    for (int k = 0; k < BINS; k++)
        fprintf(o, "%5d", hist[k]);
    fprintf(o, "\n     expected   ");
    for (int k = 0; k < BINS; k++)
        fprintf(o, "%5d", want[k]);
    fprintf(o, "\n\n   __match_any_sync gave lane 0 the peers 0x%08x (expected 0x%08x); the leader of each\n"
               "   group adds the group's size: %llu atomics for %d keys (expected %d, one per distinct\n"
               "   key per warp).  __reduce_max_sync: largest bin %d and %d (expected %d and %d).%s\n\n",
            (unsigned)peers[0], want_peers0, (unsigned long long)st.atomics, N, groups, wmax[0], wmax[1], wm[0],
            wm[1], verdict(c, ok));
    return true;
}

/* What the strange shuffle gives on Volta and later (an H100 printed this):
 * shfl1 lanes 0..14 read lane l + 1, shfl2 lanes 15..29 read (l + 2) % 30,
 * each source supplying the val of its own branch; lanes 30, 31 keep 188. */
static int strange_expected(int lane)
{
    if (lane >= 30)
        return 188;
    int src = lane < 15 ? lane + 1 : (lane + 2) % 30;
    return src < 15 ? src : 2 * src;
}

static bool strange_shuffle(Ctx *c, const char *dir)
{
    FILE *o = c->o;
    int got[32];
    LessonLaunch l = {.kernel = "strange_shuffle_volta", .grid = 1, .block = 32, .nout = 1, .out_n = {32}};
    void *out[4] = {got};
    DeviceFault f;
    memset(&f, 0, sizeof f);
    if (launch(c, &l, out, NULL, &f) != SIM_OK) {
        fprintf(stderr, "warpsim lesson: strange_shuffle_volta faulted under --divergence its: %s\n", f.msg);
        c->mismatches++;
        return true;
    }
    fprintf(o, "6. The strange shuffle.  Lanes 0..14 call __shfl_sync at shfl1, lanes 15..29 at\n"
               "   shfl2, one mask 0x3fffffff for both.\n\n"
               "   --divergence its (Volta and later, the default):\n"
               "     lanes      simulator                     expected (an H100)\n");
    bool ok = true;
    for (int r = 0; r < 4; r++) {
        char a[64] = "", b[64] = "";
        for (int k = 8 * r; k < 8 * r + 8; k++) {
            snprintf(a + strlen(a), sizeof a - strlen(a), "%4d", got[k]);
            snprintf(b + strlen(b), sizeof b - strlen(b), "%4d", strange_expected(k));
            ok &= got[k] == strange_expected(k);
        }
        fprintf(o, "     %2d..%-2d  %s   %s\n", 8 * r, 8 * r + 7, a, b);
    }
    fprintf(o, "%s\n", ok ? "" : "     <- DIFFERS");
    if (!ok)
        c->mismatches++;
    fprintf(o, "   Lane 14 reads lane 15, whose val is the one it supplied at shfl2: 15 * 2 = 30.  Lanes 28\n"
               "   and 29 read lanes 0 and 1, which supplied their val at shfl1.  Both calls wait until all\n"
               "   30 lanes of the mask have arrived -- at two different instructions -- and then exchange.\n\n");

    l.cfg.divergence = DEVICE_DIV_STACK;
    memset(&f, 0, sizeof f);
    SimStatus st = launch(c, &l, out, NULL, &f);
    fprintf(o, "   --divergence stack (before Volta: a branch runs to its end, the warp reconverges after):\n");
    if (st == SIM_ERR_FAULT) {
        fprintf(o, "     fault: %s -- %s\n", f.kind, f.msg);
        if (f.line > 0)
            fprintf(o, "     at %s:%d, block (%u,%u,%u) thread (%u,%u,%u)\n", f.file, f.line, f.block.x, f.block.y,
                    f.block.z, f.thread.x, f.thread.y, f.thread.z);
    } else if (st == SIM_OK) {
        fprintf(o, "     no fault reported   <- DIFFERS: lanes 0..14 wait at shfl1 for lanes 15..29, which the\n"
                   "     stack runs only after lanes 0..14 have left the branch: they can never meet\n");
        c->mismatches++;
    } else {
        return false;
    }
    fprintf(o, "\n   A pre-Volta warp has one program counter: it runs lanes 0..14 through their branch, then\n"
               "   lanes 15..29 through theirs.  Lanes 0..14 sit at shfl1 while 15..29 are not running, so the\n"
               "   mask names lanes that are not converged: undefined on such a GPU, a fault here.\n"
               "   Try: warpsim run %s/kernel.ptx --kernel strange_shuffle_volta --grid 1 --block 32 \\\n"
               "            --arg buf:i32[32]=fill:0 --divergence stack\n\n",
            dir);
    return true;
}

static bool activemask(Ctx *c)
{
    FILE *o = c->o;
    int in[32], sum[32];
    unsigned act[32], bal[32];
    for (int i = 0; i < 32; i++)
        in[i] = i;
    LessonLaunch l = {.kernel = "activemask_vs_ballot", .grid = 1, .block = 32, .in = in, .n_in = 32, .nout = 3,
                .out_n = {32, 32, 32}};
    void *out[4] = {act, bal, sum};
    if (launch(c, &l, out, NULL, NULL) != SIM_OK)
        return false;
    /* even lanes take one branch, odd lanes the other (in[i] = i) */
    int even = 0, odd = 0;
    for (int i = 0; i < 32; i++)
        *(i % 2 ? &odd : &even) += in[i];
    fprintf(o, "7. __activemask() is no synchronisation.  activemask_vs_ballot<<<1, 32>>>, in[i] = i: even\n"
               "   lanes take one branch, odd lanes the other; each calls __activemask() and then\n"
               "   __ballot_sync(0xffffffff, ...) (even lanes vote lane < 16, odd lanes lane >= 16).\n\n"
               "     lanes   __activemask()   __ballot_sync   __reduce_add_sync(active, v)   expected\n");
    for (int p = 0; p < 2; p++) {
        unsigned want_a = p ? 0xaaaaaaaau : 0x55555555u;
        int want_s = p ? odd : even;
        int agree = 0;
        for (int i = p; i < 32; i += 2)
            agree += act[i] == want_a && bal[i] == 0xaaaa5555u && sum[i] == want_s;
        fprintf(o, "     %-5s      0x%08x      0x%08x   %28d   0x%08x 0x%08x %d (%d of 16 lanes)%s\n",
                p ? "odd" : "even", act[p], bal[p], sum[p], want_a, 0xaaaa5555u, want_s, agree, verdict(c, agree == 16));
    }
    fprintf(o, "\n   __activemask() waited for no one: it names only the lanes executing that line with it,\n"
               "   16 of 32 here, so the sum with it as the mask covers half the warp.  __ballot_sync names\n"
               "   all 32 lanes, waits until every one of them has arrived (at either ballot) and sees\n"
               "   them all: 0xaaaa5555, as an H100 gives.  Which lanes run together is the scheduler's\n"
               "   choice -- the programming model even allows one lane at a time -- so a mask must come\n"
               "   from the program (a constant, a ballot), never from __activemask().\n\n");
    return true;
}

int lesson02_run(const LessonEnv *env)
{
    Ctx c = {.o = env->out};
    if (!lesson_open(env, &c.dev, &c.mod))
        return 2;
    fprintf(c.o, "Lesson 2: warp-level programming        (simulator, %s)\n"
                 "kernels: %s/kernel.cu\n\n", device_arch(c.dev), env->dir);
    bool ran = shuffle_sums(&c) && votes(&c) && segments(&c) && partial_warps(&c) && match_hist(&c) &&
               strange_shuffle(&c, env->dir) && activemask(&c);
    if (ran) {
        fprintf(c.o, "Try it yourself:\n"
                     "   warpsim run %s/kernel.ptx --kernel shuffle_sums --grid 2 --block 64 \\\n"
                     "       --arg buf:i32[100]=iota --arg buf:i32[4]=fill:0 --arg buf:i32[100]=fill:0 --arg i32:100\n"
                     "Exercise: %s/exercise/README.md -- write warp_max, then grade it:\n"
                     "   warpsim grade 2 %s/exercise/warp_max.cu\n",
                env->dir, env->dir, env->dir);
        if (c.mismatches)
            fprintf(c.o, "\n%d result%s differ from the expected values (marked DIFFERS above).\n", c.mismatches,
                    c.mismatches == 1 ? "" : "s");
    }
    device_close(c.dev);
    return !ran ? 2 : c.mismatches ? 1 : 0;
}
