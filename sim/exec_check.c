/* exec_check.c: can a kernel run?  A module loads even when some function
 * holds an instruction the simulator lacks (exec_decode.c marks it); a
 * kernel that can reach one through its calls is refused at launch with
 * the instruction and its lines.  Called by device_sim.c; calls no executor
 * file. */
#include "exec_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Mark function f and every function it calls (transitively) in seen. */
void exec_mark_reachable(const PtxModule *m, int f, char *seen)
{
    if (f < 0 || f >= m->n_funcs || seen[f])
        return;
    seen[f] = 1;
    const PtxFunc *fn = &m->funcs[f];
    for (int i = 0; i < fn->n_insts; i++) {
        const PtxInst *pi = &fn->insts[i];
        if (strcmp(pi->opcode, "call"))
            continue;
        for (int k = 0; k < pi->n_opnds; k++)
            if (pi->opnds[k].kind == PTX_OPND_FUNC)
                exec_mark_reachable(m, pi->opnds[k].target, seen);
    }
}

SimStatus exec_kernel_check(const SimProgram *p, int fidx, SimError *err)
{
    const PtxModule *m = p->ptx;
    if (fidx < 0 || fidx >= m->n_funcs)
        return sim_error_set(err, SIM_ERR_USAGE, m->path, 0, 0, "no function %d in the module", fidx);
    char *seen = calloc((size_t)m->n_funcs + 1, 1);
    if (!seen)
        return sim_error_set(err, SIM_ERR_NOMEM, m->path, 0, 0, "out of memory");
    exec_mark_reachable(m, fidx, seen);
    /* the kernel's own first, then its callees in module order */
    int bad = p->funcs[fidx].unsup ? fidx : -1;
    for (int f = 0; f < m->n_funcs && bad < 0; f++)
        if (seen[f] && p->funcs[f].unsup)
            bad = f;
    free(seen);
    if (bad < 0)
        return SIM_OK;
    const SimFuncInfo *fi = &p->funcs[bad];
    const SimError *e = fi->unsup;
    char where[300] = "";
    if (fi->unsup_cu_line > 0) {
        const char *file = fi->unsup_cu_file >= 0 && fi->unsup_cu_file < m->n_files && m->files[fi->unsup_cu_file]
                               ? m->files[fi->unsup_cu_file] : "the source";
        const char *base = strrchr(file, '/');
        snprintf(where, sizeof where, " (%s:%d)", base ? base + 1 : file, fi->unsup_cu_line);
    }
    char via[200] = "";
    if (bad != fidx)
        snprintf(via, sizeof via, " in %s, which it calls", m->funcs[bad].name);
    return sim_error_set(err, SIM_ERR_UNSUPPORTED, e->file, e->line, e->col, "kernel %s cannot run%s: %s%s",
                         m->funcs[fidx].name, via, e->msg, where);
}
