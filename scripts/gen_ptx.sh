#!/bin/sh
# gen_ptx.sh FILE.cu [OUT.ptx] [ARCH]: compile a kernel to the PTX warpsim
# commits (nvcc -ptx -lineinfo -O3).  The same .cu must give the same PTX
# text in every checkout, but nvcc writes absolute paths into .file and
# derives the names of internal-linkage symbols from the source's absolute
# path; so the source's folder tree (lessons/, tests/kernels/) is copied to
# one fixed place and compiled there, and the paths in the result are made
# relative to the repository root (toolkit headers become "cuda/include/...").
# OUT defaults to FILE.ptx beside it; "-" writes to standard output.  ARCH
# defaults to sm_90.
set -e
src=$1
out=${2:-${src%.cu}.ptx}
arch=${3:-sm_90}
root=$(cd "$(dirname "$0")/.." && pwd)
nvcc=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
[ -x "$nvcc" ] || { echo "gen_ptx: nvcc not found" >&2; exit 3; }
fixed=/tmp/warpsim-ptx-build
tmp=$(mktemp)
(
    flock 9
    rm -rf "$fixed"
    mkdir -p "$fixed"
    top=${src%%/*}
    cp -r "$root/$top" "$fixed/$top"
    # kernels outside lessons/ may include lessons/include/tile.cuh
    if [ "$top" != lessons ] && [ -d "$root/lessons/include" ]; then
        mkdir -p "$fixed/lessons" && cp -r "$root/lessons/include" "$fixed/lessons/include"
    fi
    cd "$fixed" && "$nvcc" -ptx -lineinfo -O3 -arch="$arch" "$src" -o "$tmp"
) 9>/tmp/warpsim-ptx-build.lock
sed -e "s|\"$fixed/|\"|" -e 's|"/[^"]*/include/\([^"]*\)"|"cuda/include/\1"|' "$tmp" > "$tmp.n"
rm -f "$tmp"
if [ "$out" = - ]; then cat "$tmp.n"; rm -f "$tmp.n"; else mv "$tmp.n" "$out"; fi
