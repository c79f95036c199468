/* harness.h: what the end-to-end tests share -- one device per test (the
 * simulator, or with WARPSIM_BACKEND=gpu a real GPU, so the same tests and
 * the same C references run on hardware), loading PTX, moving buffers.
 * Every helper fails the current cmocka test with the reason. */
#ifndef WARPSIM_TEST_HARNESS_H
#define WARPSIM_TEST_HARNESS_H

#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "device.h"
#include "gpu.h"
#include "source.h"

static Device *dev;
static bool on_gpu __attribute__((unused));

/* Checks that only mean something in the simulator (statistics, faults). */
#define SIM_ONLY(...) do { if (!on_gpu) { __VA_ARGS__; } } while (0)
#define SIM_ONLY_TEST() do { if (on_gpu) skip(); } while (0)

/* cmocka fixtures: open the device for one test, close it after. */
static inline int harness_setup(void **s)
{
    (void)s;
    SimError err;
    const char *be = getenv("WARPSIM_BACKEND");
    on_gpu = be && !strcmp(be, "gpu");
    dev = on_gpu ? device_open_gpu(0, &err) : device_open_sim("sm_90", &err);
    if (!dev) {
        fprintf(stderr, "%s: %s\n", on_gpu ? "device_open_gpu" : "device_open_sim", err.msg);
        return -1;
    }
    return 0;
}

/* For tests of simulator-only features (traces, internals): always the
 * simulator, whatever WARPSIM_BACKEND says. */
static inline int harness_setup_sim(void **s)
{
    (void)s;
    SimError err;
    on_gpu = false;
    dev = device_open_sim("sm_90", &err);
    return dev ? 0 : -1;
}

static inline int harness_teardown(void **s)
{
    (void)s;
    device_close(dev);
    dev = NULL;
    return 0;
}

/* Load PTX text (named name in messages) or a .ptx file. */
static inline DeviceModule *load_text(const char *name, const char *text)
{
    DeviceModule *m = NULL;
    SimError err;
    if (device_load_ptx(dev, name, text, strlen(text), &m, &err) != SIM_OK)
        fail_msg("%s: %s (line %d)", name, err.msg, err.line);
    return m;
}

static inline DeviceModule *load_file(const char *path)
{
    char msg[256];
    size_t n;
    char *text = source_read_file(path, &n, msg, sizeof msg);
    if (!text)
        fail_msg("%s (run the tests from the repository root)", msg);
    DeviceModule *m = load_text(path, text);
    free(text);
    return m;
}

static inline DevicePtr dalloc(size_t bytes)
{
    DevicePtr p;
    SimError err;
    if (device_malloc(dev, bytes, &p, &err) != SIM_OK)
        fail_msg("device_malloc: %s", err.msg);
    return p;
}

/* A new buffer holding bytes from src (left as allocated when src is NULL). */
static inline DevicePtr up(const void *src, size_t bytes)
{
    DevicePtr p = dalloc(bytes);
    SimError err;
    if (src && device_memcpy_htod(dev, p, src, bytes, &err) != SIM_OK)
        fail_msg("htod: %s", err.msg);
    return p;
}

static inline void down(void *dst, DevicePtr src, size_t bytes)
{
    SimError err;
    if (device_memcpy_dtoh(dev, dst, src, bytes, &err) != SIM_OK)
        fail_msg("dtoh: %s", err.msg);
}

#endif
