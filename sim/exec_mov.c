/* exec_mov.c: mov (registers, immediates, special registers, predicates,
 * vectors packed and unpacked) and cvta -- the decoder dec_mov and its
 * handlers.  Moved out of exec_arith.c, which keeps the arithmetic. */
#include "exec_cluster.h"
#include "exec_int.h"
#include "exec_decode.h"
#include "exec_lanes.h"
#include "exec_vec.h"

#include <string.h>

/* ---- mov / cvta -------------------------------------------------------- */

static void ex_mov(Exec *x, Warp *w, const SimInst *in, uint32_t m)
{
    OPS_D; OPS_A;
    uint64_t wm = in->off ? (uint64_t)in->off : ~0ull;
    LANES(m, { d[l] = a[l] & wm; });
}

/* mov from %tid.x and the other special registers a warp's start fixes:
 * from Exec.sregs, which every block shares (so warm in the cache), or from
 * the block -- the values its slot s[0] would hold. */
static void ex_mov_sreg(Exec *x, Warp *w, const SimInst *in, uint32_t m)
{
    OPS_D;
    uint64_t wm = in->off ? (uint64_t)in->off : ~0ull, v;
    const Block *b = w->blk;
    switch (in->s[0]) {
    case SLOT_CTAID_X: v = b->ctaid.x; break;
    case SLOT_CTAID_Y: v = b->ctaid.y; break;
    case SLOT_CTAID_Z: v = b->ctaid.z; break;
    case SLOT_SMID: v = (uint64_t)b->sm; break;
    default: {
        const uint64_t *a = x->sregs + ((size_t)w->id * SLOT_COUNT + (size_t)in->s[0]) * WARP;
        exec_vec_and(d, a, wm, m);
        return;
    }
    }
    exec_vec_fill(d, v & wm, m);
}

ExecFn exec_mov_sreg_fn(void)
{
    return ex_mov_sreg;
}

static void ex_mov_dyn(Exec *x, Warp *w, const SimInst *in, uint32_t m)
{
    OPS_D;
    uint64_t clk = x->cycle; /* the launch's cycle clock (exec_sched.c) */
    uint64_t ns = x->tm ? timing_globaltimer(x) : clk; /* timing hook: modelled ns */
    uint64_t v = 0;
    switch (in->sub) {
    case PTX_SREG_CLOCK: v = (uint32_t)clk; break;
    case PTX_SREG_CLOCK_HI: v = (uint32_t)(clk >> 32); break;
    case PTX_SREG_CLOCK64: v = clk; break;
    case PTX_SREG_GLOBALTIMER: v = ns; break;  /* untimed: 1 ns per cycle */
    case PTX_SREG_GLOBALTIMER_LO: v = (uint32_t)ns; break;
    case PTX_SREG_GLOBALTIMER_HI: v = (uint32_t)(ns >> 32); break;
    case PTX_SREG_ACTIVEMASK: v = m; break;
    case PTX_SREG_ENVREG0 + 1: v = x->coop_ws >> 32; break;
    case PTX_SREG_ENVREG0 + 2: v = (uint32_t)x->coop_ws; break;
    default: break; /* the other %envreg: 0 */
    }
    LANES(m, { d[l] = v; });
}

static void ex_mov_pred(Exec *x, Warp *w, const SimInst *in, uint32_t m)
{
    (void)x;
    uint32_t v = in->s[0] >= 0 ? w->p[in->s[0]] : in->s[0] == -2 ? FULL_MASK : 0;
    w->p[in->d] = (w->p[in->d] & ~m) | (v & m);
}

/* mov.b64 %rd, {%r1, %r2} (pack) and mov.b64 {%r1, %r2}, %rd (unpack) */
static void ex_pack(Exec *x, Warp *w, const SimInst *in, uint32_t m)
{
    OPS_D;
    int n = in->vec, bits = in->size * 8 / n;
    uint64_t em = lanes_wmask(bits / 8);
    LANES(m, {
        uint64_t v = 0;
        for (int k = 0; k < n; k++)
            v |= (exec_src(x, w, in->vd[k])[l] & em) << (k * bits);
        d[l] = v & lanes_wmask(in->size);
    });
}

