/* exec_mem.c: memory instructions -- ld, st, atom, red, prefetch:
 * their decoder (dec_mem), address translation with bounds and alignment
 * checks (exec_addr), and the handlers.  Atomic element updates are applied
 * one read-modify-write at a time, in the order --atomic-order picks
 * (exec_atomic_order). */
#include "exec_cluster.h"
#include "exec_int.h"
#include "exec_memfast.h"
#include "exec_par.h"
#include "exec_race.h"
#include "exec_trace.h"
#include "exec_decode.h"
#include "exec_lanes.h"
#include "race.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *space_word(int sp)
{
    switch (sp) {
    case PTX_SPACE_GLOBAL: return "global";
    case PTX_SPACE_SHARED: return "shared";
    case PTX_SPACE_LOCAL: return "local";
    case PTX_SPACE_CONST: return "const";
    case PTX_SPACE_PARAM: case SPACE_TPARAM: return "param";
    default: return "generic";
    }
}

static uint8_t *fault_range(Exec *x, Warp *w, const SimInst *in, int l, int sp, uint64_t a,
                            unsigned size, uint64_t limit)
{
    exec_fault(x, w, in, l, "out-of-bounds", a,
               "%u-byte access to %s address 0x%" PRIx64 " outside the %" PRIu64 " bytes of %s memory",
               size, space_word(sp), a, limit, space_word(sp));
    return NULL;
}

