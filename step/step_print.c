/* step_print.c: the stepper's `print` -- a register (or %tid-style special)
 * across the 32 lanes of the focus warp with equal values grouped, a kernel
 * argument, and shared or global memory as typed elements with their hex.
 * It calls only step_core.c. */
#include "step_int.h"

#include <stdlib.h>
#include <string.h>

#define MAX_ELEMS 4096

/* ---- registers ---------------------------------------------------------------- */

/* "0-15,17,20-31" */
static void lane_list(uint32_t m, char *buf, size_t cap)
{
    size_t n = 0;
    buf[0] = 0;
    for (int l = 0; l < 32 && n < cap; l++) {
        if (!(m >> l & 1))
            continue;
        int e = l;
        while (e + 1 < 32 && (m >> (e + 1) & 1))
            e++;
        n += (size_t)snprintf(buf + n, cap - n, n ? "," : "");
        if (n < cap)
            n += (size_t)(e > l ? snprintf(buf + n, cap - n, "%d-%d", l, e) : snprintf(buf + n, cap - n, "%d", l));
        l = e;
    }
}

/* %tid.x and friends, computed from the launch's shape; false if name is none. */
static bool special(Stepper *s, const char *name, int lane, uint64_t *v)
{
    DeviceDim3 t = step_thread_of(s, s->fwarp, lane), g = s->cfg.spec->grid, b = s->cfg.spec->block;
    uint64_t bl = s->fblock;
    DeviceDim3 c = {(unsigned)(bl % g.x), (unsigned)(bl / g.x % g.y), (unsigned)(bl / g.x / g.y)};
    static const char *const names[] = {"%tid.x", "%tid.y", "%tid.z", "%ntid.x", "%ntid.y", "%ntid.z",
                                        "%ctaid.x", "%ctaid.y", "%ctaid.z", "%nctaid.x", "%nctaid.y", "%nctaid.z",
                                        "%laneid", "%warpid"};
    const unsigned vals[] = {t.x, t.y, t.z, b.x, b.y, b.z, c.x, c.y, c.z, g.x, g.y, g.z, (unsigned)lane,
                             (unsigned)s->fwarp};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        if (!strcmp(name, names[i])) {
            *v = vals[i];
            return true;
        }
    return false;
}

/* "%r1..%r8, %rd1..%rd6, %p1": the declared registers by family. */
static void reg_families(Stepper *s, int lane, char *buf, size_t cap)
{
    const char *names[512];
    int n = view_regs(s->v, s->fblock, s->fwarp, lane, names, 512);
    if (n > 512)
        n = 512;
    size_t len = 0;
    buf[0] = 0;
    for (int i = 0; i < n;) {
        size_t pl = strcspn(names[i], "0123456789");
        int j = i;
        while (j + 1 < n && strcspn(names[j + 1], "0123456789") == pl && !strncmp(names[j + 1], names[i], pl))
            j++;
        if (len < cap)
            len += (size_t)snprintf(buf + len, cap - len, "%s%s%s%s", len ? ", " : "", names[i],
                                    j > i ? ".." : "", j > i ? names[j] : "");
        i = j + 1;
    }
}

