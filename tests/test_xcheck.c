/* test_xcheck.c: `warpsim xcheck` -- launch lines and their tokenizer, the
 * recording reader, and the whole record/compare loop with a second
 * simulator standing in for the GPU: a recording written by --record must
 * agree with --recorded, and every kind of tampering (a hash, a small
 * buffer's value, an order-dependent run, the API occupancy) must make it
 * fail.  Recordings of real hardware in traces/hw/ are checked every run. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include <cmocka.h>

#include "gpu.h"
#include "json.h"
#include "launch.h"
#include "source.h"
#include "xcheck.h"

#define DIR "build/test-xcheck"
#define REC DIR "/hw/warpsim-simulator-sm-90/xcheck.json"

static char out[1 << 20];

static int run(const char *fmt, ...)
{
    char args[2048], cmd[2300];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(args, sizeof args, fmt, ap);
    va_end(ap);
    const char *w = getenv("WARPSIM");
    snprintf(cmd, sizeof cmd, "%s %s 2>&1", w ? w : "build/warpsim", args);
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    size_t n = fread(out, 1, sizeof out - 1, p);
    out[n] = 0;
    int st = pclose(p);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static void test_tokenize_splits_quotes_escapes_and_comments(void **s)
{
    (void)s;
    char **t, msg[128];
    int n = launch_tokenize("  --kernel 'a b' \"c\\\"d\" e\\ f  # comment", &t, msg, sizeof msg);
    assert_int_equal(n, 4);
    assert_string_equal(t[0], "--kernel");
    assert_string_equal(t[1], "a b");
    assert_string_equal(t[2], "c\"d");
    assert_string_equal(t[3], "e f");
    assert_null(t[4]);
    launch_tokens_free(t);
    assert_int_equal(launch_tokenize("   # only a comment", &t, msg, sizeof msg), 0);
    launch_tokens_free(t);
    assert_int_equal(launch_tokenize("--kernel 'open", &t, msg, sizeof msg), -1);
    assert_string_equal(msg, "column 10: unterminated single quote");
}

static void test_parse_line_reads_order_dependent_criteria(void **s)
{
    (void)s;
    XcheckLaunch l;
    char msg[256];
    assert_int_equal(xcheck_parse_line("order-dependent 1 below:100 0 range:-1,2.5 --kernel k --grid 2 --block 32 "
                                       "--arg buf:i32[4]=iota --arg buf:f32[1]=fill:0",
                                       &l, msg, sizeof msg), 1);
    assert_true(l.order_dependent);
    assert_int_equal(l.nod, 2);
    assert_int_equal(xcheck_crit_for(&l, 1)->kind, XCHECK_BELOW);
    assert_true(xcheck_crit_for(&l, 0)->lo == -1 && xcheck_crit_for(&l, 0)->hi == 2.5);
    assert_string_equal(l.spec.kernel, "k");
    assert_int_equal(l.spec.grid.x, 2);
    int32_t v[2] = {99, 100};
    const XcheckCrit *c = xcheck_crit_for(&l, 1);
    assert_true(xcheck_crit_holds(c, PTX_T_S32, (uint8_t *)v, 1));
    assert_false(xcheck_crit_holds(c, PTX_T_S32, (uint8_t *)v, 2));
    xcheck_launch_free(&l);
    assert_int_equal(xcheck_parse_line("exact --kernel k --grid 1 --block 1", &l, msg, sizeof msg), 1);
    assert_false(l.order_dependent);
    xcheck_launch_free(&l);
}

static void test_parse_line_rejects_bad_lines_saying_why(void **s)
{
    (void)s;
    XcheckLaunch l;
    char msg[256];
    assert_int_equal(xcheck_parse_line("order-dependent 0 less:3 --kernel k --grid 1 --block 1 --arg buf:i32[1]=iota",
                                       &l, msg, sizeof msg), -1);
    assert_non_null(strstr(msg, "'less:3': expected below:V"));
    assert_int_equal(xcheck_parse_line("order-dependent 1 --kernel k --grid 1 --block 1 --arg buf:i32[1]=iota", &l,
                                       msg, sizeof msg), -1);
    assert_non_null(strstr(msg, "argument 1 is not a buffer"));
    assert_int_equal(xcheck_parse_line("--kernel k --grid 1", &l, msg, sizeof msg), -1);
    assert_string_equal(msg, "missing --block");
    assert_int_equal(xcheck_parse_line("bogus --kernel k", &l, msg, sizeof msg), -1);
    assert_non_null(strstr(msg, "starts with exact, order-dependent"));
    assert_int_equal(xcheck_parse_line("--kernel k --grid 1 --block 1 --arg buf:q9[1]=iota", &l, msg, sizeof msg), -1);
    assert_non_null(strstr(msg, "unknown element type 'q9'"));
    assert_int_equal(xcheck_parse_line("   ", &l, msg, sizeof msg), 0);
}

static void test_every_lesson_xcheck_file_parses(void **s)
{
    (void)s;
    static const char *const files[] = {"lessons/01-threads-and-races/xcheck.txt", "lessons/04-occupancy/xcheck.txt"};
    for (int f = 0; f < 2; f++) {
        XcheckLaunch *ls;
        int n;
        char msg[512];
        if (!xcheck_read_file(files[f], &ls, &n, msg, sizeof msg))
            fail_msg("%s", msg);
        assert_true(n >= 5);
        for (int i = 0; i < n; i++)
            xcheck_launch_free(&ls[i]);
        free(ls);
    }
}

static void test_hex_round_trips_and_hash_is_xxh64(void **s)
{
    (void)s;
    float f[3] = {1.5f, -0.0f, 3.0f};
    char *h = xcheck_hex(PTX_T_F32, (uint8_t *)f, 3);
    assert_string_equal(h, "3fc00000 80000000 40400000");
    uint8_t *back = xcheck_unhex(PTX_T_F32, h, 3);
    assert_memory_equal(back, f, sizeof f);
    assert_null(xcheck_unhex(PTX_T_F32, h, 2));
    assert_null(xcheck_unhex(PTX_T_F32, "3fc0000", 1));
    free(back);
    free(h);
    /* the XXH64 reference value of the empty input, seed 0 */
    assert_true(xcheck_hash("", 0) == 0xef46db3751d8e999ull);
}

