// dyn_smem.cu: dynamic shared memory (extern __shared__), sized at launch:
// each block reverses its chunk, and keeps a second array after the first.
extern "C" __global__ void dyn_reverse(const int *in, int *out, int *prefix2)
{
    extern __shared__ int s[];
    int *t = s + blockDim.x;                   // second array in the same space
    int base = blockIdx.x * blockDim.x;
    s[threadIdx.x] = in[base + threadIdx.x];
    t[threadIdx.x] = in[base + threadIdx.x] * 2;
    __syncthreads();
    out[base + threadIdx.x] = s[blockDim.x - 1 - threadIdx.x];
    prefix2[base + threadIdx.x] = t[(threadIdx.x + 1) % blockDim.x] + t[0];
}
