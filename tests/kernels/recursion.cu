// recursion.cu: recursive device functions -- each activation needs its own
// registers, parameters, .local array and return value (a per-thread call
// stack in the simulator), and a recursion too deep for the stack faults.

// sum of a[lo, hi) by halving, with a local scratch array in every frame
__device__ __noinline__ int tree_sum(const int *a, int lo, int hi)
{
    int scratch[4];
    if (hi - lo <= 4) {
        int s = 0;
        for (int k = lo; k < hi; k++) scratch[k - lo] = a[k] * (k - lo + 1);
        for (int k = 0; k < hi - lo; k++) s += scratch[k];
        return s;
    }
    int mid = (lo + hi) / 2;
    scratch[0] = tree_sum(a, lo, mid);
    scratch[1] = tree_sum(a, mid, hi);
    return scratch[0] - scratch[1] + lo;
}

__device__ __noinline__ float even_odd(int k, float acc);
__device__ __noinline__ float odd_even(int k, float acc)
{
    return k == 0 ? acc : even_odd(k - 1, acc * 0.5f + 1.0f);
}
__device__ __noinline__ float even_odd(int k, float acc)
{
    return k == 0 ? -acc : odd_even(k - 1, acc + (float)k);
}

__global__ void recursive_sums(const int *a, int n, int *sums, float *mutual)
{
    int t = threadIdx.x;
    sums[t] = tree_sum(a, 0, n - t);
    mutual[t] = even_odd(t % 20, 1.0f);
}

// not a tail call nor an accumulation, so the compiler keeps the recursion
__device__ __noinline__ unsigned depth(unsigned k)
{
    if (k == 0)
        return 0;
    unsigned r = depth(k - 1);
    return (r ^ (r >> 1)) + k;
}

__global__ void deep(unsigned k, unsigned *out)
{
    out[threadIdx.x] = depth(k);
}
