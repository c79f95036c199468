/* lesson_fixture.h: what the lesson tests share -- a lesson's xcheck.txt
 * read through the xcheck library (at least min launches), then run by
 * `warpsim xcheck SLUG --backend sim` (a second simulator standing in for
 * the GPU), which must find no mismatch.  The output is returned for
 * checks of its own.  Include after cmocka.h. */
#ifndef WARPSIM_TEST_LESSON_FIXTURE_H
#define WARPSIM_TEST_LESSON_FIXTURE_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

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

#endif
