#!/usr/bin/env bash
# Nodes per second of Tengen and Rapfi's classical search, one thread each, in one run
# on this machine. Rapfi is a peer built outside this repository: point RAPFI at its
# pbrain-rapfi binary (dhbloo/rapfi, built with cmake). Usage: RAPFI=/path/pbrain-rapfi bench/compare_nps.sh
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
for i in 1 2 3; do
  echo "== run $i"
  ./target/release/tengen bench --depth 8 | tail -1 | sed 's/^/tengen: /'
  if [ -n "${RAPFI:-}" ]; then
    (cd "$(dirname "$RAPFI")" && "$RAPFI" bench 2>&1 | grep -E "Nodes/s" | sed 's/^/rapfi:  /')
  fi
done
