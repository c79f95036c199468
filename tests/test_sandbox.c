/* test_sandbox.c: running untrusted compiles (launch/sandbox.h) -- exit
 * statuses and output, the limits as the program sees them, the wall
 * timeout killing the whole process group, SIGINT killing it too, copies
 * that refuse devices and FIFOs, removal that never follows links, programs
 * run from several threads at once (a class graded side by side) -- and a
 * .cu whose name is a shell command compiled by `warpsim run` without the
 * command ever running. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "sandbox.h"
#include "source.h"
#include "nvcc_probe.h"

extern char **environ;

static SandboxLimits lim;
static char msg[512];

static int setup(void **s)
{
    (void)s;
    sandbox_limits_default(&lim);
    return 0;
}

static bool run_sh(Sandbox *sb, const char *script, SandboxResult *r)
{
    const char *argv[] = {"/bin/sh", "-c", script, NULL};
    return sandbox_run(sb, argv, &lim, 4096, r, msg, sizeof msg);
}

/* Is pid gone (or a zombie waiting for init)? */
static bool gone(long pid)
{
    char p[64], st[512];
    snprintf(p, sizeof p, "/proc/%ld/stat", pid);
    FILE *f = fopen(p, "r");
    if (!f)
        return true;
    size_t n = fread(st, 1, sizeof st - 1, f);
    fclose(f);
    st[n] = 0;
    const char *rp = strrchr(st, ')');
    return rp && rp[1] == ' ' && rp[2] == 'Z';
}

static void test_sandbox_runs_an_argv_and_collects_its_output(void **s)
{
    (void)s;
    Sandbox *sb = sandbox_new("test", msg, sizeof msg);
    assert_non_null(sb);
    SandboxResult r;
    assert_true(run_sh(sb, "echo out; echo err >&2; pwd; exit 3", &r));
    assert_int_equal(r.end, SANDBOX_EXITED);
    assert_int_equal(r.code, 3);
    assert_non_null(strstr(r.output, "out\n"));
    assert_non_null(strstr(r.output, "err\n"));
    assert_non_null(strstr(r.output, sandbox_dir(sb))); /* it ran in the folder */
    sandbox_result_free(&r);
    /* stdin is /dev/null: a program reading it ends at once */
    assert_true(run_sh(sb, "cat; echo done", &r));
    assert_string_equal(r.output, "done\n");
    sandbox_result_free(&r);
    /* output past the cap is cut and says so */
    assert_true(run_sh(sb, "i=0; while [ $i -lt 2000 ]; do echo 0123456789; i=$((i+1)); done", &r));
    assert_int_equal(r.output_len, 4096);
    assert_true(r.output_truncated);
    sandbox_result_free(&r);
    /* never a bare name: argv[0] must be a path */
    const char *bare[] = {"sh", "-c", "true", NULL};
    assert_false(sandbox_run(sb, bare, &lim, 64, &r, msg, sizeof msg));
    assert_int_equal(r.end, SANDBOX_NOT_STARTED);
    sandbox_free(sb);
}

static void test_sandbox_limits_are_what_the_program_sees(void **s)
{
    (void)s;
    Sandbox *sb = sandbox_new("test", msg, sizeof msg);
    SandboxResult r;
    assert_true(run_sh(sb, "ulimit -v; ulimit -t; ulimit -n", &r));
    long as = 0, cpu = 0, files = 0;
    assert_int_equal(sscanf(r.output, "%ld %ld %ld", &as, &cpu, &files), 3);
    assert_int_equal(as, (long)(lim.address_space >> 10));
    assert_int_equal(cpu, (long)lim.cpu_seconds);
    assert_int_equal(files, (long)lim.open_files);
    sandbox_result_free(&r);
    /* a file larger than the limit cannot be written */
    SandboxLimits small = lim;
    small.file_size = 1 << 16;
    const char *argv[] = {"/bin/sh", "-c", "head -c 200000 /dev/zero > big", NULL};
    assert_true(sandbox_run(sb, argv, &small, 4096, &r, msg, sizeof msg));
    assert_false(r.end == SANDBOX_EXITED && r.code == 0);
    struct stat st;
    char p[4200];
    snprintf(p, sizeof p, "%s/big", sandbox_dir(sb));
    assert_int_equal(stat(p, &st), 0);
    assert_true(st.st_size <= 1 << 16);
    sandbox_result_free(&r);
    sandbox_free(sb);
}

