/* ptx_parse.c: the PTX parser's top: ptx_parse_module(), the module-level
 * loop, function headers and bodies with their
 * { } scopes and labels, and the module queries of ptx.h.
 *
 * Pipeline: ptx_lex tokens -> (this, with ptx_dir.c for directives,
 * ptx_decl.c for declarations and ptx_inst.c for instructions, all reading
 * tokens through ptx_cursor.c) -> PtxModule (ptx.h) -> exec_decode. */
#include "ptx_int.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- functions --------------------------------------------------------- */

static void func_state_reset(PtxParser *p)
{
    ptx_map_free(&p->fregs);
    ptx_map_free(&p->fvars);
    ptx_map_free(&p->flabels);
    ptx_map_free(&p->fprotos);
    free(p->lslots);
    p->lslots = NULL;
    p->lcap = p->ln = 0;
    p->n_labels = p->n_ranges = p->n_lfix = 0;
    p->regs_cap = p->vars_fcap = p->insts_cap = 0;
    p->depth = 0;
    p->cur_loc = -1;
}

static void scope_push(PtxParser *p, const PtxToken *at)
{
    if (p->depth >= PTX_LIM_SCOPES)
        ptx_fail(p, at, "'{' scopes nested deeper than %d", PTX_LIM_SCOPES);
    PtxFunc *f = &p->m->funcs[p->fn];
    p->depth++;
    p->scope_stack[p->depth] = ++p->n_scope_ids;
    p->scope_id = p->n_scope_ids;
    p->scope_reg0[p->depth] = f->n_regs;
    p->scope_var0[p->depth] = f->n_vars;
}

/* Leaving a scope makes the names declared in it invisible again, showing
 * what they shadowed. */
static void scope_pop(PtxParser *p)
{
    PtxFunc *f = &p->m->funcs[p->fn];
    for (int i = f->n_regs - 1; i >= p->scope_reg0[p->depth]; i--)
        if (!ptx_map_set(&p->fregs, f->regs[i].name, p->reg_prev[i]))
            ptx_nomem(p);
    for (int i = f->n_vars - 1; i >= p->scope_var0[p->depth]; i--)
        if (!ptx_map_set(&p->fvars, f->vars[i].name, p->var_prev[i]))
            ptx_nomem(p);
    p->depth--;
    p->scope_id = p->depth > 0 ? p->scope_stack[p->depth] : 0;
}

static PtxOperand *fixup_operand(PtxParser *p, const PtxFixup *fx)
{
    PtxOperand *o = &p->m->funcs[fx->func].insts[fx->inst].opnds[fx->opnd];
    return fx->elem >= 0 ? &o->elems[fx->elem] : o;
}

/* At the end of a body: branch targets become instruction indexes; names
 * that are no label may still be functions defined later. */
static void resolve_labels(PtxParser *p)
{
    PtxFunc *f = &p->m->funcs[p->fn];
    for (int i = 0; i < p->n_lfix; i++) {
        const PtxFixup *fx = &p->lfix[i];
        const char *name = ptx_tok_intern(p, fx->tok);
        int li = ptx_map_get(&p->flabels, name);
        if (li >= 0) {
            PtxOperand *o = fixup_operand(p, fx);
            o->kind = PTX_OPND_LABEL;
            o->target = p->labels[li].inst;
            continue;
        }
        const char *op = f->insts[fx->inst].opcode;
        if (!strcmp(op, "bra") || !strcmp(op, "brx"))
            ptx_fail(p, fx->tok, "unknown label '%s' in function '%s'", name, f->name);
        ptx_vec_reserve(p, (void **)&p->ffix, &p->ffix_cap, p->n_ffix + 1, sizeof *p->ffix);
        p->ffix[p->n_ffix++] = *fx;
    }
}

