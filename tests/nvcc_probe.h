/* nvcc_probe.h: may the tests that compile CUDA run on this machine?  They
 * need an nvcc (launch/source.h finds it) that compiles a one-line kernel,
 * both started plainly and inside warpsim's sandbox (launch/sandbox.h), as
 * `warpsim run` and `warpsim grade` start it; the grader's tests also need
 * its own compile (grade_compile: nvcc -M and the check of what the compile
 * reads) to take that kernel.  The answer is worked out
 * once per test binary; each skip says which of the three is missing, with
 * the compiler's own words, so a CI log shows the cause and not only a
 * failing exit status.  Include after <cmocka.h>. */
#ifndef WARPSIM_TEST_NVCC_PROBE_H
#define WARPSIM_TEST_NVCC_PROBE_H

#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "grade_int.h"
#include "sandbox.h"
#include "source.h"

/* The last non-empty line of text (at most cap-1 bytes of it) into buf. */
static inline void nvcc_probe_last_line(const char *text, char *buf, size_t cap)
{
    const char *end = text + strlen(text);
    while (end > text && (end[-1] == '\n' || end[-1] == '\r'))
        end--;
    const char *start = end;
    while (start > text && start[-1] != '\n')
        start--;
    snprintf(buf, cap, "%.*s", (int)(end - start), start);
}

/* NULL when CUDA can be compiled here; else why not, in one sentence. */
static inline const char *nvcc_unusable(void)
{
    static bool probed;
    static char why[1024];
    if (probed)
        return *why ? why : NULL;
    probed = true;
    const char *nvcc = source_find_nvcc();
    if (!nvcc) {
        snprintf(why, sizeof why, "no nvcc found (PATH, $CUDA_HOME/bin, /usr/local/cuda/bin)");
        return why;
    }
    char dir[] = "/tmp/warpsim-nvcc-probe-XXXXXX", cu[64], ptx[64], log[64];
    if (!mkdtemp(dir)) {
        snprintf(why, sizeof why, "cannot make a folder in /tmp for the probe");
        return why;
    }
    snprintf(cu, sizeof cu, "%s/probe.cu", dir);
    snprintf(ptx, sizeof ptx, "%s/probe.ptx", dir);
    snprintf(log, sizeof log, "%s/probe.log", dir);
    FILE *f = fopen(cu, "w");
    if (f) {
        fputs("extern \"C\" __global__ void probe(int *p) { *p = 1; }\n", f);
        fclose(f);
    }
    /* 1. nvcc by itself, no limits: does the toolkit work on this machine? */
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        if (fd >= 0) {
            dup2(fd, 1);
            dup2(fd, 2);
        }
        execl(nvcc, nvcc, "-ptx", "-arch=sm_90", "-o", ptx, cu, (char *)NULL);
        _exit(127);
    }
    int st = -1;
    if (pid > 0)
        waitpid(pid, &st, 0);
    if (pid < 0 || !WIFEXITED(st) || WEXITSTATUS(st) != 0) {
        size_t n = 0;
        char msg[128], last[400] = "";
        char *text = source_read_file(log, &n, msg, sizeof msg);
        if (text)
            nvcc_probe_last_line(text, last, sizeof last);
        free(text);
        snprintf(why, sizeof why, "%s is here but does not compile a one-line kernel on this machine (the toolkit, "
                                  "not warpsim): %s", nvcc, *last ? last : "no message");
    } else {
        /* 2. the same through launch/source.c, inside the sandbox */
        char msg[900];
        size_t len = 0;
        char *text = source_load_ptx(cu, "sm_90", &len, msg, sizeof msg);
        if (!text)
            snprintf(why, sizeof why, "DEFECT: nvcc compiles a one-line kernel by itself but not inside warpsim's "
                                      "sandbox (launch/sandbox.c): %s", msg);
        free(text);
    }
    unlink(cu);
    unlink(ptx);
    unlink(log);
    rmdir(dir);
    return *why ? why : NULL;
}

/* Skip the current test when CUDA cannot be compiled here, saying why
 * once per binary, with what the skipped tests would have checked. */
static inline void need_working_nvcc(const char *what)
{
    static bool said;
    const char *why = nvcc_unusable();
    if (!why)
        return;
    if (!said)
        printf("skip: %s; %s\n", why, what);
    said = true;
    skip();
}

/* NULL when the grader's own compile (nvcc -M and its check of what the
 * compile reads, nvcc, ptxas: grade_compile) takes a one-line kernel in
 * tests/grade; else why not, with the compiler's words. */
static inline const char *grade_compile_unusable(void)
{
    static bool probed;
    static char why[1200];
    if (probed)
        return *why ? why : NULL;
    probed = true;
    static const char src[] = "extern \"C\" __global__ void probe(int *p) { *p = 1; }\n";
    GradeCompileInput in = {.source = src, .source_len = sizeof src - 1, .shown = "probe.cu", .folder = "tests/grade"};
    sandbox_limits_default(&in.limits);
    char *ptx = NULL, *log = NULL, msg[512] = "";
    size_t len = 0;
    GradeCompileStatus st = grade_compile(&in, "sm_90", &ptx, &len, &log, msg, sizeof msg);
    if (st != GRADE_COMPILED) {
        char last[400] = "";
        if (log)
            nvcc_probe_last_line(log, last, sizeof last);
        snprintf(why, sizeof why, "DEFECT: nvcc compiles a one-line kernel, in warpsim's sandbox too, but the "
                 "grader's compile (grade/grade_compile.c) does not: status %d, %s%s%s", (int)st, msg,
                 *last ? "; the compiler said: " : "", last);
    }
    free(ptx);
    free(log);
    return *why ? why : NULL;
}

/* need_working_nvcc, then the same for the grader's compile. */
static inline void need_grade_compile(const char *what)
{
    need_working_nvcc(what);
    static bool said;
    const char *why = grade_compile_unusable();
    if (!why)
        return;
    if (!said)
        printf("skip: %s; %s\n", why, what);
    said = true;
    skip();
}

#endif
