/* ptx_decl.c: PTX declarations: .reg registers (with %r<N> ranges),
 * variables in .global/.const/.shared/.local/.param with alignment, vectors,
 * array dimensions and initializers (numbers, floats and symbol addresses),
 * and the parameters of function headers.  Called by ptx_parse.c; names are
 * scoped per { } block of a function body. */
#include "ptx_int.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

typedef struct {
    PtxType type;
    int vec;
    int align;
} Attrs;

static PtxSpace space_of(const PtxToken *t)
{
    if (ptx_is_dir(t, ".global")) return PTX_SPACE_GLOBAL;
    if (ptx_is_dir(t, ".const")) return PTX_SPACE_CONST;
    if (ptx_is_dir(t, ".shared")) return PTX_SPACE_SHARED;
    if (ptx_is_dir(t, ".local")) return PTX_SPACE_LOCAL;
    if (ptx_is_dir(t, ".param")) return PTX_SPACE_PARAM;
    if (ptx_is_dir(t, ".reg")) return PTX_SPACE_REG;
    return PTX_SPACE_NONE;
}

static PtxType type_of(const PtxToken *t)
{
    char w[16];
    if (t->kind != PTX_TOK_DIRECTIVE || t->len < 2 || (size_t)t->len > sizeof w)
        return PTX_T_NONE;
    memcpy(w, t->text + 1, (size_t)t->len - 1);
    w[t->len - 1] = 0;
    return ptx_type_from_name(w);
}

/* .align N, .vN, the type, .ptr [.space] [.align N], .attribute(...) */
static void parse_attrs(PtxParser *p, Attrs *a, const char *what)
{
    char d[64];
    bool after_ptr = false;
    memset(a, 0, sizeof *a);
    a->vec = 1;
    for (;;) {
        const PtxToken *t = ptx_peek(p);
        PtxType ty = type_of(t);
        if (ptx_is_dir(t, ".align")) {
            ptx_next(p);
            const PtxToken *nt = ptx_peek(p);
            int64_t al = ptx_expect_int(p, "alignment after '.align'", 1, 1 << 20);
            if (al & (al - 1))
                ptx_fail(p, nt, "alignment %lld is not a power of two", (long long)al);
            a->align = (int)al;
        } else if (ptx_is_dir(t, ".v2") || ptx_is_dir(t, ".v4") || ptx_is_dir(t, ".v8")) {
            if (a->vec != 1)
                ptx_fail(p, t, "two vector sizes in one %s declaration", what);
            a->vec = t->text[2] - '0';
            ptx_next(p);
        } else if (ty != PTX_T_NONE) {
            if (a->type != PTX_T_NONE)
                ptx_fail(p, t, "two types in one %s declaration", what);
            a->type = ty;
            ptx_next(p);
        } else if (ptx_is_dir(t, ".ptr")) {
            after_ptr = true;
            ptx_next(p);
        } else if (after_ptr && space_of(t) != PTX_SPACE_NONE && space_of(t) != PTX_SPACE_REG) {
            ptx_next(p);
        } else if (ptx_is_dir(t, ".attribute")) {
            ptx_next(p);
            const PtxToken *open = ptx_expect(p, '(', "after '.attribute'");
            for (int depth = 1; depth > 0;) {
                const PtxToken *x = ptx_next(p);
                if (x->kind == PTX_TOK_EOF)
                    ptx_fail(p, open, "unterminated '.attribute('");
                depth += ptx_is_punct(x, '(') - ptx_is_punct(x, ')');
            }
        } else {
            break;
        }
    }
    if (a->type == PTX_T_NONE)
        ptx_fail(p, ptx_peek(p), "expected a type in the %s declaration, found %s", what,
                 ptx_tok_describe(ptx_peek(p), d, sizeof d));
}

