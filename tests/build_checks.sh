#!/bin/sh
# build_checks.sh: build warpsim as a GPU node without -dev packages would
# (PKG_CONFIG=false, and a pkg-config first on PATH that always fails), into
# build/minimal, and check that it runs lesson 1, a launch and the recorded
# cross-check, and that the visualizer says which packages bring it; then
# `make install` it under a temporary PREFIX and run the installed warpsim
# from another folder, and `make uninstall`.
# Run by `make test`; exits non-zero with the failing step named.
set -u
cd "$(dirname "$0")/.."
b=build/minimal
# A plain build whatever called us: `make asan` passes SANFLAGS and OPT to
# its sub-make through MAKEFLAGS, and they must not reach this one.
unset MAKEFLAGS MFLAGS MAKELEVEL SANFLAGS OPT
fake=$(mktemp -d) || exit 1
trap 'rm -rf "$fake"' EXIT INT TERM
printf '#!/bin/sh\nexit 1\n' > "$fake/pkg-config"; chmod +x "$fake/pkg-config"
fail() { echo "minimal build: $*" >&2; exit 1; }
PATH="$fake:$PATH" WARPSIM_NO_DEPS=1 make -s -j2 BUILD=$b PKG_CONFIG=false $b/warpsim >$fake/make.log 2>&1 ||
    { cat $fake/make.log >&2; fail "make failed"; }
grep -q 'sdl= libedit= xxhash= ' $b/.features || fail "features found: $(cat $b/.features)"
for lib in libSDL2 libedit libcmocka libpng libxxhash; do
    ldd $b/warpsim | grep -q "$lib" && fail "warpsim links $lib"
done
w=$b/warpsim
$w lesson 1 </dev/null >$fake/out 2>&1 || fail "warpsim lesson 1 failed"
$w run lessons/01-threads-and-races/kernel.ptx --kernel atomic_sum --grid 4 --block 256 \
    --arg buf:i32[1000]=fill:1 --arg buf:i32[1]=fill:0 --arg i32:1000 --json >$fake/out 2>&1 ||
    fail "warpsim run failed"
grep -q '"values": \[1000\]' $fake/out || fail "warpsim run: wrong sum: $(head -c 300 $fake/out)"
$w xcheck --all --recorded traces/hw/nvidia-h100-80gb-hbm3 >$fake/out 2>&1 || fail "warpsim xcheck --recorded failed"
grep -q ' 0 mismatches' $fake/out || fail "warpsim xcheck: $(tail -2 $fake/out)"
$w run lessons/01-threads-and-races/kernel.ptx --kernel atomic_sum --grid 2 --block 64 \
    --arg buf:i32[128]=fill:1 --arg buf:i32[1]=fill:0 --arg i32:128 --trace $fake/t.wst >/dev/null 2>&1 ||
    fail "warpsim run --trace failed"
$w viz $fake/t.wst --png $fake/t.png >$fake/out 2>&1
[ $? -eq 2 ] || fail "warpsim viz without SDL2 should exit 2"
grep -q 'install libsdl2-dev libsdl2-ttf-dev' $fake/out || fail "warpsim viz: $(cat $fake/out)"
echo "minimal build (no SDL2, libedit, cmocka, xxhash): lesson 1, run, xcheck --recorded, viz's message: ok"

p=$fake/prefix
WARPSIM_NO_DEPS=1 make -s BUILD=$b PKG_CONFIG=false PREFIX=$p install >$fake/make.log 2>&1 ||
    { cat $fake/make.log >&2; fail "make install failed"; }
(cd / && "$p/bin/warpsim" --version) | grep -q "^warpsim $(cat VERSION)" || fail "installed warpsim --version"
(cd / && "$p/bin/warpsim" lesson 1 </dev/null >$fake/out 2>&1) || fail "installed warpsim lesson 1 (from /): $(tail -3 $fake/out)"
grep -q "warpsim step $p/share/warpsim/lessons/01-threads-and-races/kernel.ptx" $fake/out ||
    fail "installed lesson 1 prints a stepper command that does not work from /"
[ -f "$p/share/bash-completion/completions/warpsim" ] || fail "no completion script installed"
WARPSIM_NO_DEPS=1 make -s BUILD=$b PKG_CONFIG=false PREFIX=$p uninstall >/dev/null 2>&1 || fail "make uninstall failed"
[ ! -e "$p/bin/warpsim" ] && [ ! -e "$p/share/warpsim" ] || fail "make uninstall left files behind"
echo "make install PREFIX=... / uninstall: the installed warpsim runs lesson 1 from /: ok"

# bash completion: subcommands from --help, options from SUBCOMMAND --help
got=$(bash -c 'source scripts/warpsim-completion.bash
    COMP_WORDS=(build/warpsim ru); COMP_CWORD=1; _warpsim; echo "${COMPREPLY[*]}"
    COMP_WORDS=(build/warpsim run --trace); COMP_CWORD=2; _warpsim; echo "${COMPREPLY[*]}"
    COMP_WORDS=(build/warpsim viz --view s); COMP_CWORD=3; _warpsim; echo "${COMPREPLY[*]}"' 2>&1)
[ "$got" = "run
--trace --trace-level
sm" ] || fail "bash completion gave: $got"
echo "bash completion (subcommands, options, values): ok"
