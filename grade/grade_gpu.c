/* grade_gpu.c: `warpsim grade --gpu` -- the tests once more on a real GPU,
 * contained: a child process opens its own CUDA context (the parent never
 * touches the driver, so nothing of it survives a submission), runs each
 * test once and reports over a pipe; the parent kills the child when one
 * launch (or the setup) takes longer than the timeout.  A fault on the GPU
 * becomes a finding; each answer is checked and compared with the
 * simulator's run 0 (grade_int.h). */
#include "grade_int.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "argspec.h"
#include "gpu.h"
#include "sandbox.h"

enum { MSG_NODEVICE, MSG_SETUP_FAILED, MSG_READY, MSG_START, MSG_DONE };

/* One message from the child; smaller than PIPE_BUF, so written whole. */
typedef struct {
    int type;
    int test;
    int status;                  /* MSG_DONE: SIM_OK, SIM_ERR_FAULT or another status */
    bool correct;                /* the exercise's check passed */
    bool compared, agrees;       /* compared with the simulator's run 0, and equal */
    DeviceFault fault;
    char text[1200];             /* why (NODEVICE, SETUP_FAILED, a launch error), the device
                                    (READY), the check's explanation (DONE) */
} GpuMsg;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static void send_msg(int fd, GpuMsg *m)
{
    const char *p = (const char *)m;
    size_t left = sizeof *m;
    while (left) {
        ssize_t n = write(fd, p, left);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            _exit(3);
        p += n;
        left -= (size_t)n;
    }
}

static Device *open_device(const GradeCtx *c, SimError *err)
{
    if (!c->o->gpu_sim)
        return device_open_gpu(0, err);
    /* the stand-in stops printf where the simulator's tests stop it (a GPU
     * keeps only its printf FIFO, 1 MiB by default, and drops the rest) */
    Device *d = device_open_sim(c->ex->arch, err);
    if (d)
        device_set_printf_limit(d, GRADE_MAX_PRINTF);
    return d;
}

/* Open the device and load the submission's PTX (compiled again when the
 * GPU is not the arch graded on).  NULL after sending why. */
static Device *child_setup(const GradeCtx *c, int fd, DeviceModule **mod, char **own_ptx, bool announce)
{
    GpuMsg m = {.type = MSG_NODEVICE};
    SimError err;
    sim_error_clear(&err);
    Device *dev = open_device(c, &err);
    if (!dev) {
        snprintf(m.text, sizeof m.text, "%s", err.msg);
        send_msg(fd, &m);
        return NULL;
    }
    m.type = MSG_SETUP_FAILED;
    const char *ptx = c->ptx;
    size_t len = c->ptx_len;
    const char *arch = device_arch(dev);
    if (strcmp(arch, c->ex->arch)) {
        if (!*own_ptx) {
            char *log = NULL;
            GradeCompileStatus st = grade_compile(&c->cin, arch, own_ptx, &len, &log, m.text, sizeof m.text);
            if (st != GRADE_COMPILED) {
                if (st != GRADE_COMPILE_UNAVAILABLE)
                    snprintf(m.text, sizeof m.text, "nvcc could not compile the file for %s: %s", arch,
                             log ? log : "it timed out");
                free(log);
                send_msg(fd, &m);
                device_close(dev);
                return NULL;
            }
            free(log);
        }
        ptx = *own_ptx;
        len = strlen(ptx);
    }
    if (device_load_ptx(dev, c->r->student, ptx, len, mod, &err)) {
        snprintf(m.text, sizeof m.text, "the GPU could not load the PTX: %s", err.msg);
        send_msg(fd, &m);
        device_close(dev);
        return NULL;
    }
    if (announce) {
        m.type = MSG_READY;
        char name[256] = "", driver[64] = "";
        int cuda = 0;
        if (!c->o->gpu_sim && gpu_device_info(dev, name, sizeof name, driver, sizeof driver, &cuda, &err) == SIM_OK)
            snprintf(m.text, sizeof m.text, "%s (%s, driver %s)", name, arch, driver);
        else
            snprintf(m.text, sizeof m.text, "a second simulator standing in for the GPU (%s)", arch);
        send_msg(fd, &m);
    }
    return dev;
}