uint8_t *exec_addr(Exec *x, Warp *w, const SimInst *in, int l, int sp, uint64_t a,
                   unsigned size, bool write)
{
    if (size > 1 && (a & (size - 1))) {
        exec_fault(x, w, in, l, "misaligned", a,
                   "%u-byte %s access at %s address 0x%" PRIx64 " is not aligned to %u bytes",
                   size, write ? "write" : "read", space_word(sp), a, size);
        return NULL;
    }
    if (sp == PTX_SPACE_NONE) {
        if (a >= MEM_SHARED_WIN && a < MEM_SHARED_WIN + MEM_WIN_SIZE) {
            sp = PTX_SPACE_SHARED;
            a -= MEM_SHARED_WIN;
        } else if (a >= MEM_LOCAL_WIN && a < MEM_LOCAL_WIN + MEM_WIN_SIZE) {
            sp = PTX_SPACE_LOCAL;
            a -= MEM_LOCAL_WIN;
        } else if (a >= MEM_CONST_WIN && a < MEM_CONST_WIN + MEM_WIN_SIZE) {
            sp = PTX_SPACE_CONST;
            a -= MEM_CONST_WIN;
        } else if (a >= MEM_PARAM_WIN && a < MEM_PARAM_WIN + MEM_WIN_SIZE) {
            sp = PTX_SPACE_PARAM;         /* a __grid_constant__ parameter's address */
            a -= MEM_PARAM_WIN;
        } else {
            sp = PTX_SPACE_GLOBAL;
        }
    }
    int tid = exec_tid(w, l);
    switch (sp) {
    case PTX_SPACE_GLOBAL: {
        MemAlloc *al = exec_global_find(x, a, size);
        if (al && x->pchunk) { /* SMs on several threads: note it, save before writing */
            if (write && !exec_par_write(x, al, a, size)) {
                exec_fault(x, w, in, l, "unsupported", a, "out of memory saving global memory for the SMs' threads");
                return NULL;
            }
            exec_par_note(x, a, size, write);
        }
        if (al)
            return al->host + (a - al->addr);
        MemAlloc *n = mem_nearest(x->mem, a);
        if (n && a >= n->addr && a - n->addr < n->size + 4096) {
            char what[96];
            if (n->name)
                snprintf(what, sizeof what, "variable %s", n->name);
            else
                snprintf(what, sizeof what, "buffer #%d", n->id);
            exec_fault(x, w, in, l, "out-of-bounds", a,
                       "%u-byte %s at global address 0x%" PRIx64 ": %" PRIu64 " bytes past the end "
                       "of %s (%" PRIu64 " bytes, element %" PRIu64 " of %" PRIu64 ")",
                       size, write ? "write" : "read", a, a + size - (n->addr + n->size), what, n->size,
                       (a - n->addr) / size, n->size / size);
        } else {
            exec_fault(x, w, in, l, "out-of-bounds", a,
                       "%u-byte %s at global address 0x%" PRIx64 ", which is in no allocation%s",
                       size, write ? "write" : "read", a,
                       a >= 4096 ? ""
                       : x->heap_failed ? " (a null pointer: a device malloc returned NULL, its 8 MB heap "
                                          "(cudaLimitMallocHeapSize) being full)"
                       : " (a null pointer?)");
        }
        return NULL;
    }
    case PTX_SPACE_SHARED: {
        Block *b = exec_cluster_window(x, w, in, l, &a); /* distributed shared memory */
        if (!b)
            return NULL;
        if (a >= x->shared_size || size > x->shared_size - a)
            return fault_range(x, w, in, l, sp, a, size, x->shared_size);
        return b->shared + a;
    }
    case PTX_SPACE_LOCAL:
        if (a >= x->prog->local_size || size > x->prog->local_size - a)
            return fault_range(x, w, in, l, sp, a, size, x->prog->local_size);
        return w->blk->local + (uint64_t)tid * x->prog->local_size + a;
    case PTX_SPACE_CONST:
        if (write) {
            exec_fault(x, w, in, l, "out-of-bounds", a, "write to constant memory");
            return NULL;
        }
        if (a >= x->prog->const_size || size > x->prog->const_size - a)
            return fault_range(x, w, in, l, sp, a, size, x->prog->const_size);
        return x->prog->const_bank + a;
    case PTX_SPACE_PARAM:
        if (write) {
            exec_fault(x, w, in, l, "out-of-bounds", a, "write to kernel parameter space");
            return NULL;
        }
        if (a >= x->params_size || size > x->params_size - a)
            return fault_range(x, w, in, l, sp, a, size, x->params_size);
        return x->params + a;
    case SPACE_TPARAM:
        if (a >= x->prog->tparam_size || size > x->prog->tparam_size - a)
            return fault_range(x, w, in, l, sp, a, size, x->prog->tparam_size);
        return w->blk->tparam + (uint64_t)tid * x->prog->tparam_size + a;
    }
    exec_fault(x, w, in, l, "out-of-bounds", a, "bad state space");
    return NULL;
}

static inline uint64_t load_val(const uint8_t *p, unsigned size, bool sgn)
{
    switch (size) {
    case 1: return sgn ? (uint64_t)(int64_t)(int8_t)p[0] : p[0];
    case 2: { uint16_t v; memcpy(&v, p, 2); return sgn ? (uint64_t)(int64_t)(int16_t)v : v; }
    case 4: { uint32_t v; memcpy(&v, p, 4); return sgn ? (uint64_t)(int64_t)(int32_t)v : v; }
    default: { uint64_t v; memcpy(&v, p, 8); return v; }
    }
}

static inline void store_val(uint8_t *p, unsigned size, uint64_t v)
{
    switch (size) {
    case 1: p[0] = (uint8_t)v; break;
    case 2: { uint16_t t = (uint16_t)v; memcpy(p, &t, 2); break; }
    case 4: { uint32_t t = (uint32_t)v; memcpy(p, &t, 4); break; }
    default: memcpy(p, &v, 8); break;
    }
}

static void count(Exec *x, int sp, bool st, uint32_t m)
{
    uint64_t n = (uint64_t)exec_popc(m);
    if (sp == PTX_SPACE_SHARED) {
        if (st) x->stats->shared_stores += n; else x->stats->shared_loads += n;
    } else if (sp == PTX_SPACE_GLOBAL || sp == PTX_SPACE_NONE) {
        if (st) x->stats->global_stores += n; else x->stats->global_loads += n;
    }
}

