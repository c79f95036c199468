#!/bin/sh
# run_oracle.sh: compile tests/oracle/occ_oracle.cpp against the CUDA
# toolkit's cuda_occupancy.h with g++ and run it, writing its records to
# stdout (see occ_oracle.cpp).  When g++ or the header is missing it prints
# one line "skip: REASON" and exits 0, so the calling test can skip.
# The header is looked for in $CUDA_HOME/include, then /usr/local/cuda/include.
here=$(dirname "$0")
hdr=""
for d in "${CUDA_HOME:-}/include" "${CUDA_PATH:-}/include" /usr/local/cuda/include; do
    if [ -f "$d/cuda_occupancy.h" ]; then hdr=$d; break; fi
done
if [ -z "$hdr" ]; then
    echo "skip: cuda_occupancy.h not found (set CUDA_HOME to a CUDA toolkit)"; exit 0
fi
CXX=${CXX_ORACLE:-g++}
if ! command -v "$CXX" >/dev/null 2>&1; then
    echo "skip: $CXX not found, the occupancy oracle needs a C++ compiler"; exit 0
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/warpsim-oracle.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
if ! "$CXX" -std=c++11 -O1 -w -I"$hdr" "$here/occ_oracle.cpp" -o "$tmp/occ_oracle" 2>"$tmp/log"; then
    echo "skip: the oracle did not compile against $hdr/cuda_occupancy.h: $(head -c 300 "$tmp/log" | tr '\n' ' ')"
    exit 0
fi
"$tmp/occ_oracle"