static void test_json_reader_rejects_bad_input_with_position(void **s)
{
    (void)s;
    char msg[128];
    JsonValue *v = json_parse("{\"a\": [1, 2,]}", 14, msg, sizeof msg);
    assert_null(v);
    assert_string_equal(msg, "line 1, column 13: expected a value");
    const char *good = "{\"a\": \"x\\u00e9\", \"b\": [true, null, -2.5e1]}";
    v = json_parse(good, strlen(good), msg, sizeof msg);
    assert_non_null(v);
    assert_string_equal(json_get_string(v, "a"), "x\xc3\xa9");
    assert_true(json_get(v, "b")->items[2].number == -25);
    json_free(v);
    char deep[200];
    memset(deep, '[', sizeof deep);
    assert_null(json_parse(deep, sizeof deep, msg, sizeof msg));
    assert_non_null(strstr(msg, "nested too deeply"));
}

/* Record lesson 1 and 4 with the simulator standing in for the GPU. */
static int setup_recording(void **s)
{
    (void)s;
    if (system("rm -rf " DIR) != 0)
        return -1;
    return run("xcheck --all --backend sim --runs 2 --record " DIR "/hw") == 0 ? 0 : -1;
}

/* Copy the recording to DIR/t/xcheck.json with the first `from` replaced. */
static void tamper(const char *from, const char *to)
{
    char msg[256];
    size_t len;
    char *text = source_read_file(REC, &len, msg, sizeof msg);
    assert_non_null(text);
    char *at = strstr(text, from);
    assert_non_null(at);
    assert_int_equal(system("mkdir -p " DIR "/t"), 0);
    FILE *f = fopen(DIR "/t/xcheck.json", "w");
    assert_non_null(f);
    fwrite(text, 1, (size_t)(at - text), f);
    fputs(to, f);
    fputs(at + strlen(from), f);
    fclose(f);
    free(text);
}

