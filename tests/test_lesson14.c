/* test_lesson14.c: lesson 14 (the host side) -- its harness runs and every
 * claim its README makes holds in the simulator (the PTX's target and
 * __CUDA_ARCH__, two modules with a variable each, lookup by name, the
 * param space and __grid_constant__, the device heap, per-kernel
 * attributes, idle SMs), the figures the README quotes are the ones the
 * harness prints or traces/hw records, ptxas says what the README says it
 * says (when the toolkit is here), and its xcheck.txt launches run clean. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "lesson_fixture.h"

#include "lesson.h"
#include "source.h"

#define DIR "lessons/14-host-side"

static void test_lesson14_is_listed(void **st)
{
    (void)st;
    const Lesson *l = lesson_find("14-host-side");
    assert_non_null(l);
    assert_int_equal(l->number, 14);
    assert_ptr_equal(lesson_find("14"), l);
    assert_non_null(l->run);
}

/* Each claim of the README, as the harness words its check, and the
 * README's words (white space squashed). */
static const LessonClaim claims[] = {
    {"holds:  every thread stores 900: __CUDA_ARCH__ for compute_90/sm_90", "Every thread stores 900."},
    {"holds:  the PTX holds 900 as a constant: nvcc chose it when it compiled the device pass",
     "the PTX holds 900 as a constant, `mov.u32 %r5, 900;`, chosen when nvcc compiled the device pass"},
    {"holds:  the PTX targets sm_90 and carries -lineinfo's .loc lines", "`-lineinfo` adds the `.loc` lines"},
    {"holds:  each module has its own g_calls, set from the module image: A counts 101, 102 and B 101",
     "A prints 101, then 102; B prints 101: each module has its own `g_calls`, set from the module image"},
    {"holds:  bump's PTX name is the mangled _Z4bumpPi", "`_Z4bumpPi`: C++ names are mangled"},
    {"holds:  a wrong name is refused, and the message lists the kernels the module has",
     "A wrong name is refused, and the message lists the kernels the module has"},
    {"holds:  both return the same table entries", "Both return the same table entries"},
    {"holds:  table_copy copies the 4 KB into local memory; table_grid_constant has none",
     "`table_copy` copies the 4 KB into local memory; `table_grid_constant` has none"},
    {"holds:  the copy makes table_copy at least 2x slower", "the copy makes `table_copy` at least 2 times slower"},
    {"holds:  all 32,764 bytes arrive: the sum is 8189", "all 32,764 bytes arrive, the sum of the 8,189 ones is 8189"},
    {"holds:  every heap_scratch thread gets its 400 bytes: sum = 100 i + 4950",
     "Every `heap_scratch` thread gets its 400 bytes (thread i sums 100 i + 4950)"},
    {"holds:  8 MB holds at most 8 of the 64 MB asked for: the rest get NULL",
     "8 MB holds at most 8 of the 64 MB asked for: the rest get NULL"},
    {"holds:  it writes through the null pointer and the launch faults",
     "It writes through the null pointer and the launch faults"},
    {"holds:  stage_a runs; stage_b, never opted in, is refused above 48 KB",
     "`stage_a` runs; `stage_b`, never opted in, is refused above 48 KB"},
    {"holds:  each kernel keeps its own carveout: stage_a's shared memory is over 4x stage_b's",
     "each kernel keeps its own carveout: `stage_a`'s shared memory is over 4 times `stage_b`'s"},
    {"holds:  twice the blocks take less than 1.1x the time: half the SMs were idle",
     "Twice the blocks take less than 1.1x the time: half the SMs were idle"},
    {"holds:  the launch overhead is over a quarter of the short launch",
     "the launch overhead is over a quarter of the short launch"},
};

/* The number after `key` in text t (the test fails when it is not there). */
static double number_after(const char *t, const char *key)
{
    const char *k = strstr(t, key);
    if (!k)
        fail_msg("no \"%s\" in:\n%s", key, t);
    return strtod(k + strlen(key), NULL);
}

