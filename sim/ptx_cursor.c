/* ptx_cursor.c: the parser's cursor over ptx_lex's tokens -- peek, next,
 * accept, expect (with the error that names what was found).  Every
 * statement parser (ptx_dir.c, ptx_decl.c, ptx_inst.c) and ptx_parse.c use
 * it; it calls only ptx_lex.c and ptx_arena.c, so the parser's files call
 * one way: ptx_parse.c -> ptx_dir/ptx_decl/ptx_inst -> ptx_cursor. */
#include "ptx_int.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const PtxToken *ptx_peek(PtxParser *p)
{
    return &p->toks[p->pos];
}

const PtxToken *ptx_peek_at(PtxParser *p, int ahead)
{
    int i = p->pos + ahead;
    return &p->toks[i < p->n_toks ? i : p->n_toks - 1];
}

const PtxToken *ptx_next(PtxParser *p)
{
    const PtxToken *t = &p->toks[p->pos];
    if (t->kind != PTX_TOK_EOF)
        p->pos++;
    return t;
}

bool ptx_is_punct(const PtxToken *t, char c)
{
    return t->kind == PTX_TOK_PUNCT && t->punct == c;
}

bool ptx_is_dir(const PtxToken *t, const char *word)
{
    size_t n = strlen(word);
    return t->kind == PTX_TOK_DIRECTIVE && (size_t)t->len == n && !memcmp(t->text, word, n);
}

bool ptx_is_ident(const PtxToken *t, const char *word)
{
    size_t n = strlen(word);
    return t->kind == PTX_TOK_IDENT && (size_t)t->len == n && !memcmp(t->text, word, n);
}

bool ptx_accept(PtxParser *p, char c)
{
    if (!ptx_is_punct(ptx_peek(p), c))
        return false;
    ptx_next(p);
    return true;
}

const PtxToken *ptx_expect(PtxParser *p, char c, const char *after)
{
    const PtxToken *t = ptx_peek(p);
    if (!ptx_is_punct(t, c)) {
        char d[64];
        ptx_fail(p, t, "expected '%c' %s, found %s", c, after, ptx_tok_describe(t, d, sizeof d));
    }
    return ptx_next(p);
}

int64_t ptx_expect_int(PtxParser *p, const char *what, int64_t lo, int64_t hi)
{
    const PtxToken *t = ptx_peek(p);
    bool neg = false;
    if (ptx_is_punct(t, '-') && ptx_peek_at(p, 1)->kind == PTX_TOK_INT) {
        neg = true;
        ptx_next(p);
        t = ptx_peek(p);
    }
    if (t->kind != PTX_TOK_INT) {
        char d[64];
        ptx_fail(p, t, "expected %s, found %s", what, ptx_tok_describe(t, d, sizeof d));
    }
    /* compare as unsigned magnitudes first so no value overflows */
    if ((!neg && t->ival > (uint64_t)hi) || (neg && (lo >= 0 || t->ival > (uint64_t)-(lo + 1) + 1)))
        ptx_fail(p, t, "%s out of range (%lld..%lld)", what, (long long)lo, (long long)hi);
    int64_t v = neg ? (int64_t)(0 - t->ival) : (int64_t)t->ival;
    if (v < lo)
        ptx_fail(p, t, "%s out of range (%lld..%lld)", what, (long long)lo, (long long)hi);
    ptx_next(p);
    return v;
}

const PtxToken *ptx_expect_kind(PtxParser *p, PtxTokKind k, const char *what)
{
    const PtxToken *t = ptx_peek(p);
    if (t->kind != k) {
        char d[64];
        ptx_fail(p, t, "expected %s, found %s", what, ptx_tok_describe(t, d, sizeof d));
    }
    return ptx_next(p);
}
