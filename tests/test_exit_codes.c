/* test_exit_codes.c: one exit-status rule for every subcommand, as the
 * README states it -- 0 ok, 1 the kernel or the check failed, 2 usage,
 * input or missing hardware (this machine has no GPU: every GPU request is
 * a 2) -- checked subcommand by subcommand through build/warpsim. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "gpu.h"
#include "source.h"
#include "nvcc_probe.h"

static char out[1 << 16];

static int run(const char *fmt, ...)
{
    char args[2048], cmd[2400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(args, sizeof args, fmt, ap);
    va_end(ap);
    const char *w = getenv("WARPSIM");
    snprintf(cmd, sizeof cmd, "%s %s 2>&1 </dev/null", w ? w : "build/warpsim", args);
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    size_t n = fread(out, 1, sizeof out - 1, p);
    out[n] = 0;
    int st = pclose(p);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* Run args; when the exit status is not want, fail with the end of what
 * the command printed, so a log shows why and not only the number. */
static void expect_rc(const char *args, int want)
{
    int rc = run("%s", args);
    if (rc != want) {
        size_t n = strlen(out);
        fail_msg("warpsim %s: exit status %d, not %d; it printed (the end):\n%s", args, rc, want,
                 out + (n > 3000 ? n - 3000 : 0));
    }
}

#define L1 "lessons/01-threads-and-races/kernel.ptx"
#define SUM "--grid 4 --block 256 --arg buf:i32[1000]=fill:1 --arg buf:i32[1]=fill:0 --arg i32:1000"
#define OOB "tests/kernels/faults.ptx"

static bool no_gpu(void) { return !gpu_available(); }

static void test_exit_lesson(void **s)
{
    (void)s;
    assert_int_equal(run("lesson 1"), 0);
    assert_int_equal(run("lesson 99"), 2);
    assert_int_equal(run("lesson"), 2);
}

static void test_exit_run(void **s)
{
    (void)s;
    assert_int_equal(run("run " L1 " --kernel atomic_sum " SUM), 0);
    assert_int_equal(run("run " L1 " --kernel racy_sum " SUM " --check races"), 1);
    assert_int_equal(run("run " L1 " --kernel atomic_sum " SUM " --budget 10"), 1); /* budget-exceeded */
    assert_int_equal(run("run " L1 " --kernel atomic_sum --grid 4"), 2);
    assert_int_equal(run("run " L1 " --kernel atomic_sum " SUM " --max-printf 0"), 2);
    assert_int_equal(run("run " L1 " --kernel atomic_sum " SUM " --max-printf lots"), 2);
    assert_int_equal(run("run " L1 " --kernel atomic_sum " SUM " --max-printf 1K"), 0); /* it prints nothing */
    /* a struct by value: val:T[N] must be the parameter's size, and only that */
#define L14 "lessons/14-host-side/kernel.ptx --kernel huge_params --grid 1 --block 32 --arg buf:i32[1]=fill:0 "
    assert_int_equal(run("run " L14 "--arg val:i32[8189]=fill:1"), 0);
    assert_non_null(strstr(out, "arg 0  i32[1]: 8189"));
    assert_int_equal(run("run " L14 "--arg val:i32[8188]=fill:1"), 2);
    assert_non_null(strstr(out, "is 32752 bytes but parameter 1 is 32756 bytes"));
    assert_int_equal(run("run " L14 "--arg val:i32=5"), 2);
    assert_int_equal(run("run " L14 "--arg i32:5"), 2);
#undef L14
    assert_int_equal(run("run /nonexistent.ptx --kernel k --grid 1 --block 1"), 2);
    if (no_gpu())
        assert_int_equal(run("run " L1 " --kernel atomic_sum " SUM " --backend gpu"), 2);
}

