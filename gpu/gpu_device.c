/* gpu_device.c: the GPU backend of the host API -- the same PTX text the
 * simulator runs, loaded with cuModuleLoadDataEx and launched with
 * cuLaunchKernel on a real NVIDIA GPU.  Every driver call is checked and a
 * failure names the call.  A fault inside a kernel (illegal address, trap)
 * becomes a DeviceFault; the driver reports no thread or line for it, and
 * the context is unusable afterwards until the device is reopened. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cuda_api.h"
#include "device_int.h"
#include "gpu.h"

typedef struct {
    Device base;
    const CudaApi *api;
    CUdevice dev;
    CUcontext ctx;
    bool broken;           /* a kernel fault destroyed the context */
    char name[128];
    CUmodule hold_mod;     /* hold_stream's kernel, loaded at the first timed launch */
    CUfunction hold_fn;
    bool hold_failed;      /* it could not be loaded: launches are timed without it */
} GpuDevice;

typedef struct {
    DeviceModule base;
    CUmodule mod;
} GpuModule;

static const DeviceOps gpu_ops;

static SimStatus drv_fail(GpuDevice *d, SimError *err, const char *call, CUresult r)
{
    char buf[256];
    return sim_error_set(err, SIM_ERR_NODEVICE, "", 0, 0, "%s failed: %s", call,
                         cuda_api_error(d ? d->api : NULL, r, buf, sizeof buf));
}

#define CHECK(d, err, call)                                  \
    do {                                                     \
        CUresult r_ = (call);                                \
        if (r_ != CUDA_SUCCESS)                              \
            return drv_fail((d), (err), #call, r_);          \
    } while (0)

static SimStatus usable(GpuDevice *d, SimError *err)
{
    if (d->broken)
        return sim_error_set(err, SIM_ERR_NODEVICE, "", 0, 0,
                             "the GPU context was lost after a kernel fault; close and reopen the device");
    CHECK(d, err, d->api->cuCtxSetCurrent(d->ctx));
    return SIM_OK;
}

bool gpu_available(void)
{
    const char *why;
    const CudaApi *api = cuda_api_load(&why);
    int n = 0;
    return api && api->cuInit(0) == CUDA_SUCCESS && api->cuDeviceGetCount(&n) == CUDA_SUCCESS && n > 0;
}

Device *device_open_gpu(int ordinal, SimError *err)
{
    const char *why;
    const CudaApi *api = cuda_api_load(&why);
    if (!api) {
        sim_error_set(err, SIM_ERR_NODEVICE, "", 0, 0, "%s", why);
        return NULL;
    }
    CUresult r = api->cuInit(0);
    int n = 0;
    if (r == CUDA_SUCCESS)
        r = api->cuDeviceGetCount(&n);
    if (r != CUDA_SUCCESS || n <= ordinal) {
        char buf[200];
        sim_error_set(err, SIM_ERR_NODEVICE, "", 0, 0, "no CUDA GPU found (%s)",
                      r != CUDA_SUCCESS ? cuda_api_error(api, r, buf, sizeof buf) : "the driver lists none");
        return NULL;
    }
    GpuDevice *d = calloc(1, sizeof *d);
    if (!d) {
        sim_error_set(err, SIM_ERR_NOMEM, "", 0, 0, "out of memory");
        return NULL;
    }
    d->api = api;
    d->base.ops = &gpu_ops;
    int major = 0, minor = 0, sms = 0;
    SimStatus st = SIM_OK;
    if ((r = api->cuDeviceGet(&d->dev, ordinal)) ||
        (r = api->cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, d->dev)) ||
        (r = api->cuDeviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, d->dev)) ||
        (r = api->cuDeviceGetAttribute(&sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, d->dev)) ||
        (r = api->cuDeviceGetName(d->name, (int)sizeof d->name, d->dev)) ||
        (r = api->cuDevicePrimaryCtxRetain(&d->ctx, d->dev)) || (r = api->cuCtxSetCurrent(d->ctx)))
        st = drv_fail(d, err, "opening the GPU", r);
    if (st) {
        free(d);
        return NULL;
    }
    d->base.prof = arch_find_cc(major, minor);
    snprintf(d->base.arch, sizeof d->base.arch, "sm_%d%d", major, minor);
    d->base.sm_count = sms;
    return &d->base;
}

