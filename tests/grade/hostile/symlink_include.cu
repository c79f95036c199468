// hostile: includes a header that is a symbolic link, beside the file, to
// /etc/passwd (the test makes the link: a committed link would be a hazard).
#include "escape.h"
extern "C" __global__ void block_sum(const int *in, int *out, int n)
{
}
