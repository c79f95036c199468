/* device.c: the host API (device.h) over the simulator: modules are parsed
 * and decoded once at load, buffers live in the simulated global memory,
 * and a launch validates its configuration the way the CUDA driver does
 * before the executor (exec_run.c) runs it. */
#include "device.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arch.h"
#include "exec_int.h"
#include "memory.h"
#include "ptx.h"

#define MAX_KERNEL_ATTRS 64

typedef struct {
    const char *entry;
    int max_dyn_smem;
    int carveout;
} KernelAttrs;

struct DeviceModule {
    Device *dev;
    SimProgram *prog;
    KernelAttrs attrs[MAX_KERNEL_ATTRS];
    int n_attrs;
    DeviceModule *next;
};

struct Device {
    char arch[16];
    const ArchProfile *prof;
    int sm_count;
    Memory *mem;
    DeviceModule *modules;
    char *printf_out;
};

Device *device_open_sim(const char *arch, SimError *err)
{
    ArchTarget tgt;
    if (arch_resolve(arch, &tgt, err))
        return NULL;
    const ArchProfile *prof = tgt.arch;
    Device *d = calloc(1, sizeof *d);
    if (!d || !(d->mem = mem_new())) {
        free(d);
        sim_error_set(err, SIM_ERR_NOMEM, "", 0, 0, "out of memory");
        return NULL;
    }
    snprintf(d->arch, sizeof d->arch, "%s", prof->name);
    d->prof = prof;
    d->sm_count = tgt.sm_count;
    return d;
}

void device_close(Device *d)
{
    if (!d)
        return;
    for (DeviceModule *m = d->modules, *n; m; m = n) {
        n = m->next;
        exec_program_free(m->prog);
        free(m);
    }
    mem_free_all(d->mem);
    free(d->printf_out);
    free(d);
}

const char *device_backend(const Device *d)
{
    (void)d;
    return "simulator";
}

const char *device_arch(const Device *d)
{
    return d->arch;
}

SimStatus device_load_ptx(Device *d, const char *path, const char *text, size_t len,
                          DeviceModule **out, SimError *err)
{
    PtxModule *ptx = ptx_parse_module(path, text, len, err);
    if (!ptx)
        return err ? err->status : SIM_ERR_PARSE;
    SimProgram *prog = exec_decode(ptx, d->mem, err);
    if (!prog)
        return err ? err->status : SIM_ERR_UNSUPPORTED;
    DeviceModule *m = calloc(1, sizeof *m);
    if (!m) {
        exec_program_free(prog);
        return sim_error_set(err, SIM_ERR_NOMEM, path, 0, 0, "out of memory");
    }
    m->dev = d;
    m->prog = prog;
    m->next = d->modules;
    d->modules = m;
    *out = m;
    return SIM_OK;
}

/* The plain name inside an Itanium-mangled name (_Z<len><name>...), or the
 * name itself. */
static size_t plain_name(const char *mangled, const char **start)
{
    *start = mangled;
    if (strncmp(mangled, "_Z", 2))
        return strlen(mangled);
    const char *p = mangled + 2;
    if (*p == 'N') /* nested names: take the last component */
        p++;
    size_t len = 0, last = 0;
    const char *lastp = NULL;
    while (*p >= '0' && *p <= '9') {
        len = 0;
        while (*p >= '0' && *p <= '9')
            len = len * 10 + (size_t)(*p++ - '0');
        if (len > strlen(p))
            break;
        lastp = p;
        last = len;
        p += len;
        if (*p == 'E' || mangled[2] != 'N')
            break;
    }
    if (!lastp)
        return strlen(mangled);
    *start = lastp;
    return last;
}

static int find_entry(DeviceModule *m, const char *name)
{
    const PtxModule *ptx = m->prog->ptx;
    for (int i = 0; i < ptx->n_funcs; i++)
        if (ptx->funcs[i].is_entry && !strcmp(ptx->funcs[i].name, name))
            return i;
    return -1;
}