static inline uint64_t lane_addr(Exec *x, Warp *w, const SimInst *in, int l)
{
    uint64_t a = in->base >= 0 ? exec_src(x, w, in->base)[l] : 0;
    return a + (uint64_t)in->off;
}

static void ex_ld(Exec *x, Warp *w, const SimInst *in, uint32_t m)
{
    unsigned sz = in->size;
    bool sgn = in->sub;
    count(x, in->space, false, m);
    if (x->trace)
        exec_trace_mem(x, w, in, m, TRACE_MEM_LOAD);
    if (x->race)
        exec_race_mem(x, w, in, m, EXEC_RACE_READ);
    if (exec_ld_fast(x, w, in, m))
        return;
    for (uint32_t r = m; r; r &= r - 1) {
        int l = __builtin_ctz(r);
        uint8_t *p = exec_addr(x, w, in, l, in->space, lane_addr(x, w, in, l), sz * in->vec, false);
        if (!p)
            return;
        if (in->vec == 1) {
            exec_reg(w, in->d)[l] = load_val(p, sz, sgn);
        } else {
            for (int k = 0; k < in->vec; k++)
                if (in->vd[k] >= 0)
                    exec_reg(w, in->vd[k])[l] = load_val(p + k * sz, sz, sgn);
        }
    }
}

/* The commonest loads and stores as handlers of their own (the decoder
 * picks them by space, size and operands): 4-byte elements of shared
 * memory one after another for a whole warp, one lane or any group of
 * lanes, and a kernel parameter -- what ex_ld and ex_st do for them without
 * their calls and looks (count's, the order of exec_ld_fast's tests).
 * Anything else -- an address out of the row or shared memory, a trace or
 * race check watching -- goes to ex_ld or ex_st. */
static void ex_ld_row(Exec *x, Warp *w, const SimInst *in, uint32_t m)
{
    uint8_t *row;
    if (x->trace || x->race) {
        ex_ld(x, w, in, m);
    } else if (exec_shared_row(x, w, in, m, &row)) {
        x->stats->shared_loads += WARP;
        exec_vec_load32(exec_reg(w, in->d), row, in->sub);
    } else if (m && !(m & (m - 1))) { /* one lane (thread 0 summing a block's values) */
        int l = __builtin_ctz(m);
        uint64_t a = exec_src(x, w, in->base)[l] + (uint64_t)in->off, limit = x->shared_size;
        if ((a & 3) || a >= limit || limit - a < 4) {
            ex_ld(x, w, in, m); /* (its fault) */
            return;
        }
        uint32_t v;
        memcpy(&v, w->blk->shared + a, sizeof v);
        x->stats->shared_loads++;
        exec_reg(w, in->d)[l] = in->sub ? (uint64_t)(int64_t)(int32_t)v : v;
    } else if (exec_shared_lanes(x, w, in, m, &row)) { /* some lanes: a diverged group */
        uint64_t *d = exec_reg(w, in->d);
        int lo = __builtin_ctz(m), n = 0;
        for (uint32_t r = m; r; r &= r - 1, n++) {
            int l = __builtin_ctz(r);
            uint32_t v;
            memcpy(&v, row + 4 * (l - lo), sizeof v);
            d[l] = in->sub ? (uint64_t)(int64_t)(int32_t)v : v;
        }
        x->stats->shared_loads += (uint64_t)n;
    } else {
        ex_ld(x, w, in, m);
    }
}

static void ex_ld_kparam(Exec *x, Warp *w, const SimInst *in, uint32_t m)
{
    if (x->trace || x->race || !m || !exec_ld_param(x, w, in, m)) /* (count: param loads count nowhere) */
        ex_ld(x, w, in, m);
}