static void test_lesson14_every_claim_holds(void **st)
{
    (void)st;
    int rc;
    char *t = lesson_output("14", DIR, &rc);
    char *raw = lesson_read_text(DIR "/README.md");
    char *r = lesson_squash(raw);
    if (rc || strstr(t, "WRONG"))
        fail_msg("lesson14_run returned %d:\n%s", rc, t);
    /* steps 1-6 ask 9 questions, each answered by a check */
    assert_int_equal(lesson_expect_claims(14, t, r, claims, sizeof claims / sizeof *claims), 9);

    /* the figures the README quotes are the ones the harness prints */
    assert_non_null(strstr(t, "     A: 101   A: 102   B: 101"));
    assert_non_null(strstr(t, "bumb -> no kernel named 'bumb'; the module's kernels are: which_arch, _Z4bumpPi"));
    double ratio = number_after(t, "table_copy takes ");
    if (ratio < 7.0 || ratio >= 8.5)
        fail_msg("the README says about 8 times; the harness says %.1fx", ratio);
    assert_non_null(strstr(r, "(about 8 times at 8 blocks of 256)"));
    assert_non_null(strstr(t, "heap_grab:    7 threads got 1 MB, 57 got NULL"));
    assert_non_null(strstr(r, "(the simulator: 7 got 1 MB, 57 NULL;"));
    assert_non_null(strstr(t, "1-byte write at global address 0x0"));
    assert_non_null(strstr(r, "\"1-byte write at global address 0x0 ... a device malloc returned NULL\""));
    assert_non_null(strstr(t, "stage_a's SM sets 228 KB aside for shared memory (L1 28 KB), stage_b's 32 KB (L1 224 KB)"));
    assert_non_null(strstr(r, "228 KB against 32 KB, leaving L1 28 KB against 224 KB"));
    double skip;
    char *row = strstr(t, "         66   ");
    assert_non_null(row);
    unsigned long long cyc, launch;
    assert_int_equal(sscanf(row, " %lf %llu %llu", &skip, &cyc, &launch), 3);
    char buf[64];
    snprintf(buf, sizeof buf, "(the model's %llu,%03llu cycles;", launch / 1000, launch % 1000);
    if (!strstr(r, buf))
        fail_msg("README.md lacks \"%s\"", buf);
    free(r);
    free(raw);
    free(t);
}

/* The README's header lines and constant are the committed PTX's. */
static void test_lesson14_readme_quotes_the_ptx(void **st)
{
    (void)st;
    char *p = lesson_read_text(DIR "/kernel.ptx");
    char *r = lesson_read_text(DIR "/README.md");
    assert_non_null(strstr(p, "\n.version 9.0\n.target sm_90\n"));
    assert_non_null(strstr(r, "```\n.version 9.0\n.target sm_90\n```"));
    assert_non_null(strstr(p, "mov.u32 \t%r5, 900;"));
    /* the 32,764 bytes: a pointer, then 8,189 ints */
    assert_non_null(strstr(p, "\t.param .u64 huge_params_param_0,\n\t.param .align 4 .b8 huge_params_param_1[32756]\n"));
    /* a __grid_constant__ address goes through cvta.param; the copy through the stack */
    assert_non_null(strstr(p, "cvta.param.u64"));
    assert_non_null(strstr(p, ".local .align 4 .b8 \t__local_depot3[4096];"));
    free(r);
    free(p);
}

/* The H100's empty kernel the README quotes is the recorded one. */
static void test_lesson14_h100_launch_overhead_is_recorded(void **st)
{
    (void)st;
    char *rec = lesson_read_text("traces/hw/timing-microbench-h100.json");
    char *raw = lesson_read_text(DIR "/README.md"), *r = lesson_squash(raw);
    const char *lo = strstr(rec, "\"launch_overhead\": {");
    assert_non_null(lo);
    double one = number_after(lo, "\"1\": ");
    char buf[96];
    snprintf(buf, sizeof buf, "an H100 takes %d,%03d cycles for an empty kernel of one block", (int)one / 1000,
             (int)one % 1000);
    if (!strstr(r, buf))
        fail_msg("README.md lacks \"%s\"", buf);
    free(r);
    free(raw);
    free(rec);
}

