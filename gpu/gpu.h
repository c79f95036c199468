/* gpu.h: the real-GPU backend of the host API (sim/device.h).  It runs the
 * very PTX text the simulator interprets on an NVIDIA GPU through the CUDA
 * driver API, which it opens with dlopen("libcuda.so.1") at run time: no
 * link-time dependency, and on a machine without a driver it says so. */
#ifndef WARPSIM_GPU_H
#define WARPSIM_GPU_H

#include <stdbool.h>

#include "device.h"

/* Open GPU `ordinal` (0 for the first).  NULL with SIM_ERR_NODEVICE and a
 * one-line reason ("no CUDA driver found (libcuda.so.1): ...") when there
 * is no driver or no GPU; other failures name the driver call that failed. */
Device *device_open_gpu(int ordinal, SimError *err);

/* True when a CUDA driver can be loaded and reports at least one GPU. */
bool gpu_available(void);

/* True when d is a GPU opened by device_open_gpu (not the simulator). */
bool gpu_is_gpu(const Device *d);

/* What cuOccupancyMaxActiveBlocksPerMultiprocessor answers for kernel entry
 * of module m (loaded on a GPU device) with blocks of `block` threads and
 * dyn_smem bytes of dynamic shared memory: *out active blocks per SM.
 * SIM_ERR_USAGE when m is not on a GPU; SIM_ERR_NODEVICE naming the driver
 * call that failed. */
SimStatus gpu_occupancy_max_active_blocks(DeviceModule *m, const char *entry, int block, size_t dyn_smem,
                                          int *out, SimError *err);

/* The GPU's identity for a recording: its name ("NVIDIA H100 80GB HBM3"),
 * the kernel driver's version ("580.159.04", from /proc/driver/nvidia/version;
 * "unknown" when unreadable) and the CUDA version the driver supports
 * (cuDriverGetVersion: 13000 is 13.0).  SIM_ERR_USAGE when d is not a GPU. */
SimStatus gpu_device_info(Device *d, char *name, size_t name_cap, char *driver, size_t driver_cap,
                          int *cuda_version, SimError *err);

#endif
