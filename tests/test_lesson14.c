/* test_lesson14.c: lesson 14 (the host side) -- its harness runs and every
 * claim its README makes holds in the simulator (the PTX's target and
 * __CUDA_ARCH__, two modules with a variable each, lookup by name, the
 * param space and __grid_constant__, the device heap, per-kernel
 * attributes, idle SMs), the figures the README quotes are the ones the
 * harness prints or traces/hw records (the H100's xcheck recording, its
 * empty kernel), nvcc and ptxas say what the README says they say (when the
 * toolkit is here), its stepper row shows what it says, and its xcheck.txt
 * launches run clean. */
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
#include "xcheck.h"

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
    char times[64];
    snprintf(times, sizeof times, "(%.1f times at 8 blocks of 256)", ratio);
    if (!strstr(r, times))
        fail_msg("README.md lacks \"%s\"", times);
    assert_non_null(strstr(t, "(one int more and nvcc\n   refuses it)"));
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

/* The launch of the H100 recording whose line holds `what`. */
static const XcheckRef *recorded(const XcheckRecording *rec, const char *lesson, const char *what)
{
    for (int i = 0; i < rec->n; i++)
        for (int k = 0; !strcmp(rec->lessons[i].slug, lesson) && k < rec->lessons[i].n; k++)
            if (strstr(rec->lessons[i].refs[k].line, what))
                return &rec->lessons[i].refs[k];
    fail_msg("no %s launch with \"%s\" in the H100 recording", lesson, what);
    return NULL;
}

/* The H100 figures of steps 2, 3, 4, 6 and the events paragraph are the
 * recording's: bump's 101, 102, 103; table_copy against
 * table_grid_constant; heap_grab's 6 and 58; busy_blocks' times and the
 * course's shortest launch; lesson 3's block reduction. */
static void test_lesson14_h100_figures_are_the_recordings(void **st)
{
    (void)st;
    XcheckRecording rec;
    char msg[512];
    if (!xcheck_recording_read("traces/hw/nvidia-h100-80gb-hbm3/xcheck.json", &rec, msg, sizeof msg))
        fail_msg("%s", msg);
    char *raw = lesson_read_text(DIR "/README.md"), *r = lesson_squash(raw);
    char want[320];
    const XcheckRef *b = recorded(&rec, "14-host-side", "--kernel bump ");
    assert_int_equal(b->nbufs, 1);
    assert_int_equal(b->bufs[0].nruns, 3);
    for (int k = 0; k < 3; k++) {
        int32_t v;
        memcpy(&v, b->bufs[0].runs[k], 4);
        assert_int_equal(v, 101 + k);
    }
    assert_non_null(strstr(r, "there it printed 101, 102, 103 (`warpsim xcheck 14 --recorded`"));
    assert_non_null(strstr(r, "where the simulator's single launch prints 101"));
    const XcheckRef *tc = recorded(&rec, "14-host-side", "--kernel table_copy ");
    const XcheckRef *tg = recorded(&rec, "14-host-side", "--kernel table_grid_constant ");
    snprintf(want, sizeof want, "The H100 agrees: %.2f times, %.4f against %.4f ms", tc->time / tg->time, tc->time,
             tg->time);
    if (!strstr(r, want))
        fail_msg("README.md lacks \"%s\"", want);
    const XcheckRef *h = recorded(&rec, "14-host-side", "--kernel heap_grab ");
    assert_int_equal(h->bufs[0].nruns, 3);
    for (int k = 0; k < 3; k++) {
        int32_t v[2];
        memcpy(v, h->bufs[0].runs[k], 8);
        assert_int_equal(v[0], 6);
        assert_int_equal(v[1], 58);
    }
    assert_non_null(strstr(r, "the H100 gave 6 and 58 in each of three runs"));
    const XcheckRef *b66 = recorded(&rec, "14-host-side", "--kernel busy_blocks --grid 66 ");
    const XcheckRef *b132 = recorded(&rec, "14-host-side", "--kernel busy_blocks --grid 132 ");
    double shortest = 1e9;
    for (int i = 0; i < rec.n; i++)
        for (int k = 0; k < rec.lessons[i].n; k++)
            if (rec.lessons[i].refs[k].time > 0 && rec.lessons[i].refs[k].time < shortest)
                shortest = rec.lessons[i].refs[k].time;
    snprintf(want, sizeof want, "%.5f ms for 66 blocks and %.5f ms for 132, where the shortest launches of the course "
             "take %.4f ms", b66->time, b132->time, shortest);
    if (!strstr(r, want))
        fail_msg("README.md lacks \"%s\"", want);
    const XcheckRef *l3 = recorded(&rec, "03-atomics", "--kernel sum_block_f32 --grid 1024 ");
    snprintf(want, sizeof want, "and %.5f ms once the backend kept the stream busy", l3->time);
    if (!strstr(r, want))
        fail_msg("README.md lacks \"%s\"", want);
    free(r);
    free(raw);
    xcheck_recording_free(&rec);
}