/* The name and "[N][M]" / "[]" dimensions of a variable. */
static void parse_name_dims(PtxParser *p, PtxVar *v, const Attrs *a, const PtxToken **name_tok,
                            uint64_t *dims, int *nd, bool *unsized)
{
    char d[64];
    const PtxToken *t = ptx_peek(p);
    if (t->kind != PTX_TOK_IDENT)
        ptx_fail(p, t, "expected a variable name, found %s", ptx_tok_describe(t, d, sizeof d));
    ptx_next(p);
    *name_tok = t;
    v->name = ptx_tok_intern(p, t);
    v->type = a->type;
    v->vec = a->vec;
    v->line = t->line;
    int es = ptx_type_size(a->type) * a->vec;
    v->align = a->align ? a->align : (es ? es : 1);
    if (a->type == PTX_T_PRED)
        ptx_fail(p, t, "'%s': .pred variables are only allowed in '.reg'", v->name);
    *nd = 0;
    *unsized = false;
    uint64_t count = 1;
    while (ptx_is_punct(ptx_peek(p), '[')) {
        const PtxToken *br = ptx_next(p);
        if (*nd >= PTX_LIM_DIMS)
            ptx_fail(p, br, "'%s' has more than %d array dimensions", v->name, PTX_LIM_DIMS);
        uint64_t n = 0;
        if (ptx_is_punct(ptx_peek(p), ']')) {
            if (*nd > 0)
                ptx_fail(p, br, "only the first dimension of '%s' may be left empty", v->name);
            *unsized = true;
        } else {
            n = (uint64_t)ptx_expect_int(p, "array size", 0, INT64_MAX);
        }
        ptx_expect(p, ']', "after the array size");
        dims[(*nd)++] = n;
        if (n && count > PTX_LIM_VAR_BYTES / n)
            ptx_fail(p, br, "array '%s' is larger than %llu bytes", v->name,
                     (unsigned long long)PTX_LIM_VAR_BYTES);
        count *= n ? n : 1;
    }
    if (*unsized)
        count = 0;
    else if (*nd && count && dims[0] == 0)
        count = 0;
    for (int i = 0; i < *nd; i++)
        if (dims[i] == 0 && !(*unsized && i == 0))
            count = 0;
    v->is_array = *nd > 0;
    v->count = count;
    if ((uint64_t)es * count > PTX_LIM_VAR_BYTES || (es && count > PTX_LIM_VAR_BYTES / (uint64_t)es))
        ptx_fail(p, t, "array '%s' is larger than %llu bytes", v->name, (unsigned long long)PTX_LIM_VAR_BYTES);
    v->size = count * (uint64_t)es;
}

/* ---- initializers ------------------------------------------------------ */

static void push_item(PtxParser *p, const PtxInitItem *it)
{
    ptx_vec_reserve(p, (void **)&p->items, &p->items_cap, p->n_items + 1, sizeof *p->items);
    p->items[p->n_items++] = *it;
}

/* sym | generic(sym), then an optional +N / -N */
static void parse_symbol_expr(PtxParser *p, PtxInitItem *it)
{
    char d[64];
    const PtxToken *t = ptx_peek(p);
    if (t->kind == PTX_TOK_IDENT && t->len == 7 && !memcmp(t->text, "generic", 7) &&
        ptx_is_punct(ptx_peek_at(p, 1), '(')) {
        ptx_next(p);
        ptx_next(p);
        it->generic = true;
        t = ptx_peek(p);
    }
    if (t->kind != PTX_TOK_IDENT || t->text[0] == '%')
        ptx_fail(p, t, "expected a symbol name in the initializer, found %s", ptx_tok_describe(t, d, sizeof d));
    ptx_next(p);
    it->tok = t;
    it->sym = ptx_tok_intern(p, t);
    it->kind = PTX_TOK_IDENT;
    if (it->generic)
        ptx_expect(p, ')', "after 'generic(' symbol");
    if (ptx_is_punct(ptx_peek(p), '+') || ptx_is_punct(ptx_peek(p), '-')) {
        bool minus = ptx_next(p)->punct == '-';
        int64_t v = ptx_expect_int(p, "address offset", -INT64_MAX, INT64_MAX);
        it->addend = minus ? -v : v;
    }
}

