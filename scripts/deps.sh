#!/bin/sh
# deps.sh: make sure the Debian packages warpsim builds against are present.
# Run by the Makefile before it asks pkg-config anything, so a fresh machine's
# first `make` works.  As root on Debian it installs what is missing; as
# another user it says once which optional features the build will lack and
# which packages bring them, and lets the build go on without them.
# Required: a C compiler, make, zlib.  Optional: SDL2 + SDL2_ttf + libpng
# (the visualizer's window and PNGs), libedit (line editing in the stepper),
# cmocka (the tests), xxhash (a faster hash; warpsim has its own otherwise),
# xvfb and x11-apps (the tests that open the visualizer's real window).
# WARPSIM_NO_DEPS=1 skips this script.
[ -n "$WARPSIM_NO_DEPS" ] && exit 0
command -v dpkg-query >/dev/null 2>&1 || exit 0      # not Debian: nothing to say
required="build-essential pkg-config zlib1g-dev"
optional="libsdl2-dev libsdl2-ttf-dev libpng-dev fonts-dejavu-core libedit-dev libcmocka-dev libxxhash-dev xvfb x11-apps"
have() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "ok installed"; }
need_req=""; need_opt=""
for p in $required; do have "$p" || need_req="$need_req $p"; done
for p in $optional; do have "$p" || need_opt="$need_opt $p"; done
need="$need_req$need_opt"
[ -z "$need" ] && exit 0
if [ "$(id -u)" = 0 ]; then
    echo "deps: installing$need" >&2
    export DEBIAN_FRONTEND=noninteractive
    # A GPU node may have root and no package mirror: give apt a bounded time,
    # and on failure build with what is there (the compiler names anything
    # truly missing; each optional feature says which package it lacks).
    { timeout 300 apt-get update -qq && timeout 600 apt-get install -y -qq $need; } >/tmp/warpsim-deps.log 2>&1 || {
        echo "deps: apt-get could not install$need (see /tmp/warpsim-deps.log); building with what is here" >&2
        exit 0; }
    exit 0
fi
if [ -n "$need_req" ]; then
    echo "warpsim needs these Debian packages to build:$need_req" >&2
    echo "install them with:  sudo apt-get install -y$need_req" >&2
    exit 1
fi
# Say it once per checkout, not on every make.
stamp=build/.deps-noted
[ -f "$stamp" ] && exit 0
echo "deps: building without some optional parts (no root to install:$need_opt)." >&2
echo "deps: each feature that lacks its package says which one brings it; to have them all:" >&2
echo "deps:   sudo apt-get install -y$need_opt" >&2
mkdir -p build && : > "$stamp"
exit 0
