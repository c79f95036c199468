#!/bin/sh
# gen_ptx.sh FILE.cu [OUT.ptx] [ARCH]: compile a kernel to the PTX warpsim
# commits (nvcc -ptx -lineinfo -O3), with .file paths made relative to the
# repository root (and toolkit headers to "cuda/include/..."), so the same
# .cu gives the same PTX text on every machine.  OUT defaults to FILE.ptx
# beside it; "-" writes to standard output.  ARCH defaults to sm_90.
set -e
src=$1
out=${2:-${src%.cu}.ptx}
arch=${3:-sm_90}
root=$(cd "$(dirname "$0")/.." && pwd)
nvcc=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
[ -x "$nvcc" ] || { echo "gen_ptx: nvcc not found" >&2; exit 3; }
tmp=$(mktemp)
(cd "$root" && "$nvcc" -ptx -lineinfo -O3 -arch="$arch" "$src" -o "$tmp")
sed -e "s|\"$root/|\"|" -e 's|"[^"]*/include/\([^"]*\)"|"cuda/include/\1"|' "$tmp" > "$tmp.n"
rm -f "$tmp"
if [ "$out" = - ]; then cat "$tmp.n"; rm -f "$tmp.n"; else mv "$tmp.n" "$out"; fi
