/* launch.c: a `warpsim run`-style launch line -- tokenized without a shell,
 * parsed into a LaunchSpec, and run on a Device (simulator or GPU) with its
 * buffers read back.  See launch.h. */
#include "launch.h"

#include <errno.h>
#include "carveout.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char launch_sched_help[] =
    "  --schedule S   which warp issues next: roundrobin (default; deterministic),\n"
    "                 random or adversarial (both driven by --seed)\n"
    "  --atomic-order A  order in which the lanes of one atom/red instruction update\n"
    "                 memory: lane (default), reverse, random or adversarial\n"
    "  --divergence D its (default: independent thread scheduling, Volta and later) or\n"
    "                 stack (pre-Volta reconvergence at the immediate post-dominator)\n"
    "  --seed N       seed of the random and adversarial choices (default 0)\n"
    "  --check races  report data races, lost updates, cp.async and barrier hazards;\n"
    "                 exit status 1 when anything is found\n"
    "  --timing       model time (docs/timing.md): cycles, achieved occupancy, cache hit\n"
    "                 rates, stall reasons; warps issue in modelled-time order\n"
    "  --carveout P   preferred shared-memory carveout, as cudaFuncSetAttribute sets it:\n"
    "                 default, maxl1, maxshared, half or 0..100 (percent)\n"
    "  --cooperative  a cooperative launch (cudaLaunchCooperativeKernel): every block\n"
    "                 resident at once, grid.sync() works; refused when the grid does\n"
    "                 not fit (the simulator only, so far)\n"
    "  --cluster X[,Y[,Z]]  thread block clusters (sm_90+; cudaLaunchKernelEx with a\n"
    "                 cluster dimension): each cluster's CTAs run at once on SMs of one\n"
    "                 GPC, read and write each other's shared memory (cluster.\n"
    "                 map_shared_rank) and meet at cluster.sync().  The grid must be a\n"
    "                 multiple of it, at most 8 CTAs (the portable limit); a kernel\n"
    "                 with __cluster_dims__ needs none, and a different one is refused\n";

void launch_spec_init(LaunchSpec *s)
{
    memset(s, 0, sizeof *s);
}

void launch_spec_free(LaunchSpec *s)
{
    for (int i = 0; i < s->nargs; i++)
        argspec_free(&s->args[i]);
    launch_spec_init(s);
}

bool launch_parse_bytes(const char *text, uint64_t *out)
{
    if (!text || !(*text >= '0' && *text <= '9'))
        return false;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(text, &end, 10);
    if (errno || !v)
        return false;
    int shift = 0;
    switch (*end) {
    case 'k': case 'K': shift = 10; end++; break;
    case 'm': case 'M': shift = 20; end++; break;
    case 'g': case 'G': shift = 30; end++; break;
    case 't': case 'T': shift = 40; end++; break;
    default: break;
    }
    if (shift && (!strcmp(end, "iB") || !strcmp(end, "B")))
        end += strlen(end);
    if (*end || v > (UINT64_MAX >> shift))
        return false;
    *out = (uint64_t)v << shift;
    return true;
}

bool launch_parse_dim(const char *s, DeviceDim3 *d)
{
    unsigned v[3] = {1, 1, 1};
    int n = 0;
    const char *p = s;
    for (;;) {
        char *end;
        if (*p < '0' || *p > '9' || n == 3) /* a fourth number is an error, never ignored */
            return false;
        unsigned long x = strtoul(p, &end, 10);
        if (x == 0 || x > 0x7fffffffUL)
            return false;
        v[n++] = (unsigned)x;
        if (*end == 0)
            break;
        if (*end != ',' && *end != 'x')
            return false;
        p = end + 1;
    }
    d->x = v[0];
    d->y = v[1];
    d->z = v[2];
    return true;
}

