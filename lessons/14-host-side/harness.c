/* harness.c: lesson 14 -- the host side.  Runs the lesson's kernel.ptx in the
 * simulator the way a host program drives a GPU through the driver API: the
 * PTX's target and __CUDA_ARCH__, the same module loaded twice with a
 * __device__ variable each, lookup by name, parameters in the param space,
 * the device heap, per-kernel attributes, and (with the timing model) a grid
 * that leaves SMs idle.  Each step asks first, then shows and checks. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lesson.h"

#define SMS 132                  /* an H100's SMs (the sm_90 profile) */

typedef struct {
    const LessonEnv *env;
    Device *dev;
    DeviceModule *mod;
    char *ptx;                   /* the module's text (a second load uses it) */
    FILE *o;
    int wrong;                   /* claims the simulator did not bear out */
} Ctx;

static void check(Ctx *c, bool ok, const char *claim)
{
    if (!ok)
        c->wrong++;
    fprintf(c->o, "   %s %s\n", ok ? "holds: " : "WRONG: ", claim);
}

/* The line of the PTX that starts with prefix (without its newline), or "". */
static void ptx_line(const char *ptx, const char *prefix, char *buf, size_t cap)
{
    buf[0] = 0;
    for (const char *l = ptx; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
        if (!strncmp(l, prefix, strlen(prefix))) {
            size_t n = strcspn(l, "\r\n");
            snprintf(buf, cap, "%.*s", (int)(n < cap ? n : cap - 1), l);
            return;
        }
    }
}

/* The body of entry `name` in the PTX: from its ".entry name(" to the next
 * ".entry" (or the end); *len its length.  NULL when there is none. */
static const char *entry_body(const char *ptx, const char *name, size_t *len)
{
    char key[128];
    snprintf(key, sizeof key, ".entry %s(", name);
    const char *s = strstr(ptx, key);
    if (!s)
        return NULL;
    const char *e = strstr(s + 1, ".entry ");
    *len = e ? (size_t)(e - s) : strlen(s);
    return s;
}

static int count_in(const char *s, size_t len, const char *what)
{
    int n = 0;
    size_t w = strlen(what);
    for (const char *p = s; p && (p = strstr(p, what)) != NULL && p + w <= s + len; p += w)
        n++;
    return n;
}

/* One launch of a kernel whose parameters are in args; fills *st.  On a
 * fault, *fault (when non-NULL) and SIM_ERR_FAULT. */
static SimStatus launch(DeviceModule *m, const char *k, unsigned grid, unsigned block, unsigned smem, bool timing,
                        void **args, DeviceStats *st, DeviceFault *fault)
{
    DeviceLaunch cfg = {.grid = {grid, 1, 1}, .block = {block, 1, 1}, .smem = smem, .timing = timing};
    DeviceFault f;
    return lesson_launch_cfg(m, k, &cfg, args, st, fault ? fault : &f);
}

static bool step_target(Ctx *c)
{
    char version[64], target[64];
    ptx_line(c->ptx, ".version", version, sizeof version);
    ptx_line(c->ptx, ".target", target, sizeof target);
    int locs = count_in(c->ptx, strlen(c->ptx), "\n\t.loc\t");
    fprintf(c->o, "1. One .cu, one PTX.  nvcc -ptx -arch=sm_90 -lineinfo turned kernel.cu into kernel.ptx,\n"
                  "   the text both the simulator and the GPU run.  Its header says:\n\n"
                  "     %s\n     %s\n\n"
                  "   and %d `.loc` lines (from -lineinfo) tie its instructions to lines of kernel.cu.\n"
                  "   which_arch stores arch_number(), a __host__ __device__ function that returns\n"
                  "   __CUDA_ARCH__ where it is defined and 0 where it is not.\n"
                  "   Question: what do the 32 threads of which_arch<<<1, 32>>> store?\n\n",
            version, target, locs);
    int out[32];
    LessonLaunch l = {.kernel = "which_arch", .grid = 1, .block = 32, .nout = 1, .out_n = {32}};
    void *outs[4] = {out};
    DeviceStats st;
    if (lesson_run32(c->dev, c->mod, &l, outs, &st, NULL) != SIM_OK)
        return false;
    bool all = true;
    for (int i = 0; i < 32; i++)
        all &= out[i] == out[0];
    size_t len;
    const char *body = entry_body(c->ptx, "which_arch", &len);
    bool constant = body && count_in(body, len, ", 900;") == 1;
    fprintf(c->o, "     every thread stored %d%s\n\n", out[0], all ? "" : " (and others differ)");
    check(c, all && out[0] == 900, "every thread stores 900: __CUDA_ARCH__ for compute_90/sm_90");
    check(c, constant, "the PTX holds 900 as a constant: nvcc chose it when it compiled the device pass");
    check(c, !strcmp(target, ".target sm_90") && locs > 0, "the PTX targets sm_90 and carries -lineinfo's .loc lines");
    fputc('\n', c->o);
    return true;
}

