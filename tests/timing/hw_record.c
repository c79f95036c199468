/* hw_record.c: runs every launch of a timing-suite list (families.txt,
 * microbench.txt) on the GPU through warpsim's own GPU backend -- the
 * committed PTX loaded with cuModuleLoadDataEx, buffers made from the same
 * --arg specs the simulator gets, the carveout set with cuFuncSetAttribute --
 * in list order, one kernel launch per line, so that Nsight Compute's
 * results (one per launch, in order) pair with the list.  Prints one JSON
 * object a line per launch (small buffers in full, the first 8 values of
 * the others).  Not part of the build: tests/timing/record.sh compiles it
 * against build/libwarpsim.a and runs it under ncu on a GPU machine.
 *   usage: hw_record [--sim] LIST [FAMILY...]
 * --sim runs the list in the simulator instead (a dry run of the list and
 * the recorder where there is no GPU).  Exit 0 all ran, 1 some failed, 2 bad
 * usage. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "argspec.h"
#include "device.h"
#include "gpu.h"
#include "launch.h"
#include "source.h"
#include "suite.h"

static void print_buffers(const LaunchResult *r)
{
    printf("\"buffers\": [");
    for (int b = 0; b < r->nbufs; b++) {
        const LaunchBuffer *lb = &r->bufs[b];
        int sz = argspec_type_size(lb->type);
        uint64_t show = lb->count <= 64 ? lb->count : 8;
        printf("%s{\"arg\": %d, \"count\": %llu, \"values\": [", b ? ", " : "", lb->arg,
               (unsigned long long)lb->count);
        for (uint64_t k = 0; lb->data && k < show; k++) {
            char t[64];
            argspec_format_json(lb->type, lb->data + k * (uint64_t)sz, t, sizeof t);
            printf("%s%s", k ? ", " : "", t);
        }
        printf("]}");
    }
    printf("]");
}

static bool wanted(const char *family, int argc, char **argv)
{
    if (argc <= 2)
        return true;
    for (int i = 2; i < argc; i++)
        if (!strcmp(argv[i], family))
            return true;
    return false;
}

int main(int argc, char **argv)
{
    bool sim = argc > 1 && !strcmp(argv[1], "--sim");
    if (sim) {
        argv++;
        argc--;
    }
    if (argc < 2 || !strcmp(argv[1], "--help")) {
        fprintf(stderr, "usage: hw_record [--sim] LIST [FAMILY...]\n");
        return 2;
    }
    TsSuite suite;
    char msg[1024];
    if (!ts_load(&suite, argv[1], msg, sizeof msg)) {
        fprintf(stderr, "hw_record: %s\n", msg);
        return 2;
    }
    SimError err;
    sim_error_clear(&err);
    Device *dev = sim ? device_open_sim("sm_90", &err) : device_open_gpu(0, &err);
    if (!dev) {
        fprintf(stderr, "hw_record: %s\n", err.msg);
        ts_free(&suite);
        return 2;
    }
    int failed = 0, nmods = 0;
    struct LoadedModule {
        const char *path;
        DeviceModule *mod;
    } mods[64];
    for (int i = 0; i < suite.nl; i++) {
        const TsLaunch *l = &suite.l[i];
        const char *fam = suite.fam[l->family].name;
        if (!wanted(fam, argc, argv))
            continue;
        char *opts[128];
        int nopt = 0;
        ts_launch_options(l, opts, &nopt);
        LaunchSpec spec;
        launch_spec_init(&spec);
        LaunchResult res;
        memset(&res, 0, sizeof res);
        DeviceModule *mod = NULL;
        const char *entry = NULL;
        bool ok = false;
        if (!launch_parse_tokens(&spec, nopt, opts, msg, sizeof msg))
            goto report;
        /* One module per PTX file, loaded at its first launch: a module per
         * launch would leave Nsight Compute more device memory to save and
         * restore at every replay pass.  No kernel of the suite reads what
         * another wrote into the module's __device__ arrays. */
        for (int m = 0; m < nmods && !mod; m++)
            if (!strcmp(mods[m].path, l->tok[0]))
                mod = mods[m].mod;
        if (!mod) {
            size_t len = 0;
            char *ptx = source_read_file(l->tok[0], &len, msg, sizeof msg);
            if (!ptx)
                goto report;
            SimStatus st = device_load_ptx(dev, l->tok[0], ptx, len, &mod, &err);
            free(ptx);
            if (st) {
                snprintf(msg, sizeof msg, "%s", err.msg);
                goto report;
            }
            if (nmods < (int)(sizeof mods / sizeof *mods))
                mods[nmods++] = (struct LoadedModule){l->tok[0], mod};
        }
        if (!(entry = device_find_kernel(mod, spec.kernel, &err)) ||
            device_set_attr(mod, entry, DEVICE_ATTR_PREFERRED_CARVEOUT, l->carveout, &err)) {
            snprintf(msg, sizeof msg, "%s", err.msg);
            goto report;
        }
        SimStatus st = launch_run(dev, mod, &spec, &res, msg, sizeof msg);
        ok = st == SIM_OK;
        if (st == SIM_ERR_FAULT)
            snprintf(msg, sizeof msg, "fault: %s", res.fault.msg);
    report:
        printf("{\"family\": \"%s\", \"launch\": \"%s\", \"kernel\": \"%s\", \"grid\": [%u, %u, %u], "
               "\"block\": [%u, %u, %u], \"smem\": %lu, \"carveout\": %d, \"status\": \"%s\"",
               fam, l->name, spec.kernel ? spec.kernel : "", spec.grid.x, spec.grid.y, spec.grid.z,
               spec.block.x, spec.block.y, spec.block.z, spec.smem, l->carveout, ok ? "ok" : "failed");
        if (ok) {
            printf(", \"regs\": %d, \"host_seconds\": %.6f, ", res.stats.regs_per_thread, res.stats.seconds);
            print_buffers(&res);
        } else {
            printf(", \"error\": \"");
            for (const char *p = msg; *p; p++) {
                if (*p == '"' || *p == '\\')
                    putchar('\\');
                putchar((unsigned char)*p < 32 ? ' ' : *p);
            }
            printf("\"");
            failed++;
        }
        printf("}\n");
        fflush(stdout);
        launch_result_free(&res);
        launch_spec_free(&spec);
    }
    device_close(dev);
    ts_free(&suite);
    return failed ? 1 : 0;
}