LaunchOpt launch_parse_option(LaunchSpec *s, int argc, char **argv, int *i, char *msg, size_t cap)
{
    const char *a = argv[*i];
    if (!strcmp(a, "--timing")) {
        s->timing = true;
        return LAUNCH_OPT_TAKEN;
    }
    if (!strcmp(a, "--cooperative")) { /* a flag: no value */
        s->cooperative = true;
        return LAUNCH_OPT_TAKEN;
    }
    if (*i + 1 >= argc)
        return LAUNCH_OPT_NONE;
    const char *v = argv[*i + 1];
    if (!strcmp(a, "--kernel")) {
        s->kernel = v;
    } else if (!strcmp(a, "--grid") || !strcmp(a, "--block")) {
        bool grid = a[2] == 'g';
        if (!launch_parse_dim(v, grid ? &s->grid : &s->block)) {
            snprintf(msg, cap, "%s '%s': expected X[,Y[,Z]] of positive integers", a, v);
            return LAUNCH_OPT_USAGE;
        }
        *(grid ? &s->have_grid : &s->have_block) = true;
    } else if (!strcmp(a, "--cluster")) {
        if (!launch_parse_dim(v, &s->cluster)) {
            snprintf(msg, cap, "--cluster '%s': expected X[,Y[,Z]] of positive integers (CTAs per cluster)", v);
            return LAUNCH_OPT_USAGE;
        }
    } else if (!strcmp(a, "--smem")) {
        char *end;
        s->smem = strtoul(v, &end, 0);
        if (*end || v[0] == '-' || s->smem > (1ul << 30)) {
            snprintf(msg, cap, "--smem '%s': expected a byte count", v);
            return LAUNCH_OPT_USAGE;
        }
    } else if (!strcmp(a, "--budget")) {
        char *end;
        s->budget = strtoull(v, &end, 0);
        if (*end || v[0] == '-' || !s->budget) {
            snprintf(msg, cap, "--budget '%s': expected a positive instruction count", v);
            return LAUNCH_OPT_USAGE;
        }
    } else if (!strcmp(a, "--max-memory")) {
        if (!launch_parse_bytes(v, &s->max_memory)) {
            snprintf(msg, cap, "--max-memory '%s': expected a byte count such as 268435456, 256M or 4G", v);
            return LAUNCH_OPT_USAGE;
        }
    } else if (!strcmp(a, "--max-printf")) {
        if (!launch_parse_bytes(v, &s->max_printf) || !s->max_printf) {
            snprintf(msg, cap, "--max-printf '%s': expected a positive byte count such as 1M or 65536", v);
            return LAUNCH_OPT_USAGE;
        }
    } else if (!strcmp(a, "--schedule") || !strcmp(a, "--atomic-order") || !strcmp(a, "--divergence")) {
        int k = a[2] == 's' ? device_schedule_parse(v) : a[2] == 'a' ? device_atomic_order_parse(v)
                                                                    : device_divergence_parse(v);
        if (k < 0) {
            snprintf(msg, cap, "%s '%s': expected %s", a, v,
                     a[2] == 's'   ? "roundrobin, random or adversarial"
                     : a[2] == 'a' ? "lane, reverse, random or adversarial"
                                   : "its or stack");
            return LAUNCH_OPT_USAGE;
        }
        *(a[2] == 's' ? &s->schedule : a[2] == 'a' ? &s->atomic_order : &s->divergence) = k;
    } else if (!strcmp(a, "--seed")) {
        char *end;
        s->seed = strtoull(v, &end, 0);
        if (*end || !*v || v[0] == '-') {
            snprintf(msg, cap, "--seed '%s': expected a non-negative integer", v);
            return LAUNCH_OPT_USAGE;
        }
    } else if (!strcmp(a, "--check")) {
        if (strcmp(v, "races")) {
            snprintf(msg, cap, "--check '%s': the only check is 'races'", v);
            return LAUNCH_OPT_USAGE;
        }
        s->checks |= DEVICE_CHECK_RACES;
    } else if (!strcmp(a, "--carveout")) {
        SimError e;
        if (carveout_parse(v, &s->carveout, &e) != SIM_OK) {
            snprintf(msg, cap, "--carveout '%s': %s", v, e.msg);
            return LAUNCH_OPT_USAGE;
        }
        s->have_carveout = true;
    } else if (!strcmp(a, "--arg")) {
        if (s->nargs == LAUNCH_MAX_ARGS) {
            snprintf(msg, cap, "more than %d --arg", LAUNCH_MAX_ARGS);
            return LAUNCH_OPT_USAGE;
        }
        if (!argspec_parse(v, &s->args[s->nargs], msg, cap))
            return LAUNCH_OPT_BADSPEC;
        s->nargs++;
    } else {
        return LAUNCH_OPT_NONE;
    }
    (*i)++;
    return LAUNCH_OPT_TAKEN;
}