/* bump in module m once; its out[0] in *v. */
static bool bump_once(Ctx *c, DeviceModule *m, const char *entry, int *v)
{
    LessonLaunch l = {.kernel = entry, .grid = 1, .block = 32, .nout = 1, .out_n = {1}};
    void *outs[4] = {v};
    DeviceStats st;
    return lesson_run32(c->dev, m, &l, outs, &st, NULL) == SIM_OK;
}

static bool step_modules(Ctx *c)
{
    fprintf(c->o, "2. A module is like a shared library.  The harness loads kernel.ptx a second time into\n"
                  "   the same device: modules A and B.  `__device__ int g_calls = 100;` and bump does\n"
                  "   `g_calls += 1; out[0] = g_calls;`.\n"
                  "   Question: bump runs in A, in A again, then in B.  What does each launch print?\n\n");
    SimError err;
    sim_error_clear(&err);
    DeviceModule *b;
    char path[1200];
    snprintf(path, sizeof path, "%s/kernel.ptx", c->env->dir);
    if (device_load_ptx(c->dev, path, c->ptx, strlen(c->ptx), &b, &err) != SIM_OK) {
        fprintf(stderr, "warpsim lesson: %s\n", err.msg);
        return false;
    }
    /* the driver API wants the PTX name; device_find_kernel also takes the C++ one */
    const char *entry = device_find_kernel(c->mod, "bump", &err);
    if (!entry) {
        fprintf(stderr, "warpsim lesson: %s\n", err.msg);
        return false;
    }
    int a1, a2, b1;
    if (!bump_once(c, c->mod, entry, &a1) || !bump_once(c, c->mod, entry, &a2) || !bump_once(c, b, entry, &b1))
        return false;
    fprintf(c->o, "     A: %d   A: %d   B: %d\n\n", a1, a2, b1);
    check(c, a1 == 101 && a2 == 102 && b1 == 101,
          "each module has its own g_calls, set from the module image: A counts 101, 102 and B 101");
    fputc('\n', c->o);

    fprintf(c->o, "   Looking kernels up by name, as cuModuleGetFunction does.  bump is a C++ kernel, the\n"
                  "   others are extern \"C\".\n"
                  "   Question: what name does bump have in the PTX?  What does a misspelt name get?\n\n"
                  "     bump -> %s\n",
            entry);
    sim_error_clear(&err);
    const char *none = device_find_kernel(c->mod, "bumb", &err);
    fprintf(c->o, "     bumb -> %s\n\n", none ? none : err.msg);
    check(c, !strcmp(entry, "_Z4bumpPi"), "bump's PTX name is the mangled _Z4bumpPi");
    check(c, !none && err.status == SIM_ERR_USAGE && strstr(err.msg, "which_arch"),
          "a wrong name is refused, and the message lists the kernels the module has");
    fputc('\n', c->o);
    return true;
}

typedef struct {
    int v[1024];
} Table;

