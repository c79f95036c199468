// occ_oracle.cpp: the test oracle for warpsim's occupancy model.  It feeds a
// deterministic sweep of launch configurations to the CUDA toolkit's own
// cuda_occupancy.h (used here only as an oracle: this program is compiled at
// test time by tests/oracle/run_oracle.sh and never linked into warpsim) and
// prints inputs and expected results, one line each, for
// tests/test_occupancy.c to compare against sim/occupancy.c.
//
// The device properties below are transcribed separately from
// ../shared/reference/arch-facts.md (Tables 1 and 2), so the test also
// catches a typo in sim/arch.c: it compares them with warpsim's profiles.
//
// Output (space-separated; every line is one record):
//   header MAJOR MINOR                 highest CC the header supports
//   unsupported MAJOR MINOR            a CC the header does not know
//   dev MAJOR MINOR thr_sm thr_blk regs_sm regs_blk smem_sm smem_blk optin reserved
//   o MAJOR MINOR block regs static dyn maxdyn optin carveout cache barriers virtual
//     : status blocks flags lim_regs lim_smem lim_warps lim_blocks lim_bars lim_virt
//       alloc_regs alloc_smem
//   s MAJOR MINOR maxthreads regs static dyn perthread maxdyn optin carveout cache
//     barriers sms : status min_grid block_size
//     (dyn = constant dynamic smem; perthread > 0: dynamic smem = block x perthread)
//   end COUNT
#include <cuda_occupancy.h>

#include <climits>
#include <cstdio>
#include <cstdlib>

struct Dev {
    int major, minor;
    int thr_sm, regs_sm, regs_blk;
    size_t smem_sm, smem_blk, optin, reserved;
    int sms;
};

static const Dev devs[] = {
    // CC     threads/SM regs/SM regs/blk smem/SM  48KB   opt-in  reserve SMs
    {7, 0, 2048, 65536, 65536, 98304, 49152, 98304, 0, 80},
    {7, 5, 1024, 65536, 65536, 65536, 49152, 65536, 0, 40},
    {8, 0, 2048, 65536, 65536, 167936, 49152, 166912, 1024, 108},
    {8, 6, 1536, 65536, 65536, 102400, 49152, 101376, 1024, 82},
    {8, 7, 1536, 65536, 65536, 167936, 49152, 166912, 1024, 16},
    {8, 9, 1536, 65536, 65536, 102400, 49152, 101376, 1024, 128},
    {9, 0, 2048, 65536, 65536, 233472, 49152, 232448, 1024, 132},
    {10, 0, 2048, 65536, 65536, 233472, 49152, 232448, 1024, 148},
    {10, 3, 2048, 65536, 65536, 233472, 49152, 232448, 1024, 160},
    {12, 0, 1536, 65536, 65536, 102400, 49152, 101376, 1024, 170},
};

static unsigned long long rng_state = 0x9e3779b97f4a7c15ULL;

static unsigned rnd(unsigned n)  // uniform-ish in 0..n-1
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (unsigned)((rng_state >> 11) % n);
}

static cudaOccDeviceProp props_of(const Dev &d)
{
    cudaOccDeviceProp p;
    p.computeMajor = d.major;
    p.computeMinor = d.minor;
    p.maxThreadsPerBlock = 1024;
    p.maxThreadsPerMultiprocessor = d.thr_sm;
    p.regsPerBlock = d.regs_blk;
    p.regsPerMultiprocessor = d.regs_sm;
    p.warpSize = 32;
    p.sharedMemPerBlock = d.smem_blk;
    p.sharedMemPerMultiprocessor = d.smem_sm;
    p.numSms = d.sms;
    p.sharedMemPerBlockOptin = d.optin;
    p.reservedSharedMemPerBlock = d.reserved;
    return p;
}

struct Cfg {
    int block, regs;
    size_t stat, dyn, maxdyn;
    int optin, carveout, cache, barriers, virt;
};

static long count;

static void emit(const Dev &d, const Cfg &c)
{
    cudaOccDeviceProp p = props_of(d);
    cudaOccFuncAttributes a;
    a.maxThreadsPerBlock = 1024;
    a.numRegs = c.regs;
    a.sharedSizeBytes = c.stat;
    a.partitionedGCConfig = PARTITIONED_GC_OFF;
    a.shmemLimitConfig = c.optin ? FUNC_SHMEM_LIMIT_OPTIN : FUNC_SHMEM_LIMIT_DEFAULT;
    a.maxDynamicSharedSizeBytes = c.maxdyn;
    a.numBlockBarriers = c.barriers;
    a.virtualResourceCount = c.virt;
    cudaOccDeviceState s;
    s.cacheConfig = (cudaOccCacheConfig)c.cache;
    s.carveoutConfig = c.carveout;
    cudaOccResult r = cudaOccResult();
    cudaOccError e = cudaOccMaxActiveBlocksPerMultiprocessor(&r, &p, &a, &s, c.block, c.dyn);
    std::printf("o %d %d %d %d %zu %zu %zu %d %d %d %d %d : %d %d %u %d %d %d %d %d %d %d %zu\n",
                d.major, d.minor, c.block, c.regs, c.stat, c.dyn, c.maxdyn, c.optin,
                c.carveout, c.cache, c.barriers, c.virt, (int)e,
                e ? 0 : r.activeBlocksPerMultiprocessor, e ? 0u : r.limitingFactors,
                e ? 0 : r.blockLimitRegs, e ? 0 : r.blockLimitSharedMem,
                e ? 0 : r.blockLimitWarps, e ? 0 : r.blockLimitBlocks,
                e ? 0 : r.blockLimitBarriers, e ? 0 : r.blockLimitVirtual,
                e ? 0 : r.allocatedRegistersPerBlock, e ? (size_t)0 : r.allocatedSharedMemPerBlock);
    count++;
}

