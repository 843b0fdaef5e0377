#!/usr/bin/env bash
# Compares the pass time of `fp-opt --lowp-auto-mixed-precision` with that of
# `fp-opt --canonicalize --cse` on generated transformers of N blocks
# (bench/gen_transformer.py), from -mlir-timing (parser and printer
# excluded): the ratio, and the time per op of the decision pipeline.
# The IR verifier is switched off (--verify-each=false) in both: MLIR counts
# the verification after a pass in that pass's time, and it costs more than
# either pipeline. Symbols are bound at load (LD_BIND_NOW) so that the first
# pass does not pay for resolving libMLIR's symbols. Each figure is the
# minimum of RUNS runs (default 15): the machine is shared, and the minimum is
# the run least disturbed.
#
#   bench/infer_precision.sh [path/to/fp-opt]
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
FPOPT="${1:-$ROOT/build/bin/fp-opt}"
RUNS="${RUNS:-15}"
PY=/usr/bin/python3
TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT

# Seconds spent in passes and analyses, from a -mlir-timing list report in
# JSON (parser, printer and the untimed rest excluded), or in the row named
# $ROW when it is set. Durations print in 0.1 ms steps; percentages of the
# root (0.1 % steps) resolve small passes better, so each row is taken as
# root duration x percentage.
pass_seconds() {
  LD_BIND_NOW=1 "$FPOPT" "$@" --verify-each=false -mlir-timing \
    -mlir-timing-display=list -mlir-output-format=json -o /dev/null 2>&1 |
    "$PY" -c '
import json, os, sys
rows = json.loads(sys.stdin.read())
root = next(r["wall"]["duration"] for r in rows if r["name"] == "root")
skip = {"root", "Parser", "Output", "Rest", "Total"}
want = os.environ.get("ROW", "")
print("%.7f" % sum(root * r["wall"]["percentage"] / 100 for r in rows
                   if r["name"] not in skip and (not want or r["name"] == want)))'
}

minimum() { sort -g | head -1; }

# amp: the whole pipeline (islands, inference, loss scaling, ...);
# infer: its lowp-infer-precision step alone.
printf "%7s %8s %10s %10s %15s %7s %7s %10s %10s\n" blocks ops "amp (ms)" \
  "infer (ms)" "canon+cse (ms)" ratio "infer" "amp us/op" "infer us/op"
for n in 1 8 64; do
  file="$TMP/transformer-$n.mlir"
  "$PY" "$ROOT/bench/gen_transformer.py" --blocks "$n" > "$file"
  ops=$("$FPOPT" "$file" --print-op-stats -o /dev/null 2>&1 |
        awk -F, '/,/ {s += $2} END {print s}')
  amp=$(for _ in $(seq "$RUNS"); do
          pass_seconds "$file" --lowp-auto-mixed-precision="target=sm_90"
        done | minimum)
  infer=$(for _ in $(seq "$RUNS"); do
            ROW=LowpInferPrecision pass_seconds "$file" \
              --lowp-auto-mixed-precision="target=sm_90"
          done | minimum)
  base=$(for _ in $(seq "$RUNS"); do
           pass_seconds "$file" --canonicalize --cse
         done | minimum)
  awk -v n="$n" -v ops="$ops" -v a="$amp" -v i="$infer" -v b="$base" 'BEGIN {
    printf "%7d %8d %10.3f %10.3f %15.3f %7.3f %7.3f %10.3f %10.3f\n", n, ops,
           a * 1e3, i * 1e3, b * 1e3, a / b, i / b, a * 1e6 / ops, i * 1e6 / ops }'
done
