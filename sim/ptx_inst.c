/* ptx_inst.c: PTX instructions: the guard, the opcode split on its dots into
 * opcode and modifiers, and the operands with every name resolved against
 * the function's scopes and the module (registers, special registers,
 * variables, labels, functions, addresses, vectors, call lists).  Names not
 * known yet (labels and functions further down) are left as fixups that
 * ptx_parse.c resolves at the end of the function and of the module. */
#include "ptx_int.h"

#include <stdio.h>
#include <string.h>

int ptx_lookup_reg(PtxParser *p, const char *name)
{
    return ptx_map_get(&p->fregs, name);
}

/* "unknown register '%r99' (declared: %r<25>)" */
static noreturn void fail_unknown_reg(PtxParser *p, const PtxToken *t, const char *what)
{
    size_t n = (size_t)t->len;
    while (n > 1 && t->text[n - 1] >= '0' && t->text[n - 1] <= '9')
        n--;
    for (int i = p->n_ranges - 1; i >= 0; i--) {
        const char *pre = p->ranges[i].prefix;
        if (strlen(pre) == n && !memcmp(pre, t->text, n))
            ptx_fail(p, t, "unknown %s '%.*s' (declared: %s<%d>)", what, t->len > 200 ? 200 : t->len, t->text,
                     pre, p->ranges[i].count);
    }
    ptx_fail(p, t, "unknown %s '%.*s'", what, t->len > 200 ? 200 : t->len, t->text);
}

static bool sreg_needs_component(const char *name)
{
    static const char *const vec[] = {"%tid", "%ntid", "%ctaid", "%nctaid", "%cluster_ctaid",
                                      "%cluster_nctaid", "%clusterid", "%nclusterid"};
    for (size_t i = 0; i < sizeof vec / sizeof *vec; i++)
        if (!strcmp(name, vec[i]))
            return true;
    return false;
}

/* Where an operand sits, for a fixup: top-level operand opnd, elem -1 or
 * the element of a (...) list / {...} vector. */
typedef struct {
    int inst, opnd, elem;
    int depth;
} Slot;

static void parse_operand(PtxParser *p, PtxOperand *o, Slot s);

/* [+|-] N after a name or register */
static int64_t parse_offset(PtxParser *p)
{
    const PtxToken *t = ptx_peek(p);
    if (ptx_is_punct(t, '+')) {
        ptx_next(p);
        return ptx_expect_int(p, "an offset after '+'", -INT64_MAX, INT64_MAX);
    }
    if (ptx_is_punct(t, '-') && ptx_peek_at(p, 1)->kind == PTX_TOK_INT) {
        return ptx_expect_int(p, "an offset", -INT64_MAX, INT64_MAX);
    }
    return 0;
}

