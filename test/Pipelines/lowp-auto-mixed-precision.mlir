// The README's main job: the bundled MLP through the decision pipeline.
// RUN: fp-opt %fpopt_src_root/examples/models/mlp.mlir --lowp-auto-mixed-precision="target=sm_90 report=%t.json" | FileCheck %s --check-prefixes=CHECK,BF16
// RUN: FileCheck %s --input-file=%t.json --check-prefix=JSON
// RUN: fp-opt %fpopt_src_root/examples/models/mlp.mlir --lowp-auto-mixed-precision="target=sm_75 report=%t.txt" | FileCheck %s --check-prefixes=CHECK,F16
// RUN: FileCheck %s --input-file=%t.txt --check-prefix=TABLE
// RUN: fp-opt %fpopt_src_root/examples/models/mlp.mlir --lowp-auto-mixed-precision="target=sm_90 policy=f16" | FileCheck %s --check-prefixes=CHECK,F16
// Running the pipeline twice changes nothing the second time.
// RUN: fp-opt %fpopt_src_root/examples/models/mlp.mlir --lowp-auto-mixed-precision="target=sm_90" > %t.once
// RUN: fp-opt %t.once --lowp-auto-mixed-precision="target=sm_90" > %t.twice
// RUN: diff %t.once %t.twice
// A misspelled policy is an error in the pipeline text.
// RUN: not fp-opt %fpopt_src_root/examples/models/mlp.mlir --lowp-auto-mixed-precision="policy=fp16" 2>&1 | FileCheck %s --check-prefix=BADPOLICY
// BADPOLICY: for the --policy option: 'fp16' is not one of: auto, f16, bf16, fp8, fp8-weights, autocast

// The target is recorded on the module; the softmax is an FP32 island (step
// 1); both matmuls take 16-bit inputs and keep f32 accumulators; bias and
// GELU of layer 1 run low between the two matmuls; layer 2's bias+ReLU stays
// f32 (its only user is the island). Five casts: four signature arguments
// and the first matmul's result.
// BF16:  module attributes {lowp.target = #lowp.target<"sm_90">}
// F16:   module attributes {lowp.target = #lowp.target<"{{sm_75|sm_90}}">}
// CHECK-LABEL: func.func @mlp(
// CHECK-COUNT-4: lowp.cast %arg{{[0-3]}}
// BF16:         linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<8x64xbf16>, tensor<64x128xbf16>) outs(%{{.*}} : tensor<8x128xf32>)
// F16:          linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<8x64xf16>, tensor<64x128xf16>) outs(%{{.*}} : tensor<8x128xf32>)
// CHECK-NEXT:   lowp.cast
// BF16:         math.tanh %{{.*}} : bf16
// F16:          math.tanh %{{.*}} : f16
// BF16:         linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<8x128xbf16>, tensor<128x10xbf16>) outs(%{{.*}} : tensor<8x10xf32>)
// F16:          linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<8x128xf16>, tensor<128x10xf16>) outs(%{{.*}} : tensor<8x10xf32>)
// CHECK-NOT:    lowp.cast
// CHECK:        arith.maximumf %{{.*}}, %{{.*}} : f32
// CHECK:        lowp.island f32 (%{{.*}}) : (tensor<8x10xf32>) -> tensor<8x10xf32>
// CHECK:          math.exp %{{.*}} : f32
// CHECK:          arith.divf %{{.*}}, %{{.*}} : f32
// CHECK:        return %{{.*}} : tensor<8x10xf32>

// JSON:      "casts_inserted": 5,
// JSON:      "linalg.matmul": {
// JSON-NEXT:   "bf16": 2
// JSON:      "lowp.island": {
// JSON-NEXT:   "f32": 1
// JSON:      "kept_wide": [
// JSON:        "class": "follow",
// JSON:        "reason": "no low-precision user: demoting would not save a cast"
// JSON:      "low": "bf16",
// JSON:      "target": "sm_90"

// TABLE:      precision inference: low=f16 accumulate=f32 target=sm_75
// TABLE:      linalg.matmul                    f16             2
// TABLE:      lowp.island                      f32             1
// TABLE:      casts inserted: 5
// TABLE:      tensor bytes           before          after
// TABLE-NEXT: arguments               40488          40488
// TABLE:      kept at original precision:
// TABLE-NEXT: linalg.generic (follow) at {{.*}}mlp.mlir:{{.*}}: no low-precision user: demoting would not save a cast
