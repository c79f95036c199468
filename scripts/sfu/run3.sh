#!/bin/bash
# run3.sh: tanh's table, then the exhaustive proof (prove.cu) with the final blob.
cd "$(dirname "$0")"
OUTD=${OUT:-/tmp/out}; mkdir -p $OUTD
nvcc -O3 -arch=sm_90 -o collect_tanh collect_tanh.cu && ./collect_tanh || exit 1
gcc -O2 -Iinc -o sfu_pack sfu_pack.c inc/libz.a || exit 1
cp sim/sfu_tables.bin tables.bin && ./sfu_pack -a tables.bin tanh tanh.u32 || exit 1
cp tables.bin $OUTD/sfu_tables.bin
ZINC=$PWD/inc ZLIB=$PWD/inc/libz.a ./build_prove.sh $PWD/sim $PWD/tables.bin > build.log 2>&1 || { tail -30 build.log; exit 1; }
./prove 16 2>&1 | tee $OUTD/prove.txt
xz -T4 -c samples.u32 > $OUTD/samples.u32.xz
ls -la $OUTD