/* A name: register, variable, prototype, function, or a fixup. */
static void parse_name(PtxParser *p, PtxOperand *o, Slot s, bool in_addr)
{
    const PtxToken *t = ptx_next(p);
    const char *name = ptx_tok_intern(p, t);
    int r = ptx_lookup_reg(p, name);
    if (r >= 0) {
        o->kind = PTX_OPND_REG;
        o->reg = r;
        if (!in_addr && ptx_is_punct(ptx_peek(p), '|')) {
            ptx_next(p);
            const PtxToken *t2 = ptx_peek(p);
            if (t2->kind != PTX_TOK_IDENT)
                ptx_fail(p, t2, "expected a register after '|'");
            ptx_next(p);
            o->reg2 = ptx_lookup_reg(p, ptx_tok_intern(p, t2));
            if (o->reg2 < 0)
                fail_unknown_reg(p, t2, "register");
        }
        return;
    }
    if (t->text[0] == '%') {
        PtxSreg sr = ptx_sreg_from_name(name);
        if (sr != PTX_SREG_NONE && !in_addr) {
            o->kind = PTX_OPND_SREG;
            o->sreg = sr;
            return;
        }
        if (sreg_needs_component(name))
            ptx_fail(p, t, "special register '%s' needs a component (.x, .y or .z)", name);
        fail_unknown_reg(p, t, "register");
    }
    int v = ptx_map_get(&p->fvars, name);
    bool mod = false;
    if (v < 0) {
        v = ptx_map_get(&p->mod_vars, name);
        mod = v >= 0;
    }
    if (v >= 0) {
        o->kind = PTX_OPND_VAR;
        o->var = v;
        o->var_is_module = mod;
        o->ival = parse_offset(p);
        return;
    }
    if (!in_addr && !strcmp(name, "WARP_SZ")) { /* PTX's predefined constant: the warp size */
        o->kind = PTX_OPND_IMM_INT;
        o->ival = 32;
        return;
    }
    if (in_addr)
        ptx_fail(p, t, "unknown symbol '%s' in an address (not a register or variable)", name);
    int pi = ptx_map_get(&p->fprotos, name);
    if (pi >= 0) {
        o->kind = PTX_OPND_LABEL;
        o->target = pi;
        return;
    }
    int fi = ptx_map_get(&p->mod_funcs, name);
    if (fi >= 0) {
        o->kind = PTX_OPND_FUNC;
        o->target = fi;
        return;
    }
    if (strchr(name, '.'))
        ptx_fail(p, t, "unknown symbol '%s'", name);
    if (s.depth > 1)
        ptx_fail(p, t, "unknown symbol '%s' (not a register or variable)", name);
    /* a label further down, or a function defined later */
    ptx_vec_reserve(p, (void **)&p->lfix, &p->lfix_cap, p->n_lfix + 1, sizeof *p->lfix);
    p->lfix[p->n_lfix++] = (PtxFixup){p->fn, s.inst, s.opnd, s.elem, t};
}

/* {a, b} or (a, b) */
static void parse_group(PtxParser *p, PtxOperand *o, Slot s, char close)
{
    const PtxToken *open = ptx_next(p);
    o->kind = close == '}' ? PTX_OPND_VEC : PTX_OPND_LIST;
    if (s.depth >= 2)
        ptx_fail(p, open, "operands nested too deeply");
    PtxOperand tmp[64];
    PtxOperand *el = tmp;
    int n = 0, cap = 64;
    if (close == ')' && ptx_accept(p, ')'))
        return;
    for (;;) {
        if (n == cap) {
            if (cap >= PTX_LIM_ELEMS)
                ptx_fail(p, ptx_peek(p), "more than %d elements in '%c...%c'", PTX_LIM_ELEMS, open->punct, close);
            PtxOperand *ne = ptx_alloc(p, (size_t)cap * 2 * sizeof *ne);
            memcpy(ne, el, (size_t)n * sizeof *ne);
            el = ne;
            cap *= 2;
        }
        Slot es = {s.inst, s.opnd, s.depth == 0 ? n : -1, s.depth + 1};
        parse_operand(p, &el[n], es);
        n++;
        if (ptx_accept(p, ','))
            continue;
        char after[32];
        snprintf(after, sizeof after, "to close '%c'", open->punct);
        ptx_expect(p, close, after);
        break;
    }
    o->elems = ptx_alloc(p, (size_t)n * sizeof *el);
    memcpy(o->elems, el, (size_t)n * sizeof *el);
    o->n_elems = n;
}

