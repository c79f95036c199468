/* ptx_dir.c: the PTX directives that are not declarations: .version,
 * .target, .file, .loc (with its inlined_at chains), .pragma, and .section
 * blocks of DWARF data, skipped except for the .debug_str names that .loc
 * function_name labels refer to.  Called by ptx_parse.c. */
#include "ptx_int.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* Contents of a string token with \" \\ \n \t decoded, in the arena. */
static const char *string_value(PtxParser *p, const PtxToken *t)
{
    char *buf = malloc((size_t)t->len + 1);
    if (!buf)
        ptx_nomem(p);
    size_t o = 0;
    for (int i = 1; i < t->len - 1; i++) {
        char c = t->text[i];
        if (c == '\\' && i + 1 < t->len - 1) {
            c = t->text[++i];
            c = c == 'n' ? '\n' : c == 't' ? '\t' : c;
        }
        buf[o++] = c;
    }
    /* intern cannot longjmp while buf is live: copy through the arena */
    const char *r = NULL;
    char *tmp = ptx_arena_alloc(p->m->arena, o + 1);
    if (tmp) {
        memcpy(tmp, buf, o);
        tmp[o] = 0;
        r = tmp;
    }
    free(buf);
    if (!r)
        ptx_nomem(p);
    return r;
}

/* ---- files and locations --------------------------------------------- */

static void ensure_file(PtxParser *p, int n)
{
    PtxModule *m = p->m;
    while (n >= p->files_cap) {
        m->files = ptx_arena_grow(p, m->files, m->n_files, &p->files_cap, sizeof *m->files);
        for (int i = m->n_files; i < p->files_cap; i++)
            m->files[i] = NULL;
    }
    if (n >= m->n_files)
        m->n_files = n + 1;
}

static int add_loc(PtxParser *p, PtxLoc l)
{
    PtxModule *m = p->m;
    if (m->n_locs == p->locs_cap)
        m->locs = ptx_arena_grow(p, m->locs, m->n_locs, &p->locs_cap, sizeof *m->locs);
    m->locs[m->n_locs] = l;
    return m->n_locs++;
}

static size_t loc_hash(int file, int line, int col)
{
    uint64_t h = ((uint64_t)(unsigned)file * 0x9E3779B97F4A7C15ull) ^ ((uint64_t)(unsigned)line << 20) ^
                 (uint64_t)(unsigned)col;
    h ^= h >> 29;
    h *= 0xBF58476D1CE4E5B9ull;
    return (size_t)(h ^ (h >> 32));
}

/* The latest .loc of this body at file:line:col, or -1. */
static int loc_latest(PtxParser *p, int file, int line, int col)
{
    if (!p->lcap)
        return -1;
    for (size_t i = loc_hash(file, line, col) & (p->lcap - 1);; i = (i + 1) & (p->lcap - 1)) {
        if (p->lslots[i].loc < 0)
            return -1;
        if (p->lslots[i].file == file && p->lslots[i].line == line && p->lslots[i].col == col)
            return p->lslots[i].loc;
    }
}

static void loc_put(PtxParser *p, int file, int line, int col, int loc)
{
    size_t i = loc_hash(file, line, col) & (p->lcap - 1);
    while (p->lslots[i].loc >= 0 &&
           !(p->lslots[i].file == file && p->lslots[i].line == line && p->lslots[i].col == col))
        i = (i + 1) & (p->lcap - 1);
    if (p->lslots[i].loc < 0)
        p->ln++;
    p->lslots[i].file = file;
    p->lslots[i].line = line;
    p->lslots[i].col = col;
    p->lslots[i].loc = loc;
}

static void loc_remember(PtxParser *p, int file, int line, int col, int loc)
{
    if ((p->ln + 1) * 2 > p->lcap) {
        size_t old_cap = p->lcap, nc = p->lcap ? p->lcap * 2 : 256;
        PtxLocSlot *old = p->lslots;
        p->lslots = malloc(nc * sizeof *p->lslots);
        if (!p->lslots) {
            p->lslots = old;
            ptx_nomem(p);
        }
        for (size_t i = 0; i < nc; i++)
            p->lslots[i].loc = -1;
        p->lcap = nc;
        p->ln = 0;
        for (size_t i = 0; i < old_cap; i++)
            if (old[i].loc >= 0)
                loc_put(p, old[i].file, old[i].line, old[i].col, old[i].loc);
        free(old);
    }
    loc_put(p, file, line, col, loc);
}