bool launch_take_file(const char *a, bool has_val, const char **file, char *msg, size_t cap)
{
    if (a[0] == '-' && a[1]) {
        snprintf(msg, cap, has_val || a[1] != '-' ? "unknown option '%s'" : "option '%s' needs a value", a);
        return false;
    }
    if (*file) {
        snprintf(msg, cap, "unexpected argument '%s' (one FILE only)", a);
        return false;
    }
    *file = a;
    return true;
}

bool launch_check_complete(const char *file, const LaunchSpec *s, char *msg, size_t cap)
{
    const char *missing = !file ? "FILE (a .ptx or .cu)" : !s->kernel ? "--kernel NAME"
                          : !s->have_grid || (!s->have_block && !s->block_optional) ? "--grid or --block"
                                                                                   : NULL;
    if (missing)
        snprintf(msg, cap, "missing %s", missing);
    return !missing;
}

bool launch_parse_tokens(LaunchSpec *s, int argc, char **argv, char *msg, size_t cap)
{
    for (int i = 0; i < argc; i++) {
        LaunchOpt o = launch_parse_option(s, argc, argv, &i, msg, cap);
        if (o == LAUNCH_OPT_USAGE || o == LAUNCH_OPT_BADSPEC)
            return false;
        if (o == LAUNCH_OPT_NONE) {
            bool opt = argv[i][0] == '-' && argv[i][1] == '-';
            snprintf(msg, cap, opt && i + 1 == argc ? "option '%s' needs a value" : "unexpected '%s' in a launch",
                     argv[i]);
            return false;
        }
    }
    if (!s->kernel || !s->have_grid || !s->have_block) {
        snprintf(msg, cap, "missing %s", !s->kernel ? "--kernel NAME" : !s->have_grid ? "--grid" : "--block");
        return false;
    }
    return true;
}

bool launch_resolve_block(DeviceModule *mod, LaunchSpec *s, char *msg, size_t cap)
{
    if (s->have_block)
        return true;
    SimError err;
    sim_error_clear(&err);
    const char *entry = device_find_kernel(mod, s->kernel, &err);
    if (!entry) {
        snprintf(msg, cap, "%s", err.msg);
        return false;
    }
    if (!device_kernel_declared_block(mod, entry, &s->block)) {
        snprintf(msg, cap,
                 "kernel %s declares no .reqntid or .maxntid (no __launch_bounds__): give --block", entry);
        return false;
    }
    s->have_block = true;
    return true;
}

void launch_tokens_free(char **toks)
{
    if (!toks)
        return;
    for (char **t = toks; *t; t++)
        free(*t);
    free(toks);
}

int launch_tokenize(const char *line, char ***out, char *msg, size_t cap)
{
    size_t len = strlen(line), n = 0, room = 8;
    char **toks = calloc(room, sizeof *toks);
    char *word = malloc(len + 1);
    const char *p = line;
    if (!toks || !word)
        goto nomem;
    for (;;) {
        while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n')
            p++;
        if (!*p || *p == '#')
            break;
        size_t w = 0;
        while (*p && *p != ' ' && *p != '\t' && *p != '\r' && *p != '\n') {
            char q = *p;
            if (q == '\'' || q == '"') {
                const char *open = p++;
                while (*p && *p != q) {
                    if (q == '"' && *p == '\\' && p[1])
                        p++;
                    word[w++] = *p++;
                }
                if (!*p) {
                    snprintf(msg, cap, "column %d: unterminated %s quote", (int)(open - line) + 1,
                             q == '"' ? "double" : "single");
                    goto fail;
                }
                p++;
            } else {
                if (q == '\\' && p[1])
                    p++;
                word[w++] = *p++;
            }
        }
        word[w] = 0;
        if (n + 1 >= room) {
            char **t = realloc(toks, 2 * room * sizeof *toks);
            if (!t)
                goto nomem;
            toks = t;
            room *= 2;
        }
        if (!(toks[n] = strdup(word)))
            goto nomem;
        toks[++n] = NULL;
    }
    free(word);
    *out = toks;
    return (int)n;
nomem:
    snprintf(msg, cap, "out of memory");
fail:
    free(word);
    launch_tokens_free(toks);
    return -1;
}

