/* device.c: the backend-independent half of the host API (device.h):
 * parsing PTX once for every backend, finding kernels by plain or mangled
 * name, parameter sizes, launch-shape validation, and the calls that
 * dispatch to the backend (DeviceOps, device_int.h). */
#include "device_int.h"
#include "sfu_table.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void device_close(Device *d)
{
    if (d)
        d->ops->close(d);
}

const char *device_backend(const Device *d)
{
    return d->ops->name;
}

const char *device_arch(const Device *d)
{
    return d->arch;
}

SimStatus device_load_ptx(Device *d, const char *path, const char *text, size_t len, DeviceModule **out,
                          SimError *err)
{
    PtxModule *ptx = ptx_parse_module(path, text, len, err);
    if (!ptx)
        return err ? err->status : SIM_ERR_PARSE;
    SimStatus st = d->ops->load(d, path, text, len, ptx, out, err);
    if (st)
        return st;
    (*out)->dev = d;
    (*out)->next = d->modules;
    d->modules = *out;
    return SIM_OK;
}

int device_entry_index(const DeviceModule *m, const char *name)
{
    const PtxModule *ptx = m->ptx;
    for (int i = 0; i < ptx->n_funcs; i++)
        if (ptx->funcs[i].is_entry && !strcmp(ptx->funcs[i].name, name))
            return i;
    return -1;
}

/* The plain name inside an Itanium-mangled name (_Z<len><name>... or
 * _ZN...<len><name>E...); the whole name when it is not mangled. */
static size_t plain_name(const char *mangled, const char **start)
{
    *start = mangled;
    if (strncmp(mangled, "_Z", 2))
        return strlen(mangled);
    const char *p = mangled + 2;
    bool nested = *p == 'N';
    if (nested)
        p++;
    const char *lastp = NULL;
    size_t last = 0;
    while (*p >= '0' && *p <= '9') {
        size_t len = 0;
        while (*p >= '0' && *p <= '9')
            len = len * 10 + (size_t)(*p++ - '0');
        if (len > strlen(p))
            break;
        lastp = p;
        last = len;
        p += len;
        if (!nested || *p == 'E')
            break;
    }
    if (!lastp)
        return strlen(mangled);
    *start = lastp;
    return last;
}

const char *device_find_kernel(DeviceModule *m, const char *name, SimError *err)
{
    const PtxModule *ptx = m->ptx;
    int exact = device_entry_index(m, name);
    if (exact >= 0)
        return ptx->funcs[exact].name;
    int found = -1, count = 0;
    char list[400] = "";
    size_t o = 0;
    for (int i = 0; i < ptx->n_funcs; i++) {
        if (!ptx->funcs[i].is_entry)
            continue;
        if (o < sizeof list)
            o += (size_t)snprintf(list + o, sizeof list - o, "%s%s", o ? ", " : "", ptx->funcs[i].name);
        const char *s;
        size_t n = plain_name(ptx->funcs[i].name, &s);
        if (n == strlen(name) && !strncmp(s, name, n)) {
            found = i;
            count++;
        }
    }
    if (count == 1)
        return ptx->funcs[found].name;
    if (count > 1)
        sim_error_set(err, SIM_ERR_USAGE, ptx->path, 0, 0,
                      "kernel name '%s' is ambiguous (overloads); give the PTX entry name, one of: %s", name,
                      list);
    else
        sim_error_set(err, SIM_ERR_USAGE, ptx->path, 0, 0, "no kernel named '%s'; the module's kernels are: %s",
                      name, list[0] ? list : "(none)");
    return NULL;
}

int device_kernel_nparams(DeviceModule *m, const char *entry)
{
    int f = device_entry_index(m, entry);
    return f < 0 ? -1 : m->ptx->funcs[f].n_params;
}

int device_kernel_param_size(DeviceModule *m, const char *entry, int i)
{
    int f = device_entry_index(m, entry);
    if (f < 0 || i < 0 || i >= m->ptx->funcs[f].n_params)
        return -1;
    return (int)m->ptx->funcs[f].params[i].size;
}

bool device_kernel_declared_block(DeviceModule *m, const char *entry, DeviceDim3 *block)
{
    int f = device_entry_index(m, entry);
    if (f < 0)
        return false;
    const PtxFunc *fn = &m->ptx->funcs[f];
    const int *d = fn->reqntid[0] > 0 ? fn->reqntid : fn->maxntid[0] > 0 ? fn->maxntid : NULL;
    if (!d)
        return false;
    block->x = (unsigned)d[0];
    block->y = d[1] > 0 ? (unsigned)d[1] : 1;
    block->z = d[2] > 0 ? (unsigned)d[2] : 1;
    return true;
}

int device_kernel_param_type(DeviceModule *m, const char *entry, int i)
{
    int f = device_entry_index(m, entry);
    if (f < 0 || i < 0 || i >= m->ptx->funcs[f].n_params)
        return PTX_T_NONE;
    return m->ptx->funcs[f].params[i].type;
}

void device_set_memory_limit(Device *d, uint64_t bytes)
{
    d->mem_limit = bytes;
}

