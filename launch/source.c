/* source.c: reading .ptx files and compiling .cu files to PTX (source.h). */
#include "source.h"

#include "file_read.h"
#include "sandbox.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

char *source_read_file(const char *path, size_t *len, char *msg, size_t cap)
{
    SimError err;
    char *text = file_read_all(path, SOURCE_MAX_PTX, "file", len, &err);
    if (!text)
        snprintf(msg, cap, "%s: %s", path, err.msg);
    return text;
}

static bool is_exec(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISREG(st.st_mode) && access(p, X_OK) == 0;
}

const char *source_find_tool(const char *tool)
{
    /* one per thread: graders of a class look for nvcc side by side */
    static _Thread_local char found[1024];
    const char *path = getenv("PATH");
    if (path) {
        char *copy = strdup(path);
        for (char *save = NULL, *d = copy ? strtok_r(copy, ":", &save) : NULL; d; d = strtok_r(NULL, ":", &save)) {
            snprintf(found, sizeof found, "%s/%s", d, tool);
            if (is_exec(found)) {
                free(copy);
                return found;
            }
        }
        free(copy);
    }
    const char *home = getenv("CUDA_HOME");
    if (home) {
        snprintf(found, sizeof found, "%s/bin/%s", home, tool);
        if (is_exec(found))
            return found;
    }
    snprintf(found, sizeof found, "/usr/local/cuda/bin/%s", tool);
    return is_exec(found) ? found : NULL;
}

const char *source_find_nvcc(void)
{
    return source_find_tool("nvcc");
}

static bool ends_with(const char *s, const char *suf)
{
    size_t a = strlen(s), b = strlen(suf);
    return a >= b && !strcmp(s + a - b, suf);
}

/* A string PTX may carry in quotes, and a person may read: no quotes,
 * backslashes or control characters. */
static bool printable_path(const char *p)
{
    for (; *p; p++)
        if ((unsigned char)*p < 0x20 || *p == 0x7f || *p == '"' || *p == '\\')
            return false;
    return true;
}

/* Replace every occurrence of from by to in the malloc'd text *t. */
static bool replace_all(char **t, size_t *len, const char *from, const char *to)
{
    size_t fl = strlen(from), tl = strlen(to), n = 0;
    for (const char *q = *t; (q = strstr(q, from)); q += fl)
        n++;
    if (!n)
        return true;
    size_t nl = *len - n * fl + n * tl;
    char *out = malloc(nl + 1), *o = out;
    if (!out)
        return false;
    const char *q = *t;
    for (const char *h; (h = strstr(q, from)); q = h + fl) {
        memcpy(o, q, (size_t)(h - q));
        o += h - q;
        memcpy(o, to, tl);
        o += tl;
    }
    strcpy(o, q);
    free(*t);
    *t = out;
    *len = nl;
    return true;
}

bool source_arch_valid(const char *arch)
{
    if (strncmp(arch, "sm_", 3) || !arch[3])
        return false;
    const char *p = arch + 3;
    while (*p >= '0' && *p <= '9')
        p++;
    return p > arch + 3 && p - arch <= 6 && (!*p || ((*p == 'a' || *p == 'f') && !p[1]));
}

char *source_load_ptx(const char *path, const char *arch, size_t *len, char *msg, size_t cap)
{
    return source_load_ptx_inc(path, arch, NULL, len, msg, cap);
}