static bool print_reg(Stepper *s, const char *name)
{
    FILE *o = s->cfg.out;
    ViewWarp vw;
    if (!view_warp(s->v, s->fblock, s->fwarp, &vw)) {
        step_error(s, "block %llu is not resident (it %s): focus on a resident block (info blocks)",
                   (unsigned long long)s->fblock,
                   step_block_finished(s, s->fblock) ? "has finished" : "has not started yet");
        return false;
    }
    uint64_t val[32];
    bool is_pred = false, is_special = false;
    int type = -1;
    uint32_t have = 0;
    for (int l = 0; l < 32; l++) {
        if (!(vw.present >> l & 1))
            continue;
        if (special(s, name, l, &val[l])) {
            is_special = true;
        } else if (!view_reg(s->v, s->fblock, s->fwarp, l, name, &val[l], &is_pred)) {
            continue;
        } else if (type < 0) {
            type = view_reg_type(s->v, s->fblock, s->fwarp, l, name);
        }
        have |= 1u << l;
    }
    if (!have) {
        char fam[512];
        reg_families(s, vw.present ? __builtin_ctz(vw.present) : 0, fam, sizeof fam);
        step_error(s, "no register %s in %s (it declares %s; also %%tid.x, %%ctaid.x, %%laneid, %%warpid)", name,
                   view_kernel(s->v), *fam ? fam : "none");
        return false;
    }
    if (is_special)
        type = PTX_T_U32;
    if (is_pred)
        type = PTX_T_PRED;
    /* group the lanes by value, in order of first lane */
    uint64_t gv[32];
    uint32_t gm[32];
    int ng = 0;
    for (int l = 0; l < 32; l++) {
        if (!(have >> l & 1))
            continue;
        int g = 0;
        while (g < ng && gv[g] != val[l])
            g++;
        if (g == ng)
            gv[ng] = val[l], gm[ng++] = 0;
        gm[g] |= 1u << l;
    }
    uint32_t exited = vw.exited & have;
    fprintf(o, "%s (%s) in block %llu warp %d", name, type >= 0 ? ptx_type_name((PtxType)type) : "?",
            (unsigned long long)s->fblock, s->fwarp);
    if (exited) {
        char ex[128];
        lane_list(exited, ex, sizeof ex);
        fprintf(o, " (lanes %s have exited: their last values)", ex);
    }
    fprintf(o, ":\n");
    char v[96], lanes[128];
    if (ng <= 8) {
        for (int g = 0; g < ng; g++) {
            step_format_value(type, gv[g], v, sizeof v);
            lane_list(gm[g], lanes, sizeof lanes);
            fprintf(o, "  lane%s %-12s %s\n", __builtin_popcount(gm[g]) > 1 ? "s" : " ", lanes, v);
        }
        return false;
    }
    for (int row = 0; row < 32; row += 8) { /* many values: a table of 8 lanes a row */
        if (!(have >> row & 0xffu))
            continue;
        fprintf(o, "  lanes %2d-%-2d:", row, row + 7);
        for (int l = row; l < row + 8; l++) {
            if (have >> l & 1)
                step_format_value(type, val[l], v, sizeof v);
            else
                snprintf(v, sizeof v, "-");
            fprintf(o, " %10s", v);
        }
        fprintf(o, "\n");
    }
    return false;
}

/* ---- arguments and memory ------------------------------------------------------ */

/* "argK" or "argK[I]": K, and I (-1 when absent).  false when t is neither. */
static bool parse_arg(const char *t, int *k, long long *idx)
{
    if (strncmp(t, "arg", 3) || t[3] < '0' || t[3] > '9')
        return false;
    char *end;
    long kk = strtol(t + 3, &end, 10);
    *idx = -1;
    if (*end == '[') {
        char *e2;
        *idx = strtoll(end + 1, &e2, 0);
        if (e2 == end + 1 || *e2 != ']' || e2[1] || *idx < 0)
            return false;
    } else if (*end) {
        return false;
    }
    *k = kk > 1000 ? 1000 : (int)kk;
    return true;
}

/* The argument K as the launch spec wrote it, after checking it exists. */
static const ArgSpec *arg_spec(Stepper *s, int k)
{
    if (k < 0 || k >= s->cfg.spec->nargs || k >= view_param_count(s->v)) {
        step_error(s, "no argument %d: %s takes %d (arg0..arg%d)", k, view_kernel(s->v), view_param_count(s->v),
                   view_param_count(s->v) - 1);
        return NULL;
    }
    return &s->cfg.spec->args[k];
}

/* ADDR [+BYTES] for print shared/global: its value, a description, the
 * element type it implies (PTX_T_NONE: none) and the index of its first
 * element in rows' labels (I of argK[I]; 0 otherwise). */
