// hostile: every thread loops forever.
extern "C" __global__ void block_sum(const int *in, int *out, int n)
{
    volatile int x = 0;
    for (;;)
        x++;
}
