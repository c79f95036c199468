/* ptxas.h: a kernel's resource usage as the real compiler reports it
 * (`ptxas -v --gpu-name sm_XX`), for the occupancy model and the tools
 * that compare simulated with measured occupancy. */
#ifndef WARPSIM_PTXAS_H
#define WARPSIM_PTXAS_H

/* What ptxas said about one kernel. */
typedef struct {
    char name[256];           /* the PTX entry name */
    int regs, barriers;
    long long smem, stack, spill_stores, spill_loads;
} PtxasInfo;

/* Compile the PTX file ptx for sm ("sm_90") with ptxas -v (and
 * --maxrregcount when maxrreg > 0) and fill *info for the kernel called
 * kernel (entry name, or the plain name of a mangled one).  Returns 0, or 2
 * after printing the reason to stderr (no toolkit, ptxas failed, no such or
 * several such kernels). */
int ptxas_query(const char *ptx, const char *kernel, const char *sm, int maxrreg, PtxasInfo *info);

#endif
