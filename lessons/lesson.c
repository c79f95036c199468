/* lesson.c: the lesson registry and what every harness needs: finding the
 * lessons folder, loading a lesson's PTX into the simulator, launching. */
#include "lesson.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "report.h"
#include "source.h"

static const Lesson lessons[] = {
    {1, "01-threads-and-races", "Threads, blocks, warps -- and a race", lesson01_run, &lesson01_exercise},
    {2, "02-warps", "Warp-level programming: shuffles, votes, masks", lesson02_run, &lesson02_exercise},
    {3, "03-atomics", "Atomics: contention, scope, order", lesson03_run, &lesson03_exercise},
    {4, "04-occupancy", "Occupancy and the L1/shared carveout", lesson04_run, &lesson04_exercise},
    {5, "05-access-patterns", "Access patterns: sectors and coalescing, bank conflicts, transpose", lesson05_run,
     &lesson05_exercise},
    {6, "06-latency-throughput", "Latency and throughput: ILP against TLP, bytes in flight, instruction cost",
     lesson06_run, &lesson06_exercise},
    {7, "07-caches-carveout", "Caches and the L1/shared carveout: reuse, carveout, L2, latency hiding", lesson07_run,
     &lesson07_exercise},
    {8, "08-memory-ordering", "Memory ordering and barriers: fences, the last block, cuda::barrier", lesson08_run,
     &lesson08_exercise},
    {9, "09-async-copies", "Asynchronous copies and pipelines: cp.async, double buffering, the wait", lesson09_run,
     &lesson09_exercise},
    {10, "10-cooperative-groups", "Cooperative groups: tiles, grid sync, co-residency, CUB", lesson10_run,
     &lesson10_exercise},
    {11, "11-clusters", "Thread block clusters: one GPC, distributed shared memory, cluster.sync()", lesson11_run,
     &lesson11_exercise},
    {12, "12-atomics", "All the atomics: and/or/xor/max/min, CAS loops, scopes, orders", lesson12_run, &lesson12_exercise},
    {13, "13-tiles", "Tile programming: tiles, tile spaces, tile atomics", lesson13_run, &lesson13_exercise},
    {14, "14-host-side", "The host side: PTX targets, modules, parameters, the device heap, attributes",
     lesson14_run, &lesson14_exercise},
};

int lesson_count(void)
{
    return (int)(sizeof lessons / sizeof *lessons);
}

const Lesson *lesson_at(int i)
{
    return i >= 0 && i < lesson_count() ? &lessons[i] : NULL;
}

const Lesson *lesson_find(const char *name)
{
    char *end;
    long n = strtol(name, &end, 10);
    for (int i = 0; i < lesson_count(); i++) {
        if (!strcmp(lessons[i].slug, name))
            return &lessons[i];
        if (*end == 0 && end != name && n == lessons[i].number)
            return &lessons[i];
    }
    return NULL;
}

static bool is_dir(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

char *lesson_root(char *buf, size_t cap)
{
    const char *env = getenv("WARPSIM_LESSONS");
    if (env && is_dir(env)) {
        snprintf(buf, cap, "%s", env);
        return buf;
    }
    char exe[1024];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n > 0) {
        exe[n] = 0;
        /* build/warpsim, build/asan/warpsim, ...: walk up to a folder with lessons/ */
        for (int up = 0; up < 4; up++) {
            char *slash = strrchr(exe, '/');
            if (!slash)
                break;
            *slash = 0;
            snprintf(buf, cap, "%s/lessons", exe);
            if (is_dir(buf))
                return buf;
            snprintf(buf, cap, "%s/share/warpsim/lessons", exe); /* make install's PREFIX */
            if (is_dir(buf))
                return buf;
        }
    }
    snprintf(buf, cap, "lessons");
    return is_dir(buf) ? buf : NULL;
}

char *lesson_include_dir(char *buf, size_t cap)
{
    char root[4096];
    if (!lesson_root(root, sizeof root))
        return NULL;
    int n = snprintf(buf, cap, "%s/include", root);
    return n > 0 && (size_t)n < cap && is_dir(buf) ? buf : NULL;
}

bool lesson_open(const LessonEnv *env, Device **dev, DeviceModule **mod)
{
    return lesson_open_text(env, dev, mod, NULL);
}