/* The GPU process: tests first .. last, one after another.  A kernel fault
 * is sticky -- the driver refuses every later call of this process, even a
 * new context -- so after one the process ends and the parent starts a
 * fresh one for the next test (announce: only the first one names the GPU). */
static void child(const GradeCtx *c, int fd, int first, bool announce)
{
    /* a kernel's printf goes straight to standard output on a GPU: the
     * sandbox made it /dev/null, out of the report (which may be JSON on
     * the same stdout) */
    DeviceModule *mod = NULL;
    char *own_ptx = NULL;
    Device *dev = child_setup(c, fd, &mod, &own_ptx, announce);
    if (!dev)
        _exit(0);
    for (int ti = first; ti < c->ex->ntests; ti++) {
        const GradeTest *T = &c->tests[ti];
        GpuMsg m = {.type = MSG_START, .test = ti};
        send_msg(fd, &m);
        LaunchSpec s = T->spec; /* the same arguments; no budget, schedule or checks on a GPU */
        s.budget = 0;
        s.checks = 0;
        s.schedule = s.atomic_order = 0;
        s.seed = 0;
        LaunchResult res;
        m.type = MSG_DONE;
        m.status = launch_run(dev, mod, &s, &res, m.text, sizeof m.text);
        if (m.status == SIM_ERR_FAULT) {
            m.fault = res.fault;
        } else if (m.status == SIM_OK) {
            GradeData in[GRADE_MAX_PARAMS], out[GRADE_MAX_PARAMS];
            grade_data_before(T, in);
            if (grade_data_after(T, &res, out)) {
                m.correct = c->ex->check(T->t, in, out, m.text, sizeof m.text);
                m.compared = T->sim_out_ok;
                m.agrees = T->sim_out_ok;
                for (int b = 0; m.compared && b < res.nbufs; b++) {
                    const LaunchBuffer *lb = &res.bufs[b];
                    size_t bytes = lb->count * (size_t)argspec_type_size(lb->type);
                    if (!T->sim_out[lb->arg] || memcmp(T->sim_out[lb->arg], lb->data, bytes))
                        m.agrees = false;
                }
            } else {
                snprintf(m.text, sizeof m.text, "the output could not be read back");
            }
        }
        launch_result_free(&res);
        send_msg(fd, &m);
        if (m.status == SIM_ERR_FAULT) /* the process's GPU is lost: a fresh process goes on */
            break;
    }
    device_close(dev);
    free(own_ptx);
    _exit(0);
}

/* ---- the parent ------------------------------------------------------------ */

static void took_result(GradeCtx *c, const GpuMsg *m)
{
    GradeTest *T = &c->tests[m->test];
    T->gpu_done = true;
    if (m->status == SIM_ERR_FAULT) {
        grade_record_fault(c, m->test, -1, &m->fault);
        T->gpu_failed = true;
        snprintf(T->gpu, sizeof T->gpu, "%s: %s", m->fault.kind, m->fault.msg);
    } else if (m->status != SIM_OK) {
        GradeFinding f;
        memset(&f, 0, sizeof f);
        snprintf(f.kind, sizeof f.kind, "launch-failed");
        snprintf(f.backend, sizeof f.backend, "gpu");
        snprintf(f.file, sizeof f.file, "%s", c->r->student);
        snprintf(f.msg, sizeof f.msg, "the GPU could not launch the kernel: %.900s", m->text);
        f.test = m->test;
        f.run = -1;
        grade_command(c, T, "run", -1, f.replay, sizeof f.replay);
        grade_finding_add(c, m->test, &f, NULL);
        T->gpu_failed = true;
        snprintf(T->gpu, sizeof T->gpu, "could not launch: %.600s", m->text);
    } else if (!m->correct) {
        grade_record_wrong(c, m->test, -1, m->text);
        T->gpu_failed = true;
        snprintf(T->gpu, sizeof T->gpu, "wrong answer: %.600s", m->text);
    } else {
        snprintf(T->gpu, sizeof T->gpu, "correct%s", !m->compared ? ""
                                                    : m->agrees ? ", the same output as the simulator's run 0"
                                                                : "; the output differs from the simulator's run 0");
    }
}