static void test_exit_explore(void **s)
{
    (void)s;
    assert_int_equal(run("explore " L1 " --kernel atomic_sum " SUM " --runs 3"), 0);
    assert_int_equal(run("explore " L1 " --kernel racy_sum " SUM " --runs 2 --check races"), 1);
    assert_int_equal(run("explore " L1 " --kernel atomic_sum " SUM " --runs 0"), 2);
    if (no_gpu())
        assert_int_equal(run("explore " L1 " --kernel atomic_sum " SUM " --runs 2 --backend gpu"), 2);
}

static void test_exit_step(void **s)
{
    (void)s;
    FILE *f = fopen("/tmp/warpsim-test-exit-script.txt", "w");
    assert_non_null(f);
    fputs("continue\n", f);
    fclose(f);
    assert_int_equal(run("step " L1 " --kernel atomic_sum " SUM " --script /tmp/warpsim-test-exit-script.txt"), 0);
    assert_int_equal(run("step " L1 " --kernel racy_sum " SUM " --check races "
                         "--script /tmp/warpsim-test-exit-script.txt"), 1);
    unlink("/tmp/warpsim-test-exit-script.txt");
    assert_int_equal(run("step " L1 " --kernel atomic_sum --grid 4"), 2);
    assert_int_equal(run("step " L1 " --kernel atomic_sum " SUM " --script /nonexistent"), 2);
}

static void test_exit_occupancy(void **s)
{
    (void)s;
    assert_int_equal(run("occupancy --arch sm_90 --block 256 --regs 32"), 0);
    assert_int_equal(run("occupancy --arch sm_90 --block 2048 --regs 32"), 2);
    assert_int_equal(run("occupancy --arch sm_90 --gpu a100 --block 256 --regs 32"), 2);
    assert_int_equal(run("occupancy --arch sm_90 --block 256 --regs 32 --timing"), 2); /* needs --measure */
    assert_int_equal(run("occupancy --measure --backend sim --timing --block 256 --regs 32 --grid 264"), 0);
    if (no_gpu()) {
        assert_int_equal(run("occupancy --measure --block 256 --regs 32"), 2);
        assert_int_equal(run("occupancy --sweep-carveout /tmp/warpsim-test-sweep.json --sweep-tiny"), 2);
        unlink("/tmp/warpsim-test-sweep.json");
    }
}

static void test_exit_xcheck(void **s)
{
    (void)s;
    assert_int_equal(run("xcheck --recorded traces/hw/nvidia-h100-80gb-hbm3 1"), 0);
    assert_int_equal(run("xcheck --recorded /nonexistent"), 2);
    assert_non_null(strstr(out, "no recording found in /nonexistent"));
    assert_int_equal(run("xcheck"), 2);
    if (no_gpu())
        assert_int_equal(run("xcheck 1"), 2);
}

static void test_exit_grade(void **s)
{
    (void)s;
    FILE *f = fopen("/tmp/not-a-cu.ptx", "w");
    assert_non_null(f);
    fclose(f);
    assert_int_equal(run("grade 1 /tmp/not-a-cu.ptx"), 2);
    unlink("/tmp/not-a-cu.ptx");
    assert_non_null(strstr(out, "is not a .cu file"));
    assert_int_equal(run("grade 99 tests/grade/atomic.cu"), 2);
    need_grade_compile("grade's exit statuses of a graded submission were not checked");
    expect_rc("grade 1 tests/grade/atomic.cu --runs 1", 0);
    expect_rc("grade 1 tests/grade/wrong.cu --runs 1", 1);
}

static void test_exit_trace_and_viz(void **s)
{
    (void)s;
    const char *t = "/tmp/warpsim-test-exit.wst";
    assert_int_equal(run("run " L1 " --kernel atomic_sum " SUM " --trace %s", t), 0);
    assert_int_equal(run("trace dump %s", t), 0);
    assert_int_equal(run("trace dump /dev/zero"), 2);
    assert_int_equal(run("trace frobnicate %s", t), 2);
    assert_int_equal(run("viz /nonexistent.wst --png /tmp/warpsim-test-exit.png"), 2);
    assert_int_equal(run("viz %s --block 99 --png /tmp/warpsim-test-exit.png", t), 2);
    unlink(t);
    unlink("/tmp/warpsim-test-exit.png");
}