static void test_record_writes_what_the_documentation_says(void **s)
{
    (void)s;
    XcheckRecording r;
    char msg[512];
    if (!xcheck_recording_read(REC, &r, msg, sizeof msg))
        fail_msg("%s", msg);
    assert_string_equal(r.info.arch, "sm_90");
    assert_string_equal(r.info.backend, "simulator");
    assert_int_equal(r.info.runs, 2);
    assert_int_equal(r.n, 14); /* lessons 1 to 14 */
    assert_string_equal(r.lessons[0].slug, "01-threads-and-races");
    const XcheckRef *racy = &r.lessons[0].refs[2];
    assert_non_null(strstr(racy->line, "racy_sum"));
    assert_int_equal(racy->bufs[1].nruns, 2);
    const XcheckRef *atomic = &r.lessons[0].refs[4];
    assert_non_null(atomic->bufs[1].data);       /* 1 element: kept in full */
    assert_null(atomic->bufs[0].data);           /* 10000 elements: the hash only */
    assert_int_equal(*(int32_t *)atomic->bufs[1].data, 10000);
    assert_true(atomic->api_blocks > 0);
    xcheck_recording_free(&r);
}

static void test_recorded_agrees_with_the_simulator(void **s)
{
    (void)s;
    assert_int_equal(run("xcheck --recorded " DIR "/hw"), 0);
    /* every launch of every lesson's xcheck.txt, and its time claims */
    assert_non_null(strstr(out, "144 launches checked against 1 recording, 0 mismatches"));
    assert_non_null(strstr(out, "7 time claims judged, 0 failing"));
    assert_non_null(strstr(out, "below:10000 holds (sim yes, 2/2 runs)"));
    assert_int_equal(run("xcheck --recorded " REC " 1 --json"), 0);
    assert_true(out[0] == '{');
    assert_ptr_equal(strchr(out, '\n'), out + strlen(out) - 1);
    assert_non_null(strstr(out, "\"ok\": true"));
    assert_null(strstr(out, "04-occupancy"));
}

static void test_recorded_fails_when_a_hash_disagrees(void **s)
{
    (void)s;
    tamper("\"xxh64\": \"199a7ec6906b29ca\"", "\"xxh64\": \"199a7ec6906b29cb\"");
    assert_int_equal(run("xcheck --recorded " DIR "/t"), 1);
    assert_non_null(strstr(out, "xxh64 199a7ec6906b29ca   xxh64 199a7ec6906b29cb   DIFFERS"));
    assert_non_null(strstr(out, "1 mismatch\n"));
}

static void test_recorded_fails_when_a_small_value_disagrees_naming_the_index(void **s)
{
    (void)s;
    /* tile_sum's 40 per-block sums are kept in full: change element 0 */
    char msg[256];
    size_t len;
    char *text = source_read_file(REC, &len, msg, sizeof msg);
    assert_non_null(text);
    char *hex = strstr(strstr(text, "tile_sum"), "\"hex\": \"");
    assert_non_null(hex);
    char from[32], to[32];
    snprintf(from, sizeof from, "%.9s", hex);
    snprintf(to, sizeof to, "%.8s%c", hex, hex[8] == '0' ? '1' : '0');
    free(text);
    tamper(from, to);
    assert_int_equal(run("xcheck --recorded " DIR "/t --json"), 1);
    assert_non_null(strstr(out, "\"verdict\": \"differs\", \"index\": 0"));
    assert_non_null(strstr(out, "\"ok\": false"));
}

static void test_recorded_fails_when_an_order_dependent_run_breaks_the_property(void **s)
{
    (void)s;
    /* racy_sum (n = 10000) on "hardware" gave 10001: not short */
    char msg[256];
    size_t len;
    char *text = source_read_file(REC, &len, msg, sizeof msg);
    assert_non_null(text);
    char *runs = strstr(text, "\"runs\": [\"");
    assert_non_null(runs);
    char from[32];
    snprintf(from, sizeof from, "%.18s", runs);
    free(text);
    tamper(from, "\"runs\": [\"00002711");
    assert_int_equal(run("xcheck --recorded " DIR "/t"), 1);
    assert_non_null(strstr(out, "10001"));
    assert_non_null(strstr(out, "below:10000 FAILS (sim yes, 1/2 runs)"));
}

static void test_recorded_fails_when_api_occupancy_disagrees(void **s)
{
    (void)s;
    tamper("\"api_blocks_per_sm\": 8", "\"api_blocks_per_sm\": 7");
    assert_int_equal(run("xcheck --recorded " DIR "/t"), 1);
    assert_non_null(strstr(out, "7 blocks/SM (API)        DIFFERS"));
}

