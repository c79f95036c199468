/* harness.c: lesson 8 -- memory ordering and barriers.  Runs the lesson's
 * kernel.ptx in the simulator under many seeds of the schedule: the
 * last-block pattern with and without its __threadfence (the total, which
 * block was last, the PTX fence, what the race checker says), and
 * cuda::barrier's phases with and without the wait that closes a round
 * (results against C, the race checker's finding and its line). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lesson.h"
#include "source.h"

#define N 10000
#define BLOCK 256
#define GRID ((N + BLOCK - 1) / BLOCK)
#define SEEDS 20
#define ROUNDS 3

typedef struct {
    Device *dev;
    DeviceModule *mod;
    FILE *o;
    const char *ptx;
    int mismatches;
} Ctx;

static const char *verdict(Ctx *c, bool ok)
{
    if (!ok)
        c->mismatches++;
    return ok ? "" : "   <- DIFFERS";
}

/* One launch over nbuf 32-bit buffers (uploaded from and read back into
 * host[k]) then one int scalar; seed < 0: the default schedule.  With
 * races, *nraces gets the race checker's count and *first a copy of its
 * first finding (kind "" when none). */
static bool launch(Ctx *c, const char *kernel, unsigned grid, int nbuf, void *host[], const int count[], int scalar,
                   int seed, bool races, int *nraces, DeviceRace *first)
{
    DevicePtr p[5];
    void *args[6];
    int made = 0;
    bool ok = false;
    for (; made < nbuf; made++) {
        if (!lesson_upload(c->dev, host[made], (size_t)count[made] * 4, &p[made]))
            goto done;
        args[made] = &p[made];
    }
    args[nbuf] = &scalar;
    DeviceLaunch cfg = {.grid = {grid, 1, 1}, .block = {BLOCK, 1, 1}};
    if (seed >= 0) {
        cfg.schedule = DEVICE_SCHED_RANDOM;
        cfg.seed = (uint64_t)seed;
    }
    if (races)
        cfg.checks = DEVICE_CHECK_RACES;
    DeviceFault fault;
    if (lesson_launch_cfg(c->mod, kernel, &cfg, args, NULL, &fault) != SIM_OK) {
        fprintf(stderr, "warpsim lesson: %s faulted: %s\n", kernel, fault.msg);
        goto done;
    }
    if (races) {
        *nraces = device_race_count(c->dev);
        memset(first, 0, sizeof *first);
        if (*nraces)
            *first = *device_race(c->dev, 0);
    }
    ok = true;
    for (int k = 0; k < nbuf; k++)
        ok &= lesson_download(c->dev, host[k], p[k], (size_t)count[k] * 4);
done:
    for (int k = 0; k < made; k++)
        device_free(c->dev, p[k], NULL);
    return ok;
}

/* Whether kernel `name`'s body in the PTX holds `what`. */
static bool ptx_has(const Ctx *c, const char *name, const char *what)
{
    char head[96];
    snprintf(head, sizeof head, ".entry %s(", name);
    const char *s = c->ptx ? strstr(c->ptx, head) : NULL;
    if (!s)
        return false;
    const char *end = strstr(s + 1, ".entry ");
    const char *hit = strstr(s, what);
    return hit && (!end || hit < end);
}

static bool last_block(Ctx *c)
{
    static const char *const k[2] = {"last_block_sum", "last_block_nofence"};
    static int in[N];
    for (int i = 0; i < N; i++)
        in[i] = i % 7 - 3;
    int want = 0;
    for (int i = 0; i < N; i++)
        want += in[i];
    fprintf(c->o, "1. The last-block pattern.  %d blocks each add their 256 values, write the partial, and\n"
                  "   take a ticket with atomicAdd; the block with the last ticket adds the %d partials.\n"
                  "   Question: which block is last -- and does the total need the fence?\n\n",
            GRID, GRID);
    for (int m = 0; m < 2; m++) {
        int lasts[SEEDS], nr = 0;
        DeviceRace first = {0};
        bool right = true;
        for (int s = 0; s < SEEDS; s++) {
            int partial[GRID] = {0}, total = 0, last = -1;
            unsigned done = 0;
            void *host[5] = {in, partial, &done, &total, &last};
            int count[5] = {N, GRID, 1, 1, 1};
            if (!launch(c, k[m], GRID, 5, host, count, N, s, s == 0, &nr, &first))
                return false;
            right &= total == want && done == GRID;
            lasts[s] = last;
        }
        int d = 0;
        for (int i = 0; i < SEEDS; i++) {
            int j = 0;
            while (j < i && lasts[j] != lasts[i])
                j++;
            d += j == i;
        }
        fprintf(c->o, "     %-19s PTX fence: %-11s total %s in %d seeds, last block: %d different (seed 0: %d)%s\n"
                      "                         race check: %d finding%s%s%s\n",
                k[m], ptx_has(c, k[m], "membar.gl") ? "membar.gl" : "none", right ? "right" : "WRONG", SEEDS, d,
                lasts[0], verdict(c, right && d > 1 && ptx_has(c, k[m], "membar.gl") == (m == 0)), nr,
                nr == 1 ? "" : "s", nr ? " -- " : "", nr ? first.kind : "");
    }
    fprintf(c->o, "\n   Answer: whichever block finishes last, a different one under each schedule; that is\n"
                  "   the point of the ticket.  The fence is what makes the pattern correct: __threadfence()\n"
                  "   (membar.gl) puts the partial's store before the ticket for every thread of the device.\n"
                  "   Without it a GPU may let the ticket be seen first, and the last block add a stale 0.\n"
                  "   The simulator cannot show that: it applies every access to memory in one order, so\n"
                  "   both kernels add right.  Its race checker does not know fences or volatile yet: it\n"
                  "   reports the last block's reads of the partials in both kernels alike.  On an H100\n"
                  "   (traces/hw/nvidia-h100-80gb-hbm3/xcheck.json, 3 runs each) both totals came out right\n"
                  "   too: no stale partial seen, which proves nothing about the kernel without the fence.\n\n");
    return true;
}

