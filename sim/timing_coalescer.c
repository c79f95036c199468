/* timing_coalescer.c: one warp's memory access as the L1 sees it -- the
 * 128-byte lines and 32-byte sectors its lanes touch.  A warp reading 32
 * consecutive floats touches 1 line and 4 sectors; the same warp reading
 * with a stride of 32 floats touches 32 lines, 32 sectors.  The L1 works
 * line by line (timing_lsu.c), DRAM and L2 traffic is counted in sectors. */
#include "timing.h"

static void add(TimingAccess *a, uint64_t line, int sector)
{
    for (int i = a->nlines - 1; i >= 0; i--)
        if (a->line[i] == line) {
            if (!(a->sectors[i] >> sector & 1)) {
                a->sectors[i] |= (uint8_t)(1u << sector);
                a->nsectors++;
            }
            return;
        }
    if (a->nlines == TIMING_MAX_LINES)
        return; /* cannot happen: 32 lanes x 128 bytes span at most 64 lines */
    a->line[a->nlines] = line;
    a->sectors[a->nlines++] = (uint8_t)(1u << sector);
    a->nsectors++;
}

void timing_coalesce(uint32_t mask, const uint64_t addr[32], unsigned size, TimingAccess *out)
{
    out->nlines = out->nsectors = 0;
    if (size < 1)
        size = 1;
    if (size > 128)
        size = 128;
    for (uint32_t r = mask; r; r &= r - 1) {
        int l = __builtin_ctz(r);
        uint64_t first = addr[l] >> 5, last = (addr[l] + size - 1) >> 5;
        for (uint64_t s = first; s <= last; s++)
            add(out, s >> 2, (int)(s & 3));
    }
}
