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
    {4, "04-occupancy", "Occupancy and the L1/shared carveout", NULL, NULL},
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
        }
    }
    snprintf(buf, cap, "lessons");
    return is_dir(buf) ? buf : NULL;
}

bool lesson_open(const LessonEnv *env, Device **dev, DeviceModule **mod)
{
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
