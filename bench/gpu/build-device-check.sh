#!/usr/bin/env bash
# Builds, on a machine with LLVM/MLIR 22, fp-opt and the CUDA toolkit but no
# GPU, everything bench/gpu/device-check.sh runs on a GPU machine that has
# only the NVIDIA driver (see README.md):
#   out/<chip>/bin/   the bundled MLP and a transformer block decided for
#                     <chip> in bf16, f16 (and FP8 on sm_89+), lowered by
#                     lowp-pipeline-nvvm and linked into executables with
#                     harness.cpp; gemm-bench (gemm_bench.cpp with the GEMMs
#                     compiled under calling-convention=device: bf16, f16,
#                     and FP8 E4M3 with B stored [n][k] on sm_89+; for
#                     sm_90a these are the wgmma kernels, for sm_90 the
#                     mma.sync ones: build both for an H100/H200)
#   out/<chip>/lib/   liblowp_cuda_runtime.so (the executables' only
#                     non-system library besides the driver's libcuda.so.1)
#   out/<chip>/ref/   the f32 outputs of the same models on this CPU
#   out/<chip>/ptx/   the GEMM kernels' PTX (for a SASS check where the GPU
#                     machine has ptxas and cuobjdump)
#   out/<chip>/checks.txt  program, reference and check_model.py bounds
# Usage: bash bench/gpu/build-device-check.sh [chip ...]  (default: sm_90 sm_90a)
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
BUILD="${FPOPT_BUILD_DIR:-$ROOT/build}"
LLVM=/usr/lib/llvm-22
FPOPT="$BUILD/bin/fp-opt"
RUNTIME="$BUILD/lib/liblowp_cuda_runtime.so"
CUDA="${FPOPT_CUDA_ROOT:-/usr/local/cuda}"
HERE="$ROOT/bench/gpu"
[ -x "$FPOPT" ] || { echo "build fp-opt first (scripts/build.sh)"; exit 1; }
[ -f "$RUNTIME" ] || { echo "no $RUNTIME: configure with the CUDA toolkit at $CUDA"; exit 1; }

UPSTREAM="-convert-lowp-to-linalg -one-shot-bufferize=bufferize-function-boundaries -convert-linalg-to-loops -expand-strided-metadata -lower-affine -convert-scf-to-cf -convert-math-to-llvm -convert-math-to-libm -convert-to-llvm -reconcile-unrealized-casts"
RUNNER_LIBS="$LLVM/lib/libmlir_c_runner_utils.so,$LLVM/lib/libmlir_runner_utils.so"

# The lowered host module (LLVM dialect + gpu.binary) to an object file.
to_object() { # in.mlir out.o
  "$LLVM/bin/mlir-translate" --mlir-to-llvmir "$1" -o "${2%.o}.ll"
  "$LLVM/bin/llc" -O2 -filetype=obj -relocation-model=pic "${2%.o}.ll" -o "$2"
}
link() { # out objects...
  local out="$1"; shift
  "$LLVM/bin/clang++" -O2 "$@" -L"$(dirname "$out")/../lib" -llowp_cuda_runtime -lm \
    -Wl,-rpath,'$ORIGIN/../lib' -Wl,--allow-shlib-undefined -o "$out"
}

