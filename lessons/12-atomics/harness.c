/* harness.c: lesson 12 -- all the atomics.  Runs the lesson's kernel.ptx in
 * the simulator under many seeds of the schedule and the atomic order: the
 * bitwise and min/max atomics (one result in every order), a float max from
 * an atomicCAS loop (one result, a varying amount of work), an atomic whose
 * result is used against one whose result is not, cuda::atomic_ref's three
 * scopes, and relaxed against release/acquire -- showing each kernel's PTX
 * beside what it computed, and a C reference beside every result. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "argspec.h"
#include "lesson.h"
#include "source.h"

#define N 1000
#define BLOCK 256
#define GRID ((N + BLOCK - 1) / BLOCK)
#define SEEDS 20

typedef struct {
    Device *dev;
    DeviceModule *mod;
    FILE *o;
    const char *ptx;   /* the lesson's kernel.ptx, to quote */
    int mismatches;
} Ctx;

static const char *verdict(Ctx *c, bool ok)
{
    if (!ok)
        c->mismatches++;
    return ok ? "" : "   <- DIFFERS";
}

/* One launch over nbuf 32-bit buffers (host[k], count[k] elements, uploaded
 * and read back in place) then nscalar int scalars.  seed < 0: the default
 * order; else a random schedule and atomic order from that seed.  With
 * races, *findings gets the race checker's count. */
static bool launch(Ctx *c, const char *kernel, unsigned grid, unsigned block, int nbuf, void *host[],
                   const int count[], int nscalar, int scalar[], int seed, DeviceStats *st, int *findings)
{
    DevicePtr p[4];
    void *args[6];
    int made = 0;
    bool ok = false;
    for (; made < nbuf; made++) {
        if (!lesson_upload(c->dev, host[made], (size_t)count[made] * 4, &p[made]))
            goto done;
        args[made] = &p[made];
    }
    for (int k = 0; k < nscalar; k++)
        args[nbuf + k] = &scalar[k];
    DeviceLaunch cfg = {.grid = {grid, 1, 1}, .block = {block, 1, 1}};
    if (seed >= 0) {
        cfg.schedule = DEVICE_SCHED_RANDOM;
        cfg.atomic_order = DEVICE_ATOMIC_RANDOM;
        cfg.seed = (uint64_t)seed;
    }
    if (findings)
        cfg.checks = DEVICE_CHECK_RACES;
    DeviceFault fault;
    if (lesson_launch_cfg(c->mod, kernel, &cfg, args, st, &fault) != SIM_OK) {
        fprintf(stderr, "warpsim lesson: %s faulted: %s\n", kernel, fault.msg);
        goto done;
    }
    if (findings)
        *findings = device_race_count(c->dev);
    ok = true;
    for (int k = 0; k < nbuf; k++)
        ok &= lesson_download(c->dev, host[k], p[k], (size_t)count[k] * 4);
done:
    for (int k = 0; k < made; k++)
        device_free(c->dev, p[k], NULL);
    return ok;
}

/* The first line of kernel `name`'s body in the PTX that contains `what`,
 * trimmed, into buf ("(not found)" when none). */
static const char *ptx_line(const Ctx *c, const char *name, const char *what, char *buf, size_t cap)
{
    snprintf(buf, cap, "(not found)");
    char head[96];
    snprintf(head, sizeof head, ".entry %s(", name);
    const char *s = c->ptx ? strstr(c->ptx, head) : NULL;
    if (!s)
        return buf;
    const char *end = strstr(s + 1, ".entry ");
    const char *hit = strstr(s, what);
    if (!hit || (end && hit > end))
        return buf;
    const char *a = hit, *b = hit;
    while (a > s && a[-1] != '\n')
        a--;
    while (*b && *b != '\n')
        b++;
    while (a < b && (*a == ' ' || *a == '\t'))
        a++;
    size_t k = 0;
    for (; a < b && k + 1 < cap; a++) {
        char ch = *a == '\t' ? ' ' : *a;
        if (ch == ' ' && k > 0 && buf[k - 1] == ' ')
            continue; /* one space where nvcc aligns with tabs */
        buf[k++] = ch;
    }
    buf[k] = 0;
    return buf;
}

/* How many distinct values among v[0..n). */
static int distinct(const int *v, int n)
{
    int d = 0;
    for (int i = 0; i < n; i++) {
        int j = 0;
        while (j < i && v[j] != v[i])
            j++;
        d += j == i;
    }
    return d;
}

