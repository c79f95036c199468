/* ptx_fixture.h: what test_exec_ptx.c and test_exec_calls.c share -- the
 * fault record, a PTX header for hand-written kernels, a launch that fails
 * the test on anything but a clean run, and reproducible inputs.  Include
 * after harness.h. */
#ifndef WARPSIM_TEST_PTX_FIXTURE_H
#define WARPSIM_TEST_PTX_FIXTURE_H

static DeviceFault fault;

#define PTX_HEAD ".version 8.0\n.target sm_90\n.address_size 64\n"

/* Launch entry of m on grid x block threads with args; fails on anything
 * but a clean run. */
static inline void launch(DeviceModule *m, const char *entry, unsigned grid, unsigned block, void **args)
{
    SimError err;
    DeviceLaunch cfg = {.grid = {grid, 1, 1}, .block = {block, 1, 1}, .inst_budget = 50000000};
    SimStatus st = device_launch(m, entry, &cfg, args, NULL, &fault, &err);
    if (st == SIM_ERR_FAULT)
        fail_msg("%s faulted: %s: %s (PTX line %d)", entry, fault.kind, fault.msg, fault.ptx_line);
    if (st)
        fail_msg("%s: %s", entry, err.msg);
}

/* xorshift64*: reproducible inputs */
static uint64_t rng_state __attribute__((unused)) = 0x9e3779b97f4a7c15ull;
static inline uint64_t rnd64(void)
{
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return rng_state * 2685821657736338717ull;
}

#endif