static void ex_st(Exec *x, Warp *w, const SimInst *in, uint32_t m)
{
    unsigned sz = in->size;
    count(x, in->space, true, m);
    if (x->trace)
        exec_trace_mem(x, w, in, m, TRACE_MEM_STORE);
    if (x->race)
        exec_race_mem(x, w, in, m, EXEC_RACE_WRITE);
    if (exec_st_fast(x, w, in, m))
        return;
    for (uint32_t r = m; r; r &= r - 1) {
        int l = __builtin_ctz(r);
        uint8_t *p = exec_addr(x, w, in, l, in->space, lane_addr(x, w, in, l), sz * in->vec, true);
        if (!p)
            return;
        if (in->vec == 1) {
            store_val(p, sz, exec_src(x, w, in->s[0])[l]);
        } else {
            for (int k = 0; k < in->vec; k++)
                store_val(p + k * sz, sz, exec_src(x, w, in->vd[k])[l]);
        }
    }
}

static void ex_st_row(Exec *x, Warp *w, const SimInst *in, uint32_t m)
{
    uint8_t *row;
    if (x->trace || x->race) {
        ex_st(x, w, in, m);
    } else if (exec_shared_row(x, w, in, m, &row)) {
        x->stats->shared_stores += WARP;
        exec_vec_store32(row, exec_src(x, w, in->s[0]));
    } else if (exec_shared_lanes(x, w, in, m, &row)) { /* (one element each: no overlap, any order) */
        const uint64_t *v = exec_src(x, w, in->s[0]);
        int lo = __builtin_ctz(m), n = 0;
        for (uint32_t r = m; r; r &= r - 1, n++) {
            int l = __builtin_ctz(r);
            uint32_t t = (uint32_t)v[l];
            memcpy(row + 4 * (l - lo), &t, sizeof t);
        }
        x->stats->shared_stores += (uint64_t)n;
    } else {
        ex_st(x, w, in, m);
    }
}

/* ---- atomics -------------------------------------------------------------- */
enum { A_ADD, A_MIN, A_MAX, A_AND, A_OR, A_XOR, A_EXCH, A_CAS, A_INC, A_DEC };

static uint64_t atom_apply(const SimInst *in, bool global, uint64_t old, uint64_t b, uint64_t c)
{
    PtxType t = (PtxType)in->type;
    switch (in->sub) {
    case A_ADD:
        if (t == PTX_T_F32) /* global f32 atomics flush subnormals; shared ones do not */
            return alu_f32_add((uint32_t)old, (uint32_t)b, ALU_RN, global, false);
        if (t == PTX_T_F64)
            return alu_f64_add(old, b, ALU_RN);
        if (t == PTX_T_F16 || t == PTX_T_F16X2 || t == PTX_T_BF16 || t == PTX_T_BF16X2)
            return exec_half_add(t, (uint32_t)old, (uint32_t)b);
        return old + b;
    case A_MIN: return alu_int_min(t, old, b);
    case A_MAX: return alu_int_max(t, old, b);
    case A_AND: return old & b;
    case A_OR: return old | b;
    case A_XOR: return old ^ b;
    case A_EXCH: return b;
    case A_CAS: return old == b ? c : old;
    case A_INC: return (uint32_t)old >= (uint32_t)b ? 0 : (uint32_t)old + 1;
    case A_DEC: return ((uint32_t)old == 0 || (uint32_t)old > (uint32_t)b) ? (uint32_t)b : (uint32_t)old - 1;
    }
    return old;
}

