/* timing_coalescer.c: one warp's memory access as the L1 sees it -- the
 * 128-byte lines and 32-byte sectors its lanes touch.  A warp reading 32
 * consecutive floats touches 1 line and 4 sectors; the same warp reading
 * with a stride of 32 floats touches 32 lines, 32 sectors.  The L1 works
 * line by line (timing_lsu.c), DRAM and L2 traffic is counted in sectors. */
#include <string.h>

#include "timing.h"

/* Lines are found again through a small open-addressed table (a warp's 32
 * lanes touch at most 64 lines; a scattered access would otherwise compare
 * each lane with every line before it). */
#define SLOTS 128

void timing_coalesce(uint32_t mask, const uint64_t addr[32], unsigned size, TimingAccess *out)
{
    out->nlines = out->nsectors = 0;
    if (size < 1)
        size = 1;
    if (size > 128)
        size = 128;
    int8_t slot[SLOTS];
    memset(slot, -1, sizeof slot);
    for (uint32_t r = mask; r; r &= r - 1) {
        int l = __builtin_ctz(r);
        uint64_t first = addr[l] >> 5, last = (addr[l] + size - 1) >> 5;
        for (uint64_t s = first; s <= last; s++) {
            uint64_t line = s >> 2;
            int i = out->nlines - 1;
            if (i < 0 || out->line[i] != line) { /* not the line the lane before used */
                unsigned h = (unsigned)((line * 0x9e3779b97f4a7c15ull) >> 57);
                while (slot[h] >= 0 && out->line[slot[h]] != line)
                    h = (h + 1) & (SLOTS - 1);
                if (slot[h] < 0) {
                    if (out->nlines == TIMING_MAX_LINES)
                        continue; /* cannot happen: 32 lanes x 128 bytes span at most 64 lines */
                    slot[h] = (int8_t)out->nlines;
                    out->line[out->nlines] = line;
                    out->sectors[out->nlines++] = 0;
                }
                i = slot[h];
            }
            uint8_t bit = (uint8_t)(1u << (s & 3));
            if (!(out->sectors[i] & bit)) {
                out->sectors[i] |= bit;
                out->nsectors++;
            }
        }
    }
}