/* .loc F L C [, function_name NAME, inlined_at F L C] */
void ptx_dir_loc(PtxParser *p)
{
    const PtxToken *at = ptx_next(p);
    if (p->fn < 0)
        ptx_fail(p, at, "'.loc' outside a function body");
    PtxLoc l = {.inlined_at = -1};
    l.file = (int)ptx_expect_int(p, "file number after '.loc'", 0, PTX_LIM_FILES - 1);
    l.line = (int)ptx_expect_int(p, "line number in '.loc'", 0, INT_MAX);
    l.col = (int)ptx_expect_int(p, "column number in '.loc'", 0, INT_MAX);
    ensure_file(p, l.file);
    if (ptx_accept(p, ',')) {
        const PtxToken *t = ptx_peek(p);
        if (!ptx_is_ident(t, "function_name")) {
            char d[64];
            ptx_fail(p, t, "expected 'function_name' in '.loc', found %s", ptx_tok_describe(t, d, sizeof d));
        }
        ptx_next(p);
        l.function_name = ptx_tok_intern(p, ptx_expect_kind(p, PTX_TOK_IDENT, "a function name label"));
        ptx_expect(p, ',', "after the function name in '.loc'");
        t = ptx_peek(p);
        if (!ptx_is_ident(t, "inlined_at")) {
            char d[64];
            ptx_fail(p, t, "expected 'inlined_at' in '.loc', found %s", ptx_tok_describe(t, d, sizeof d));
        }
        ptx_next(p);
        PtxLoc in = {.inlined_at = -1};
        in.file = (int)ptx_expect_int(p, "file number after 'inlined_at'", 0, PTX_LIM_FILES - 1);
        in.line = (int)ptx_expect_int(p, "line number after 'inlined_at'", 0, INT_MAX);
        in.col = (int)ptx_expect_int(p, "column number after 'inlined_at'", 0, INT_MAX);
        ensure_file(p, in.file);
        /* nvcc wrote the inlined_at position itself as an earlier .loc of
         * this function, carrying the rest of the chain: continue it */
        int prev = loc_latest(p, in.file, in.line, in.col);
        if (prev >= 0) {
            in.inlined_at = p->m->locs[prev].inlined_at;
            in.function_name = p->m->locs[prev].function_name;
        }
        l.inlined_at = add_loc(p, in);
    }
    p->cur_loc = add_loc(p, l);
    loc_remember(p, l.file, l.line, l.col, p->cur_loc);
}

/* .file N "path" [, timestamp, size] */
void ptx_dir_file(PtxParser *p)
{
    ptx_next(p);
    const PtxToken *nt = ptx_peek(p);
    int n = (int)ptx_expect_int(p, "file number after '.file'", 0, PTX_LIM_FILES - 1);
    const char *path = string_value(p, ptx_expect_kind(p, PTX_TOK_STRING, "a file name string"));
    if (ptx_accept(p, ',')) {
        ptx_expect_int(p, "timestamp in '.file'", 0, INT64_MAX);
        if (ptx_accept(p, ','))
            ptx_expect_int(p, "file size in '.file'", 0, INT64_MAX);
    }
    ensure_file(p, n);
    if (p->m->files[n])
        ptx_fail(p, nt, "duplicate '.file %d'", n);
    p->m->files[n] = path;
}

/* .section NAME { ... }: debug data, skipped; .debug_str is read for the
 * names that .loc function_name labels refer to. */
