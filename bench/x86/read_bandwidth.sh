#!/usr/bin/env bash
# Sequential read bandwidth on this host (read_bandwidth.c) of THREADS
# threads (default 1): the floor under a per-call read of f32 weights.
#   bash bench/x86/read_bandwidth.sh [MiB] [THREADS]   # default 96 (the MLP's weights), 1
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
OUT="$(mktemp -d)"
trap 'rm -rf "$OUT"' EXIT
/usr/lib/llvm-22/bin/clang -O3 -march=native -ffast-math -fopenmp \
  -o "$OUT/read_bandwidth" "$ROOT/bench/x86/read_bandwidth.c"
"$OUT/read_bandwidth" "${1:-96}" "${2:-1}"
