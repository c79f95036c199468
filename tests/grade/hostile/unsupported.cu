// hostile: an instruction the simulator does not implement (a texture-free
// one it lacks: nanosleep through inline PTX).
extern "C" __global__ void block_sum(const int *in, int *out, int n)
{
    asm volatile("nanosleep.u32 100;");
    if (threadIdx.x == 0 && blockIdx.x == 0)
        *out = 0;
}
