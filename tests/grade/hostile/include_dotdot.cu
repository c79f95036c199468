// hostile: a relative #include that climbs out of the submission's folder.
#include "../../../../../../../../../../etc/passwd"
extern "C" __global__ void block_sum(const int *in, int *out, int n)
{
}
