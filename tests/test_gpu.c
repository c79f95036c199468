/* test_gpu.c: the GPU backend.  Without a CUDA driver (CI, this machine)
 * every GPU feature must say so in one line and everything else keep
 * working; with one (the device machine), lesson 1 runs on the GPU and
 * gives the exact sums. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "device.h"
#include "gpu.h"
#include "source.h"

static void test_gpu_without_driver_fails_in_one_clear_line(void **s)
{
    (void)s;
    if (gpu_available()) {
        printf("skip: a CUDA driver and GPU are present; the no-driver path was not exercised\n");
        skip();
    }
    SimError err;
    sim_error_clear(&err);
    Device *d = device_open_gpu(0, &err);
    assert_null(d);
    assert_int_equal(err.status, SIM_ERR_NODEVICE);
    assert_true(strstr(err.msg, "no CUDA driver found") || strstr(err.msg, "no CUDA GPU found"));
    assert_null(strchr(err.msg, '\n'));
    /* and the simulator still works */
    d = device_open_sim("sm_90", &err);
    assert_non_null(d);
    device_close(d);
}

static void test_gpu_runs_lesson1_sums_exactly(void **s)
{
    (void)s;
    if (!gpu_available()) {
        printf("skip: no CUDA driver or GPU; lesson 1 was not run on hardware\n");
        skip();
    }
    SimError err;
    Device *d = device_open_gpu(0, &err);
    assert_non_null(d);
    assert_string_equal(device_backend(d), "gpu");
    char msg[256];
    size_t len;
    char *ptx = source_read_file("lessons/01-threads-and-races/kernel.ptx", &len, msg, sizeof msg);
    assert_non_null(ptx);
    DeviceModule *mod;
    assert_int_equal(device_load_ptx(d, "kernel.ptx", ptx, len, &mod, &err), SIM_OK);
    static int ones[10000];
    for (int i = 0; i < 10000; i++)
        ones[i] = 1;
    DevicePtr in, out;
    assert_int_equal(device_malloc(d, sizeof ones, &in, &err), SIM_OK);
    assert_int_equal(device_memcpy_htod(d, in, ones, sizeof ones, &err), SIM_OK);
    static const char *const k[] = {"atomic_sum", "staged_sum"};
    for (int i = 0; i < 2; i++) {
        assert_int_equal(device_malloc(d, 4, &out, &err), SIM_OK);
        int n = 10000, r = 0;
        void *args[] = {&in, &out, &n};
        DeviceLaunch cfg = {.grid = {40, 1, 1}, .block = {256, 1, 1}};
        DeviceStats st;
        assert_int_equal(device_launch(mod, k[i], &cfg, args, &st, NULL, &err), SIM_OK);
        assert_true(st.regs_per_thread > 0);
        assert_int_equal(device_memcpy_dtoh(d, &r, out, 4, &err), SIM_OK);
        assert_int_equal(r, 10000);
    }
    device_close(d);
    free(ptx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_gpu_without_driver_fails_in_one_clear_line),
        cmocka_unit_test(test_gpu_runs_lesson1_sums_exactly),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
