/* argspec.h: kernel arguments written on the command line (--arg SPEC) and
 * the reproducible input generator behind them.
 *
 *   i32:V u32:V i64:V u64:V f32:V f64:V          scalars
 *   buf:T[N]=INIT                                 a device buffer of N elements
 *   val:T[N]=INIT                                 N elements passed by value: a
 *                                                 struct or array parameter
 *      INIT: fill:V | iota | list:V,V,... | rand:SEED | file:PATH
 *
 * Used by `warpsim run` and everything that runs kernels from a command line. */
#ifndef WARPSIM_ARGSPEC_H
#define WARPSIM_ARGSPEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ptx.h"

typedef struct {
    bool is_buffer;
    bool by_value;       /* val:T[N]: data, count * size bytes, is the parameter itself */
    PtxType type;        /* element type (i32 is PTX_T_S32, ...) */
    uint64_t scalar;     /* scalar bit pattern, zero-extended */
    uint64_t count;      /* buffer elements */
    uint8_t *data;       /* buffer initial contents (count * size bytes), owned */
    const char *text;    /* the spec as written */
} ArgSpec;

/* Parse spec into *out.  On error returns false and writes a one-line
 * message (pointing at the bad part) into msg. */
bool argspec_parse(const char *spec, ArgSpec *out, char *msg, size_t cap);
void argspec_free(ArgSpec *a);

/* Element type by its --arg name ("i32", "f64", ...) and back. */
PtxType argspec_type(const char *name);
const char *argspec_type_name(PtxType t);
int argspec_type_size(PtxType t);

/* splitmix64 step: advances *state and returns the next value. */
uint64_t argspec_splitmix64(uint64_t *state);
/* Fill n elements of type t from splitmix64 seeded with seed (the rule the
 * README documents). */
void argspec_fill_rand(PtxType t, uint64_t seed, uint8_t *dst, uint64_t n);

/* Format element i of buf (type t) as JSON value text and as hex. */
void argspec_format_json(PtxType t, const uint8_t *elem, char *buf, size_t cap);
void argspec_format_hex(PtxType t, const uint8_t *elem, char *buf, size_t cap);
/* Readable text ("3", "-1.5", "nan"). */
void argspec_format_text(PtxType t, const uint8_t *elem, char *buf, size_t cap);

#endif
