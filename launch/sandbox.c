/* sandbox.c: the toolkit's programs run on untrusted files (sandbox.h): a
 * private folder, an argument vector, a process group of its own under
 * setrlimit limits, a wall timeout, and the group killed on every way out. */
#include "sandbox.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

struct Sandbox {
    char dir[4096];
    Sandbox *next;               /* the process's live sandboxes, newest first */
};

/* Every sandbox not yet freed: when a signal stops warpsim in the middle
 * of a run, all their folders go before the signal is raised again. */
static Sandbox *live;

/* Several threads may run programs at once (`warpsim grade` of a class
 * compiles submissions side by side), so the list above, the count of
 * programs being waited for and the signal dispositions saved when the
 * first of them started are kept under one lock.  The handlers go in when
 * the first wait starts and back when the last ends: a thread that ended
 * first must not put back a disposition that leaves another's folder
 * behind at Ctrl-C, nor one that keeps the signal caught for ever. */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int waiting;
static struct sigaction saved_int, saved_term, saved_chld;
static pthread_once_t atfork_once = PTHREAD_ONCE_INIT;

/* A child forked while another thread held the lock would find it held
 * for ever: fork takes it first, and the child starts with no wait of
 * its own in progress (sandbox_fork's child opens the GPU and may run
 * nvcc itself). */
static void fork_prepare(void) { pthread_mutex_lock(&lock); }
static void fork_parent(void) { pthread_mutex_unlock(&lock); }
static void fork_child(void)
{
    waiting = 0;
    pthread_mutex_unlock(&lock);
}
static void atfork_init(void) { pthread_atfork(fork_prepare, fork_parent, fork_child); }

void sandbox_limits_default(SandboxLimits *l)
{
    l->wall_seconds = 120;
    l->cpu_seconds = 120;
    l->address_space = 4ull << 30;
    l->file_size = 256ull << 20;
    l->open_files = 256;
}

Sandbox *sandbox_new(const char *tag, char *msg, size_t cap)
{
    Sandbox *sb = calloc(1, sizeof *sb);
    if (!sb) {
        snprintf(msg, cap, "out of memory");
        return NULL;
    }
    const char *tmp = getenv("TMPDIR");
    if (!tmp || tmp[0] != '/')
        tmp = "/tmp";
    int n = snprintf(sb->dir, sizeof sb->dir, "%s/warpsim-%s-XXXXXX", tmp, tag);
    if (n < 0 || (size_t)n >= sizeof sb->dir || !mkdtemp(sb->dir)) {
        snprintf(msg, cap, "cannot create a temporary folder in %s: %s", tmp, strerror(errno));
        free(sb);
        return NULL;
    }
    pthread_once(&atfork_once, atfork_init);
    pthread_mutex_lock(&lock);
    sb->next = live;
    live = sb;
    pthread_mutex_unlock(&lock);
    return sb;
}

const char *sandbox_dir(const Sandbox *sb) { return sb->dir; }

static bool plain_name(const char *name)
{
    return name[0] && !strchr(name, '/') && strcmp(name, ".") && strcmp(name, "..");
}

static bool path_in(const Sandbox *sb, const char *name, char *buf, size_t n)
{
    int k = snprintf(buf, n, "%s/%s", sb->dir, name);
    return plain_name(name) && k > 0 && (size_t)k < n;
}

