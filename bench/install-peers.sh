#!/bin/sh
# Installs the peers the Go match scripts play against: GNU Go 3.8 (Debian's `gnugo`,
# which puts the binary in /usr/games). Pachi is built outside this repository by hand
# (see the README); nothing here builds another engine.
set -e
if ! command -v gnugo >/dev/null 2>&1 && [ ! -x /usr/games/gnugo ]; then
    if [ "$(id -u)" -ne 0 ]; then SUDO=sudo; else SUDO=; fi
    $SUDO apt-get update
    $SUDO apt-get install -y gnugo
fi
if command -v gnugo >/dev/null 2>&1; then command -v gnugo; else echo /usr/games/gnugo; fi
