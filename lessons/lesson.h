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
    /* The exercise `warpsim grade` checks (exercise.h); NULL: none yet. */
    const Exercise *exercise;
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

/* Open a simulator for env->arch and load the lesson's kernel.ptx.  On
 * failure prints the problem to stderr and returns false. */
bool lesson_open(const LessonEnv *env, Device **dev, DeviceModule **mod);

/* One launch of a lesson kernel over int buffers: a convenience for
 * harnesses.  Returns false (after printing) when the launch failed. */
bool lesson_launch(Device *dev, DeviceModule *mod, const char *kernel, unsigned grid,
                   unsigned block, void **args, DeviceStats *stats);

/* Harnesses (lessons/NN-topic/harness.c). */
int lesson01_run(const LessonEnv *env);

/* Exercises (lessons/NN-topic/exercise/grade.c). */
extern const Exercise lesson01_exercise;

#endif
