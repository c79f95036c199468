// grade fixture, lesson 13: row_max where every thread stores the (same)
// result -- right, and a race: 128 threads write out[r] with no order.
#include "tile.cuh"

extern "C" __global__ void __launch_bounds__(tile::kThreads) row_max(const float *a, float *out, int rows, int cols)
{
    auto A = tile::array(a, rows, cols);
    int r = tile::bid(0);
    out[r] = tile::reduce_max(tile::load<1, 1024>(A, r, 0, tile::Pad::neg_inf));
}
