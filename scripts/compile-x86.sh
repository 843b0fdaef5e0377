#!/usr/bin/env bash
# Compiles an f32 model through fp-opt's x86 path and runs it here:
#   1. lowp-auto-mixed-precision policy=bf16 for TARGET (bf16 matrix
#      operands whatever the chip, so the bf16 kernels run),
#   2. lowp-pipeline-x86 for this machine's row of the capability table
#      (fpopt.runtime.host_target(): avx2, znver4 or sapphirerapids, AMX
#      tiles where the host has AMX-BF16) -> LLVM dialect, executed with
#      mlir-runner next to the f32 model (scripts/x86-harness.py adds a main
#      with deterministic inputs): their max relative difference and argmax,
#   3. lowp-pipeline-x86 for TARGET -> LLVM IR -> llc with the table's CPU:
#      the assembly, the count of each GEMM instruction in it (vdpbf16ps,
#      tdpbf16ps, f32 FMAs) and why those, from the capability table and the
#      kernel pass's remarks.
# Remarks and other diagnostics of fp-opt go to $FPOPT_REMARKS (default
# OUTDIR/remarks.txt), not to the terminal; the last line says where.
# Usage: scripts/compile-x86.sh MODEL.mlir [OUTDIR] [TARGET]
#        (OUTDIR defaults to build/x86/<model>, TARGET to this host's)
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="${FPOPT_BUILD_DIR:-$ROOT/build}"
LLVM=/usr/lib/llvm-22/bin
FPOPT="${FPOPT:-$BUILD/bin/fp-opt}"
PY=/usr/bin/python3
MODEL="${1:?usage: compile-x86.sh MODEL.mlir [OUTDIR] [TARGET]}"
NAME="$(basename "$MODEL" .mlir)"
OUT="${2:-$ROOT/build/x86/$NAME}"
RUNLIBS="$LLVM/../lib/libmlir_c_runner_utils.so,$LLVM/../lib/libmlir_runner_utils.so"
mkdir -p "$OUT"
REMARKS="${FPOPT_REMARKS:-$OUT/remarks.txt}"
if [ -z "${FPOPT_REMARKS:-}" ]; then : >"$REMARKS"; fi

# fp-opt with its diagnostics appended to $REMARKS; on failure the last of
# them are shown, since they explain it.
fpopt() {
  if ! "$FPOPT" "$@" 2>>"$REMARKS"; then
    echo "fp-opt $* failed; its diagnostics (all in $REMARKS):" >&2
    tail -n 20 "$REMARKS" >&2
    exit 1
  fi
}

# This machine's row of the capability table (fpopt.runtime.host_target(),
# the helper fpopt.compile uses) and the CPU flags it reads; $FPOPT_HOST
# holds scripts/host-target.py's line where the caller has shown it.
HOST_LINE="${FPOPT_HOST:-$(FPOPT_BUILD_DIR="$BUILD" "$PY" "$ROOT/scripts/host-target.py")}"
IFS='|' read -r HOST HOST_OPTIONS HOST_CPU <<<"$HOST_LINE"
if [ -z "$HOST" ]; then echo "compile-x86: scripts/host-target.py found no target" >&2; exit 1; fi
TARGET="${3:-$HOST}"
# The host's extra options (amx=true) apply where TARGET is the host's row.
TARGET_OPTIONS=""
if [ "$TARGET" = "$HOST" ]; then TARGET_OPTIONS="$HOST_OPTIONS"; fi
HOST_PIPE="target=$HOST${HOST_OPTIONS:+ $HOST_OPTIONS}"
TARGET_PIPE="target=$TARGET${TARGET_OPTIONS:+ $TARGET_OPTIONS}"
if [ -z "${FPOPT_HOST:-}" ]; then
  echo "host: $HOST_CPU -> $HOST_PIPE (fpopt.runtime.host_target())"
fi

