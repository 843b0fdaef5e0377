#!/usr/bin/env bash
# One thread's sequential read bandwidth on this host (read_bandwidth.c):
# the floor under a per-call read of f32 weights.
#   bash bench/x86/read_bandwidth.sh [MiB]     # default 96 (the MLP's weights)
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
OUT="$(mktemp -d)"
trap 'rm -rf "$OUT"' EXIT
/usr/lib/llvm-22/bin/clang -O3 -march=native -ffast-math \
  -o "$OUT/read_bandwidth" "$ROOT/bench/x86/read_bandwidth.c"
"$OUT/read_bandwidth" "${1:-96}"
