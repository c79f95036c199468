/* test_warp_sync.c: warp-synchronous instructions against what an H100
 * gave (traces/hw/warp-sync-h100.txt; tests/kernels/warp_sync.cu).  With
 * WARPSIM_BACKEND=gpu the same checks run on a GPU, except the ones about
 * masks hardware hangs on, which only the simulator can report. */
#include "harness.h"

#define KERNELS "tests/kernels/warp_sync.ptx"

static SimStatus launch(const char *kernel, unsigned threads, DevicePtr buf, int divergence, DeviceFault *f)
{
    DeviceModule *m = load_file(KERNELS);
    SimError err;
    const char *entry = device_find_kernel(m, kernel, &err);
    assert_non_null(entry);
    DeviceLaunch cfg = {.grid = {1, 1, 1}, .block = {threads, 1, 1}, .inst_budget = 100000,
                        .divergence = divergence};
    void *args[] = {&buf};
    return device_launch(m, entry, &cfg, args, NULL, f, &err);
}

static void run_ints(const char *kernel, unsigned threads, int *out, size_t n)
{
    DevicePtr d = dalloc(n * sizeof *out);
    DeviceFault f;
    if (launch(kernel, threads, d, DEVICE_DIV_ITS, &f) != SIM_OK)
        fail_msg("%s faulted: %s: %s", kernel, f.kind, f.msg);
    down(out, d, n * sizeof *out);
}

static void test_strange_shuffle_matches_h100(void **s)
{
    (void)s;
    static const int h100[32] = {1,  2,  3,  4,  5,  6,  7,  8,  9,  10, 11, 12, 13, 14, 30,  34,
                                 36, 38, 40, 42, 44, 46, 48, 50, 52, 54, 56, 58, 0,  1,  188, 188};
    int out[32];
    run_ints("strange_shuffle_volta", 32, out, 32);
    assert_memory_equal(out, h100, sizeof h100);
}

static void test_strange_shuffle_under_stack_names_unconverged_lanes(void **s)
{
    (void)s;
    SIM_ONLY_TEST();
    DeviceFault f;
    assert_int_equal(launch("strange_shuffle_volta", 32, dalloc(128), DEVICE_DIV_STACK, &f), SIM_ERR_FAULT);
    assert_string_equal(f.kind, "warp-sync");
    assert_non_null(strstr(f.msg, "lanes 0x3fff8000 of the mask are not converged"));
    assert_true(f.line > 0);
}

static void test_ballots_in_two_branches_meet(void **s)
{
    (void)s;
    int out[32];
    run_ints("ballot_two_branches", 32, out, 32);
    for (int i = 0; i < 32; i++)
        assert_int_equal((unsigned)out[i], 0xffe002aau);
}

static void test_activemask_is_the_group_at_that_instruction(void **s)
{
    (void)s;
    int out[64];
    run_ints("activemask_groups", 32, out, 64);
    for (int i = 0; i < 32; i++) {
        unsigned want = i % 3 == 0 ? 0x49249249u : i % 3 == 1 ? 0x92492492u : 0;
        assert_int_equal((unsigned)out[i], want);
        assert_int_equal((unsigned)out[32 + i], 0xffffffffu); /* reconverged */
    }
}

static void test_partial_warp_shuffles_ballot_redux_match(void **s)
{
    (void)s;
    /* lanes 20..31 do not exist; a source lane that does not exist reads 0 */
    static const int h100[7][20] = {
        {4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 0, 0, 0},
        {15, 18, 21, 0, 3, 6, 9, 12, 39, 42, 45, 24, 27, 30, 33, 36, 0, 0, 0, 48},
        {0, 1, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 16, 17, 16, 17},
        {16, 17, 18, 19, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 3},
        {[0 ... 19] = 0xfffff},
        {[0 ... 19] = 190},
        {7, 7, 7, 56, 56, 56, 448, 448, 448, 3584, 3584, 3584, 28672, 28672, 28672, 229376, 229376, 229376,
         786432, 786432},
    };
    int out[224];
    run_ints("partial_warp", 20, out, 224);
    for (int k = 0; k < 7; k++)
        for (int i = 0; i < 20; i++)
            if (out[32 * k + i] != h100[k][i])
                fail_msg("row %d lane %d: %d, the H100 gave %d", k, i, out[32 * k + i], h100[k][i]);
}

static void test_mismatched_shuffles_are_reported_not_hung(void **s)
{
    (void)s;
    SIM_ONLY_TEST(); /* an H100 hangs */
    DeviceFault f;
    assert_int_equal(launch("mismatched_shuffles", 32, dalloc(128), DEVICE_DIV_ITS, &f), SIM_ERR_FAULT);
    assert_string_equal(f.kind, "warp-sync");
    assert_non_null(strstr(f.msg, "shfl.sync.bfly"));
    assert_non_null(strstr(f.msg, "shfl.sync.idx"));
    assert_non_null(strstr(f.msg, "never meet"));
}