# 1. Decisions.
fpopt "$MODEL" --lowp-auto-mixed-precision="target=$TARGET policy=bf16 report=$OUT/$NAME.report.txt" \
  -o "$OUT/$NAME.mixed.mlir"
echo "decided: lowp-auto-mixed-precision target=$TARGET policy=bf16:" \
     "$(grep -c 'lowp.cast' "$OUT/$NAME.mixed.mlir" || true) lowp.cast" \
     "-> $OUT/$NAME.mixed.mlir"

# 2. Run here, mixed precision and f32.
"$PY" "$ROOT/scripts/x86-harness.py" "$OUT/$NAME.mixed.mlir" > "$OUT/$NAME.mixed.run.mlir"
"$PY" "$ROOT/scripts/x86-harness.py" "$MODEL" > "$OUT/$NAME.f32.run.mlir"
for v in mixed f32; do
  fpopt "$OUT/$NAME.$v.run.mlir" -lowp-pipeline-x86="$HOST_PIPE" -o "$OUT/$NAME.$v.$HOST.llvm.mlir"
  "$LLVM/mlir-runner" "$OUT/$NAME.$v.$HOST.llvm.mlir" -e main -entry-point-result=void \
    -shared-libs="$RUNLIBS" > "$OUT/$NAME.$v.out"
done
"$PY" - "$OUT/$NAME.f32.out" "$OUT/$NAME.mixed.out" "$HOST" <<'PYEOF'
import re, sys
def rows(path):
    text = open(path).read()
    data = text[text.index("data ="):]
    return [[float(v) for v in re.findall(r"-?\d+(?:\.\d+)?(?:e[-+]?\d+)?|nan|inf", row)]
            for row in re.findall(r"\[([^\[\]]*)\]", data)]
ref, low = rows(sys.argv[1]), rows(sys.argv[2])
flat_ref = [v for r in ref for v in r]
flat_low = [v for r in low for v in r]
err = max(abs(a - b) for a, b in zip(flat_low, flat_ref)) / max(abs(v) for v in flat_ref)
same = sum(r.index(max(r)) == l.index(max(l)) for r, l in zip(ref, low))
print(f"ran here ({sys.argv[3]}, mlir-runner): mixed vs f32 max relative difference "
      f"{err:.1e}, same argmax in {same} of {len(ref)} rows -> {sys.argv[2]}")
PYEOF

# 3. TARGET's assembly of the model itself, with LLVM's CPU and feature
#    names from the capability table; its GEMM instructions and why.
TABLE="$OUT/target-table.json"
"$FPOPT" --print-target-table --json >"$TABLE"
read -r MCPU MATTR < <("$PY" - "$TABLE" "$TARGET" <<'PYEOF'
import json, sys
row = {t["name"]: t for t in json.load(open(sys.argv[1]))}[sys.argv[2]]
print(row["llvmCpu"], row["llvmFeatures"] or "-")
PYEOF
)
LLC_FLAGS=(-O3 -mcpu="$MCPU")
if [ "$MATTR" != "-" ]; then LLC_FLAGS+=(-mattr="$MATTR"); fi
fpopt "$OUT/$NAME.mixed.mlir" -lowp-pipeline-x86="$TARGET_PIPE" -o "$OUT/$NAME.$TARGET.llvm.mlir"
"$LLVM/mlir-translate" --mlir-to-llvmir "$OUT/$NAME.$TARGET.llvm.mlir" -o "$OUT/$NAME.$TARGET.ll"
"$LLVM/llc" "${LLC_FLAGS[@]}" "$OUT/$NAME.$TARGET.ll" -o "$OUT/$NAME.$TARGET.s"
"$LLVM/llc" "${LLC_FLAGS[@]}" -filetype=obj "$OUT/$NAME.$TARGET.ll" -o "$OUT/$NAME.$TARGET.o"
echo "assembly: lowp-pipeline-x86 $TARGET_PIPE, llc ${LLC_FLAGS[*]} -> $OUT/$NAME.$TARGET.s"
# The kernel pass's remarks on this lowering that explain a kernel choice
# (odd K, AMX tiles not taken, a contraction left to the loops); other
# remarks (unfused consumers, ...) stay in the remarks file.
KERNEL_REMARKS="$OUT/$NAME.$TARGET.kernel-remarks.txt"
"$FPOPT" "$OUT/$NAME.mixed.mlir" -lowp-pipeline-x86="$TARGET_PIPE" -o /dev/null 2>&1 \
  | grep -E 'remark: (odd K|amx=true|generic loop path)' >"$KERNEL_REMARKS" || true