static void gpu_close(Device *dd)
{
    GpuDevice *d = (GpuDevice *)dd;
    d->api->cuCtxSetCurrent(d->ctx);
    if (d->hold_mod && !d->broken)
        d->api->cuModuleUnload(d->hold_mod);
    for (DeviceModule *m = dd->modules, *n; m; m = n) {
        n = m->next;
        if (!d->broken)
            d->api->cuModuleUnload(((GpuModule *)m)->mod);
        ptx_module_free(m->ptx);
        free(m);
    }
    if (d->broken) /* a faulted context must be reset before the next use */
        d->api->cuDevicePrimaryCtxReset(d->dev);
    else
        d->api->cuDevicePrimaryCtxRelease(d->dev);
    free(d);
}

static SimStatus gpu_load(Device *dd, const char *path, const char *text, size_t len, PtxModule *ptx,
                          DeviceModule **out, SimError *err)
{
    GpuDevice *d = (GpuDevice *)dd;
    SimStatus st = usable(d, err);
    char *copy = st ? NULL : malloc(len + 1);
    GpuModule *m = st ? NULL : calloc(1, sizeof *m);
    if (!st && (!copy || !m))
        st = sim_error_set(err, SIM_ERR_NOMEM, path, 0, 0, "out of memory");
    if (st) {
        free(copy);
        free(m);
        ptx_module_free(ptx);
        return st;
    }
    memcpy(copy, text, len);
    copy[len] = 0;
    char log[4096] = "";
    int opts[2] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
    void *vals[2] = {log, (void *)(size_t)sizeof log};
    CUresult r = d->api->cuModuleLoadDataEx(&m->mod, copy, 2, opts, vals);
    free(copy);
    if (r != CUDA_SUCCESS) {
        char buf[256];
        sim_error_set(err, SIM_ERR_PARSE, path, 0, 0, "the GPU driver rejected the PTX: %s%s%s",
                      cuda_api_error(d->api, r, buf, sizeof buf), log[0] ? "\n" : "", log);
        free(m);
        ptx_module_free(ptx);
        return SIM_ERR_PARSE;
    }
    m->base.ptx = ptx;
    *out = &m->base;
    return SIM_OK;
}

/* Timing a launch with events alone measures the host too: the GPU, idle,
 * records the first event at once and then waits while the host makes the
 * launch call (tens of microseconds on the H100 for a first launch, more
 * than a lesson kernel runs).  So before the first event the stream gets a
 * head start -- one thread spinning on %globaltimer for HOLD_NS -- during
 * which the host queues both events and the launch; the GPU then goes from
 * the first event straight into the kernel.  This PTX is the backend's own
 * (it never reaches the simulator), not a second version of a kernel. */
#define HOLD_NS 200000
static const char hold_ptx[] =
    ".version 6.0\n.target sm_50\n.address_size 64\n"
    ".visible .entry warpsim_hold(.param .u64 ns)\n{\n"
    "  .reg .u64 %t0, %t1, %n, %d;\n  .reg .pred %p;\n"
    "  ld.param.u64 %n, [ns];\n  mov.u64 %t0, %globaltimer;\n"
    "SPIN:\n  mov.u64 %t1, %globaltimer;\n  sub.u64 %d, %t1, %t0;\n"
    "  setp.lt.u64 %p, %d, %n;\n  @%p bra SPIN;\n  ret;\n}\n";

/* Queue the head start on the default stream; false (launches go on,
 * timed as before) when its module cannot be loaded or launched. */
static bool hold_stream(GpuDevice *d)
{
    const CudaApi *api = d->api;
    if (!d->hold_fn && !d->hold_failed &&
        (api->cuModuleLoadDataEx(&d->hold_mod, hold_ptx, 0, NULL, NULL) != CUDA_SUCCESS ||
         api->cuModuleGetFunction(&d->hold_fn, d->hold_mod, "warpsim_hold") != CUDA_SUCCESS)) {
        d->hold_failed = true;
        d->hold_fn = NULL;
    }
    if (!d->hold_fn)
        return false;
    unsigned long long ns = HOLD_NS;
    void *args[] = {&ns};
    return api->cuLaunchKernel(d->hold_fn, 1, 1, 1, 1, 1, 1, 0, NULL, args, NULL) == CUDA_SUCCESS;
}

static SimStatus gpu_malloc(Device *dd, size_t bytes, DevicePtr *out, SimError *err)
{
    GpuDevice *d = (GpuDevice *)dd;
    SimStatus us = usable(d, err); /* err may be NULL: a caller that only wants the status */
    if (us)
        return us;
    CUdeviceptr p;
    CHECK(d, err, d->api->cuMemAlloc(&p, bytes ? bytes : 1));
    CHECK(d, err, d->api->cuMemsetD8(p, 0, bytes ? bytes : 1)); /* zeroed, as in the simulator */
    *out = p;
    return SIM_OK;
}

