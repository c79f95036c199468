// hostile: every thread prints in a long loop.
#include <cstdio>
extern "C" __global__ void block_sum(const int *in, int *out, int n)
{
    for (int k = 0; k < 1000000; k++)
        printf("%d %d spam spam spam spam spam spam spam spam spam spam spam\n", threadIdx.x, k);
}
