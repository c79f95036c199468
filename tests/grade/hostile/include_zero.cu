// hostile: includes /dev/zero, an endless file: the compiler grows without bound.
#include </dev/zero>
extern "C" __global__ void block_sum(const int *in, int *out, int n)
{
}
