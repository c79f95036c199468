/* harness.c: lesson 06 -- latency and throughput.  Runs the lesson's
 * kernel.ptx in the simulator with the timing model: one FMA chain against
 * four (ILP) and against eight warps a scheduler (TLP), a memory stream with
 * 4 or 16 bytes in flight per load, the cost of a multiply, a division and a
 * sine, and four busy warps on four schedulers or on one.  Each step asks
 * first, then prints what the model measured and checks the claim the
 * lesson's README makes (directions and ratios, never fixed cycle counts). */
#include <stdio.h>
#include <string.h>

#include "lesson.h"

#define GRID 132                 /* one block per SM of an H100 */
#define STREAM_GRID 264          /* two waves at one block per SM */
#define ONE_BLOCK_SMEM 232448    /* dynamic shared memory that leaves room for one block */
#define DRAM_BPC 1948.0          /* the H100's DRAM read bandwidth in bytes a cycle
                                    (traces/hw/timing-microbench-h100.json) */
#define DRAM_LAT 574.0           /* and its DRAM latency in cycles (the same recording) */
#define H100_ILP1_W1 11174.0     /* the H100's cycles for step 1's launches (traces/hw/ */
#define H100_ILP4_W1 5834.0      /* timing-h100.json, family ilp: ilp1_w1, ilp4_w1, */
#define H100_ILP1_W8 5907.0      /* ilp1_w8) */

typedef struct {
    Device *dev;
    DeviceModule *mod;
    FILE *o;
    int wrong;                   /* claims the simulator did not bear out */
} Ctx;

typedef struct {
    double cycles;               /* the modelled kernel duration */
    double sm;                   /* the same without the launch overhead */
    double occupancy;
    double share[DEVICE_STALL_COUNT]; /* each state's share of the warp-cycles */
    double stall[DEVICE_STALL_COUNT]; /* and its warp-cycles */
    int top;                     /* the largest state other than `selected` */
    double insts;
    double dram_bpc;             /* DRAM bytes read per cycle on the SMs */
} Result;

/* One scalar argument of a launch: int, unsigned or float, 4 bytes. */
typedef union {
    int i;
    unsigned u;
    float f;
} Arg;

/* One timed launch of `kernel` over a zero-filled output of out_words 4-byte
 * words followed by nargs scalars, with smem bytes of dynamic shared memory. */
static bool timed(Ctx *c, const char *kernel, unsigned grid, unsigned block, unsigned smem, int out_words,
                  Arg *a, int nargs, Result *r)
{
    SimError err;
    if (smem > 48 * 1024 && device_set_attr(c->mod, kernel, DEVICE_ATTR_MAX_DYNAMIC_SMEM, (int)smem, &err) != SIM_OK) {
        fprintf(stderr, "warpsim lesson: %s: %s\n", kernel, err.msg);
        return false;
    }
    DevicePtr out;
    if (!lesson_upload(c->dev, NULL, (size_t)out_words * 4, &out))
        return false;
    void *args[4] = {&out};
    for (int k = 0; k < nargs && k < 3; k++)
        args[1 + k] = &a[k];
    DeviceLaunch cfg = {.grid = {grid, 1, 1}, .block = {block, 1, 1}, .smem = smem, .timing = true};
    DeviceStats st;
    DeviceFault fault;
    SimStatus s = lesson_launch_cfg(c->mod, kernel, &cfg, args, &st, &fault);
    device_free(c->dev, out, NULL);
    if (s != SIM_OK) {
        if (s == SIM_ERR_FAULT)
            fprintf(stderr, "warpsim lesson: %s faulted: %s\n", kernel, fault.msg);
        return false;
    }
    const DeviceTiming *t = &st.timing;
    uint64_t all = 0;
    for (int k = 0; k < DEVICE_STALL_COUNT; k++)
        all += t->stall[k];
    memset(r, 0, sizeof *r);
    r->cycles = (double)st.cycles;
    r->sm = (double)(st.cycles - t->launch_overhead);
    r->occupancy = t->achieved_occupancy;
    r->insts = (double)st.warp_insts;
    r->dram_bpc = r->sm > 0 ? (double)t->dram_read_bytes / r->sm : 0.0;
    r->top = DEVICE_STALL_WAIT;
    for (int k = 0; k < DEVICE_STALL_COUNT; k++) {
        r->share[k] = all ? (double)t->stall[k] / (double)all : 0.0;
        r->stall[k] = (double)t->stall[k];
        if (k != DEVICE_STALL_SELECTED && r->share[k] > r->share[r->top])
            r->top = k;
    }
    return true;
}