static SimStatus gpu_free(Device *dd, DevicePtr p, SimError *err)
{
    GpuDevice *d = (GpuDevice *)dd;
    SimStatus us = usable(d, err); /* err may be NULL: a caller that only wants the status */
    if (us)
        return us;
    CHECK(d, err, d->api->cuMemFree(p));
    return SIM_OK;
}

static SimStatus gpu_htod(Device *dd, DevicePtr dst, const void *src, size_t bytes, SimError *err)
{
    GpuDevice *d = (GpuDevice *)dd;
    SimStatus us = usable(d, err); /* err may be NULL: a caller that only wants the status */
    if (us)
        return us;
    CHECK(d, err, d->api->cuMemcpyHtoD(dst, src, bytes));
    return SIM_OK;
}

static SimStatus gpu_dtoh(Device *dd, void *dst, DevicePtr src, size_t bytes, SimError *err)
{
    GpuDevice *d = (GpuDevice *)dd;
    SimStatus us = usable(d, err); /* err may be NULL: a caller that only wants the status */
    if (us)
        return us;
    CHECK(d, err, d->api->cuMemcpyDtoH(dst, src, bytes));
    return SIM_OK;
}

static SimStatus get_function(GpuModule *m, const char *entry, CUfunction *f, SimError *err)
{
    GpuDevice *d = (GpuDevice *)m->base.dev;
    SimStatus us = usable(d, err); /* err may be NULL: a caller that only wants the status */
    if (us)
        return us;
    CHECK(d, err, d->api->cuModuleGetFunction(f, m->mod, entry));
    return SIM_OK;
}

static SimStatus gpu_set_attr(DeviceModule *mm, const char *entry, DeviceAttr a, int value, SimError *err)
{
    GpuModule *m = (GpuModule *)mm;
    GpuDevice *d = (GpuDevice *)mm->dev;
    CUfunction f;
    SimStatus gs = get_function(m, entry, &f, err);
    if (gs)
        return gs;
    if (a == DEVICE_ATTR_MAX_DYNAMIC_SMEM)
        CHECK(d, err, d->api->cuFuncSetAttribute(f, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, value));
    else
        CHECK(d, err, d->api->cuFuncSetAttribute(f, CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT, value));
    return SIM_OK;
}

/* Kernel faults the driver reports at synchronisation, by CUresult. */
static const char *fault_kind(CUresult r)
{
    switch (r) {
    case 700: return "illegal-address";
    case 710: return "trap"; /* device-side assert */
    case 714: return "hardware-stack-error";
    case 715: return "illegal-instruction";
    case 716: return "misaligned";
    case 717: return "invalid-address-space";
    case 718: return "invalid-pc";
    case 719: return "launch-failed";
    case 702: return "launch-timeout";
    default: return NULL;
    }
}

