// hostile: includes /etc/passwd, which would land in the compiler's messages.
#include "/etc/passwd"
extern "C" __global__ void block_sum(const int *in, int *out, int n)
{
}