/* ptxas's words, as the README quotes them: the stack frames of the two
 * table kernels, and the refusal of one int more of parameters.  Skipped
 * when there is no ptxas beside nvcc. */
static void test_lesson14_ptxas_says_what_the_readme_says(void **st)
{
    (void)st;
    const char *nvcc = source_find_nvcc();
    char ptxas[1024];
    if (!nvcc || snprintf(ptxas, sizeof ptxas, "%.*sptxas", (int)(strrchr(nvcc, '/') ? strrchr(nvcc, '/') - nvcc + 1 : 0),
                          nvcc) >= (int)sizeof ptxas || access(ptxas, X_OK)) {
        printf("note: no ptxas found beside nvcc; ptxas's messages were not checked\n");
        skip();
    }
    char cmd[2400];
    snprintf(cmd, sizeof cmd, "%s -arch=sm_90 -v " DIR "/kernel.ptx -o /dev/null 2>&1", ptxas);
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    static char out[1 << 16];
    out[fread(out, 1, sizeof out - 1, p)] = 0;
    assert_int_equal(pclose(p), 0);
    const char *c = strstr(out, "Function properties for table_copy\n");
    const char *g = strstr(out, "Function properties for table_grid_constant\n");
    assert_non_null(c);
    assert_non_null(g);
    assert_true(!strncmp(strchr(c, '\n') + 1, "    4096 bytes stack frame", 26));
    assert_true(!strncmp(strchr(g, '\n') + 1, "    0 bytes stack frame", 23));
    char *raw = lesson_read_text(DIR "/README.md"), *r = lesson_squash(raw);
    assert_non_null(strstr(r, "\"4096 bytes stack frame\""));
    assert_non_null(strstr(r, "4096 bytes for `table_copy`, 0 for `table_grid_constant`"));

    /* one int more: the same PTX with 32,760 bytes of ints */
    char *ptx = lesson_read_text(DIR "/kernel.ptx");
    char *at = strstr(ptx, "huge_params_param_1[32756]");
    assert_non_null(at);
    memcpy(at + strlen("huge_params_param_1["), "32760", 5);
    char tmp[] = "/tmp/warpsim-l14-XXXXXX.ptx";
    int fd = mkstemps(tmp, 4);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "w");
    assert_non_null(f);
    fputs(ptx, f);
    fclose(f);
    snprintf(cmd, sizeof cmd, "%s -arch=sm_90 %s -o /dev/null 2>&1", ptxas, tmp);
    p = popen(cmd, "r");
    assert_non_null(p);
    out[fread(out, 1, sizeof out - 1, p)] = 0;
    assert_int_not_equal(pclose(p), 0);
    unlink(tmp);
    if (!strstr(out, "uses too much parameter space (0x8000 bytes, 0x7ffc max)"))
        fail_msg("ptxas said:\n%s", out);
    assert_non_null(strstr(r, "\"uses too much parameter space (0x8000 bytes, 0x7ffc max)\""));
    free(ptx);
    free(r);
    free(raw);
}

static void test_lesson14_xcheck_lines_parse_and_run(void **st)
{
    (void)st;
    const char *out = lesson_xcheck_runs("14-host-side", 10);
    assert_non_null(strstr(out, "10 launches checked, 0 mismatches"));
    /* the struct by value (val:i32[...]) on both sides, and its time claim */
    assert_non_null(strstr(out, "time: table_grid_constant (line 29) faster than table_copy (line 28) by 2x"));
    assert_non_null(strstr(out, "1 time claim judged, 0 failing"));
    /* the module's counter across the runs of one line, as the README says */
    assert_non_null(strstr(out, "101, 102, 103"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lesson14_is_listed),
        cmocka_unit_test(test_lesson14_every_claim_holds),
        cmocka_unit_test(test_lesson14_readme_quotes_the_ptx),
        cmocka_unit_test(test_lesson14_h100_launch_overhead_is_recorded),
        cmocka_unit_test(test_lesson14_ptxas_says_what_the_readme_says),
        cmocka_unit_test(test_lesson14_xcheck_lines_parse_and_run),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
