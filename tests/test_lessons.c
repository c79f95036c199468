/* test_lessons.c: the committed PTX is what the committed .cu produces.
 * For every lessons/NN-topic/kernel.cu, tests/kernels/NAME.cu and
 * tests/conformance/NAME.cu, regenerate
 * the PTX with the toolkit on this machine (scripts/gen_ptx.sh) and compare
 * it with the committed .ptx byte for byte.  Skipped, saying so, when no
 * nvcc is found. */
#include <glob.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "source.h"
#include "nvcc_probe.h"

static char *slurp_cmd(const char *cmd, size_t *len)
{
    FILE *p = popen(cmd, "r");
    if (!p)
        return NULL;
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    while (buf) {
        n += fread(buf + n, 1, cap - n, p);
        if (n < cap)
            break;
        cap *= 2;
        buf = realloc(buf, cap);
    }
    int st = pclose(p);
    if (st != 0) {
        free(buf);
        return NULL;
    }
    *len = n;
    return buf;
}

static void check_pattern(const char *pattern, int *checked)
{
    glob_t g;
    if (glob(pattern, 0, NULL, &g))
        return;
    for (size_t i = 0; i < g.gl_pathc; i++) {
        const char *cu = g.gl_pathv[i];
        char ptx[1024], cmd[2200], msg[256];
        snprintf(ptx, sizeof ptx, "%.*s.ptx", (int)(strlen(cu) - 3), cu);
        size_t clen = 0, glen = 0;
        char *committed = source_read_file(ptx, &clen, msg, sizeof msg);
        if (!committed)
            fail_msg("%s has no committed PTX (%s): run make ptx", cu, msg);
        snprintf(cmd, sizeof cmd, "sh scripts/gen_ptx.sh %s -", cu);
        char *fresh = slurp_cmd(cmd, &glen);
        if (!fresh)
            fail_msg("nvcc failed on %s", cu);
        if (clen != glen || memcmp(committed, fresh, clen))
            fail_msg("%s is not what %s compiles to with this toolkit: run `make ptx` and commit", ptx, cu);
        free(committed);
        free(fresh);
        (*checked)++;
    }
    globfree(&g);
}

static void test_committed_ptx_matches_the_cu(void **s)
{
    (void)s;
    need_working_nvcc("the committed PTX was not checked against the .cu files");
    int checked = 0;
    check_pattern("lessons/[0-9]*/kernel.cu", &checked);
    check_pattern("tests/kernels/*.cu", &checked);
    check_pattern("tests/conformance/*.cu", &checked);
    assert_true(checked >= 1);
    printf("checked %d kernels\n", checked);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_committed_ptx_matches_the_cu),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