static void test_sandbox_wall_timeout_kills_the_whole_group(void **s)
{
    (void)s;
    Sandbox *sb = sandbox_new("test", msg, sizeof msg);
    SandboxLimits quick = lim;
    quick.wall_seconds = 0.3;
    const char *argv[] = {"/bin/sh", "-c", "sleep 30 & echo $!; sleep 30", NULL};
    SandboxResult r;
    assert_true(sandbox_run(sb, argv, &quick, 4096, &r, msg, sizeof msg));
    assert_int_equal(r.end, SANDBOX_TIMED_OUT);
    assert_true(r.seconds < 5);
    long bg = atol(r.output);
    assert_true(bg > 0);
    for (int i = 0; i < 100 && !gone(bg); i++)
        usleep(10000);
    assert_true(gone(bg));
    char why[128];
    assert_string_equal(sandbox_describe(&r, &quick, why, sizeof why), "killed after the 0.3 s time limit");
    sandbox_result_free(&r);
    sandbox_free(sb);
}

static void test_sandbox_sigint_kills_the_group_then_warpsim(void **s)
{
    (void)s;
    char pidfile[] = "/tmp/warpsim-test-pid-XXXXXX";
    int fd = mkstemp(pidfile);
    assert_true(fd >= 0);
    close(fd);
    pid_t pid = fork();
    if (pid == 0) {
        Sandbox *sb = sandbox_new("test", msg, sizeof msg);
        char script[256];
        snprintf(script, sizeof script, "echo $$ > %s; exec sleep 30", pidfile);
        SandboxResult r;
        run_sh(sb, script, &r);
        _exit(0); /* not reached: SIGINT is raised again once the group is gone */
    }
    long inner = 0;
    for (int i = 0; i < 500 && inner == 0; i++) {
        usleep(10000);
        FILE *f = fopen(pidfile, "r");
        if (f) {
            if (fscanf(f, "%ld", &inner) != 1)
                inner = 0;
            fclose(f);
        }
    }
    assert_true(inner > 0);
    kill(pid, SIGINT);
    int st = 0;
    assert_int_equal(waitpid(pid, &st, 0), pid);
    assert_true(WIFSIGNALED(st));
    assert_int_equal(WTERMSIG(st), SIGINT);
    for (int i = 0; i < 100 && !gone(inner); i++)
        usleep(10000);
    assert_true(gone(inner));
    unlink(pidfile);
}

/* One program of a side-by-side pair: run script after waiting delay_ms. */
typedef struct {
    const char *script;
    int delay_ms;
    SandboxResult r;
    bool ran;
    char dir[4096];
    char msg[256];
} Pair;

static void *pair_thread(void *arg)
{
    Pair *p = arg;
    struct timespec d = {p->delay_ms / 1000, (long)(p->delay_ms % 1000) * 1000000L};
    nanosleep(&d, NULL);
    Sandbox *sb = sandbox_new("test", p->msg, sizeof p->msg);
    if (!sb)
        return NULL;
    snprintf(p->dir, sizeof p->dir, "%s", sandbox_dir(sb));
    const char *argv[] = {"/bin/sh", "-c", p->script, NULL};
    p->ran = sandbox_run(sb, argv, &lim, 4096, &p->r, p->msg, sizeof p->msg);
    sandbox_free(sb);
    return NULL;
}

/* Two runs that overlap, the first ending first: the second must not put
 * back the handler the first installed (SIGINT caught for ever after). */
