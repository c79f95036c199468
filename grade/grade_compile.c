/* grade_compile.c: compiling a submission for `warpsim grade` -- nvcc, then
 * ptxas on its PTX, each in its own process group with a time limit (a
 * template bomb must not stall the grader), and the first error picked out
 * of their messages. */
#include "grade_int.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "source.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Wait for pid, killing its process group after timeout_s.  Returns its
 * wait status, or -1 when it was killed for the timeout. */
static int wait_bounded(pid_t pid, int timeout_s)
{
    double end = now() + timeout_s;
    for (;;) {
        int st = 0;
        pid_t w = waitpid(pid, &st, WNOHANG);
        if (w == pid)
            return st;
        if (w < 0 && errno != EINTR)
            return 1 << 8; /* lost the child: a failure */
        if (now() >= end) {
            kill(-pid, SIGKILL);
            kill(pid, SIGKILL);
            waitpid(pid, &st, 0);
            return -1;
        }
        struct timespec nap = {0, 20 * 1000 * 1000};
        nanosleep(&nap, NULL);
    }
}

/* Run argv[0] with argv, its stdin /dev/null and its output into logp, in
 * a process group killed after timeout_s.  Its wait status, -1 for the
 * timeout, -2 when it could not be started. */
static int run_logged(char *const argv[], const char *logp, int timeout_s)
{
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        setpgid(0, 0);
        int fd = open(logp, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        int nul = open("/dev/null", O_RDWR);
        if (fd < 0 || nul < 0)
            _exit(127);
        dup2(nul, 0);
        dup2(fd, 1);
        dup2(fd, 2);
        execv(argv[0], argv);
        _exit(127);
    }
    if (pid < 0)
        return -2;
    setpgid(pid, pid); /* also here: whichever runs first */
    return wait_bounded(pid, timeout_s);
}

GradeCompileStatus grade_compile(const char *path, const char *arch, int timeout_s, char **ptx, size_t *len,
                                 char **log, char *msg, size_t cap)
{
    *ptx = NULL;
    *log = NULL;
    const char *found = source_find_nvcc();
    if (!found) {
        snprintf(msg, cap, "nvcc was not found (PATH, $CUDA_HOME/bin, /usr/local/cuda/bin): grading compiles "
                           "the submission, so it needs the CUDA toolkit");
        return GRADE_COMPILE_UNAVAILABLE;
    }
    char nvcc[1024], ptxas[1024];
    snprintf(nvcc, sizeof nvcc, "%s", found);
    found = source_find_tool("ptxas");
    snprintf(ptxas, sizeof ptxas, "%s", found ? found : "");
    char dir[] = "/tmp/warpsim-grade-XXXXXX";
    if (!mkdtemp(dir)) {
        snprintf(msg, cap, "cannot create a temporary folder: %s", strerror(errno));
        return GRADE_COMPILE_UNAVAILABLE;
    }
    char out[256], logp[256], archarg[64];
    snprintf(out, sizeof out, "%s/kernel.ptx", dir);
    snprintf(logp, sizeof logp, "%s/nvcc.log", dir);
    snprintf(archarg, sizeof archarg, "-arch=%s", arch);
    char *nvcc_argv[] = {nvcc, "-ptx", "-lineinfo", "-O3", archarg, "-o", out, (char *)path, NULL};
    GradeCompileStatus rc = GRADE_COMPILE_FAILED;
    int st = run_logged(nvcc_argv, logp, timeout_s);
    if (st == 0 && *ptxas) {
        /* nvcc -ptx stops before the back end, which still refuses some
         * kernels (too much shared memory, ...) that a GPU could then not
         * load: run it too, as a GPU's driver would */
        char *ptxas_argv[] = {ptxas, archarg, "-o", "/dev/null", out, NULL};
        st = run_logged(ptxas_argv, logp, timeout_s);
    }
    char tmp[256];
    size_t ll = 0;
    if (st == -2) {
        snprintf(msg, cap, "cannot start nvcc: %s", strerror(errno));
        rc = GRADE_COMPILE_UNAVAILABLE;
    } else if (st == -1) {
        rc = GRADE_COMPILE_TIMED_OUT;
    } else if (WIFEXITED(st) && WEXITSTATUS(st) == 0) {
        *ptx = source_read_file(out, len, msg, cap);
        rc = *ptx ? GRADE_COMPILED : GRADE_COMPILE_UNAVAILABLE;
    } else if (WIFEXITED(st) && WEXITSTATUS(st) == 127) {
        snprintf(msg, cap, "could not run %s", nvcc);
        rc = GRADE_COMPILE_UNAVAILABLE;
    } else {
        *log = source_read_file(logp, &ll, tmp, sizeof tmp);
        if (!*log)
            *log = strdup("(nvcc failed and wrote no message)\n");
    }
    unlink(out);
    unlink(logp);
    rmdir(dir);
    return rc;
}

/* Copy line [p, p + n) into buf. */
static void copy_line(const char *p, size_t n, char *buf, size_t cap)
{
    if (n >= cap)
        n = cap - 1;
    memcpy(buf, p, n);
    buf[n] = 0;
}

bool grade_compile_first_error(const char *log, char *file, size_t fcap, int *line, int *col, char *emsg,
                               size_t ecap)
{
    *line = *col = 0;
    for (const char *p = log; p && *p;) {
        const char *nl = strchr(p, '\n');
        size_t n = nl ? (size_t)(nl - p) : strlen(p);
        char l[1024];
        copy_line(p, n, l, sizeof l);
        p = nl ? nl + 1 : NULL;
        /* FILE(LINE): error: MSG  (also "catastrophic error") */
        char *e = strstr(l, "): error: ");
        int skip = 10;
        if (!e) {
            e = strstr(l, "): catastrophic error: ");
            skip = 23;
        }
        char *open = e ? e : NULL;
        while (open && open > l && *open != '(')
            open--;
        if (e && open > l && *open == '(') {
            *open = 0;
            snprintf(file, fcap, "%s", l);
            *line = atoi(open + 1);
            snprintf(emsg, ecap, "%s", e + skip);
            /* nvcc echoes the source line indented, then a caret under the column */
            const char *q = p;
            char echo[1024] = "", caret[1024] = "";
            for (int k = 0; k < 2 && q && *q; k++) {
                const char *qn = strchr(q, '\n');
                copy_line(q, qn ? (size_t)(qn - q) : strlen(q), k ? caret : echo, sizeof echo);
                q = qn ? qn + 1 : NULL;
            }
            const char *c = strchr(caret, '^');
            if (c && strspn(caret, " ") == (size_t)(c - caret) && (size_t)(c - caret) >= 2)
                *col = (int)(c - caret) - 2 + 1; /* nvcc indents its echo by two columns */
            return true;
        }
        if (!strncmp(l, "nvcc fatal", 10) || !strncmp(l, "error:", 6) || !strncmp(l, "ptxas error", 11) ||
            !strncmp(l, "ptxas fatal", 11)) {
            file[0] = 0;
            snprintf(emsg, ecap, "%s", l);
            return true;
        }
    }
    return false;
}
