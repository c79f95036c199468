/* test_timing_identical.c: the timing model never changes what a kernel
 * computes.  Every entry of every kernel in tests/kernels/ runs twice, with
 * DeviceLaunch.timing off and on, on the same inputs; the status, the fault,
 * the printf text and every byte of every buffer must be the same (for a
 * launch that faults: the fault's kind and instruction).  Only
 * the order warps issue in differs, so kernels whose result depends on that
 * order (the races and order-dependent atomics they exist to show) are
 * listed below with why, and compared only for status. */
#include <dirent.h>

#include "harness.h"
#include "device_int.h"
#include "sweep_fixture.h"

#define FUZZ_EXEC_NO_MAIN
#include "fuzz_exec.c"


/* Entries whose outputs depend on the schedule (or the clock) by design:
 * with another issue order they give another of their possible results. */
static const char *const order_dependent[] = {
    "clock_chain",      /* timing.cu: writes the %clock64 difference */
    "lost_global_racy", /* hazards.cu: s = s + x on global memory, lost updates */
    "lost_shared_racy", /* hazards.cu: the same on shared memory */
    "war_racy",         /* hazards.cu: a read racing another warp's write of the
                           word: the value it sees depends on the issue order */
    "war_ok",           /* hazards.cu: race-free at its 32 threads, but at this
                           test's 128 thread 32's s[32] = in[32] and thread 0's
                           s[32] = 0 race (two warps): the last writer wins */
    "intra_warp_flag",  /* warp_sync.cu: lanes spin on a flag other lanes set */
    "racy_count",       /* sched.cu: an unsynchronised read-modify-write */
    "block_sum_i32",    /* tiles.cu: each block's old value of a tile atomic
                           depends on which block came first */
    "atomic_u64",       /* tiles.cu: the 4 blocks add into the same elements (and
                           idx repeats from 97), so the old values atomic_add
                           returns depend on which came first */
    "_Z12ring_no_syncPKiPi", /* clusters.cu: reads a neighbour CTA's shared memory
                           before the cluster barrier: written yet or not */
    "_Z13dsmem_latencyPxi",  /* clusters.cu: writes %clock64 differences */
    "double_and_tally", /* sm_threads.cu: a counter every block adds to without an atomic */
    "chain",            /* sm_threads.cu: block b reads the word block b - 1 writes */
    "gather_chain",     /* sm_threads.cu: the same, read by a gather */
    NULL};

static bool is_order_dependent(const char *entry)
{
    for (const char *const *p = order_dependent; *p; p++)
        if (!strcmp(entry, *p))
            return true;
    return false;
}

static void test_outputs_are_bit_identical_with_timing_on_and_off(void **s)
{
    (void)s;
    DIR *d = opendir(DIR_KERNELS);
    if (!d)
        fail_msg("cannot open %s (run from the repository root)", DIR_KERNELS);
    int compared = 0, order_only = 0, files = 0, faulted = 0;
    for (char path[512]; sweep_next_ptx(d, path);) {
        DeviceModule *m = load_file(path);
        files++;
        for (int f = 0; f < m->ptx->n_funcs; f++) {
            if (!m->ptx->funcs[f].is_entry)
                continue;
            const char *entry = m->ptx->funcs[f].name;
            DevicePtr ptrs[64] = {0};
            alloc_args(m, entry, ptrs);
            Outcome off = sweep_run(m, entry, ptrs, 4, false), on = sweep_run(m, entry, ptrs, 4, true);
            free_args(m, entry, ptrs);
            bool racy = is_order_dependent(entry);
            if (off.st != on.st)
                fail_msg("%s %s: status %d untimed, %d timed (%s / %s)", path, entry, off.st, on.st,
                         off.fault.msg, on.fault.msg);
            if (racy) {
                order_only++;
            } else if (off.st == SIM_ERR_FAULT) {
                /* a launch stops at its first fault in issue order: which thread
                 * gets there first, and what others wrote by then, is the
                 * schedule's; the kind of fault and the instruction are not */
                bool budget = !strcmp(off.fault.kind, "budget-exceeded"); /* wherever it ran out */
                if (strcmp(off.fault.kind, on.fault.kind) || (!budget && off.fault.ptx_line != on.fault.ptx_line))
                    fail_msg("%s %s: fault '%s' untimed, '%s' timed", path, entry, off.fault.msg, on.fault.msg);
                faulted++;
            } else {
                if (strcmp(off.printf_text, on.printf_text))
                    fail_msg("%s %s: printf output differs", path, entry);
                for (int b = 0; b < off.nbufs; b++)
                    if (memcmp(off.bufs[b], on.bufs[b], BUF))
                        fail_msg("%s %s: buffer %d differs with the timing model", path, entry, b);
                compared++;
            }
            outcome_free(&off);
            outcome_free(&on);
        }
    }
    closedir(d);
    print_message("%d files: %d kernels bit-identical, %d faulted alike, %d order-dependent by design (status "
                  "only)\n", files, compared, faulted, order_only);
    assert_true(files >= 20);
    assert_true(compared > 3 * order_only);
    assert_int_equal(order_only, (int)(sizeof order_dependent / sizeof *order_dependent) - 1); /* each listed entry exists */
}

/* Every file of dir (ending in suffix) through the executor fuzzer's
 * recipe (tests/fuzz_exec.c: first entry, small buffers, a budget) with the
 * timing model on.  Returns files; *ran counts those that launched. */
static int replay_dir(const char *dir, const char *suffix, int *ran)
{
    DIR *d = opendir(dir);
    if (!d)
        fail_msg("cannot open %s (run from the repository root)", dir);
    int n = 0;
    for (struct dirent *e; (e = readdir(d));) {
        size_t k = strlen(e->d_name), m = strlen(suffix);
        if (e->d_name[0] == '.' || k < m || strcmp(e->d_name + k - m, suffix))
            continue;
        char path[512];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        FILE *f = fopen(path, "rb");
        if (!f)
            continue; /* a folder */
        static char text[1 << 20];
        size_t len = fread(text, 1, sizeof text, f);
        fclose(f);
        SimStatus st = fuzz_exec_run(text, len);
        n++;
        *ran += st == SIM_OK || st == SIM_ERR_FAULT;
    }
    closedir(d);
    return n;
}

/* The executor fuzzer's finds (tests/corpus/exec/) and the test and lesson
 * kernels, replayed through its recipe with the timing model on: hostile PTX
 * loads or fails, runs or faults, never crashes (under `make asan`: never
 * touches memory it should not). */
static void test_fuzz_corpus_replays_with_timing_without_crash(void **s)
{
    (void)s;
    fuzz_exec_timing = true;
    int ran = 0;
    int n = replay_dir("tests/corpus/exec", "", &ran);
    n += replay_dir(DIR_KERNELS, ".ptx", &ran);
    static const char *const lessons[] = {"lessons/01-threads-and-races", "lessons/02-warps",
                                          "lessons/03-atomics", "lessons/04-occupancy"};
    for (int i = 0; i < 4; i++)
        n += replay_dir(lessons[i], "kernel.ptx", &ran);
    fuzz_exec_timing = false;
    print_message("%d inputs replayed with timing, %d launched\n", n, ran);
    assert_true(n > 60 && ran > 25);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_outputs_are_bit_identical_with_timing_on_and_off, harness_setup_sim,
                                        harness_teardown),
        cmocka_unit_test(test_fuzz_corpus_replays_with_timing_without_crash),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
