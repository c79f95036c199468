#!/usr/bin/python3
"""numba_sum_reduce.py: seed 003's sum_reduce on Numba's CUDA simulator beside
warpsim, on the same launch, one core -- the numbers behind issue #17's
"sum_reduce >= 5,000x Numba's simulator".

The kernel is the seed's own (../shared/seeds/003_*.txt, section 2.3.5):
a block's values staged in shared memory, thread 0 sums them and adds the
block's sum to s[0] with one atomic.  warpsim runs the same kernel compiled
to PTX (tests/kernels/bench.ptx, bench_sum_reduce; tests/bench_exec.c times
it at 1024 blocks of 256).

Run from the repository root, after `make` (needs python3-numba and numpy;
Debian: apt-get install python3-numba):

    taskset -c 0 /usr/bin/python3 scripts/numba_sum_reduce.py [BLOCKS ...]

(/usr/bin/python3: the Debian python that python3-numba installs into.)

BLOCKS: grid sizes to time (default 16 1024, the bench's size; Numba takes
about 0.08 s a block here, so 1024 blocks is a minute and a half).  Numba's
simulator runs a block's threads as Python threads, one block after
another, so its time grows with the grid.  warpsim runs the same grid
through `warpsim run --threads 1` (best of three; its time is the launch's,
DeviceStats.seconds, without loading the PTX; its input is all 0.5, which
changes none of the work).  Prints, per grid, both times and their ratio.
"""
import json
import os
import subprocess
import sys
import time

os.environ["NUMBA_ENABLE_CUDASIM"] = "1"  # before numba is imported

import numpy as np  # noqa: E402
from numba import cuda  # noqa: E402

BLOCK = 256


@cuda.jit
def sum_reduce(a, s):
    shared_staging = cuda.shared.array(shape=512, dtype=np.float32)
    shared_staging[cuda.threadIdx.x] = a[cuda.blockIdx.x * cuda.blockDim.x + cuda.threadIdx.x]
    cuda.syncthreads()

    local_sum = float(0.0)
    if cuda.threadIdx.x == 0:
        for i in range(cuda.blockDim.x):
            local_sum = local_sum + shared_staging[i]
        cuda.atomic.add(s, 0, local_sum)


def inputs(blocks):
    n = blocks * BLOCK
    i = np.arange(n, dtype=np.int64)
    return ((i * 7) % 1000).astype(np.float32) * np.float32(0.001)  # as tests/bench_exec.c


def numba_time(blocks):
    a = inputs(blocks)
    s = np.zeros(1, dtype=np.float32)
    t = time.perf_counter()
    sum_reduce[blocks, BLOCK](a, s)
    t = time.perf_counter() - t
    return t, float(s[0]), float(a.astype(np.float64).sum())


def warpsim_time(blocks, warpsim="build/warpsim", runs=3):
    """Best launch time (DeviceStats.seconds) of `runs` launches, one thread."""
    n = blocks * BLOCK
    best = None
    for _ in range(runs):
        out = subprocess.run(
            [warpsim, "run", "tests/kernels/bench.ptx", "--kernel", "bench_sum_reduce",
             "--grid", str(blocks), "--block", str(BLOCK), "--threads", "1",
             "--arg", "buf:f32[%d]=fill:0.5" % n, "--arg", "buf:f32[1]=fill:0",
             "--json", "--quiet"],
            check=True, capture_output=True, text=True).stdout
        st = json.loads(out)["stats"]
        if best is None or st["seconds"] < best[0]:
            best = (st["seconds"], st["warp_insts"])
    return best


def main():
    sizes = [int(v) for v in sys.argv[1:]] or [16, 1024]
    for g in sizes:
        tn, got, want = numba_time(g)
        tw, wi = warpsim_time(g)
        print("%5d blocks of %d: Numba simulator %8.3f s (%.4f s a block; sum %.3f, want %.3f); "
              "warpsim %.6f s (%.2f us a block; %d warp insts, %.1f M/s): %.0fx"
              % (g, BLOCK, tn, tn / g, got, want, tw, tw / g * 1e6, wi, wi / tw * 1e-6, tn / tw), flush=True)


if __name__ == "__main__":
    main()