"$PY" - "$TABLE" "$TARGET" "$TARGET_OPTIONS" "$OUT/$NAME.$TARGET.s" "$KERNEL_REMARKS" <<'PYEOF'
import json, re, sys
table, target, options, asm, remarks = sys.argv[1:6]
row = {t["name"]: t for t in json.load(open(table))}[target]
text = open(asm).read()
count = lambda pattern: len(re.findall(pattern, text, re.M))
dot, tiles = count(r"^\s*vdpbf16ps\b"), count(r"^\s*tdpbf16ps\b")
fma = count(r"^\s*vfmadd\d+ps\b")
cvt = count(r"^\s*vcvtneps2bf16\b")
print(f"  {dot} vdpbf16ps, {tiles} tdpbf16ps, {fma} vfmadd*ps (f32 FMA), "
      f"{cvt} vcvtneps2bf16")
# Why: the instruction the kernels took (counted above), explained by the
# capability table's row (fp-opt --print-target-table).
cpu = row.get("cpu") or {}
f32, bf16 = cpu.get("f32FmaMacsPerCycle", 0), cpu.get("bf16DotMacsPerCycle", 0)
rates = (f"vdpbf16ps {bf16} multiply-adds per cycle and core, f32 FMAs {f32}"
         if f32 and bf16 else "vdpbf16ps rate not measured")
if tiles:
    tile = row["tile16"]
    why = (f"bf16 GEMMs on AMX tiles (tdpbf16ps, {tile} tiles)"
           + (", block edges on vdpbf16ps" if dot else "")
           + ": amx=true, which host_target() adds where the host has amx_bf16")
elif "bf16" not in row["matrix"]:
    why = ("no bf16 matrix instruction (capability table: matrix units none): "
           "bf16 operands widened to f32 while packing, f32 FMA kernels")
elif dot and "amx=true" in options:
    why = ("bf16 GEMMs on vdpbf16ps: with amx=true (the host has amx_bf16), "
           "what takes no AMX tile block runs on the dot, here every GEMM")
elif dot:
    why = f"bf16 GEMMs on vdpbf16ps (AVX512_BF16; capability table: {rates})"
else:
    why = (f"bf16 GEMMs on f32 FMAs, operands widened while packing "
           f"(capability table: {rates}: the dot is not faster here)")
    # The table's 16-bit tile is AMX-BF16's where it is more than a
    # vdpbf16ps pair (k > 2), as lowp-pipeline-x86{amx=true} reads it.
    tile = row["tile16"].split("x")
    if "amx=true" not in options and len(tile) == 3 and int(tile[2]) > 2:
        why += (f"; AMX tiles ({row['tile16']}) need amx=true, which "
                "host_target() adds where the host has amx_bf16")
print(f"  why: {target}: {why}")
seen = []
for line in open(remarks):
    message = line.split("remark: ", 1)[1].strip()
    if message not in seen:
        seen.append(message)
for message in seen[:3]:
    print(f"  and: {message}")
if len(seen) > 3:
    print(f"  and {len(seen) - 3} more such remarks ({remarks})")
PYEOF
echo "remarks: $(grep -c 'remark:' "$REMARKS" || true) -> $REMARKS"
