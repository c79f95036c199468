/* source.c: reading .ptx files and compiling .cu files to PTX (source.h). */
#include "source.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

char *source_read_file(const char *path, size_t *len, char *msg, size_t cap)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(msg, cap, "%s: cannot open: %s", path, strerror(errno));
        return NULL;
    }
    size_t n = 0, c = 65536;
    char *buf = malloc(c);
    for (;;) {
        if (!buf) {
            fclose(f);
            snprintf(msg, cap, "%s: out of memory", path);
            return NULL;
        }
        n += fread(buf + n, 1, c - n - 1, f);
        if (n < c - 1)
            break;
        if (c > (256u << 20)) {
            free(buf);
            fclose(f);
            snprintf(msg, cap, "%s: file is larger than 256 MiB", path);
            return NULL;
        }
        c *= 2;
        char *nb = realloc(buf, c);
        if (!nb)
            free(buf);
        buf = nb;
    }
    if (ferror(f)) {
        free(buf);
        fclose(f);
        snprintf(msg, cap, "%s: read error", path);
        return NULL;
    }
    fclose(f);
    buf[n] = 0;
    *len = n;
    return buf;
}

static bool is_exec(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISREG(st.st_mode) && access(p, X_OK) == 0;
}

const char *source_find_tool(const char *tool)
{
    static char found[1024];
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

char *source_load_ptx(const char *path, const char *arch, size_t *len, char *msg, size_t cap)
{
    if (!ends_with(path, ".cu"))
        return source_read_file(path, len, msg, cap);
    const char *nvcc = source_find_nvcc();
    if (!nvcc) {
        snprintf(msg, cap, "%s: compiling CUDA needs nvcc, which was not found (PATH, $CUDA_HOME/bin, "
                           "/usr/local/cuda/bin); install the CUDA toolkit or pass the .ptx instead", path);
        return NULL;
    }
    if (access(path, R_OK)) {
        snprintf(msg, cap, "%s: cannot open: %s", path, strerror(errno));
        return NULL;
    }
    char dir[] = "/tmp/warpsim-nvcc-XXXXXX";
    if (!mkdtemp(dir)) {
        snprintf(msg, cap, "cannot create a temporary folder: %s", strerror(errno));
        return NULL;
    }
    char out[256], log[256], archarg[64];
    snprintf(out, sizeof out, "%s/kernel.ptx", dir);
    snprintf(log, sizeof log, "%s/nvcc.log", dir);
    snprintf(archarg, sizeof archarg, "-arch=%s", arch);
    pid_t pid = fork();
    if (pid == 0) {
        FILE *lf = freopen(log, "w", stderr);
        (void)lf;
        if (!freopen("/dev/null", "w", stdout))
            _exit(127);
        execl(nvcc, "nvcc", "-ptx", "-lineinfo", "-O3", archarg, "-o", out, path, (char *)NULL);
        _exit(127);
    }
    int status = 0;
    if (pid < 0 || waitpid(pid, &status, 0) < 0)
        status = -1;
    char *ptx = NULL;
    if (status == 0) {
        ptx = source_read_file(out, len, msg, cap);
    } else {
        size_t ll = 0;
        char tmp[64];
        char *text = source_read_file(log, &ll, tmp, sizeof tmp);
        snprintf(msg, cap, "%s: nvcc failed:\n%s", path, text && *text ? text : "(no message)\n");
        free(text);
    }
    unlink(out);
    unlink(log);
    rmdir(dir);
    return ptx;
}