static void parse_init_scalar(PtxParser *p, uint64_t idx)
{
    char d[64];
    PtxInitItem it = {.idx = idx, .tok = ptx_peek(p)};
    const PtxToken *t = ptx_peek(p);
    if (ptx_is_punct(t, '-')) {
        ptx_next(p);
        t = ptx_next(p);
        it.kind = t->kind;
        if (t->kind == PTX_TOK_INT) {
            it.bits = 0 - t->ival;
            it.neg = true;
        } else if (t->kind == PTX_TOK_F32) {
            it.bits = t->ival ^ 0x80000000u;
        } else if (t->kind == PTX_TOK_F64) {
            it.bits = t->ival ^ 0x8000000000000000ull;
        } else {
            ptx_fail(p, t, "expected a number after '-', found %s", ptx_tok_describe(t, d, sizeof d));
        }
    } else if (t->kind == PTX_TOK_INT && ptx_is_punct(ptx_peek_at(p, 1), '(')) {
        /* 0xFF00(generic(sym)+4): one byte of an address */
        uint64_t mask = t->ival;
        int shift = -1;
        for (int k = 0; k < 64; k += 8)
            if (mask == (uint64_t)0xFF << k)
                shift = k;
        if (shift < 0)
            ptx_fail(p, t, "address byte mask must be 0xFF shifted by whole bytes");
        ptx_next(p);
        ptx_next(p);
        parse_symbol_expr(p, &it);
        ptx_expect(p, ')', "after the masked symbol");
        it.masked = true;
        it.shift = shift;
    } else if (t->kind == PTX_TOK_INT || t->kind == PTX_TOK_F32 || t->kind == PTX_TOK_F64) {
        ptx_next(p);
        it.kind = t->kind;
        it.bits = t->ival;
    } else if (t->kind == PTX_TOK_IDENT) {
        parse_symbol_expr(p, &it);
    } else {
        ptx_fail(p, t, "expected an initializer value, found %s", ptx_tok_describe(t, d, sizeof d));
    }
    push_item(p, &it);
}

/* After '{': items of a brace level covering slots [rs, rs+rlen); a nested
 * brace covers stride[level] slots.  Returns the end of what was written. */
static uint64_t parse_init_list(PtxParser *p, const PtxVar *v, int level, int nlev, const uint64_t *stride,
                                uint64_t rs, uint64_t rlen)
{
    uint64_t cur = rs, end = rs;
    if (ptx_accept(p, '}'))
        return rs;
    for (;;) {
        const PtxToken *t = ptx_peek(p);
        if (ptx_is_punct(t, '{')) {
            if (level + 1 >= nlev)
                ptx_fail(p, t, "too many braces in the initializer of '%s'", v->name);
            ptx_next(p);
            uint64_t sub = stride[level];
            uint64_t off = (cur - rs + sub - 1) / sub * sub;
            if (off >= rlen || rlen - off < sub)
                ptx_fail(p, t, "too many initializers for '%s'", v->name);
            uint64_t e = parse_init_list(p, v, level + 1, nlev, stride, rs + off, sub);
            (void)e;
            cur = rs + off + sub;
            end = cur;
        } else {
            if (cur - rs >= rlen)
                ptx_fail(p, t, "too many initializers for '%s'", v->name);
            parse_init_scalar(p, cur);
            cur++;
            end = cur;
        }
        if (ptx_accept(p, ','))
            continue;
        ptx_expect(p, '}', "after the initializer values");
        return end;
    }
}

static void put_bytes(uint8_t *dst, int n, uint64_t v)
{
    for (int i = 0; i < n && i < 8; i++)
        dst[i] = (uint8_t)(v >> (8 * i));
}