static void ex_unpack(Exec *x, Warp *w, const SimInst *in, uint32_t m)
{
    OPS_A;
    int n = in->vec, bits = in->size * 8 / n;
    uint64_t em = lanes_wmask(bits / 8);
    for (int k = 0; k < n; k++) {
        if (in->vd[k] < 0)
            continue;
        uint64_t *d = exec_reg(w, in->vd[k]);
        LANES(m, { d[l] = (a[l] >> (k * bits)) & em; });
    }
}

static void ex_cvta(Exec *x, Warp *w, const SimInst *in, uint32_t m)
{
    OPS_D; OPS_A;
    int64_t delta = in->off;
    uint64_t wm = in->size == 4 ? 0xffffffffu : ~0ull;
    LANES(m, { d[l] = (a[l] + (uint64_t)delta) & wm; });
}

SimStatus dec_mov(DecodeCtx *c)
{
    SimInst *in = c->in;
    PtxType ts[2] = {PTX_T_NONE, PTX_T_NONE};
    if (!strcmp(c->pi->opcode, "cvta")) {
        bool to = dec_mod(c, "to");
        int sp = dec_space(c);
        if (dec_types(c, ts) != 1)
            return dec_fail(c, "expected .u32 or .u64");
        in->size = (uint8_t)ptx_type_size(ts[0]);
        uint64_t win = sp == PTX_SPACE_SHARED ? MEM_SHARED_WIN : sp == PTX_SPACE_LOCAL ? MEM_LOCAL_WIN
                     : sp == PTX_SPACE_CONST ? MEM_CONST_WIN : sp == PTX_SPACE_PARAM ? MEM_PARAM_WIN : 0;
        if (sp == PTX_SPACE_NONE)
            return dec_fail(c, "cvta needs .global, .shared, .local, .const or .param");
        if (sp == PTX_SPACE_PARAM && !c->f->is_entry)
            return dec_fail(c, "cvta.param of a device function's parameter is not supported (a kernel's is)");
        in->off = to ? -(int64_t)win : (int64_t)win;
        if (dec_dst(c, 0, &in->d) || dec_src(c, 1, ts[0], &in->s[0]))
            return c->err->status;
        in->fn = exec_vec_int(EXEC_VEC_CVTA, in) ? exec_vec_int(EXEC_VEC_CVTA, in) : ex_cvta;
        in->defs = EXEC_DEFS_D;
        return SIM_OK;
    }
    int nt = dec_types(c, ts);
    if (nt != 1)
        return dec_fail(c, "expected one type");
    int vec = dec_vec(c);
    (void)vec;
    PtxType t = ts[0];
    in->type = (uint8_t)t;
    if (c->pi->n_opnds != 2)
        return dec_fail(c, "expected 2 operands");
    const PtxOperand *d0 = &c->pi->opnds[0], *s0 = &c->pi->opnds[1];
    if (t == PTX_T_PRED && s0->kind == PTX_OPND_SREG && s0->sreg == PTX_SREG_IS_EXPLICIT_CLUSTER) {
        /* %is_explicit_cluster is the one predicate special register:
         * true in a launch with cluster dimensions (exec_cluster.c) */
        if (dec_pred(c, 0, &in->d, NULL))
            return c->err->status;
        in->sub = (uint8_t)s0->sreg;
        in->fn = exec_cluster_mov_fn(true);
        in->defs = EXEC_DEFS_PRED;
        return SIM_OK;
    }
    if (t == PTX_T_PRED) {
        bool neg = false;
        if (dec_pred(c, 0, &in->d, NULL) || dec_pred(c, 1, &in->s[0], &neg))
            return c->err->status;
        if (neg)
            return dec_fail(c, "negated source");
        in->fn = ex_mov_pred;
        in->defs = EXEC_DEFS_PRED;
        return SIM_OK;
    }
    int sz = ptx_type_size(t);
    if (d0->kind == PTX_OPND_VEC || s0->kind == PTX_OPND_VEC) {
        const PtxOperand *v = d0->kind == PTX_OPND_VEC ? d0 : s0;
        if (v->n_elems != 2 && v->n_elems != 4)
            return dec_fail(c, "vector of %d elements", v->n_elems);
        /* .b16 {2 x 8}, .b32 {2 x 16, 4 x 8}, .b64 {2 x 32, 4 x 16} */
        if (sz != 2 && sz != 4 && sz != 8)
            return dec_fail(c, "splitting or packing .%s is not supported (16, 32 and 64 bits are)",
                            ptx_type_name(t));
        if (v->n_elems > sz)
            return dec_fail(c, "%d elements do not fit in .%s", v->n_elems, ptx_type_name(t));
        in->vec = (uint8_t)v->n_elems;
        in->size = (uint8_t)sz;
        int vi = d0->kind == PTX_OPND_VEC ? 0 : 1;
        for (int k = 0; k < v->n_elems; k++)
            if (dec_vec_reg(c, vi, k, vi == 0, &in->vd[k]))
                return c->err->status;
        if (d0->kind == PTX_OPND_VEC) {
            if (dec_src(c, 1, t, &in->s[0]))
                return c->err->status;
            in->fn = ex_unpack;
            in->defs = EXEC_DEFS_VD;
        } else {
            if (dec_dst(c, 0, &in->d))
                return c->err->status;
            in->fn = ex_pack;
            in->defs = EXEC_DEFS_D;
        }
        return SIM_OK;
    }
    if (dec_dst(c, 0, &in->d))
        return c->err->status;
    in->defs = EXEC_DEFS_D; /* ex_mov_dyn, the cluster's ex_mov_cluster and ex_mov */
    if (s0->kind == PTX_OPND_SREG) {
        switch (s0->sreg) {
        case PTX_SREG_CLOCK: case PTX_SREG_CLOCK_HI: case PTX_SREG_CLOCK64:
        case PTX_SREG_GLOBALTIMER: case PTX_SREG_GLOBALTIMER_LO: case PTX_SREG_GLOBALTIMER_HI:
        case PTX_SREG_ACTIVEMASK:
            in->sub = (uint8_t)s0->sreg;
            in->fn = ex_mov_dyn;
            in->visible = 1; /* clocks: when it runs matters */
            return SIM_OK;
        default:
            if (exec_cluster_is_sreg(s0->sreg) && s0->sreg != PTX_SREG_IS_EXPLICIT_CLUSTER) {
                in->sub = (uint8_t)s0->sreg;
                in->fn = exec_cluster_mov_fn(false);
                return SIM_OK;
            }
            if (s0->sreg >= PTX_SREG_ENVREG0 && s0->sreg <= PTX_SREG_ENVREG31) {
                in->sub = (uint8_t)s0->sreg;
                in->fn = ex_mov_dyn;
                return SIM_OK;
            }
            break;
        }
    }
    if (s0->kind == PTX_OPND_FUNC)
        return dec_fail(c, "function addresses are not supported");
    if (dec_src(c, 1, t, &in->s[0]))
        return c->err->status;
    in->off = sz < 8 ? (int64_t)lanes_wmask(sz) : 0;
    in->fn = s0->kind == PTX_OPND_SREG && in->s[0] >= 0 && in->s[0] < SLOT_COUNT ? ex_mov_sreg : ex_mov;
    if (in->fn == ex_mov && exec_vec_int(EXEC_VEC_MOV, in))
        in->fn = exec_vec_int(EXEC_VEC_MOV, in);
    return SIM_OK;
}
