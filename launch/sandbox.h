/* sandbox.h: running the CUDA toolkit's programs (nvcc, ptxas) on files a
 * student wrote, as hostile input.  A Sandbox is a private temporary folder
 * (mode 0700) that the caller copies the input into under a fixed name; a
 * program runs there from an argument vector (never a shell), with stdin
 * /dev/null, in its own process group, under limits on address space, CPU
 * time, file size and open files, and a wall-clock timeout.  The whole group
 * is killed when the program ends, times out, or warpsim gets SIGINT/SIGTERM
 * (the signal is then raised again once the group is gone), so no process
 * outlives the call.  sandbox_free removes the folder with all it holds.
 * Threads may run programs side by side, each in a sandbox of its own: the
 * handlers are installed while any of them waits, and a caught signal
 * stops them all. */
#ifndef WARPSIM_SANDBOX_H
#define WARPSIM_SANDBOX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Limits for one program; 0 in a field means no limit of that kind. */
typedef struct {
    double wall_seconds;      /* the group is killed after this long */
    unsigned cpu_seconds;     /* RLIMIT_CPU of each process */
    uint64_t address_space;   /* RLIMIT_AS of each process, bytes */
    uint64_t file_size;       /* RLIMIT_FSIZE: the largest file it may write */
    unsigned open_files;      /* RLIMIT_NOFILE */
} SandboxLimits;

/* 120 s wall and CPU, 4 GiB of address space, 256 MiB files, 256 open
 * files: enough for nvcc on any course kernel, not enough for
 * `#include </dev/zero>` to take the machine down. */
void sandbox_limits_default(SandboxLimits *l);

typedef struct Sandbox Sandbox;

/* A new private folder under $TMPDIR (or /tmp), named warpsim-TAG-XXXXXX.
 * NULL with msg filled when it cannot be made. */
Sandbox *sandbox_new(const char *tag, char *msg, size_t cap);

/* Its absolute path (owned by the sandbox). */
const char *sandbox_dir(const Sandbox *sb);

/* Copy the regular file src into the sandbox as name (a plain file name,
 * no '/'), reading at most max_bytes.  Devices, FIFOs, folders and larger
 * files are refused (false, msg names src and why). */
bool sandbox_copy_in(Sandbox *sb, const char *src, const char *name, uint64_t max_bytes, char *msg,
                     size_t cap);

/* Write len bytes of data into the sandbox as the new file name (a plain
 * file name, no '/'): text the caller already holds, such as a submission
 * read once before its compile.  false with msg filled when it cannot. */
bool sandbox_write(Sandbox *sb, const char *name, const void *data, size_t len, char *msg, size_t cap);

/* Make name (a plain file name) in the sandbox a symbolic link to target. */
bool sandbox_link(Sandbox *sb, const char *name, const char *target, char *msg, size_t cap);

/* Read the file name of the sandbox whole (at most max_bytes, NUL added).
 * NULL with msg filled when absent or larger. */
char *sandbox_read(const Sandbox *sb, const char *name, uint64_t max_bytes, size_t *len, char *msg,
                   size_t cap);

/* Remove the folder and everything in it (links are removed, never
 * followed), then free sb.  NULL is fine. */
void sandbox_free(Sandbox *sb);

/* How a program ended. */
typedef enum {
    SANDBOX_EXITED = 0,       /* code = its exit status */
    SANDBOX_SIGNALED,         /* code = the signal (a limit: SIGXCPU, SIGXFSZ, SIGKILL, SIGSEGV ...) */
    SANDBOX_TIMED_OUT,        /* the wall limit passed; the group was killed */
    SANDBOX_INTERRUPTED,      /* warpsim got SIGINT/SIGTERM; the group was killed */
    SANDBOX_NOT_STARTED       /* fork or exec failed (code = errno) */
} SandboxEnd;

typedef struct {
    SandboxEnd end;
    int code;
    char *output;             /* stdout and stderr together, NUL-terminated, at
                                 most output_cap bytes (malloc'd; caller frees) */
    size_t output_len;
    bool output_truncated;    /* it wrote more than output_cap */
    double seconds;           /* wall time it ran */
} SandboxResult;

/* Run argv (argv[0] an absolute path; argv NULL-terminated) in the sandbox
 * folder under lim.  Fills *r and returns true when the program ran to
 * an end (any of SANDBOX_EXITED .. SANDBOX_INTERRUPTED); false with msg
 * filled (and r->end = SANDBOX_NOT_STARTED) when it could not be started.
 * When it was interrupted, the caller should clean up and stop: the
 * folders of every sandbox not yet freed are removed and the signal is
 * raised again before this returns, so a process without its own handler
 * for it ends there, leaving nothing behind. */
bool sandbox_run(Sandbox *sb, const char *const argv[], const SandboxLimits *lim, size_t output_cap,
                 SandboxResult *r, char *msg, size_t cap);

/* For a program of warpsim's own (a child that opens the GPU): fork a
 * child set up as sandbox_run's programs are -- in sb's folder, its own
 * process group, stdin and stdout /dev/null, killed if warpsim dies, under
 * lim's rlimits (lim's wall limit is the caller's to keep).  Returns 0 in
 * the child, which must end with _exit; the child's pid in the parent; -1
 * with msg filled when fork fails.  From here until sandbox_reap,
 * SIGINT/SIGTERM are caught: the caller's loop asks sandbox_signaled. */
int sandbox_fork(Sandbox *sb, const SandboxLimits *lim, char *msg, size_t cap);

/* The SIGINT/SIGTERM caught since sandbox_fork; 0 none. */
int sandbox_signaled(void);

/* Kill the process group of pid (from sandbox_fork), wait for pid, put the
 * signal handlers back and, after a caught signal, remove the folders of
 * every sandbox not yet freed and raise it again.  Returns pid's
 * wait status (-1 when it could not be had). */
int sandbox_reap(int pid);

/* One line saying how a run ended ("exit status 1", "killed after the 120 s
 * time limit", "killed by signal 9 (a resource limit)"), into buf. */
const char *sandbox_describe(const SandboxResult *r, const SandboxLimits *lim, char *buf, size_t cap);

void sandbox_result_free(SandboxResult *r);

#endif