char *source_load_ptx_inc(const char *path, const char *arch, const char *include_dir, size_t *len, char *msg,
                          size_t cap)
{
    if (!ends_with(path, ".cu"))
        return source_read_file(path, len, msg, cap);
    if (!source_arch_valid(arch)) {
        snprintf(msg, cap, "'%s' is not an arch (sm_XX, e.g. sm_90)", arch);
        return NULL;
    }
    const char *found = source_find_nvcc();
    if (!found) {
        snprintf(msg, cap, "%s: compiling CUDA needs nvcc, which was not found (PATH, $CUDA_HOME/bin, "
                           "/usr/local/cuda/bin); install the CUDA toolkit or pass the .ptx instead", path);
        return NULL;
    }
    /* nvcc finds its own installation through argv[0]: the full path, never
     * the bare name (a bare name crashes it when it is not on PATH). */
    char nvcc[1024];
    snprintf(nvcc, sizeof nvcc, "%s", found);
    /* The file goes into a private folder under a fixed name: nvcc hands
     * paths to its stages through a shell, so a name such as
     * 'p$(touch x).cu' must never reach it.  Its own folder is linked as
     * src/ so that #include "sibling.h" still works. */
    Sandbox *sb = sandbox_new("nvcc", msg, cap);
    if (!sb)
        return NULL;
    char *ptx = NULL;
    char real[4096];
    if (!sandbox_copy_in(sb, path, "kernel.cu", SOURCE_MAX_CU, msg, cap))
        goto done;
    bool have_src = realpath(path, real) != NULL;
    if (have_src) {
        char *slash = strrchr(real, '/');
        if (slash == real)
            slash[1] = 0;
        else if (slash)
            *slash = 0;
        have_src = sandbox_link(sb, "src", real, msg, cap);
    }
    /* the course's own headers (lessons/include: tile.cuh), linked as inc/ */
    char inc_real[4096];
    bool have_inc = include_dir && realpath(include_dir, inc_real) && sandbox_link(sb, "inc", inc_real, msg, cap);
    char archarg[64];
    snprintf(archarg, sizeof archarg, "-arch=%s", arch);
    const char *argv[16];
    int k = 0;
    argv[k++] = nvcc, argv[k++] = "-ptx", argv[k++] = "-lineinfo", argv[k++] = "-O3", argv[k++] = archarg;
    if (have_src)
        argv[k++] = "-I", argv[k++] = "src";
    if (have_inc)
        argv[k++] = "-I", argv[k++] = "inc";
    argv[k++] = "-o", argv[k++] = "kernel.ptx", argv[k++] = "kernel.cu", argv[k] = NULL;
    SandboxLimits lim;
    sandbox_limits_default(&lim);
    SandboxResult r;
    if (!sandbox_run(sb, argv, &lim, 64 * 1024, &r, msg, cap))
        goto done;
    const char *shown = printable_path(path) ? path : "kernel.cu";
    if (r.end == SANDBOX_EXITED && r.code == 0) {
        ptx = sandbox_read(sb, "kernel.ptx", SOURCE_MAX_PTX, len, msg, cap);
        /* .file names the private copy: name the user's file instead, and
         * headers beside it by their own folder */
        char from[4200], to[4200];
        snprintf(from, sizeof from, "%s/kernel.cu", sandbox_dir(sb));
        if (ptx && !replace_all(&ptx, len, from, shown))
            goto oom;
        snprintf(from, sizeof from, "%s/src/", sandbox_dir(sb));
        snprintf(to, sizeof to, "%s/", have_src && printable_path(real) ? real : ".");
        if (ptx && !replace_all(&ptx, len, from, to))
            goto oom;
        snprintf(from, sizeof from, "%s/inc/", sandbox_dir(sb));
        snprintf(to, sizeof to, "%s/", have_inc && printable_path(inc_real) ? inc_real : ".");
        if (ptx && !replace_all(&ptx, len, from, to))
            goto oom;
    } else {
        char why[160];
        /* nvcc names the file as it was given ("kernel.cu(5): error"), now
         * and then by its full path: both become the user's name */
        char from[4200];
        snprintf(from, sizeof from, "%s/kernel.cu", sandbox_dir(sb));
        size_t ol = r.output_len;
        if (r.output && replace_all(&r.output, &ol, from, "kernel.cu"))
            replace_all(&r.output, &ol, "kernel.cu", shown);
        const char *out = r.output;
        snprintf(msg, cap, "%s: nvcc failed (%s):\n%s%s", path, sandbox_describe(&r, &lim, why, sizeof why),
                 out && *out ? out : "(no message)\n", r.output_truncated ? "(output cut)\n" : "");
    }
    sandbox_result_free(&r);
    goto done;
oom:
    free(ptx);
    ptx = NULL;
    snprintf(msg, cap, "out of memory");
    sandbox_result_free(&r);
done:
    sandbox_free(sb);
    return ptx;
}
