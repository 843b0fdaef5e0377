#!/usr/bin/env bash
# Compiles an f32 model through fp-opt's x86 path and runs it here:
#   1. lowp-auto-mixed-precision (bf16 decisions for an AVX512_BF16 chip),
#   2. lowp-pipeline-x86 for this machine (avx2) -> LLVM dialect, executed
#      with mlir-runner next to the f32 model (scripts/x86-harness.py adds a
#      main with deterministic inputs), printing both outputs and their
#      max relative difference,
#   3. lowp-pipeline-x86 for the AVX512_BF16 chip -> LLVM IR -> llc
#      -mcpu=<chip>: the assembly written beside the outputs.
# Usage: scripts/compile-x86.sh MODEL.mlir [OUTDIR] [CHIP]
#        (OUTDIR defaults to build/x86/<model>, CHIP to sapphirerapids)
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
LLVM=/usr/lib/llvm-22/bin
FPOPT="${FPOPT:-$ROOT/build/bin/fp-opt}"
MODEL="${1:?usage: compile-x86.sh MODEL.mlir [OUTDIR] [CHIP]}"
NAME="$(basename "$MODEL" .mlir)"
OUT="${2:-$ROOT/build/x86/$NAME}"
CHIP="${3:-sapphirerapids}"
HOST=avx2
RUNLIBS="$LLVM/../lib/libmlir_c_runner_utils.so,$LLVM/../lib/libmlir_runner_utils.so"
mkdir -p "$OUT"

# 1. Decisions (the pipeline exists once lowp-auto-mixed-precision is built).
if "$FPOPT" --help 2>/dev/null | grep -c -- "--lowp-auto-mixed-precision" > /dev/null; then
  "$FPOPT" "$MODEL" --lowp-auto-mixed-precision="target=$CHIP policy=bf16 report=$OUT/$NAME.report.txt" \
    -o "$OUT/$NAME.mixed.mlir"
else
  cp "$MODEL" "$OUT/$NAME.mixed.mlir"
fi
echo "== $OUT/$NAME.mixed.mlir: $(grep -c 'lowp.cast' "$OUT/$NAME.mixed.mlir" || true) lowp.cast"

# 2. Run here (AVX2), mixed precision and f32.
/usr/bin/python3 "$ROOT/scripts/x86-harness.py" "$OUT/$NAME.mixed.mlir" > "$OUT/$NAME.mixed.run.mlir"
/usr/bin/python3 "$ROOT/scripts/x86-harness.py" "$MODEL" > "$OUT/$NAME.f32.run.mlir"
for v in mixed f32; do
  "$FPOPT" "$OUT/$NAME.$v.run.mlir" -lowp-pipeline-x86="target=$HOST" -o "$OUT/$NAME.$v.$HOST.llvm.mlir"
  "$LLVM/mlir-runner" "$OUT/$NAME.$v.$HOST.llvm.mlir" -e main -entry-point-result=void \
    -shared-libs="$RUNLIBS" > "$OUT/$NAME.$v.out"
done
echo "== output on this machine ($HOST), mixed precision:"
sed -n '2,$p' "$OUT/$NAME.mixed.out" | head -8
/usr/bin/python3 "$ROOT/test/Integration/X86/Inputs/compare.py" "$OUT/$NAME.f32.out" \
  "$OUT/$NAME.mixed.out" 0 1 | sed 's/^/== vs f32: /; s/ in (.*//'

# 3. The AVX512_BF16 chip's assembly (and object) of the model itself, with
#    LLVM's CPU and feature names from the capability table.
read -r MCPU MATTR < <("$FPOPT" --print-target-table --json | /usr/bin/python3 -c "
import json, sys
row = [t for t in json.load(sys.stdin) if t['name'] == '$CHIP'][0]
print(row['llvmCpu'], row['llvmFeatures'] or '-')")
LLC_FLAGS=(-O3 -mcpu="$MCPU")
if [ "$MATTR" != "-" ]; then LLC_FLAGS+=(-mattr="$MATTR"); fi
"$FPOPT" "$OUT/$NAME.mixed.mlir" -lowp-pipeline-x86="target=$CHIP" \
  | "$LLVM/mlir-translate" --mlir-to-llvmir -o "$OUT/$NAME.$CHIP.ll"
"$LLVM/llc" "${LLC_FLAGS[@]}" "$OUT/$NAME.$CHIP.ll" -o "$OUT/$NAME.$CHIP.s"
"$LLVM/llc" "${LLC_FLAGS[@]}" -filetype=obj "$OUT/$NAME.$CHIP.ll" -o "$OUT/$NAME.$CHIP.o"
echo "== llc ${LLC_FLAGS[*]}"
echo "== $OUT/$NAME.$CHIP.s: $(grep -c vdpbf16ps "$OUT/$NAME.$CHIP.s" || true) vdpbf16ps," \
     "$(grep -c vcvtneps2bf16 "$OUT/$NAME.$CHIP.s" || true) vcvtneps2bf16," \
     "$(grep -c __truncsfbf2 "$OUT/$NAME.$CHIP.s" || true) __truncsfbf2 calls"
