/* lesson.h: the lessons and the runner behind `warpsim lesson`.
 *
 * A lesson is a folder lessons/NN-topic/ with kernel.cu, its committed
 * kernel.ptx (what both the simulator and a GPU run), README.md (the text a
 * student reads), an exercise/ folder, and usually a harness (harness.c)
 * that launches the kernels through the host API (sim/device.h) and shows
 * the results side by side.  The registry in lesson.c lists them all. */
#ifndef WARPSIM_LESSON_H
#define WARPSIM_LESSON_H

#include <stdbool.h>
#include <stdio.h>

#include "device.h"
#include "exercise.h"

typedef struct {
    const char *dir;     /* the lesson's folder, e.g. "/.../lessons/01-threads-and-races" */
    const char *arch;    /* arch profile to simulate ("sm_90") */
    FILE *out;           /* where the lesson talks */
} LessonEnv;

typedef struct {
    int number;
    const char *slug;    /* "01-threads-and-races" (the folder name) */
    const char *title;
    /* Runs the lesson; returns the exit status (0 ok, 1 a result was wrong
     * or a kernel faulted, 2 the lesson could not run).  NULL: the lesson has
     * no harness yet and `warpsim lesson` shows its text. */
    int (*run)(const LessonEnv *env);
    /* The exercise the lesson sets, for the grader (exercise.h,
     * grade_exercise.h); NULL: none yet. */
    const GradeExercise *exercise;
} Lesson;

int lesson_count(void);
const Lesson *lesson_at(int i);
/* By number ("1", "01") or folder name ("01-threads-and-races"); NULL when
 * unknown. */
const Lesson *lesson_find(const char *name);

/* The folder holding the lessons: $WARPSIM_LESSONS, else lessons/ next to
 * the executable's parent (build/warpsim -> lessons/), else ./lessons.
 * Writes into buf and returns it, or NULL when none exists. */
char *lesson_root(char *buf, size_t cap);
/* The headers the course ships for kernels to include (lesson_root's
 * include/: tile.cuh), for `run`, `explore`, `step` and `grade` to put on
 * a .cu's include path.  NULL when there is none. */
char *lesson_include_dir(char *buf, size_t cap);

/* Open a simulator for env->arch and load the lesson's kernel.ptx.  On
 * failure prints the problem to stderr and returns false. */
bool lesson_open(const LessonEnv *env, Device **dev, DeviceModule **mod);
/* The same, and *ptx keeps the PTX text (malloc'd, the caller frees it;
 * NULL on failure) for a harness that quotes the PTX to the student. */
bool lesson_open_text(const LessonEnv *env, Device **dev, DeviceModule **mod, char **ptx);

/* One launch of a lesson kernel over int buffers: a convenience for
 * harnesses.  Returns false (after printing) when the launch failed. */
bool lesson_launch(Device *dev, DeviceModule *mod, const char *kernel, unsigned grid,
                   unsigned block, void **args, DeviceStats *stats);

/* The same with a full launch configuration (schedule, atomic order,
 * divergence model, seed, checks).  SIM_OK; SIM_ERR_FAULT with *fault
 * filled and nothing printed (a lesson may expect the fault); any other
 * status after printing the problem. */
SimStatus lesson_launch_cfg(DeviceModule *mod, const char *kernel, const DeviceLaunch *cfg, void **args,
                            DeviceStats *stats, DeviceFault *fault);

/* A new device buffer of bytes, filled from src (zero-filled when src is
 * NULL), and reading one back.  false after printing the problem. */
bool lesson_upload(Device *dev, const void *src, size_t bytes, DevicePtr *out);
bool lesson_download(Device *dev, void *dst, DevicePtr src, size_t bytes);

/* One launch over 32-bit buffers, the shape most lesson kernels have:
 * optionally an input buffer (n_in elements), then nout zero-filled output
 * buffers (out_n[k] elements each), then up to two int scalars, in that
 * parameter order.  cfg carries the schedule, atomic order, divergence
 * model, seed and checks; lesson_run32 fills in its grid and block. */
typedef struct {
    const char *kernel;
    unsigned grid, block;      /* 1-D launches */
    const void *in;            /* NULL: the kernel takes no input buffer */
    int n_in;
    void *in_back;             /* non-NULL: the input buffer is read back here */
    int nout;                  /* at most 4 */
    int out_n[4];
    int nscalar;               /* at most 2 */
    int scalar[2];
    DeviceLaunch cfg;
} LessonLaunch;

/* Run l and read the outputs back into out[k] (out_n[k] * 4 bytes each).
 * SIM_OK; SIM_ERR_FAULT with *fault filled (fault may be NULL) and the
 * outputs as the fault left them; another status after printing. */
SimStatus lesson_run32(Device *dev, DeviceModule *mod, LessonLaunch *l, void *out[4], DeviceStats *stats,
                       DeviceFault *fault);

/* Harnesses (lessons/NN-topic/harness.c). */
int lesson01_run(const LessonEnv *env);
int lesson02_run(const LessonEnv *env);
int lesson03_run(const LessonEnv *env);
int lesson04_run(const LessonEnv *env);
int lesson05_run(const LessonEnv *env);
int lesson06_run(const LessonEnv *env);
int lesson07_run(const LessonEnv *env);
int lesson08_run(const LessonEnv *env);
int lesson09_run(const LessonEnv *env);
int lesson10_run(const LessonEnv *env);
int lesson11_run(const LessonEnv *env);
int lesson12_run(const LessonEnv *env);
int lesson13_run(const LessonEnv *env);
int lesson14_run(const LessonEnv *env);

#endif