static void test_mask_naming_exited_lanes_is_reported(void **s)
{
    (void)s;
    SIM_ONLY_TEST();
    DeviceFault f;
    assert_int_equal(launch("mask_names_exited", 32, dalloc(128), DEVICE_DIV_ITS, &f), SIM_ERR_FAULT);
    assert_string_equal(f.kind, "warp-sync");
    assert_non_null(strstr(f.msg, "0xffff0000"));
    assert_non_null(strstr(f.msg, "exited"));
    assert_true(f.line > 0);
}

static void test_mask_naming_absent_lanes_is_reported(void **s)
{
    (void)s;
    SIM_ONLY_TEST();
    DeviceFault f; /* 16 threads: the full mask names lanes 16..31 that do not exist */
    assert_int_equal(launch("mask_names_exited", 16, dalloc(128), DEVICE_DIV_ITS, &f), SIM_ERR_FAULT);
    assert_string_equal(f.kind, "warp-sync");
    assert_non_null(strstr(f.msg, "do not exist"));
}

static void test_syncwarp_orders_a_warps_shared_exchange(void **s)
{
    (void)s;
    int out[32];
    run_ints("syncwarp_exchange", 32, out, 32);
    for (int i = 0; i < 32; i++)
        assert_int_equal(out[i], (31 - i) * 7);
}

static void test_its_lets_a_lane_finish_while_its_warp_spins(void **s)
{
    (void)s;
    DeviceModule *m = load_file(KERNELS);
    SimError err;
    const char *entry = device_find_kernel(m, "intra_warp_flag", &err);
    int zero[2] = {0, 0}, out[2];
    for (int div = DEVICE_DIV_ITS; div <= DEVICE_DIV_STACK; div++) {
        if (div == DEVICE_DIV_STACK && on_gpu)
            break;
        DevicePtr flag = up(zero, sizeof(int)), o = up(zero, sizeof zero);
        DeviceLaunch cfg = {.grid = {1, 1, 1}, .block = {32, 1, 1}, .inst_budget = 200000, .divergence = div};
        DeviceFault f;
        SimStatus st = device_launch(m, entry, &cfg, (void *[]){&flag, &o}, NULL, &f, &err);
        down(out, o, sizeof out);
        if (div == DEVICE_DIV_ITS) { /* lane 0 gets its turn: everyone leaves the loop */
            assert_int_equal(st, SIM_OK);
            assert_int_equal(out[0], 7);
            assert_int_equal(out[1], 4950);
        } else { /* the spinning lanes never yield: the budget ends it */
            assert_int_equal(st, SIM_ERR_FAULT);
            assert_string_equal(f.kind, "budget-exceeded");
        }
    }
}

static void test_two_masks_at_one_instruction_are_two_collectives(void **s)
{
    (void)s;
    DeviceModule *m = load_file(KERNELS);
    SimError err;
    const char *entry = device_find_kernel(m, "two_masks_one_instruction", &err);
    for (int div = DEVICE_DIV_ITS; div <= (on_gpu ? DEVICE_DIV_ITS : DEVICE_DIV_STACK); div++) {
        unsigned out[64];
        DevicePtr d = dalloc(sizeof out);
        DeviceLaunch cfg = {.grid = {1, 1, 1}, .block = {32, 1, 1}, .inst_budget = 100000, .divergence = div};
        assert_int_equal(device_launch(m, entry, &cfg, (void *[]){&d}, NULL, NULL, &err), SIM_OK);
        down(out, d, sizeof out);
        for (int i = 0; i < 32; i++) {
            assert_int_equal(out[i], i < 16 ? 0x0000aaaau : 0xaaaa0000u);
            assert_int_equal(out[32 + i], i < 16 ? 120u : 376u); /* 0+..+15, 16+..+31 */
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_strange_shuffle_matches_h100, harness_setup, harness_teardown),
        cmocka_unit_test_setup_teardown(test_strange_shuffle_under_stack_names_unconverged_lanes, harness_setup,
                                        harness_teardown),
        cmocka_unit_test_setup_teardown(test_ballots_in_two_branches_meet, harness_setup, harness_teardown),
        cmocka_unit_test_setup_teardown(test_activemask_is_the_group_at_that_instruction, harness_setup,
                                        harness_teardown),
        cmocka_unit_test_setup_teardown(test_partial_warp_shuffles_ballot_redux_match, harness_setup,
                                        harness_teardown),
        cmocka_unit_test_setup_teardown(test_mismatched_shuffles_are_reported_not_hung, harness_setup,
                                        harness_teardown),
        cmocka_unit_test_setup_teardown(test_mask_naming_exited_lanes_is_reported, harness_setup, harness_teardown),
        cmocka_unit_test_setup_teardown(test_mask_naming_absent_lanes_is_reported, harness_setup, harness_teardown),
        cmocka_unit_test_setup_teardown(test_syncwarp_orders_a_warps_shared_exchange, harness_setup,
                                        harness_teardown),
        cmocka_unit_test_setup_teardown(test_its_lets_a_lane_finish_while_its_warp_spins, harness_setup,
                                        harness_teardown),
        cmocka_unit_test_setup_teardown(test_two_masks_at_one_instruction_are_two_collectives, harness_setup,
                                        harness_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