static void timed_out(GradeCtx *c, int ti, int secs)
{
    if (ti < 0) {
        snprintf(c->r->gpu_note, sizeof c->r->gpu_note, "the GPU setup took more than %d s and was stopped", secs);
        return;
    }
    GradeTest *T = &c->tests[ti];
    GradeFinding f;
    memset(&f, 0, sizeof f);
    snprintf(f.kind, sizeof f.kind, "timeout");
    snprintf(f.backend, sizeof f.backend, "gpu");
    snprintf(f.file, sizeof f.file, "%s", c->r->student);
    snprintf(f.msg, sizeof f.msg, "the kernel was still running on the GPU after %d s; its process was killed "
                                  "(an endless loop?)", secs);
    f.test = ti;
    f.run = -1;
    grade_command(c, T, "run", -1, f.replay, sizeof f.replay);
    grade_finding_add(c, ti, &f, NULL);
    T->gpu_done = T->gpu_failed = true;
    snprintf(T->gpu, sizeof T->gpu, "timeout: still running after %d s, stopped", secs);
    for (int k = ti + 1; k < c->ex->ntests; k++)
        snprintf(c->tests[k].gpu, sizeof c->tests[k].gpu, "not run: the GPU part stopped at the timeout of %s",
                 c->ex->tests[ti].name);
}

/* One GPU process running tests first ..; the test whose kernel faulted
 * (the process ended after it), or -1 when it ran to the end, timed out,
 * or could not start. */
