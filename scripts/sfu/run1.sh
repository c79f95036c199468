#!/bin/bash
# run1.sh: the explorer's GPU run (tables, structure counts, SASS).
cd "$(dirname "$0")"
OUTD=${OUT:-/tmp/out}; mkdir -p $OUTD
{ nvidia-smi; ptxas --version; nvcc --version; } > $OUTD/env.txt 2>&1
nvcc -O3 -arch=sm_90 -fmad=false -o explore explore.cu -lcuda || exit 1
nvcc -cubin -O3 -arch=sm_90 -fmad=false -o raw.cubin raw.cu || exit 1
nvcc -cubin -O3 -arch=sm_90 -o probes.cubin probes.cu || exit 1
mkdir -p tabs sass
( time ./explore tabs ) > $OUTD/report.txt 2>&1
cuobjdump -sass probes.cubin > sass/probes.sass 2>&1
cuobjdump -sass raw.cubin > sass/raw.sass 2>&1
cuobjdump -sass raw_patched.cubin > sass/raw_patched.sass 2>&1
ptxas -arch=sm_90 -O3 fma_probes.ptx -o fma.cubin && cuobjdump -sass fma.cubin > sass/fma_probes.sass 2>&1
cp fma.cubin sass/
for f in ptx/*.ptx; do
  b=$(basename $f .ptx)
  ptxas -arch=sm_90 -O3 -lineinfo $f -o sass/$b.cubin 2> sass/$b.err
  cuobjdump -sass sass/$b.cubin > sass/$b.sass 2>&1
  nvdisasm -c -g sass/$b.cubin > sass/$b.nvd 2>&1
done
tar cf - sass | xz -T8 -6 > $OUTD/sass.tar.xz
(cd tabs && tar cf - . ) | xz -T16 -6 > tabs.tar.xz
ls -la tabs.tar.xz $OUTD
split -b 15M tabs.tar.xz $OUTD/tabs.part-
ls -la $OUTD
