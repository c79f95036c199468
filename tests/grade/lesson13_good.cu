// grade fixture, lesson 13: row_max padding with -infinity -- full marks.
#include "tile.cuh"

extern "C" __global__ void __launch_bounds__(tile::kThreads) row_max(const float *a, float *out, int rows, int cols)
{
    auto A = tile::array(a, rows, cols);
    int r = tile::bid(0);
    float m = tile::reduce_max(tile::load<1, 1024>(A, r, 0, tile::Pad::neg_inf));
    if (threadIdx.x == 0)
        out[r] = m;
}
