/* test_explore.c: `warpsim explore` -- the tally of outcomes (cli/explore.h)
 * against hand-made runs whose answer is known, then the command end to
 * end on lesson kernels: order-independent sums give one result, order-
 * dependent ones several, races lose updates, faults are outcomes, bad
 * usage is status 2, and the JSON has the documented shape.
 *
 * Two tests need the simulator's seeded schedules and atomic orders (the
 * concurrent executor): a float atomicAdd sum and the racy sum must give
 * several results.  Until the executor honours --schedule/--atomic-order
 * every seed runs the same way and they fail, saying so. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>

#include <cmocka.h>

#include "explore.h"
#include "json.h"

/* ---- the tally, with made-up runs ----------------------------------------- */

/* A result with one buffer of n i32 holding vals (NULL: unreadable). */
static LaunchResult one_buffer(const int32_t *vals, uint64_t n, const char *fault)
{
    LaunchResult r;
    memset(&r, 0, sizeof r);
    r.nbufs = 1;
    r.bufs[0].arg = 1;
    r.bufs[0].type = PTX_T_S32;
    r.bufs[0].count = n;
    r.bufs[0].data = (uint8_t *)vals;
    if (fault) {
        r.status = SIM_ERR_FAULT;
        snprintf(r.fault.kind, sizeof r.fault.kind, "%s", fault);
        snprintf(r.fault.msg, sizeof r.fault.msg, "made up");
    }
    return r;
}

static void test_tally_identical_runs_are_one_outcome(void **s)
{
    (void)s;
    Explore e;
    explore_init(&e, 1 << 20);
    int32_t v[3] = {1, 2, 3};
    for (int k = 0; k < 50; k++) {
        LaunchResult r = one_buffer(v, 3, NULL);
        assert_true(explore_add(&e, &r, (uint64_t)k, NULL, false));
    }
    assert_int_equal(e.runs, 50);
    assert_int_equal(e.bufs[0].nouts, 1);
    assert_int_equal(e.bufs[0].outs[0].count, 50);
    assert_int_equal(e.bufs[0].ndiffer, 0);
    assert_int_equal(e.faulted_runs, 0);
    explore_free(&e);
}

static void test_tally_counts_distinct_results_with_their_first_seed(void **s)
{
    (void)s;
    Explore e;
    explore_init(&e, 1 << 20);
    /* run k gives k % 7: seven results, 0 most often (k = 0, 7, ..., 98: 15 times) */
    for (int k = 0; k < 100; k++) {
        int32_t v[2] = {5, k % 7};
        LaunchResult r = one_buffer(v, 2, NULL);
        assert_true(explore_add(&e, &r, 1000 + (uint64_t)k, NULL, false));
    }
    const ExploreBuffer *b = &e.bufs[0];
    assert_int_equal(b->nouts, 7);
    const ExploreOutcome **v = explore_sorted(b);
    assert_non_null(v);
    assert_int_equal(v[0]->count, 15);
    assert_int_equal(v[0]->first_seed, 1000);
    assert_int_equal(((int32_t *)v[0]->data)[1], 0);
    uint64_t total = 0;
    for (int k = 0; k < b->nouts; k++) {
        total += v[k]->count;
        if (k)
            assert_true(v[k]->count <= v[k - 1]->count);
    }
    assert_int_equal(total, 100);
    free(v);
    /* element 0 never changed, element 1 did */
    assert_false(explore_elem_differs(b, 0));
    assert_true(explore_elem_differs(b, 1));
    assert_int_equal(b->ndiffer, 1);
    explore_free(&e);
}

static void test_tally_min_max_of_one_value_skips_nan(void **s)
{
    (void)s;
    Explore e;
    explore_init(&e, 1 << 20);
    const float vals[] = {2.5f, -1.0f, NAN, 7.0f, -1.0f};
    for (int k = 0; k < 5; k++) {
        LaunchResult r;
        memset(&r, 0, sizeof r);
        r.nbufs = 1;
        r.bufs[0] = (LaunchBuffer){.arg = 0, .type = PTX_T_F32, .count = 1, .data = (uint8_t *)&vals[k]};
        assert_true(explore_add(&e, &r, (uint64_t)k, NULL, false));
    }
    assert_int_equal(e.bufs[0].nouts, 4);
    const ExploreOutcome *lo, *hi;
    assert_true(explore_min_max(&e.bufs[0], &lo, &hi));
    float a, b;
    memcpy(&a, lo->data, 4);
    memcpy(&b, hi->data, 4);
    assert_true(a == -1.0f && lo->first_seed == 1 && lo->count == 2);
    assert_true(b == 7.0f && hi->first_seed == 3);
    explore_free(&e);
}