static bool step_params(Ctx *c, DevicePtr outp)
{
    enum { GRID = 8, BLOCK = 256, N = GRID * BLOCK };
    static Table t;
    for (int k = 0; k < 1024; k++)
        t.v[k] = 3 * k + 1;
    size_t lc, lg;
    const char *bc = entry_body(c->ptx, "table_copy", &lc), *bg = entry_body(c->ptx, "table_grid_constant", &lg);
    if (!bc || !bg) {
        fprintf(stderr, "warpsim lesson: kernel.ptx lacks table_copy or table_grid_constant\n");
        return false;
    }
    fprintf(c->o, "3. Parameters live in the param space.  table_copy(Table t, int *out, int n) takes a\n"
                  "   4 KB struct by value; the host packs it with the other parameters into one buffer and\n"
                  "   the kernel reads it with ld.param.  pick(&t, i) takes its address.  table_grid_constant\n"
                  "   is the same with `const __grid_constant__ Table t`.\n"
                  "   Question: which of the two copies the table into each thread's local memory?\n"
                  "   How much slower is it (timing model, %d blocks of %d)?\n\n",
            GRID, BLOCK);
    int n = N;
    void *args[3] = {&t, &outp, &n};
    DeviceStats sc, sg;
    if (launch(c->mod, "table_copy", GRID, BLOCK, 0, true, args, &sc, NULL) != SIM_OK)
        return false;
    static int oc[N], og[N];
    if (!lesson_download(c->dev, oc, outp, sizeof oc))
        return false;
    if (launch(c->mod, "table_grid_constant", GRID, BLOCK, 0, true, args, &sg, NULL) != SIM_OK ||
        !lesson_download(c->dev, og, outp, sizeof og))
        return false;
    bool right = true;
    for (int i = 0; i < N; i++)
        right &= oc[i] == t.v[(i * 7) & 1023] && og[i] == oc[i];
    int ldc = count_in(bc, lc, "ld.param"), ldg = count_in(bg, lg, "ld.param");
    int stc = count_in(bc, lc, "st.local"), stg = count_in(bg, lg, "st.local");
    fprintf(c->o, "     kernel                local bytes/thread   ld.param   st.local   cvta.param   cycles\n"
                  "     table_copy              %6llu            %4d       %4d        %4d     %8llu\n"
                  "     table_grid_constant     %6llu            %4d       %4d        %4d     %8llu\n\n"
                  "   table_copy takes %.1fx as long.\n\n",
            (unsigned long long)sc.local_bytes, ldc, stc, count_in(bc, lc, "cvta.param"),
            (unsigned long long)sc.cycles, (unsigned long long)sg.local_bytes, ldg, stg,
            count_in(bg, lg, "cvta.param"), (unsigned long long)sg.cycles, (double)sc.cycles / (double)sg.cycles);
    check(c, right, "both return the same table entries");
    check(c, sc.local_bytes >= 4096 && sg.local_bytes == 0 && stc > 0 && stg == 0,
          "table_copy copies the 4 KB into local memory; table_grid_constant has none");
    check(c, sc.cycles >= 2 * sg.cycles, "the copy makes table_copy at least 2x slower");
    fputc('\n', c->o);

    enum { HUGE_INTS = 8189 };
    static int huge[HUGE_INTS];
    for (int k = 0; k < HUGE_INTS; k++)
        huge[k] = 1;
    int total = device_kernel_param_size(c->mod, "huge_params", 0) + device_kernel_param_size(c->mod, "huge_params", 1);
    fprintf(c->o, "   huge_params(int *out, Huge h) takes a pointer and 8,189 ints: %d bytes of parameters,\n"
                  "   the most a kernel may take on sm_90 with CUDA 12.1 or later (one int more and nvcc\n"
                  "   refuses it).  Every int is 1 and the block sums them.\n"
                  "   Question: does every byte arrive?\n\n",
            total);
    int zero = 0;
    if (device_memcpy_htod(c->dev, outp, &zero, sizeof zero, NULL) != SIM_OK)
        return false;
    void *hargs[2] = {&outp, huge};
    DeviceStats sh;
    int sum;
    if (launch(c->mod, "huge_params", 1, 256, 0, false, hargs, &sh, NULL) != SIM_OK ||
        !lesson_download(c->dev, &sum, outp, sizeof sum))
        return false;
    fprintf(c->o, "     sum = %d\n\n", sum);
    check(c, total == 32764 && sum == HUGE_INTS, "all 32,764 bytes arrive: the sum is 8189");
    fputc('\n', c->o);
    return true;
}