uint64_t device_memory_limit(const Device *d)
{
    return d->mem_limit;
}

void device_set_printf_limit(Device *d, uint64_t bytes)
{
    d->printf_limit = bytes;
}

uint64_t device_printf_limit(const Device *d)
{
    return d->printf_limit;
}

void device_set_threads(Device *d, int threads)
{
    d->threads = threads > 1 ? threads : 1;
}

int device_threads(const Device *d)
{
    return d->threads > 1 ? d->threads : 1;
}

bool device_kernel_sfu(DeviceModule *m, const char *entry, char *what, size_t cap)
{
    int f = device_entry_index(m, entry);
    const PtxModule *p = m->ptx;
    if (f < 0)
        return false;
    /* the kernel first, then the functions it may call */
    for (int k = -1; k < p->n_funcs; k++) {
        const PtxFunc *fn = &p->funcs[k < 0 ? f : k];
        if (k >= 0 && (k == f || fn->is_entry))
            continue;
        for (int i = 0; i < fn->n_insts; i++) {
            const PtxInst *in = &fn->insts[i];
            if (sfu_inst_table(in) < 0)
                continue;
            int n = snprintf(what, cap, "%s", in->opcode);
            for (int j = 0; j < in->n_mods && n >= 0 && (size_t)n < cap; j++)
                n += snprintf(what + n, cap - (size_t)n, ".%s", in->mods[j]);
            if (n >= 0 && (size_t)n < cap)
                n += snprintf(what + n, cap - (size_t)n, " at PTX line %d", in->ptx_line);
            if (in->loc >= 0 && ptx_inst_outer_loc(p, in) && n >= 0 && (size_t)n < cap) {
                const PtxLoc *l = ptx_inst_outer_loc(p, in); /* the .cu line, not the inlined one */
                const char *file = l->file >= 0 && l->file < p->n_files ? p->files[l->file] : NULL;
                if (file) {
                    const char *base = strrchr(file, '/');
                    snprintf(what + n, cap - (size_t)n, " (%s:%d)", base ? base + 1 : file, l->line);
                }
            }
            return true;
        }
    }
    return false;
}

SimStatus device_malloc(Device *d, size_t bytes, DevicePtr *out, SimError *err)
{
    return d->ops->malloc(d, bytes, out, err);
}

SimStatus device_free(Device *d, DevicePtr p, SimError *err)
{
    return d->ops->free(d, p, err);
}

SimStatus device_memcpy_htod(Device *d, DevicePtr dst, const void *src, size_t bytes, SimError *err)
{
    return d->ops->htod(d, dst, src, bytes, err);
}

SimStatus device_memcpy_dtoh(Device *d, void *dst, DevicePtr src, size_t bytes, SimError *err)
{
    return d->ops->dtoh(d, dst, src, bytes, err);
}

SimStatus device_set_attr(DeviceModule *m, const char *entry, DeviceAttr a, int value, SimError *err)
{
    if (device_entry_index(m, entry) < 0)
        return sim_error_set(err, SIM_ERR_USAGE, "", 0, 0, "no kernel named '%s'", entry);
    if (a == DEVICE_ATTR_PREFERRED_CARVEOUT && (value < -1 || value > 100))
        return sim_error_set(err, SIM_ERR_USAGE, "", 0, 0, "preferred carveout %d is not -1 (default) or 0..100",
                             value);
    if (a == DEVICE_ATTR_MAX_DYNAMIC_SMEM && value < 0)
        return sim_error_set(err, SIM_ERR_USAGE, "", 0, 0, "maximum dynamic shared memory %d is negative", value);
    return m->dev->ops->set_attr(m, entry, a, value, err);
}

