/* instrument.h: PTX instrumentation for measured residency.  Rewrites the
 * text of one kernel so that it records, per block, the SM it ran on and
 * when it started and ended (%smid, %globaltimer) into a buffer passed as
 * one extra, last parameter.  The rewritten text is still ordinary PTX: the
 * GPU backend loads it like any other (gpu/), the simulator runs it too, and
 * gpu/residency.h turns the records into blocks resident per SM over time.
 *
 * The method, and what it costs the kernel:
 *   - The entry gets a last parameter `.param .u64 __warpsim_residency`, a
 *     global buffer of INSTR_RECORD_BYTES per block, zero-filled by the host
 *     and indexed by the linear block id x + nx * (y + ny * z).
 *   - Entry: every thread tests tid == (0,0,0) (5 instructions and a branch);
 *     that one thread reads %globaltimer, computes its record's address and
 *     stores %smid and the start time (about 18 instructions, 2 stores).
 *   - Every `ret` and `exit` of the entry becomes a branch to one epilogue.
 *     There the threads that arrive together (activemask) elect the lowest
 *     lane, which adds their number to the block's counter with one
 *     atom.global.add; the thread whose add completes the block's thread
 *     count reads %globaltimer and stores the end time.  Per thread that is
 *     6 instructions; per arriving group (usually one per warp) about 20
 *     and one atomic; per block one more store.  Threads may leave at any
 *     number of different ret/exit instructions and at different times.
 *   - Only short-lived temporaries are added (at entry and at exit, where
 *     few of the kernel's own values are live), so the register count
 *     ptxas allocates normally does not change; nothing is added to the
 *     kernel's loops, shared memory or barriers.
 *   - Not counted: a thread that ends inside a called .func (`exit` there)
 *     or by `trap`; its block then has no end time (end == 0).
 * Fresh register names and labels carry a tag (__ws, __ws1, ...) that occurs
 * nowhere in the original text, so they cannot clash. */
#ifndef WARPSIM_INSTRUMENT_H
#define WARPSIM_INSTRUMENT_H

#include <stddef.h>
#include <stdint.h>

#include "error.h"

/* The most bytes of parameters a kernel may take, as ptxas counts them:
 * 32,764 in PTX ISA 8.1 and later (CUDA 12.1), 4,352 before.  A kernel
 * whose parameters leave no room for the added 8-byte pointer cannot be
 * instrumented. */
#define INSTR_MAX_PARAM_BYTES 32764
#define INSTR_MAX_PARAM_BYTES_OLD 4352

/* The added parameter's name. */
#define INSTR_PARAM_NAME "__warpsim_residency"

/* Bytes per block record: u32 smid at 0, u32 thread counter at 4 (the
 * number of threads that have finished), u64 start at 8, u64 end at 16
 * (%globaltimer, nanoseconds). */
#define INSTR_RECORD_BYTES 24

/* One block's record, decoded. */
typedef struct {
    uint32_t smid;      /* %smid of the SM the block ran on */
    uint32_t finished;  /* threads counted at exit (= block size when complete) */
    uint64_t start;     /* %globaltimer when thread (0,0,0) began */
    uint64_t end;       /* %globaltimer when the last thread finished; 0 if
                           the block never ended through the entry's epilogue */
} InstrRecord;

/* Rewrite `text` (len bytes, need not be NUL-terminated; path names it in
 * messages) so that entry `entry` records residency as described above.
 * On success *out is a new NUL-terminated text (the caller frees it) of
 * *out_len bytes and SIM_OK is returned.  Errors: SIM_ERR_PARSE for PTX
 * the parser rejects (its message); SIM_ERR_USAGE when `entry` is not an
 * .entry of the module or already has the parameter; SIM_ERR_UNSUPPORTED
 * when the header or body braces cannot be found, or when the kernel's
 * parameters and the added pointer would pass INSTR_MAX_PARAM_BYTES
 * (INSTR_MAX_PARAM_BYTES_OLD before PTX ISA 8.1; the message names both
 * sizes); SIM_ERR_NOMEM. */
SimStatus instr_residency(const char *path, const char *text, size_t len, const char *entry,
                          char **out, size_t *out_len, SimError *err);

/* Decode n records from a buffer of n * INSTR_RECORD_BYTES bytes (little
 * endian, as the GPU and the simulator write them) into recs[0..n). */
void instr_decode(const void *buf, size_t n, InstrRecord *recs);

#endif