static void parse_label(PtxParser *p)
{
    const PtxToken *t = ptx_next(p);
    ptx_next(p); /* ':' */
    const char *name = ptx_tok_intern(p, t);
    PtxFunc *f = &p->m->funcs[p->fn];
    if (ptx_is_dir(ptx_peek(p), ".callprototype")) {
        /* "proto : .callprototype (...) _ (...);" describes an indirect
         * call's signature; kept as a label the call can name */
        const PtxToken *st = ptx_peek(p);
        while (!ptx_is_punct(ptx_peek(p), ';')) {
            if (ptx_peek(p)->kind == PTX_TOK_EOF)
                ptx_fail(p, st, "unterminated '.callprototype' (no ';')");
            ptx_next(p);
        }
        ptx_next(p);
        if (!ptx_map_set(&p->fprotos, name, f->n_insts))
            ptx_nomem(p);
        return;
    }
    int prev = ptx_map_get(&p->flabels, name);
    if (prev >= 0)
        ptx_fail(p, t, "duplicate label '%s' (first defined at line %d)", name, p->labels[prev].line);
    ptx_vec_reserve(p, (void **)&p->labels, &p->labels_cap, p->n_labels + 1, sizeof *p->labels);
    p->labels[p->n_labels] = (PtxLabel){name, f->n_insts, t->line, t->col};
    if (!ptx_map_set(&p->flabels, name, p->n_labels))
        ptx_nomem(p);
    p->n_labels++;
}

static void parse_body(PtxParser *p)
{
    PtxFunc *f = &p->m->funcs[p->fn];
    func_state_reset(p);
    const PtxToken *open = ptx_next(p);
    scope_push(p, open);
    for (int i = 0; i < f->n_params; i++)
        ptx_decl_add_fvar(p, &f->params[i], open);
    for (int i = 0; i < f->n_rets; i++)
        ptx_decl_add_fvar(p, &f->rets[i], open);
    while (p->depth > 0) {
        const PtxToken *t = ptx_peek(p);
        if (ptx_is_punct(t, '}')) {
            ptx_next(p);
            scope_pop(p);
        } else if (ptx_is_punct(t, '{')) {
            scope_push(p, ptx_next(p));
        } else if (t->kind == PTX_TOK_EOF) {
            ptx_fail(p, open, "function body of '%s' has no closing '}'", f->name);
        } else if (ptx_is_dir(t, ".reg")) {
            ptx_decl_regs(p);
        } else if (ptx_is_dir(t, ".local") || ptx_is_dir(t, ".shared") || ptx_is_dir(t, ".param") ||
                   ptx_is_dir(t, ".global") || ptx_is_dir(t, ".const")) {
            ptx_decl_vars(p, false, false);
        } else if (ptx_is_dir(t, ".extern")) {
            ptx_next(p);
            ptx_decl_vars(p, false, true);
        } else if (ptx_is_dir(t, ".loc")) {
            ptx_dir_loc(p);
        } else if (ptx_is_dir(t, ".pragma")) {
            ptx_dir_pragma(p);
        } else if (t->kind == PTX_TOK_DIRECTIVE) {
            char d[64];
            ptx_fail(p, t, "unexpected directive %s in a function body", ptx_tok_describe(t, d, sizeof d));
        } else if (t->kind == PTX_TOK_IDENT && ptx_is_punct(ptx_peek_at(p, 1), ':')) {
            parse_label(p);
        } else {
            ptx_inst_parse(p);
        }
        f = &p->m->funcs[p->fn];
    }
    resolve_labels(p);
}

/* "( .param ..., .param ... )" into a new arena array */
static void parse_params(PtxParser *p, PtxVar **out, int *n_out, const char *what)
{
    const PtxToken *open = ptx_next(p);
    PtxVar *v = NULL;
    int n = 0, cap = 0;
    /* names seen so far: a map, so that a million parameters stay linear */
    PtxMap *seen = &p->pnames;
    ptx_map_free(seen);
    if (!ptx_is_punct(ptx_peek(p), ')')) {
        for (;;) {
            const PtxToken *t = ptx_peek(p);
            if (!ptx_is_dir(t, ".param")) {
                char d[64];
                ptx_fail(p, t, "expected '.param' in the %s list, found %s", what,
                         ptx_tok_describe(t, d, sizeof d));
            }
            ptx_vec_reserve(p, (void **)&p->pvec, &p->pvec_cap, n + 1, sizeof *v);
            v = p->pvec;
            memset(&v[n], 0, sizeof *v);
            ptx_decl_param(p, &v[n]);
            if (ptx_map_get(seen, v[n].name) >= 0)
                ptx_fail(p, t, "duplicate parameter '%s'", v[n].name);
            if (!ptx_map_set(seen, v[n].name, n))
                ptx_nomem(p);
            n++;
            if (ptx_accept(p, ','))
                continue;
            break;
        }
    }
    (void)open;
    (void)cap;
    ptx_expect(p, ')', what[0] == 'r' ? "after the return parameters" : "after the parameter list");
    /* exactly n in the arena: no trail of doubled copies */
    *out = NULL;
    if (n) {
        *out = ptx_alloc(p, (size_t)n * sizeof *v);
        memcpy(*out, v, (size_t)n * sizeof *v);
    }
    *n_out = n;
}

