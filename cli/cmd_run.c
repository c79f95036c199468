/* cmd_run.c: `warpsim run` -- run any kernel (.ptx, or .cu through nvcc) in
 * the simulator with arguments written on the command line, and print its
 * output buffers, printf text and statistics (or one JSON object). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "argspec.h"
#include "cmd.h"
#include "device.h"
#include "gpu.h"
#include "report.h"
#include "source.h"

#define MAX_ARGS 64

static const char run_help[] =
    "usage: warpsim run FILE --kernel NAME --grid X[,Y[,Z]] --block X[,Y[,Z]]\n"
    "                   [--smem BYTES] [--arch sm_90 | --gpu NAME] [--backend sim|gpu]\n"
    "                   [--arg SPEC]... [--json]\n"
    "\n"
    "Runs one kernel in the simulator and prints what it wrote.\n"
    "\n"
    "  FILE           a .ptx file, or a .cu file (compiled with nvcc -ptx -lineinfo -O3)\n"
    "  --kernel NAME  the PTX entry, or the plain C++ name of a mangled one\n"
    "  --grid, --block  launch dimensions, e.g. --grid 4 --block 256 or --block 16,16\n"
    "  --smem BYTES   dynamic shared memory per block (extern __shared__)\n"
    "  --arch sm_XX   arch profile (default sm_90); --gpu h100-sxm picks a part\n"
    "  --backend gpu  run on the real GPU instead (CUDA driver needed); same output\n"
    "  --budget N     stop after N warp instructions (default 10^10): an infinite loop\n"
    "                 becomes a 'budget-exceeded' fault instead of a hang\n"
    "  --json         print exactly one JSON object\n"
    "\n"
    "One --arg per kernel parameter, in order:\n"
    "  i32:V u32:V i64:V u64:V f32:V f64:V    a scalar\n"
    "  buf:T[N]=INIT    a device buffer of N elements of T (i8 u8 i16 u16 i32 u32 i64 u64\n"
    "                   f32 f64), passed as its pointer; INIT is one of\n"
    "                     fill:V        every element V\n"
    "                     iota          0, 1, 2, ...\n"
    "                     list:V,V,...  these values, the rest zero\n"
    "                     rand:SEED     reproducible splitmix64 values (floats in [-1,1))\n"
    "                     file:PATH     raw little-endian elements\n"
    "\n"
    "Exit status: 0 ran clean, 1 the kernel faulted, 2 bad usage or bad input.\n"
    "\n"
    "example:\n"
    "  warpsim run lessons/01-threads-and-races/kernel.ptx --kernel atomic_sum \\\n"
    "      --grid 4 --block 256 --arg buf:i32[1000]=fill:1 --arg buf:i32[1]=fill:0 --arg i32:1000\n";

static int usage_error(const char *fmt, const char *a)
{
    fprintf(stderr, "warpsim run: ");
    fprintf(stderr, fmt, a);
    fprintf(stderr, "\n(see warpsim run --help)\n");
    return 2;
}

/* "4" / "4,2" / "4,2,1" */
static bool parse_dim(const char *s, DeviceDim3 *d)
{
    unsigned v[3] = {1, 1, 1};
    int n = 0;
    const char *p = s;
    while (n < 3) {
        char *end;
        if (*p < '0' || *p > '9')
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
    if (*p && n == 3 && strchr(p, ','))
        return false;
    d->x = v[0];
    d->y = v[1];
    d->z = v[2];
    return true;
}

/* The contents of buffer argument a after the launch (malloc'd), or NULL. */
static uint8_t *read_back(Device *dev, const ArgSpec *a, DevicePtr p)
{
    uint64_t bytes = a->count * (uint64_t)argspec_type_size(a->type);
    uint8_t *buf = malloc(bytes);
    if (buf && device_memcpy_dtoh(dev, buf, p, bytes, NULL)) {
        free(buf);
        buf = NULL;
    }
    return buf;
}

static void print_buffers_text(Device *dev, const ArgSpec *args, const DevicePtr *ptrs, int n)
{
    for (int i = 0; i < n; i++) {
        if (!args[i].is_buffer)
            continue;
        int sz = argspec_type_size(args[i].type);
        uint64_t cnt = args[i].count;
        uint8_t *buf = read_back(dev, &args[i], ptrs[i]);
        if (!buf)
            continue;
        printf("arg %d  %s[%llu]:", i, argspec_type_name(args[i].type), (unsigned long long)cnt);
        uint64_t show = cnt <= 16 ? cnt : 12;
        for (uint64_t k = 0; k < show; k++) {
            char t[64];
            argspec_format_text(args[i].type, buf + k * (uint64_t)sz, t, sizeof t);
            printf(" %s", t);
        }
        if (show < cnt) {
            char t[64];
            argspec_format_text(args[i].type, buf + (cnt - 1) * (uint64_t)sz, t, sizeof t);
            printf(" ... %s", t);
        }
        printf("\n");
        free(buf);
    }
}

static void print_buffers_json(Device *dev, const ArgSpec *args, const DevicePtr *ptrs, int n)
{
    printf("\"buffers\": [");
    bool first = true;
    for (int i = 0; i < n; i++) {
        if (!args[i].is_buffer)
            continue;
        int sz = argspec_type_size(args[i].type);
        uint64_t cnt = args[i].count;
        uint8_t *buf = read_back(dev, &args[i], ptrs[i]);
        if (!buf)
            continue;
        printf("%s{\"arg\": %d, \"type\": \"%s\", \"values\": [", first ? "" : ", ", i,
               argspec_type_name(args[i].type));
        first = false;
        char t[64];
        for (uint64_t k = 0; k < cnt; k++) {
            argspec_format_json(args[i].type, buf + k * (uint64_t)sz, t, sizeof t);
            printf("%s%s", k ? ", " : "", t);
        }
        printf("], \"hex\": \"");
        for (uint64_t k = 0; k < cnt; k++) {
            argspec_format_hex(args[i].type, buf + k * (uint64_t)sz, t, sizeof t);
            printf("%s%s", k ? " " : "", t);
        }
        printf("\"}");
        free(buf);
    }
    printf("]");
}

int cmd_run(int argc, char **argv)
{
    const char *file = NULL, *kernel = NULL, *arch = "sm_90";
    DeviceDim3 grid = {0, 0, 0}, block = {0, 0, 0};
    unsigned long smem = 0;
    unsigned long long budget = 0;
    bool json = false, have_grid = false, have_block = false, on_gpu = false;
    ArgSpec args[MAX_ARGS];
    int nargs = 0, rc = 2;
    char msg[1024];
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        bool has_val = i + 1 < argc;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            fputs(run_help, stdout);
            rc = 0;
            goto done;
        } else if (!strcmp(a, "--json")) {
            json = true;
        } else if (!strcmp(a, "--kernel") && has_val) {
            kernel = argv[++i];
        } else if (!strcmp(a, "--grid") && has_val) {
            if (!parse_dim(argv[++i], &grid)) {
                rc = usage_error("--grid '%s': expected X[,Y[,Z]] of positive integers", argv[i]);
                goto done;
            }
            have_grid = true;
        } else if (!strcmp(a, "--block") && has_val) {
            if (!parse_dim(argv[++i], &block)) {
                rc = usage_error("--block '%s': expected X[,Y[,Z]] of positive integers", argv[i]);
                goto done;
            }
            have_block = true;
        } else if (!strcmp(a, "--smem") && has_val) {
            char *end;
            smem = strtoul(argv[++i], &end, 0);
            if (*end || argv[i][0] == '-' || smem > (1ul << 30)) {
                rc = usage_error("--smem '%s': expected a byte count", argv[i]);
                goto done;
            }
        } else if (!strcmp(a, "--budget") && has_val) {
            char *end;
            budget = strtoull(argv[++i], &end, 0);
            if (*end || argv[i][0] == '-' || !budget) {
                rc = usage_error("--budget '%s': expected a positive instruction count", argv[i]);
                goto done;
            }
        } else if ((!strcmp(a, "--arch") || !strcmp(a, "--gpu")) && has_val) {
            arch = argv[++i];
        } else if (!strcmp(a, "--backend") && has_val) {
            const char *b = argv[++i];
            if (strcmp(b, "sim") && strcmp(b, "gpu")) {
                rc = usage_error("--backend '%s': expected sim or gpu", b);
                goto done;
            }
            on_gpu = !strcmp(b, "gpu");
        } else if (!strcmp(a, "--arg") && has_val) {
            if (nargs == MAX_ARGS) {
                rc = usage_error("more than %s --arg", "64");
                goto done;
            }
            if (!argspec_parse(argv[++i], &args[nargs], msg, sizeof msg)) {
                fprintf(stderr, "warpsim run: %s\n", msg);
                goto done;
            }
            nargs++;
        } else if (a[0] == '-' && a[1]) {
            rc = usage_error(has_val || a[1] != '-' ? "unknown option '%s'" : "option '%s' needs a value", a);
            goto done;
        } else if (!file) {
            file = a;
        } else {
            rc = usage_error("unexpected argument '%s' (one FILE only)", a);
            goto done;
        }
    }
    if (!file) {
        rc = usage_error("%s", "missing FILE (a .ptx or .cu)");
        goto done;
    }
    if (!kernel) {
        rc = usage_error("%s", "missing --kernel NAME");
        goto done;
    }
    if (!have_grid || !have_block) {
        rc = usage_error("%s", "missing --grid or --block");
        goto done;
    }

    SimError err;
    sim_error_clear(&err);
    Device *dev = on_gpu ? device_open_gpu(0, &err) : device_open_sim(arch, &err);
    if (!dev) {
        fprintf(stderr, "warpsim run: %s\n", err.msg);
        goto done;
    }
    size_t len = 0;
    char *ptx = source_load_ptx(file, device_arch(dev), &len, msg, sizeof msg);
    DevicePtr ptrs[MAX_ARGS] = {0};
    uint64_t scalars[MAX_ARGS];
    void *params[MAX_ARGS];
    DeviceModule *mod = NULL;
    if (!ptx) {
        fprintf(stderr, "%s\n", msg);
        goto close;
    }
    if (device_load_ptx(dev, file, ptx, len, &mod, &err)) {
        report_error(stderr, &err, ptx, len);
        goto close;
    }
    const char *entry = device_find_kernel(mod, kernel, &err);
    if (!entry) {
        fprintf(stderr, "warpsim run: %s\n", err.msg);
        goto close;
    }
    int np = device_kernel_nparams(mod, entry);
    if (np != nargs) {
        fprintf(stderr, "warpsim run: kernel %s takes %d parameter%s but %d --arg %s given:", entry, np,
                np == 1 ? "" : "s", nargs, nargs == 1 ? "was" : "were");
        for (int i = 0; i < np; i++)
            fprintf(stderr, " [%d] %d bytes", i, device_kernel_param_size(mod, entry, i));
        fprintf(stderr, "\n");
        goto close;
    }
    for (int i = 0; i < nargs; i++) {
        int psz = device_kernel_param_size(mod, entry, i);
        if (args[i].is_buffer) {
            if (psz != 8) {
                fprintf(stderr, "warpsim run: --arg %d is a buffer (a pointer, 8 bytes) but parameter %d is %d bytes\n",
                        i, i, psz);
                goto close;
            }
            uint64_t bytes = args[i].count * (uint64_t)argspec_type_size(args[i].type);
            if (device_malloc(dev, bytes, &ptrs[i], &err) ||
                device_memcpy_htod(dev, ptrs[i], args[i].data, bytes, &err)) {
                fprintf(stderr, "warpsim run: %s\n", err.msg);
                goto close;
            }
            scalars[i] = ptrs[i];
        } else {
            if (psz != argspec_type_size(args[i].type)) {
                fprintf(stderr, "warpsim run: --arg %d '%s' is %d bytes but parameter %d is %d bytes\n", i,
                        args[i].text, argspec_type_size(args[i].type), i, psz);
                goto close;
            }
            scalars[i] = args[i].scalar;
        }
        params[i] = &scalars[i];
    }
    DeviceLaunch cfg = {.grid = grid, .block = block, .smem = (unsigned)smem, .inst_budget = budget};
    if (!on_gpu && smem > 48 * 1024 && device_set_attr(mod, entry, DEVICE_ATTR_MAX_DYNAMIC_SMEM, (int)smem, &err)) {
        fprintf(stderr, "warpsim run: %s\n", err.msg);
        goto close;
    }
    DeviceStats stats;
    DeviceFault fault;
    memset(&fault, 0, sizeof fault);
    SimStatus st = device_launch(mod, entry, &cfg, params, &stats, &fault, &err);
    if (st && st != SIM_ERR_FAULT) {
        fprintf(stderr, "warpsim run: %s\n", err.msg);
        goto close;
    }
    const char *out = device_printf_output(dev);
    if (json) {
        printf("{\"kernel\": ");
        report_json_string(stdout, entry);
        printf(", \"grid\": [%u, %u, %u], \"block\": [%u, %u, %u], \"smem\": %lu, \"arch\": \"%s\", "
               "\"backend\": \"%s\", ", grid.x, grid.y, grid.z, block.x, block.y, block.z, smem, device_arch(dev),
               device_backend(dev));
        print_buffers_json(dev, args, ptrs, nargs);
        printf(", \"printf\": ");
        report_json_string(stdout, out);
        printf(", \"stats\": ");
        report_stats_json(stdout, &stats);
        printf(", \"fault\": ");
        if (st == SIM_ERR_FAULT)
            report_fault_json(stdout, &fault);
        else
            printf("null");
        printf("}\n");
    } else {
        printf("%s<<<(%u,%u,%u), (%u,%u,%u), %lu>>> on %s (%s)\n", entry, grid.x, grid.y, grid.z,
               block.x, block.y, block.z, smem, device_arch(dev), device_backend(dev));
        if (*out) {
            printf("--- printf output ---\n%s", out);
            if (out[strlen(out) - 1] != '\n')
                printf("\n");
            printf("---\n");
        }
        if (st == SIM_ERR_FAULT)
            report_fault(stdout, &fault);
        print_buffers_text(dev, args, ptrs, nargs);
        report_stats(stdout, &stats, !on_gpu);
    }
    rc = st == SIM_ERR_FAULT ? 1 : 0;
close:
    free(ptx);
    device_close(dev);
done:
    for (int i = 0; i < nargs; i++)
        argspec_free(&args[i]);
    return rc;
}
