/* ptxas.c: what the real compiler says a kernel uses -- registers, static
 * shared memory, barriers, stack and spills -- from `ptxas -v` (ptxas.h). */
#include "ptxas.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sandbox.h"
#include "source.h"

/* Does PTX entry `entry` answer to the name the user gave? */
static bool kernel_matches(const char *entry, const char *name)
{
    if (!strcmp(entry, name))
        return true;
    char mangled[300];
    snprintf(mangled, sizeof mangled, "_Z%zu%s", strlen(name), name);
    return !strncmp(entry, mangled, strlen(mangled));
}

/* Parse ptxas -v output for the kernel called `name`.  Returns 0, or 2 after
 * printing why. */
static int ptxas_parse(const char *out, const char *name, const char *file, PtxasInfo *info)
{
    PtxasInfo cur = {0}, found = {0};
    int matches = 0;
    char entries[1024] = "";
    const char *line = out;
    while (line && *line) {
        const char *nl = strchr(line, '\n');
        size_t len = nl ? (size_t)(nl - line) : strlen(line);
        char l[1024];
        snprintf(l, sizeof l, "%.*s", (int)(len < sizeof l ? len : sizeof l - 1), line);
        const char *p;
        if ((p = strstr(l, "Compiling entry function '"))) {
            memset(&cur, 0, sizeof cur);
            p += strlen("Compiling entry function '");
            const char *q = strchr(p, '\'');
            snprintf(cur.name, sizeof cur.name, "%.*s", (int)(q ? q - p : 0), p);
            size_t el = strlen(entries);
            snprintf(entries + el, sizeof entries - el, "%s%s", el ? ", " : "", cur.name);
        } else if ((p = strstr(l, "bytes stack frame"))) {
            sscanf(l, " %lld bytes stack frame, %lld bytes spill stores, %lld bytes spill loads",
                   &cur.stack, &cur.spill_stores, &cur.spill_loads);
        } else if ((p = strstr(l, "Used ")) && strstr(l, " registers")) {
            sscanf(p, "Used %d registers", &cur.regs);
            const char *b = strstr(l, "used ");
            if (b && b != p)
                sscanf(b, "used %d barriers", &cur.barriers);
            const char *s = strstr(l, " bytes smem");
            if (s) {
                while (s > l && s[-1] >= '0' && s[-1] <= '9')
                    s--;
                cur.smem = atoll(s);
            }
            if (cur.name[0] && kernel_matches(cur.name, name)) {
                found = cur;
                matches++;
            }
        }
        line = nl ? nl + 1 : NULL;
    }
    if (matches == 1) {
        *info = found;
        return 0;
    }
    fprintf(stderr, "warpsim: %s: %s kernel '%s'; its kernels are: %s\n", file,
            matches ? "more than one" : "no", name, entries[0] ? entries : "(none)");
    return 2;
}

int ptxas_query(const char *ptx, const char *kernel, const char *sm, int maxrreg, PtxasInfo *info)
{
    const char *found = source_find_tool("ptxas");
    char ptxas[1024];
    if (found)
        snprintf(ptxas, sizeof ptxas, "%s", found);
    if (!found) {
        fprintf(stderr, "warpsim: --ptx needs ptxas from the CUDA toolkit, and it was "
                        "not found ($CUDA_HOME/bin, $PATH, /usr/local/cuda/bin).\n"
                        "Install the toolkit, or give the register count yourself with --regs R "
                        "(and --smem-static B).\n");
        return 2;
    }
    /* the PTX goes into a private folder under a fixed name (sandbox.h) */
    char msg[512];
    Sandbox *sb = sandbox_new("ptxas", msg, sizeof msg);
    if (!sb || !sandbox_copy_in(sb, ptx, "kernel.ptx", SOURCE_MAX_PTX, msg, sizeof msg)) {
        fprintf(stderr, "warpsim: %s\n", msg);
        sandbox_free(sb);
        return 2;
    }
    char maxr[32];
    const char *argv[12];
    int n = 0;
    argv[n++] = ptxas;
    argv[n++] = "-v";
    argv[n++] = "--gpu-name";
    argv[n++] = sm;
    if (maxrreg > 0) {
        snprintf(maxr, sizeof maxr, "%d", maxrreg);
        argv[n++] = "--maxrregcount";
        argv[n++] = maxr;
    }
    argv[n++] = "kernel.ptx";
    argv[n++] = "-o";
    argv[n++] = "/dev/null";
    argv[n] = NULL;
    SandboxLimits lim;
    sandbox_limits_default(&lim);
    SandboxResult res;
    if (!sandbox_run(sb, argv, &lim, 1 << 20, &res, msg, sizeof msg)) {
        fprintf(stderr, "warpsim: %s\n", msg);
        sandbox_free(sb);
        return 2;
    }
    sandbox_free(sb);
    char *out = res.output;
    int status = res.end == SANDBOX_EXITED ? res.code : 128;
    if (!out) {
        fprintf(stderr, "warpsim: could not run %s\n", ptxas);
        return 2;
    }
    int rc = 0;
    if (status != 0) {
        fprintf(stderr, "warpsim: ptxas failed on %s for %s:\n%s", ptx, sm, out);
        if (strstr(out, ".target"))
            fprintf(stderr, "(the PTX was generated for a newer .target than %s: regenerate it "
                            "with nvcc -ptx -arch=%s, or pick a newer --arch)\n", sm, sm);
        rc = 2;
    } else {
        rc = ptxas_parse(out, kernel, ptx, info);
    }
    free(out);
    return rc;
}
