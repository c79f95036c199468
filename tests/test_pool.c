/* test_pool.c: the worker pool (pool/pool.h) -- results folded in task
 * order whatever the thread count, the window bounding tasks in flight,
 * a fold that stops the run, and the thread count from text and from
 * WARPSIM_THREADS with bad values refused by name. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <stdatomic.h>

#include "pool.h"

enum { NTASK = 300, MAXW = 64 };

typedef struct {
    size_t window;
    uint64_t *slots;          /* window slots */
    size_t folded[NTASK];     /* fold order */
    uint64_t value[NTASK];    /* what each fold read */
    int nfolded;
    int stop_at;              /* fold returns 7 at this task (-1 never) */
    atomic_int in_flight, max_in_flight;
    atomic_int used[MAXW];    /* tasks run per worker */
    int threads;
} Ctx;

static uint64_t task_value(size_t t)
{
    uint64_t x = t * 0x9e3779b97f4a7c15ull;
    return x ^ (x >> 29);
}

static int work(void *user, size_t t, int worker)
{
    Ctx *c = user;
    assert_true(worker >= 0 && worker < c->threads && worker < MAXW);
    atomic_fetch_add(&c->used[worker], 1);
    int now = atomic_fetch_add(&c->in_flight, 1) + 1;
    int m = atomic_load(&c->max_in_flight);
    while (now > m && !atomic_compare_exchange_weak(&c->max_in_flight, &m, now))
        ;
    /* uneven work, so later tasks often finish before earlier ones */
    volatile uint64_t spin = 0;
    for (size_t i = 0; i < (t % 7) * 20000; i++)
        spin += i;
    c->slots[t % c->window] = task_value(t);
    atomic_fetch_sub(&c->in_flight, 1);
    return (int)(t % 5);
}

static int fold(void *user, size_t t, int rc)
{
    Ctx *c = user;
    assert_int_equal(rc, (int)(t % 5));
    c->folded[c->nfolded] = t;
    c->value[c->nfolded++] = c->slots[t % c->window];
    c->slots[t % c->window] = 0;
    return (int)t == c->stop_at ? 7 : 0;
}

static Ctx *ctx_new(int threads, size_t window, int stop_at)
{
    Ctx *c = calloc(1, sizeof *c);
    c->window = window;
    c->slots = calloc(window, sizeof *c->slots);
    c->stop_at = stop_at;
    c->threads = threads;
    return c;
}

static void ctx_free(Ctx *c)
{
    free(c->slots);
    free(c);
}

static void test_pool_folds_in_task_order_with_any_thread_count(void **s)
{
    (void)s;
    int counts[] = {1, 2, 4, 8};
    for (size_t k = 0; k < sizeof counts / sizeof *counts; k++) {
        int th = counts[k];
        Ctx *c = ctx_new(th, pool_window(th), -1);
        assert_int_equal(pool_run(th, NTASK, c->window, work, fold, c), 0);
        assert_int_equal(c->nfolded, NTASK);
        for (int t = 0; t < NTASK; t++) {
            assert_int_equal(c->folded[t], t);
            assert_true(c->value[t] == task_value((size_t)t));
        }
        assert_true(atomic_load(&c->max_in_flight) <= th);
        int total = 0;
        for (int w = 0; w < MAXW; w++)
            total += atomic_load(&c->used[w]);
        assert_int_equal(total, NTASK);
        ctx_free(c);
    }
}

static void test_pool_window_of_one_still_runs_every_task(void **s)
{
    (void)s;
    Ctx *c = ctx_new(4, 1, -1);
    assert_int_equal(pool_run(4, 40, 1, work, fold, c), 0);
    assert_int_equal(c->nfolded, 40);
    for (int t = 0; t < 40; t++)
        assert_true(c->value[t] == task_value((size_t)t));
    ctx_free(c);
}

static void test_pool_fold_nonzero_stops_the_run(void **s)
{
    (void)s;
    for (int th = 1; th <= 4; th += 3) {
        Ctx *c = ctx_new(th, pool_window(th), 17);
        assert_int_equal(pool_run(th, NTASK, c->window, work, fold, c), 7);
        assert_int_equal(c->nfolded, 18);
        assert_int_equal(c->folded[17], 17);
        ctx_free(c);
    }
}

static void test_pool_no_tasks_folds_nothing(void **s)
{
    (void)s;
    Ctx *c = ctx_new(4, 4, -1);
    assert_int_equal(pool_run(4, 0, 4, work, fold, c), 0);
    assert_int_equal(c->nfolded, 0);
    ctx_free(c);
}

static void test_pool_threads_parse_refuses_zero_negative_and_garbage(void **s)
{
    (void)s;
    int n = -5;
    char msg[200];
    assert_true(pool_threads_parse("4", &n, msg, sizeof msg));
    assert_int_equal(n, 4);
    assert_true(pool_threads_parse("1024", &n, msg, sizeof msg));
    assert_int_equal(n, 1024);
    const char *bad[] = {"0", "-1", "x", "4x", "", " 4", "1025", "99999999999999999999", "2.5"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        n = -5;
        msg[0] = 0;
        assert_false(pool_threads_parse(bad[i], &n, msg, sizeof msg));
        assert_int_equal(n, -5);
        assert_non_null(strstr(msg, "expected a thread count from 1 to 1024"));
        char quoted[64];
        snprintf(quoted, sizeof quoted, "'%s'", bad[i]);
        assert_non_null(strstr(msg, quoted));
    }
}

static void test_pool_threads_default_reads_the_environment(void **s)
{
    (void)s;
    int n = 0;
    char msg[200] = "";
    assert_true(pool_cores() >= 1);
    unsetenv("WARPSIM_THREADS");
    assert_true(pool_threads_default(&n, msg, sizeof msg));
    assert_int_equal(n, pool_cores());
    setenv("WARPSIM_THREADS", "3", 1);
    assert_true(pool_threads_default(&n, msg, sizeof msg));
    assert_int_equal(n, 3);
    setenv("WARPSIM_THREADS", "0", 1);
    assert_false(pool_threads_default(&n, msg, sizeof msg));
    assert_string_equal(msg, "WARPSIM_THREADS='0': expected a thread count from 1 to 1024");
    setenv("WARPSIM_THREADS", "many", 1);
    assert_false(pool_threads_default(&n, msg, sizeof msg));
    assert_non_null(strstr(msg, "'many'"));
    unsetenv("WARPSIM_THREADS");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pool_folds_in_task_order_with_any_thread_count),
        cmocka_unit_test(test_pool_window_of_one_still_runs_every_task),
        cmocka_unit_test(test_pool_fold_nonzero_stops_the_run),
        cmocka_unit_test(test_pool_no_tasks_folds_nothing),
        cmocka_unit_test(test_pool_threads_parse_refuses_zero_negative_and_garbage),
        cmocka_unit_test(test_pool_threads_default_reads_the_environment),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