void ptx_dir_section(PtxParser *p)
{
    ptx_next(p);
    const PtxToken *name = ptx_next(p);
    if (name->kind != PTX_TOK_DIRECTIVE && name->kind != PTX_TOK_IDENT) {
        char d[64];
        ptx_fail(p, name, "expected a section name, found %s", ptx_tok_describe(name, d, sizeof d));
    }
    bool is_str = name->len == 10 && !memcmp(name->text, ".debug_str", 10);
    const PtxToken *open = ptx_expect(p, '{', "after the section name");
    int depth = 1;
    const char *label = NULL;
    char *buf = NULL;
    size_t blen = 0, bcap = 0;
    bool in_b8 = false;
    while (depth > 0) {
        const PtxToken *t = ptx_next(p);
        if (t->kind == PTX_TOK_EOF) {
            free(buf);
            ptx_fail(p, open, "unterminated '.section' (no closing '}')");
        }
        if (ptx_is_punct(t, '{'))
            depth++;
        else if (ptx_is_punct(t, '}'))
            depth--;
        if (!is_str)
            continue;
        if (t->kind == PTX_TOK_IDENT && ptx_is_punct(ptx_peek(p), ':')) {
            label = NULL;
            char *lab = ptx_arena_alloc(p->m->arena, (size_t)t->len + 1);
            if (lab) {
                memcpy(lab, t->text, (size_t)t->len);
                lab[t->len] = 0;
                label = lab;
            }
            blen = 0;
            in_b8 = false;
        } else if (t->kind == PTX_TOK_DIRECTIVE) {
            in_b8 = t->len == 3 && !memcmp(t->text, ".b8", 3);
        } else if (t->kind == PTX_TOK_INT && in_b8 && label) {
            if (t->ival == 0) {
                /* one finished string: keep it (arena copies, no longjmp
                 * while buf is owned here) */
                char *s = ptx_arena_alloc(p->m->arena, blen + 1);
                bool ok = s != NULL;
                if (ok) {
                    if (blen)
                        memcpy(s, buf, blen);
                    s[blen] = 0;
                    if (p->n_dstr == p->dstr_cap) {
                        int nc = p->dstr_cap ? p->dstr_cap * 2 : 64;
                        void *nv = realloc(p->dstr, (size_t)nc * sizeof *p->dstr);
                        if (nv) {
                            p->dstr = nv;
                            p->dstr_cap = nc;
                        } else {
                            ok = false;
                        }
                    }
                    if (ok) {
                        p->dstr[p->n_dstr].label = label;
                        p->dstr[p->n_dstr++].str = s;
                    }
                }
                label = NULL;
                blen = 0;
                if (!ok) {
                    free(buf);
                    ptx_nomem(p);
                }
            } else if (blen < 65536) {
                if (blen == bcap) {
                    size_t nc = bcap ? bcap * 2 : 256;
                    char *nb = realloc(buf, nc);
                    if (!nb) {
                        free(buf);
                        ptx_nomem(p);
                    }
                    buf = nb;
                    bcap = nc;
                }
                buf[blen++] = (char)t->ival;
            }
        }
    }
    free(buf);
}

void ptx_dir_pragma(PtxParser *p)
{
    ptx_next(p);
    ptx_expect_kind(p, PTX_TOK_STRING, "a string after '.pragma'");
    while (ptx_accept(p, ','))
        ptx_expect_kind(p, PTX_TOK_STRING, "a string in '.pragma'");
    ptx_expect(p, ';', "after '.pragma'");
}

void ptx_dir_version(PtxParser *p)
{
    ptx_next(p);
    const PtxToken *t = ptx_next(p);
    int maj = -1, min = 0, i = 0;
    if (t->kind == PTX_TOK_INT || t->kind == PTX_TOK_F64) {
        maj = 0;
        while (i < t->len && t->text[i] >= '0' && t->text[i] <= '9' && maj < 1000)
            maj = maj * 10 + (t->text[i++] - '0');
        if (i < t->len && t->text[i] == '.') {
            i++;
            if (i == t->len)
                maj = -1;
            while (i < t->len && t->text[i] >= '0' && t->text[i] <= '9' && min < 1000)
                min = min * 10 + (t->text[i++] - '0');
        }
        if (i != t->len || maj >= 1000 || min >= 1000)
            maj = -1;
    }
    if (maj < 0) {
        char d[64];
        ptx_fail(p, t, "expected a version like 9.0 after '.version', found %s", ptx_tok_describe(t, d, sizeof d));
    }
    p->m->version_major = maj;
    p->m->version_minor = min;
}

void ptx_dir_target(PtxParser *p)
{
    ptx_next(p);
    bool first = true;
    do {
        const PtxToken *t = ptx_expect_kind(p, PTX_TOK_IDENT, "a target name after '.target'");
        if (first) {
            if ((size_t)t->len >= sizeof p->m->target)
                ptx_fail(p, t, "target name '%.*s...' too long", 20, t->text);
            memcpy(p->m->target, t->text, (size_t)t->len);
            p->m->target[t->len] = 0;
        }
        first = false;
    } while (ptx_accept(p, ','));
}

/* .loc function_name labels name strings in .debug_str, which nvcc writes
 * after the code: swap them in at the end of the module. */
void ptx_dir_apply_debug_names(PtxParser *p)
{
    if (p->n_dstr) {
        PtxMap dm = {0};
        for (int i = 0; i < p->n_dstr; i++) {
            if (!ptx_map_set(&dm, ptx_intern(p, p->dstr[i].label, strlen(p->dstr[i].label)), i)) {
                ptx_map_free(&dm);
                ptx_nomem(p);
            }
        }
        for (int i = 0; i < p->m->n_locs; i++) {
            const char *fnn = p->m->locs[i].function_name;
            int k = fnn ? ptx_map_get(&dm, fnn) : -1;
            if (k >= 0)
                p->m->locs[i].function_name = p->dstr[k].str;
        }
        ptx_map_free(&dm);
    }
}