static float to_f32(double d)
{
    if (isfinite(d) && fabs(d) > FLT_MAX)
        return d > 0 ? INFINITY : -INFINITY;
    return (float)d;
}

/* Lay the collected items out into v->init and v->init_refs. */
static void layout_init(PtxParser *p, PtxVar *v, int var_index, const PtxToken *at)
{
    int es = ptx_type_size(v->type);
    if (v->size > PTX_LIM_INIT_BYTES || p->init_total + v->size > PTX_LIM_INIT_TOTAL)
        ptx_fail(p, at, "initialized variable '%s' is too large (%llu bytes)", v->name,
                 (unsigned long long)v->size);
    p->init_total += v->size;
    v->init = ptx_alloc(p, v->size ? v->size : 1);
    int n_refs = 0;
    for (int i = 0; i < p->n_items; i++)
        n_refs += p->items[i].kind == PTX_TOK_IDENT;
    if (n_refs)
        v->init_refs = ptx_alloc(p, (size_t)n_refs * sizeof *v->init_refs);
    bool is_float = v->type == PTX_T_F32 || v->type == PTX_T_F64;
    bool is_half = v->type == PTX_T_F16 || v->type == PTX_T_BF16 || v->type == PTX_T_F16X2 ||
                   v->type == PTX_T_BF16X2;
    for (int i = 0; i < p->n_items; i++) {
        const PtxInitItem *it = &p->items[i];
        uint64_t off = it->idx * (uint64_t)es;
        if (off + (uint64_t)es > v->size)
            ptx_fail(p, it->tok, "too many initializers for '%s'", v->name);
        uint8_t *dst = v->init + off;
        if (it->kind == PTX_TOK_IDENT) {
            if (!it->masked && es != 8 && es != 4)
                ptx_fail(p, it->tok, "address of '%s' does not fit the .%s elements of '%s'", it->sym,
                         ptx_type_name(v->type), v->name);
            PtxInitRef *r = &v->init_refs[v->n_init_refs++];
            *r = (PtxInitRef){.offset = off, .size = es, .symbol = it->sym, .addend = it->addend,
                              .generic = it->generic, .shift = it->shift};
            continue;
        }
        if (is_half && it->kind != PTX_TOK_INT)
            ptx_fail(p, it->tok, "float initializers for .%s are not supported; write the bits in hex",
                     ptx_type_name(v->type));
        if (is_float) {
            double dv;
            if (it->kind == PTX_TOK_INT) {
                dv = it->neg ? (double)(int64_t)it->bits : (double)it->bits;
            } else if (it->kind == PTX_TOK_F32) {
                uint32_t b = (uint32_t)it->bits;
                float f;
                memcpy(&f, &b, 4);
                dv = f;
            } else {
                memcpy(&dv, &it->bits, 8);
            }
            if (v->type == PTX_T_F32 && it->kind != PTX_TOK_F32) {
                float f = to_f32(dv);
                uint32_t b;
                memcpy(&b, &f, 4);
                put_bytes(dst, 4, b);
            } else if (v->type == PTX_T_F32) {
                put_bytes(dst, 4, it->bits);
            } else if (it->kind == PTX_TOK_F64) {
                put_bytes(dst, 8, it->bits);
            } else {
                uint64_t b;
                memcpy(&b, &dv, 8);
                put_bytes(dst, 8, b);
            }
        } else {
            put_bytes(dst, es, it->bits);
        }
    }
    /* nvcc spells a pointer in a byte array as eight masked bytes
     * 0xFF(s), 0xFF00(s), ...: merge each full run into one 8-byte ref */
    int o = 0, k_item = 0;
    for (int i = 0; i < v->n_init_refs; i++) {
        PtxInitRef *r = &v->init_refs[i];
        bool run = r->size == 1 && r->shift == 0 && i + 8 <= v->n_init_refs;
        for (int k = 1; run && k < 8; k++) {
            const PtxInitRef *q = &v->init_refs[i + k];
            run = q->size == 1 && q->shift == 8 * k && q->offset == r->offset + (uint64_t)k &&
                  q->symbol == r->symbol && q->addend == r->addend && q->generic == r->generic;
        }
        /* the token of the i-th symbol item, for messages at module end */
        while (k_item < p->n_items && p->items[k_item].kind != PTX_TOK_IDENT)
            k_item++;
        const PtxToken *tok = k_item < p->n_items ? p->items[k_item].tok : at;
        v->init_refs[o] = *r;
        if (run) {
            v->init_refs[o].size = 8;
            for (int k = 0; k < 7; k++) {
                k_item++;
                while (k_item < p->n_items && p->items[k_item].kind != PTX_TOK_IDENT)
                    k_item++;
            }
            i += 7;
        }
        k_item++;
        ptx_vec_reserve(p, (void **)&p->irefs, &p->irefs_cap, p->n_irefs + 1, sizeof *p->irefs);
        p->irefs[p->n_irefs].var = var_index;
        p->irefs[p->n_irefs].ref = o;
        p->irefs[p->n_irefs++].tok = tok;
        o++;
    }
    v->n_init_refs = o;
    v->is_ptr_init = v->n_init_refs > 0;
}