static bool parse_addr(Stepper *s, const char *text, uint64_t *addr, PtxType *type, uint64_t *first, char *desc,
                       size_t dcap)
{
    *first = 0;
    char base[128];
    snprintf(base, sizeof base, "%s", text);
    uint64_t off = 0;
    char *plus = strrchr(base, '+');
    if (plus && plus != base) {
        if (!step_parse_u64(plus + 1, &off)) {
            step_error(s, "'%s': the offset after + must be a number of bytes", text);
            return false;
        }
        *plus = 0;
    }
    *type = PTX_T_NONE;
    int k;
    long long idx;
    if (base[0] == '%') {
        ViewWarp vw;
        bool pred;
        if (!view_warp(s->v, s->fblock, s->fwarp, &vw) ||
            !view_reg(s->v, s->fblock, s->fwarp, s->flane, base, addr, &pred) || pred) {
            step_error(s, "'%s' is not a register of lane %d of the focus warp", base, s->flane);
            return false;
        }
        snprintf(desc, dcap, "%s of lane %d", base, s->flane);
    } else if (parse_arg(base, &k, &idx)) {
        const ArgSpec *a = arg_spec(s, k);
        if (!a)
            return false;
        if (!a->is_buffer) {
            step_error(s, "arg%d is a scalar (%s), not a buffer: print arg%d shows it", k, a->text, k);
            return false;
        }
        view_param(s->v, k, addr, NULL);
        *type = a->type;
        if (idx >= 0) {
            if ((uint64_t)idx >= a->count) {
                step_error(s, "arg%d has %llu elements (0..%llu)", k, (unsigned long long)a->count,
                           (unsigned long long)a->count - 1);
                return false;
            }
            *addr += (uint64_t)idx * (uint64_t)argspec_type_size(a->type);
            if (!off)
                *first = (uint64_t)idx;
        }
        snprintf(desc, dcap, "%s, %s", base, a->text);
    } else if (step_parse_u64(base, addr)) {
        snprintf(desc, dcap, "%s", base);
        *desc = 0;
    } else {
        step_error(s, "'%s': expected an address (0x100), a register (%%rd3), argK or argK[I]", text);
        return false;
    }
    *addr += off;
    return true;
}

/* n elements of type t from addr; rows are labelled by element index,
 * counting from first. */
static void print_mem(Stepper *s, bool shared, uint64_t addr, uint64_t n, PtxType t, uint64_t first,
                      const char *desc)
{
    FILE *o = s->cfg.out;
    int size = argspec_type_size(t);
    fprintf(o, "%s 0x%llx", shared ? "shared" : "global", (unsigned long long)addr);
    if (shared)
        fprintf(o, " of block %llu", (unsigned long long)s->fblock);
    if (*desc)
        fprintf(o, " (%s)", desc);
    fprintf(o, ", %llu x %s:\n", (unsigned long long)n, argspec_type_name(t));
    char vals[8][48], hex[8][48];
    for (uint64_t i = 0; i < n; i += 8) {
        int k = 0;
        const char *bad = NULL;
        for (; k < 8 && i + (uint64_t)k < n; k++) {
            uint8_t e[8];
            uint64_t a = addr + (i + (uint64_t)k) * (uint64_t)size;
            bool ok = shared ? view_shared(s->v, s->fblock, a, e, (size_t)size) : view_global(s->v, a, e, (size_t)size);
            if (!ok) {
                bad = shared ? "past the end of the block's shared memory" : "outside every allocation";
                break;
            }
            argspec_format_text(t, e, vals[k], sizeof vals[k]);
            argspec_format_hex(t, e, hex[k], sizeof hex[k]);
        }
        if (k) {
            int wd = 0;
            for (int j = 0; j < k; j++) {
                int a = (int)strlen(vals[j]), b = (int)strlen(hex[j]);
                wd = a > wd ? a : wd;
                wd = b > wd ? b : wd;
            }
            char idx[32];
            snprintf(idx, sizeof idx, "[%llu]", (unsigned long long)(first + i));
            fprintf(o, "  %-6s", idx);
            for (int j = 0; j < k; j++)
                fprintf(o, " %*s", wd, vals[j]);
            fprintf(o, "\n  hex   ");
            for (int j = 0; j < k; j++)
                fprintf(o, " %*s", wd, hex[j]);
            fprintf(o, "\n");
        }
        if (bad) {
            fprintf(o, "  0x%llx is %s", (unsigned long long)(addr + (i + (uint64_t)k) * (uint64_t)size), bad);
            if (shared)
                fprintf(o, " (%llu bytes)", (unsigned long long)view_shared_size(s->v));
            fprintf(o, "\n");
            if (!k && !i)
                s->errors++;
            return;
        }
    }
}