static void test_tally_a_fault_is_an_outcome_of_its_own(void **s)
{
    (void)s;
    Explore e;
    explore_init(&e, 1 << 20);
    int32_t v[1] = {42};
    LaunchResult a = one_buffer(v, 1, NULL), b = one_buffer(v, 1, "out-of-bounds"),
                 c = one_buffer(NULL, 1, "illegal-address"), d = one_buffer(v, 1, "out-of-bounds");
    assert_true(explore_add(&e, &a, 0, NULL, false));
    assert_true(explore_add(&e, &b, 1, NULL, false));
    assert_true(explore_add(&e, &c, 2, NULL, false));
    assert_true(explore_add(&e, &d, 3, NULL, false));
    assert_int_equal(e.bufs[0].nouts, 3); /* clean 42, 42 with a fault, unreadable */
    assert_int_equal(e.faulted_runs, 3);
    assert_int_equal(e.nfaults, 2);
    assert_string_equal(e.faults[0].kind, "out-of-bounds");
    assert_int_equal(e.faults[0].count, 2);
    assert_int_equal(e.faults[0].first_seed, 1);
    assert_true(e.bufs[0].outs[2].unreadable);
    assert_null(e.bufs[0].outs[2].data);
    explore_free(&e);
}

static void test_tally_printed_text_is_counted(void **s)
{
    (void)s;
    Explore e;
    explore_init(&e, 1 << 20);
    int32_t v[1] = {0};
    for (int k = 0; k < 6; k++) {
        LaunchResult r = one_buffer(v, 1, NULL);
        assert_true(explore_add(&e, &r, (uint64_t)k, k % 3 ? "a\n" : "b\n", false));
    }
    assert_int_equal(e.printed_runs, 6);
    assert_int_equal(e.text_distinct, 2);
    assert_string_equal(e.texts[0].text, "b\n");
    assert_int_equal(e.texts[0].count, 2);
    explore_free(&e);
}

/* 10,000 runs of a 64K-element buffer, every one different: all counted,
 * only as many kept as the budget allows, and fast. */
static void test_tally_10000_distinct_runs_of_a_big_buffer_stay_within_budget(void **s)
{
    (void)s;
    const uint64_t n = 65536;
    const size_t budget = 8u << 20;
    int32_t *v = calloc(n, sizeof *v);
    assert_non_null(v);
    Explore e;
    explore_init(&e, budget);
    clock_t t0 = clock();
    for (int k = 0; k < 10000; k++) {
        v[(uint64_t)k * 7919 % n] = k + 1;
        LaunchResult r = one_buffer(v, n, NULL);
        assert_true(explore_add(&e, &r, (uint64_t)k, NULL, false));
    }
    double secs = (double)(clock() - t0) / CLOCKS_PER_SEC;
    const ExploreBuffer *b = &e.bufs[0];
    assert_int_equal(b->nouts, 10000);
    assert_true(e.kept <= budget + n * 4);
    int kept = 0;
    for (int k = 0; k < b->nouts; k++)
        kept += b->outs[k].data != NULL;
    assert_int_equal(kept, (int)(e.kept / (n * 4)));
    assert_true(kept < 10000);
    assert_int_equal(b->ndiffer, 9999); /* every element written after the first run */
    printf("10000 runs of a 256 KB buffer tallied in %.2f s, %d results kept\n", secs, kept);
    assert_true(secs < 20.0);
    explore_free(&e);
    free(v);
}

/* ---- the command ---------------------------------------------------------- */

static const char *warpsim(void)
{
    const char *w = getenv("WARPSIM");
    return w ? w : "build/warpsim";
}