/* "= ..." for v, whose dims are known; fixes the count of "x[] = {...}". */
static void parse_initializer(PtxParser *p, PtxVar *v, int var_index, const uint64_t *dims, int nd,
                              bool unsized, const PtxToken *name_tok)
{
    uint64_t stride[PTX_LIM_DIMS + 2];
    uint64_t ext[PTX_LIM_DIMS + 2];
    int nlev = 0;
    for (int i = 0; i < nd; i++)
        ext[nlev++] = dims[i] ? dims[i] : 1;
    if (v->vec > 1)
        ext[nlev++] = (uint64_t)v->vec;
    if (nlev == 0)
        ext[nlev++] = 1;
    /* stride[l]: slots per item of a brace at level l */
    stride[nlev - 1] = 1;
    for (int l = nlev - 2; l >= 0; l--)
        stride[l] = stride[l + 1] * ext[l + 1];
    uint64_t total = unsized ? UINT64_MAX : v->count * (uint64_t)v->vec;
    if (!unsized && v->count == 0 && nd == 0)
        total = (uint64_t)v->vec;
    p->n_items = 0;
    uint64_t end;
    if (ptx_accept(p, '{')) {
        end = parse_init_list(p, v, 0, nlev, stride, 0, total);
    } else {
        if (nd > 0 || v->vec > 1)
            ptx_fail(p, ptx_peek(p), "the initializer of array '%s' needs braces", v->name);
        parse_init_scalar(p, 0);
        end = 1;
    }
    if (unsized) {
        /* "x[] = {...}": as many elements as written */
        uint64_t per = stride[0]; /* slots of one x[i], vector lanes included */
        uint64_t inner = per / (uint64_t)v->vec ? per / (uint64_t)v->vec : 1;
        uint64_t first = (end + per - 1) / per;
        if (first == 0)
            first = 1;
        v->count = first * inner;
        uint64_t es = (uint64_t)ptx_type_size(v->type) * (uint64_t)v->vec;
        if (es && v->count > PTX_LIM_VAR_BYTES / es)
            ptx_fail(p, name_tok, "array '%s' is larger than %llu bytes", v->name,
                     (unsigned long long)PTX_LIM_VAR_BYTES);
        v->size = v->count * es;
    }
    layout_init(p, v, var_index, name_tok);
    p->n_items = 0;
}

/* ---- registering names ------------------------------------------------- */

