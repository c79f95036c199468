/* device_int.h: what a backend of the host API (device.h) implements.
 *
 * device.c holds the backend-independent part -- kernel lookup by plain or
 * mangled name, parameter sizes (from the parsed PTX, the same for every
 * backend) and launch-shape validation -- and calls a backend through
 * DeviceOps for everything else.  A backend embeds Device and DeviceModule
 * as the first member of its own structs.  Backends: the simulator
 * (device_sim.c) and the GPU (gpu/gpu_device.c). */
#ifndef WARPSIM_DEVICE_INT_H
#define WARPSIM_DEVICE_INT_H

#include "arch.h"
#include "device.h"
#include "ptx.h"

typedef struct {
    const char *name; /* "simulator", "gpu" */
    void (*close)(Device *d);
    /* Load text; ptx is its parse, which the backend takes over (also on
     * failure) and keeps reachable as DeviceModule.ptx. */
    SimStatus (*load)(Device *d, const char *path, const char *text, size_t len, PtxModule *ptx,
                      DeviceModule **out, SimError *err);
    SimStatus (*malloc)(Device *d, size_t bytes, DevicePtr *out, SimError *err);
    SimStatus (*free)(Device *d, DevicePtr p, SimError *err);
    SimStatus (*htod)(Device *d, DevicePtr dst, const void *src, size_t bytes, SimError *err);
    SimStatus (*dtoh)(Device *d, void *dst, DevicePtr src, size_t bytes, SimError *err);
    SimStatus (*set_attr)(DeviceModule *m, const char *entry, DeviceAttr a, int value, SimError *err);
    /* cfg's grid and block are already validated. */
    SimStatus (*launch)(DeviceModule *m, const char *entry, const DeviceLaunch *cfg, void **args,
                        DeviceStats *stats, DeviceFault *fault, SimError *err);
    const char *(*printf_output)(Device *d);
} DeviceOps;

struct Device {
    const DeviceOps *ops;
    char arch[16];               /* "sm_90" */
    const ArchProfile *prof;
    int sm_count;
    uint64_t mem_limit;          /* device_set_memory_limit: bytes, 0 none */
    uint64_t printf_limit;       /* device_set_printf_limit: bytes, 0 none */
    int threads;                 /* device_set_threads: 1 (or 0) one thread */
    DeviceModule *modules;       /* every loaded module, newest first */
    /* What the last launch found (filled by the backend; device.c reads). */
    DeviceRace races[DEVICE_MAX_RACES];
    int n_races;
    DeviceAtomicLog alog[DEVICE_ATOMIC_LOG_ADDRS];
    int n_alog;
};

struct DeviceModule {
    Device *dev;
    PtxModule *ptx;              /* the parsed text: entries and parameters (owned by the backend) */
    DeviceModule *next;
};

/* Index of entry `name` in m->ptx (exact entry name), or -1. */
int device_entry_index(const DeviceModule *m, const char *name);

#endif