static bool print_memory(Stepper *s, bool shared, int argc, char **argv)
{
    if (argc < 3) {
        step_error(s, "print %s ADDR [N] [TYPE]: missing ADDR", argv[1]);
        return false;
    }
    if (shared && !step_block_resident(s, s->fblock, NULL)) {
        step_error(s, "block %llu is not resident, so it has no shared memory now (info blocks)",
                   (unsigned long long)s->fblock);
        return false;
    }
    uint64_t addr, n = 1, first;
    PtxType t;
    char desc[160];
    if (!parse_addr(s, argv[2], &addr, &t, &first, desc, sizeof desc))
        return false;
    PtxType implied = t;
    if (t == PTX_T_NONE)
        t = argspec_type("i32");
    for (int i = 3; i < argc; i++) {
        PtxType tt = argspec_type(argv[i]);
        if (step_parse_u64(argv[i], &n) && n >= 1 && n <= MAX_ELEMS)
            continue;
        if (tt != PTX_T_NONE) {
            t = tt;
            continue;
        }
        step_error(s, "print %s: '%s' is neither a count (1..%d) nor a type (i32 u32 i64 u64 f32 f64 i8 u8 i16 u16)",
                   argv[1], argv[i], MAX_ELEMS);
        return false;
    }
    if (implied != PTX_T_NONE && argspec_type_size(t) != argspec_type_size(implied))
        first = 0; /* elements of another size: the array's indices no longer apply */
    print_mem(s, shared, addr, n, t, first, desc);
    return false;
}

static bool print_arg(Stepper *s, const char *text)
{
    int k;
    long long idx;
    parse_arg(text, &k, &idx);
    const ArgSpec *a = arg_spec(s, k);
    if (!a)
        return false;
    uint64_t v;
    int size;
    view_param(s->v, k, &v, &size);
    if (!a->is_buffer || idx >= 0) {
        if (!a->is_buffer) {
            char b[64];
            step_format_value(a->type, v, b, sizeof b);
            fprintf(s->cfg.out, "arg%d (%s): %s\n", k, a->text, b);
            return false;
        }
        char *argv[] = {"print", "global", (char *)text, NULL};
        return print_memory(s, false, 3, argv);
    }
    uint64_t n = a->count < 8 ? a->count : 8;
    char desc[160];
    snprintf(desc, sizeof desc, "arg%d, %s%s", k, a->text, n < a->count ? ": its first 8 elements" : "");
    print_mem(s, false, v, n, a->type, 0, desc);
    return false;
}

bool step_cmd_print(Stepper *s, int argc, char **argv)
{
    int k;
    long long idx;
    if (argc >= 2 && (!strcmp(argv[1], "shared") || !strcmp(argv[1], "global")))
        return print_memory(s, argv[1][0] == 's', argc, argv);
    if (argc == 2 && argv[1][0] == '%')
        return print_reg(s, argv[1]);
    if (argc == 2 && parse_arg(argv[1], &k, &idx))
        return print_arg(s, argv[1]);
    step_error(s, "print what?  print %%REG (print %%r5), print argK, print shared ADDR [N] [TYPE], "
                  "print global ADDR [N] [TYPE]");
    return false;
}