static void test_sandbox_overlapping_runs_put_the_callers_handlers_back(void **s)
{
    (void)s;
    struct sigaction before, after;
    sigaction(SIGINT, NULL, &before);
    assert_true(before.sa_handler == SIG_DFL);
    Pair a = {.script = "sleep 0.3; echo a", .delay_ms = 0}, b = {.script = "sleep 0.5; echo b", .delay_ms = 100};
    pthread_t ta, tb;
    assert_int_equal(pthread_create(&ta, NULL, pair_thread, &a), 0);
    assert_int_equal(pthread_create(&tb, NULL, pair_thread, &b), 0);
    pthread_join(ta, NULL);
    pthread_join(tb, NULL);
    assert_true(a.ran && b.ran);
    assert_int_equal(a.r.end, SANDBOX_EXITED);
    assert_int_equal(b.r.end, SANDBOX_EXITED);
    assert_string_equal(a.r.output, "a\n");
    assert_string_equal(b.r.output, "b\n");
    assert_string_not_equal(a.dir, b.dir);
    sandbox_result_free(&a.r);
    sandbox_result_free(&b.r);
    sigaction(SIGINT, NULL, &after);
    assert_true(after.sa_handler == SIG_DFL);
    sigaction(SIGCHLD, NULL, &after);
    assert_true(after.sa_handler == SIG_DFL);
}

/* SIGINT while two threads each wait for a program: both groups are killed,
 * both folders removed, and warpsim ends by the signal. */
static void test_sandbox_sigint_stops_side_by_side_runs(void **s)
{
    (void)s;
    char pidfile[2][64];
    for (int k = 0; k < 2; k++) {
        snprintf(pidfile[k], sizeof pidfile[k], "/tmp/warpsim-test-pid%d-XXXXXX", k);
        int fd = mkstemp(pidfile[k]);
        assert_true(fd >= 0);
        close(fd);
    }
    char script[2][256], dirs[] = "/tmp/warpsim-test-dirs-XXXXXX";
    int dfd = mkstemp(dirs);
    assert_true(dfd >= 0);
    close(dfd);
    for (int k = 0; k < 2; k++)
        snprintf(script[k], sizeof script[k], "echo $$ > %s; pwd >> %s; exec sleep 30", pidfile[k], dirs);
    pid_t pid = fork();
    if (pid == 0) {
        Pair p[2] = {{.script = script[0]}, {.script = script[1]}};
        pthread_t t[2];
        for (int k = 0; k < 2; k++)
            pthread_create(&t[k], NULL, pair_thread, &p[k]);
        for (int k = 0; k < 2; k++)
            pthread_join(t[k], NULL);
        _exit(0); /* not reached: SIGINT is raised again once the groups are gone */
    }
    long inner[2] = {0, 0};
    for (int i = 0; i < 500 && (!inner[0] || !inner[1]); i++) {
        usleep(10000);
        for (int k = 0; k < 2; k++) {
            FILE *f = fopen(pidfile[k], "r");
            if (f) {
                if (fscanf(f, "%ld", &inner[k]) != 1)
                    inner[k] = 0;
                fclose(f);
            }
        }
    }
    assert_true(inner[0] > 0 && inner[1] > 0);
    kill(pid, SIGINT);
    int st = 0;
    assert_int_equal(waitpid(pid, &st, 0), pid);
    assert_true(WIFSIGNALED(st));
    assert_int_equal(WTERMSIG(st), SIGINT);
    for (int k = 0; k < 2; k++) {
        for (int i = 0; i < 100 && !gone(inner[k]); i++)
            usleep(10000);
        assert_true(gone(inner[k]));
        unlink(pidfile[k]);
    }
    FILE *f = fopen(dirs, "r");
    assert_non_null(f);
    char d[4096];
    int n = 0;
    while (fgets(d, sizeof d, f)) {
        d[strcspn(d, "\n")] = 0;
        struct stat sb;
        if (stat(d, &sb) == 0)
            fail_msg("%s is still there after SIGINT", d);
        n++;
    }
    fclose(f);
    unlink(dirs);
    assert_int_equal(n, 2);
}