static bool step_heap(Ctx *c)
{
    enum { GRID = 2, BLOCK = 64, N = GRID * BLOCK, INTS = 100 };
    fprintf(c->o, "4. The device heap.  heap_scratch: each of %d threads mallocs %d ints, fills them with\n"
                  "   i, i+1, ..., sums them and frees them.  heap_grab: 64 threads of one block each ask\n"
                  "   for 1 MB at once, then free.  The heap is 8 MB (cudaLimitMallocHeapSize's default).\n"
                  "   Question: does heap_scratch get its memory?  How many of heap_grab's threads get NULL?\n\n",
            N, INTS);
    int out[N];
    LessonLaunch l = {.kernel = "heap_scratch", .grid = GRID, .block = BLOCK, .nout = 1, .out_n = {N},
                      .nscalar = 1, .scalar = {INTS}};
    void *outs[4] = {out};
    DeviceStats st;
    if (lesson_run32(c->dev, c->mod, &l, outs, &st, NULL) != SIM_OK)
        return false;
    bool right = true;
    for (int i = 0; i < N; i++)
        right &= out[i] == INTS * i + INTS * (INTS - 1) / 2;
    int counts[2];
    LessonLaunch g = {.kernel = "heap_grab", .grid = 1, .block = 64, .nout = 1, .out_n = {2},
                      .nscalar = 1, .scalar = {1 << 20}};
    void *gouts[4] = {counts};
    if (lesson_run32(c->dev, c->mod, &g, gouts, &st, NULL) != SIM_OK)
        return false;
    fprintf(c->o, "     heap_scratch: thread 0 sums %d, thread %d sums %d\n"
                  "     heap_grab:    %d threads got 1 MB, %d got NULL\n\n",
            out[0], N - 1, out[N - 1], counts[0], counts[1]);
    check(c, right, "every heap_scratch thread gets its 400 bytes: sum = 100 i + 4950");
    check(c, counts[0] + counts[1] == 64 && counts[0] >= 1 && counts[0] <= 8 && counts[1] >= 56,
          "8 MB holds at most 8 of the 64 MB asked for: the rest get NULL");
    fputc('\n', c->o);

    fprintf(c->o, "   heap_grab_unchecked is heap_grab without the `if (p == NULL)`.\n"
                  "   Question: what happens to a thread that got NULL?\n\n");
    DeviceFault f;
    LessonLaunch u = g;
    u.kernel = "heap_grab_unchecked";
    SimStatus s = lesson_run32(c->dev, c->mod, &u, gouts, &st, &f);
    if (s != SIM_OK && s != SIM_ERR_FAULT)
        return false;
    fprintf(c->o, "     %s: %s\n\n", s == SIM_ERR_FAULT ? f.kind : "no fault", s == SIM_ERR_FAULT ? f.msg : "");
    check(c, s == SIM_ERR_FAULT && strstr(f.msg, "malloc returned NULL"),
          "it writes through the null pointer and the launch faults");
    fputc('\n', c->o);
    return true;
}

static bool step_attributes(Ctx *c, DevicePtr outp)
{
    enum { SMEM = 64 * 1024 };
    fprintf(c->o, "5. Attributes belong to one __global__ function.  stage_a and stage_b have the same body.\n"
                  "   The harness raises stage_a's dynamic shared memory limit to 64 KB\n"
                  "   (cudaFuncSetAttribute(stage_a, cudaFuncAttributeMaxDynamicSharedMemorySize, 65536))\n"
                  "   and sets stage_a's carveout to 100%% and stage_b's to 0%%.\n"
                  "   Question: both launch with 64 KB.  Which one runs?  With 1 KB each, how much shared\n"
                  "   memory does each kernel's SM set aside?\n\n");
    SimError err;
    sim_error_clear(&err);
    if (device_set_attr(c->mod, "stage_a", DEVICE_ATTR_MAX_DYNAMIC_SMEM, SMEM, &err) != SIM_OK ||
        device_set_attr(c->mod, "stage_a", DEVICE_ATTR_PREFERRED_CARVEOUT, 100, &err) != SIM_OK ||
        device_set_attr(c->mod, "stage_b", DEVICE_ATTR_PREFERRED_CARVEOUT, 0, &err) != SIM_OK) {
        fprintf(stderr, "warpsim lesson: %s\n", err.msg);
        return false;
    }
    int n = 256;
    void *args[2] = {&outp, &n};
    DeviceLaunch cfg = {.grid = {1, 1, 1}, .block = {256, 1, 1}, .smem = SMEM};
    DeviceStats sa, sb;
    DeviceFault f;
    SimStatus a = device_launch(c->mod, "stage_a", &cfg, args, &sa, &f, &err);
    sim_error_clear(&err);
    SimStatus b = device_launch(c->mod, "stage_b", &cfg, args, &sb, &f, &err);
    fprintf(c->o, "     stage_a with 64 KB: %s\n     stage_b with 64 KB: %s\n\n", a == SIM_OK ? "ran" : "refused",
            b == SIM_OK ? "ran" : err.msg);
    check(c, a == SIM_OK && b == SIM_ERR_USAGE, "stage_a runs; stage_b, never opted in, is refused above 48 KB");
    if (launch(c->mod, "stage_a", 1, 256, 1024, true, args, &sa, NULL) != SIM_OK ||
        launch(c->mod, "stage_b", 1, 256, 1024, true, args, &sb, NULL) != SIM_OK)
        return false;
    fprintf(c->o, "\n     with 1 KB: stage_a's SM sets %zu KB aside for shared memory (L1 %zu KB), stage_b's %zu KB (L1 %zu KB)\n\n",
            sa.timing.smem_carveout_bytes / 1024, sa.timing.l1_bytes / 1024, sb.timing.smem_carveout_bytes / 1024,
            sb.timing.l1_bytes / 1024);
    check(c, sa.timing.smem_carveout_bytes > 4 * sb.timing.smem_carveout_bytes,
          "each kernel keeps its own carveout: stage_a's shared memory is over 4x stage_b's");
    fputc('\n', c->o);
    return true;
}

