/* inspect.c: the read-only view of a paused launch (inspect.h).  A SimView
 * is the executor itself (struct Exec); these functions translate its
 * internals into what a debugger shows. */
#include "inspect.h"
#include "exec_int.h"

#include <stdio.h>
#include <string.h>

struct SimView {
    Exec x;
};

static const Exec *X(const SimView *v) { return &v->x; }

uint64_t view_cycle(const SimView *v) { return X(v)->cycle; }
uint64_t view_warp_insts(const SimView *v) { return X(v)->stats->warp_insts; }
int view_sm_count(const SimView *v) { return X(v)->nsm; }
uint64_t view_grid_blocks(const SimView *v) { return X(v)->nblocks; }
uint64_t view_blocks_done(const SimView *v) { return X(v)->stats->blocks; }
int view_warps_per_block(const SimView *v) { return X(v)->nwarps; }
int view_threads_per_block(const SimView *v) { return X(v)->nthreads; }
uint64_t view_shared_size(const SimView *v) { return X(v)->shared_size; }
const char *view_kernel(const SimView *v) { return X(v)->prog->ptx->funcs[X(v)->fidx].name; }

int view_resident_count(const SimView *v)
{
    int n = 0;
    for (int i = 0; i < X(v)->nslots; i++)
        n += X(v)->blocks[i].live;
    return n;
}

bool view_resident(const SimView *v, int i, uint64_t *block, DeviceDim3 *ctaid, int *sm)
{
    for (int s = 0; s < X(v)->nslots; s++) {
        const Block *b = &X(v)->blocks[s];
        if (!b->live || i-- > 0)
            continue;
        if (block)
            *block = b->linear;
        if (ctaid)
            *ctaid = b->ctaid;
        if (sm)
            *sm = b->sm;
        return true;
    }
    return false;
}

/* The warp whose callback is running: the block and warp most looked at,
 * found without scanning every resident block slot. */
static _Thread_local const Warp *view_current;

static const Block *find_block(const SimView *v, uint64_t block)
{
    const Block *cb = view_current ? view_current->blk : NULL;
    uintptr_t lo = (uintptr_t)X(v)->blocks, hi = (uintptr_t)(X(v)->blocks + X(v)->nslots);
    if (cb && (uintptr_t)cb >= lo && (uintptr_t)cb < hi && cb->live && cb->linear == block)
        return cb; /* (of this launch: a callback may look at another one) */
    for (int s = 0; s < X(v)->nslots; s++)
        if (X(v)->blocks[s].live && X(v)->blocks[s].linear == block)
            return &X(v)->blocks[s];
    return NULL;
}

static const Warp *find_warp(const SimView *v, uint64_t block, int warp)
{
    const Block *b = find_block(v, block);
    if (!b || warp < 0 || warp >= X(v)->nwarps)
        return NULL;
    return &b->warps[warp];
}

bool view_warp(const SimView *v, uint64_t block, int warp, ViewWarp *out)
{
    const Warp *w = find_warp(v, block, warp);
    if (!w)
        return false;
    memset(out, 0, sizeof *out);
    out->present = w->present;
    out->active = w->run;
    out->at_barrier = w->barwait;
    out->at_warp_sync = w->syncwait;
    out->exited = w->exited & w->present;
    for (int l = 0; l < WARP; l++) {
        bool live = (w->present >> l & 1) && !(w->exited >> l & 1);
        out->pc[l] = !live ? -1 : (w->conv && (w->run >> l & 1)) ? w->upc : w->pc[l];
        out->barrier[l] = (w->barwait >> l & 1) ? w->barid[l] : -1;
    }
    return true;
}

bool view_next(const SimView *v, uint64_t block, int warp, int32_t *pc, uint32_t *mask)
{
    const Warp *w = find_warp(v, block, warp);
    if (!w || !w->run)
        return false;
    *pc = exec_next_group(w, mask);
    return true;
}

bool view_inst(const SimView *v, int32_t pc, char *text, size_t cap, int *ptx_line, const char **file, int *line)
{
    const SimProgram *p = X(v)->prog;
    if (pc < 0 || pc >= p->n_insts)
        return false;
    const SimInst *in = &p->insts[pc];
    const PtxModule *m = p->ptx;
    if (text && cap) {
        char buf[512];
        ptx_source_line(m, in->ptx_line, buf, sizeof buf);
        const char *s = buf;
        while (*s == ' ' || *s == '\t')
            s++;
        snprintf(text, cap, "%s", s);
    }
    if (ptx_line)
        *ptx_line = in->ptx_line;
    if (file)
        *file = "";
    if (line)
        *line = 0;
    if (in->loc >= 0 && in->loc < m->n_locs) {
        const PtxLoc *l = &m->locs[in->loc];
        int guard = 0;
        while (l->inlined_at >= 0 && l->inlined_at < m->n_locs && guard++ < 64)
            l = &m->locs[l->inlined_at];
        if (file && l->file >= 0 && l->file < m->n_files && m->files[l->file])
            *file = m->files[l->file];
        if (line)
            *line = l->line;
    }
    return true;
}

bool view_tile_mark(const SimView *v, uint64_t block, int warp, int lane, int32_t pc, bool *begins,
                    TraceEvent *ev)
{
    const Warp *w = find_warp(v, block, warp);
    if (!w || pc < 0 || pc >= X(v)->prog->n_insts || lane < 0 || lane >= WARP)
        return false;
    TraceEvent e;
    int op = exec_tile_mark_read(X(v), w, &X(v)->insts[pc], lane, &e);
    if (op < 0)
        return false;
    *begins = op != PTX_TILE_ELEM && op != PTX_TILE_END;
    *ev = e;
    return true;
}