static void test_sandbox_copies_regular_files_only_and_removes_without_following(void **s)
{
    (void)s;
    Sandbox *sb = sandbox_new("test", msg, sizeof msg);
    assert_false(sandbox_copy_in(sb, "/dev/zero", "a.cu", 1 << 20, msg, sizeof msg));
    assert_non_null(strstr(msg, "not a regular file"));
    assert_false(sandbox_copy_in(sb, "/tmp", "a.cu", 1 << 20, msg, sizeof msg));
    char fifo[] = "/tmp/warpsim-test-fifo-XXXXXX";
    int fd = mkstemp(fifo);
    close(fd);
    unlink(fifo);
    assert_int_equal(mkfifo(fifo, 0600), 0);
    assert_false(sandbox_copy_in(sb, fifo, "a.cu", 1 << 20, msg, sizeof msg)); /* and no hang */
    unlink(fifo);
    assert_false(sandbox_copy_in(sb, "tests/grade/oob.cu", "a.cu", 10, msg, sizeof msg));
    assert_non_null(strstr(msg, "more than the 10 allowed"));
    assert_false(sandbox_copy_in(sb, "tests/grade/oob.cu", "../x.cu", 1 << 20, msg, sizeof msg));
    assert_true(sandbox_copy_in(sb, "tests/grade/oob.cu", "a.cu", 1 << 20, msg, sizeof msg));
    size_t len = 0;
    char *text = sandbox_read(sb, "a.cu", 1 << 20, &len, msg, sizeof msg);
    assert_non_null(text);
    assert_non_null(strstr(text, "block_sum"));
    free(text);
    /* a link to a folder outside: freeing the sandbox leaves what it points at */
    char outside[] = "/tmp/warpsim-test-out-XXXXXX";
    assert_non_null(mkdtemp(outside));
    char keep[256];
    snprintf(keep, sizeof keep, "%s/keep", outside);
    FILE *f = fopen(keep, "w");
    fputs("x", f);
    fclose(f);
    assert_true(sandbox_link(sb, "src", outside, msg, sizeof msg));
    char dir[4096];
    snprintf(dir, sizeof dir, "%s", sandbox_dir(sb));
    sandbox_free(sb);
    struct stat st;
    assert_int_equal(stat(keep, &st), 0);
    assert_int_not_equal(stat(dir, &st), 0);
    unlink(keep);
    rmdir(outside);
}

/* Started with SIGCHLD ignored (as some CI runners start their jobs), the
 * sandbox still gets its program's exit status, and the program gets every
 * signal at its default: nvcc, ignoring SIGCHLD, loses its own children
 * ("Failed to preprocess host compiler properties"). */
static struct sigaction chld_before;

static int restore_sigchld(void **s)
{
    (void)s;
    sigaction(SIGCHLD, &chld_before, NULL);
    return 0;
}

static void test_sandbox_works_when_started_with_sigchld_ignored(void **s)
{
    (void)s;
    struct sigaction ign;
    memset(&ign, 0, sizeof ign);
    ign.sa_handler = SIG_IGN;
    sigaction(SIGCHLD, &ign, &chld_before); /* restore_sigchld puts it back */
    Sandbox *sb = sandbox_new("test", msg, sizeof msg);
    assert_non_null(sb);
    SandboxResult r;
    assert_true(run_sh(sb, "exit 3", &r));
    assert_int_equal(r.end, SANDBOX_EXITED);
    assert_int_equal(r.code, 3);
    sandbox_result_free(&r);
    /* the program's ignored set, as the kernel has it: none of the
     * standard signals (glibc keeps 32 and 33 for itself: sigaction cannot
     * change them, and make starts its recipes with both ignored) */
    const char *argv[] = {"/bin/grep", "^SigIgn:", "/proc/self/status", NULL};
    assert_true(sandbox_run(sb, argv, &lim, 4096, &r, msg, sizeof msg));
    assert_int_equal(r.code, 0);
    unsigned long long ignored = ~0ull;
    assert_int_equal(sscanf(r.output, "SigIgn: %llx", &ignored), 1);
    assert_int_equal(ignored & 0x7fffffffull, 0);
    sandbox_result_free(&r);
    sandbox_free(sb);
    /* and the caller's own disposition is as it was */
    struct sigaction now;
    sigaction(SIGCHLD, NULL, &now);
    assert_true(now.sa_handler == SIG_IGN);
}

