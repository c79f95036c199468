/* ptx_lex.c: the PTX tokenizer (see ptx_lex.h).
 *
 * One pass over the text builds the whole token array, so the parser can
 * look ahead freely.  Numbers are converted here: integer literals in every
 * PTX base, the hex float forms 0f/0d, and decimal floats (as f64 bits). */
#include "ptx_lex.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Inputs past this size are refused (token indexes and columns are int). */
#define LEX_MAX_INPUT ((size_t)1 << 30)

typedef struct {
    const char *path;
    const char *s;
    size_t n, i;
    int line;
    size_t line_start;
    SimError *err;
    PtxToken *toks;
    int n_toks, cap;
} Lexer;

static bool is_ident_start(int c)
{
    return isalpha(c) || c == '_' || c == '$' || c == '%';
}

static bool is_ident_char(int c)
{
    return isalnum(c) || c == '_' || c == '$';
}

static int col_of(const Lexer *L, size_t at)
{
    return (int)(at - L->line_start) + 1;
}

static SimStatus lex_error(Lexer *L, size_t at, const char *msg, const char *what, int what_len)
{
    if (what)
        return sim_error_set(L->err, SIM_ERR_PARSE, L->path, L->line, col_of(L, at),
                             "%s '%.*s'", msg, what_len > 40 ? 40 : what_len, what);
    return sim_error_set(L->err, SIM_ERR_PARSE, L->path, L->line, col_of(L, at), "%s", msg);
}

static PtxToken *push(Lexer *L, PtxTokKind kind, size_t start, size_t len)
{
    if (L->n_toks == L->cap) {
        int nc = L->cap ? L->cap * 2 : 1024;
        PtxToken *t = realloc(L->toks, (size_t)nc * sizeof *t);
        if (!t)
            return NULL;
        L->toks = t;
        L->cap = nc;
    }
    PtxToken *t = &L->toks[L->n_toks++];
    memset(t, 0, sizeof *t);
    t->kind = kind;
    t->text = L->s + start;
    t->len = (int)len;
    t->line = L->line;
    t->col = col_of(L, start);
    return t;
}