static SimStatus gpu_launch(DeviceModule *mm, const char *entry, const DeviceLaunch *cfg, void **args,
                            DeviceStats *stats, DeviceFault *fault, SimError *err)
{
    GpuModule *m = (GpuModule *)mm;
    GpuDevice *d = (GpuDevice *)mm->dev;
    const CudaApi *api = d->api;
    CUfunction f;
    SimStatus gs = get_function(m, entry, &f, err);
    if (gs)
        return gs;
    int regs = 0, ssmem = 0, lmem = 0;
    CHECK(d, err, api->cuFuncGetAttribute(&regs, CU_FUNC_ATTRIBUTE_NUM_REGS, f));
    CHECK(d, err, api->cuFuncGetAttribute(&ssmem, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, f));
    CHECK(d, err, api->cuFuncGetAttribute(&lmem, CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES, f));
    if (cfg->smem > 48 * 1024)
        CHECK(d, err, api->cuFuncSetAttribute(f, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, (int)cfg->smem));
    stats->regs_per_thread = regs;
    stats->static_smem = (uint64_t)ssmem;
    stats->local_bytes = (uint64_t)lmem;
    uint64_t nthreads = (uint64_t)cfg->block.x * cfg->block.y * cfg->block.z;
    stats->blocks = (uint64_t)cfg->grid.x * cfg->grid.y * cfg->grid.z;
    stats->threads = stats->blocks * nthreads;
    stats->warps = stats->blocks * ((nthreads + 31) / 32);
    bool cluster = cfg->cluster.x || cfg->cluster.y || cfg->cluster.z;
    int fi = device_entry_index(mm, entry);
    if (cluster && fi >= 0) { /* the size the kernel's __cluster_dims__ fixes needs no attribute */
        const int *k = mm->ptx->funcs[fi].reqnctapercluster;
        if (k[0] && (unsigned)k[0] == cfg->cluster.x && (unsigned)(k[1] ? k[1] : 1) == cfg->cluster.y &&
            (unsigned)(k[2] ? k[2] : 1) == cfg->cluster.z)
            cluster = false;
    }
    if (cluster && (cfg->cooperative || !api->cuLaunchKernelEx))
        return sim_error_set(err, SIM_ERR_USAGE, "", 0, 0, cfg->cooperative
                                 ? "a cluster launch cannot also be cooperative here (warpsim launches clusters "
                                   "through cuLaunchKernelEx with one attribute)"
                                 : "this driver has no cuLaunchKernelEx (CUDA 12 and later), which a cluster "
                                   "launch (--cluster) needs");
    if (cfg->cooperative) {
        /* the simulator's rule and words (device_sim.c), checked here first:
         * the driver's own refusal names no numbers */
        int coop = 0, per_sm = 0;
        CHECK(d, err, api->cuDeviceGetAttribute(&coop, CU_DEVICE_ATTRIBUTE_COOPERATIVE_LAUNCH, d->dev));
        if (!coop || !api->cuLaunchCooperativeKernel)
            return sim_error_set(err, SIM_ERR_USAGE, "", 0, 0, "this GPU (or its driver) has no cooperative launch");
        CHECK(d, err, api->cuOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, f, (int)nthreads, cfg->smem));
        uint64_t fit = (uint64_t)per_sm * (uint64_t)(d->base.sm_count > 0 ? d->base.sm_count : 1);
        if (stats->blocks > fit)
            return sim_error_set(err, SIM_ERR_USAGE, "", 0, 0,
                                 "a cooperative launch of %llu blocks needs them all resident at once, but %d "
                                 "SMs hold %d blocks each of this kernel (%llu in all): "
                                 "cudaErrorCooperativeLaunchTooLarge", (unsigned long long)stats->blocks,
                                 d->base.sm_count, per_sm, (unsigned long long)fit);
    }
    /* The kernel's own time: events recorded on the launch's stream just
     * before and after it (cuEventElapsedTime), not host wall time, which
     * adds the launch call and the synchronisation (several us: more than a
     * small lesson kernel takes).  The events change nothing in the PTX (one
     * PTX text on both sides, unlike %globaltimer read inside the kernel).
     * The stream's head start (hold_stream) keeps the host's launch call out
     * of the interval.  An event that cannot be made only leaves kernel_ms 0. */
    hold_stream(d);
    CUevent e0 = NULL, e1 = NULL;
    if (api->cuEventCreate(&e0, 0) != CUDA_SUCCESS || api->cuEventCreate(&e1, 0) != CUDA_SUCCESS ||
        api->cuEventRecord(e0, NULL) != CUDA_SUCCESS) {
        if (e0)
            api->cuEventDestroy(e0);
        if (e1)
            api->cuEventDestroy(e1);
        e0 = e1 = NULL;
    }
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    /* a cluster launch: cuLaunchKernelEx with the cluster dimension (a
     * kernel with __cluster_dims__ needs no attribute: cuLaunchKernel runs
     * its clusters) */
    CuLaunchAttribute ca = {.id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION};
    ca.value.cluster_dim.x = cfg->cluster.x;
    ca.value.cluster_dim.y = cfg->cluster.y;
    ca.value.cluster_dim.z = cfg->cluster.z;
    CuLaunchConfig lc = {cfg->grid.x, cfg->grid.y, cfg->grid.z, cfg->block.x, cfg->block.y, cfg->block.z,
                         cfg->smem, NULL, &ca, 1};
    CUresult lr = cluster ? api->cuLaunchKernelEx(&lc, f, args, NULL)
                  : cfg->cooperative
                      ? api->cuLaunchCooperativeKernel(f, cfg->grid.x, cfg->grid.y, cfg->grid.z, cfg->block.x,
                                                       cfg->block.y, cfg->block.z, cfg->smem, NULL, args)
                      : api->cuLaunchKernel(f, cfg->grid.x, cfg->grid.y, cfg->grid.z, cfg->block.x, cfg->block.y,
                                            cfg->block.z, cfg->smem, NULL, args, NULL);
    if (lr != CUDA_SUCCESS) {
        if (e0) {
            api->cuEventDestroy(e0);
            api->cuEventDestroy(e1);
        }
        return drv_fail(d, err, cluster ? "cuLaunchKernelEx (cluster dimension)"
                                : cfg->cooperative ? "cuLaunchCooperativeKernel" : "cuLaunchKernel", lr);
    }
    bool timed = e0 && api->cuEventRecord(e1, NULL) == CUDA_SUCCESS;
    CUresult r = api->cuCtxSynchronize();
    clock_gettime(CLOCK_MONOTONIC, &t1);
    stats->seconds = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
    float ms = 0;
    if (timed && r == CUDA_SUCCESS && api->cuEventSynchronize(e1) == CUDA_SUCCESS &&
        api->cuEventElapsedTime(&ms, e0, e1) == CUDA_SUCCESS)
        stats->kernel_ms = ms;
    if (e0 && r == CUDA_SUCCESS) { /* a faulted context is gone, its events with it */
        api->cuEventDestroy(e0);
        api->cuEventDestroy(e1);
    }
    if (r == CUDA_SUCCESS)
        return SIM_OK;
    const char *kind = fault_kind(r);
    if (!kind)
        return drv_fail(d, err, "cuCtxSynchronize", r);
    d->broken = true;
    fault->faulted = true;
    snprintf(fault->kind, sizeof fault->kind, "%s", kind);
    char buf[200];
    snprintf(fault->msg, sizeof fault->msg, "the GPU stopped the kernel: %s (the driver names no thread or "
             "line; run it in the simulator to find them)", cuda_api_error(api, r, buf, sizeof buf));
    fault->warp = fault->lane = -1;
    return SIM_ERR_FAULT;
}

