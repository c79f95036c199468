/* exec_fault.c: a fault stops the launch -- what, where (block, thread,
 * PTX and .cu line) and why, recorded once in the DeviceFault the caller
 * gave.  Every executor file may call it; it calls none of them. */
#include "exec_int.h"
#include "exec_trace.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void exec_fault(Exec *x, Warp *w, const SimInst *in, int lane, const char *kind,
                uint64_t addr, const char *fmt, ...)
{
    if (x->faulted)
        return;
    x->faulted = true;
    DeviceFault *f = x->fault;
    if (!f)
        return;
    memset(f, 0, sizeof *f);
    f->faulted = true;
    snprintf(f->kind, sizeof f->kind, "%s", kind);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(f->msg, sizeof f->msg, fmt, ap);
    va_end(ap);
    f->block = w ? w->blk->ctaid : (DeviceDim3){0, 0, 0};
    f->addr = addr;
    f->warp = w ? w->id : -1;
    f->lane = lane;
    if (w && lane >= 0) {
        int t = exec_tid(w, lane);
        unsigned bx = x->cfg->block.x, by = x->cfg->block.y;
        f->thread.x = (unsigned)t % bx;
        f->thread.y = (unsigned)t / bx % by;
        f->thread.z = (unsigned)t / (bx * by);
    }
    if (in) {
        const PtxModule *m = x->prog->ptx;
        f->ptx_line = in->ptx_line;
        char buf[512];
        ptx_source_line(m, in->ptx_line, buf, sizeof buf);
        const char *s = buf;
        while (*s == ' ' || *s == '\t')
            s++;
        snprintf(f->ptx_text, sizeof f->ptx_text, "%.159s", s);
        if (in->loc >= 0 && in->loc < m->n_locs) {
            const PtxLoc *l = &m->locs[in->loc];
            int guard = 0;
            while (l->inlined_at >= 0 && l->inlined_at < m->n_locs && guard++ < 64)
                l = &m->locs[l->inlined_at];
            if (l->file >= 0 && l->file < m->n_files && m->files[l->file])
                snprintf(f->file, sizeof f->file, "%s", m->files[l->file]);
            f->line = l->line;
        }
    }
    if (x->trace)
        exec_trace_fault(x, w, in, lane);
}