/* Run `warpsim ARGS`; capture stdout (and stderr when both); return status. */
static int run(char *out, size_t cap, bool both, const char *fmt, ...)
{
    char args[2048], cmd[2300];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(args, sizeof args, fmt, ap);
    va_end(ap);
    snprintf(cmd, sizeof cmd, "%s %s %s", warpsim(), args, both ? "2>&1" : "2>/dev/null");
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    size_t n = fread(out, 1, cap - 1, p);
    out[n] = 0;
    int st = pclose(p);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

#define L1 "lessons/01-threads-and-races/kernel.ptx"
#define L3 "lessons/03-atomics/kernel.ptx"
#define FSUM "--grid 40 --block 256 --arg buf:f32[10000]=rand:1 --arg buf:f32[1]=fill:0 --arg i32:10000"
#define ISUM "--grid 40 --block 256 --arg buf:i32[10000]=rand:1 --arg buf:i32[1]=fill:0 --arg i32:10000"
static char out[1 << 22];

static JsonValue *parse_out(void)
{
    char msg[256];
    JsonValue *v = json_parse(out, strlen(out), msg, sizeof msg);
    if (!v)
        fail_msg("explore --json printed no JSON (%s): %.300s", msg, out);
    return v;
}

/* The buffer object for argument arg. */
static const JsonValue *buffer_of(const JsonValue *root, int arg)
{
    const JsonValue *bufs = json_get(root, "buffers");
    assert_non_null(bufs);
    assert_int_equal(bufs->type, JSON_ARRAY);
    for (size_t i = 0; i < bufs->n; i++)
        if (json_get_number(&bufs->items[i], "arg", -1) == arg)
            return &bufs->items[i];
    fail_msg("no buffer for arg %d", arg);
    return NULL;
}

static void test_explore_integer_atomic_sum_has_one_outcome(void **s)
{
    (void)s;
    assert_int_equal(run(out, sizeof out, false, "explore " L3 " --kernel sum_atomic_i32 " ISUM " --runs 30 --json"), 0);
    JsonValue *v = parse_out();
    const JsonValue *b = buffer_of(v, 1);
    assert_int_equal((int)json_get_number(b, "distinct", -1), 1);
    const JsonValue *o = json_get(b, "outcomes");
    assert_int_equal((int)json_get_number(&o->items[0], "count", -1), 30);
    json_free(v);
}

static void test_explore_float_atomic_sum_has_several_outcomes(void **s)
{
    (void)s;
    /* needs the simulator's seeded atomic order (--atomic-order random) */
    assert_int_equal(run(out, sizeof out, false, "explore " L3 " --kernel sum_atomic_f32 " FSUM " --runs 30 --json"), 0);
    JsonValue *v = parse_out();
    const JsonValue *b = buffer_of(v, 1);
    int distinct = (int)json_get_number(b, "distinct", -1);
    double lo = json_get_number(b, "min", 0), hi = json_get_number(b, "max", 0);
    json_free(v);
    assert_true(lo > -209.13 && hi < -209.11); /* every order rounds near the exact -209.1186... */
    if (distinct < 2)
        fail_msg("a float atomicAdd sum gave %d distinct result in 30 seeds: the simulator does not vary the "
                 "atomic order yet (concurrent executor)", distinct);
}

static void test_explore_racy_sum_loses_updates_in_every_run(void **s)
{
    (void)s;
    assert_int_equal(run(out, sizeof out, false,
                         "explore " L1 " --kernel racy_sum --grid 40 --block 256 --arg buf:i32[10000]=fill:1 "
                         "--arg buf:i32[1]=fill:0 --arg i32:10000 --runs 20 --json"), 0);
    JsonValue *v = parse_out();
    const JsonValue *b = buffer_of(v, 1);
    double hi = json_get_number(b, "max", 1e9), lo = json_get_number(b, "min", -1);
    json_free(v);
    assert_true(lo >= 1 && hi < 10000);
}

static void test_explore_racy_sum_depends_on_the_schedule(void **s)
{
    (void)s;
    /* needs the simulator's seeded warp and block schedules (--schedule random) */
    assert_int_equal(run(out, sizeof out, false,
                         "explore " L1 " --kernel racy_sum --grid 40 --block 256 --arg buf:i32[10000]=fill:1 "
                         "--arg buf:i32[1]=fill:0 --arg i32:10000 --runs 20 --json"), 0);
    JsonValue *v = parse_out();
    int distinct = (int)json_get_number(buffer_of(v, 1), "distinct", -1);
    json_free(v);
    if (distinct < 2)
        fail_msg("the racy sum gave %d distinct result in 20 seeds: the simulator does not vary the schedule yet "
                 "(concurrent executor)", distinct);
}

static void test_explore_json_has_the_documented_shape(void **s)
{
    (void)s;
    assert_int_equal(run(out, sizeof out, false,
                         "explore " L3 " --kernel take_ticket --grid 1 --block 64 --arg buf:i32[1]=fill:0 "
                         "--arg buf:i32[64]=fill:0 --arg i32:64 --runs 4 --seed 7 --json"), 0);
    /* exactly one object on one line */
    assert_true(out[0] == '{');
    assert_ptr_equal(strchr(out, '\n'), out + strlen(out) - 1);
    JsonValue *v = parse_out();
    assert_int_equal((int)json_get_number(v, "runs", -1), 4);
    assert_string_equal(json_get_string(v, "schedule"), "random");
    assert_string_equal(json_get_string(v, "atomic_order"), "random");
    const JsonValue *bufs = json_get(v, "buffers");
    assert_int_equal(bufs->n, 2);
    const JsonValue *b = buffer_of(v, 0);
    assert_string_equal(json_get_string(b, "type"), "i32");
    assert_int_equal((int)json_get_number(b, "distinct", -1), 1);
    const JsonValue *o = json_get(b, "outcomes");
    assert_int_equal(o->type, JSON_ARRAY);
    assert_string_equal(json_get_string(&o->items[0], "hex"), "00000040"); /* the counter ends at n, always */
    assert_int_equal((int)json_get_number(&o->items[0], "count", -1), 4);
    assert_int_equal((int)json_get_number(&o->items[0], "seed", -1), 7); /* the first seed is the base */
    assert_int_equal(json_get(&o->items[0], "fault")->type, JSON_NULL);
    /* the tickets: 64 elements in hex, space-separated */
    const JsonValue *t = json_get(buffer_of(v, 1), "outcomes");
    assert_int_equal(strlen(json_get_string(&t->items[0], "hex")), 64 * 9 - 1);
    assert_int_equal((int)json_get_number(v, "faulted_runs", -1), 0);
    json_free(v);
    /* the documented order of the first keys */
    assert_non_null(strstr(out, "\"runs\": 4, \"buffers\": [{\"arg\": 0, \"type\": \"i32\", "));
}

static void test_explore_keeps_the_schedule_the_user_chose(void **s)
{
    (void)s;
    assert_int_equal(run(out, sizeof out, false,
                         "explore " L3 " --kernel sum_atomic_i32 " ISUM " --runs 2 --schedule roundrobin "
                         "--atomic-order lane --json"), 0);
    JsonValue *v = parse_out();
    assert_string_equal(json_get_string(v, "schedule"), "roundrobin");
    assert_string_equal(json_get_string(v, "atomic_order"), "lane");
    json_free(v);
}

static void test_explore_text_lists_results_and_min_max(void **s)
{
    (void)s;
    assert_int_equal(run(out, sizeof out, true, "explore " L3 " --kernel sum_atomic_i32 " ISUM " --runs 3"), 0);
    assert_non_null(strstr(out, "sum_atomic_i32<<<(40,1,1), (256,1,1), 0>>> on sm_90 (simulator): 3 runs, seeds 0..2"));
    assert_non_null(strstr(out, "arg 1  i32[1]: the same in every run: 1893337278"));
    /* no progress line when stderr is not a terminal */
    assert_null(strstr(out, "\rexplore"));
}

static void test_explore_fault_is_an_outcome_and_exits_1(void **s)
{
    (void)s;
    /* n = 2000 with 1000 inputs: thread 1000 reads past the end in every run */
    int rc = run(out, sizeof out, true,
                 "explore " L1 " --kernel atomic_sum --grid 8 --block 256 --arg buf:i32[1000]=fill:1 "
                 "--arg buf:i32[1]=fill:0 --arg i32:2000 --runs 3");
    assert_int_equal(rc, 1);
    assert_non_null(strstr(out, "faults: 3 of 3 runs faulted"));
    assert_non_null(strstr(out, "out-of-bounds, first at seed 0"));
    assert_non_null(strstr(out, "(fault: out-of-bounds)"));
    rc = run(out, sizeof out, false,
             "explore " L1 " --kernel atomic_sum --grid 8 --block 256 --arg buf:i32[1000]=fill:1 "
             "--arg buf:i32[1]=fill:0 --arg i32:2000 --runs 3 --json");
    assert_int_equal(rc, 1);
    JsonValue *v = parse_out();
    assert_int_equal((int)json_get_number(v, "faulted_runs", -1), 3);
    const JsonValue *o = json_get(buffer_of(v, 1), "outcomes");
    assert_string_equal(json_get_string(&o->items[0], "fault"), "out-of-bounds");
    json_free(v);
}

static void test_explore_bad_usage_is_status_2(void **s)
{
    (void)s;
    static const struct {
        const char *args, *says;
    } bad[] = {
        {"explore " L3 " --kernel sum_atomic_i32 " ISUM " --runs 0", "--runs '0'"},
        {"explore " L3 " --kernel sum_atomic_i32 " ISUM " --runs many", "--runs 'many'"},
        {"explore " L3 " --kernel sum_atomic_i32 " ISUM " --show 0", "--show '0'"},
        {"explore " L3 " --kernel sum_atomic_i32 " ISUM " --keep lots", "--keep 'lots'"},
        {"explore " L3 " --kernel sum_atomic_i32 " ISUM " --trace t.wst", "keeps no traces"},
        {"explore " L3 " --kernel sum_atomic_i32 " ISUM " --frobnicate 1", "unknown option '--frobnicate'"},
        {"explore " L3 " --kernel sum_atomic_i32 " ISUM " --schedule sideways", "--schedule 'sideways'"},
        {"explore " L3 " --kernel sum_atomic_i32 " ISUM " --backend tpu", "--backend 'tpu'"},
        {"explore " L3 " " ISUM, "missing --kernel"},
        {"explore " L3 " --kernel sum_atomic_i32 --grid 40 --arg i32:1", "missing --grid or --block"},
        {"explore --kernel sum_atomic_i32 " ISUM, "missing FILE"},
        {"explore no/such.ptx --kernel k --grid 1 --block 1", "cannot open"},
        {"explore " L3 " --kernel nope " ISUM, "no kernel named 'nope'"},
        {"explore " L3 " --kernel sum_atomic_i32 --grid 1 --block 1 --arg i32:1", "takes 3 parameters"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        int rc = run(out, sizeof out, true, "%s", bad[i].args);
        if (rc != 2 || !strstr(out, bad[i].says))
            fail_msg("`warpsim %s`: status %d, expected 2 and \"%s\" in:\n%s", bad[i].args, rc, bad[i].says, out);
    }
}

static void test_explore_help_teaches_with_an_example(void **s)
{
    (void)s;
    assert_int_equal(run(out, sizeof out, true, "explore --help"), 0);
    assert_non_null(strstr(out, "usage: warpsim explore FILE"));
    assert_non_null(strstr(out, "--runs K"));
    assert_non_null(strstr(out, "example:"));
    assert_int_equal(run(out, sizeof out, true, "--help"), 0);
    assert_non_null(strstr(out, "explore"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tally_identical_runs_are_one_outcome),
        cmocka_unit_test(test_tally_counts_distinct_results_with_their_first_seed),
        cmocka_unit_test(test_tally_min_max_of_one_value_skips_nan),
        cmocka_unit_test(test_tally_a_fault_is_an_outcome_of_its_own),
        cmocka_unit_test(test_tally_printed_text_is_counted),
        cmocka_unit_test(test_tally_10000_distinct_runs_of_a_big_buffer_stay_within_budget),
        cmocka_unit_test(test_explore_integer_atomic_sum_has_one_outcome),
        cmocka_unit_test(test_explore_float_atomic_sum_has_several_outcomes),
        cmocka_unit_test(test_explore_racy_sum_loses_updates_in_every_run),
        cmocka_unit_test(test_explore_racy_sum_depends_on_the_schedule),
        cmocka_unit_test(test_explore_json_has_the_documented_shape),
        cmocka_unit_test(test_explore_keeps_the_schedule_the_user_chose),
        cmocka_unit_test(test_explore_text_lists_results_and_min_max),
        cmocka_unit_test(test_explore_fault_is_an_outcome_and_exits_1),
        cmocka_unit_test(test_explore_bad_usage_is_status_2),
        cmocka_unit_test(test_explore_help_teaches_with_an_example),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