const char *device_find_kernel(DeviceModule *m, const char *name, SimError *err)
{
    const PtxModule *ptx = m->prog->ptx;
    int exact = find_entry(m, name);
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
                      "kernel name '%s' is ambiguous (overloads); give the PTX entry name, one of: %s",
                      name, list);
    else
        sim_error_set(err, SIM_ERR_USAGE, ptx->path, 0, 0, "no kernel named '%s'; the module's kernels are: %s",
                      name, list[0] ? list : "(none)");
    return NULL;
}

int device_kernel_nparams(DeviceModule *m, const char *entry)
{
    int f = find_entry(m, entry);
    return f < 0 ? -1 : m->prog->ptx->funcs[f].n_params;
}

int device_kernel_param_size(DeviceModule *m, const char *entry, int i)
{
    int f = find_entry(m, entry);
    if (f < 0 || i < 0 || i >= m->prog->ptx->funcs[f].n_params)
        return -1;
    return (int)m->prog->ptx->funcs[f].params[i].size;
}

SimStatus device_malloc(Device *d, size_t bytes, DevicePtr *out, SimError *err)
{
    MemAlloc *a = mem_alloc(d->mem, bytes, NULL);
    if (!a)
        return sim_error_set(err, SIM_ERR_NOMEM, "", 0, 0, "cannot allocate %zu bytes of device memory", bytes);
    *out = a->addr;
    return SIM_OK;
}

SimStatus device_free(Device *d, DevicePtr p, SimError *err)
{
    if (!mem_release(d->mem, p))
        return sim_error_set(err, SIM_ERR_USAGE, "", 0, 0, "free of 0x%llx, which is not an allocation",
                             (unsigned long long)p);
    return SIM_OK;
}

SimStatus device_memcpy_htod(Device *d, DevicePtr dst, const void *src, size_t bytes, SimError *err)
{
    MemAlloc *a = mem_find(d->mem, dst, bytes);
    if (!a)
        return sim_error_set(err, SIM_ERR_USAGE, "", 0, 0, "copy of %zu bytes to 0x%llx is outside every allocation",
                             bytes, (unsigned long long)dst);
    memcpy(a->host + (dst - a->addr), src, bytes);
    return SIM_OK;
}

SimStatus device_memcpy_dtoh(Device *d, void *dst, DevicePtr src, size_t bytes, SimError *err)
{
    MemAlloc *a = mem_find(d->mem, src, bytes);
    if (!a)
        return sim_error_set(err, SIM_ERR_USAGE, "", 0, 0, "copy of %zu bytes from 0x%llx is outside every allocation",
                             bytes, (unsigned long long)src);
    memcpy(dst, a->host + (src - a->addr), bytes);
    return SIM_OK;
}

static KernelAttrs *attrs_of(DeviceModule *m, const char *entry)
{
    for (int i = 0; i < m->n_attrs; i++)
        if (!strcmp(m->attrs[i].entry, entry))
            return &m->attrs[i];
    if (m->n_attrs == MAX_KERNEL_ATTRS)
        return NULL;
    int f = find_entry(m, entry);
    if (f < 0)
        return NULL;
    KernelAttrs *a = &m->attrs[m->n_attrs++];
    a->entry = m->prog->ptx->funcs[f].name;
    a->max_dyn_smem = 48 * 1024;
    a->carveout = -1;
    return a;
}

