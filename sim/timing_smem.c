/* timing_smem.c: the shared-memory unit's cost of one warp access.  32
 * banks of 4-byte words serve one word each per cycle (a wavefront); lanes
 * reading the same word share it (broadcast).  Accesses wider than 4 bytes
 * go in phases of 128 bytes: half warps for 8 bytes, quarter warps for 16.
 * Stride 1 takes 1 wavefront, stride 2 takes 2, stride 32 takes 32, stride
 * 33 takes 1 again (see lessons and docs/timing.md).  Also the trace's
 * bank-conflict degree (exec_trace.c). */
#include <string.h>

#include "timing.h"

int timing_smem_wavefronts(uint32_t m, const uint64_t addr[32], unsigned size, int *degree, int *phases)
{
    int per_phase = size <= 4 ? 32 : (int)(128 / size);
    if (per_phase < 1)
        per_phase = 1;
    int worst = m ? 1 : 0, total = 0, nph = 0;
    for (int p0 = 0; p0 < 32; p0 += per_phase) {
        uint32_t pm = m >> p0 & (per_phase == 32 ? 0xffffffffu : ((1u << per_phase) - 1));
        if (!pm)
            continue;
        uint64_t words[32][32];
        int n[32];
        memset(n, 0, sizeof n);
        int phase_worst = 1;
        for (int l = p0; l < p0 + per_phase && l < 32; l++) {
            if (!(m >> l & 1))
                continue;
            uint64_t w0 = addr[l] / 4, w1 = (addr[l] + (size ? size : 1) - 1) / 4;
            for (uint64_t wd = w0; wd <= w1 && wd - w0 < 32; wd++) {
                int b = (int)(wd % 32), k;
                for (k = 0; k < n[b] && words[b][k] != wd; k++)
                    ;
                if (k == n[b] && n[b] < 32)
                    words[b][n[b]++] = wd;
                if (n[b] > phase_worst)
                    phase_worst = n[b];
            }
        }
        nph++;
        total += phase_worst;
        if (phase_worst > worst)
            worst = phase_worst;
    }
    if (degree)
        *degree = worst > 32 ? 32 : worst;
    if (phases)
        *phases = nph;
    return total;
}
