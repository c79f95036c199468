__device__ int gv[4];
struct __attribute__((packed)) P { char a; int *p; short s; };
__device__ P gp = {1, &gv[1], 3};
struct Q { char a; short b; int *p; char c[3]; };
__device__ Q gq = {1, 2, &gv[2], {4,5,6}};
__global__ void k(int *o) { o[0] = *gp.p + gp.s + *gq.p + gq.c[1]; }