static int hexval(int c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

/* Digits of an integer in base (2, 8, 10, 16) from s[0..n); false on a bad
 * digit or overflow past 64 bits. */
static bool parse_uint(const char *s, size_t n, int base, uint64_t *v)
{
    uint64_t x = 0;
    if (n == 0)
        return false;
    for (size_t k = 0; k < n; k++) {
        int d = hexval((unsigned char)s[k]);
        if (d < 0 || d >= base)
            return false;
        if (x > (UINT64_MAX - (uint64_t)d) / (uint64_t)base)
            return false;
        x = x * (uint64_t)base + (uint64_t)d;
    }
    *v = x;
    return true;
}

/* A number starting at L->i (a digit). */
static SimStatus lex_number(Lexer *L)
{
    size_t st = L->i, e = st;
    while (e < L->n && (isalnum((unsigned char)L->s[e]) || L->s[e] == '_'))
        e++;
    const char *s = L->s + st;
    size_t n = e - st;
    bool is_float = false;
    /* decimal float: digits '.' digits [e[+-]digits] or digits e[+-]digits */
    if (s[0] != '0' || n == 1 || isdigit((unsigned char)s[1]) || s[1] == 'e' || s[1] == 'E' ||
        (e < L->n && L->s[e] == '.')) {
        size_t k = st;
        while (k < L->n && isdigit((unsigned char)L->s[k]))
            k++;
        if (k < L->n && L->s[k] == '.' && !(k + 1 < L->n && is_ident_start((unsigned char)L->s[k + 1]) &&
                                             !isdigit((unsigned char)L->s[k + 1]) && L->s[k + 1] != 'e' &&
                                             L->s[k + 1] != 'E')) {
            is_float = true;
            k++;
            while (k < L->n && isdigit((unsigned char)L->s[k]))
                k++;
        }
        if (k < L->n && (L->s[k] == 'e' || L->s[k] == 'E')) {
            size_t j = k + 1;
            if (j < L->n && (L->s[j] == '+' || L->s[j] == '-'))
                j++;
            if (j < L->n && isdigit((unsigned char)L->s[j])) {
                is_float = true;
                k = j;
                while (k < L->n && isdigit((unsigned char)L->s[k]))
                    k++;
            }
        }
        if (is_float) {
            if (k < L->n && is_ident_char((unsigned char)L->s[k]))
                return lex_error(L, st, "malformed number", s, (int)(k + 1 - st));
            char buf[80];
            if (k - st >= sizeof buf)
                return lex_error(L, st, "float literal too long:", s, (int)(k - st));
            memcpy(buf, s, k - st);
            buf[k - st] = 0;
            /* ptxas refuses a literal beyond the double range ("1e99999");
             * strtod would quietly make it infinity */
            errno = 0;
            double d = strtod(buf, NULL);
            if (errno == ERANGE && isinf(d))
                return lex_error(L, st, "float literal out of range (beyond 1.8e308):", s, (int)(k - st));
            PtxToken *t = push(L, PTX_TOK_F64, st, k - st);
            if (!t)
                return SIM_ERR_NOMEM;
            memcpy(&t->ival, &d, sizeof d);
            L->i = k;
            return SIM_OK;
        }
    }
    PtxTokKind kind = PTX_TOK_INT;
    uint64_t v = 0;
    size_t body = n;
    if (n > 1 && (s[n - 1] == 'U' || s[n - 1] == 'u'))
        body = n - 1;
    bool ok;
    if (n >= 2 && s[0] == '0' && (s[1] == 'f' || s[1] == 'F')) {
        kind = PTX_TOK_F32;
        ok = n == 10 && parse_uint(s + 2, 8, 16, &v);
    } else if (n >= 2 && s[0] == '0' && (s[1] == 'd' || s[1] == 'D')) {
        kind = PTX_TOK_F64;
        ok = n == 18 && parse_uint(s + 2, 16, 16, &v);
    } else if (n >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        ok = parse_uint(s + 2, body - 2, 16, &v);
    } else if (n >= 2 && s[0] == '0' && (s[1] == 'b' || s[1] == 'B')) {
        ok = parse_uint(s + 2, body - 2, 2, &v);
    } else if (s[0] == '0' && body > 1) {
        ok = parse_uint(s + 1, body - 1, 8, &v);
    } else {
        ok = parse_uint(s, body, 10, &v);
    }
    if (!ok)
        return lex_error(L, st, "malformed or out-of-range number", s, (int)n);
    PtxToken *t = push(L, kind, st, n);
    if (!t)
        return SIM_ERR_NOMEM;
    t->ival = v;
    L->i = e;
    return SIM_OK;
}

SimStatus ptx_lex(const char *path, const char *text, size_t len,
                  PtxToken **out, int *n_out, SimError *err)
{
    Lexer L = {.path = path, .s = text, .n = len, .line = 1, .err = err};
    SimStatus st = SIM_OK;
    *out = NULL;
    *n_out = 0;
    if (len > LEX_MAX_INPUT) {
        st = sim_error_set(err, SIM_ERR_PARSE, path, 0, 0, "PTX text too large (%zu bytes)", len);
        goto fail;
    }
    while (L.i < L.n) {
        int c = (unsigned char)L.s[L.i];
        if (c == '\n') {
            L.i++;
            L.line++;
            L.line_start = L.i;
            continue;
        }
        if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
            L.i++;
            continue;
        }
        if (c == '/' && L.i + 1 < L.n && L.s[L.i + 1] == '/') {
            /* "//@ tile.": a tile marker of tile.cuh (ptx_tile.c): lex on
             * after the "//@" as if it were code */
            if (L.i + 2 < L.n && L.s[L.i + 2] == '@') {
                size_t k = L.i + 3;
                while (k < L.n && (L.s[k] == ' ' || L.s[k] == '\t'))
                    k++;
                if (L.n - k >= 5 && !memcmp(L.s + k, "tile.", 5)) {
                    L.i = k;
                    continue;
                }
            }
            while (L.i < L.n && L.s[L.i] != '\n')
                L.i++;
            continue;
        }
        if (c == '/' && L.i + 1 < L.n && L.s[L.i + 1] == '*') {
            size_t st0 = L.i;
            int line0 = L.line;
            size_t ls0 = L.line_start;
            L.i += 2;
            while (L.i < L.n && !(L.s[L.i] == '*' && L.i + 1 < L.n && L.s[L.i + 1] == '/')) {
                if (L.s[L.i] == '\n') {
                    L.line++;
                    L.line_start = L.i + 1;
                }
                L.i++;
            }
            if (L.i >= L.n) {
                L.line = line0;
                L.line_start = ls0;
                st = lex_error(&L, st0, "unterminated /* comment", NULL, 0);
                goto fail;
            }
            L.i += 2;
            continue;
        }
        size_t start = L.i;
        if (is_ident_start(c) || (c == '.' && L.i + 1 < L.n && is_ident_start((unsigned char)L.s[L.i + 1]) &&
                                  L.s[L.i + 1] != '%')) {
            bool dir = c == '.';
            L.i++;
            for (;;) {
                while (L.i < L.n && is_ident_char((unsigned char)L.s[L.i]))
                    L.i++;
                if (dir)
                    break;
                /* opcodes and special registers keep their dots and "::" */
                if (L.i + 1 < L.n && L.s[L.i] == '.' && is_ident_char((unsigned char)L.s[L.i + 1])) {
                    L.i++;
                    continue;
                }
                if (L.i + 2 < L.n && L.s[L.i] == ':' && L.s[L.i + 1] == ':' &&
                    is_ident_char((unsigned char)L.s[L.i + 2])) {
                    L.i += 2;
                    continue;
                }
                break;
            }
            if (c == '%' && L.i == start + 1) {
                st = lex_error(&L, start, "expected a register name after '%'", NULL, 0);
                goto fail;
            }
            if (!push(&L, dir ? PTX_TOK_DIRECTIVE : PTX_TOK_IDENT, start, L.i - start))
                goto nomem;
            continue;
        }
        if (isdigit(c)) {
            st = lex_number(&L);
            if (st != SIM_OK)
                goto fail;
            continue;
        }
        if (c == '"') {
            L.i++;
            while (L.i < L.n && L.s[L.i] != '"' && L.s[L.i] != '\n') {
                if (L.s[L.i] == '\\' && L.i + 1 < L.n && L.s[L.i + 1] != '\n')
                    L.i++;
                L.i++;
            }
            if (L.i >= L.n || L.s[L.i] != '"') {
                st = lex_error(&L, start, "unterminated string", NULL, 0);
                goto fail;
            }
            L.i++;
            if (!push(&L, PTX_TOK_STRING, start, L.i - start))
                goto nomem;
            continue;
        }
        if (strchr("{}[](),;:@!|+-<>=", c) && c != 0) {
            PtxToken *t = push(&L, PTX_TOK_PUNCT, start, 1);
            if (!t)
                goto nomem;
            t->punct = (char)c;
            L.i++;
            continue;
        }
        if (isprint(c))
            st = lex_error(&L, start, "unexpected character", L.s + start, 1);
        else
            st = sim_error_set(err, SIM_ERR_PARSE, path, L.line, col_of(&L, start),
                               "unexpected byte 0x%02x", (unsigned)c);
        goto fail;
    }
    if (!push(&L, PTX_TOK_EOF, L.n, 0))
        goto nomem;
    *out = L.toks;
    *n_out = L.n_toks;
    return SIM_OK;
nomem:
    st = sim_error_set(err, SIM_ERR_NOMEM, path, L.line, 0, "out of memory while tokenizing");
fail:
    free(L.toks);
    return st;
}

const char *ptx_tok_describe(const PtxToken *t, char *buf, size_t cap)
{
    if (!cap)
        return buf;
    if (t->kind == PTX_TOK_EOF) {
        snprintf(buf, cap, "end of file");
        return buf;
    }
    /* quote the token, replacing unprintable bytes and eliding long ones */
    size_t o = 0;
    int max = t->len > 48 ? 45 : t->len;
    if (o + 1 < cap)
        buf[o++] = '\'';
    for (int k = 0; k < max && o + 1 < cap; k++) {
        unsigned char c = (unsigned char)t->text[k];
        buf[o++] = isprint(c) ? (char)c : '?';
    }
    if (max < t->len)
        for (int k = 0; k < 3 && o + 1 < cap; k++)
            buf[o++] = '.';
    if (o + 1 < cap)
        buf[o++] = '\'';
    buf[o] = 0;
    return buf;
}