int exec_atomic_order(Exec *x, uint32_t m, int order[WARP])
{
    int n = 0;
    for (uint32_t r = m; r; r &= r - 1)
        order[n++] = __builtin_ctz(r);
    int mode = x->cfg->atomic_order;
    if (mode == DEVICE_ATOMIC_ADVERSARIAL) /* alternately reversed and a random rotation */
        mode = (x->atom_flip++ & 1) ? DEVICE_ATOMIC_REVERSE : -1;
    switch (mode) {
    case DEVICE_ATOMIC_REVERSE:
        for (int i = 0; i < n / 2; i++) {
            int t = order[i];
            order[i] = order[n - 1 - i];
            order[n - 1 - i] = t;
        }
        break;
    case DEVICE_ATOMIC_RANDOM: /* Fisher-Yates */
        for (int i = n - 1; i > 0; i--) {
            int j = (int)exec_rand_below(x, (uint32_t)i + 1), t = order[i];
            order[i] = order[j];
            order[j] = t;
        }
        break;
    case -1:
        if (n > 1) {
            int rot = 1 + (int)exec_rand_below(x, (uint32_t)n - 1), tmp[WARP];
            for (int i = 0; i < n; i++)
                tmp[i] = order[(i + rot) % n];
            memcpy(order, tmp, (size_t)n * sizeof *order);
        }
        break;
    default:
        break;
    }
    return n;
}

static void ex_atom(Exec *x, Warp *w, const SimInst *in, uint32_t m)
{
    unsigned sz = in->size;
    x->stats->atomics += (uint64_t)exec_popc(m);
    const uint64_t *b = exec_src(x, w, in->s[0]);
    const uint64_t *c = in->s[1] != -1 ? exec_src(x, w, in->s[1]) : b;
    uint64_t wm = lanes_wmask((int)sz);
    if (x->trace)
        exec_trace_mem(x, w, in, m, TRACE_MEM_ATOMIC);
    if (x->race)
        exec_race_mem(x, w, in, m, EXEC_RACE_ATOMIC);
    int order[WARP];
    int n = exec_atomic_order(x, m, order);
    for (int i = 0; i < n; i++) { /* one read-modify-write per element, in order */
        int l = order[i];
        uint64_t a = lane_addr(x, w, in, l);
        uint8_t *p = exec_addr(x, w, in, l, in->space, a, sz, true);
        if (!p)
            return;
        bool global = in->space == PTX_SPACE_GLOBAL ||
                      (in->space == PTX_SPACE_NONE && !(a >= MEM_SHARED_WIN && a < MEM_SHARED_WIN + MEM_WIN_SIZE));
        uint64_t old = load_val(p, sz, false);
        uint64_t nv = atom_apply(in, global, old, b[l] & wm, c[l] & wm) & wm; /* the width written */
        store_val(p, sz, nv);
        /* the last arrival at cooperative groups' grid barrier flips bit 31
         * of its counter in the launch's workspace (%envreg1/2): every block
         * has arrived, the race checker may order all before with all after */
        if (x->race && x->coop_ws && global && sz == 4 && a >= x->coop_ws && a < x->coop_ws + 64 &&
            ((old ^ nv) & 0x80000000u))
            race_grid_barrier(x->race);
        if (x->trace) /* atomics are rare: the lane loop is not a hot one */
            exec_trace_atomic(x, w, in, l, a, old, nv);
        if (x->alog)
            exec_atomic_log(x, w, l, global ? PTX_SPACE_GLOBAL : PTX_SPACE_SHARED, a, old, nv);
        if (w->blk->tile) /* inside a tile atomic of a traced launch */
            exec_tile_atomic(x, w, l, a, old, nv);
        if (in->d >= 0)
            exec_reg(w, in->d)[l] = old;
    }
}

static void ex_nop(Exec *x, Warp *w, const SimInst *in, uint32_t m)
{
    (void)x; (void)w; (void)in; (void)m;
}

static const char *const mem_ignored[] = {
    "weak", "relaxed", "acquire", "release", "acq_rel", "volatile", "sc", "mmio",
    "cta", "gpu", "sys", "cluster", "nc", "ca", "cg", "cs", "lu", "cv", "wb", "wt",
    "L1::evict_normal", "L1::evict_unchanged", "L1::evict_first", "L1::evict_last",
    "L1::no_allocate", "L2::evict_first", "L2::evict_last", "L2::evict_normal",
    "L2::64B", "L2::128B", "L2::256B", "L2::cache_hint", "noftz", NULL};

