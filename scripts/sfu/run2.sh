#!/bin/bash
# run2.sh: the second explorer run.
cd "$(dirname "$0")"
OUTD=${OUT:-/tmp/out}; mkdir -p $OUTD
nvcc -O3 -arch=sm_90 -fmad=false -o explore2 explore2.cu -lcuda || exit 1
nvcc -cubin -O3 -arch=sm_90 -fmad=false -o raw.cubin raw.cu || exit 1
mkdir -p tabs2
( time ./explore2 tabs2 ) > $OUTD/report2.txt 2>&1
(cd tabs2 && tar cf - . ) | xz -T16 -6 > tabs2.tar.xz
split -b 15M tabs2.tar.xz $OUTD/tabs2.part-
ls -la $OUTD