static bool barrier_phases(Ctx *c)
{
    static const char *const k[2] = {"phases", "phases_racy"};
    enum { G = 2, T = G * BLOCK };
    int want[T];
    for (int t = 0; t < T; t++) {
        int tid = t % BLOCK, acc = 0;
        for (int r = 0; r < ROUNDS; r++)
            acc += (tid + 1) % BLOCK + r;
        want[t] = acc;
    }
    fprintf(c->o, "2. cuda::barrier's phases.  Each of %d rounds: write buf[tid], arrive_and_wait, read\n"
                  "   buf[tid + 1], arrive_and_wait.  phases_racy leaves the second wait out.\n"
                  "   Question: which one does the race checker report, and where?\n\n",
            ROUNDS);
    int wrong_racy = 0;
    for (int m = 0; m < 2; m++) {
        bool right = true;
        int nr = 0, wrong = 0;
        DeviceRace first = {0};
        for (int s = 0; s < SEEDS; s++) {
            static int out[T];
            memset(out, 0, sizeof out);
            void *host[1] = {out};
            int count[1] = {T};
            if (!launch(c, k[m], G, 1, host, count, ROUNDS, s, s == 0, &nr, &first))
                return false;
            wrong += memcmp(out, want, sizeof out) != 0;
        }
        right = wrong == 0;
        if (m == 1)
            wrong_racy = wrong;
        bool ok = m == 0 ? right && nr == 0 : nr > 0 && !strcmp(first.kind, "write-after-read");
        fprintf(c->o, "     %-12s results wrong in %d of %d seeds; race check: %d finding%s%s", k[m], wrong, SEEDS, nr,
                nr == 1 ? "" : "s", verdict(c, ok));
        if (nr)
            fprintf(c->o, "\n                  %s on %s memory: read at kernel.cu:%d, overwritten at kernel.cu:%d",
                    first.kind, first.space, first.first.line, first.second.line);
        fputc('\n', c->o);
    }
    fprintf(c->o, "\n   Answer: phases_racy.  A thread that finished round r can write buf in round r + 1 while\n"
                  "   a slower neighbour has not read its round-r value yet: write-after-read.  The second\n"
                  "   arrive_and_wait closes the round (phase 2r + 1).  Here %d of %d schedules gave a wrong\n"
                  "   result; a race can also come out right by luck, so it needs a checker, not a test.\n\n",
            wrong_racy, SEEDS);
    return true;
}

int lesson08_run(const LessonEnv *env)
{
    Ctx c = {.o = env->out};
    char *ptx;
    if (!lesson_open_text(env, &c.dev, &c.mod, &ptx))
        return 2;
    c.ptx = ptx;
    fprintf(c.o, "Lesson 8: memory ordering and barriers        (simulator, %s)\n"
                 "kernels: %s/kernel.cu\n\n", device_arch(c.dev), env->dir);
    bool ran = last_block(&c) && barrier_phases(&c);
    if (ran)
        fprintf(c.o, "Try it yourself:\n"
                     "   warpsim run %s/kernel.ptx --kernel phases_racy --grid 2 --block 256 \\\n"
                     "       --arg buf:i32[512]=fill:0 --arg i32:3 --check races\n"
                     "Exercise: %s/exercise/README.md -- a round of neighbour exchanges in two phases.\n",
                env->dir, env->dir);
    if (ran && c.mismatches)
        fprintf(c.o, "\n%d result%s differ from the expected values (marked DIFFERS above).\n", c.mismatches,
                c.mismatches == 1 ? "" : "s");
    free(ptx);
    device_close(c.dev);
    return !ran ? 2 : c.mismatches ? 1 : 0;
}
