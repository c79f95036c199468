/* fuzz_exec.c: libFuzzer target for the decoder and the executor: any bytes
 * read as PTX text either fail to load with a status, or run the first
 * .entry to its end or to a fault -- never a crash, hang, leak or undefined
 * behavior.  `make fuzz-exec` runs it; finds go to tests/corpus/exec/, which
 * tests/test_exec_corpus.c replays (it includes this file for the recipe,
 * with FUZZ_EXEC_NO_MAIN defined). */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "device.h"
#include "device_int.h"

#define FUZZ_EXEC_BUF 4096   /* bytes of each pointer parameter's buffer */
#define FUZZ_EXEC_MAXP 256   /* parameters the recipe fills */

/* The one launch recipe: load text on a fresh sm_90 simulator; for the
 * first .entry give every 8-byte parameter a fresh zeroed 4 KB buffer and
 * every other one (up to 64 bytes) the value 7, zero-filled; launch grid
 * (2,1,1) x block (64,1,1), 256 bytes of dynamic shared memory, a budget of
 * 20000 warp instructions.  Returns the load or launch status (faults are
 * fine); SIM_ERR_USAGE when the module has no entry the recipe can fill. */
/* Set by tests/test_timing_identical.c to replay the corpus with the timing
 * model on (DeviceLaunch.timing). */
static bool fuzz_exec_timing __attribute__((unused));

static SimStatus fuzz_exec_run(const char *text, size_t len)
{
    SimError err;
    Device *d = device_open_sim("sm_90", &err);
    if (!d)
        return err.status;
    uint8_t (*vals)[64] = NULL;
    void **args = NULL;
    DeviceModule *m = NULL;
    SimStatus st = device_load_ptx(d, "fuzz.ptx", text, len, &m, &err);
    if (st != SIM_OK)
        goto done;
    const char *entry = NULL;
    for (int f = 0; f < m->ptx->n_funcs && !entry; f++)
        if (m->ptx->funcs[f].is_entry)
            entry = device_find_kernel(m, m->ptx->funcs[f].name, &err);
    st = SIM_ERR_USAGE;
    if (!entry)
        goto done;
    int np = device_kernel_nparams(m, entry);
    if (np < 0 || np > FUZZ_EXEC_MAXP)
        goto done;
    vals = calloc((size_t)np + 1, sizeof *vals);
    args = calloc((size_t)np + 1, sizeof *args);
    if (!vals || !args)
        goto done;
    for (int i = 0; i < np; i++) {
        int sz = device_kernel_param_size(m, entry, i);
        if (sz == 8) {
            DevicePtr p = 0;
            if ((st = device_malloc(d, FUZZ_EXEC_BUF, &p, &err)) != SIM_OK)
                goto done;
            memcpy(vals[i], &p, sizeof p);
        } else if (sz > 0 && sz <= 64) {
            vals[i][0] = 7;
        } else {
            st = SIM_ERR_USAGE;
            goto done;
        }
        args[i] = vals[i];
    }
    /* the input's length also picks the schedule, atomic order, divergence
     * model and whether the race checker watches */
    DeviceLaunch cfg = { .grid = { 2, 1, 1 }, .block = { 64, 1, 1 },
                         .smem = 256, .inst_budget = 20000,
                         .schedule = (int)(len % 3), .atomic_order = (int)(len / 3 % 4),
                         .divergence = (int)(len / 12 % 2), .seed = len,
                         .checks = len & 1 ? DEVICE_CHECK_RACES : 0, .timing = fuzz_exec_timing };
    DeviceStats stats;
    DeviceFault fault;
    st = device_launch(m, entry, &cfg, args, &stats, &fault, &err);
done:
    free(vals);
    free(args);
    device_close(d);
    return st;
}

#ifndef FUZZ_EXEC_NO_MAIN
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_exec_run((const char *)data, size);
    return 0;
}
#endif