/* ".reqntid 256, 1, 1": every dimension at least 1, as ptxas requires */
static void parse_dims3(PtxParser *p, int out[3], const char *what)
{
    out[0] = (int)ptx_expect_int(p, what, 1, INT_MAX);
    out[1] = out[2] = 1;
    if (ptx_accept(p, ',')) {
        out[1] = (int)ptx_expect_int(p, what, 1, INT_MAX);
        if (ptx_accept(p, ','))
            out[2] = (int)ptx_expect_int(p, what, 1, INT_MAX);
    }
}

static void parse_function(PtxParser *p, bool visible, bool is_extern)
{
    const PtxToken *hdr = ptx_next(p);
    PtxFunc f = {0};
    f.is_entry = ptx_is_dir(hdr, ".entry");
    f.is_visible = visible;
    f.line = hdr->line;
    if (!f.is_entry && ptx_is_punct(ptx_peek(p), '('))
        parse_params(p, &f.rets, &f.n_rets, "return parameter");
    const PtxToken *nt = ptx_peek(p);
    if (nt->kind != PTX_TOK_IDENT || nt->text[0] == '%') {
        char d[64];
        ptx_fail(p, nt, "expected a function name after '%.*s', found %s", hdr->len, hdr->text,
                 ptx_tok_describe(nt, d, sizeof d));
    }
    ptx_next(p);
    f.name = ptx_tok_intern(p, nt);
    if (ptx_is_punct(ptx_peek(p), '('))
        parse_params(p, &f.params, &f.n_params, "parameter");
    for (;;) {
        const PtxToken *t = ptx_peek(p);
        if (ptx_is_dir(t, ".maxntid")) {
            ptx_next(p);
            parse_dims3(p, f.maxntid, "thread count in '.maxntid'");
        } else if (ptx_is_dir(t, ".reqntid")) {
            ptx_next(p);
            parse_dims3(p, f.reqntid, "thread count in '.reqntid'");
        } else if (ptx_is_dir(t, ".reqnctapercluster")) {
            ptx_next(p);
            parse_dims3(p, f.reqnctapercluster, "CTA count in '.reqnctapercluster'");
        } else if (ptx_is_dir(t, ".minnctapersm")) {
            ptx_next(p);
            f.minnctapersm = (int)ptx_expect_int(p, "CTA count after '.minnctapersm'", 0, INT_MAX);
        } else if (ptx_is_dir(t, ".maxnctapersm")) {
            ptx_next(p);
            ptx_expect_int(p, "CTA count after '.maxnctapersm'", 0, INT_MAX);
        } else if (ptx_is_dir(t, ".maxnreg")) {
            ptx_next(p);
            f.maxnreg = (int)ptx_expect_int(p, "register count after '.maxnreg'", 0, INT_MAX);
        } else if (ptx_is_dir(t, ".maxclusterrank")) {
            ptx_next(p);
            f.maxclusterrank = (int)ptx_expect_int(p, "CTA count after '.maxclusterrank'", 0, INT_MAX);
        } else if (ptx_is_dir(t, ".explicitcluster") || ptx_is_dir(t, ".noreturn")) {
            ptx_next(p);
        } else if (ptx_is_dir(t, ".pragma")) {
            ptx_dir_pragma(p);
        } else {
            break;
        }
    }
    const PtxToken *t = ptx_peek(p);
    bool has_body = ptx_is_punct(t, '{');
    if (!has_body && !ptx_is_punct(t, ';')) {
        char d[64];
        ptx_fail(p, t, "expected '{' or ';' after the header of '%s', found %s", f.name,
                 ptx_tok_describe(t, d, sizeof d));
    }
    if (has_body && is_extern)
        ptx_fail(p, t, "'.extern' function '%s' cannot have a body", f.name);
    f.is_extern = !has_body;
    if (ptx_map_get(&p->mod_vars, f.name) >= 0)
        ptx_fail(p, nt, "function '%s' has the name of a variable", f.name);
    PtxModule *m = p->m;
    int idx = ptx_map_get(&p->mod_funcs, f.name);
    if (idx >= 0) {
        if (!m->funcs[idx].is_extern && has_body)
            ptx_fail(p, nt, "redefinition of function '%s' (first defined at line %d)", f.name,
                     m->funcs[idx].line);
        if (!has_body) { /* another declaration: keep what we have */
            ptx_next(p);
            return;
        }
        m->funcs[idx] = f;
    } else {
        if (m->n_funcs == p->funcs_cap)
            m->funcs = ptx_arena_grow(p, m->funcs, m->n_funcs, &p->funcs_cap, sizeof *m->funcs);
        idx = m->n_funcs++;
        m->funcs[idx] = f;
        if (!ptx_map_set(&p->mod_funcs, f.name, idx))
            ptx_nomem(p);
    }
    if (!has_body) {
        ptx_next(p);
        return;
    }
    p->fn = idx;
    parse_body(p);
    p->fn = -1;
}

