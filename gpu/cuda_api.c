/* cuda_api.c: opening the CUDA driver with dlopen and looking up the entry
 * points declared in cuda_api.h (versioned names where the driver has them). */
#include "cuda_api.h"

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

static CudaApi api;
static bool loaded, tried;
static char reason[256];

#define SYM(field, name)                                                        \
    do {                                                                        \
        *(void **)&api.field = dlsym(h, name);                                  \
        if (!api.field) {                                                       \
            snprintf(reason, sizeof reason, "the CUDA driver lacks %s", name);  \
            return NULL;                                                        \
        }                                                                       \
    } while (0)

const CudaApi *cuda_api_load(const char **why)
{
    if (tried) {
        *why = reason;
        return loaded ? &api : NULL;
    }
    tried = true;
    void *h = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        snprintf(reason, sizeof reason, "no CUDA driver found (libcuda.so.1): %s", dlerror());
        *why = reason;
        return NULL;
    }
    *why = reason;
    SYM(cuInit, "cuInit");
    SYM(cuDeviceGetCount, "cuDeviceGetCount");
    SYM(cuDeviceGet, "cuDeviceGet");
    SYM(cuDeviceGetAttribute, "cuDeviceGetAttribute");
    SYM(cuDeviceGetName, "cuDeviceGetName");
    SYM(cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain");
    SYM(cuDevicePrimaryCtxRelease, "cuDevicePrimaryCtxRelease_v2");
    SYM(cuDevicePrimaryCtxReset, "cuDevicePrimaryCtxReset_v2");
    SYM(cuCtxSetCurrent, "cuCtxSetCurrent");
    SYM(cuCtxSynchronize, "cuCtxSynchronize");
    SYM(cuModuleLoadDataEx, "cuModuleLoadDataEx");
    SYM(cuModuleUnload, "cuModuleUnload");
    SYM(cuModuleGetFunction, "cuModuleGetFunction");
    SYM(cuFuncGetAttribute, "cuFuncGetAttribute");
    SYM(cuFuncSetAttribute, "cuFuncSetAttribute");
    SYM(cuMemAlloc, "cuMemAlloc_v2");
    SYM(cuMemFree, "cuMemFree_v2");
    SYM(cuMemsetD8, "cuMemsetD8_v2");
    SYM(cuMemcpyHtoD, "cuMemcpyHtoD_v2");
    SYM(cuMemcpyDtoH, "cuMemcpyDtoH_v2");
    SYM(cuLaunchKernel, "cuLaunchKernel");
    SYM(cuGetErrorName, "cuGetErrorName");
    SYM(cuGetErrorString, "cuGetErrorString");
    SYM(cuDriverGetVersion, "cuDriverGetVersion");
    SYM(cuOccupancyMaxActiveBlocksPerMultiprocessor, "cuOccupancyMaxActiveBlocksPerMultiprocessor");
    SYM(cuEventCreate, "cuEventCreate");
    SYM(cuEventRecord, "cuEventRecord");
    SYM(cuEventSynchronize, "cuEventSynchronize");
    SYM(cuEventElapsedTime, "cuEventElapsedTime");
    SYM(cuEventDestroy, "cuEventDestroy_v2");
    *(void **)&api.cuLaunchCooperativeKernel = dlsym(h, "cuLaunchCooperativeKernel"); /* optional */
    *(void **)&api.cuLaunchKernelEx = dlsym(h, "cuLaunchKernelEx");                   /* optional */
    loaded = true;
    return &api;
}

const char *cuda_api_error(const CudaApi *a, CUresult r, char *buf, size_t cap)
{
    const char *name = NULL, *str = NULL;
    if (a) {
        a->cuGetErrorName(r, &name);
        a->cuGetErrorString(r, &str);
    }
    snprintf(buf, cap, "%s (%d): %s", name ? name : "CUDA error", r, str ? str : "unknown");
    return buf;
}
