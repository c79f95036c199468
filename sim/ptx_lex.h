/* ptx_lex.h: the PTX tokenizer, first stage of the front end.
 *
 * Pipeline: PTX text -> ptx_lex (this: an array of tokens) -> ptx_parse
 * (PtxModule, see ptx.h).  Tokens point into the text they were made from;
 * each carries its line and column (1-based, a tab counts as one column). */
#ifndef WARPSIM_PTX_LEX_H
#define WARPSIM_PTX_LEX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "error.h"

typedef enum {
    PTX_TOK_EOF = 0,
    PTX_TOK_IDENT,     /* add, ld.global.v4.f32, %r1, %tid.x, $L__BB0_2, _ */
    PTX_TOK_DIRECTIVE, /* .reg, .u32, .v4 (a dot and identifier characters) */
    PTX_TOK_INT,       /* 42, 0x2A, 052, 0b101010, 42U: ival */
    PTX_TOK_F32,       /* 0f3F800000: ival holds the 32 bits */
    PTX_TOK_F64,       /* 0d3FF0000000000000 or 1.5e3: ival holds the 64 bits */
    PTX_TOK_STRING,    /* "..." (text includes the quotes) */
    PTX_TOK_PUNCT      /* one of { } [ ] ( ) , ; : @ ! | + - < > = : punct */
} PtxTokKind;

typedef struct {
    PtxTokKind kind;
    const char *text;  /* first character, inside the lexed text */
    int len;           /* characters as written */
    int line, col;     /* 1-based */
    char punct;        /* PTX_TOK_PUNCT: the character */
    uint64_t ival;     /* INT value, F32/F64 bit pattern */
} PtxToken;

/* Split text (len bytes; text[len] must be readable and NUL) into tokens,
 * skipping whitespace (space, tab, \r, \n, \f, \v) and comments.  Identifiers
 * keep their dots and "::" ("ld.shared::cta.u32" is one token); a minus sign
 * is its own token (the parser folds "-1").  On success *out is a malloc'd
 * array of *n_out tokens ending with one PTX_TOK_EOF, freed by the caller
 * with free().  On bad input (an unknown character, an unterminated comment
 * or string, a malformed or out-of-range number) returns SIM_ERR_PARSE with
 * *err naming path, line and column; out of memory: SIM_ERR_NOMEM. */
SimStatus ptx_lex(const char *path, const char *text, size_t len,
                  PtxToken **out, int *n_out, SimError *err);

/* Printable form of a token for messages ("'foo'", "end of file"), written
 * into buf (cap bytes, truncated with "..."). Returns buf. */
const char *ptx_tok_describe(const PtxToken *t, char *buf, size_t cap);

#endif
