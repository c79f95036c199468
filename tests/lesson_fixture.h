/* lesson_fixture.h: what the lesson tests share -- a lesson's xcheck.txt
 * read through the xcheck library (at least min launches), then run by
 * `warpsim xcheck SLUG --backend sim` (a second simulator standing in for
 * the GPU), which must find no mismatch.  The output is returned for
 * checks of its own.  And a lesson kernel that the H100's timing recording
 * describes must be the timing suite's kernel instruction for instruction:
 * expect_same_entry compares the two PTX entries.  Also: a lesson's harness
 * run into a string (lesson_output), a file read whole (lesson_read_text),
 * white space squashed (lesson_squash), the claims a harness prints and
 * its README says (lesson_expect_claims), and one figure of
 * traces/hw/timing-h100.json (lesson_h100).  Include after cmocka.h. */
#ifndef WARPSIM_TEST_LESSON_FIXTURE_H
#define WARPSIM_TEST_LESSON_FIXTURE_H

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lesson.h"
#include "source.h"
#include "xcheck.h"

static inline const char *lesson_xcheck_runs(const char *slug, int min)
{
    XcheckLaunch *ls;
    int n;
    char msg[512], path[256];
    snprintf(path, sizeof path, "lessons/%s/xcheck.txt", slug);
    if (!xcheck_read_file(path, &ls, &n, msg, sizeof msg))
        fail_msg("%s", msg);
    assert_true(n >= min);
    for (int i = 0; i < n; i++)
        xcheck_launch_free(&ls[i]);
    free(ls);
    const char *w = getenv("WARPSIM");
    char cmd[512];
    static char out[1 << 16];
    snprintf(cmd, sizeof cmd, "%s xcheck %s --backend sim 2>&1", w ? w : "build/warpsim", slug);
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    size_t got = fread(out, 1, sizeof out - 1, p);
    out[got] = 0;
    int status = pclose(p);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
        fail_msg("warpsim xcheck %s --backend sim:\n%s", slug, out);
    assert_non_null(strstr(out, " 0 mismatches"));
    return out;
}

/* What lesson `number`'s harness prints, run from folder dir on sm_90;
 * its exit status in *rc.  The caller frees the text. */
static inline char *lesson_output(const char *number, const char *dir, int *rc)
{
    const Lesson *l = lesson_find(number);
    assert_non_null(l);
    assert_non_null(l->run);
    static char *text;            /* static: gcc takes the stream's pointer for a local's address */
    static size_t len;
    text = NULL;
    len = 0;
    FILE *f = open_memstream(&text, &len);
    assert_non_null(f);
    LessonEnv env = {.dir = dir, .arch = "sm_90", .out = f};
    *rc = l->run(&env);
    fclose(f);
    return text;
}

/* The output of a shell command (stdout and stderr as the command
 * redirects them), malloc'd; the test fails when it cannot be started. */
static inline char *lesson_run_cmd(const char *cmd)
{
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    size_t cap = 1 << 16, n = 0, got;
    char *buf = malloc(cap + 1);
    assert_non_null(buf);
    while ((got = fread(buf + n, 1, cap - n, p)) > 0) {
        n += got;
        if (n == cap) {
            buf = realloc(buf, (cap *= 2) + 1);
            assert_non_null(buf);
        }
    }
    buf[n] = 0;
    pclose(p);
    return buf;
}

/* `WARPSIM run ARGS --trace T --trace-level LEVEL`, then `trace dump T`:
 * the dump (malloc'd; empty when the run failed).  T is a temporary file,
 * removed after. */
static inline char *lesson_trace_dump(const char *warpsim, const char *args, const char *level)
{
    char path[] = "/tmp/warpsim-lesson-trace-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    size_t cap = strlen(args) + 2 * strlen(warpsim) + 2 * sizeof path + 128;
    char *cmd = malloc(cap);
    assert_non_null(cmd);
    snprintf(cmd, cap, "%s run %s --trace %s --trace-level %s >/dev/null 2>&1 && %s trace dump %s 2>&1", warpsim, args,
             path, level, warpsim, path);
    char *out = lesson_run_cmd(cmd);
    free(cmd);
    unlink(path);
    return out;
}

/* The file at path, whole (the test fails when it cannot be read). */
static inline char *lesson_read_text(const char *path)
{
    char msg[256];
    size_t len;
    char *t = source_read_file(path, &len, msg, sizeof msg);
    if (!t)
        fail_msg("%s", msg);
    return t;
}