/* A .cu named like a shell command: compiled, and the command never runs. */
static void test_run_compiles_a_cu_whose_name_is_a_shell_command(void **s)
{
    (void)s;
    need_working_nvcc("a .cu named like a shell command was not compiled");
    char dir[] = "/tmp/warpsim-test-evil-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char cwd[4096], src[4300], cu[4400];
    assert_non_null(getcwd(cwd, sizeof cwd));
    snprintf(src, sizeof src, "%s/tests/grade/oob.cu", cwd);
    snprintf(cu, sizeof cu, "%s/p$(touch PWNED)`touch PWNED2`;touch PWNED3.cu", dir);
    char cmd[9000];
    snprintf(cmd, sizeof cmd, "cp '%s' '%s'", src, cu);
    assert_int_equal(system(cmd), 0);
    const char *w = getenv("WARPSIM");
    char exe[4200];
    snprintf(exe, sizeof exe, "%s/%s", cwd, w ? w : "build/warpsim");
    if (w && w[0] == '/')
        snprintf(exe, sizeof exe, "%s", w);
    assert_int_equal(chdir(dir), 0);
    char *argv[] = {exe, "run", cu, "--kernel", "block_sum", "--grid", "1", "--block", "256",
                    "--arg", "buf:i32[256]=fill:1", "--arg", "buf:i32[1]=fill:0", "--arg", "i32:256", NULL};
    pid_t pid;
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
    assert_int_equal(posix_spawn(&pid, exe, &fa, NULL, argv, environ), 0);
    int st = 0;
    waitpid(pid, &st, 0);
    posix_spawn_file_actions_destroy(&fa);
    assert_int_equal(chdir(cwd), 0);
    assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    struct stat sb;
    for (const char *n = "PWNED"; n; n = NULL) {
        char p[4200];
        snprintf(p, sizeof p, "%s/%s", dir, n);
        assert_int_not_equal(stat(p, &sb), 0);
        snprintf(p, sizeof p, "%s/%s2", dir, n);
        assert_int_not_equal(stat(p, &sb), 0);
        snprintf(p, sizeof p, "%s/%s3", dir, n);
        assert_int_not_equal(stat(p, &sb), 0);
    }
    unlink(cu);
    rmdir(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sandbox_runs_an_argv_and_collects_its_output),
        cmocka_unit_test(test_sandbox_limits_are_what_the_program_sees),
        cmocka_unit_test(test_sandbox_wall_timeout_kills_the_whole_group),
        cmocka_unit_test(test_sandbox_sigint_kills_the_group_then_warpsim),
        cmocka_unit_test(test_sandbox_overlapping_runs_put_the_callers_handlers_back),
        cmocka_unit_test(test_sandbox_sigint_stops_side_by_side_runs),
        cmocka_unit_test(test_sandbox_copies_regular_files_only_and_removes_without_following),
        cmocka_unit_test_teardown(test_sandbox_works_when_started_with_sigchld_ignored, restore_sigchld),
        cmocka_unit_test(test_run_compiles_a_cu_whose_name_is_a_shell_command),
    };
    /* Started as a background job of a non-interactive shell, this process
     * inherits SIGINT ignored (POSIX); the Ctrl-C cases are about a caller
     * that left it at its default, so they start there. */
    signal(SIGINT, SIG_DFL);
    return cmocka_run_group_tests(tests, setup, NULL);
}