/* The stepper row of the README: heap_grab's p in each lane at line 103. */
static void test_lesson14_stepper_shows_seven_blocks_of_the_heap(void **st)
{
    (void)st;
    const char *w = getenv("WARPSIM");
    char cmd[1024];
    snprintf(cmd, sizeof cmd,
             "printf 'break 103\\ncontinue\\nprint %%%%rd2\\n' | %s step " DIR "/kernel.ptx --kernel heap_grab "
             "--grid 1 --block 64 --arg buf:i32[2]=fill:0 --arg u32:1048576 2>&1",
             w ? w : "build/warpsim");
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    static char out[1 << 16];
    out[fread(out, 1, sizeof out - 1, p)] = 0;
    pclose(p);
    const char *at = strstr(out, "%rd2 (b64) in block 0 warp 0:\n");
    if (!at)
        fail_msg("%s", out);
    unsigned long long a[7];
    for (int k = 0; k < 7; k++) {
        char lane[32];
        snprintf(lane, sizeof lane, "lane  %d            0x", k);
        const char *l = strstr(at, lane);
        if (!l)
            fail_msg("no %s in:\n%s", lane, out);
        a[k] = strtoull(l + strlen(lane), NULL, 16);
        if (k)
            assert_int_equal(a[k] - a[k - 1], 0x101000);
    }
    assert_non_null(strstr(at, "lanes 7-31         0\n"));
    char *raw = lesson_read_text(DIR "/README.md"), *r = lesson_squash(raw);
    assert_non_null(strstr(r, "`break 103` (the `if (p == NULL)`), `continue`, `print %rd2`: `p` in each lane, seven "
                              "addresses 0x101000 apart (1 MB and 4 KB) in lanes 0-6, then zeros in lanes 7-31"));
    /* and the commands to look closer and the graded exercise */
    assert_non_null(strstr(r, "`warpsim viz b.wst --view gpu`"));
    assert_non_null(strstr(r, "`warpsim grade 14`"));
    free(r);
    free(raw);
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
 * table kernels.  Skipped when there is no ptxas beside nvcc. */
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

    free(r);
    free(raw);
}

/* kernel.cu with `from` replaced by `to` (the first time it appears),
 * compiled by `nvcc -ptx`, then the PTX it wrote, if any, assembled by
 * ptxas: what the two said, and whether nvcc wrote the PTX. */
static char *compile_copy(const char *nvcc, const char *ptxas, const char *from, const char *to, bool *wrote)
{
    char *k = lesson_read_text(DIR "/kernel.cu");
    char *at = strstr(k, from);
    if (!at)
        fail_msg("kernel.cu has no \"%s\"", from);
    char dir[] = "/tmp/warpsim-l14-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char path[128], cmd[4096];
    snprintf(path, sizeof path, "%s/copy.cu", dir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fprintf(f, "%.*s%s%s", (int)(at - k), k, to, at + strlen(from));
    fclose(f);
    free(k);
    snprintf(cmd, sizeof cmd,
             "cd %s && { %s -ptx -arch=sm_90 copy.cu -o copy.ptx 2>&1; test -s copy.ptx && echo PTX-WRITTEN && "
             "%s -arch=sm_90 copy.ptx -o /dev/null 2>&1; }; rm -rf %s",
             dir, nvcc, ptxas, dir);
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    char *out = calloc(1, 1 << 16);
    assert_non_null(out);
    out[fread(out, 1, (1 << 16) - 1, p)] = 0;
    pclose(p);
    *wrote = strstr(out, "PTX-WRITTEN") != NULL;
    return out;
}

/* Step 3 and the row "the parameter limit": one int more and nvcc's front
 * end refuses the kernel (no PTX); the pointer after 8,189 ints gets PTX
 * written, and ptxas refuses it.  Skipped without the toolkit. */
static void test_lesson14_parameter_limit_as_the_readme_says(void **st)
{
    (void)st;
    const char *nvcc = source_find_nvcc();
    char ptxas[1024];
    if (!nvcc || snprintf(ptxas, sizeof ptxas, "%.*sptxas", (int)(strrchr(nvcc, '/') ? strrchr(nvcc, '/') - nvcc + 1 : 0),
                          nvcc) >= (int)sizeof ptxas || access(ptxas, X_OK)) {
        printf("note: no nvcc and ptxas found; the parameter limit's messages were not checked\n");
        skip();
    }
    bool wrote;
    char *o = compile_copy(nvcc, ptxas, "int v[8189];", "int v[8190];", &wrote);
    if (wrote || !strstr(o, "Formal parameter space overflowed (32768 bytes required, max 32764 bytes allowed)"))
        fail_msg("8,190 ints:\n%s", o);
    free(o);
    o = compile_copy(nvcc, ptxas, "huge_params(int *out, Huge h)", "huge_params(Huge h, int *out)", &wrote);
    const char *after = strstr(o, "PTX-WRITTEN");
    if (!wrote || !strstr(after, "uses too much parameter space (0x8000 bytes, 0x7ffc max)"))
        fail_msg("the pointer after the ints:\n%s", o);
    free(o);
    char *raw = lesson_read_text(DIR "/README.md"), *r = lesson_squash(raw);
    assert_non_null(strstr(r, "One int more and nvcc refuses the kernel: \"Formal parameter space overflowed (32768 "
                              "bytes required, max 32764 bytes allowed)\""));
    assert_non_null(strstr(r, "nvcc's front end writes that PTX, and `ptxas` refuses it: \"uses too much parameter "
                              "space (0x8000 bytes, 0x7ffc max)\""));
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
    /* the module's counter across the runs of one line (a second simulator
     * keeps the module loaded, as a GPU does) */
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
        cmocka_unit_test(test_lesson14_parameter_limit_as_the_readme_says),
        cmocka_unit_test(test_lesson14_h100_figures_are_the_recordings),
        cmocka_unit_test(test_lesson14_stepper_shows_seven_blocks_of_the_heap),
        cmocka_unit_test(test_lesson14_xcheck_lines_parse_and_run),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
