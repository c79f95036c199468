__global__ void k_asm(unsigned *out, unsigned a, unsigned b) {
    unsigned r;
    asm("{\n\t.reg .u32 t1, t2;\n\t.reg .pred p;\n\tadd.u32 t1, %1, %2;\n\tsetp.gt.u32 p, t1, 10;\n\t@p mul.lo.u32 t2, t1, 3;\n\t@!p mov.u32 t2, 1;\n\tmov.u32 %0, t2;\n}" : "=r"(r) : "r"(a), "r"(b));
    unsigned q;
    asm volatile("{ .reg .b64 tmp; mov.b64 tmp, {%1, %2}; mov.b64 {%0, _}, tmp; }" : "=r"(q) : "r"(a), "r"(b));
    unsigned long long c; asm volatile("mov.u64 %0, %%clock64;" : "=l"(c));
    unsigned sm; asm("mov.u32 %0, %%smid;" : "=r"(sm));
    unsigned gt; asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(c));
    asm("mov.u32 %0, %%dynamic_smem_size;" : "=r"(gt));
    out[threadIdx.x] = r + q + (unsigned)c + sm + gt;
}
