/* pool.h: a pool of worker threads (pthreads) for independent simulated
 * launches -- explore's runs, grade's tests x schedules, occupancy sweeps,
 * xcheck lines.  Tasks run side by side; their results are folded on the
 * calling thread one by one in task order, so what a caller builds from
 * them is the same, byte for byte, with any number of threads.  Also: how
 * many threads to use (--threads N, WARPSIM_THREADS, the cores available). */
#ifndef WARPSIM_POOL_H
#define WARPSIM_POOL_H

#include <stdbool.h>
#include <stddef.h>

/* The most threads a pool runs (more are refused by pool_threads_parse). */
#define POOL_MAX_THREADS 1024

/* The cores this process may run on: the affinity mask's count, else
 * sysconf(_SC_NPROCESSORS_ONLN); at least 1, at most POOL_MAX_THREADS. */
int pool_cores(void);

/* Parse a thread count ("4"): a decimal integer from 1 to POOL_MAX_THREADS.
 * true with *n set; false with msg (one line, naming text: "'0': expected
 * a thread count from 1 to 1024") for 0, negative numbers, garbage. */
bool pool_threads_parse(const char *text, int *n, char *msg, size_t cap);

/* The default thread count: $WARPSIM_THREADS when set (parsed as above;
 * false with msg "WARPSIM_THREADS='x': ..." when bad), else pool_cores(). */
bool pool_threads_default(int *n, char *msg, size_t cap);

/* Run task t for every t in [0, ntasks) on `threads` workers.
 *
 * work(user, t, worker) runs the task on a worker (worker in [0, threads):
 * index per-worker state such as a Device by it; one worker never runs two
 * tasks at once) and keeps what it produced in a slot the caller owns, slot
 * t % window: at most `window` tasks are started and not yet folded, so
 * the caller needs `window` slots (window >= 1; pool_window gives a good
 * one).  Its return value is handed to fold.
 *
 * fold(user, t, rc) then runs on the calling thread, for t = 0, 1, 2, ...
 * in order, after task t's work returned rc: it reads slot t % window and
 * empties it (the slot is reused by task t + window).  Nonzero from fold
 * stops the run: no task past t is folded and that value is returned; tasks
 * already started finish first, and what they kept in their slots is left
 * there for the caller to free.  work may also read state that
 * fold writes only when the caller makes it safe (atomics): a task whose
 * result will be dropped may skip its work.
 *
 * threads <= 1 (or one task) runs everything on the calling thread, work
 * then fold for each task in turn, with no thread started.  When threads
 * cannot be started the run falls back to that.  Returns 0 when every task
 * was folded, else fold's nonzero value. */
typedef int (*PoolWorkFn)(void *user, size_t task, int worker);
typedef int (*PoolFoldFn)(void *user, size_t task, int rc);
int pool_run(int threads, size_t ntasks, size_t window, PoolWorkFn work, PoolFoldFn fold, void *user);

/* A window for pool_run with this many threads: enough tasks in flight to
 * keep every worker busy while the calling thread folds (4 per thread). */
size_t pool_window(int threads);

#endif
