// sched.cu: kernels whose results show how the simulator schedules
// (tests/test_sched.c).

// Each block records the SM it ran on.
extern "C" __global__ void which_sm(unsigned *out)
{
    unsigned sm;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
    if (threadIdx.x == 0)
        out[blockIdx.x] = sm;
}

// Block 1 waits for a flag block 0 sets: it finishes only when both blocks
// are resident at once, as on hardware.
extern "C" __global__ void wait_for_block0(volatile int *flag, int *out)
{
    if (threadIdx.x != 0)
        return;
    if (blockIdx.x == 0) {
        out[0] = 42;
        __threadfence();
        *flag = 1;
    } else {
        while (*flag == 0)
            ;
        out[1] = out[0] + 1;
    }
}

// Every lane exchanges its id into one word: the last update wins.
extern "C" __global__ void last_writer(int *word, int *old)
{
    old[threadIdx.x] = atomicExch(word, (int)threadIdx.x);
}

// Unsynchronised read-modify-write of one word by every thread.
extern "C" __global__ void racy_count(int *word)
{
    *word = *word + 1;
}
