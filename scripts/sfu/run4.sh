#!/bin/bash
# run4.sh: the final proof with the fixed mul.ftz, the contraction record
# from cuobjdump, and tests/kernels/contract.cu through the driver's JIT.
cd "$(dirname "$0")"
OUTD=${OUT:-/tmp/out}; mkdir -p $OUTD
nvcc -O2 -o contract_h100 contract_h100.cu -lcuda && ./contract_h100 ptx/contract.ptx > $OUTD/contract-h100.txt 2>&1
(python3 contraction_truth.py --cuobjdump ptx/*.ptx > $OUTD/fma-contraction-cuobjdump.txt 2>&1 &)
ZINC=$PWD/inc ZLIB=$PWD/inc/libz.a ./build_prove.sh $PWD/sim $PWD/sim/sfu_tables.bin > build.log 2>&1 || { tail -30 build.log; exit 1; }
./prove 16 2>&1 | tee $OUTD/prove.txt
sleep 5; wait
ls -la $OUTD
