/* cuda_api.h: the few CUDA driver API types, constants and entry points
 * warpsim uses, declared here so that building needs no CUDA toolkit; the
 * functions are looked up with dlsym (cuda_api.c).  Values are those of the
 * driver API's cuda.h (CUDA 13). */
#ifndef WARPSIM_CUDA_API_H
#define WARPSIM_CUDA_API_H

#include <stdbool.h>
#include <stddef.h>

typedef int CUresult;
typedef int CUdevice;
typedef struct CUctx_st *CUcontext;
typedef struct CUmod_st *CUmodule;
typedef struct CUfunc_st *CUfunction;
typedef struct CUstream_st *CUstream;
typedef unsigned long long CUdeviceptr;
typedef struct CUevent_st *CUevent;

#define CUDA_SUCCESS 0
#define CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT 16
#define CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR 75
#define CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR 76
#define CU_DEVICE_ATTRIBUTE_COOPERATIVE_LAUNCH 95
#define CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE 720
#define CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES 1
#define CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES 3
#define CU_FUNC_ATTRIBUTE_NUM_REGS 4
#define CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES 8
#define CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT 9
#define CUDA_ERROR_INVALID_CLUSTER_SIZE 912
#define CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION 4
#define CU_JIT_ERROR_LOG_BUFFER 5
#define CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES 6

/* cuLaunchKernelEx's configuration (cuda.h's CUlaunchAttribute and
 * CUlaunchConfig, CUDA 12: the id padded to 8 bytes, a 64-byte value union). */
typedef struct {
    int id;                  /* CU_LAUNCH_ATTRIBUTE_* */
    char pad[4];
    union {
        char pad[64];
        struct { unsigned x, y, z; } cluster_dim; /* CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION */
        void *align;
    } value;
} CuLaunchAttribute;
typedef struct {
    unsigned grid_x, grid_y, grid_z, block_x, block_y, block_z, smem;
    CUstream stream;
    CuLaunchAttribute *attrs;
    unsigned nattrs;
} CuLaunchConfig;

/* The driver entry points, filled by cuda_api_load(). */
typedef struct {
    CUresult (*cuInit)(unsigned);
    CUresult (*cuDeviceGetCount)(int *);
    CUresult (*cuDeviceGet)(CUdevice *, int);
    CUresult (*cuDeviceGetAttribute)(int *, int, CUdevice);
    CUresult (*cuDeviceGetName)(char *, int, CUdevice);
    CUresult (*cuDevicePrimaryCtxRetain)(CUcontext *, CUdevice);
    CUresult (*cuDevicePrimaryCtxRelease)(CUdevice);
    CUresult (*cuDevicePrimaryCtxReset)(CUdevice);
    CUresult (*cuCtxSetCurrent)(CUcontext);
    CUresult (*cuCtxSynchronize)(void);
    CUresult (*cuModuleLoadDataEx)(CUmodule *, const void *, unsigned, int *, void **);
    CUresult (*cuModuleUnload)(CUmodule);
    CUresult (*cuModuleGetFunction)(CUfunction *, CUmodule, const char *);
    CUresult (*cuFuncGetAttribute)(int *, int, CUfunction);
    CUresult (*cuFuncSetAttribute)(CUfunction, int, int);
    CUresult (*cuMemAlloc)(CUdeviceptr *, size_t);
    CUresult (*cuMemFree)(CUdeviceptr);
    CUresult (*cuMemsetD8)(CUdeviceptr, unsigned char, size_t);
    CUresult (*cuMemcpyHtoD)(CUdeviceptr, const void *, size_t);
    CUresult (*cuMemcpyDtoH)(void *, CUdeviceptr, size_t);
    CUresult (*cuLaunchKernel)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                               unsigned, CUstream, void **, void **);
    /* cudaLaunchCooperativeKernel's driver call: every block resident at
     * once, and the grid barrier's workspace set up; NULL when the driver
     * lacks it (looked up without failing the load) */
    CUresult (*cuLaunchCooperativeKernel)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                                          unsigned, CUstream, void **);
    /* cudaLaunchKernelEx's driver call, for a cluster launch (CUDA 12 and
     * later); NULL when the driver lacks it (looked up without failing) */
    CUresult (*cuLaunchKernelEx)(const CuLaunchConfig *, CUfunction, void **, void **);
    CUresult (*cuGetErrorName)(CUresult, const char **);
    CUresult (*cuGetErrorString)(CUresult, const char **);
    CUresult (*cuDriverGetVersion)(int *);
    CUresult (*cuOccupancyMaxActiveBlocksPerMultiprocessor)(int *, CUfunction, int, size_t);
    CUresult (*cuEventCreate)(CUevent *, unsigned);
    CUresult (*cuEventRecord)(CUevent, CUstream);
    CUresult (*cuEventSynchronize)(CUevent);
    CUresult (*cuEventElapsedTime)(float *, CUevent, CUevent);
    CUresult (*cuEventDestroy)(CUevent);
} CudaApi;

/* Load libcuda.so.1 and every entry point once.  NULL when impossible;
 * then *why says why in one line. */
const CudaApi *cuda_api_load(const char **why);

/* "CUDA_ERROR_ILLEGAL_ADDRESS: an illegal memory access was encountered" */
const char *cuda_api_error(const CudaApi *api, CUresult r, char *buf, size_t cap);

#endif