static void check(Ctx *c, bool ok, const char *claim)
{
    if (!ok)
        c->wrong++;
    fprintf(c->o, "   %s %s\n", ok ? "holds: " : "WRONG: ", claim);
}

static void row(Ctx *c, const char *what, const Result *r, const Result *base)
{
    fprintf(c->o, "     %-26s %7.0f  %7.0f   %5.2fx    %5.1f%%   %-18s %4.0f%%\n", what, r->cycles, r->sm,
            r->sm / base->sm, 100 * r->occupancy, device_stall_name(r->top), 100 * r->share[r->top]);
}

static void header(Ctx *c)
{
    fprintf(c->o, "     launch                      cycles  on SMs  SMs vs 1st occupancy  most cycles waiting in\n");
}

static bool step_ilp_tlp(Ctx *c)
{
    Result w1, ilp, tlp;
    /* each SM does the same 128 x 1,024 FMAs in all three launches */
    Arg a1[3] = {{.i = 1024}, {.f = 0.999f}, {.f = 0.5f}};
    Arg a4[3] = {{.i = 256}, {.f = 0.999f}, {.f = 0.5f}};
    Arg a8[3] = {{.i = 128}, {.f = 0.999f}, {.f = 0.5f}};
    if (!timed(c, "fma_ilp1", GRID, 128, 0, 1, a1, 3, &w1) || !timed(c, "fma_ilp4", GRID, 128, 0, 1, a4, 3, &ilp) ||
        !timed(c, "fma_ilp1", GRID, 1024, 0, 1, a8, 3, &tlp))
        return false;
    fprintf(c->o, "1. Latency against throughput.  Each SM runs 4 warps (one per scheduler) that do 1,024\n"
                  "   dependent FMAs each: a = a*m + c, again and again.  Then the same FMAs as 4 independent\n"
                  "   chains of 256 (ILP), and spread over 32 warps, 8 per scheduler, 128 each (TLP).\n"
                  "   An FMA's result is ready about 4 cycles after it issues; a scheduler issues 1 a cycle.\n"
                  "   Question: which is fastest?  What do the warps of the single chain wait for?\n\n");
    header(c);
    row(c, "1 chain, 1 warp/scheduler", &w1, &w1);
    row(c, "4 chains (ILP)", &ilp, &w1);
    row(c, "8 warps/scheduler (TLP)", &tlp, &w1);
    fprintf(c->o, "\n   (\"on SMs\" leaves out the %.0f cycles of launch overhead every launch pays.)\n",
            w1.cycles - w1.sm);
    fprintf(c->o, "   In all cycles 1 chain takes %.2fx as long as 4 chains and %.2fx as long as 8 warps here;\n"
                  "   the H100 took %.2fx and %.2fx (traces/hw/timing-h100.json, family ilp).\n\n",
            w1.cycles / ilp.cycles, w1.cycles / tlp.cycles, H100_ILP1_W1 / H100_ILP4_W1, H100_ILP1_W1 / H100_ILP1_W8);
    check(c, w1.top == DEVICE_STALL_WAIT && w1.share[DEVICE_STALL_WAIT] > 0.5,
          "one chain: most warp-cycles are `wait`, a fixed-latency dependency on the previous FMA");
    check(c, w1.cycles >= 1.4 * ilp.cycles && w1.sm >= 1.8 * ilp.sm,
          "4 independent chains take less time: 1 chain is at least 1.4x as long (1.8x on the SMs)");
    check(c, w1.sm >= 1.8 * tlp.sm, "8 warps per scheduler hide the latency too: at least 1.8x faster on the SMs");
    check(c, tlp.share[DEVICE_STALL_WAIT] < w1.share[DEVICE_STALL_WAIT] / 2,
          "with 8 warps, `wait` falls to under half its share: the scheduler always has another warp ready");
    fputc('\n', c->o);
    return true;
}

