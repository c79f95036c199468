/* cmd_lesson.c: `warpsim lesson N` -- run a lesson's kernels in the
 * simulator and explain what happened; `--list` shows the lessons. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd.h"
#include "launch.h"
#include "lesson.h"
#include "source.h"

static const char lesson_help[] =
    "usage: warpsim lesson N | NAME [--arch sm_90 | --gpu NAME]\n"
    "       warpsim lesson --list\n"
    "\n"
    "Runs lesson N's kernels in the simulator and explains the results.  N is the\n"
    "lesson number (1) or its folder name (01-threads-and-races).  Each lesson lives\n"
    "in lessons/NN-topic/: kernel.cu (the CUDA a GPU runs), kernel.ptx (what nvcc made\n"
    "of it, which the simulator runs unchanged), README.md (the text) and exercise/.\n"
    "\n"
    "At the end it shows the `warpsim step` command that steps through the lesson's\n"
    "kernel warp by warp (the first one its README gives), and the commands that\n"
    "watch it in the visualizer; on a terminal it offers to start the stepper.\n"
    "\n"
    "Exit status: 0 the lesson ran, 1 one of its checks failed, 2 bad usage or an\n"
    "unknown lesson.\n";

/* The lesson's stepper launch as tokens (argv[0] = "step"): the first
 * `warpsim step ...` command of its README (with its \ continuations, up
 * to a <<here-document), with the README's lessons/SLUG/ paths pointing at
 * dir when they do not exist from here.  0 tokens when it gives none. */
static int step_command(const Lesson *l, const char *dir, char ***toks)
{
    char path[1300], msg[256];
    snprintf(path, sizeof path, "%s/README.md", dir);
    size_t len;
    char *text = source_read_file(path, &len, msg, sizeof msg);
    *toks = NULL;
    if (!text)
        return 0;
    char *cmd = NULL;
    for (char *line = text; line && !cmd; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL)
        if (!strncmp(line, "warpsim step ", 13))
            cmd = line + 8;
    int n = 0;
    if (cmd) {
        size_t k = 0;
        for (char *p = cmd; *p; p++) { /* join continuation lines in place */
            if (*p == '\\' && p[1] == '\n') {
                p++;
                cmd[k++] = ' ';
                continue;
            }
            if (*p == '\n')
                break;
            cmd[k++] = *p;
        }
        cmd[k] = 0;
        char *here = strstr(cmd, "<<");
        if (here)
            *here = 0;
        n = launch_tokenize(cmd, toks, msg, sizeof msg);
    }
    char prefix[128];
    snprintf(prefix, sizeof prefix, "lessons/%s/", l->slug);
    for (int i = 0; i < n; i++) {
        if (strncmp((*toks)[i], prefix, strlen(prefix)) || access((*toks)[i], R_OK) == 0)
            continue;
        char *moved = malloc(strlen(dir) + strlen((*toks)[i]) + 2);
        if (!moved)
            continue;
        sprintf(moved, "%s/%s", dir, (*toks)[i] + strlen(prefix));
        free((*toks)[i]);
        (*toks)[i] = moved;
    }
    free(text);
    return n < 0 ? 0 : n;
}

/* Print head, tokens from..n-1 and extra as one command line, wrapped
 * before an option that would pass 80 columns. */
static void print_command(const char *head, char **toks, int from, int n, const char *const *extra)
{
    int col = printf("  %s", head);
    for (int i = from; i < n || (extra && *extra); i++) {
        const char *t = i < n ? toks[i] : *extra++;
        int w = (int)strlen(t);
        if (t[0] == '-' && col + w > 76)
            col = printf(" \\\n    %s", t) - 3;
        else
            col += printf(" %s", t);
    }
    printf("\n");
}

/* The end of a lesson: how to step through and watch its kernel, and on a
 * terminal the offer to start the stepper now. */
static void offer_stepper(const Lesson *l, const char *dir)
{
    char **toks;
    int n = step_command(l, dir, &toks);
    if (n < 2 || strcmp(toks[0], "step")) {
        launch_tokens_free(toks);
        return;
    }
    printf("\nStep through this lesson's kernel warp by warp (break, step, print, where; help\n"
           "lists the commands; the lesson's README says what to look at):\n");
    print_command("warpsim step", toks, 1, n, NULL);
    printf("Or watch the launch in the visualizer:\n");
    static const char *const trace[] = {"--trace", "lesson.wst", "--trace-level", "memory", NULL};
    print_command("warpsim run", toks, 1, n, trace);
    printf("  warpsim viz lesson.wst\n");
    if (isatty(STDIN_FILENO) && isatty(STDOUT_FILENO)) {
        printf("step through it now? [y/N] ");
        fflush(stdout);
        char answer[32];
        if (fgets(answer, sizeof answer, stdin) && (answer[0] == 'y' || answer[0] == 'Y'))
            cmd_step(n, toks);
    }
    launch_tokens_free(toks);
}

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
    if (l->run) {
        int rc = l->run(&env);
        if (rc != 2)
            offer_stepper(l, dir);
        return rc;
    }
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
    offer_stepper(l, dir);
    return 0;
}
