#!/bin/sh
# deps.sh: make sure the Debian packages warpsim builds against are present.
# As root it installs what is missing; otherwise it prints the apt-get line.
# Called by `make` (and so by both quick-start commands).  xvfb and x11-apps
# (xwd) let `make test` open the visualizer's real window and photograph it.
need=""
have() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "ok installed"; }
for p in build-essential pkg-config libsdl2-dev libsdl2-ttf-dev libpng-dev zlib1g-dev libedit-dev libcmocka-dev libxxhash-dev fonts-dejavu-core xvfb x11-apps; do
    have "$p" || need="$need $p"
done
[ -z "$need" ] && exit 0
if [ "$(id -u)" = 0 ]; then
    echo "deps: installing$need"
    export DEBIAN_FRONTEND=noninteractive
    { apt-get update -qq && apt-get install -y -qq $need; } >/tmp/warpsim-deps.log 2>&1 || {
        echo "deps: apt-get failed; see /tmp/warpsim-deps.log" >&2; exit 1; }
else
    echo "warpsim needs these Debian packages:$need" >&2
    echo "install them with:  sudo apt-get install -y$need" >&2
    exit 1
fi
