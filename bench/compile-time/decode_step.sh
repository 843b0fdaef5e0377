#!/usr/bin/env bash
# Pass times of the decision pipeline against `--canonicalize --cse` on IR
# shaped like a 28-layer LLM decode-step export (gen_decode_step.py: linalg
# on tensors mixed with the memref / affine / vector code of the KV cache,
# ~745 KB of text), weights as memref globals and as function arguments.
#
# Each figure is the minimum over RUNS runs (default 7; the machine is
# shared) of -mlir-timing's per-pass wall time, parser and printer
# excluded, verifier off (MLIR counts the verification after a pass in that
# pass's time), symbols bound at load (LD_BIND_NOW). Prints one row per pass
# of each pipeline, the ratio of the decision pipeline's pass time to
# canonicalize + cse (target <= 0.5), and, where valgrind is installed, the
# same ratio in executed instructions (deterministic).
#
#   bench/compile-time/decode_step.sh [path/to/fp-opt]
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
FPOPT="${1:-$ROOT/build/bin/fp-opt}"
RUNS="${RUNS:-7}"
PY=/usr/bin/python3
TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT

# Per-pass seconds of one run, as "name seconds" lines (the JSON list
# report; rows of nested analyses are skipped: they are inside a pass).
pass_rows() {
  LD_BIND_NOW=1 "$FPOPT" "$@" --verify-each=false -mlir-timing \
    -mlir-timing-display=list -mlir-output-format=json -o /dev/null 2>&1 |
    "$PY" -c '
import json, sys
rows = json.loads(sys.stdin.read())
root = next(r["wall"]["duration"] for r in rows if r["name"] == "root")
for r in rows:
    if r["name"] in ("root", "Parser", "Output", "Rest") or r["name"].startswith("(A)"):
        continue
    print(r["name"], "%.7f" % (root * r["wall"]["percentage"] / 100))'
}

# Minimum per pass over RUNS runs; "total" is their sum.
min_rows() {
  for _ in $(seq "$RUNS"); do pass_rows "$@"; done | "$PY" -c '
import sys
best = {}
order = []
for line in sys.stdin:
    name, t = line.split()
    if name not in best:
        order.append(name)
    best[name] = min(best.get(name, 1e9), float(t))
for name in order:
    print(name, "%.7f" % best[name])
print("total", "%.7f" % sum(best.values()))'
}

instructions() {
  LD_BIND_NOW=1 valgrind --tool=callgrind --callgrind-out-file=/dev/null \
    --toggle-collect='mlir::detail::OpToOpPassAdaptor::run(*' \
    "$FPOPT" "$@" --verify-each=false -o /dev/null 2>&1 |
    awk '/Collected :/ { print $NF }'
}

for weights in globals args; do
  file="$TMP/decode-$weights.mlir"
  "$PY" "$ROOT/bench/compile-time/gen_decode_step.py" --weights "$weights" > "$file"
  ops=$("$FPOPT" "$file" --print-op-stats -o /dev/null 2>&1 |
        awk -F, '/,/ {s += $2} END {print s}')
  printf "\n== 28-layer decode step, weights as %s: %d KB, %d ops ==\n" \
    "$weights" $(( $(wc -c < "$file") / 1024 )) "$ops"
  min_rows "$file" --canonicalize --cse > "$TMP/base"
  base=$(awk '$1 == "total" { print $2 }' "$TMP/base")
  printf "%-36s %10s %8s\n" pass "ms" "x canon+cse"
  awk -v b="$base" '{ printf "  canon+cse: %-24s %10.3f %8.3f\n", $1, $2 * 1e3, $2 / b }' "$TMP/base"
  for policy in bf16 fp8; do
    min_rows "$file" --lowp-auto-mixed-precision="target=sm_90 policy=$policy" > "$TMP/amp"
    awk -v b="$base" -v p="$policy" '{
      printf "  amp %-4s: %-24s %10.3f %8.3f\n", p, $1, $2 * 1e3, $2 / b }' "$TMP/amp"
    amp=$(awk '$1 == "total" { print $2 }' "$TMP/amp")
    awk -v a="$amp" -v b="$base" -v p="$policy" 'BEGIN {
      printf "target: policy=%s pass time <= 0.5x canonicalize+cse: %.3f %s\n",
             p, a / b, a / b <= 0.5 ? "met" : "MISSED" }'
  done
  if command -v valgrind >/dev/null 2>&1; then
    bi=$(instructions "$file" --canonicalize --cse)
    for policy in bf16 fp8; do
      ai=$(instructions "$file" --lowp-auto-mixed-precision="target=sm_90 policy=$policy")
      awk -v a="$ai" -v b="$bi" -v p="$policy" 'BEGIN {
        printf "instructions: policy=%s %.1fM, canonicalize+cse %.1fM: %.3fx\n",
               p, a / 1e6, b / 1e6, a / b }'
    done
    # A pass with nothing to do: loss scaling on a module without a
    # training step.
    li=$(instructions "$file" --lowp-materialize-loss-scaling)
    awk -v a="$li" -v b="$bi" 'BEGIN {
      printf "instructions: lowp-materialize-loss-scaling alone (no training step) %.2fM: %.4fx of canonicalize+cse\n",
             a / 1e6, a / b }'
  fi
done