/* [reg+off], [var+off], [N], [reg, {coords}] */
static void parse_address(PtxParser *p, PtxOperand *o, Slot s)
{
    char d[64];
    const PtxToken *open = ptx_next(p);
    o->kind = PTX_OPND_ADDR;
    const PtxToken *t = ptx_peek(p);
    if (t->kind == PTX_TOK_IDENT) {
        PtxOperand b = {.reg = -1, .reg2 = -1, .var = -1, .target = -1};
        parse_name(p, &b, s, true);
        o->reg = b.reg;
        o->var = b.var;
        o->var_is_module = b.var_is_module;
        o->ival = b.kind == PTX_OPND_VAR ? b.ival : parse_offset(p);
    } else if (t->kind == PTX_TOK_INT || ptx_is_punct(t, '-')) {
        o->ival = ptx_expect_int(p, "an address", -INT64_MAX, INT64_MAX);
    } else {
        ptx_fail(p, t, "expected a register, variable or number in '[...]', found %s",
                 ptx_tok_describe(t, d, sizeof d));
    }
    if (ptx_accept(p, ',')) {
        /* texture / tensor coordinates: [tex, {x, y}] */
        if (s.depth >= 1)
            ptx_fail(p, open, "operands nested too deeply");
        o->elems = ptx_alloc(p, sizeof *o->elems);
        o->n_elems = 1;
        parse_operand(p, &o->elems[0], (Slot){s.inst, s.opnd, -1, s.depth + 1});
    }
    ptx_expect(p, ']', "to close '['");
}

static void parse_operand(PtxParser *p, PtxOperand *o, Slot s)
{
    char d[64];
    memset(o, 0, sizeof *o);
    o->reg = o->reg2 = o->var = o->target = -1;
    const PtxToken *t = ptx_peek(p);
    if (ptx_is_punct(t, '!') || (ptx_is_punct(t, '-') && ptx_peek_at(p, 1)->kind == PTX_TOK_IDENT)) {
        ptx_next(p);
        const PtxToken *r = ptx_peek(p);
        if (r->kind != PTX_TOK_IDENT)
            ptx_fail(p, r, "expected a register after '%c', found %s", t->punct, ptx_tok_describe(r, d, sizeof d));
        parse_name(p, o, s, false);
        if (o->kind != PTX_OPND_REG)
            ptx_fail(p, r, "'%c' applies to registers only", t->punct);
        o->neg = true;
        return;
    }
    if (ptx_is_punct(t, '-')) {
        /* a negative immediate: the minus is folded into the value */
        ptx_next(p);
        const PtxToken *n = ptx_next(p);
        if (n->kind == PTX_TOK_INT) {
            o->kind = PTX_OPND_IMM_INT;
            o->ival = (int64_t)(0 - n->ival);
        } else if (n->kind == PTX_TOK_F32) {
            o->kind = PTX_OPND_IMM_F32;
            o->fbits = n->ival ^ 0x80000000u;
        } else if (n->kind == PTX_TOK_F64) {
            o->kind = PTX_OPND_IMM_F64;
            o->fbits = n->ival ^ 0x8000000000000000ull;
        } else {
            ptx_fail(p, n, "expected a number or register after '-', found %s", ptx_tok_describe(n, d, sizeof d));
        }
        return;
    }
    switch (t->kind) {
    case PTX_TOK_INT:
        ptx_next(p);
        o->kind = PTX_OPND_IMM_INT;
        o->ival = (int64_t)t->ival;
        return;
    case PTX_TOK_F32:
        ptx_next(p);
        o->kind = PTX_OPND_IMM_F32;
        o->fbits = t->ival;
        return;
    case PTX_TOK_F64:
        ptx_next(p);
        o->kind = PTX_OPND_IMM_F64;
        o->fbits = t->ival;
        return;
    case PTX_TOK_IDENT:
        if (t->len == 1 && t->text[0] == '_') {
            ptx_next(p);
            o->kind = PTX_OPND_SINK;
            return;
        }
        parse_name(p, o, s, false);
        return;
    case PTX_TOK_PUNCT:
        if (t->punct == '[') {
            parse_address(p, o, s);
            return;
        }
        if (t->punct == '{' || t->punct == '(') {
            parse_group(p, o, s, t->punct == '{' ? '}' : ')');
            return;
        }
        break;
    default:
        break;
    }
    ptx_fail(p, t, "expected an operand, found %s", ptx_tok_describe(t, d, sizeof d));
}