static bool step_in_flight(Ctx *c)
{
    Result l1, l4, v4;
    if (!timed(c, "load_1", STREAM_GRID, 256, ONE_BLOCK_SMEM, 1, NULL, 0, &l1) ||
        !timed(c, "load_4", STREAM_GRID, 256, ONE_BLOCK_SMEM, 1, NULL, 0, &l4) ||
        !timed(c, "load_v4", STREAM_GRID, 256, ONE_BLOCK_SMEM, 1, NULL, 0, &v4))
        return false;
    fprintf(c->o, "2. Bytes in flight.  %d blocks of 256 threads, one block per SM (8 warps), each thread\n"
                  "   reads 64 bytes: sixteen 4-byte loads one at a time (load_1), the same sixteen four at a\n"
                  "   time (load_4, __ldg), or four 16-byte float4 loads one at a time (load_v4).\n"
                  "   Question: the bytes are the same.  Is the time?  What do the warps wait for?\n\n",
            STREAM_GRID);
    header(c);
    row(c, "load_1  (4 B in flight)", &l1, &l1);
    row(c, "load_4  (16 B in flight)", &l4, &l1);
    row(c, "load_v4 (16 B in flight)", &v4, &l1);
    fprintf(c->o, "\n   DRAM bytes a cycle: load_1 %.0f, load_4 %.0f, load_v4 %.0f, of the %.0f an H100 can deliver.\n"
                  "   Bytes in flight needed = latency x bandwidth = %.0f x %.0f = %.0f KB for the GPU, %.1f KB\n"
                  "   per SM; one block of 256 threads has 1 KB (4 B each) or 4 KB (16 B each) in flight.\n\n",
            l1.dram_bpc, l4.dram_bpc, v4.dram_bpc, DRAM_BPC, DRAM_LAT, DRAM_BPC, DRAM_LAT * DRAM_BPC / 1024,
            DRAM_LAT * DRAM_BPC / 1024 / GRID);
    bool lsb = true;
    const Result *all[3] = {&l1, &l4, &v4};
    for (int k = 0; k < 3; k++)
        lsb &= all[k]->top == DEVICE_STALL_LONG_SCOREBOARD && all[k]->share[DEVICE_STALL_LONG_SCOREBOARD] > 0.6;
    check(c, lsb, "in all three, long_scoreboard leads with over 60% of warp-cycles: waiting for DRAM");
    check(c, l1.cycles >= 2.0 * l4.cycles && l1.cycles >= 2.0 * v4.cycles,
          "load_1 takes at least 2x as long as load_4 and as load_v4");
    check(c, l4.cycles <= 1.2 * v4.cycles && v4.cycles <= 1.2 * l4.cycles,
          "load_4 and load_v4, 16 bytes in flight each, take the same time within 20%");
    check(c, v4.insts < l4.insts, "load_v4 issues fewer instructions than load_4");
    check(c, v4.dram_bpc >= 2 * l1.dram_bpc && v4.dram_bpc < DRAM_BPC / 2,
          "load_v4 moves at least 2x load_1's bytes a cycle, and still under half of what DRAM can give");
    fputc('\n', c->o);
    return true;
}

