/* exec_regs.c: which value registers of a function a lane may read before
 * it has written them.  Hardware leaves a register undefined until it is
 * written; the simulator gives 0, so a warp's registers are cleared when it
 * starts (exec_warp_init) -- but only these need it: a register every path
 * writes before reading keeps whatever the slot held, unseen.  Decided once
 * per function at load (exec_decode.c) by a forward "written on every path"
 * analysis over its instructions, per lane: each lane's walk through a
 * function is a path of its control-flow graph, whatever the other lanes do.
 * Read by exec_run.c, which clears the rest of a kernel's registers and all
 * of the functions it calls. */
#include "exec_int.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
    int base, n;              /* the function's first pc, its instructions */
    int lo, nv;               /* its value slots [lo, lo + nv) */
    int words;                /* uint64_t per slot set */
} Plan;

static void set_add(const Plan *pl, uint64_t *set, int32_t slot)
{
    if (slot >= pl->lo && slot < pl->lo + pl->nv) {
        int k = slot - pl->lo;
        set[k / 64] |= 1ull << (k % 64);
    }
}

/* The slots instruction `in` reads (any lane, before it writes), into use. */
static void uses_of(const Plan *pl, const SimInst *in, uint64_t *use)
{
    for (int k = 0; k < 4; k++) {
        set_add(pl, use, in->s[k]);
        if (!(in->defs & EXEC_DEFS_VD))
            set_add(pl, use, in->vd[k]);
    }
    set_add(pl, use, in->base);
    set_add(pl, use, in->d2);
    if (in->wsync)
        set_add(pl, use, in->wmask);
    if (!(in->defs & (EXEC_DEFS_D | EXEC_DEFS_PRED)))
        set_add(pl, use, in->d); /* a handler that may keep part of d */
}

/* The slots it writes whole in every lane that runs it, into def. */
static void defs_of(const Plan *pl, const SimInst *in, uint64_t *def)
{
    if (in->guard >= 0) /* lanes whose guard is false write nothing */
        return;
    if (in->defs & EXEC_DEFS_D)
        set_add(pl, def, in->d);
    if (in->defs & EXEC_DEFS_VD)
        for (int k = 0; k < 4; k++)
            set_add(pl, def, in->vd[k]);
}

int exec_succs(const SimProgram *p, int f, int i, int out[2])
{
    const SimFuncInfo *fi = &p->funcs[f];
    const PtxFunc *fn = &p->ptx->funcs[f];
    int base = fi->entry_pc, n = fi->end_pc - fi->entry_pc;
    const SimInst *in = &p->insts[base + i];
    int k = 0;
    if (in->flow == SIM_FLOW_BRANCH) {
        int t = in->target - base;
        if (t < 0 || t >= n)
            return -1;
        out[k++] = t;
        if (in->guard >= 0 && i + 1 < n) /* lanes whose guard is false fall through */
            out[k++] = i + 1;
        return k;
    }
    if (in->flow == SIM_FLOW_SELF && in->guard < 0) {
        /* ret and exit leave (the implicit ret at the end too); call comes
         * back to the next instruction, bar and the rest go on to it */
        const char *op = i < fn->n_insts ? fn->insts[i].opcode : "ret";
        if (!strcmp(op, "ret") || !strcmp(op, "exit"))
            return 0;
    }
    if (i + 1 < n)
        out[k++] = i + 1;
    return k;
}

/* Mark in need (nv bits) every slot of function f that some lane may read
 * before writing it.  false: the analysis gave up (every slot may be). */
static bool plan(const SimProgram *p, int f, uint64_t *need)
{
    const SimFuncInfo *fi = &p->funcs[f];
    Plan pl = {.base = fi->entry_pc, .n = fi->end_pc - fi->entry_pc, .lo = fi->reg_base, .nv = fi->n_vals};
    pl.words = (pl.nv + 63) / 64;
    if (pl.n <= 0)
        return true;
    for (int i = 0; i < pl.n; i++)
        if (p->insts[pl.base + i].pseudo) /* tile markers read operands of their own (exec_tile.c) */
            return false;
    size_t w = (size_t)pl.words;
    uint64_t *in = malloc((size_t)pl.n * w * sizeof *in), *tmp = malloc(2 * w * sizeof *tmp);
    int *work = malloc((size_t)pl.n * sizeof *work);
    char *reached = calloc((size_t)pl.n, 1), *queued = calloc((size_t)pl.n, 1);
    bool ok = in && tmp && work && reached && queued;
    int nwork = 0;
    if (ok) {
        /* in[i]: slots written on every path from the entry to i */
        memset(in, 0, w * sizeof *in);
        reached[0] = queued[0] = 1;
        work[nwork++] = 0;
    }
    while (ok && nwork) {
        int i = work[--nwork];
        queued[i] = 0;
        uint64_t *out = tmp;
        memcpy(out, in + (size_t)i * w, w * sizeof *out);
        defs_of(&pl, &p->insts[pl.base + i], out);
        int s[2], ns = exec_succs(p, f, i, s);
        if (ns < 0) {
            ok = false;
            break;
        }
        for (int k = 0; k < ns; k++) {
            uint64_t *t = in + (size_t)s[k] * w;
            bool changed = !reached[s[k]];
            if (changed) {
                memcpy(t, out, w * sizeof *t);
                reached[s[k]] = 1;
            } else {
                for (size_t j = 0; j < w; j++) {
                    uint64_t v = t[j] & out[j];
                    changed |= v != t[j];
                    t[j] = v;
                }
            }
            if (changed && !queued[s[k]]) {
                queued[s[k]] = 1;
                work[nwork++] = s[k];
            }
        }
    }
    if (ok)
        for (int i = 0; i < pl.n; i++) {
            if (!reached[i])
                continue;
            const SimInst *ins = &p->insts[pl.base + i];
            uint64_t *use = tmp + w;
            memset(use, 0, w * sizeof *use);
            uses_of(&pl, ins, use);
            /* a warp-synchronous instruction reads other lanes' registers:
             * whatever they wrote, its sources must be clear at the start */
            const uint64_t *have = in + (size_t)i * w;
            for (size_t j = 0; j < w; j++)
                need[j] |= ins->wsync ? use[j] : use[j] & ~have[j];
        }
    free(in);
    free(tmp);
    free(work);
    free(reached);
    free(queued);
    return ok;
}

void exec_regs_plan(SimProgram *p, int f)
{
    SimFuncInfo *fi = &p->funcs[f];
    free(fi->read_unset);
    fi->read_unset = NULL;
    if (p->ptx->funcs[f].is_extern || fi->n_vals <= 0)
        return;
    uint64_t *need = calloc((size_t)(fi->n_vals + 63) / 64, sizeof *need);
    if (need && plan(p, f, need))
        fi->read_unset = need;
    else
        free(need); /* NULL: any of them may be */
}
