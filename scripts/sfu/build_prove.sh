#!/bin/bash
# build_prove.sh SIMDIR BLOB: builds ./prove from the simulator's C sources
# (SIMDIR) with the table blob BLOB embedded.
set -e
S=$1; B=$2; ZI=${ZINC:+-I$ZINC}; ZL=${ZLIB:--lz}
mkdir -p obj
for f in alu_sfu sfu_table alu_float alu_cvt error ptx_types; do
  gcc -std=c11 -D_GNU_SOURCE -O2 -frounding-math -ffp-contract=off -I$S $ZI -c $S/$f.c -o obj/$f.o
done
gcc -std=c11 -O2 -DSFU_BLOB_PATH="\"$B\"" -c $S/sfu_blob.c -o obj/sfu_blob.o
gcc -std=c11 -D_GNU_SOURCE -O2 -I$S -I. -c prove_host.c -o obj/prove_host.o
nvcc -O3 -arch=sm_90 -fmad=false -I$S -I. -o prove prove.cu obj/*.o $ZL -lpthread
