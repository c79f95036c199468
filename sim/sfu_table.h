/* sfu_table.h: the special function unit's own results, measured on an H100.
 *
 * The approximate instructions (sim/alu_sfu.c) are the MUFU operations ptxas
 * emits plus fix-up arithmetic; each MUFU result is a table lookup here, an
 * index built from the input's bits.  The tables were read from the GPU
 * (scripts/sfu/), proved against every 32-bit input there (docs/special-
 * functions.md), and are embedded in the library (sim/sfu_tables.bin).  A
 * table is decoded on first use, once per process, thread-safely. */
#ifndef WARPSIM_SFU_TABLE_H
#define WARPSIM_SFU_TABLE_H

#include <stddef.h>
#include <stdint.h>

#include "error.h"
#include "ptx.h"

typedef enum {
    SFU_T_RCP,       /* MUFU.RCP of 1.m, index m (2^23): results in (0.5, 1] */
    SFU_T_RSQ,       /* MUFU.RSQ of y in [1, 4), index (e & 1) << 23 | m (2^24) */
    SFU_T_SQRT,      /* MUFU.SQRT, same indexing as SFU_T_RSQ */
    SFU_T_EX2,       /* MUFU.EX2 of +f 2^-23 (index f), then of -f 2^-23 (2^23 + f) */
    SFU_T_LG2,       /* MUFU.LG2 of [0.5, 2): index = input bits - 0x3f000000 (2^24) */
    SFU_T_SIN,       /* MUFU.SIN of i 2^-25 for i < 2^24 (a half turn) */
    SFU_T_RCP64H,    /* MUFU.RCP64H: high word for the high word 0x3ff00000 + m (2^20) */
    SFU_T_TANH,      /* MUFU.TANH of x in [2^-8, 8): 8 binades of 2^19, 3 of 2^21 */
    SFU_T_EX2_F16,   /* ex2.approx.f16 of every input (2^16) */
    SFU_T_EX2_BF16,  /* ex2.approx.ftz.bf16 */
    SFU_T_TANH_F16,  /* tanh.approx.f16 */
    SFU_T_TANH_BF16, /* tanh.approx.bf16 */
    SFU_T_COUNT
} SfuTable;

/* The entries of table t, decoded on first use.  NULL when they cannot be
 * (out of memory, a damaged blob); sfu_table_require then says why.  The
 * memory lives until the process ends. */
const uint32_t *sfu_table(SfuTable t);
/* Number of entries table t has. */
size_t sfu_table_size(SfuTable t);
/* "rcp", "rsqrt", ...: the table's name in the blob. */
const char *sfu_table_name(SfuTable t);
/* Make sure table t can be used: SIM_OK, or SIM_ERR_NOMEM / SIM_ERR_IO with
 * err saying which table and why.  The decoder calls this for every
 * approximate instruction, so a failure is a load error, not a wrong result. */
SimStatus sfu_table_require(SfuTable t, SimError *err);

/* The table instruction in reads when it is one of the approximate
 * instructions the special function unit runs (rcp/sqrt/rsqrt/ex2/lg2/sin/
 * cos/tanh .approx, div.approx, div.full, rcp.approx.ftz.f64, the f16/bf16
 * ex2/tanh), else -1.  For reports: a difference between the simulator and
 * a GPU that such an instruction feeds is the special function unit's. */
int sfu_inst_table(const PtxInst *in);

/* Decode the record `name` of blob into out (n entries).  For tests and the
 * table tools: SIM_OK, or SIM_ERR_IO with err naming what is damaged (bad
 * magic, missing record, wrong size, a zlib or varint error). */
SimStatus sfu_blob_decode(const unsigned char *blob, size_t len, const char *name,
                          uint32_t *out, size_t n, SimError *err);

#endif
