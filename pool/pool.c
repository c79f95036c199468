/* pool.c: worker threads that run independent tasks side by side while the
 * calling thread folds their results in task order (pool.h), and the thread
 * count from --threads, WARPSIM_THREADS or the cores available. */
#include "pool.h"

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int pool_cores(void)
{
    long n = 0;
#ifdef CPU_COUNT
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) == 0)
        n = CPU_COUNT(&set);
#endif
    if (n < 1)
        n = sysconf(_SC_NPROCESSORS_ONLN);
    if (n < 1)
        n = 1;
    return n > POOL_MAX_THREADS ? POOL_MAX_THREADS : (int)n;
}

bool pool_threads_parse(const char *text, int *n, char *msg, size_t cap)
{
    const char *p = text;
    long v = 0;
    if (*p < '0' || *p > '9')
        goto bad;
    for (; *p >= '0' && *p <= '9'; p++)
        if ((v = v * 10 + (*p - '0')) > POOL_MAX_THREADS)
            goto bad;
    if (*p || v < 1)
        goto bad;
    *n = (int)v;
    return true;
bad:
    snprintf(msg, cap, "'%s': expected a thread count from 1 to %d", text, POOL_MAX_THREADS);
    return false;
}

bool pool_threads_default(int *n, char *msg, size_t cap)
{
    const char *env = getenv("WARPSIM_THREADS");
    if (!env) {
        *n = pool_cores();
        return true;
    }
    char why[200];
    if (pool_threads_parse(env, n, why, sizeof why))
        return true;
    snprintf(msg, cap, "WARPSIM_THREADS=%s", why);
    return false;
}

size_t pool_window(int threads)
{
    return threads < 1 ? 4 : 4 * (size_t)threads;
}

typedef struct {
    pthread_mutex_t mu;
    pthread_cond_t work_cv;   /* workers: a slot came free, or stop */
    pthread_cond_t fold_cv;   /* the calling thread: a task finished */
    size_t ntasks, window;
    size_t next;              /* the next task to start */
    size_t folded;            /* tasks folded so far */
    bool stop;
    bool *done;               /* per slot: its task finished and is not folded yet */
    int *rc;                  /* per slot: what work returned */
    PoolWorkFn work;
    void *user;
} Run;

typedef struct {
    Run *run;
    int index;
} Worker;

static void *worker_main(void *arg)
{
    Worker *w = arg;
    Run *r = w->run;
    pthread_mutex_lock(&r->mu);
    for (;;) {
        while (!r->stop && r->next < r->ntasks && r->next >= r->folded + r->window)
            pthread_cond_wait(&r->work_cv, &r->mu);
        if (r->stop || r->next >= r->ntasks)
            break;
        size_t t = r->next++;
        pthread_mutex_unlock(&r->mu);
        int rc = r->work(r->user, t, w->index);
        pthread_mutex_lock(&r->mu);
        r->rc[t % r->window] = rc;
        r->done[t % r->window] = true;
        pthread_cond_signal(&r->fold_cv);
    }
    pthread_mutex_unlock(&r->mu);
    return NULL;
}

static int run_serial(size_t ntasks, PoolWorkFn work, PoolFoldFn fold, void *user)
{
    for (size_t t = 0; t < ntasks; t++) {
        int rc = fold(user, t, work(user, t, 0));
        if (rc)
            return rc;
    }
    return 0;
}

int pool_run(int threads, size_t ntasks, size_t window, PoolWorkFn work, PoolFoldFn fold, void *user)
{
    if (window < 1)
        window = 1;
    if ((size_t)threads > ntasks)
        threads = (int)ntasks;
    if (threads > POOL_MAX_THREADS)
        threads = POOL_MAX_THREADS;
    if (threads <= 1)
        return run_serial(ntasks, work, fold, user);
    Run r = {.ntasks = ntasks, .window = window, .work = work, .user = user};
    r.done = calloc(window, sizeof *r.done);
    r.rc = calloc(window, sizeof *r.rc);
    pthread_t *tid = calloc((size_t)threads, sizeof *tid);
    Worker *ws = calloc((size_t)threads, sizeof *ws);
    int started = 0, result = 0;
    if (!r.done || !r.rc || !tid || !ws)
        goto serial;
    pthread_mutex_init(&r.mu, NULL);
    pthread_cond_init(&r.work_cv, NULL);
    pthread_cond_init(&r.fold_cv, NULL);
    for (; started < threads; started++) {
        ws[started] = (Worker){.run = &r, .index = started};
        if (pthread_create(&tid[started], NULL, worker_main, &ws[started]))
            break;
    }
    if (!started) {
        pthread_cond_destroy(&r.fold_cv);
        pthread_cond_destroy(&r.work_cv);
        pthread_mutex_destroy(&r.mu);
        goto serial;
    }
    for (size_t t = 0; t < ntasks && !result; t++) {
        size_t s = t % window;
        pthread_mutex_lock(&r.mu);
        while (!r.done[s])
            pthread_cond_wait(&r.fold_cv, &r.mu);
        r.done[s] = false;
        int rc = r.rc[s];
        pthread_mutex_unlock(&r.mu);
        result = fold(user, t, rc);
        pthread_mutex_lock(&r.mu);
        r.folded = t + 1;
        r.stop = result != 0;
        pthread_cond_broadcast(&r.work_cv);
        pthread_mutex_unlock(&r.mu);
    }
    for (int i = 0; i < started; i++)
        pthread_join(tid[i], NULL);
    pthread_cond_destroy(&r.fold_cv);
    pthread_cond_destroy(&r.work_cv);
    pthread_mutex_destroy(&r.mu);
    free(r.done);
    free(r.rc);
    free(tid);
    free(ws);
    return result;
serial:
    free(r.done);
    free(r.rc);
    free(tid);
    free(ws);
    return run_serial(ntasks, work, fold, user);
}
