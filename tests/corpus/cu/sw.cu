__device__ __noinline__ int ext_helper(int x);
__device__ int ext_var;
__global__ void k_switch(int *o, int s) {
    int v;
    switch (s & 15) {
    case 0: v = o[3] * 7; break; case 1: v = o[5] + 11; break; case 2: v = o[1] ^ 0x55; break;
    case 3: v = o[9] - 3; break; case 4: v = o[2] * o[2]; break; case 5: v = 99; break;
    case 6: v = o[7] >> 2; break; case 7: v = o[4] | 8; break; case 8: v = o[6] / 3; break;
    case 9: v = -o[0]; break; default: v = 1;
    }
    o[threadIdx.x] = v + ext_helper(v) + ext_var;
}
struct P { int a[4]; double d; };
__global__ void k_struct(P p, int *o) { o[threadIdx.x] = p.a[threadIdx.x & 3] + (int)p.d; }
