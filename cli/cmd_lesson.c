/* cmd_lesson.c: `warpsim lesson N` -- run a lesson's kernels in the
 * simulator and explain what happened; `--list` shows the lessons. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "lesson.h"
#include "source.h"

static const char lesson_help[] =
    "usage: warpsim lesson N | NAME [--arch sm_90 | --gpu NAME]\n"
    "       warpsim lesson --list\n"
    "\n"
    "Runs lesson N's kernels in the simulator and explains the results.  N is the\n"
    "lesson number (1) or its folder name (01-threads-and-races).  Each lesson lives\n"
    "in lessons/NN-topic/: kernel.cu (the CUDA a GPU runs), kernel.ptx (what nvcc made\n"
    "of it, which the simulator runs unchanged), README.md (the text) and exercise/.\n";

int cmd_lesson(int argc, char **argv)
{
    const char *name = NULL, *arch = "sm_90";
    bool list = false;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            fputs(lesson_help, stdout);
            return 0;
        } else if (!strcmp(argv[i], "--list")) {
            list = true;
        } else if ((!strcmp(argv[i], "--arch") || !strcmp(argv[i], "--gpu")) && i + 1 < argc) {
            arch = argv[++i];
        } else if (argv[i][0] == '-') {
            fprintf(stderr, "warpsim lesson: unknown option '%s' (see warpsim lesson --help)\n", argv[i]);
            return 2;
        } else if (!name) {
            name = argv[i];
        } else {
            fprintf(stderr, "warpsim lesson: one lesson at a time ('%s' is extra)\n", argv[i]);
            return 2;
        }
    }
    if (list || !name) {
        FILE *o = list ? stdout : stderr;
        fprintf(o, "%slessons:\n", list ? "" : "warpsim lesson: which lesson?  ");
        for (int i = 0; i < lesson_count(); i++)
            fprintf(o, "  %2d  %-24s %s\n", lesson_at(i)->number, lesson_at(i)->slug, lesson_at(i)->title);
        return list ? 0 : 2;
    }
    const Lesson *l = lesson_find(name);
    if (!l) {
        fprintf(stderr, "warpsim lesson: no lesson '%s' (warpsim lesson --list shows them)\n", name);
        return 2;
    }
    char root[1024], dir[1200];
    if (!lesson_root(root, sizeof root)) {
        fprintf(stderr, "warpsim lesson: cannot find the lessons folder; run from the warpsim checkout "
                        "or set WARPSIM_LESSONS\n");
        return 2;
    }
    snprintf(dir, sizeof dir, "%s/%s", root, l->slug);
    LessonEnv env = {.dir = dir, .arch = arch, .out = stdout};
    if (l->run)
        return l->run(&env);
    /* no harness yet: show the lesson text */
    char path[1300], msg[256];
    snprintf(path, sizeof path, "%s/README.md", dir);
    size_t len;
    char *text = source_read_file(path, &len, msg, sizeof msg);
    if (!text) {
        fprintf(stderr, "warpsim lesson: %s\n", msg);
        return 2;
    }
    fwrite(text, 1, len, stdout);
    free(text);
    return 0;
}
