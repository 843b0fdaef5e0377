#!/usr/bin/env bash
# Compares the pass time of `fp-opt --lowp-auto-mixed-precision` with that of
# `fp-opt --canonicalize --cse` on generated transformers of N blocks
# (bench/gen_transformer.py), from -mlir-timing (parser and printer
# excluded): the ratio, and the time per op of the decision pipeline.
# The IR verifier is switched off (--verify-each=false) in both: MLIR counts
# the verification after a pass in that pass's time, and it costs more than
# either pipeline. Each figure is the mean of RUNS runs (default 15);
# -mlir-timing prints 0.1 ms steps, so averaging resolves the N=1 case.
#
#   bench/infer_precision.sh [path/to/fp-opt]
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
FPOPT="${1:-$ROOT/build/bin/fp-opt}"
RUNS="${RUNS:-15}"
PY=/usr/bin/python3
TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT

# Sum of the pass and analysis rows of a -mlir-timing list report.
pass_seconds() {
  "$FPOPT" "$@" --verify-each=false -mlir-timing -mlir-timing-display=list \
    -o /dev/null 2>&1 |
    awk '/----Name----/ {on = 1; next}
         on && NF >= 3 && $NF != "root" && $NF != "Parser" && $NF != "Output" &&
         $NF != "Rest" && $NF != "Total" {s += $1}
         END {printf "%.6f\n", s}'
}

mean() { awk '{s += $1} END {printf "%.6f\n", s / NR}'; }

printf "%7s %8s %14s %14s %7s %14s\n" blocks ops "amp (ms)" "canon+cse (ms)" ratio "amp us/op"
for n in 1 8 64; do
  file="$TMP/transformer-$n.mlir"
  "$PY" "$ROOT/bench/gen_transformer.py" --blocks "$n" > "$file"
  ops=$("$FPOPT" "$file" --print-op-stats -o /dev/null 2>&1 |
        awk -F, '/,/ {s += $2} END {print s}')
  amp=$(for _ in $(seq "$RUNS"); do
          pass_seconds "$file" --lowp-auto-mixed-precision="target=sm_90"
        done | mean)
  base=$(for _ in $(seq "$RUNS"); do
           pass_seconds "$file" --canonicalize --cse
         done | mean)
  awk -v n="$n" -v ops="$ops" -v a="$amp" -v b="$base" 'BEGIN {
    printf "%7d %8d %14.3f %14.3f %7.3f %14.3f\n", n, ops, a * 1e3, b * 1e3,
           a / b, a * 1e6 / ops }'
done