bool lesson_open_text(const LessonEnv *env, Device **dev, DeviceModule **mod, char **text)
{
    if (text)
        *text = NULL;
    SimError err;
    sim_error_clear(&err);
    *dev = device_open_sim(env->arch, &err);
    if (!*dev) {
        fprintf(stderr, "warpsim lesson: %s\n", err.msg);
        return false;
    }
    char path[1200], msg[512];
    snprintf(path, sizeof path, "%s/kernel.ptx", env->dir);
    size_t len;
    char *ptx = source_read_file(path, &len, msg, sizeof msg);
    if (!ptx) {
        fprintf(stderr, "warpsim lesson: %s\n", msg);
        device_close(*dev);
        return false;
    }
    if (device_load_ptx(*dev, path, ptx, len, mod, &err)) {
        report_error(stderr, &err, ptx, len);
        free(ptx);
        device_close(*dev);
        return false;
    }
    if (text)
        *text = ptx;
    else
        free(ptx);
    return true;
}

bool lesson_launch(Device *dev, DeviceModule *mod, const char *kernel, unsigned grid, unsigned block,
                   void **args, DeviceStats *stats)
{
    (void)dev;
    SimError err;
    sim_error_clear(&err);
    DeviceFault fault;
    DeviceLaunch cfg = {.grid = {grid, 1, 1}, .block = {block, 1, 1}};
    SimStatus st = device_launch(mod, kernel, &cfg, args, stats, &fault, &err);
    if (st == SIM_ERR_FAULT) {
        report_fault(stderr, &fault);
        return false;
    }
    if (st) {
        fprintf(stderr, "warpsim lesson: %s: %s\n", kernel, err.msg);
        return false;
    }
    return true;
}

SimStatus lesson_launch_cfg(DeviceModule *mod, const char *kernel, const DeviceLaunch *cfg, void **args,
                            DeviceStats *stats, DeviceFault *fault)
{
    SimError err;
    sim_error_clear(&err);
    SimStatus st = device_launch(mod, kernel, cfg, args, stats, fault, &err);
    if (st && st != SIM_ERR_FAULT)
        fprintf(stderr, "warpsim lesson: %s: %s\n", kernel, err.msg);
    return st;
}

bool lesson_upload(Device *dev, const void *src, size_t bytes, DevicePtr *out)
{
    SimError err;
    sim_error_clear(&err);
    if (device_malloc(dev, bytes, out, &err) || (src && device_memcpy_htod(dev, *out, src, bytes, &err))) {
        fprintf(stderr, "warpsim lesson: %s\n", err.msg);
        return false;
    }
    return true;
}

bool lesson_download(Device *dev, void *dst, DevicePtr src, size_t bytes)
{
    SimError err;
    sim_error_clear(&err);
    if (device_memcpy_dtoh(dev, dst, src, bytes, &err)) {
        fprintf(stderr, "warpsim lesson: %s\n", err.msg);
        return false;
    }
    return true;
}

SimStatus lesson_run32(Device *dev, DeviceModule *mod, LessonLaunch *l, void *out[4], DeviceStats *stats,
                       DeviceFault *fault)
{
    DevicePtr ptrs[5];
    void *args[7];
    int na = 0, nb = 0;
    SimStatus rc = SIM_ERR_USAGE;
    DeviceFault scratch;
    if (l->nout > 4 || l->nscalar > 2)
        return rc;
    if (l->in) {
        if (!lesson_upload(dev, l->in, (size_t)l->n_in * 4, &ptrs[nb]))
            return rc;
        args[na++] = &ptrs[nb++];
    }
    for (int k = 0; k < l->nout; k++) {
        if (!lesson_upload(dev, NULL, (size_t)l->out_n[k] * 4, &ptrs[nb]))
            goto done;
        args[na++] = &ptrs[nb++];
    }
    for (int k = 0; k < l->nscalar; k++)
        args[na++] = &l->scalar[k];
    l->cfg.grid = (DeviceDim3){l->grid, 1, 1};
    l->cfg.block = (DeviceDim3){l->block, 1, 1};
    rc = lesson_launch_cfg(mod, l->kernel, &l->cfg, args, stats, fault ? fault : &scratch);
    if (rc == SIM_OK || rc == SIM_ERR_FAULT) {
        for (int k = 0; k < l->nout; k++)
            if (!lesson_download(dev, out[k], ptrs[(l->in ? 1 : 0) + k], (size_t)l->out_n[k] * 4))
                rc = SIM_ERR_USAGE;
        if (l->in && l->in_back && !lesson_download(dev, l->in_back, ptrs[0], (size_t)l->n_in * 4))
            rc = SIM_ERR_USAGE;
    }
done:
    for (int k = 0; k < nb; k++)
        device_free(dev, ptrs[k], NULL);
    return rc;
}