/* The function lane l of w is executing (its pc's function). */
static int lane_func(const Exec *x, const Warp *w, int l)
{
    int32_t pc = w->conv && (w->run >> l & 1) ? w->upc : w->pc[l];
    if (pc >= 0 && pc < x->prog->n_insts)
        return x->insts[pc].func;
    return x->fidx;
}

bool view_reg(const SimView *v, uint64_t block, int warp, int lane, const char *name, uint64_t *value,
              bool *is_pred)
{
    const Warp *w = find_warp(v, block, warp);
    if (!w || lane < 0 || lane >= WARP || !name)
        return false;
    const Exec *x = X(v);
    int f = lane_func(x, w, lane);
    const PtxFunc *fn = &x->prog->ptx->funcs[f];
    int slot = x->prog->funcs[f].reg_base, pred = x->prog->funcs[f].pred_base;
    for (int r = 0; r < fn->n_regs; r++) {
        bool p = fn->regs[r].type == PTX_T_PRED;
        if (!strcmp(fn->regs[r].name, name)) {
            if (is_pred)
                *is_pred = p;
            /* a register no instruction uses has no storage (exec_launch keeps only
             * the used span [reg_lo, reg_hi); other warps' registers may lie
             * beside it): it was never written, so it holds 0 */
            *value = p ? (w->p[pred] >> lane & 1)
                       : slot >= x->reg_lo && slot < x->reg_hi ? w->r[(size_t)slot * WARP + (size_t)lane] : 0;
            return true;
        }
        if (p)
            pred++;
        else
            slot++;
    }
    return false;
}

/* Register `name` of the lane's function: its declaration, or NULL. */
static const PtxReg *lane_reg(const SimView *v, uint64_t block, int warp, int lane, const char *name)
{
    const Warp *w = find_warp(v, block, warp);
    if (!w || lane < 0 || lane >= WARP || !name)
        return NULL;
    const PtxFunc *fn = &X(v)->prog->ptx->funcs[lane_func(X(v), w, lane)];
    for (int r = 0; r < fn->n_regs; r++)
        if (!strcmp(fn->regs[r].name, name))
            return &fn->regs[r];
    return NULL;
}

int view_reg_type(const SimView *v, uint64_t block, int warp, int lane, const char *name)
{
    const PtxReg *r = lane_reg(v, block, warp, lane, name);
    return r ? (int)r->type : -1;
}

int view_regs(const SimView *v, uint64_t block, int warp, int lane, const char **names, int cap)
{
    const Warp *w = find_warp(v, block, warp);
    if (!w || lane < 0 || lane >= WARP)
        return 0;
    const PtxFunc *fn = &X(v)->prog->ptx->funcs[lane_func(X(v), w, lane)];
    for (int r = 0; r < fn->n_regs && r < cap; r++)
        names[r] = fn->regs[r].name;
    return fn->n_regs;
}

int view_param_count(const SimView *v) { return X(v)->prog->funcs[X(v)->fidx].nparams; }

bool view_param(const SimView *v, int i, uint64_t *value, int *size)
{
    const SimFuncInfo *fi = &X(v)->prog->funcs[X(v)->fidx];
    if (i < 0 || i >= fi->nparams)
        return false;
    int n = fi->param_size[i] < 8 ? fi->param_size[i] : 8;
    uint64_t val = 0;
    if (fi->param_off[i] >= 0 && (uint64_t)fi->param_off[i] + (uint64_t)n <= X(v)->params_size)
        for (int k = 0; k < n; k++)
            val |= (uint64_t)X(v)->params[fi->param_off[i] + k] << (8 * k);
    *value = val;
    if (size)
        *size = fi->param_size[i];
    return true;
}

bool view_shared(const SimView *v, uint64_t block, uint64_t addr, void *out, size_t n)
{
    const Block *b = find_block(v, block);
    if (!b || addr > X(v)->shared_size || n > X(v)->shared_size - addr)
        return false;
    memcpy(out, b->shared + addr, n);
    return true;
}

bool view_global(const SimView *v, uint64_t addr, void *out, size_t n)
{
    MemAlloc *a = mem_find(X(v)->mem, addr, n ? n : 1);
    if (!a)
        return false;
    memcpy(out, a->host + (addr - a->addr), n);
    return true;
}

uint32_t view_barrier_arrived(const SimView *v, uint64_t block, int id)
{
    const Block *b = find_block(v, block);
    return b && id >= 0 && id < 16 ? b->bar[id].arrived : 0;
}

bool view_timed(const SimView *v) { return X(v)->tm != NULL; }

int view_warp_timing(const SimView *v, uint64_t block, int warp, uint64_t *since)
{
    const Warp *w = find_warp(v, block, warp);
    if (!X(v)->tm || !w)
        return -1;
    if (w == view_current) { /* about to issue: this cycle is its issue */
        if (since)
            *since = X(v)->cycle;
        return DEVICE_STALL_SELECTED;
    }
    return timing_warp_state(X(v), w, since);
}

int exec_view_call(Exec *x, Warp *w)
{
    const Warp *outer = view_current;
    view_current = w;
    int r = x->cfg->on_issue((void *)x->cfg->on_issue_user, (const SimView *)(const void *)x, w->blk->linear, w->id);
    view_current = outer;
    return r;
}