static bool bit_ops(Ctx *c, const int *in)
{
    static const char *const op[5] = {"atomicAnd", "atomicOr", "atomicXor", "atomicMax", "atomicMin"};
    static const char *const inst[5] = {"atom.global.and", "atom.global.or", "atom.global.xor", "atom.global.max",
                                        "atom.global.min"};
    static const int start[5] = {-1, 0, 0, (int)0x80000000, 0x7fffffff};
    int want[5];
    memcpy(want, start, sizeof want);
    for (int i = 0; i < N; i++) {
        want[0] &= in[i];
        want[1] |= in[i];
        want[2] ^= in[i];
        want[3] = in[i] > want[3] ? in[i] : want[3];
        want[4] = in[i] < want[4] ? in[i] : want[4];
    }
    int got[SEEDS][5];
    for (int s = 0; s < SEEDS; s++) {
        int inc[N];
        memcpy(inc, in, sizeof inc);
        memcpy(got[s], start, sizeof start);
        void *host[2] = {inc, got[s]};
        int count[2] = {N, 5}, n = N;
        if (!launch(c, "bit_ops", GRID, BLOCK, 2, host, count, 1, &n, s, NULL, NULL))
            return false;
    }
    fprintf(c->o, "1. Five read-modify-writes.  %d random ints (rand:1); every thread applies each to its word.\n"
                  "   Question: which of the five results depend on the order of the %d updates?\n\n"
                  "     function     PTX                                   result (seed 0)   C reference   "
                  "distinct in %d seeds\n",
            N, N, SEEDS);
    char buf[128];
    for (int k = 0; k < 5; k++) {
        int col[SEEDS];
        for (int s = 0; s < SEEDS; s++)
            col[s] = got[s][k];
        int d = distinct(col, SEEDS);
        fprintf(c->o, "     %-11s  %-37s %15d %13d %6d%s\n", op[k], ptx_line(c, "bit_ops", inst[k], buf, sizeof buf),
                got[0][k], want[k], d, verdict(c, d == 1 && got[0][k] == want[k]));
    }
    fprintf(c->o, "\n   Answer: none.  and, or, xor, max and min are commutative and associative, like an\n"
                  "   integer add: any order gives the same word.  (After 1000 random words, and is 0 and\n"
                  "   or is -1, all bits: not much to see -- the point is that the order cannot show.)\n\n");
    return true;
}

static bool float_max(Ctx *c, const float *in)
{
    float want = -2;
    for (int i = 0; i < N; i++)
        want = in[i] > want ? in[i] : want;
    int tries[SEEDS];
    float got[SEEDS];
    DeviceStats st0;
    for (int s = 0; s < SEEDS; s++) {
        float inc[N];
        memcpy(inc, in, sizeof inc);
        got[s] = -2;
        tries[s] = 0;
        void *host[3] = {inc, &got[s], &tries[s]};
        int count[3] = {N, 1, 1}, n = N;
        DeviceStats st;
        if (!launch(c, "float_max_cas", GRID, BLOCK, 3, host, count, 1, &n, s, s ? &st : &st0, NULL))
            return false;
    }
    bool same = true;
    int lo = tries[0], hi = tries[0];
    for (int s = 0; s < SEEDS; s++) {
        same &= got[s] == want;
        lo = tries[s] < lo ? tries[s] : lo;
        hi = tries[s] > hi ? tries[s] : hi;
    }
    char buf[128];
    fprintf(c->o, "2. A float max from atomicCAS.  There is no atomicMax for float: read the word, and swap\n"
                  "   the new value in only if the word is still what you read (%s).\n"
                  "   Question: the max is order-independent -- is the work?\n\n"
                  "     max of %d floats (rand:1)   %.9g in every one of %d seeds (C: %.9g)%s\n"
                  "     failed CAS, gone round again   %d .. %d (%d distinct in %d seeds)%s\n\n",
            ptx_line(c, "float_max_cas", "atom.global.cas", buf, sizeof buf), N, got[0], SEEDS, want,
            verdict(c, same), lo, hi, distinct(tries, SEEDS), SEEDS, verdict(c, distinct(tries, SEEDS) > 1));
    fprintf(c->o, "   Answer: no.  A CAS fails when another thread changed the word between the read and\n"
                  "   the swap; then the loop reads again.  Under contention a CAS loop does more work the\n"
                  "   more threads aim at one word -- which is why there are atomicMax and friends.\n\n");
    return true;
}

