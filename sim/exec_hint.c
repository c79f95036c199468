/* exec_hint.c: the cache-control instructions of sm_80/sm_90 -- createpolicy,
 * applypriority, discard -- decoded and run.  They are hints that change no
 * value; discard still checks the memory it names.  Also mapa and getctarank
 * for the clusters of one CTA a launch without clusters has. */
#include "exec_cluster.h"
#include "exec_int.h"
#include "exec_decode.h"
#include "exec_lanes.h"

#include <string.h>

/* createpolicy, applypriority, discard (PTX ISA 9.7.9.x, sm_80+): cache
 * policy and eviction priority are hints that change no value.  The policy
 * createpolicy makes is an opaque 64-bit value; here it is 0.  discard makes
 * the lines' contents undefined: the simulator keeps them, one of the values
 * the ISA allows, after checking the 128 bytes are valid global memory. */
static void ex_policy(Exec *x, Warp *w, const SimInst *in, uint32_t m)
{
    if (in->d >= 0) {
        uint64_t *d = exec_reg(w, in->d);
        LANES(m, { d[l] = 0; });
    }
    (void)x;
}

static void ex_discard(Exec *x, Warp *w, const SimInst *in, uint32_t m)
{
    const uint64_t *b = in->base >= 0 ? exec_reg(w, in->base) : NULL;
    for (uint32_t r = m; r; r &= r - 1) {
        int l = __builtin_ctz(r);
        uint64_t a = (b ? b[l] : 0) + (uint64_t)in->off;
        if (a % 128) {
            exec_fault(x, w, in, l, "misaligned", a, "%s of 0x%llx: the address must be 128-byte aligned",
                       in->sub ? "discard.global.L2" : "applypriority", (unsigned long long)a);
            return;
        }
        if (!exec_addr(x, w, in, l, in->space, a, 128, false))
            return;
    }
}

static SimStatus dec_mapa(DecodeCtx *c);

SimStatus dec_cache_ctl(DecodeCtx *c)
{
    SimInst *in = c->in;
    const char *op = c->pi->opcode;
    if (!strcmp(op, "mapa") || !strcmp(op, "getctarank"))
        return dec_mapa(c);
    if (!strcmp(op, "createpolicy")) {
        static const char *const ign[] = {"fractional", "range", "cvt", "L2", "L2::evict_last", "L2::evict_normal",
                                          "L2::evict_first", "L2::evict_unchanged", "b64", NULL};
        dec_ignore(c, ign);
        if (c->pi->n_opnds < 1 || dec_dst(c, 0, &in->d))
            return dec_fail(c, "expected createpolicy d, ...");
        for (int i = 1; i < c->pi->n_opnds; i++) {
            int32_t s;
            const PtxOperand *o = &c->pi->opnds[i];
            if (o->kind == PTX_OPND_ADDR)
                continue;
            if (dec_src(c, i, o->kind == PTX_OPND_IMM_F64 || o->kind == PTX_OPND_IMM_F32 ? PTX_T_F32 : PTX_T_B64, &s))
                return c->err->status;
        }
        in->fn = ex_policy;
        return SIM_OK;
    }
    /* applypriority{.global}.L2::evict_normal [a], 128;  discard{.global}.L2 [a], 128; */
    in->sub = !strcmp(op, "discard");
    static const char *const ign[] = {"global", "L2", "L2::evict_normal", NULL};
    dec_ignore(c, ign);
    int vspace = 0;
    if (c->pi->n_opnds != 2 || dec_addr(c, 0, &in->base, &in->off, &vspace))
        return dec_fail(c, "expected [a], 128");
    const PtxOperand *sz = &c->pi->opnds[1];
    if (sz->kind != PTX_OPND_IMM_INT || sz->ival != 128)
        return dec_fail(c, "the size must be 128");
    in->space = PTX_SPACE_GLOBAL;
    in->fn = ex_discard;
    return SIM_OK;
}


/* mapa{.space}.type d, a, rank: the address of a's variable in CTA rank of
 * the cluster (the same offset with the rank in its bits 24..28,
 * exec_cluster.h); getctarank d, a: the rank whose shared memory a is in.
 * Without clusters, rank 0 is the CTA itself (the same address); a rank
 * outside the cluster is a fault (PTX ISA: undefined). */
static void ex_mapa(Exec *x, Warp *w, const SimInst *in, uint32_t m)
{
    OPS_D; OPS_A;
    const uint64_t *r = in->s[1] != -1 ? exec_src(x, w, in->s[1]) : NULL;
    uint64_t mask = in->size == 4 ? 0xffffffffull : ~0ull;
    int n = x->cl ? x->cl->size : 1;
    for (uint32_t q = m; q; q &= q - 1) {
        int l = __builtin_ctz(q);
        /* the offset in the shared window: generic addresses carry the window's base */
        uint64_t v = a[l] & mask, base = in->space == PTX_SPACE_SHARED ? 0 : v & ~(MEM_WIN_SIZE - 1);
        uint64_t off = v - base, rank1 = off >> EXEC_DSMEM_SHIFT;
        int own = w->blk->cl ? w->blk->crank : 0;
        if (!r) { /* getctarank */
            d[l] = rank1 && rank1 <= (uint64_t)n ? rank1 - 1 : (uint64_t)own;
            continue;
        }
        uint32_t k = (uint32_t)r[l];
        if (k >= (uint32_t)n) {
            exec_fault(x, w, in, l, "out-of-bounds", v,
                       "mapa to CTA rank %u, outside the cluster of %d CTA%s (ranks 0..%d): the rank given to "
                       "cluster.map_shared_rank() must be below cluster.num_blocks()",
                       k, n, n == 1 ? "" : "s", n - 1);
            return;
        }
        d[l] = n == 1 ? v : (base + ((uint64_t)(k + 1) << EXEC_DSMEM_SHIFT) + (off & EXEC_DSMEM_OFF)) & mask;
    }
}

static SimStatus dec_mapa(DecodeCtx *c)
{
    SimInst *in = c->in;
    bool rank = !strcmp(c->pi->opcode, "getctarank");
    in->space = dec_shared(c) ? PTX_SPACE_SHARED : PTX_SPACE_NONE;
    PtxType ts[2] = {PTX_T_NONE, PTX_T_NONE};
    if (dec_types(c, ts) != 1 || ptx_type_size(ts[0]) < 4)
        return dec_fail(c, "needs .u32 or .u64");
    in->size = (uint8_t)ptx_type_size(ts[0]);
    if (c->pi->n_opnds != (rank ? 2 : 3) || dec_dst(c, 0, &in->d) || dec_src(c, 1, ts[0], &in->s[0]))
        return dec_fail(c, rank ? "expected getctarank d, a" : "expected mapa d, a, rank");
    if (!rank && dec_src(c, 2, PTX_T_U32, &in->s[1]))
        return c->err->status;
    in->fn = ex_mapa;
    return SIM_OK;
}