static void test_recorded_notes_a_changed_kernel(void **s)
{
    (void)s;
    tamper("\"ptx_xxh64\": \"", "\"ptx_xxh64\": \"f");
    /* 17 hex digits now: a broken recording is status 2 with the place named */
    assert_int_equal(run("xcheck --recorded " DIR "/t"), 2);
    assert_non_null(strstr(out, "lessons[0]: a lesson needs lesson, ptx_xxh64 and launches"));
}

static void test_recorded_corrupt_or_missing_is_status_2(void **s)
{
    (void)s;
    tamper("\"lessons\": [", "\"lessons\": [[");
    assert_int_equal(run("xcheck --recorded " DIR "/t/xcheck.json"), 2);
    assert_non_null(strstr(out, "xcheck.json: line"));
    assert_int_equal(run("xcheck --recorded " DIR "/nothing.json"), 2);
    assert_non_null(strstr(out, "cannot open"));
}

static void test_live_without_gpu_is_status_2_suggesting_recorded(void **s)
{
    (void)s;
    if (gpu_available()) {
        printf("skip: a GPU is present; the no-GPU message was not exercised\n");
        skip();
    }
    assert_int_equal(run("xcheck 1"), 2);
    assert_non_null(strstr(out, "try `warpsim xcheck --recorded`"));
}

static void test_xcheck_usage_errors_are_status_2(void **s)
{
    (void)s;
    assert_int_equal(run("xcheck"), 2);
    assert_non_null(strstr(out, "name lessons or --all"));
    assert_int_equal(run("xcheck 99"), 2);
    assert_non_null(strstr(out, "no lesson '99'"));
    assert_int_equal(run("xcheck --all --runs 0"), 2);
    assert_int_equal(run("xcheck --recorded --backend sim"), 2);
}

/* The recordings of real GPUs in traces/hw/: CI's check against hardware. */
static void test_simulator_agrees_with_recorded_hardware(void **s)
{
    (void)s;
    if (system("ls traces/hw/*/xcheck.json >/dev/null 2>&1") != 0) {
        printf("skip: no traces/hw/*/xcheck.json recorded yet (run `warpsim xcheck --all --record traces/hw` "
               "on a GPU machine)\n");
        skip();
    }
    int rc = run("xcheck --recorded");
    if (rc != 0)
        fail_msg("the simulator disagrees with recorded hardware:\n%s", out);
}

/* ---- the library without the command ---------------------------------------- */

static void write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static void test_recordings_find_sorts_and_skips_hidden_folders(void **s)
{
    (void)s;
    char files[4][XCHECK_PATH_MAX];
    assert_int_equal(system("rm -rf " DIR "/find && mkdir -p " DIR "/find/b " DIR "/find/a " DIR "/find/.h "
                            DIR "/find/c " DIR "/one"), 0);
    write_text(DIR "/find/b/xcheck.json", "{}");
    write_text(DIR "/find/a/xcheck.json", "{}");
    write_text(DIR "/find/.h/xcheck.json", "{}");
    write_text(DIR "/one/xcheck.json", "{}");
    assert_int_equal(xcheck_recordings_find(DIR "/find", files, 4), 2); /* c/ has none, .h/ is hidden */
    assert_string_equal(files[0], DIR "/find/a/xcheck.json");
    assert_string_equal(files[1], DIR "/find/b/xcheck.json");
    assert_int_equal(xcheck_recordings_find(DIR "/find", files, 1), 1);
    assert_int_equal(xcheck_recordings_find(DIR "/one", files, 4), 1);
    assert_string_equal(files[0], DIR "/one/xcheck.json");
    assert_int_equal(xcheck_recordings_find("some/where.json", files, 4), 1); /* named: taken as it is */
    assert_string_equal(files[0], "some/where.json");
    assert_int_equal(xcheck_recordings_find(DIR "/find/c", files, 4), 0);
    assert_int_equal(xcheck_recordings_find(DIR "/nonexistent", files, 4), 0);
}

/* Lesson 1 checked live with a second simulator as the reference, through
 * the library: report, recording, and the recording checked again. */