static int add_module_var(PtxParser *p, const PtxVar *v, const PtxToken *at)
{
    PtxModule *m = p->m;
    if (ptx_map_get(&p->mod_funcs, v->name) >= 0)
        ptx_fail(p, at, "variable '%s' has the name of a function", v->name);
    int prev = ptx_map_get(&p->mod_vars, v->name);
    if (prev >= 0) {
        if (v->is_extern)
            return prev;       /* a declaration of what we have */
        if (!m->vars[prev].is_extern)
            ptx_fail(p, at, "redeclaration of '%s' (first declared at line %d)", v->name, m->vars[prev].line);
        m->vars[prev] = *v;    /* the definition of an .extern */
        return prev;
    }
    if (m->n_vars == p->vars_cap)
        m->vars = ptx_arena_grow(p, m->vars, m->n_vars, &p->vars_cap, sizeof *m->vars);
    m->vars[m->n_vars] = *v;
    if (!ptx_map_set(&p->mod_vars, v->name, m->n_vars))
        ptx_nomem(p);
    return m->n_vars++;
}

static void reserve_side(PtxParser *p, int **a, int **b, int *cap, int need)
{
    int c1 = *cap, c2 = *cap;
    ptx_vec_reserve(p, (void **)a, &c1, need, sizeof **a);
    ptx_vec_reserve(p, (void **)b, &c2, need, sizeof **b);
    *cap = c1;
}

int ptx_decl_add_fvar(PtxParser *p, const PtxVar *v, const PtxToken *at)
{
    PtxFunc *f = &p->m->funcs[p->fn];
    int prev = ptx_map_get(&p->fvars, v->name);
    if (prev >= 0 && p->var_scope[prev] == p->scope_id)
        ptx_fail(p, at, "redeclaration of '%s' in the same scope (first declared at line %d)", v->name,
                 f->vars[prev].line);
    if (f->n_vars == p->vars_fcap)
        f->vars = ptx_arena_grow(p, f->vars, f->n_vars, &p->vars_fcap, sizeof *f->vars);
    reserve_side(p, &p->var_prev, &p->var_scope, &p->var_side_cap, f->n_vars + 1);
    int i = f->n_vars;
    f->vars[i] = *v;
    p->var_prev[i] = prev;
    p->var_scope[i] = p->scope_id;
    if (!ptx_map_set(&p->fvars, v->name, i))
        ptx_nomem(p);
    return f->n_vars++;
}

static void add_reg(PtxParser *p, const char *name, const Attrs *a, const PtxToken *at)
{
    PtxFunc *f = &p->m->funcs[p->fn];
    if (++p->total_regs > PTX_LIM_REGS)
        ptx_fail(p, at, "more than %d registers in the module", PTX_LIM_REGS);
    int prev = ptx_map_get(&p->fregs, name);
    if (prev >= 0 && p->reg_scope[prev] == p->scope_id)
        ptx_fail(p, at, "redeclaration of register '%s' in the same scope", name);
    if (f->n_regs == p->regs_cap)
        f->regs = ptx_arena_grow(p, f->regs, f->n_regs, &p->regs_cap, sizeof *f->regs);
    reserve_side(p, &p->reg_prev, &p->reg_scope, &p->reg_side_cap, f->n_regs + 1);
    int i = f->n_regs++;
    f->regs[i] = (PtxReg){name, a->type, a->vec};
    p->reg_prev[i] = prev;
    p->reg_scope[i] = p->scope_id;
    if (!ptx_map_set(&p->fregs, name, i))
        ptx_nomem(p);
}

/* ---- the declarations -------------------------------------------------- */

