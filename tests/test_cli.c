/* test_cli.c: the warpsim command as users and scripts call it -- the exact
 * `warpsim run` contract (arguments, JSON, exit statuses, error messages),
 * `warpsim lesson`, and the --arg generator.  Runs build/warpsim ($WARPSIM). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include <cmocka.h>

#include "source.h"

#include "json.h"

#include "argspec.h"

static const char *warpsim(void)
{
    const char *w = getenv("WARPSIM");
    return w ? w : "build/warpsim";
}

/* Run `warpsim ARGS` through the shell; capture stdout+stderr; return status. */
static int run(char *out, size_t cap, const char *fmt, ...)
{
    char args[2048], cmd[2300];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(args, sizeof args, fmt, ap);
    va_end(ap);
    snprintf(cmd, sizeof cmd, "%s %s 2>&1", warpsim(), args);
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    size_t n = fread(out, 1, cap - 1, p);
    out[n] = 0;
    int st = pclose(p);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

#define L1 "lessons/01-threads-and-races/kernel.ptx"
#define SUMARGS "--arg buf:i32[1000]=fill:1 --arg buf:i32[1]=fill:0 --arg i32:1000"
static char out[1 << 20];

static void test_run_atomic_sum_is_exact(void **s)
{
    (void)s;
    assert_int_equal(run(out, sizeof out, "run " L1 " --kernel atomic_sum --grid 4 --block 256 " SUMARGS), 0);
    assert_non_null(strstr(out, "arg 1  i32[1]: 1000"));
}

static void test_run_json_has_the_documented_fields(void **s)
{
    (void)s;
    assert_int_equal(run(out, sizeof out, "run " L1 " --kernel staged_sum --grid 4 --block 256 --json "
                                          "--arg buf:i32[3]=list:1,2,3 --arg buf:i32[1]=fill:0 --arg i32:3"), 0);
    assert_true(out[0] == '{');
    assert_non_null(strstr(out, "\"kernel\": \"staged_sum\""));
    assert_non_null(strstr(out, "\"grid\": [4, 1, 1]"));
    assert_non_null(strstr(out, "\"block\": [256, 1, 1]"));
    assert_non_null(strstr(out, "\"smem\": 0"));
    assert_non_null(strstr(out, "\"arch\": \"sm_90\""));
    assert_non_null(strstr(out, "{\"arg\": 0, \"type\": \"i32\", \"values\": [1, 2, 3], \"hex\": \"00000001 00000002 00000003\"}"));
    assert_non_null(strstr(out, "{\"arg\": 1, \"type\": \"i32\", \"values\": [6], \"hex\": \"00000006\"}"));
    assert_non_null(strstr(out, "\"stats\": {"));
    assert_non_null(strstr(out, "\"fault\": null"));
    /* exactly one object: the only newline is the last character */
    assert_ptr_equal(strchr(out, '\n'), out + strlen(out) - 1);
}

static void test_run_json_writes_nan_and_inf_as_strings(void **s)
{
    (void)s;
    /* atomic_sum over f32 bit patterns is not needed: pass the buffer through untouched */
    assert_int_equal(run(out, sizeof out, "run " L1 " --kernel atomic_sum --grid 1 --block 32 --json "
                                          "--arg buf:f32[3]=list:nan,inf,-inf --arg buf:i32[1]=fill:0 --arg i32:0"), 0);
    assert_non_null(strstr(out, "\"values\": [\"nan\", \"inf\", \"-inf\"]"));
    assert_non_null(strstr(out, "\"hex\": \"7fc00000 7f800000 ff800000\""));
}

static void test_run_fault_exits_1_with_block_thread_and_line(void **s)
{
    (void)s;
    /* n = 2000 but the input holds 1000: thread 1000 reads past the end */
    int rc = run(out, sizeof out, "run " L1 " --kernel atomic_sum --grid 8 --block 256 "
                                  "--arg buf:i32[1000]=fill:1 --arg buf:i32[1]=fill:0 --arg i32:2000");
    assert_int_equal(rc, 1);
    assert_non_null(strstr(out, "kernel fault: out-of-bounds"));
    /* blocks run concurrently, one SM's slice of cycles after another: the
     * first thread to read out of range is thread 1000 (block 3's on SM 3) */
    assert_non_null(strstr(out, "block (3,0,0) thread (232,0,0)"));
    assert_non_null(strstr(out, "kernel.cu:"));
    assert_non_null(strstr(out, "past the end of buffer #"));
}

static void test_run_fault_json_names_the_kind(void **s)
{
    (void)s;
    int rc = run(out, sizeof out, "run " L1 " --kernel atomic_sum --grid 8 --block 256 --json "
                                  "--arg buf:i32[1000]=fill:1 --arg buf:i32[1]=fill:0 --arg i32:2000");
    assert_int_equal(rc, 1);
    assert_non_null(strstr(out, "\"fault\": {\"kind\": \"out-of-bounds\""));
}

static void test_run_rejects_missing_kernel_with_status_2(void **s)
{
    (void)s;
    assert_int_equal(run(out, sizeof out, "run " L1 " --grid 1 --block 1"), 2);
    assert_non_null(strstr(out, "missing --kernel"));
}

static void test_run_rejects_unknown_kernel_listing_the_kernels(void **s)
{
    (void)s;
    assert_int_equal(run(out, sizeof out, "run " L1 " --kernel nope --grid 1 --block 1"), 2);
    assert_non_null(strstr(out, "no kernel named 'nope'"));
    assert_non_null(strstr(out, "racy_sum"));
}

static void test_run_rejects_wrong_argument_count(void **s)
{
    (void)s;
    assert_int_equal(run(out, sizeof out, "run " L1 " --kernel racy_sum --grid 1 --block 1 --arg i32:1"), 2);
    assert_non_null(strstr(out, "takes 3 parameters"));
}

static void test_run_rejects_bad_arg_spec(void **s)
{
    (void)s;
    assert_int_equal(run(out, sizeof out, "run " L1 " --kernel racy_sum --grid 1 --block 1 --arg buf:q7[4]=iota"), 2);
    assert_non_null(strstr(out, "unknown element type 'q7'"));
    assert_int_equal(run(out, sizeof out, "run " L1 " --kernel racy_sum --grid 1 --block 1 --arg i32:abc"), 2);
    assert_non_null(strstr(out, "'abc' is not a valid i32"));
}

static void test_run_rejects_what_it_used_to_ignore(void **s)
{
    (void)s;
    /* a fourth dimension is an error, not dropped */
    assert_int_equal(run(out, sizeof out, "run " L1 " --kernel atomic_sum --grid 4,1,1,1 --block 256 " SUMARGS), 2);
    assert_non_null(strstr(out, "--grid '4,1,1,1': expected X[,Y[,Z]]"));
    assert_int_equal(run(out, sizeof out, "run " L1 " --kernel atomic_sum --grid 4 --block 64,2,1,1 " SUMARGS), 2);
    /* a trace level with no trace to write */
    assert_int_equal(run(out, sizeof out, "run " L1 " --kernel atomic_sum --grid 4 --block 256 --trace-level warps "
                                          SUMARGS), 2);
    assert_non_null(strstr(out, "give --trace FILE as well"));
    /* a float for an int parameter, and an int for a float one */
    assert_int_equal(run(out, sizeof out, "run " L1 " --kernel atomic_sum --grid 4 --block 256 "
                                          "--arg buf:i32[1000]=fill:1 --arg buf:i32[1]=fill:0 --arg f32:1.5"), 2);
    assert_non_null(strstr(out, "--arg 2 'f32:1.5' is a float but parameter 2 of atomic_sum is .u32 (an integer): "
                                "give i32:V or u32:V"));
}

static void test_version_is_the_version_file(void **s)
{
    (void)s;
    FILE *f = fopen("VERSION", "r");
    assert_non_null(f);
    char v[64] = "", want[80];
    assert_non_null(fgets(v, sizeof v, f));
    fclose(f);
    v[strcspn(v, "\n")] = 0;
    snprintf(want, sizeof want, "warpsim %s", v);
    assert_int_equal(run(out, sizeof out, "--version"), 0);
    assert_true(!strncmp(out, want, strlen(want)));
    assert_int_equal(run(out, sizeof out, "--help"), 0);
    assert_non_null(strstr(out, "--version"));
}

static void test_run_json_atomics_log_values_at_their_width(void **s)
{
    (void)s;
    /* 2e9 + 2e9 wraps in 32 bits: the log shows the 32-bit value written */
    assert_int_equal(run(out, sizeof out, "run " L1 " --kernel atomic_sum --grid 1 --block 32 --json "
                                          "--arg buf:i32[4]=fill:2000000000 --arg buf:i32[1]=fill:0 --arg i32:4"), 0);
    const char *a = strstr(out, "\"atomics\": [");
    assert_non_null(a);
    int seen = 0;
    for (const char *p = a; (p = strstr(p, "\"new\": \"0x")); p++, seen++) {
        size_t hex = strspn(p + 10, "0123456789abcdef");
        assert_true(hex >= 1 && hex <= 8);
    }
    assert_true(seen >= 1);
}

static void test_run_rejects_block_over_1024_threads(void **s)
{
    (void)s;
    assert_int_equal(run(out, sizeof out, "run " L1 " --kernel racy_sum --grid 1 --block 32,33 " SUMARGS), 2);
    assert_non_null(strstr(out, "at most 1024 threads"));
}

static void test_run_bad_ptx_points_at_line_and_column(void **s)
{
    (void)s;
    FILE *f = fopen("build/bad_test.ptx", "w");
    assert_non_null(f);
    fputs(".version 9.0\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n\tfrobnicate.u32 %r1;\n}\n", f);
    fclose(f);
    assert_int_equal(run(out, sizeof out, "run build/bad_test.ptx --kernel k --grid 1 --block 1"), 2);
    assert_non_null(strstr(out, "build/bad_test.ptx:6:"));
    assert_non_null(strstr(out, "^"));
}

/* (add.cc.u32 was the example until carry chains were implemented) */
static void test_run_unsupported_instruction_is_named_at_launch(void **s)
{
    (void)s;
    FILE *f = fopen("build/unsup_test.ptx", "w");
    assert_non_null(f);
    fputs(".version 9.0\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n\t.reg .b32 %r<2>;\n"
          "\twgmma.fence.sync.aligned;\n\tret;\n}\n", f);
    fclose(f);
    int rc = run(out, sizeof out, "run build/unsup_test.ptx --kernel k --grid 1 --block 1");
    assert_int_equal(rc, 2);
    assert_non_null(strstr(out, "build/unsup_test.ptx:7:"));
    assert_non_null(strstr(out, "unsupported instruction 'wgmma.fence.sync.aligned'"));
}

/* --cooperative: grid.sync() runs; without it the kernel traps, as on a GPU */
static void test_run_cooperative_launch_option(void **s)
{
    (void)s;
    const char *l = "run tests/kernels/grid_sync.ptx --kernel _Z9two_phasePiS_i --grid 8 --block 128 "
                    "--arg buf:i32[1000]=iota --arg buf:i32[1000]=fill:0 --arg i32:1000";
    char cmd[512];
    snprintf(cmd, sizeof cmd, "%s --cooperative", l);
    assert_int_equal(run(out, sizeof out, cmd), 0);
    assert_non_null(strstr(out, "arg 0  i32[1000]: 1010 21 32"));
    assert_int_equal(run(out, sizeof out, l), 1);
    assert_non_null(strstr(out, "kernel fault: trap"));
}

/* The cooperative launch on the H100 (traces/hw/cooperative-h100.json, made
 * with --backend gpu: cuLaunchCooperativeKernel) gave the simulator's
 * buffers bit for bit. */
static void test_run_cooperative_matches_the_h100(void **s)
{
    (void)s;
    char msg[256];
    size_t len;
    char *rec = source_read_file("traces/hw/cooperative-h100.json", &len, msg, sizeof msg);
    assert_non_null(rec);
    JsonValue *g = json_parse(rec, len, msg, sizeof msg);
    free(rec);
    assert_non_null(g);
    assert_string_equal(json_get_string(g, "backend"), "gpu");
    assert_int_equal(run(out, sizeof out, "run tests/kernels/grid_sync.ptx --kernel _Z9two_phasePiS_i --grid 8 "
                                          "--block 128 --arg buf:i32[1000]=iota --arg buf:i32[1000]=fill:0 "
                                          "--arg i32:1000 --cooperative --json"), 0);
    JsonValue *sim = json_parse(out, strlen(out), msg, sizeof msg);
    assert_non_null(sim);
    const JsonValue *gb = json_get(g, "buffers"), *sb = json_get(sim, "buffers");
    assert_int_equal(gb->n, 2);
    assert_int_equal(sb->n, gb->n);
    for (size_t i = 0; i < gb->n; i++)
        assert_string_equal(json_get_string(&sb->items[i], "hex"), json_get_string(&gb->items[i], "hex"));
    json_free(sim);
    json_free(g);
}

/* A tile kernel declares __launch_bounds__(tile::kThreads): --grid suffices. */
static void test_run_without_block_takes_the_kernels_launch_bounds(void **s)
{
    (void)s;
    assert_int_equal(run(out, sizeof out, "run tests/kernels/tiles.ptx --kernel pad_f32 --grid 3 --json "
                         "--arg buf:f32[150]=iota --arg buf:f32[192]=fill:0 --arg i32:150 --arg i32:0"), 0);
    assert_non_null(strstr(out, "\"block\": [128, 1, 1]"));
    assert_non_null(strstr(out, "\"threads\": 384"));
    /* .reqntid wins, and its y dimension is kept */
    FILE *f = fopen("build/reqntid_test.ptx", "w");
    assert_non_null(f);
    fputs(".version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k()\n.maxntid 256, 1, 1\n"
          ".reqntid 32, 2, 1\n{\n\tret;\n}\n", f);
    fclose(f);
    assert_int_equal(run(out, sizeof out, "run build/reqntid_test.ptx --kernel k --grid 2 --json"), 0);
    assert_non_null(strstr(out, "\"block\": [32, 2, 1]"));
    /* an explicit --block still decides */
    assert_int_equal(run(out, sizeof out, "run build/reqntid_test.ptx --kernel k --grid 2 --block 64 --json"), 0);
    assert_non_null(strstr(out, "\"block\": [64, 1, 1]"));
}

static void test_run_without_block_needs_declared_bounds(void **s)
{
    (void)s;
    assert_int_equal(run(out, sizeof out, "run " L1 " --kernel atomic_sum --grid 4 " SUMARGS), 2);
    assert_non_null(strstr(out, "kernel atomic_sum declares no .reqntid or .maxntid"));
    assert_non_null(strstr(out, "give --block"));
    assert_int_equal(run(out, sizeof out, "run " L1 " --kernel atomic_sum " SUMARGS), 2);
    assert_non_null(strstr(out, "missing --grid"));
}

static void test_run_missing_file_is_status_2(void **s)
{
    (void)s;
    assert_int_equal(run(out, sizeof out, "run no/such.ptx --kernel k --grid 1 --block 1"), 2);
    assert_non_null(strstr(out, "cannot open"));
}

static void test_lesson_1_shows_the_race_and_two_correct_sums(void **s)
{
    (void)s;
    assert_int_equal(run(out, sizeof out, "lesson 1"), 0);
    assert_non_null(strstr(out, "racy_sum"));
    assert_non_null(strstr(out, "WRONG: updates were lost"));
    assert_non_null(strstr(out, "atomic_sum     10000      10000"));
    assert_non_null(strstr(out, "staged_sum     10000      10000"));
    assert_int_equal(run(out, sizeof out, "lesson 01-threads-and-races"), 0);
}

static void test_lesson_unknown_is_status_2(void **s)
{
    (void)s;
    assert_int_equal(run(out, sizeof out, "lesson 99"), 2);
    assert_non_null(strstr(out, "no lesson '99'"));
}

static void test_unknown_subcommand_is_status_2(void **s)
{
    (void)s;
    assert_int_equal(run(out, sizeof out, "frobnicate"), 2);
    assert_non_null(strstr(out, "unknown subcommand"));
}

static void test_rand_is_splitmix64_from_the_seed(void **s)
{
    (void)s;
    /* splitmix64 from state 0: the reference first outputs */
    uint64_t st = 0;
    assert_true(argspec_splitmix64(&st) == 0xe220a8397b1dcdafull);
    assert_true(argspec_splitmix64(&st) == 0x6e789e6aa1b965f4ull);
    uint8_t buf[16];
    argspec_fill_rand(PTX_T_U32, 0, buf, 2);
    uint32_t v[2];
    memcpy(v, buf, 8);
    assert_int_equal(v[0], 0xe220a839u);
    assert_int_equal(v[1], 0x6e789e6au);
    argspec_fill_rand(PTX_T_F64, 0, buf, 1);
    double d;
    memcpy(&d, buf, 8);
    assert_true(d == (double)(0xe220a8397b1dcdafull >> 11) * 0x1p-53 * 2 - 1);
    argspec_fill_rand(PTX_T_F32, 0, buf, 1);
    float f;
    memcpy(&f, buf, 4);
    assert_true(f == (float)((double)(0xe220a8397b1dcdafull >> 40) * 0x1p-24 * 2 - 1));
    argspec_fill_rand(PTX_T_U8, 0, buf, 1);
    assert_int_equal(buf[0], 0x39);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_run_atomic_sum_is_exact),
        cmocka_unit_test(test_run_json_has_the_documented_fields),
        cmocka_unit_test(test_run_json_writes_nan_and_inf_as_strings),
        cmocka_unit_test(test_run_fault_exits_1_with_block_thread_and_line),
        cmocka_unit_test(test_run_fault_json_names_the_kind),
        cmocka_unit_test(test_run_rejects_missing_kernel_with_status_2),
        cmocka_unit_test(test_run_rejects_unknown_kernel_listing_the_kernels),
        cmocka_unit_test(test_run_rejects_wrong_argument_count),
        cmocka_unit_test(test_run_rejects_bad_arg_spec),
        cmocka_unit_test(test_run_rejects_block_over_1024_threads),
        cmocka_unit_test(test_run_bad_ptx_points_at_line_and_column),
        cmocka_unit_test(test_run_unsupported_instruction_is_named_at_launch),
        cmocka_unit_test(test_run_cooperative_launch_option),
        cmocka_unit_test(test_run_cooperative_matches_the_h100),
        cmocka_unit_test(test_run_without_block_takes_the_kernels_launch_bounds),
        cmocka_unit_test(test_run_without_block_needs_declared_bounds),
        cmocka_unit_test(test_run_missing_file_is_status_2),
        cmocka_unit_test(test_run_rejects_what_it_used_to_ignore),
        cmocka_unit_test(test_run_json_atomics_log_values_at_their_width),
        cmocka_unit_test(test_version_is_the_version_file),
        cmocka_unit_test(test_lesson_1_shows_the_race_and_two_correct_sums),
        cmocka_unit_test(test_lesson_unknown_is_status_2),
        cmocka_unit_test(test_unknown_subcommand_is_status_2),
        cmocka_unit_test(test_rand_is_splitmix64_from_the_seed),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