static void test_library_checks_saves_and_rechecks_a_lesson(void **s)
{
    (void)s;
    const char *slug = "01-threads-and-races";
    XcheckLaunch *ls;
    int n;
    char msg[1024];
    if (!xcheck_read_file("lessons/01-threads-and-races/xcheck.txt", &ls, &n, msg, sizeof msg))
        fail_msg("%s", msg);
    size_t len;
    char *ptx = source_read_file("lessons/01-threads-and-races/kernel.ptx", &len, msg, sizeof msg);
    assert_non_null(ptx);
    SimError err;
    sim_error_clear(&err);
    Device *sim = device_open_sim("sm_90", &err), *ref = device_open_sim("sm_90", &err);
    assert_non_null(sim);
    assert_non_null(ref);
    DeviceModule *sm, *rm;
    assert_int_equal(device_load_ptx(sim, "kernel.ptx", ptx, len, &sm, &err), SIM_OK);
    assert_int_equal(device_load_ptx(ref, "kernel.ptx", ptx, len, &rm, &err), SIM_OK);
    XcheckRecording rec;
    memset(&rec, 0, sizeof rec);
    xcheck_device_info(ref, "sm_90", 2, &rec.info);
    assert_string_equal(rec.info.device, "warpsim simulator sm_90");
    assert_string_equal(rec.info.backend, "simulator");
    assert_int_equal(rec.info.runs, 2);
    assert_int_equal((int)strlen(rec.info.date), 10);
    char desc[256];
    xcheck_reference_text(&rec.info, NULL, desc, sizeof desc);
    assert_string_equal(desc, "a second simulator standing in for a GPU (sm_90)");
    rec.lessons = calloc(1, sizeof *rec.lessons);
    assert_non_null(rec.lessons);
    rec.n = 1;
    rec.lessons[0].ptx_hash = xcheck_hash(ptx, len);
    char *text = NULL;
    size_t tlen;
    XcheckReport rep;
    FILE *f = open_memstream(&text, &tlen);
    assert_non_null(f);
    xcheck_report_init(&rep, f, true);
    xcheck_report_live_begin(&rep, &rec.info);
    XcheckSim xs = {.dev = sim, .mod = sm, .path = "kernel.ptx", .ptx = ptx, .ptx_len = len, .threads = 1};
    assert_true(xcheck_check_lesson_live(&rep, slug, desc, &xs, ref, rm, ls, n, 2, &rec.lessons[0]));
    xcheck_report_live_end(&rep);
    fclose(f);
    assert_int_equal(rep.launches, n);
    assert_int_equal(rep.mismatches, 0);
    assert_int_equal(rec.lessons[0].n, n);
    assert_string_equal(rec.lessons[0].slug, slug);
    JsonValue *v = json_parse(text, tlen, msg, sizeof msg);
    if (!v)
        fail_msg("not JSON: %s", msg);
    assert_int_equal((int)json_get_number(v, "launches", -1), n);
    assert_true(json_get(v, "ok")->type == JSON_BOOL && json_get(v, "ok")->boolean);
    json_free(v);
    free(text);
    /* saved under the device's slug, creating the folders, and read back */
    char path[XCHECK_PATH_MAX];
    assert_int_equal(system("rm -rf " DIR "/save"), 0);
    if (!xcheck_recording_save(DIR "/save/deep", &rec, path, sizeof path, msg, sizeof msg))
        fail_msg("%s", msg);
    assert_string_equal(path, DIR "/save/deep/warpsim-simulator-sm-90/xcheck.json");
    XcheckRecording back;
    if (!xcheck_recording_read(path, &back, msg, sizeof msg))
        fail_msg("%s", msg);
    assert_int_equal(back.lessons[0].n, n);
    /* the recording, checked against the simulator, agrees; a tampered launch line is refused */
    f = open_memstream(&text, &tlen);
    xcheck_report_init(&rep, f, false);
    assert_true(xcheck_check_lesson_recorded(&rep, "sm_90", "test", "", &xs, &back.lessons[0], NULL, 0, msg, sizeof msg));
    assert_int_equal(rep.launches, n);
    assert_int_equal(rep.mismatches, 0);
    /* the same report, byte for byte, with three threads side by side */
    char *by[2] = {NULL, NULL};
    size_t bylen[2];
    for (int k = 0; k < 2; k++) {
        FILE *g = open_memstream(&by[k], &bylen[k]);
        XcheckReport rk;
        xcheck_report_init(&rk, g, false);
        XcheckSim xk = xs;
        xk.threads = 3;
        assert_true(xcheck_check_lesson_recorded(&rk, "sm_90", "test", "", k ? &xk : &xs, &back.lessons[0], NULL, 0, msg,
                                                 sizeof msg));
        fclose(g);
        assert_int_equal(rk.launches, n);
    }
    assert_true(bylen[0] > 0);
    assert_string_equal(by[0], by[1]);
    free(by[0]);
    free(by[1]);
    free(back.lessons[0].refs[1].line);
    back.lessons[0].refs[1].line = strdup("--kernel k --grid 1");
    xs.threads = 2; /* the launch before the bad line still runs and is reported */
    assert_false(xcheck_check_lesson_recorded(&rep, "sm_90", "test", "", &xs, &back.lessons[0], NULL, 0, msg, sizeof msg));
    assert_non_null(strstr(msg, "lesson 01-threads-and-races, launch 1: "));
    assert_int_equal(rep.launches, n + 1); /* launch 0 was reported before the bad line */
    fclose(f);
    assert_non_null(strstr(text, "01-threads-and-races: simulator sm_90 vs test"));
    free(text);
    /* one reference buffer changed: the launch as a whole disagrees */
    const XcheckLaunch *l = &ls[n - 1];
    XcheckRef *r = &rec.lessons[0].refs[n - 1];
    LaunchResult res;
    SimStatus st = launch_run(sim, sm, &l->spec, &res, msg, sizeof msg);
    XcheckLaunchCmp c;
    assert_true(xcheck_compare_launch("sm_90", l, st, &res, r, &c));
    r->bufs[0].hash ^= 1;
    if (r->bufs[0].data)
        r->bufs[0].data[0] ^= 1;
    assert_false(xcheck_compare_launch("sm_90", l, st, &res, r, &c));
    assert_false(c.ok);
    assert_int_equal(c.bufs[0].verdict, XCHECK_DIFFERS);
    r->api_blocks += 1;
    assert_false(xcheck_compare_launch("sm_90", l, st, &res, r, &c));
    assert_true(c.occ_known);
    assert_false(c.occ_ok);
    launch_result_free(&res);
    xcheck_recording_free(&back);
    xcheck_recording_free(&rec);
    for (int i = 0; i < n; i++)
        xcheck_launch_free(&ls[i]);
    free(ls);
    free(ptx);
    device_close(sim);
    device_close(ref);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tokenize_splits_quotes_escapes_and_comments),
        cmocka_unit_test(test_parse_line_reads_order_dependent_criteria),
        cmocka_unit_test(test_parse_line_rejects_bad_lines_saying_why),
        cmocka_unit_test(test_every_lesson_xcheck_file_parses),
        cmocka_unit_test(test_hex_round_trips_and_hash_is_xxh64),
        cmocka_unit_test(test_json_reader_rejects_bad_input_with_position),
        cmocka_unit_test_setup(test_record_writes_what_the_documentation_says, setup_recording),
        cmocka_unit_test(test_recorded_agrees_with_the_simulator),
        cmocka_unit_test(test_recorded_fails_when_a_hash_disagrees),
        cmocka_unit_test(test_recorded_fails_when_a_small_value_disagrees_naming_the_index),
        cmocka_unit_test(test_recorded_fails_when_an_order_dependent_run_breaks_the_property),
        cmocka_unit_test(test_recorded_fails_when_api_occupancy_disagrees),
        cmocka_unit_test(test_recorded_notes_a_changed_kernel),
        cmocka_unit_test(test_recorded_corrupt_or_missing_is_status_2),
        cmocka_unit_test(test_live_without_gpu_is_status_2_suggesting_recorded),
        cmocka_unit_test(test_xcheck_usage_errors_are_status_2),
        cmocka_unit_test(test_recordings_find_sorts_and_skips_hidden_folders),
        cmocka_unit_test(test_library_checks_saves_and_rechecks_a_lesson),
        cmocka_unit_test(test_simulator_agrees_with_recorded_hardware),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
