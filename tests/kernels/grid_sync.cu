// grid_sync.cu: cooperative groups' grid-wide barrier (a cooperative launch):
// every thread adds one to its element, the whole grid syncs, then each
// reads its neighbour's -- written by another block.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void two_phase(int *a, int *b, int n)
{
    auto g = cg::this_grid();
    int i = (int)g.thread_rank();
    if (i < n)
        a[i] += 1;
    g.sync();
    if (i < n)
        b[i] = a[(i + 1) % n] * 10 + a[i];
    g.sync();
    if (i < n)
        a[i] = b[(i + n - 1) % n];
}
