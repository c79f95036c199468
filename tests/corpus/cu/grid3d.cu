__global__ void __launch_bounds__(256, 2) k_grid3d(float *out, int nx, int ny, int nz) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    int z = blockIdx.z * blockDim.z + threadIdx.z;
    if (x < nx && y < ny && z < nz) out[(z * ny + y) * nx + x] = x * 0.5f + y - z + gridDim.x * gridDim.y * gridDim.z;
}
__global__ void __launch_bounds__(128) k_grid2d(double *out, int nx, int ny) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < nx && y < ny) out[y * nx + x] = sqrt((double)x) + 1.0 / (y + 1);
}