bool gpu_is_gpu(const Device *d)
{
    return d && d->ops == &gpu_ops;
}

SimStatus gpu_occupancy_max_active_blocks(DeviceModule *mm, const char *entry, int block, size_t dyn_smem,
                                          int *out, SimError *err)
{
    if (!mm || !gpu_is_gpu(mm->dev))
        return sim_error_set(err, SIM_ERR_USAGE, "", 0, 0, "the occupancy API needs a module loaded on a GPU");
    GpuDevice *d = (GpuDevice *)mm->dev;
    CUfunction f;
    SimStatus gs = get_function((GpuModule *)mm, entry, &f, err);
    if (gs)
        return gs;
    if (dyn_smem > 48 * 1024) /* as gpu_launch: opted in to exactly what the launch asks */
        CHECK(d, err, d->api->cuFuncSetAttribute(f, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, (int)dyn_smem));
    CHECK(d, err, d->api->cuOccupancyMaxActiveBlocksPerMultiprocessor(out, f, block, dyn_smem));
    return SIM_OK;
}

SimStatus gpu_device_info(Device *dd, char *name, size_t name_cap, char *driver, size_t driver_cap,
                          int *cuda_version, SimError *err)
{
    if (!gpu_is_gpu(dd))
        return sim_error_set(err, SIM_ERR_USAGE, "", 0, 0, "not a GPU device");
    GpuDevice *d = (GpuDevice *)dd;
    snprintf(name, name_cap, "%s", d->name);
    *cuda_version = 0;
    CHECK(d, err, d->api->cuDriverGetVersion(cuda_version));
    snprintf(driver, driver_cap, "unknown");
    /* "NVRM version: NVIDIA UNIX x86_64 Kernel Module for 580.159.04  Release
     * Build ..." (older drivers leave out "for"): the first word after
     * "Kernel Module" that starts with a digit */
    FILE *f = fopen("/proc/driver/nvidia/version", "r");
    char line[512];
    if (f && fgets(line, sizeof line, f)) {
        const char *p = strstr(line, "Kernel Module");
        char v[64];
        int used = 0;
        if (p)
            p += strlen("Kernel Module");
        for (int k = 0; p && k < 3 && sscanf(p, " %63s%n", v, &used) == 1; k++, p += used)
            if (v[0] >= '0' && v[0] <= '9') {
                snprintf(driver, driver_cap, "%s", v);
                break;
            }
    }
    if (f)
        fclose(f);
    return SIM_OK;
}

static const char *gpu_printf_output(Device *dd)
{
    (void)dd;
    return ""; /* the driver prints device printf to standard output itself */
}

static const DeviceOps gpu_ops = {
    .name = "gpu",
    .close = gpu_close,
    .load = gpu_load,
    .malloc = gpu_malloc,
    .free = gpu_free,
    .htod = gpu_htod,
    .dtoh = gpu_dtoh,
    .set_attr = gpu_set_attr,
    .launch = gpu_launch,
    .printf_output = gpu_printf_output,
};