chips=("$@")
[ ${#chips[@]} -eq 0 ] && chips=(sm_90 sm_90a)
for CHIP in "${chips[@]}"; do
  OUT="$HERE/out/$CHIP"
  TMP="$OUT/tmp"
  rm -rf "$OUT"
  mkdir -p "$OUT/bin" "$OUT/lib" "$OUT/ref" "$OUT/ptx" "$TMP"
  cp "$RUNTIME" "$OUT/lib/"
  "$LLVM/bin/clang++" -O2 -c "$HERE/harness.cpp" -o "$TMP/harness.o"

  # The models, as test/Integration/GPU/models-on-cuda-device.test runs them.
  cat "$ROOT/examples/models/mlp.mlir" "$ROOT/test/Pipelines/Inputs/mlp-main.mlir" > "$TMP/mlp.mlir"
  python3 "$ROOT/bench/gen_transformer.py" --blocks 1 --seq 64 --dim 64 --ffn 128 --main > "$TMP/block.mlir"
  policies="bf16 f16"
  case "$CHIP" in sm_89|sm_90|sm_90a|sm_100) policies="$policies fp8" ;; esac
  : > "$OUT/checks.txt"
  for model in mlp block; do
    "$FPOPT" "$TMP/$model.mlir" $UPSTREAM \
      | "$LLVM/bin/mlir-runner" -e main -entry-point-result=void -shared-libs="$RUNNER_LIBS" > "$OUT/ref/$model.f32"
    sed 's/func.func @main()/func.func @lowp_main()/' "$TMP/$model.mlir" > "$TMP/$model.entry.mlir"
    for policy in $policies; do
      "$FPOPT" "$TMP/$model.entry.mlir" --lowp-auto-mixed-precision="target=$CHIP policy=$policy" \
        | "$FPOPT" -lowp-pipeline-nvvm="target=$CHIP cuda-path=$CUDA" -o "$TMP/$model-$policy.mlir" 2>/dev/null
      to_object "$TMP/$model-$policy.mlir" "$TMP/$model-$policy.o"
      link "$OUT/bin/$model-$policy" "$TMP/$model-$policy.o" "$TMP/harness.o"
      format=$policy; [ "$policy" = fp8 ] && format=f8E4M3FN
      if [ "$model" = mlp ]; then terms="$format:64,128"; factor=1; else terms="$format:64,64,128"; factor=8; fi
      case "$policy" in bf16) minrel=6.1e-5 ;; f16) minrel=1e-6 ;; fp8) minrel=1e-3 ;; esac
      echo "$model-$policy $model.f32 $terms $factor $minrel" >> "$OUT/checks.txt"
    done
  done

  # The GEMM benchmark: 4096^3 and a BERT-base layer at 4096 tokens
  # (batch 8 x 512): fused QKV, attention output, FFN up, FFN down.
  shapes="4096x4096x4096 4096x2304x768 4096x768x768 4096x3072x768 4096x768x3072"
  : > "$TMP/gemms.inc"
  {
    for fmt in bf16 f16; do
      for s in $shapes; do
        IFS=x read -r M N K <<< "$s"
        name="gemm_${fmt}_${M}_${N}_${K}"
        echo "GEMM($name, \"$fmt\", $M, $N, $K, false)" >> "$TMP/gemms.inc"
        cat <<MLIR
func.func @$name(%a: memref<${M}x${K}x$fmt>, %b: memref<${K}x${N}x$fmt>, %c: memref<${M}x${N}xf32>, %iters: index) attributes {llvm.emit_c_interface} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %iters step %c1 {
    linalg.matmul ins(%a, %b : memref<${M}x${K}x$fmt>, memref<${K}x${N}x$fmt>) outs(%c : memref<${M}x${N}xf32>)
  }
  return
}
MLIR
      done
    done
    # FP8 (E4M3 x E4M3, f32 accumulation: the mma.sync m16n8k32 kernel, on
    # sm_90a wgmma m64n128k32) on chips with FP8 tensor cores, B stored
    # [n][k] as torch._scaled_mm (cuBLAS's FP8 GEMM) takes it.
    case "$CHIP" in
      sm_89|sm_90|sm_90a|sm_100)
        fmt=f8E4M3FN
        for s in $shapes; do
          IFS=x read -r M N K <<< "$s"
          name="gemm_fp8_${M}_${N}_${K}"
          echo "GEMM($name, \"$fmt\", $M, $N, $K, true)" >> "$TMP/gemms.inc"
          cat <<MLIR
func.func @$name(%a: memref<${M}x${K}x$fmt>, %b: memref<${N}x${K}x$fmt>, %c: memref<${M}x${N}xf32>, %iters: index) attributes {llvm.emit_c_interface} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %iters step %c1 {
    linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>],
                    iterator_types = ["parallel", "parallel", "reduction"]}
        ins(%a, %b : memref<${M}x${K}x$fmt>, memref<${N}x${K}x$fmt>) outs(%c : memref<${M}x${N}xf32>) {
    ^bb0(%x: $fmt, %y: $fmt, %acc: f32):
      %xf = arith.extf %x : $fmt to f32
      %yf = arith.extf %y : $fmt to f32
      %p = arith.mulf %xf, %yf : f32
      %s = arith.addf %acc, %p : f32
      linalg.yield %s : f32
    }
  }
  return
}
MLIR
        done ;;
    esac
  } > "$TMP/gemms.mlir"
  "$FPOPT" "$TMP/gemms.mlir" -lowp-pipeline-nvvm="target=$CHIP cuda-path=$CUDA calling-convention=device" -o "$TMP/gemms.lowered.mlir"
  python3 "$ROOT/test/Pipelines/Inputs/extract_gpu_asm.py" --no-asm --split-dir "$OUT/ptx" < "$TMP/gemms.lowered.mlir"
  to_object "$TMP/gemms.lowered.mlir" "$TMP/gemms.o"
  "$LLVM/bin/clang++" -O2 -I"$TMP" -c "$HERE/gemm_bench.cpp" -o "$TMP/gemm_bench.o"
  link "$OUT/bin/gemm-bench" "$TMP/gemm_bench.o" "$TMP/gemms.o"
  echo "$shapes" > "$OUT/gemm-shapes.txt"
  cp "$ROOT/test/Integration/Models/Inputs/check_model.py" "$HERE/cublas_gemm.py" "$OUT/"
  rm -rf "$TMP"
  echo "build-device-check: $OUT ($(du -sh "$OUT" | cut -f1))"
done