/* ---- the module -------------------------------------------------------- */

static void parse_module(PtxParser *p)
{
    for (;;) {
        const PtxToken *t = ptx_peek(p);
        if (t->kind == PTX_TOK_EOF)
            break;
        if (t->kind != PTX_TOK_DIRECTIVE) {
            char d[64];
            ptx_fail(p, t, "expected a directive at module level, found %s", ptx_tok_describe(t, d, sizeof d));
        }
        if (ptx_is_dir(t, ".version")) {
            ptx_dir_version(p);
        } else if (ptx_is_dir(t, ".target")) {
            ptx_dir_target(p);
        } else if (ptx_is_dir(t, ".address_size")) {
            ptx_next(p);
            const PtxToken *v = ptx_peek(p);
            int64_t a = ptx_expect_int(p, "32 or 64 after '.address_size'", 0, 64);
            if (a != 32 && a != 64)
                ptx_fail(p, v, "'.address_size' must be 32 or 64, not %lld", (long long)a);
            p->m->address_size = (int)a;
        } else if (ptx_is_dir(t, ".file")) {
            ptx_dir_file(p);
        } else if (ptx_is_dir(t, ".section")) {
            ptx_dir_section(p);
        } else if (ptx_is_dir(t, ".pragma")) {
            ptx_dir_pragma(p);
        } else if (ptx_is_dir(t, ".loc")) {
            ptx_dir_loc(p);
        } else {
            bool visible = false, is_extern = false;
            while (ptx_is_dir(t, ".visible") || ptx_is_dir(t, ".weak") || ptx_is_dir(t, ".extern") ||
                   ptx_is_dir(t, ".common")) {
                visible |= ptx_is_dir(t, ".visible") || ptx_is_dir(t, ".weak") || ptx_is_dir(t, ".common");
                is_extern |= ptx_is_dir(t, ".extern");
                ptx_next(p);
                t = ptx_peek(p);
            }
            if (ptx_is_dir(t, ".entry") || ptx_is_dir(t, ".func")) {
                parse_function(p, visible, is_extern);
            } else if (ptx_is_dir(t, ".global") || ptx_is_dir(t, ".const") || ptx_is_dir(t, ".shared") ||
                       ptx_is_dir(t, ".local")) {
                ptx_decl_vars(p, true, is_extern);
            } else {
                char d[64];
                ptx_fail(p, t, "unknown or misplaced directive %s at module level", ptx_tok_describe(t, d, sizeof d));
            }
        }
    }
    /* names that were neither labels nor known functions when used */
    for (int i = 0; i < p->n_ffix; i++) {
        const PtxFixup *fx = &p->ffix[i];
        const char *name = ptx_tok_intern(p, fx->tok);
        int fi = ptx_map_get(&p->mod_funcs, name);
        if (fi < 0)
            ptx_fail(p, fx->tok, "unknown symbol '%s' (not a register, variable, label or function)", name);
        PtxOperand *o = fixup_operand(p, fx);
        o->kind = PTX_OPND_FUNC;
        o->target = fi;
    }
    ptx_decl_resolve_inits(p);
    ptx_dir_apply_debug_names(p);
}