static bool step_cost(Ctx *c)
{
    static const char *const kname[3] = {"op_mul", "op_div", "op_sin"};
    static const char *const label[2][3] = {
        {"multiply, 1 warp/sched", "divide,   1 warp/sched", "sine,     1 warp/sched"},
        {"multiply, 8 warps/sched", "divide,   8 warps/sched", "sine,     8 warps/sched"},
    };
    Result r[2][3];
    for (int w = 0; w < 2; w++)
        for (int k = 0; k < 3; k++) {
            Arg a[2] = {{.i = w ? 128 : 256}, {.u = 7}};
            if (k == 2)
                a[1].f = 0.25f;
            if (!timed(c, kname[k], GRID, w ? 1024 : 128, 0, 1, a, 2, &r[w][k]))
                return false;
        }
    fprintf(c->o, "3. Instruction cost.  A dependent loop whose one operation is an integer multiply\n"
                  "   (op_mul), an integer division by a value known only at run time (op_div) or the hardware\n"
                  "   sine __sinf (op_sin, the special function unit): 256 steps with one warp per scheduler,\n"
                  "   then 128 steps with eight.\n"
                  "   Question: which operation costs most?  What do the warps wait for in each case?\n\n");
    header(c);
    for (int w = 0; w < 2; w++)
        for (int k = 0; k < 3; k++)
            row(c, label[w][k], &r[w][k], &r[w][0]);
    fputc('\n', c->o);
    check(c, r[0][1].sm >= 2.5 * r[0][0].sm && r[1][1].sm >= 2.5 * r[1][0].sm,
          "a division costs at least 2.5x a multiply, at 1 and at 8 warps per scheduler");
    check(c, r[0][2].stall[DEVICE_STALL_SHORT_SCOREBOARD] > r[0][0].stall[DEVICE_STALL_SHORT_SCOREBOARD] &&
                 r[0][2].top == DEVICE_STALL_SHORT_SCOREBOARD,
          "the sine's warps wait longer in short_scoreboard than the multiply's, and most there");
    bool pipe = true;
    for (int k = 0; k < 3; k++)
        pipe &= r[1][k].top == DEVICE_STALL_MATH_PIPE_THROTTLE;
    check(c, pipe, "with 8 warps per scheduler, math_pipe_throttle leads in all three: the pipe, not latency");
    fputc('\n', c->o);
    return true;
}

static bool step_scheduler(Ctx *c)
{
    static const int stride[3] = {1, 2, 4};
    static const char *const label[3] = {"warps 0,1,2,3  (4 scheds)", "warps 0,2,4,6  (2 scheds)",
                                         "warps 0,4,8,12 (1 sched)"};
    Result r[3];
    for (int k = 0; k < 3; k++) {
        Arg a[3] = {{.i = 512}, {.i = stride[k]}, {.f = 0.999f}};
        if (!timed(c, "busy_warps", GRID, 512, 0, 4, a, 3, &r[k]))
            return false;
    }
    fprintf(c->o, "4. A warp keeps its scheduler.  Warp k of an SM is issued by scheduler k %% 4 all its life.\n"
                  "   Blocks of 16 warps where only 4 work (8 independent FMA chains each); busy_warps picks\n"
                  "   them `stride` apart.\n"
                  "   Question: the work is the same.  How much longer do 4 warps take on one scheduler?\n\n");
    header(c);
    for (int k = 0; k < 3; k++)
        row(c, label[k], &r[k], &r[0]);
    fputc('\n', c->o);
    check(c, r[2].sm >= 1.8 * r[0].sm, "all four on scheduler 0 take at least 1.8x as long on the SMs as one each");
    check(c, r[1].sm > r[0].sm && r[1].sm < r[2].sm, "two schedulers land in between");
    double slot[3];
    for (int k = 0; k < 3; k++)
        slot[k] = r[k].share[DEVICE_STALL_MATH_PIPE_THROTTLE] + r[k].share[DEVICE_STALL_NOT_SELECTED];
    check(c, slot[2] > 0.4 && slot[0] < 0.1,
          "on one scheduler over 40% of warp-cycles wait for its pipe or issue slot (math_pipe_throttle and "
          "not_selected), on four under 10%");
    fputc('\n', c->o);
    return true;
}

int lesson06_run(const LessonEnv *env)
{
    Ctx c = {.o = env->out};
    if (!lesson_open(env, &c.dev, &c.mod))
        return 2;
    fprintf(c.o, "Lesson 06: latency and throughput (timing model, %s)\n\n", env->arch);
    bool ran = step_ilp_tlp(&c) && step_in_flight(&c) && step_cost(&c) && step_scheduler(&c);
    if (ran)
        fprintf(c.o, "Try it yourself: lessons/06-latency-throughput/README.md has the commands to look closer.\n");
    device_close(c.dev);
    if (!ran)
        return 2;
    if (c.wrong)
        fprintf(c.o, "%d claim(s) did not hold in this build of the timing model.\n", c.wrong);
    return c.wrong ? 1 : 0;
}