SimStatus device_set_attr(DeviceModule *m, const char *entry, DeviceAttr at, int value, SimError *err)
{
    KernelAttrs *a = attrs_of(m, entry);
    if (!a)
        return sim_error_set(err, SIM_ERR_USAGE, "", 0, 0, "no kernel named '%s'", entry);
    const ArchProfile *p = m->dev->prof;
    int f = find_entry(m, entry);
    uint64_t st = m->prog->funcs[f].static_smem;
    switch (at) {
    case DEVICE_ATTR_MAX_DYNAMIC_SMEM:
        if (value < 0 || (uint64_t)value + st > (uint64_t)p->smem_per_block_optin)
            return sim_error_set(err, SIM_ERR_USAGE, "", 0, 0,
                                 "maximum dynamic shared memory %d plus %llu static exceeds the %d bytes a block "
                                 "may opt in to on %s", value, (unsigned long long)st,
                                 p->smem_per_block_optin, p->name);
        a->max_dyn_smem = value;
        return SIM_OK;
    case DEVICE_ATTR_PREFERRED_CARVEOUT:
        if (value < -1 || value > 100)
            return sim_error_set(err, SIM_ERR_USAGE, "", 0, 0,
                                 "preferred carveout %d is not -1 (default) or 0..100", value);
        a->carveout = value;
        return SIM_OK;
    }
    return sim_error_set(err, SIM_ERR_USAGE, "", 0, 0, "unknown attribute");
}

SimStatus device_launch(DeviceModule *m, const char *entry, const DeviceLaunch *cfg, void **args,
                        DeviceStats *stats, DeviceFault *fault, SimError *err)
{
    Device *d = m->dev;
    int f = find_entry(m, entry);
    if (f < 0)
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
    KernelAttrs *a = attrs_of(m, entry);
    int maxdyn = a ? a->max_dyn_smem : 48 * 1024;
    uint64_t st = m->prog->funcs[f].static_smem;
    if (cfg->smem > (unsigned)maxdyn)
        return sim_error_set(err, SIM_ERR_USAGE, "", 0, 0,
                             "%u bytes of dynamic shared memory exceed the kernel's maximum of %d; above 48 KB a "
                             "kernel must opt in (cudaFuncSetAttribute(..., MaxDynamicSharedMemorySize, ...))",
                             cfg->smem, maxdyn);
    if (st + cfg->smem > (uint64_t)d->prof->smem_per_block_optin)
        return sim_error_set(err, SIM_ERR_USAGE, "", 0, 0,
                             "%llu bytes of shared memory per block exceed the %d bytes %s allows",
                             (unsigned long long)(st + cfg->smem), d->prof->smem_per_block_optin, d->prof->name);
    const SimFuncInfo *fi = &m->prog->funcs[f];
    uint64_t psize = 0;
    for (int i = 0; i < fi->nparams; i++)
        if ((uint64_t)(fi->param_off[i] + fi->param_size[i]) > psize)
            psize = (uint64_t)(fi->param_off[i] + fi->param_size[i]);
    uint8_t *params = calloc(1, psize + 8);
    if (!params)
        return sim_error_set(err, SIM_ERR_NOMEM, "", 0, 0, "out of memory");
    for (int i = 0; i < fi->nparams; i++) {
        if (!args || !args[i]) {
            free(params);
            return sim_error_set(err, SIM_ERR_USAGE, "", 0, 0, "argument %d of %s is missing", i, entry);
        }
        memcpy(params + fi->param_off[i], args[i], (size_t)fi->param_size[i]);
    }
    DeviceStats local_stats;
    if (!stats)
        stats = &local_stats;
    memset(stats, 0, sizeof *stats);
    stats->regs_per_thread = -1;
    stats->static_smem = st;
    stats->local_bytes = fi->local_size;
    free(d->printf_out);
    d->printf_out = NULL;
    size_t out_len = 0;
    SimStatus rc = exec_launch(m->prog, d->mem, f, cfg, params, stats, fault, d->sm_count,
                               &d->printf_out, &out_len);
    free(params);
    if (rc == SIM_ERR_NOMEM)
        return sim_error_set(err, SIM_ERR_NOMEM, "", 0, 0, "out of memory while launching %s", entry);
    if (rc == SIM_ERR_FAULT)
        sim_error_set(err, SIM_ERR_FAULT, "", 0, 0, "%s: %s", fault ? fault->kind : "fault",
                      fault ? fault->msg : "");
    return rc;
}

const char *device_printf_output(Device *d)
{
    return d->printf_out ? d->printf_out : "";
}