bool sandbox_copy_in(Sandbox *sb, const char *src, const char *name, uint64_t max_bytes, char *msg,
                     size_t cap)
{
    char dst[4200];
    if (!path_in(sb, name, dst, sizeof dst)) {
        snprintf(msg, cap, "bad name '%s' in the sandbox", name);
        return false;
    }
    /* O_NONBLOCK: opening a FIFO must not wait for a writer */
    int in = open(src, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    if (in < 0) {
        snprintf(msg, cap, "%s: cannot open: %s", src, strerror(errno));
        return false;
    }
    struct stat st;
    if (fstat(in, &st) != 0 || !S_ISREG(st.st_mode)) {
        snprintf(msg, cap, "%s: not a regular file", src);
        close(in);
        return false;
    }
    if ((uint64_t)st.st_size > max_bytes) {
        snprintf(msg, cap, "%s: %lld bytes, more than the %llu allowed", src, (long long)st.st_size,
                 (unsigned long long)max_bytes);
        close(in);
        return false;
    }
    int out = open(dst, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (out < 0) {
        snprintf(msg, cap, "%s: cannot create: %s", dst, strerror(errno));
        close(in);
        return false;
    }
    char buf[65536];
    uint64_t total = 0;
    bool ok = true;
    for (;;) {
        ssize_t r = read(in, buf, sizeof buf);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0) {
            ok = r == 0;
            break;
        }
        total += (uint64_t)r;
        if (total > max_bytes || write(out, buf, (size_t)r) != r) {
            ok = false;
            break;
        }
    }
    close(in);
    close(out);
    if (!ok)
        snprintf(msg, cap, "%s: cannot copy (%s)", src, total > max_bytes ? "it grew past the limit" : "read error");
    return ok;
}

bool sandbox_write(Sandbox *sb, const char *name, const void *data, size_t len, char *msg, size_t cap)
{
    char dst[4200];
    if (!path_in(sb, name, dst, sizeof dst)) {
        snprintf(msg, cap, "bad name '%s' in the sandbox", name);
        return false;
    }
    int out = open(dst, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (out < 0) {
        snprintf(msg, cap, "%s: cannot create: %s", dst, strerror(errno));
        return false;
    }
    const char *p = data;
    size_t left = len;
    while (left) {
        ssize_t w = write(out, p, left);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            break;
        p += w;
        left -= (size_t)w;
    }
    close(out);
    if (left)
        snprintf(msg, cap, "%s: cannot write: %s", dst, strerror(errno));
    return left == 0;
}

bool sandbox_link(Sandbox *sb, const char *name, const char *target, char *msg, size_t cap)
{
    char dst[4200];
    if (!path_in(sb, name, dst, sizeof dst) || symlink(target, dst) != 0) {
        snprintf(msg, cap, "cannot link %s in the sandbox: %s", name, strerror(errno));
        return false;
    }
    return true;
}

char *sandbox_read(const Sandbox *sb, const char *name, uint64_t max_bytes, size_t *len, char *msg,
                   size_t cap)
{
    char p[4200];
    if (!path_in(sb, name, p, sizeof p)) {
        snprintf(msg, cap, "bad name '%s' in the sandbox", name);
        return NULL;
    }
    int fd = open(p, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || (uint64_t)st.st_size > max_bytes) {
        snprintf(msg, cap, "%s: %s", name,
                 fd < 0 ? strerror(errno) : !S_ISREG(st.st_mode) ? "not a regular file" : "too large");
        if (fd >= 0)
            close(fd);
        return NULL;
    }
    size_t n = (size_t)st.st_size, got = 0;
    char *buf = malloc(n + 1);
    while (buf && got < n) {
        ssize_t r = read(fd, buf + got, n - got);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            break;
        got += (size_t)r;
    }
    close(fd);
    if (!buf) {
        snprintf(msg, cap, "out of memory");
        return NULL;
    }
    buf[got] = 0;
    *len = got;
    return buf;
}

static int remove_one(const char *p, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st, (void)ftw;
    if (flag == FTW_DP)
        rmdir(p);
    else
        unlink(p);
    return 0;
}

void sandbox_free(Sandbox *sb)
{
    if (!sb)
        return;
    pthread_mutex_lock(&lock);
    for (Sandbox **p = &live; *p; p = &(*p)->next)
        if (*p == sb) {
            *p = sb->next;
            break;
        }
    pthread_mutex_unlock(&lock);
    nftw(sb->dir, remove_one, 16, FTW_DEPTH | FTW_PHYS);
    free(sb);
}

/* Before a caught signal is raised again: no folder outlives warpsim. */
static void remove_all_live(void)
{
    pthread_mutex_lock(&lock);
    for (Sandbox *sb = live; sb; sb = sb->next)
        nftw(sb->dir, remove_one, 16, FTW_DEPTH | FTW_PHYS);
    pthread_mutex_unlock(&lock);
}

/* ---- running a program ------------------------------------------------------- */

static volatile sig_atomic_t got_signal;

static void on_signal(int sig) { got_signal = sig; }

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static void limit(int what, uint64_t soft, uint64_t hard)
{
    struct rlimit r = {(rlim_t)soft, (rlim_t)hard};
    setrlimit(what, &r);
}

/* In the child after fork: only async-signal-safe calls.  false when the
 * child cannot be set up (it must then _exit). */
static bool child_setup(const Sandbox *sb, const SandboxLimits *lim, int outfd)
{
    setpgid(0, 0);
    prctl(PR_SET_PDEATHSIG, SIGKILL); /* warpsim killed outright: its child goes too */
    int nul = open("/dev/null", O_RDWR);
    if (nul < 0 || dup2(nul, 0) < 0 || dup2(outfd, 1) < 0 || dup2(outfd, 2) < 0 || chdir(sb->dir) != 0)
        return false;
    if (lim->cpu_seconds)
        limit(RLIMIT_CPU, lim->cpu_seconds, lim->cpu_seconds + 5u);
    if (lim->address_space)
        limit(RLIMIT_AS, lim->address_space, lim->address_space);
    if (lim->file_size)
        limit(RLIMIT_FSIZE, lim->file_size, lim->file_size);
    if (lim->open_files)
        limit(RLIMIT_NOFILE, lim->open_files, lim->open_files);
    /* Every signal as a fresh process has it: warpsim may itself have been
     * started with some ignored (a CI runner that ignores SIGCHLD makes
     * nvcc lose its own children: "Failed to preprocess host compiler
     * properties"), and an ignored disposition survives execv. */
    struct sigaction dfl;
    memset(&dfl, 0, sizeof dfl);
    dfl.sa_handler = SIG_DFL;
    for (int s = 1; s < NSIG; s++)
        if (s != SIGKILL && s != SIGSTOP)
            sigaction(s, &dfl, NULL); /* numbers the kernel reserves just fail */
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    return true;
}

static void child(const Sandbox *sb, const char *const argv[], const SandboxLimits *lim, int outfd)
{
    if (child_setup(sb, lim, outfd))
        execv(argv[0], (char *const *)argv);
    _exit(127);
}

/* A wait for a child begins: the first one catches SIGINT/SIGTERM and
 * makes SIGCHLD's disposition the default (with SIG_IGN the kernel reaps
 * children itself and waitpid fails with ECHILD, losing the exit status),
 * saving the caller's.  Called before fork, so no signal can slip between
 * the fork and the handlers and leave the child's group running. */
static void wait_begin(void)
{
    pthread_mutex_lock(&lock);
    if (waiting++ == 0) {
        struct sigaction sa, dfl;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_signal;
        sigemptyset(&sa.sa_mask);
        memset(&dfl, 0, sizeof dfl);
        dfl.sa_handler = SIG_DFL;
        sigemptyset(&dfl.sa_mask);
        got_signal = 0;
        sigaction(SIGINT, &sa, &saved_int);
        sigaction(SIGTERM, &sa, &saved_term);
        sigaction(SIGCHLD, &dfl, &saved_chld);
    }
    pthread_mutex_unlock(&lock);
}

/* A wait ends: the last one puts the caller's dispositions back and, when
 * a signal was caught, removes every live folder and raises it again (the
 * other waits saw it too and stopped their children first). */
static void wait_end(void)
{
    int sig = 0;
    pthread_mutex_lock(&lock);
    if (--waiting == 0) {
        sig = got_signal;
        sigaction(SIGINT, &saved_int, NULL);
        sigaction(SIGTERM, &saved_term, NULL);
        sigaction(SIGCHLD, &saved_chld, NULL);
    }
    pthread_mutex_unlock(&lock);
    if (sig) {
        remove_all_live();
        raise(sig);
    }
}

int sandbox_fork(Sandbox *sb, const SandboxLimits *lim, char *msg, size_t cap)
{
    wait_begin();
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        int nul = open("/dev/null", O_WRONLY);
        if (nul < 0 || !child_setup(sb, lim, nul) || dup2(nul, 2) < 0)
            _exit(127);
        return 0;
    }
    if (pid < 0) {
        snprintf(msg, cap, "cannot start a process: %s", strerror(errno));
        wait_end();
        return -1;
    }
    setpgid(pid, pid);
    return (int)pid;
}

int sandbox_signaled(void) { return got_signal; }

int sandbox_reap(int pid)
{
    kill(-pid, SIGKILL);
    kill(pid, SIGKILL);
    int st = 0;
    pid_t w;
    while ((w = waitpid(pid, &st, 0)) < 0 && errno == EINTR)
        ;
    wait_end();
    return w == pid ? st : -1;
}

bool sandbox_run(Sandbox *sb, const char *const argv[], const SandboxLimits *lim, size_t output_cap,
                 SandboxResult *r, char *msg, size_t cap)
{
    memset(r, 0, sizeof *r);
    r->end = SANDBOX_NOT_STARTED;
    if (!argv || !argv[0] || argv[0][0] != '/') {
        snprintf(msg, cap, "internal: a sandboxed program needs an absolute path");
        return false;
    }
    char outp[4200];
    snprintf(outp, sizeof outp, "%s/.output", sb->dir);
    unlink(outp);
    int outfd = open(outp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (outfd < 0) {
        snprintf(msg, cap, "cannot create %s: %s", outp, strerror(errno));
        return false;
    }
    wait_begin(); /* handlers before fork */
    fflush(NULL);
    double t0 = now();
    pid_t pid = fork();
    if (pid == 0)
        child(sb, argv, lim, outfd);
    close(outfd);
    if (pid < 0) {
        r->code = errno;
        snprintf(msg, cap, "cannot start %s: %s", argv[0], strerror(errno));
        wait_end();
        return false;
    }
    setpgid(pid, pid); /* also here: whichever of the two runs first */
    int st = 0;
    for (;;) {
        pid_t w = waitpid(pid, &st, WNOHANG);
        if (w == pid) {
            if (WIFEXITED(st)) {
                r->end = SANDBOX_EXITED;
                r->code = WEXITSTATUS(st);
            } else {
                r->end = SANDBOX_SIGNALED;
                r->code = WTERMSIG(st);
            }
            break;
        }
        if (w < 0 && errno != EINTR) {
            r->end = SANDBOX_SIGNALED;
            r->code = SIGKILL;
            break;
        }
        bool late = lim->wall_seconds > 0 && now() - t0 >= lim->wall_seconds;
        if (late || got_signal) {
            kill(-pid, SIGKILL);
            kill(pid, SIGKILL);
            while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
                ;
            r->end = got_signal ? SANDBOX_INTERRUPTED : SANDBOX_TIMED_OUT;
            r->code = got_signal ? (int)got_signal : SIGKILL;
            break;
        }
        struct timespec nap = {0, 5 * 1000 * 1000};
        nanosleep(&nap, NULL);
    }
    kill(-pid, SIGKILL); /* whatever the program left behind in its group */
    r->seconds = now() - t0;
    /* read no more than the cap: a program may write up to the file limit */
    size_t len = 0;
    int fd = open(outp, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    struct stat os;
    if (fd >= 0 && fstat(fd, &os) == 0 && (uint64_t)os.st_size > output_cap)
        r->output_truncated = true;
    r->output = malloc(output_cap + 1);
    while (fd >= 0 && r->output && len < output_cap) {
        ssize_t k = read(fd, r->output + len, output_cap - len);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            break;
        len += (size_t)k;
    }
    if (r->output)
        r->output[len] = 0;
    if (fd >= 0)
        close(fd);
    r->output_len = len;
    unlink(outp);
    wait_end();
    return true;
}

const char *sandbox_describe(const SandboxResult *r, const SandboxLimits *lim, char *buf, size_t cap)
{
    switch (r->end) {
    case SANDBOX_EXITED:
        snprintf(buf, cap, "exit status %d", r->code);
        break;
    case SANDBOX_SIGNALED:
        if (r->code == SIGXCPU || (r->code == SIGKILL && lim->cpu_seconds))
            snprintf(buf, cap, "killed by signal %d (%s)", r->code,
                     r->code == SIGXCPU ? "its CPU time limit" : "a resource limit");
        else if (r->code == SIGXFSZ)
            snprintf(buf, cap, "killed by signal %d (its file size limit)", r->code);
        else
            snprintf(buf, cap, "killed by signal %d (%s)", r->code, strsignal(r->code));
        break;
    case SANDBOX_TIMED_OUT:
        snprintf(buf, cap, "killed after the %g s time limit", lim->wall_seconds);
        break;
    case SANDBOX_INTERRUPTED:
        snprintf(buf, cap, "stopped: warpsim was interrupted");
        break;
    default:
        snprintf(buf, cap, "not started");
        break;
    }
    return buf;
}

void sandbox_result_free(SandboxResult *r)
{
    free(r->output);
    r->output = NULL;
}