static SimStatus dec_vec_elems(DecodeCtx *c, int i, bool dst)
{
    const PtxOperand *o = &c->pi->opnds[i];
    SimInst *in = c->in;
    if (o->kind != PTX_OPND_VEC || o->n_elems != in->vec)
        return dec_fail(c, "operand %d must be a vector of %d elements", i + 1, in->vec);
    for (int k = 0; k < o->n_elems; k++) {
        const PtxOperand *e = &o->elems[k];
        if (!dst && e->kind >= PTX_OPND_IMM_INT && e->kind <= PTX_OPND_IMM_F64) {
            uint64_t v = e->kind == PTX_OPND_IMM_INT ? (uint64_t)e->ival : e->fbits;
            in->vd[k] = dec_konst(c, v);
        } else if (dec_vec_reg(c, i, k, dst, &in->vd[k])) {
            return c->err->status;
        }
    }
    return SIM_OK;
}

static bool has_cache_hint(const DecodeCtx *c)
{
    for (int i = 0; i < c->pi->n_mods; i++)
        if (!strcmp(c->pi->mods[i], "L2::cache_hint"))
            return true;
    return false;
}

/* Whether the decoder picks the handlers above (WARPSIM_MEMROW=0: ex_ld
 * and ex_st for every access, as tests/test_memrow.c compares). */
static bool rows_wanted(void)
{
    const char *env = getenv("WARPSIM_MEMROW");
    return !env || strcmp(env, "0") != 0;
}

