/* carveout.h: the unified L1/shared-memory split of one SM.  A kernel's
 * preferred carveout (cudaFuncAttributePreferredSharedMemoryCarveout: -1 for
 * the default, else a percentage of the largest shared-memory capacity)
 * becomes one of the capacities the hardware supports, rounded up; L1 gets
 * the rest of the unified data cache.  Used by the occupancy model and the
 * simulated L1.  See lessons/04-occupancy. */
#ifndef WARPSIM_CARVEOUT_H
#define WARPSIM_CARVEOUT_H

#include <stddef.h>

#include "arch.h"
#include "error.h"

#define CARVEOUT_DEFAULT    (-1)   /* cudaSharedmemCarveoutDefault */
#define CARVEOUT_MAX_L1     0      /* cudaSharedmemCarveoutMaxL1 */
#define CARVEOUT_MAX_SHARED 100    /* cudaSharedmemCarveoutMaxShared */

/* The legacy cudaFuncSetCacheConfig preference, consulted only when the
 * carveout is the default. */
typedef enum {
    CARVEOUT_CACHE_PREFER_NONE = 0,
    CARVEOUT_CACHE_PREFER_SHARED,  /* acts as carveout 100 */
    CARVEOUT_CACHE_PREFER_L1,      /* acts as carveout 0 */
    CARVEOUT_CACHE_PREFER_EQUAL    /* acts as carveout 50 */
} CarveoutCacheConfig;

/* Round bytes up to the smallest capacity the arch supports that holds it
 * (0 stays 0 where 0 is supported).  SIM_OK and *out set, or SIM_ERR_USAGE
 * when bytes exceeds the largest capacity. */
SimStatus carveout_round_up(const ArchProfile *a, size_t bytes, size_t *out,
                            SimError *err);

/* The preference a kernel effectively has: pref itself, or, when pref is
 * CARVEOUT_DEFAULT, what the legacy cache config maps to (still -1 for
 * PREFER_NONE).  SIM_ERR_USAGE when pref is outside -1..100. */
SimStatus carveout_effective(int pref, CarveoutCacheConfig cache, int *out,
                             SimError *err);

/* The shared-memory capacity the occupancy API assumes for a preference:
 * the default gives smem_per_sm; a percentage P gives
 * floor(P * smem_per_sm / 100) rounded up to a supported capacity.  So 50%
 * is 64 KB on sm_120 and 100 KB on sm_80.  SIM_ERR_USAGE for pref outside
 * -1..100. */
SimStatus carveout_capacity(const ArchProfile *a, int pref,
                            CarveoutCacheConfig cache, size_t *smem,
                            SimError *err);

/* L1 bytes left in the unified cache when shared memory takes smem (0 when
 * smem is larger than the cache). */
size_t carveout_l1(const ArchProfile *a, size_t smem);

/* Parse a carveout as a user writes it: "default", "maxl1", "maxshared",
 * "half", or an integer 0..100 with an optional '%'.  SIM_ERR_USAGE with a
 * message naming the accepted forms otherwise. */
SimStatus carveout_parse(const char *text, int *pref, SimError *err);

/* "default", "maxl1", "maxshared" or "N%" into buf (cap >= 8).  Returns buf. */
char *carveout_format(int pref, char *buf, size_t cap);

#endif