static bool red_vs_atom(Ctx *c)
{
    static int ticket[N];
    int counter[2] = {0, 0};
    DeviceStats sa, sr;
    void *ha[2] = {&counter[0], ticket};
    int ca[2] = {1, N}, n = N;
    if (!launch(c, "count_atom", GRID, BLOCK, 2, ha, ca, 1, &n, -1, &sa, NULL))
        return false;
    void *hr[1] = {&counter[1]};
    int cr[1] = {1};
    if (!launch(c, "count_red", GRID, BLOCK, 1, hr, cr, 1, &n, -1, &sr, NULL))
        return false;
    char a[128], r[128];
    fprintf(c->o, "3. atom against red.  count_atom keeps atomicAdd's old value (a ticket), count_red\n"
                  "   throws it away.  Question: does the PTX differ?\n\n"
                  "     count_atom   %-40s counter %d, %llu atomics%s\n"
                  "     count_red    %-40s counter %d, %llu atomics%s\n\n",
            ptx_line(c, "count_atom", "atom.", a, sizeof a), counter[0], (unsigned long long)sa.atomics,
            verdict(c, counter[0] == N), ptx_line(c, "count_red", "atom.", r, sizeof r), counter[1],
            (unsigned long long)sr.atomics, verdict(c, counter[1] == N));
    fprintf(c->o, "   Answer: no -- nvcc writes atom for both; the unused result goes to a register nobody\n"
                  "   reads.  PTX has a red (reduction) instruction, an atom with no result, and it is ptxas\n"
                  "   that picks it: the H100's machine code for an atomicAdd whose result is unused is a\n"
                  "   REDG (traces/hw/timing-sass-h100.txt, atomic_bins).  A red need not send the old value\n"
                  "   back, so a warp does not wait for it.\n\n");
    return true;
}

static bool scopes(Ctx *c)
{
    int per_block[GRID] = {0}, device = 0, sys = 0, findings = 0;
    void *host[3] = {per_block, &device, &sys};
    int count[3] = {GRID, 1, 1}, n = N;
    if (!launch(c, "scoped_counts", GRID, BLOCK, 3, host, count, 1, &n, 3, NULL, &findings))
        return false;
    bool ok = device == N && sys == N;
    for (int b = 0; b < GRID; b++)
        ok &= per_block[b] == (b == GRID - 1 ? N - b * BLOCK : BLOCK);
    char x[128], y[128], z[128];
    fprintf(c->o, "4. cuda::atomic_ref: the scope in the type, the order in the call.  Each thread adds 1\n"
                  "   to its block's counter (thread_scope_block), the device counter (thread_scope_device)\n"
                  "   and the system counter (thread_scope_system), memory_order_relaxed.\n"
                  "   Question: which PTX scope does each become?\n\n"
                  "     block    %s\n     device   %s\n     system   %s\n\n"
                  "     counts: blocks %d %d %d %d, device %d, system %d; race check: %d finding%s%s\n\n",
            ptx_line(c, "scoped_counts", ".cta", x, sizeof x), ptx_line(c, "scoped_counts", ".gpu", y, sizeof y),
            ptx_line(c, "scoped_counts", ".sys", z, sizeof z), per_block[0], per_block[1], per_block[2],
            per_block[3], device, sys, findings, findings == 1 ? "" : "s", verdict(c, ok && findings == 0));
    fprintf(c->o, "   Answer: .cta, .gpu, .sys -- and .relaxed, the order.  A scope is right when every\n"
                  "   thread that touches the word is inside it: each block's counter is touched by its own\n"
                  "   block only, so .cta is enough, and the race checker finds nothing.  (Lesson 3 showed a\n"
                  "   .cta atomic on a word other blocks use: reported.)\n\n");
    return true;
}