void ptx_decl_vars(PtxParser *p, bool module_level, bool is_extern)
{
    const PtxToken *sp = ptx_next(p);
    PtxSpace space = space_of(sp);
    Attrs a;
    parse_attrs(p, &a, "variable");
    for (;;) {
        PtxVar v = {.space = space, .is_extern = is_extern};
        const PtxToken *name_tok;
        uint64_t dims[PTX_LIM_DIMS];
        int nd;
        bool unsized;
        parse_name_dims(p, &v, &a, &name_tok, dims, &nd, &unsized);
        bool has_init = ptx_is_punct(ptx_peek(p), '=');
        if (has_init) {
            const PtxToken *eq = ptx_peek(p);
            if (space != PTX_SPACE_GLOBAL && space != PTX_SPACE_CONST)
                ptx_fail(p, eq, "'.%s' variable '%s' cannot have an initializer", ptx_space_name(space), v.name);
            if (!module_level)
                ptx_fail(p, eq, "initializers are only supported at module level ('%s')", v.name);
            if (is_extern)
                ptx_fail(p, eq, "'.extern' variable '%s' cannot have an initializer", v.name);
        } else if (unsized && !is_extern) {
            ptx_fail(p, name_tok, "array '%s' needs a size (or '.extern', or an initializer)", v.name);
        }
        if (module_level) {
            int idx = add_module_var(p, &v, name_tok);
            if (has_init) {
                ptx_next(p);
                PtxVar tmp = v;
                parse_initializer(p, &tmp, idx, dims, nd, unsized, name_tok);
                p->m->vars[idx] = tmp;
            }
        } else {
            ptx_decl_add_fvar(p, &v, name_tok);
        }
        if (ptx_accept(p, ','))
            continue;
        ptx_expect(p, ';', "after the variable declaration");
        return;
    }
}

void ptx_decl_param(PtxParser *p, PtxVar *v)
{
    ptx_next(p); /* .param */
    Attrs a;
    parse_attrs(p, &a, "parameter");
    const PtxToken *name_tok;
    uint64_t dims[PTX_LIM_DIMS];
    int nd;
    bool unsized;
    memset(v, 0, sizeof *v);
    v->space = PTX_SPACE_PARAM;
    parse_name_dims(p, v, &a, &name_tok, dims, &nd, &unsized);
    if (unsized)
        ptx_fail(p, name_tok, "parameter '%s' needs a size", v->name);
}

void ptx_decl_regs(PtxParser *p)
{
    char d[64];
    ptx_next(p); /* .reg */
    Attrs a;
    parse_attrs(p, &a, "register");
    for (;;) {
        const PtxToken *t = ptx_peek(p);
        if (t->kind != PTX_TOK_IDENT)
            ptx_fail(p, t, "expected a register name, found %s", ptx_tok_describe(t, d, sizeof d));
        ptx_next(p);
        if (ptx_accept(p, '<')) {
            /* %r<25> declares %r0 .. %r24 */
            int64_t n = ptx_expect_int(p, "register count", 0, PTX_LIM_REG_RANGE);
            ptx_expect(p, '>', "after the register count");
            if (t->len > 200)
                ptx_fail(p, t, "register name prefix too long");
            char buf[224];
            for (int64_t i = 0; i < n; i++) {
                int k = snprintf(buf, sizeof buf, "%.*s%lld", t->len, t->text, (long long)i);
                add_reg(p, ptx_intern(p, buf, (size_t)k), &a, t);
            }
            ptx_vec_reserve(p, (void **)&p->ranges, &p->ranges_cap, p->n_ranges + 1, sizeof *p->ranges);
            p->ranges[p->n_ranges++] = (PtxRange){ptx_tok_intern(p, t), (int)n};
        } else {
            add_reg(p, ptx_tok_intern(p, t), &a, t);
        }
        if (ptx_accept(p, ','))
            continue;
        ptx_expect(p, ';', "after the register declaration");
        return;
    }
}

void ptx_decl_resolve_inits(PtxParser *p)
{
    for (int i = 0; i < p->n_irefs; i++) {
        const PtxVar *v = &p->m->vars[p->irefs[i].var];
        const char *sym = v->init_refs[p->irefs[i].ref].symbol;
        if (ptx_map_get(&p->mod_vars, sym) < 0 && ptx_map_get(&p->mod_funcs, sym) < 0)
            ptx_fail(p, p->irefs[i].tok, "unknown symbol '%s' in the initializer of '%s'", sym, v->name);
    }
}