static int gpu_process(GradeCtx *c, int first, bool announce)
{
    GradeReport *r = c->r;
    int faulted = -1;
    int fds[2];
    /* close-on-exec: the programs other graders of a class start meanwhile
     * must not hold its write end open (its end of file is how the child's
     * end is seen) */
    if (pipe2(fds, O_CLOEXEC)) {
        snprintf(r->gpu_note, sizeof r->gpu_note, "cannot make a pipe for the GPU process: %s", strerror(errno));
        return -1;
    }
    /* the same mechanism as nvcc's: a private folder, its own process group
     * killed with warpsim; no address-space limit (a CUDA context maps far
     * more than it uses), the wall limit is this loop's */
    char why[256];
    Sandbox *sb = sandbox_new("gpu", why, sizeof why);
    SandboxLimits lim = {.file_size = 256ull << 20};
    int pid = sb ? sandbox_fork(sb, &lim, why, sizeof why) : -1;
    if (pid == 0) {
        close(fds[0]);
        signal(SIGPIPE, SIG_DFL);
        /* a compile for the GPU's arch makes its folder inside this one,
         * which the parent removes however the child ends */
        setenv("TMPDIR", sandbox_dir(sb), 1);
        child(c, fds[1], first, announce);
    }
    close(fds[1]);
    if (pid < 0) {
        close(fds[0]);
        sandbox_free(sb);
        snprintf(r->gpu_note, sizeof r->gpu_note, "cannot start the GPU process: %s", why);
        return -1;
    }
    int secs = c->o->gpu_timeout > 0 ? c->o->gpu_timeout : GRADE_GPU_TIMEOUT;
    int compile_secs = (int)c->cin.limits.wall_seconds;
    double deadline = now() + compile_secs + secs; /* setup may compile for the GPU's arch */
    int cur = -1;
    bool killed = false;
    GpuMsg m;
    size_t have = 0;
    for (;;) {
        if (sandbox_signaled())
            break; /* warpsim is being stopped: sandbox_reap kills the child and re-raises */
        double left = deadline - now();
        if (left > 0.2)
            left = 0.2; /* wake up now and then to notice a signal */
        struct pollfd p = {.fd = fds[0], .events = POLLIN};
        int pr = deadline - now() > 0 ? poll(&p, 1, (int)(left * 1000) + 1) : 0;
        if (pr < 0 && errno == EINTR)
            continue;
        if (pr == 0 && deadline - now() > 0)
            continue;
        if (pr == 0) {
            killed = true;
            timed_out(c, cur, cur < 0 ? compile_secs + secs : secs);
            break;
        }
        ssize_t n = read(fds[0], (char *)&m + have, sizeof m - have);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        have += (size_t)n;
        if (have < sizeof m)
            continue;
        have = 0;
        deadline = now() + secs;
        if ((m.type == MSG_NODEVICE || m.type == MSG_SETUP_FAILED) && !announce) {
            m.text[sizeof m.text - 1] = 0; /* a fresh process after a fault could not start */
            for (int k = first; k < c->ex->ntests; k++)
                snprintf(c->tests[k].gpu, sizeof c->tests[k].gpu, "not run: after the fault, the GPU could not be "
                         "opened again: %.300s", m.text);
        } else if (m.type == MSG_NODEVICE || m.type == MSG_SETUP_FAILED) {
            m.text[sizeof m.text - 1] = 0;
            snprintf(r->gpu_note, sizeof r->gpu_note, "%s%.450s", m.type == MSG_NODEVICE ? "no GPU: " : "", m.text);
        } else if (m.type == MSG_READY) {
            r->gpu_ran = true;
            m.text[sizeof m.text - 1] = 0;
            snprintf(r->gpu_note, sizeof r->gpu_note, "%.450s", m.text);
        } else if (m.type == MSG_START && m.test >= 0 && m.test < c->ex->ntests) {
            cur = m.test;
        } else if (m.type == MSG_DONE && m.test >= 0 && m.test < c->ex->ntests) {
            m.text[sizeof m.text - 1] = 0;
            took_result(c, &m);
            if (m.status == SIM_ERR_FAULT)
                faulted = m.test;
            cur = -1;
        }
    }
    close(fds[0]);
    int st = sandbox_reap(pid);
    sandbox_free(sb);
    if (!killed && st != -1 && WIFSIGNALED(st) && WTERMSIG(st) != SIGKILL && cur >= 0)
        snprintf(c->tests[cur].gpu, sizeof c->tests[cur].gpu, "the GPU process died (signal %d) in this test",
                 WTERMSIG(st));
    return killed ? -1 : faulted;
}

/* One grading's GPU part at a time in this process: a class graded side by
 * side shares one GPU, and two contexts on it at once would count against
 * each other's timeout; a forked GPU child also must not inherit another's
 * pipe.  The simulator's runs of the others go on meanwhile. */
static pthread_mutex_t gpu_lock = PTHREAD_MUTEX_INITIALIZER;

void grade_gpu(GradeCtx *c)
{
    GradeReport *r = c->r;
    pthread_mutex_lock(&gpu_lock);
    for (int first = 0, faulted; first < c->ex->ntests; first = faulted + 1)
        if ((faulted = gpu_process(c, first, first == 0)) < 0 || sandbox_signaled())
            break;
    pthread_mutex_unlock(&gpu_lock);
    if (r->gpu_ran) {
        int agree = 0;
        for (int ti = 0; ti < c->ex->ntests; ti++)
            agree += c->tests[ti].gpu_done && !c->tests[ti].gpu_failed;
        size_t k = strlen(r->gpu_note);
        snprintf(r->gpu_note + k, sizeof r->gpu_note - k, ": %d of %d tests correct on it", agree, c->ex->ntests);
    }
}
