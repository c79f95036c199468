/* synth.h: a synthetic kernel with exactly the resources asked for, for
 * measuring residency (`warpsim occupancy --measure`, gpu/measure.h).  Its
 * PTX has R registers per thread as ptxas and cuFuncGetAttribute count
 * them, S bytes of static shared memory, room for any dynamic shared
 * memory, and a body that waits a given time on %globaltimer so that the
 * blocks resident on an SM overlap.  It does no other work. */
#ifndef WARPSIM_SYNTH_H
#define WARPSIM_SYNTH_H

#include <stddef.h>

#include "error.h"

/* The kernel's entry name, and its parameters in order:
 *   .u64 vals     a global buffer of SYNTH_VALS u32 (zero is fine): values
 *                 loaded with ld.volatile to keep registers live;
 *   .u64 out      0; never written unless nonzero (keeps the values used);
 *   .u64 wait_ns  how long each block waits, in %globaltimer nanoseconds. */
#define SYNTH_ENTRY "__warpsim_synth"
#define SYNTH_VALS 272

/* Lowest register count .maxnreg gives on sm_90 (ptxas raises less to 24);
 * below it the kernel carries fewer live values instead, calibrated with
 * ptxas 13.0 -- check what the driver reports. */
#define SYNTH_MAXNREG_MIN 24

/* The PTX text for arch ("sm_90"): regs registers per thread (1..255; below
 * SYNTH_MAXNREG_MIN a best effort), smem_static bytes (0..49152) of static
 * shared memory.  A malloc'd NUL-terminated text (*len bytes), or NULL with
 * SIM_ERR_USAGE for values out of range or SIM_ERR_NOMEM. */
char *synth_ptx(const char *arch, int regs, size_t smem_static, size_t *len, SimError *err);

#endif
