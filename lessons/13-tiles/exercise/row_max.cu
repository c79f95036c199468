// Exercise 13: row_max -- out[r] = the largest element of row r of the
// rows x cols matrix a (row-major, 1 <= cols <= 1024), as a tile kernel:
// one block of tile::kThreads threads per row, launched with `rows` blocks.
// See README.md.
//
// The starter below is almost right: find what it gets wrong, and fix it.
#include "tile.cuh"

extern "C" __global__ void __launch_bounds__(tile::kThreads) row_max(const float *a, float *out, int rows, int cols)
{
    auto A = tile::array(a, rows, cols);
    int r = tile::bid(0);
    float m = tile::reduce_max(tile::load<1, 1024>(A, r, 0));
    if (threadIdx.x == 0)
        out[r] = m;
}
