// heap.cu: device malloc/free -- blocks that outlive their kernel, the 8 MB
// default heap running out (malloc returns NULL), free(NULL), and a free of
// memory malloc did not return.

__device__ int *kept[64];

// each thread allocates bytes[t] bytes: 1 where it got memory, 0 for NULL
__global__ void alloc_many(const unsigned *bytes, int *got)
{
    int t = threadIdx.x;
    char *p = (char *)malloc(bytes[t]);
    got[t] = p != nullptr;
    if (p) {
        p[0] = (char)t;
        p[bytes[t] - 1] = (char)(t + 1);
    }
    kept[t] = (int *)p;
}

// a later launch reads the blocks back, then frees them (and NULL)
__global__ void read_and_free(const unsigned *bytes, int *out)
{
    int t = threadIdx.x;
    char *p = (char *)kept[t];
    out[t] = p ? p[0] + 1000 * p[bytes[t] - 1] : -1;
    free(p);
    free(nullptr);
}

__global__ void use_null_from_malloc(int *out)
{
    int *p = (int *)malloc(16u << 20); // more than the heap: NULL
    p[threadIdx.x] = 1;                // and written anyway
    out[threadIdx.x] = 0;
}

__global__ void free_not_malloced(int *buf)
{
    free(buf + threadIdx.x);
}
