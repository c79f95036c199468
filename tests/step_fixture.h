/* step_fixture.h: what the tests of `warpsim step` share -- running warpsim
 * with its output captured, and driving the stepper by a script of commands
 * as a student would type them.  Run from the repository root ($WARPSIM names
 * build/warpsim).  Include after cmocka.h, in one test file per program. */
#ifndef WARPSIM_STEP_FIXTURE_H
#define WARPSIM_STEP_FIXTURE_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* The last command's stdout and stderr. */
static char out[1 << 20];

static inline const char *warpsim(void)
{
    const char *w = getenv("WARPSIM");
    return w ? w : "build/warpsim";
}

/* Run `warpsim ARGS` through the shell, stdout+stderr into out; status. */
static inline int run(const char *fmt, ...)
{
    char args[4096], cmd[4400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(args, sizeof args, fmt, ap);
    va_end(ap);
    snprintf(cmd, sizeof cmd, "%s %s 2>&1", warpsim(), args);
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    size_t n = fread(out, 1, sizeof out - 1, p);
    out[n] = 0;
    int st = pclose(p);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* `warpsim step LAUNCH --script F` where F holds commands. */
static inline int step(const char *launch, const char *commands)
{
    char path[] = "/tmp/warpsim-test-step-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, commands, strlen(commands)), (ssize_t)strlen(commands));
    close(fd);
    int rc = run("step %s --script %s", launch, path);
    unlink(path);
    return rc;
}

/* Occurrences of what in out. */
static inline int count(const char *what)
{
    int n = 0;
    for (const char *p = out; (p = strstr(p, what)); p += strlen(what))
        n++;
    return n;
}

#endif
