/* isa.h: every instruction of the PTX ISA 8.x for sm_90, and whether the
 * simulator runs it -- the table docs/ptx-support.md is generated from.
 * An instruction is supported when the decoder has an entry for its opcode
 * (exec_decodes_opcode) and the table gives no reason against it; a test
 * checks the committed document is what isa_markdown writes, so it cannot
 * drift from the decoder. */
#ifndef WARPSIM_ISA_H
#define WARPSIM_ISA_H

#include <stdbool.h>
#include <stddef.h>

typedef struct {
    const char *name;       /* "add.cc", "cp.async.bulk.tensor", "wgmma.mma_async" */
    const char *opcode;     /* the opcode the decoder dispatches on ("add", "cp", "wgmma") */
    const char *group;      /* the ISA's chapter 9.7 grouping ("Integer arithmetic") */
    const char *why;        /* NULL when supported; else why not (or what is missing) */
    const char *note;       /* what the simulator does that a reader should know, or NULL */
} IsaRow;

/* Rows in the table. */
int isa_count(void);
/* Row i (0 <= i < isa_count()), NULL outside. */
const IsaRow *isa_row(int i);
/* Is row r supported (decoder entry, no reason against it)? */
bool isa_supported(const IsaRow *r);
/* The markdown document (malloc'd, NUL-terminated; the caller frees), or
 * NULL when out of memory. */
char *isa_markdown(void);

/* From the decoder (exec_decode.c): does it have an entry for opcode op;
 * its i-th opcode (NULL past the end). */
bool exec_decodes_opcode(const char *op);
const char *exec_decoder_opcode(int i);

#endif
