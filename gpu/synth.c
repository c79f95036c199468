/* synth.c: the synthetic residency kernel of synth.h.  Registers: with
 * .maxnreg R the kernel loads R + 6 values with ld.volatile (which the
 * compiler can neither merge, rematerialize nor move past the volatile
 * loads of the wait loop) and uses them all after the loop, so ptxas needs
 * more than R, caps at R and spills the rest: "Used R registers". */
#include "synth.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    char *s;
    size_t n, cap;
    int oom;
} Buf;

static void put(Buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#include <stdarg.h>
static void put(Buf *b, const char *fmt, ...)
{
    if (b->oom)
        return;
    va_list ap;
    va_start(ap, fmt);
    int need = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (b->n + (size_t)need + 1 > b->cap) {
        size_t cap = (b->cap + (size_t)need + 1) * 2;
        char *s = realloc(b->s, cap);
        if (!s) {
            b->oom = 1;
            return;
        }
        b->s = s;
        b->cap = cap;
    }
    va_start(ap, fmt);
    vsnprintf(b->s + b->n, (size_t)need + 1, fmt, ap);
    va_end(ap);
    b->n += (size_t)need;
}

char *synth_ptx(const char *arch, int regs, size_t smem_static, size_t *len, SimError *err)
{
    if (regs < 1 || regs > 255 || smem_static > 49152 || !arch || strncmp(arch, "sm_", 3)) {
        sim_error_set(err, SIM_ERR_USAGE, "", 0, 0,
                      "synthetic kernel: registers must be 1..255 and static shared memory 0..49152 bytes");
        return NULL;
    }
    int smver = atoi(arch + 3);
    /* Live values: R + 6 under .maxnreg; below its floor, what ptxas 13.0
     * needs beside them is 11 registers (loop, timer, addresses,
     * the instrumentation's epilogue). */
    int maxnreg = regs >= SYNTH_MAXNREG_MIN ? regs : 0;
    int nv = maxnreg ? regs + 6 : regs > 14 ? regs - 11 : 3;
    Buf b = {0};
    put(&b, "//\n// warpsim synthetic residency kernel (gpu/synth.h): %d registers, %zu bytes static smem\n//\n",
        regs, smem_static);
    put(&b, ".version %s\n.target %s\n.address_size 64\n\n", smver > 90 ? "8.8" : "8.0", arch);
    put(&b, ".extern .shared .align 16 .b8 __ws_dyn[];\n\n");
    put(&b, ".visible .entry %s(\n\t.param .u64 vals,\n\t.param .u64 out,\n\t.param .u64 wait_ns\n)\n",
        SYNTH_ENTRY);
    if (maxnreg)
        put(&b, ".maxnreg %d\n", maxnreg);
    put(&b, "{\n\t.reg .pred %%p<3>;\n\t.reg .b32 %%v<%d>;\n\t.reg .b32 %%s<4>;\n\t.reg .b64 %%a<8>;\n", nv);
    if (smem_static)
        put(&b, "\t.shared .align 4 .b8 smem[%zu];\n", smem_static);
    put(&b, "\tld.param.u64 %%a0, [vals];\n\tcvta.to.global.u64 %%a0, %%a0;\n\tld.param.u64 %%a6, [wait_ns];\n");
    for (int i = 0; i < nv; i++)
        put(&b, "\tld.volatile.global.u32 %%v%d, [%%a0+%d];\n", i, 4 * (i % SYNTH_VALS));
    put(&b, "\tmov.u64 %%a1, %%globaltimer;\n"
            "$wait:\n"
            "\tld.volatile.global.u32 %%s0, [%%a0];\n"
            "\tmov.u64 %%a2, %%globaltimer;\n"
            "\tsub.u64 %%a3, %%a2, %%a1;\n"
            "\tsetp.lt.u64 %%p0, %%a3, %%a6;\n"
            "\t@%%p0 bra $wait;\n"
            "\tmov.u32 %%s1, %%s0;\n");
    for (int i = 0; i < nv; i++)
        put(&b, "\txor.b32 %%s1, %%s1, %%v%d;\n\tmul.lo.u32 %%s1, %%s1, %%v%d;\n", i, nv - 1 - i);
    if (smem_static) {
        put(&b, "\tmov.u32 %%s2, smem;\n\tst.volatile.shared.u8 [%%s2], %%s1;\n"
                "\tld.volatile.shared.u8 %%s3, [%%s2+%zu];\n\tadd.u32 %%s1, %%s1, %%s3;\n",
            smem_static - 1);
    }
    put(&b, "\tld.param.u64 %%a4, [out];\n"
            "\tsetp.eq.u64 %%p1, %%a4, 0;\n"
            "\t@%%p1 bra $done;\n"
            "\tcvta.to.global.u64 %%a4, %%a4;\n"
            "\tst.global.u32 [%%a4], %%s1;\n"
            "$done:\n"
            "\tret;\n}\n");
    if (b.oom) {
        free(b.s);
        sim_error_set(err, SIM_ERR_NOMEM, "", 0, 0, "out of memory");
        return NULL;
    }
    *len = b.n;
    return b.s;
}