static bool ordering(Ctx *c)
{
    static const char *const k[2] = {"message_relaxed", "message_acq_rel"};
    int seen[2][SEEDS];
    int findings[2] = {0, 0};
    for (int m = 0; m < 2; m++)
        for (int s = 0; s < SEEDS; s++) {
            int payload = 0, flag = 0;
            seen[m][s] = -1;
            void *host[3] = {&payload, &flag, &seen[m][s]};
            int count[3] = {1, 1, 1};
            if (!launch(c, k[m], 2, 32, 3, host, count, 0, NULL, s, NULL, s == 0 ? &findings[m] : NULL))
                return false;
        }
    static const char *const wait[2] = {"ld.relaxed", "ld.acquire"};
    char st[2][128], ld[2][128];
    fprintf(c->o, "5. Relaxed against release/acquire.  Block 0 writes payload = 42, then sets a flag; block 1\n"
                  "   spins until it sees the flag, then reads the payload.\n"
                  "   Question: with relaxed orders, can block 1 read 0?\n\n");
    for (int m = 0; m < 2; m++) {
        bool all42 = true;
        for (int s = 0; s < SEEDS; s++)
            all42 &= seen[m][s] == 42;
        fprintf(c->o, "     %-16s flag: %s   wait: %s\n"
                      "                      block 1 read %d in all %d seeds%s; race check: %d findings\n",
                k[m], ptx_line(c, k[m], "st.re", st[m], sizeof st[m]), ptx_line(c, k[m], wait[m], ld[m], sizeof ld[m]),
                seen[m][0], SEEDS, verdict(c, all42), findings[m]);
    }
    fprintf(c->o, "\n   Answer: the memory model says yes -- a relaxed flag orders nothing else, so the payload's\n"
                  "   store may become visible after the flag's -- and release/acquire says no: everything\n"
                  "   block 0 wrote before its release store is visible to block 1 after its acquire load.\n"
                  "   What the simulator shows is less: it applies every access to memory in one order, so\n"
                  "   both read 42; only the PTX (st.release / ld.acquire against .relaxed) differs.  And its\n"
                  "   race checker does not know release/acquire yet: it reports both kernels alike.  On an\n"
                  "   H100 (traces/hw/nvidia-h100-80gb-hbm3/xcheck.json, 3 runs) the relaxed kernel read 42\n"
                  "   every time too: a relaxed read of 42 proves nothing, a 0 would prove the reordering.\n\n");
    return true;
}

int lesson12_run(const LessonEnv *env)
{
    Ctx c = {.o = env->out};
    char *ptx;
    if (!lesson_open_text(env, &c.dev, &c.mod, &ptx))
        return 2;
    c.ptx = ptx;
    fprintf(c.o, "Lesson 12: all the atomics        (simulator, %s)\n"
                 "kernels: %s/kernel.cu\n\n", device_arch(c.dev), env->dir);
    int in_i[N];
    float in_f[N];
    argspec_fill_rand(PTX_T_S32, 1, (uint8_t *)in_i, N);
    argspec_fill_rand(PTX_T_F32, 1, (uint8_t *)in_f, N);
    bool ran = bit_ops(&c, in_i) && float_max(&c, in_f) && red_vs_atom(&c) && scopes(&c) && ordering(&c);
    if (ran) {
        fprintf(c.o, "Try it yourself -- one result, or many?\n"
                     "   warpsim explore %s/kernel.ptx --kernel float_max_cas --grid %d --block %d \\\n"
                     "       --arg buf:f32[%d]=rand:1 --arg buf:f32[1]=fill:-2 --arg buf:i32[1]=fill:0 --arg i32:%d\n"
                     "   warpsim explore %s/kernel.ptx --kernel count_atom --grid %d --block %d \\\n"
                     "       --arg buf:i32[1]=fill:0 --arg buf:i32[%d]=fill:0 --arg i32:%d\n"
                     "Look closer -- the CAS loop paused before every warp instruction, and its updates drawn:\n"
                     "   warpsim step %s/kernel.ptx --kernel float_max_cas --grid 1 --block 64 \\\n"
                     "       --arg buf:f32[64]=rand:1 --arg buf:f32[1]=fill:-2 --arg buf:i32[1]=fill:0 --arg i32:64\n"
                     "   warpsim run (the same launch) --trace cas.wst --trace-level memory; "
                     "warpsim viz cas.wst --view atomics\n"
                     "Exercise: %s/exercise/README.md -- a float atomic max.\n",
                env->dir, GRID, BLOCK, N, N, env->dir, GRID, BLOCK, N, N, env->dir, env->dir);
        if (c.mismatches)
            fprintf(c.o, "\n%d result%s differ from the expected values (marked DIFFERS above).\n", c.mismatches,
                    c.mismatches == 1 ? "" : "s");
    }
    free(ptx);
    device_close(c.dev);
    return !ran ? 2 : c.mismatches ? 1 : 0;
}