/* t with every run of white space made one space (none at the start): a
 * README's claims are found whatever its line breaks.  Freed by the caller. */
static inline char *lesson_squash(const char *t)
{
    char *s = malloc(strlen(t) + 1), *w = s;
    assert_non_null(s);
    for (; *t; t++) {
        if (isspace((unsigned char)*t)) {
            if (w > s && w[-1] != ' ')
                *w++ = ' ';
        } else {
            *w++ = *t;
        }
    }
    *w = 0;
    return s;
}

/* A check a lesson's harness prints and the README's words for it. */
typedef struct {
    const char *harness;   /* the check's line ("holds:  ...") */
    const char *readme;    /* the README's words */
} LessonClaim;

/* Lesson `lesson`'s output t prints every claim and its README text r says
 * each; every "Question:" is answered by a "holds:" after it.  The number
 * of questions. */
static inline int lesson_expect_claims(int lesson, const char *t, const char *r, const LessonClaim *c, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (!strstr(t, c[i].harness))
            fail_msg("lesson %d did not print \"%s\":\n%s", lesson, c[i].harness, t);
        if (!strstr(r, c[i].readme))
            fail_msg("lesson %d's README.md no longer says \"%s\"", lesson, c[i].readme);
    }
    int questions = 0;
    for (const char *q = t; (q = strstr(q, "Question:")) != NULL; questions++) {
        q = strstr(q, "holds:");
        assert_non_null(q);
    }
    return questions;
}

/* Figure key of launch `launch` in the text rec of traces/hw/timing-h100.json. */
static inline double lesson_h100(const char *rec, const char *launch, const char *key)
{
    char want[96];
    snprintf(want, sizeof want, "\"launch\": \"%s\"", launch);
    const char *a = strstr(rec, want);
    if (!a)
        fail_msg("timing-h100.json has no launch %s", launch);
    const char *end = strstr(a + 1, "\"launch\": ");
    snprintf(want, sizeof want, "\"%s\": ", key);
    const char *k = strstr(a, want);
    if (!k || (end && k > end))
        fail_msg("timing-h100.json: launch %s has no %s", launch, key);
    return strtod(k + strlen(want), NULL);
}

/* Entry `name` of the PTX file at path, its instructions only: from its
 * .entry line to the closing brace, .loc lines and comments left out (they
 * name source lines and files, which differ between two .cu files), and
 * labels $L__BB<k>_<n> written $L__BB_<n> (k is the function's place in
 * its file). */
static inline char *lesson_entry_text(const char *path, const char *name)
{
    FILE *f = fopen(path, "r");
    if (!f)
        fail_msg("cannot read %s", path);
    static char line[4096];
    char want[256];
    snprintf(want, sizeof want, ".entry %s(", name);
    size_t cap = 1 << 16, n = 0;
    char *text = malloc(cap);
    assert_non_null(text);
    text[0] = 0;
    int in = 0;
    while (fgets(line, sizeof line, f)) {
        if (!in && strstr(line, want))
            in = 1;
        if (!in)
            continue;
        const char *p = line;
        while (*p == ' ' || *p == '\t')
            p++;
        if (!strncmp(p, ".loc", 4) || !strncmp(p, "//", 2))
            continue;
        for (char *l = strstr(line, "$L__BB"); l; l = strstr(l + 6, "$L__BB")) {
            char *d = l + 6, *e = d;
            while (*e >= '0' && *e <= '9')
                e++;
            if (e > d && *e == '_')
                memmove(d, e, strlen(e) + 1);
        }
        size_t k = strlen(line);
        if (n + k + 1 > cap) {
            text = realloc(text, cap = 2 * (n + k + 1));
            assert_non_null(text);
        }
        memcpy(text + n, line, k + 1);
        n += k;
        if (line[0] == '}')
            break;
    }
    fclose(f);
    if (!in)
        fail_msg("%s has no entry %s", path, name);
    return text;
}

static inline void expect_same_entry(const char *a, const char *b, const char *name)
{
    char *x = lesson_entry_text(a, name), *y = lesson_entry_text(b, name);
    if (strcmp(x, y))
        fail_msg("%s differs between %s and %s: the H100 recording of one no longer describes the other", name, a, b);
    free(x);
    free(y);
}

#endif