SimStatus dec_mem(DecodeCtx *c)
{

    SimInst *in = c->in;
    const char *op = c->pi->opcode;
    PtxType ts[2] = {PTX_T_NONE, PTX_T_NONE};
    dec_ignore(c, mem_ignored);
    int vspace = 0;

    if (!strcmp(op, "prefetch") || !strcmp(op, "prefetchu")) {
        dec_space(c);
        static const char *const lv[] = {"L1", "L2", "tensormap", NULL};
        dec_ignore(c, lv);
        in->fn = ex_nop;
        return SIM_OK;
    }
    bool is_ld = !strcmp(op, "ld") || !strcmp(op, "ldu");
    bool is_st = !strcmp(op, "st");
    bool is_atom = !strcmp(op, "atom"), is_red = !strcmp(op, "red");
    int sp = dec_space(c);
    if (is_ld || is_st) {
        in->vec = (uint8_t)dec_vec(c);
        if (dec_types(c, ts) != 1)
            return dec_fail(c, "expected one type");
        PtxType t = ts[0];
        int size = ptx_type_size(t);
        if (size < 1 || size > 8 || in->vec > 4)
            return dec_fail(c, "type .%s%s is not supported", in->vec > 1 ? "v8." : "", ptx_type_name(t));
        in->type = (uint8_t)t;
        in->size = (uint8_t)size;
        in->sub = ptx_type_is_signed(t);
        int ai = is_ld ? 1 : 0, vi = is_ld ? 0 : 1;
        /* .L2::cache_hint takes a cache policy (createpolicy) as a last
         * operand: a hint, read and ignored */
        int32_t policy;
        if (c->pi->n_opnds == 3 && has_cache_hint(c) && dec_src(c, 2, PTX_T_B64, &policy))
            return c->err->status;
        if (c->pi->n_opnds != 2 + (c->pi->n_opnds == 3 && has_cache_hint(c)))
            return dec_fail(c, "expected 2 operands");
        if (dec_addr(c, ai, &in->base, &in->off, &vspace))
            return c->err->status;
        if (sp == PTX_SPACE_PARAM && vspace == SPACE_TPARAM)
            sp = SPACE_TPARAM;
        /* ld.param [%rd]: an address taken with mov from a kernel parameter
         * (__grid_constant__), read in the kernel's parameter space */
        if (sp == PTX_SPACE_PARAM && in->base >= 0 && vspace == 0 && is_st)
            return dec_fail(c, "a kernel's parameters cannot be written");
        in->space = (uint8_t)sp;
        if (in->vec > 1) {
            if (dec_vec_elems(c, vi, is_ld))
                return c->err->status;
        } else if (is_ld) {
            if (dec_dst(c, vi, &in->d))
                return c->err->status;
            if (in->d < 0)
                return dec_fail(c, "destination cannot be '_'");
        } else {
            if (dec_src(c, vi, t, &in->s[0]))
                return c->err->status;
        }
        in->fn = is_ld ? ex_ld : ex_st;
        if (!rows_wanted())
            ;
        else if (sp == PTX_SPACE_SHARED && in->vec == 1 && size == 4 && in->base >= 0)
            in->fn = is_ld ? ex_ld_row : ex_st_row;
        else if (is_ld && sp == PTX_SPACE_PARAM && in->base < 0 && in->vec == 1)
            in->fn = ex_ld_kparam;
        if (is_ld)
            in->defs = in->vec > 1 ? EXEC_DEFS_VD : EXEC_DEFS_D;
        return SIM_OK;
    }
    if (is_atom || is_red) {
        static const char *const ops[] = {"add", "min", "max", "and", "or", "xor", "exch", "cas", "inc", "dec"};
        int k;
        for (k = 0; k < 10; k++)
            if (dec_mod(c, ops[k]))
                break;
        if (k == 10)
            return dec_fail(c, "missing operation (.add, .cas, ...)");
        in->sub = (uint8_t)k;
        if (dec_types(c, ts) != 1)
            return dec_fail(c, "expected one type");
        in->scope = c->cta_scope;
        PtxType t = ts[0];
        int size = ptx_type_size(t);
        bool half = t == PTX_T_F16 || t == PTX_T_F16X2 || t == PTX_T_BF16 || t == PTX_T_BF16X2;
        if ((size != 4 && size != 8 && !half) || (half && k != A_ADD))
            return dec_fail(c, "type .%s is not supported here (32- and 64-bit are; f16, f16x2, bf16 and "
                               "bf16x2 with .add.noftz)", ptx_type_name(t));
        if (ptx_type_is_float(t) && k != A_ADD && k != A_EXCH)
            return dec_fail(c, "float atomics support .add and .exch");
        if ((k == A_INC || k == A_DEC) && t != PTX_T_U32)
            return dec_fail(c, ".inc/.dec need .u32");
        if (sp != PTX_SPACE_NONE && sp != PTX_SPACE_GLOBAL && sp != PTX_SPACE_SHARED)
            return dec_fail(c, "atomics work on global or shared memory");
        in->type = (uint8_t)t;
        in->size = (uint8_t)size;
        in->space = (uint8_t)sp;
        int i = 0;
        if (is_atom) {
            if (dec_dst_or_sink(c, 0, &in->d))
                return c->err->status;
            i = 1;
        }
        int want = i + 2 + (k == A_CAS);
        int32_t policy;
        if (c->pi->n_opnds == want + 1 && has_cache_hint(c)) {
            if (dec_src(c, want, PTX_T_B64, &policy))
                return c->err->status;
            want++;
        }
        if (c->pi->n_opnds != want)
            return dec_fail(c, "expected %d operands", want);
        if (dec_addr(c, i, &in->base, &in->off, &vspace))
            return c->err->status;
        if (dec_src(c, i + 1, t, &in->s[0]))
            return c->err->status;
        if (k == A_CAS && dec_src(c, i + 2, t, &in->s[1]))
            return c->err->status;
        in->fn = ex_atom;
        return SIM_OK;
    }
    return dec_fail(c, "unknown memory instruction");
}
