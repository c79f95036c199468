/* viz_xvfb.h: processes for the window test of tests/test_viz.c -- start an
 * Xvfb server on a free display (it writes the number it took to a pipe:
 * -displayfd), run a program on it with its stdout on a pipe, wait for a
 * line or for its exit with a time limit, and stop what was started, by
 * process id.  Nothing here can hang a test: every wait has a limit. */
#ifndef WARPSIM_TEST_VIZ_XVFB_H
#define WARPSIM_TEST_VIZ_XVFB_H

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* Whether prog is an executable on $PATH. */
static inline bool xvfb_have(const char *prog)
{
    const char *path = getenv("PATH");
    char dir[4096], full[4200];
    while (path && *path) {
        size_t n = strcspn(path, ":");
        snprintf(dir, sizeof dir, "%.*s", (int)n, path);
        snprintf(full, sizeof full, "%s/%s", dir[0] ? dir : ".", prog);
        if (access(full, X_OK) == 0)
            return true;
        path += n + (path[n] == ':');
    }
    return false;
}

static inline double xvfb_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Read from fd into buf (NUL-terminated, appending at *len) until it holds
 * want or seconds pass.  true when want was seen. */
static inline bool xvfb_read_until(int fd, char *buf, size_t cap, size_t *len, const char *want, double seconds)
{
    double end = xvfb_now() + seconds;
    while (!strstr(buf, want)) {
        double left = end - xvfb_now();
        if (left <= 0)
            return false;
        struct pollfd p = {fd, POLLIN, 0};
        if (poll(&p, 1, (int)(left * 1000) + 1) <= 0)
            continue;
        if (*len + 1 >= cap)
            return false;
        ssize_t n = read(fd, buf + *len, cap - 1 - *len);
        if (n <= 0)
            return strstr(buf, want) != NULL;
        *len += (size_t)n;
        buf[*len] = 0;
    }
    return true;
}

/* Start argv with DISPLAY=:display (when display >= 0), its stdout on a pipe
 * (*out, when out is not NULL), stderr to /dev/null unless keep_err.
 * Returns the pid, or -1. */
static inline pid_t xvfb_spawn(char *const argv[], int display, int *out, bool keep_err)
{
    int fds[2] = {-1, -1};
    if (out && pipe(fds) != 0)
        return -1;
    pid_t pid = fork();
    if (pid == 0) {
        if (out) {
            dup2(fds[1], 1);
            close(fds[0]);
            close(fds[1]);
        }
        if (!keep_err) {
            FILE *null = freopen("/dev/null", "w", stderr);
            (void)null;
        }
        if (display >= 0) {
            char d[16];
            snprintf(d, sizeof d, ":%d", display);
            setenv("DISPLAY", d, 1);
        }
        execvp(argv[0], argv);
        _exit(127);
    }
    if (out) {
        close(fds[1]);
        *out = pid > 0 ? fds[0] : -1;
        if (pid < 0)
            close(fds[0]);
    }
    return pid;
}

/* Wait for pid up to seconds; then kill it.  Its exit status, or -1 when it
 * had to be killed or died of a signal. */
static inline int xvfb_wait(pid_t pid, double seconds)
{
    double end = xvfb_now() + seconds;
    int st = 0;
    for (;;) {
        pid_t r = waitpid(pid, &st, WNOHANG);
        if (r == pid)
            return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
        if (r < 0)
            return -1;
        if (xvfb_now() > end) {
            kill(pid, SIGKILL);
            waitpid(pid, &st, 0);
            return -1;
        }
        usleep(20000);
    }
}

/* Start Xvfb on a free display, screen w x h x 24.  Its pid (and *display),
 * or -1 when it did not come up within 10 seconds. */
static inline pid_t xvfb_start(int w, int h, int *display)
{
    int fds[2];
    if (pipe(fds) != 0)
        return -1;
    char fdarg[16], screen[32];
    snprintf(fdarg, sizeof fdarg, "%d", fds[1]);
    snprintf(screen, sizeof screen, "%dx%dx24", w, h);
    char *argv[] = {"Xvfb", "-displayfd", fdarg, "-screen", "0", screen, "-nolisten", "tcp", NULL};
    pid_t pid = fork();
    if (pid == 0) {
        close(fds[0]);
        FILE *null = freopen("/dev/null", "w", stderr);
        (void)null;
        execvp(argv[0], argv);
        _exit(127);
    }
    close(fds[1]);
    char buf[64] = "";
    size_t len = 0;
    bool ok = pid > 0 && xvfb_read_until(fds[0], buf, sizeof buf, &len, "\n", 10.0);
    close(fds[0]);
    if (!ok) {
        if (pid > 0) {
            kill(pid, SIGTERM);
            xvfb_wait(pid, 5);
        }
        return -1;
    }
    *display = atoi(buf);
    return pid;
}

static inline void xvfb_stop(pid_t pid)
{
    if (pid > 0) {
        kill(pid, SIGTERM);
        xvfb_wait(pid, 5);
    }
}

#endif
