/* fuzz_ptx.c: libFuzzer target for the PTX front end: any bytes must give a
 * module or a parse error, never a crash, hang, leak or undefined behavior.
 *
 *   clang -g -O1 -fsanitize=fuzzer,address,undefined -Isim sim/ptx*.c \
 *         sim/error.c tests/fuzz_ptx.c -o build/fuzz_ptx
 *   build/fuzz_ptx -dict=... tests/corpus/ptx    (finds go to tests/corpus/ptx) */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "ptx.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    SimError err;
    PtxModule *m = ptx_parse_module("fuzz.ptx", (const char *)data, size, &err);
    if (m) {
        /* walk what the rest of warpsim will read */
        char buf[128];
        for (int f = 0; f < m->n_funcs; f++)
            for (int i = 0; i < m->funcs[f].n_insts; i++) {
                const PtxInst *in = &m->funcs[f].insts[i];
                ptx_inst_outer_loc(m, in);
                ptx_source_line(m, in->ptx_line, buf, sizeof buf);
            }
        ptx_find_func(m, "k");
        ptx_module_free(m);
    } else if (err.status != SIM_ERR_PARSE && err.status != SIM_ERR_NOMEM) {
        __builtin_trap();
    } else if (err.status == SIM_ERR_PARSE && err.line > 0 && err.col <= 0) {
        __builtin_trap(); /* a parse error with a line must carry its column */
    }
    return 0;
}
