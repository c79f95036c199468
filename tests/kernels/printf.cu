// printf.cu: device printf from a few threads.
#include <cstdio>
extern "C" __global__ void hello(const int *v)
{
    int t = threadIdx.x;
    if (t % 16 == 3)
        printf("block %d thread %d v=%d x=%x f=%.2f s=%s\n", blockIdx.x, t, v[t], v[t] * 3,
               v[t] / 4.0, "ok");
    if (t == 0 && blockIdx.x == 1)
        printf("%lld %u %c|%5d|%-4d|\n", -1234567890123LL, 4000000000u, 'A' + t, 42, 7);
}
