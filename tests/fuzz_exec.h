/* fuzz_exec.h: the one launch recipe of the executor fuzzer (fuzz_exec.c)
 * and its corpus replay (test_exec_corpus.c), header-only so both link it.
 *
 * Load text as PTX on a fresh sm_90 simulator; for the first .entry give
 * every 8-byte parameter a fresh zeroed 4 KB buffer and every other one
 * (up to 64 bytes) the value 7, then launch grid (2,1,1) x block (64,1,1)
 * with 256 bytes of dynamic shared memory and a budget of 20000 warp
 * instructions.  The result is the launch status (faults are fine). */
#ifndef WARPSIM_FUZZ_EXEC_H
#define WARPSIM_FUZZ_EXEC_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "device.h"
#include "device_int.h"

#define FUZZ_EXEC_BUF 4096
#define FUZZ_EXEC_MAXP 64

static inline SimStatus fuzz_exec_run(const char *text, size_t len)
{
    SimError err;
    Device *d = device_open_sim("sm_90", &err);
    if (!d)
        return err.status;
    DeviceModule *m = NULL;
    SimStatus st = device_load_ptx(d, "fuzz.ptx", text, len, &m, &err);
    if (st != SIM_OK)
        goto done;
    const char *entry = NULL;
    for (int f = 0; f < m->ptx->n_funcs && !entry; f++)
        if (m->ptx->funcs[f].is_entry)
            entry = device_find_kernel(m, m->ptx->funcs[f].name, &err);
    if (!entry) {
        st = SIM_ERR_USAGE;
        goto done;
    }
    int np = device_kernel_nparams(m, entry);
    if (np < 0 || np > FUZZ_EXEC_MAXP) {
        st = SIM_ERR_USAGE;
        goto done;
    }
    static uint8_t vals[FUZZ_EXEC_MAXP][64];
    void *args[FUZZ_EXEC_MAXP];
    for (int i = 0; i < np; i++) {
        int sz = device_kernel_param_size(m, entry, i);
        memset(vals[i], 0, sizeof vals[i]);
        if (sz == 8) {
            DevicePtr p = 0;
            if (device_malloc(d, FUZZ_EXEC_BUF, &p, &err) != SIM_OK) {
                st = err.status;
                goto done;
            }
            memcpy(vals[i], &p, sizeof p);
        } else if (sz > 0 && sz <= 64) {
            vals[i][0] = 7;
        } else {
            st = SIM_ERR_USAGE;    /* a parameter larger than the recipe covers */
            goto done;
        }
        args[i] = vals[i];
    }
    DeviceLaunch cfg = { .grid = { 2, 1, 1 }, .block = { 64, 1, 1 },
                         .smem = 256, .inst_budget = 20000 };
    DeviceStats stats;
    DeviceFault fault;
    st = device_launch(m, entry, &cfg, args, &stats, &fault, &err);
done:
    device_close(d);
    return st;
}

#endif