struct PerThread {
    size_t k;
    size_t operator()(int block) const { return k * (size_t)block; }
};

static void emit_search(const Dev &d, int maxthreads, const Cfg &c, size_t perthread)
{
    cudaOccDeviceProp p = props_of(d);
    cudaOccFuncAttributes a;
    a.maxThreadsPerBlock = maxthreads;
    a.numRegs = c.regs;
    a.sharedSizeBytes = c.stat;
    a.partitionedGCConfig = PARTITIONED_GC_OFF;
    a.shmemLimitConfig = c.optin ? FUNC_SHMEM_LIMIT_OPTIN : FUNC_SHMEM_LIMIT_DEFAULT;
    a.maxDynamicSharedSizeBytes = c.maxdyn;
    a.numBlockBarriers = c.barriers;
    a.virtualResourceCount = 0;
    cudaOccDeviceState s;
    s.cacheConfig = (cudaOccCacheConfig)c.cache;
    s.carveoutConfig = c.carveout;
    int grid = 0, block = 0;
    cudaOccError e;
    if (perthread) {
        PerThread f = {perthread};
        e = cudaOccMaxPotentialOccupancyBlockSizeVariableSMem(&grid, &block, &p, &a, &s, f);
    } else {
        e = cudaOccMaxPotentialOccupancyBlockSize(&grid, &block, &p, &a, &s, c.dyn);
    }
    std::printf("s %d %d %d %d %zu %zu %zu %zu %d %d %d %d %d : %d %d %d\n", d.major, d.minor,
                maxthreads, c.regs, c.stat, c.dyn, perthread, c.maxdyn, c.optin, c.carveout,
                c.cache, c.barriers, d.sms, (int)e, e ? 0 : grid, e ? 0 : block);
    count++;
}

static Cfg base(void)
{
    Cfg c;
    c.block = 256;
    c.regs = 32;
    c.stat = 0;
    c.dyn = 0;
    c.maxdyn = 49152;
    c.optin = 1;
    c.carveout = -1;
    c.cache = 0;
    c.barriers = 1;
    c.virt = 0;
    return c;
}

static bool supported(const Dev &d)
{
    if (d.major > __CUDA_OCC_MAJOR__ || (d.major == __CUDA_OCC_MAJOR__ && d.minor > __CUDA_OCC_MINOR__))
        return false;
    // Probe: a header that does not know this minor answers UNKNOWN_DEVICE.
    cudaOccDeviceProp p = props_of(d);
    cudaOccFuncAttributes a;
    cudaOccDeviceState s;
    cudaOccResult r = cudaOccResult();
    a.maxThreadsPerBlock = 1024;
    return cudaOccMaxActiveBlocksPerMultiprocessor(&r, &p, &a, &s, 32, 0) == CUDA_OCC_SUCCESS;
}