static bool busy(Ctx *c, unsigned grid, DevicePtr outp, DeviceStats *st)
{
    int iters = 1000;
    void *args[2] = {&outp, &iters};
    return launch(c->mod, "busy_blocks", grid, 256, 0, true, args, st, NULL) == SIM_OK;
}

static bool step_concurrency(Ctx *c, DevicePtr outp)
{
    fprintf(c->o, "6. One launch at a time.  busy_blocks: each thread runs a chain of 1,000 dependent\n"
                  "   multiply-adds.  A grid of %d blocks fills half of the %d SMs.\n"
                  "   Question: how much longer does a grid of %d blocks (twice the work) take?  What share\n"
                  "   of a launch is the launch itself?\n\n",
            SMS / 2, SMS, SMS);
    DeviceStats h, f;
    if (!busy(c, SMS / 2, outp, &h) || !busy(c, SMS, outp, &f))
        return false;
    double ratio = (double)f.cycles / (double)h.cycles;
    double over = (double)h.timing.launch_overhead / (double)h.cycles;
    fprintf(c->o, "     blocks   cycles   of which launch overhead\n"
                  "     %6d   %6llu   %6llu\n"
                  "     %6d   %6llu   %6llu\n\n"
                  "   Twice the work takes %.2fx the time; the launch overhead is %.0f%% of the %d-block launch.\n\n",
            SMS / 2, (unsigned long long)h.cycles, (unsigned long long)h.timing.launch_overhead, SMS,
            (unsigned long long)f.cycles, (unsigned long long)f.timing.launch_overhead, ratio, 100 * over, SMS / 2);
    check(c, ratio < 1.1, "twice the blocks take less than 1.1x the time: half the SMs were idle");
    check(c, over > 0.25, "the launch overhead is over a quarter of the short launch");
    fputc('\n', c->o);
    return true;
}

int lesson14_run(const LessonEnv *env)
{
    Ctx c = {.env = env, .o = env->out};
    if (!lesson_open_text(env, &c.dev, &c.mod, &c.ptx))
        return 2;
    fprintf(c.o, "Lesson 14: the host side (%s)\n\n", env->arch);
    DevicePtr outp = 0;
    bool ran = lesson_upload(c.dev, NULL, 2048 * sizeof(int), &outp) && step_target(&c) && step_modules(&c) &&
               step_params(&c, outp) && step_heap(&c) && step_attributes(&c, outp);
    DevicePtr big = 0;
    ran = ran && lesson_upload(c.dev, NULL, (size_t)SMS * 256 * sizeof(float), &big) && step_concurrency(&c, big);
    if (ran)
        fprintf(c.o, "Try it yourself: lessons/14-host-side/README.md has the commands to look closer, and\n"
                     "what the simulator cannot show: contexts, streams, events, PDL, managed memory.\n");
    device_close(c.dev);
    free(c.ptx);
    if (!ran)
        return 2;
    if (c.wrong)
        fprintf(c.o, "%d claim(s) did not hold in this build of the simulator.\n", c.wrong);
    return c.wrong ? 1 : 0;
}