/* Start warpsim with argv (no shell), send SIGINT after ms, return its
 * status; its output goes to path. */
static int interrupt_after(int ms, const char *path, char *const *argv)
{
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        FILE *f = freopen(path, "w", stdout);
        if (!f || dup2(fileno(stdout), 2) < 0)
            _exit(127);
        const char *w = getenv("WARPSIM");
        execv(w ? w : "build/warpsim", argv);
        _exit(127);
    }
    usleep((useconds_t)ms * 1000);
    kill(pid, SIGINT);
    int st = 0;
    waitpid(pid, &st, 0);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static void test_exit_ctrl_c_reports_what_was_done_and_exits_130(void **s)
{
    (void)s;
    const char *path = "/tmp/warpsim-test-exit-sigint.txt";
    char *run_argv[] = {"warpsim", "run", L1, "--kernel", "staged_sum", "--grid", "2000000", "--block", "256",
                        "--arg", "buf:i32[1000]=fill:1", "--arg", "buf:i32[1]=fill:0", "--arg", "i32:1000",
                        "--budget", "100000000000", NULL};
    assert_int_equal(interrupt_after(1500, path, run_argv), 130);
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    size_t n = fread(out, 1, sizeof out - 1, f);
    out[n] = 0;
    fclose(f);
    assert_non_null(strstr(out, "kernel fault: stopped"));
    assert_non_null(strstr(out, "arg 1  i32[1]: "));
    char *ex_argv[] = {"warpsim", "explore", "lessons/03-atomics/kernel.ptx", "--kernel", "sum_atomic_f32",
                       "--grid", "40", "--block", "256", "--arg", "buf:f32[10000]=rand:1", "--arg",
                       "buf:f32[1]=fill:0", "--arg", "i32:10000", "--runs", "10000000", NULL};
    assert_int_equal(interrupt_after(1500, path, ex_argv), 130);
    f = fopen(path, "r");
    assert_non_null(f);
    n = fread(out, 1, sizeof out - 1, f);
    out[n] = 0;
    fclose(f);
    assert_non_null(strstr(out, "warpsim explore: stopped after "));
    assert_non_null(strstr(out, " runs, seeds 0.."));
    /* the simulator's carveout sweep keeps and writes what it measured */
    char *sw_argv[] = {"warpsim", "occupancy", "--sweep-carveout", "/tmp/warpsim-test-exit-sweep.json", "--backend",
                       "sim", NULL};
    assert_int_equal(interrupt_after(2000, path, sw_argv), 130);
    f = fopen(path, "r");
    assert_non_null(f);
    n = fread(out, 1, sizeof out - 1, f);
    out[n] = 0;
    fclose(f);
    assert_non_null(strstr(out, " of 504 configurations measured on warpsim simulator"));
    f = fopen("/tmp/warpsim-test-exit-sweep.json", "r");
    assert_non_null(f);
    n = fread(out, 1, sizeof out - 1, f);
    out[n] = 0;
    fclose(f);
    assert_non_null(strstr(out, "]}"));
    unlink("/tmp/warpsim-test-exit-sweep.json");
    unlink(path);
}

static void test_exit_unknown_subcommand_and_version(void **s)
{
    (void)s;
    assert_int_equal(run("frobnicate"), 2);
    assert_int_equal(run(""), 2);
    assert_int_equal(run("--version"), 0);
    assert_int_equal(run("--help"), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_exit_lesson),
        cmocka_unit_test(test_exit_run),
        cmocka_unit_test(test_exit_explore),
        cmocka_unit_test(test_exit_step),
        cmocka_unit_test(test_exit_occupancy),
        cmocka_unit_test(test_exit_xcheck),
        cmocka_unit_test(test_exit_grade),
        cmocka_unit_test(test_exit_trace_and_viz),
        cmocka_unit_test(test_exit_unknown_subcommand_and_version),
        cmocka_unit_test(test_exit_ctrl_c_reports_what_was_done_and_exits_130),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
