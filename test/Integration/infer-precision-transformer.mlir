// A pre-LayerNorm transformer block (bench/gen_transformer.py: LayerNorm,
// Q/K/V, softmax attention, output projection, residual, LayerNorm, GELU
// feed-forward, residual) run after lowp-infer-precision in bf16 and f16.
// Worst-case error bounds cannot certify attention in a 16-bit format (the
// bound on the scores grows past 1 and exp amplifies it), so the lowered
// program is compared with a numpy model of its rounding instead: the same
// ops evaluated in f64 and rounded to the format each op got in the pass's
// JSON report (bf16 by round-to-nearest-even on the f32 bits, f16 by numpy).
// Both differ only at f32 level (summation order, libm), so each element
// must lie within 4 ulps of the low format (epsilon from fp-opt's format
// table) at its magnitude plus 4 ulps at the output's scale. The checker
// also prints the drift from the all-f32 model.
//
// RUN: fp-opt --print-format-table --json > %t.formats.json
// RUN: %python %fpopt_src_root/bench/gen_transformer.py --blocks 1 --seq 8 --dim 16 --ffn 32 --main > %t.mlir
//
// RUN: fp-opt %t.mlir --lowp-infer-precision="low=bf16 report=%t.bf16.json" -convert-lowp-to-linalg -one-shot-bufferize="bufferize-function-boundaries" \
// RUN:   -convert-linalg-to-loops -expand-strided-metadata -lower-affine -convert-scf-to-cf \
// RUN:   -convert-math-to-llvm -convert-math-to-libm -convert-to-llvm -reconcile-unrealized-casts \
// RUN: | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils > %t.bf16.txt
// RUN: %python %S/Inputs/infer_precision_check.py --model transformer --format bf16 --formats %t.formats.json --report %t.bf16.json --output %t.bf16.txt | FileCheck %s --check-prefixes=CHECK,BF16
//
// RUN: fp-opt %t.mlir --lowp-infer-precision="low=f16 report=%t.f16.json" -convert-lowp-to-linalg -one-shot-bufferize="bufferize-function-boundaries" \
// RUN:   -convert-linalg-to-loops -expand-strided-metadata -lower-affine -convert-scf-to-cf \
// RUN:   -convert-math-to-llvm -convert-math-to-libm -convert-to-llvm -reconcile-unrealized-casts \
// RUN: | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils > %t.f16.txt
// RUN: %python %S/Inputs/infer_precision_check.py --model transformer --format f16 --formats %t.formats.json --report %t.f16.json --output %t.f16.txt | FileCheck %s --check-prefixes=CHECK,F16

// How many ops ran low is printed; the checker reads it from the report.
// BF16: transformer bf16: {{[0-9]+}} ops low
// F16:  transformer f16: {{[0-9]+}} ops low
// CHECK: PASS: every element within its tolerance

// The same block through the decision pipeline (FP32 islands first, then
// inference): the softmax and LayerNorms are islands and still f32.
// RUN: fp-opt %t.mlir --lowp-auto-mixed-precision="policy=bf16 report=%t.amp.json" -convert-lowp-to-linalg -one-shot-bufferize="bufferize-function-boundaries" \
// RUN:   -convert-linalg-to-loops -expand-strided-metadata -lower-affine -convert-scf-to-cf \
// RUN:   -convert-math-to-llvm -convert-math-to-libm -convert-to-llvm -reconcile-unrealized-casts \
// RUN: | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils > %t.amp.txt
// RUN: %python %S/Inputs/infer_precision_check.py --model transformer --format bf16 --formats %t.formats.json --report %t.amp.json --output %t.amp.txt | FileCheck %s --check-prefixes=CHECK,BF16
