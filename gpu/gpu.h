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

#endif
