/* progress.c: progress lines on a terminal and Ctrl-C (progress.h). */
#include "progress.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t interrupted;

static void on_interrupt(int sig)
{
    (void)sig;
    interrupted = 1;
}

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

void progress_start(Progress *p, const char *what, const char *unit, bool quiet)
{
    memset(p, 0, sizeof *p);
    p->what = what;
    p->unit = unit;
    p->show = !quiet && isatty(STDERR_FILENO);
    p->start = p->last = now();
}

bool progress_update(Progress *p, uint64_t done, uint64_t total)
{
    if (p->show) {
        double t = now(), ran = t - p->start;
        if (ran >= 1.0 && t - p->last >= 0.25) {
            p->last = t;
            char left[48] = "";
            if (done && total > done) {
                double rest = ran * (double)(total - done) / (double)done;
                if (rest < 60)
                    snprintf(left, sizeof left, ", about %.0f s left", rest);
                else
                    snprintf(left, sizeof left, ", about %.0f min left", rest / 60);
            }
            fprintf(stderr, "\r\033[K  %s: %llu of %llu %s (%.0f%%), %.0f s%s  (Ctrl-C stops)", p->what,
                    (unsigned long long)done, (unsigned long long)total, p->unit,
                    total ? 100.0 * (double)done / (double)total : 0.0, ran, left);
            fflush(stderr);
            p->drawn = true;
        }
    }
    return interrupted != 0;
}

void progress_end(Progress *p)
{
    if (p->drawn)
        fprintf(stderr, "\r\033[K");
    p->drawn = false;
}

void progress_catch_interrupt(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_interrupt;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
}

bool progress_interrupted(void) { return interrupted != 0; }

int progress_launch_cb(void *user, uint64_t retired, uint64_t total)
{
    return progress_update(user, retired, total) ? 1 : 0;
}