void launch_result_free(LaunchResult *r)
{
    for (int i = 0; i < r->nbufs; i++)
        free(r->bufs[i].data);
    r->nbufs = 0;
}

SimStatus launch_run(Device *dev, DeviceModule *mod, const LaunchSpec *s, LaunchResult *r, char *msg, size_t cap)
{
    if (s->max_memory) /* before the buffers: they count against it */
        device_set_memory_limit(dev, s->max_memory);
    if (s->max_printf)
        device_set_printf_limit(dev, s->max_printf);
    SimError err;
    sim_error_clear(&err);
    memset(r, 0, sizeof *r);
    DevicePtr ptrs[LAUNCH_MAX_ARGS] = {0};
    uint64_t scalars[LAUNCH_MAX_ARGS];
    void *params[LAUNCH_MAX_ARGS];
    SimStatus st = SIM_ERR_USAGE;
    const char *entry = device_find_kernel(mod, s->kernel, &err);
    if (!entry) {
        snprintf(msg, cap, "%s", err.msg);
        return err.status ? err.status : SIM_ERR_USAGE;
    }
    r->entry = entry;
    if (!device_kernel_sfu(mod, entry, r->sfu, sizeof r->sfu))
        r->sfu[0] = 0;
    DeviceDim3 block = s->block;
    if (!s->have_block && !device_kernel_declared_block(mod, entry, &block)) {
        snprintf(msg, cap, "kernel %s declares no .reqntid or .maxntid (no __launch_bounds__): give --block",
                 entry);
        return SIM_ERR_USAGE;
    }
    int np = device_kernel_nparams(mod, entry), nargs = s->nargs;
    if (np != nargs) {
        int k = snprintf(msg, cap, "kernel %s takes %d parameter%s but %d --arg %s given:", entry, np,
                         np == 1 ? "" : "s", nargs, nargs == 1 ? "was" : "were");
        for (int i = 0; i < np && k >= 0 && (size_t)k < cap; i++)
            k += snprintf(msg + k, cap - (size_t)k, " [%d] %d bytes", i, device_kernel_param_size(mod, entry, i));
        return SIM_ERR_USAGE;
    }
    int allocated = 0;
    for (int i = 0; i < nargs; i++, allocated = i) {
        const ArgSpec *a = &s->args[i];
        int psz = device_kernel_param_size(mod, entry, i);
        if (a->is_buffer) {
            if (psz != 8) {
                snprintf(msg, cap, "--arg %d is a buffer (a pointer, 8 bytes) but parameter %d is %d bytes", i, i,
                         psz);
                goto fail;
            }
            uint64_t bytes = a->count * (uint64_t)argspec_type_size(a->type);
            if (device_malloc(dev, bytes, &ptrs[i], &err)) {
                snprintf(msg, cap, "%s", err.msg);
                st = err.status;
                goto fail;
            }
            if (device_memcpy_htod(dev, ptrs[i], a->data, bytes, &err)) {
                allocated = i + 1;
                snprintf(msg, cap, "%s", err.msg);
                st = err.status;
                goto fail;
            }
            scalars[i] = ptrs[i];
        } else if (a->by_value) { /* a struct or array parameter: its bytes as they are */
            uint64_t bytes = a->count * (uint64_t)argspec_type_size(a->type);
            if ((uint64_t)psz != bytes) {
                snprintf(msg, cap, "--arg %d '%.60s' is %llu bytes but parameter %d is %d bytes", i, a->text,
                         (unsigned long long)bytes, i, psz);
                goto fail;
            }
            params[i] = a->data;
            continue;
        } else {
            if (psz != argspec_type_size(a->type)) {
                snprintf(msg, cap, "--arg %d '%s' is %d bytes but parameter %d is %d bytes", i, a->text,
                         argspec_type_size(a->type), i, psz);
                goto fail;
            }
            /* a float's bits in an int parameter (or back) is never meant */
            PtxType pt = (PtxType)device_kernel_param_type(mod, entry, i);
            bool pf = ptx_type_is_float(pt), af = ptx_type_is_float(a->type);
            bool pbits = pt >= PTX_T_B8 && pt <= PTX_T_B128;
            if (!pbits && pf != af) {
                snprintf(msg, cap, "--arg %d '%s' is %s but parameter %d of %s is .%s (%s): give %s", i, a->text,
                         af ? "a float" : "an integer", i, entry, ptx_type_name(pt), pf ? "a float" : "an integer",
                         pf ? (psz == 8 ? "f64:V" : "f32:V")
                            : (psz == 8 ? "i64:V or u64:V" : psz == 4 ? "i32:V or u32:V" : "an integer of its size"));
                goto fail;
            }
            scalars[i] = a->scalar;
        }
        params[i] = &scalars[i];
    }
    allocated = nargs;
    DeviceLaunch cfg = {.grid = s->grid, .block = block, .smem = (unsigned)s->smem, .inst_budget = s->budget,
                        .trace_path = s->trace_path, .trace_level = s->trace_level,
                        .schedule = s->schedule, .atomic_order = s->atomic_order,
                        .divergence = s->divergence, .seed = s->seed, .checks = s->checks,
                        .cooperative = s->cooperative, .cluster = s->cluster,
                        .on_issue = s->on_issue, .on_issue_user = s->on_issue_user,
                        .on_progress = s->on_progress, .on_progress_user = s->on_progress_user, .timing = s->timing};
    bool on_gpu = !strcmp(device_backend(dev), "gpu");
    if (!on_gpu && s->smem > 48 * 1024 &&
        device_set_attr(mod, entry, DEVICE_ATTR_MAX_DYNAMIC_SMEM, (int)s->smem, &err)) {
        snprintf(msg, cap, "%s", err.msg);
        st = err.status;
        goto fail;
    }
    if (s->have_carveout &&
        device_set_attr(mod, entry, DEVICE_ATTR_PREFERRED_CARVEOUT, s->carveout, &err)) {
        snprintf(msg, cap, "%s", err.msg);
        st = err.status;
        goto fail;
    }
    st = device_launch(mod, entry, &cfg, params, &r->stats, &r->fault, &err);
    if (st && st != SIM_ERR_FAULT) {
        if (err.line > 0) /* a kernel refused for an instruction: where it is */
            snprintf(msg, cap, "%s:%d:%d: %s", err.file, err.line, err.col, err.msg);
        else
            snprintf(msg, cap, "%s", err.msg);
        goto fail;
    }
    r->status = st;
    for (int i = 0; i < nargs; i++) {
        const ArgSpec *a = &s->args[i];
        if (!a->is_buffer)
            continue;
        uint64_t bytes = a->count * (uint64_t)argspec_type_size(a->type);
        uint8_t *buf = malloc(bytes ? bytes : 1);
        if (buf && device_memcpy_dtoh(dev, buf, ptrs[i], bytes, NULL)) {
            free(buf);
            buf = NULL; /* unreadable (a GPU context lost to a fault): left out */
        }
        r->bufs[r->nbufs++] = (LaunchBuffer){.arg = i, .type = a->type, .count = a->count, .data = buf};
    }
fail:
    for (int i = 0; i < allocated; i++)
        if (s->args[i].is_buffer && ptrs[i])
            device_free(dev, ptrs[i], NULL);
    return st;
}