static void sweep(const Dev &d)
{
    static const int regs_few[] = {0, 1, 16, 24, 32, 40, 64, 72, 128, 168, 255};
    static const int blocks_few[] = {1, 31, 32, 33, 64, 96, 100, 128, 192, 256, 320, 384,
                                     480, 512, 640, 768, 800, 1000, 1024, 1025};
    size_t smax = d.smem_sm;

    // 1. every block size (and a few past the 1024 limit) x registers
    for (int b = 1; b <= 1040; b++)
        for (int ri = 0; ri < 11; ri++) {
            Cfg c = base();
            c.block = b;
            c.regs = regs_few[ri];
            emit(d, c);
        }
    // 2. every register count 0..260 x block sizes
    for (int r = 0; r <= 260; r++)
        for (int bi = 0; bi < 20; bi++) {
            Cfg c = base();
            c.regs = r;
            c.block = blocks_few[bi];
            emit(d, c);
        }
    // 3. shared memory: every 256 bytes (+/- a few around each step) up to
    //    past the SM size, static and dynamic, with and without the opt-in
    for (size_t s = 0; s <= smax + 4096; s += 256)
        for (int v = 0; v < 3; v++) {
            size_t bytes = v == 0 ? s : v == 1 ? s + 1 : (s ? s - 1 : 0);
            Cfg c = base();
            c.block = 128;
            c.regs = 0;
            int mode = (int)((s / 256 + v) % 4);
            if (mode == 0) {            // all dynamic, opted in
                c.dyn = bytes;
                c.maxdyn = bytes;
            } else if (mode == 1) {     // static up to 48 KB, rest dynamic
                c.stat = bytes < 49152 ? bytes : 49152;
                c.dyn = bytes - c.stat;
                c.maxdyn = c.dyn > 49152 - c.stat ? c.dyn : 49152 - c.stat;
            } else if (mode == 2) {     // no opt-in: default attribute
                c.dyn = bytes;
                c.maxdyn = 49152;
            } else {                    // header's non-opt-in mode
                c.dyn = bytes;
                c.maxdyn = bytes;
                c.optin = 0;
            }
            emit(d, c);
        }
    // 4. every carveout x legacy cache config x a few footprints
    static const size_t fp[] = {0, 1, 4096, 8191, 9216, 33 * 1024, 40000, 65536, 99 * 1024,
                                101 * 1024, 140000, 200000, 227 * 1024};
    for (int co = -1; co <= 100; co++)
        for (int cache = 0; cache < 4; cache++)
            for (size_t fi = 0; fi < sizeof fp / sizeof *fp; fi++) {
                Cfg c = base();
                c.carveout = co;
                c.cache = cache;
                c.dyn = fp[fi];
                c.maxdyn = fp[fi];
                c.block = 64 << (fi % 4);
                emit(d, c);
            }
    // 5. barriers and virtual resources
    for (int bar = 0; bar <= 16; bar++)
        for (int vr = 0; vr <= 130; vr += 13)
            for (int bi = 0; bi < 20; bi += 3) {
                Cfg c = base();
                c.barriers = bar;
                c.virt = vr;
                c.block = blocks_few[bi];
                c.regs = 0;
                emit(d, c);
            }
    // 6. random mixes of everything
    for (int i = 0; i < 6000; i++) {
        Cfg c = base();
        c.block = rnd(8) ? 1 + (int)rnd(1024) : 1 + (int)rnd(1100);
        c.regs = rnd(10) ? (int)rnd(256) : (int)rnd(262);
        c.stat = rnd(3) ? 0 : rnd(4) ? rnd(49153) : rnd(60000);
        c.dyn = rnd(3) == 0 ? 0 : rnd(2) ? rnd(49153) : rnd((unsigned)smax + 2048);
        switch (rnd(5)) {
        case 0: c.maxdyn = c.dyn; break;
        case 1: c.maxdyn = c.stat < 49152 ? 49152 - c.stat : 0; break;
        case 2: c.maxdyn = c.dyn ? c.dyn - 1 : 0; break;
        case 3: c.maxdyn = rnd((unsigned)smax + 1); break;
        default: c.maxdyn = c.dyn > 49152 ? c.dyn : 49152; break;
        }
        c.optin = rnd(8) != 0;
        c.carveout = rnd(4) == 0 ? -1 : (int)rnd(101);
        c.cache = rnd(4) == 0 ? (int)rnd(4) : 0;
        c.barriers = rnd(4) == 0 ? (int)rnd(17) : 1;
        c.virt = rnd(8) == 0 ? (int)rnd(140) : 0;
        emit(d, c);
    }
    // 7. out-of-range carveouts and bad inputs (the header answers an error)
    for (int co = -3; co <= 103; co += 106) {
        Cfg c = base();
        c.carveout = co;
        emit(d, c);
    }
    {
        Cfg c = base();
        c.regs = -1;
        emit(d, c);
        c = base();
        c.block = 0;
        emit(d, c);
    }
    // 8. cudaOccupancyMaxPotentialBlockSize
    for (int i = 0; i < 400; i++) {
        Cfg c = base();
        int maxthreads = rnd(3) ? 1024 : 1 + (int)rnd(1024);
        c.regs = (int)rnd(256);
        c.stat = rnd(2) ? 0 : rnd(30000);
        size_t perthread = 0;
        if (rnd(2)) {
            c.dyn = rnd(3) ? rnd(49153) : rnd((unsigned)smax);
        } else {
            perthread = 1 + rnd(200);
        }
        c.maxdyn = rnd(2) ? 300000 : 49152;
        c.optin = rnd(6) != 0;
        c.carveout = rnd(3) ? -1 : (int)rnd(101);
        c.cache = rnd(4) == 0 ? (int)rnd(4) : 0;
        c.barriers = rnd(4) ? 1 : (int)rnd(9);
        emit_search(d, maxthreads, c, perthread);
    }
}

int main(void)
{
    std::printf("header %d %d\n", __CUDA_OCC_MAJOR__, __CUDA_OCC_MINOR__);
    for (size_t i = 0; i < sizeof devs / sizeof *devs; i++) {
        const Dev &d = devs[i];
        if (!supported(d)) {
            std::printf("unsupported %d %d\n", d.major, d.minor);
            continue;
        }
        std::printf("dev %d %d %d 1024 %d %d %zu %zu %zu %zu\n", d.major, d.minor, d.thr_sm,
                    d.regs_sm, d.regs_blk, d.smem_sm, d.smem_blk, d.optin, d.reserved);
        sweep(d);
    }
    std::printf("end %ld\n", count);
    return 0;
}