SimStatus device_launch(DeviceModule *m, const char *entry, const DeviceLaunch *cfg, void **args,
                        DeviceStats *stats, DeviceFault *fault, SimError *err)
{
    if (device_entry_index(m, entry) < 0)
        return sim_error_set(err, SIM_ERR_USAGE, "", 0, 0, "no kernel named '%s'", entry);
    const DeviceDim3 g = cfg->grid, b = cfg->block;
    if (!g.x || !g.y || !g.z || g.x > 2147483647u || g.y > 65535 || g.z > 65535)
        return sim_error_set(err, SIM_ERR_USAGE, "", 0, 0,
                             "grid %ux%ux%u is invalid: each dimension must be at least 1, x at most 2^31-1, "
                             "y and z at most 65535", g.x, g.y, g.z);
    uint64_t nt = (uint64_t)b.x * b.y * b.z;
    if (!b.x || !b.y || !b.z || b.x > 1024 || b.y > 1024 || b.z > 64 || nt > 1024)
        return sim_error_set(err, SIM_ERR_USAGE, "", 0, 0,
                             "block %ux%ux%u is invalid: at most 1024 threads (x, y <= 1024, z <= 64) and "
                             "every dimension at least 1", b.x, b.y, b.z);
    if (cfg->on_issue && strcmp(m->dev->ops->name, "simulator"))
        return sim_error_set(err, SIM_ERR_UNSUPPORTED, "", 0, 0,
                             "stepping through a launch needs the simulator (the %s backend runs it whole)",
                             m->dev->ops->name);
    if (cfg->trace_path && strcmp(m->dev->ops->name, "simulator"))
        return sim_error_set(err, SIM_ERR_UNSUPPORTED, "", 0, 0,
                             "traces are written by the simulator only (the %s backend cannot trace yet)",
                             m->dev->ops->name);
    int np = device_kernel_nparams(m, entry);
    for (int i = 0; i < np; i++)
        if (!args || !args[i])
            return sim_error_set(err, SIM_ERR_USAGE, "", 0, 0, "argument %d of %s is missing", i, entry);
    DeviceStats local_stats;
    DeviceFault local_fault;
    if (!stats)
        stats = &local_stats;
    if (!fault)
        fault = &local_fault;
    memset(stats, 0, sizeof *stats);
    memset(fault, 0, sizeof *fault);
    stats->regs_per_thread = -1;
    if ((unsigned)cfg->schedule > DEVICE_SCHED_ADVERSARIAL ||
        (unsigned)cfg->atomic_order > DEVICE_ATOMIC_ADVERSARIAL ||
        (unsigned)cfg->divergence > DEVICE_DIV_STACK || (cfg->checks & ~DEVICE_CHECK_RACES))
        return sim_error_set(err, SIM_ERR_USAGE, "", 0, 0,
                             "schedule %d, atomic order %d, divergence %d or checks 0x%x out of range",
                             cfg->schedule, cfg->atomic_order, cfg->divergence, cfg->checks);
    m->dev->n_races = 0;
    m->dev->n_alog = 0;
    SimStatus rc = m->dev->ops->launch(m, entry, cfg, args, stats, fault, err);
    if (rc == SIM_ERR_FAULT)
        sim_error_set(err, SIM_ERR_FAULT, "", 0, 0, "%s: %s", fault->kind, fault->msg);
    return rc;
}

const char *device_printf_output(Device *d)
{
    const char *s = d->ops->printf_output(d);
    return s ? s : "";
}

/* ---- scheduling names, findings ------------------------------------------ */

static const char *const sched_names[] = {"roundrobin", "random", "adversarial"};
static const char *const atomic_names[] = {"lane", "reverse", "random", "adversarial"};
static const char *const div_names[] = {"its", "stack"};

static const char *name_of(const char *const *names, int n, int v)
{
    return v >= 0 && v < n ? names[v] : "?";
}

static int parse_name(const char *const *names, int n, const char *s)
{
    for (int i = 0; s && i < n; i++)
        if (!strcmp(s, names[i]))
            return i;
    return -1;
}

#define NNAMES(a) ((int)(sizeof a / sizeof *a))
static const char *const stall_names[DEVICE_STALL_COUNT] = {
    [DEVICE_STALL_LONG_SCOREBOARD] = "long_scoreboard", [DEVICE_STALL_SHORT_SCOREBOARD] = "short_scoreboard",
    [DEVICE_STALL_WAIT] = "wait", [DEVICE_STALL_BARRIER] = "barrier", [DEVICE_STALL_MEMBAR] = "membar",
    [DEVICE_STALL_MATH_PIPE_THROTTLE] = "math_pipe_throttle", [DEVICE_STALL_LG_THROTTLE] = "lg_throttle",
    [DEVICE_STALL_MIO_THROTTLE] = "mio_throttle", [DEVICE_STALL_NOT_SELECTED] = "not_selected",
    [DEVICE_STALL_SELECTED] = "selected", [DEVICE_STALL_DISPATCH] = "dispatch_stall",
    [DEVICE_STALL_SLEEPING] = "sleeping", [DEVICE_STALL_MISC] = "misc"};
const char *device_stall_name(int i) { return i >= 0 && i < DEVICE_STALL_COUNT ? stall_names[i] : NULL; }
const char *device_schedule_name(int s) { return name_of(sched_names, NNAMES(sched_names), s); }
const char *device_atomic_order_name(int a) { return name_of(atomic_names, NNAMES(atomic_names), a); }
const char *device_divergence_name(int d) { return name_of(div_names, NNAMES(div_names), d); }
int device_schedule_parse(const char *s) { return parse_name(sched_names, NNAMES(sched_names), s); }
int device_atomic_order_parse(const char *s) { return parse_name(atomic_names, NNAMES(atomic_names), s); }
int device_divergence_parse(const char *s) { return parse_name(div_names, NNAMES(div_names), s); }

int device_race_count(const Device *d) { return d ? d->n_races : 0; }

const DeviceRace *device_race(const Device *d, int i)
{
    return d && i >= 0 && i < d->n_races ? &d->races[i] : NULL;
}

int device_atomic_log_count(const Device *d) { return d ? d->n_alog : 0; }

const DeviceAtomicLog *device_atomic_log(const Device *d, int i)
{
    return d && i >= 0 && i < d->n_alog ? &d->alog[i] : NULL;
}