static void parser_free(PtxParser *p)
{
    free((void *)p->toks);
    free(p->istrs);
    ptx_map_free(&p->mod_vars);
    ptx_map_free(&p->mod_funcs);
    ptx_map_free(&p->pnames);
    free(p->pvec);
    ptx_map_free(&p->fregs);
    ptx_map_free(&p->fvars);
    ptx_map_free(&p->flabels);
    free(p->reg_prev);
    free(p->reg_scope);
    free(p->var_prev);
    free(p->var_scope);
    free(p->labels);
    ptx_map_free(&p->fprotos);
    free(p->lslots);
    free(p->ranges);
    free(p->lfix);
    free(p->ffix);
    free(p->irefs);
    free(p->items);
    free(p->dstr);
    free(p);
}

PtxModule *ptx_parse_module(const char *path, const char *text, size_t len, SimError *err)
{
    SimError local;
    if (!err)
        err = &local;
    sim_error_clear(err);
    if (!path)
        path = "";
    if (!text && len) {
        sim_error_set(err, SIM_ERR_USAGE, path, 0, 0, "no PTX text given");
        return NULL;
    }
    PtxParser *p = calloc(1, sizeof *p);
    PtxModule *m = calloc(1, sizeof *m);
    if (!p || !m) {
        free(p);
        free(m);
        sim_error_set(err, SIM_ERR_NOMEM, path, 0, 0, "out of memory");
        return NULL;
    }
    p->path = path;
    p->err = err;
    p->m = m;
    p->fn = -1;
    p->cur_loc = -1;
    m->arena = ptx_arena_new();
    size_t plen = strlen(path);
    char *pcopy = m->arena ? ptx_arena_alloc(m->arena, plen + 1) : NULL;
    m->text = m->arena && len < ((size_t)1 << 30) ? ptx_arena_alloc(m->arena, len + 1) : NULL;
    if (!pcopy || !m->text) {
        if (len >= ((size_t)1 << 30))
            sim_error_set(err, SIM_ERR_PARSE, path, 0, 0, "PTX text too large (%zu bytes)", len);
        else
            sim_error_set(err, SIM_ERR_NOMEM, path, 0, 0, "out of memory");
        goto fail;
    }
    memcpy(pcopy, path, plen + 1);
    m->path = pcopy;
    if (len)
        memcpy(m->text, text, len);
    m->text[len] = 0;
    PtxToken *toks;
    if (ptx_lex(path, m->text, len, &toks, &p->n_toks, err) != SIM_OK)
        goto fail;
    p->toks = toks;
    if (setjmp(p->jb))
        goto fail;
    parse_module(p);
    parser_free(p);
    return m;
fail:
    parser_free(p);
    ptx_module_free(m);
    return NULL;
}

void ptx_module_free(PtxModule *m)
{
    if (!m)
        return;
    ptx_arena_free(m->arena);
    free(m);
}

size_t ptx_module_bytes(const PtxModule *m)
{
    return m ? ptx_arena_bytes(m->arena) : 0;
}

int ptx_find_func(const PtxModule *m, const char *name)
{
    if (!m || !name)
        return -1;
    for (int i = 0; i < m->n_funcs; i++)
        if (!strcmp(m->funcs[i].name, name))
            return i;
    return -1;
}

bool ptx_inst_has_mod(const PtxInst *in, const char *m)
{
    for (int i = 0; i < in->n_mods; i++)
        if (!strcmp(in->mods[i], m))
            return true;
    return false;
}

const PtxLoc *ptx_inst_outer_loc(const PtxModule *m, const PtxInst *in)
{
    if (!m || !in || in->loc < 0 || in->loc >= m->n_locs)
        return NULL;
    int i = in->loc;
    /* inlined_at always points at an earlier loc, so this ends; the count
     * guards against a hand-edited module */
    for (int steps = 0; steps < m->n_locs; steps++) {
        int up = m->locs[i].inlined_at;
        if (up < 0 || up >= m->n_locs)
            break;
        i = up;
    }
    return &m->locs[i];
}

const char *ptx_source_line(const PtxModule *m, int line, char *buf, size_t cap)
{
    if (!cap)
        return buf;
    buf[0] = 0;
    if (!m || !m->text || line < 1)
        return buf;
    const char *s = m->text;
    for (int l = 1; l < line; l++) {
        s = strchr(s, '\n');
        if (!s)
            return buf;
        s++;
    }
    size_t n = strcspn(s, "\n");
    if (n && s[n - 1] == '\r')
        n--;
    if (n >= cap)
        n = cap - 1;
    memcpy(buf, s, n);
    buf[n] = 0;
    return buf;
}