void ptx_inst_parse(PtxParser *p)
{
    char d[64];
    PtxFunc *f = &p->m->funcs[p->fn];
    PtxInst in;
    const char *mods[PTX_MAX_MODS];
    PtxOperand opnds[PTX_MAX_OPNDS];
    memset(&in, 0, sizeof in);
    in.guard = -1;
    in.loc = p->cur_loc;
    const PtxToken *t = ptx_peek(p);
    if (ptx_is_punct(t, '@')) {
        ptx_next(p);
        in.guard_neg = ptx_accept(p, '!');
        const PtxToken *g = ptx_peek(p);
        if (g->kind != PTX_TOK_IDENT)
            ptx_fail(p, g, "expected a predicate register after '@', found %s", ptx_tok_describe(g, d, sizeof d));
        ptx_next(p);
        in.guard = ptx_lookup_reg(p, ptx_tok_intern(p, g));
        if (in.guard < 0)
            fail_unknown_reg(p, g, "predicate register");
        t = ptx_peek(p);
    }
    if (t->kind != PTX_TOK_IDENT || t->text[0] == '%' || t->text[0] == '$')
        ptx_fail(p, t, "expected an instruction, found %s", ptx_tok_describe(t, d, sizeof d));
    ptx_next(p);
    in.ptx_line = t->line;
    in.ptx_col = t->col;
    /* "ld.global.nc.v4.f32" -> "ld" + {"global","nc","v4","f32"} */
    int st = 0, part = 0;
    for (int i = 0; i <= t->len; i++) {
        if (i < t->len && t->text[i] != '.')
            continue;
        if (i == st)
            ptx_fail(p, t, "empty modifier in '%.*s'", t->len > 60 ? 60 : t->len, t->text);
        const char *w = ptx_intern(p, t->text + st, (size_t)(i - st));
        if (part == 0)
            in.opcode = w;
        else if (part > PTX_MAX_MODS)
            ptx_fail(p, t, "more than %d modifiers on '%s'", PTX_MAX_MODS, in.opcode);
        else
            mods[part - 1] = w;
        part++;
        st = i + 1;
    }
    in.n_mods = part - 1;
    int idx = f->n_insts;
    if (!ptx_is_punct(ptx_peek(p), ';')) {
        for (;;) {
            if (in.n_opnds == PTX_MAX_OPNDS)
                ptx_fail(p, ptx_peek(p), "more than %d operands for '%s'", PTX_MAX_OPNDS, in.opcode);
            memset(&opnds[in.n_opnds], 0, sizeof opnds[0]);
            parse_operand(p, &opnds[in.n_opnds], (Slot){idx, in.n_opnds, -1, 0});
            in.n_opnds++;
            if (!ptx_accept(p, ','))
                break;
        }
    }
    const PtxToken *semi = ptx_peek(p);
    if (!ptx_is_punct(semi, ';'))
        ptx_fail(p, semi, "expected ';' after instruction, found %s", ptx_tok_describe(semi, d, sizeof d));
    ptx_next(p);
    /* exactly as many modifiers and operands as written, in the arena */
    if (in.n_mods) {
        const char **m = ptx_alloc(p, (size_t)in.n_mods * sizeof *m);
        memcpy(m, mods, (size_t)in.n_mods * sizeof *m);
        in.mods = m;
    }
    if (in.n_opnds) {
        PtxOperand *o = ptx_alloc(p, (size_t)in.n_opnds * sizeof *o);
        memcpy(o, opnds, (size_t)in.n_opnds * sizeof *o);
        in.opnds = o;
    }
    if (!strcmp(in.opcode, "tile"))
        ptx_tile_check(p, &in, t);
    if (f->n_insts == p->insts_cap)
        f->insts = ptx_arena_grow(p, f->insts, f->n_insts, &p->insts_cap, sizeof *f->insts);
    f->insts[f->n_insts++] = in;
}
