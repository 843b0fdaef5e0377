// The bundled MLP (matmul + bias + GELU, matmul + bias + ReLU, softmax) run
// in f32 and after lowp-infer-precision in bf16 and f16, each compared
// element-wise with an f64 numpy reference under a rigorous running-error
// bound. The bound (Inputs/infer_precision_check.py) takes the unit roundoff
// u = epsilon/2 and the underflow term eta = min_subnormal/2 of each format
// from fp-opt's APFloat format table: every rounding adds u|v| + eta, dot
// products and sums add gamma_n = n u/(1 - n u) times the sum of magnitudes,
// assuming any op the precision classes allow to be low is low, matrix ops
// accumulate in f32, and exp, the softmax division (and in f16 the sum) in f32.
//
// RUN: fp-opt --print-format-table --json > %t.formats.json
// RUN: %python %S/Inputs/infer_precision_check.py --emit-mlp-main > %t.main.mlir
// RUN: cat %fpopt_src_root/examples/models/mlp.mlir %t.main.mlir > %t.mlir
//
// RUN: fp-opt %t.mlir -convert-lowp-to-linalg -one-shot-bufferize="bufferize-function-boundaries" \
// RUN:   -convert-linalg-to-loops -expand-strided-metadata -lower-affine -convert-scf-to-cf \
// RUN:   -convert-math-to-llvm -convert-math-to-libm -convert-to-llvm -reconcile-unrealized-casts \
// RUN: | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils > %t.f32.txt
// RUN: %python %S/Inputs/infer_precision_check.py --model mlp --format f32 --formats %t.formats.json --output %t.f32.txt | FileCheck %s
//
// RUN: fp-opt %t.mlir --lowp-infer-precision="low=bf16" -convert-lowp-to-linalg -one-shot-bufferize="bufferize-function-boundaries" \
// RUN:   -convert-linalg-to-loops -expand-strided-metadata -lower-affine -convert-scf-to-cf \
// RUN:   -convert-math-to-llvm -convert-math-to-libm -convert-to-llvm -reconcile-unrealized-casts \
// RUN: | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils > %t.bf16.txt
// RUN: %python %S/Inputs/infer_precision_check.py --model mlp --format bf16 --formats %t.formats.json --output %t.bf16.txt | FileCheck %s
//
// RUN: fp-opt %t.mlir --lowp-infer-precision="low=f16" -convert-lowp-to-linalg -one-shot-bufferize="bufferize-function-boundaries" \
// RUN:   -convert-linalg-to-loops -expand-strided-metadata -lower-affine -convert-scf-to-cf \
// RUN:   -convert-math-to-llvm -convert-math-to-libm -convert-to-llvm -reconcile-unrealized-casts \
// RUN: | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils > %t.f16.txt
// RUN: %python %S/Inputs/infer_precision_check.py --model mlp --format f16 --formats %t.formats.json --output %t.f16.txt | FileCheck %s

// CHECK: PASS: every element within its bound
