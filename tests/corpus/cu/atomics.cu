__global__ void k_atomics(int *a, unsigned long long *b, double *d, float *f, int *cas) {
    atomicAdd(a, 1);
    atomicSub(a + 1, 2);
    atomicMax(a + 2, threadIdx.x);
    atomicMin(a + 3, -(int)threadIdx.x);
    atomicExch(a + 4, 7);
    atomicAnd(a + 5, 0xF0F0);
    atomicOr(a + 6, 0x1);
    atomicXor(a + 7, 0x3);
    atomicInc((unsigned*)a + 8, 100u);
    atomicDec((unsigned*)a + 9, 100u);
    atomicAdd(b, 1ull);
    atomicAdd(d, 1.5);
    atomicAdd(f, 0.25f);
    int old = atomicCAS(cas, 0, 1);
    unsigned long long o2 = atomicCAS(b + 1, 0ull, (unsigned long long)old);
    // double CAS loop
    unsigned long long *addr = (unsigned long long *)(d + 1);
    unsigned long long old3 = *addr, assumed;
    do { assumed = old3;
         old3 = atomicCAS(addr, assumed, __double_as_longlong(__longlong_as_double(assumed) * 2.0));
    } while (assumed != old3);
    a[10] = (int)o2;
}
