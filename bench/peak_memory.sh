#!/usr/bin/env bash
# Peak memory (maximum resident set size, from getrusage of the child) of
# `fp-opt --lowp-auto-mixed-precision` against `fp-opt --canonicalize --cse`
# on the same file, side by side: the largest model of the test suite, the
# torch-mlir BERT layer, and generated transformers of N blocks
# (bench/gen_transformer.py, weights as arguments, as torch-mlir exports
# them), where the IR itself dominates the process's memory. Target (issue
# 16): the decision pipeline at most 2x the canonicalizer. Most of a small
# run's memory is libMLIR itself, so the figures above an empty module's
# (same pipeline) are printed too, and their ratio. Each figure is
# the maximum over RUNS runs (default 3); both commands print their output
# to /dev/null, with the verifier on (fp-opt's default).
#
#   bench/peak_memory.sh [path/to/fp-opt]
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
FPOPT="${1:-$ROOT/build/bin/fp-opt}"
RUNS="${RUNS:-3}"
BLOCKS="${BLOCKS:-24 192}"
TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT

# Max RSS in KiB of one fp-opt run (the maximum of RUNS runs).
peak_kib() {
  python3 - "$RUNS" "$FPOPT" "$@" <<'EOF'
import resource, subprocess, sys
runs, cmd = int(sys.argv[1]), sys.argv[2:]
peak = 0
for _ in range(runs):
    # A fresh interpreter per run: ru_maxrss of RUSAGE_CHILDREN is the
    # maximum over all waited-for children so far.
    out = subprocess.run([sys.executable, "-c",
        "import resource, subprocess, sys; subprocess.run(sys.argv[1:], check=True, "
        "stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL); "
        "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)"] + cmd,
        capture_output=True, text=True, check=True)
    peak = max(peak, int(out.stdout))
print(peak)
EOF
}

AMP=(--lowp-auto-mixed-precision=target=sm_90)
CANON=(--canonicalize --cse)
echo 'module {}' > "$TMP/empty.mlir"
amp0=$(peak_kib "$TMP/empty.mlir" "${AMP[@]}" -o /dev/null)
canon0=$(peak_kib "$TMP/empty.mlir" "${CANON[@]}" -o /dev/null)
echo "empty module: amp $((amp0 / 1024)) MiB, canonicalize+cse $((canon0 / 1024)) MiB (libMLIR and the context)"
printf "%-40s %9s %9s %9s %7s %11s %11s %7s\n" model size "amp MiB" "c+c MiB" ratio "amp +MiB" "c+c +MiB" ratio
measure() {
  local name="$1" file="$2" amp canon
  amp=$(peak_kib "$file" "${AMP[@]}" -o /dev/null)
  canon=$(peak_kib "$file" "${CANON[@]}" -o /dev/null)
  python3 -c "import sys; n, s, a, c, a0, c0 = sys.argv[1], *map(int, sys.argv[2:]); \
da, dc = max(a - a0, 0), max(c - c0, 1); \
print(f'{n:40} {s // 1024:5} KiB {a / 1024:9.1f} {c / 1024:9.1f} {a / c:7.2f} {da / 1024:11.1f} {dc / 1024:11.1f} {da / dc:7.2f}' \
+ ('' if a <= 2 * c else '  OVER 2x'))" "$name" "$(stat -c %s "$file")" "$amp" "$canon" "$amp0" "$canon0"
}

# The largest model of the test suite (by size), and the front-end export.
largest=$(ls -S "$ROOT"/test/Integration/Models/*.mlir | head -n 1)
measure "test/Integration/Models/$(basename "$largest")" "$largest"
measure "torch-bert-layer (frontends)" "$ROOT/test/Transforms/Inputs/frontends/torch-bert-layer.mlir"
for n in $BLOCKS; do
  python3 "$ROOT/bench/gen_transformer.py" --blocks "$n" > "$TMP/t$n.mlir"
  measure "gen_transformer --blocks $n" "$TMP/t$n.mlir"
done
