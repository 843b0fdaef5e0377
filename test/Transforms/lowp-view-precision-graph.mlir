// Four identical layers are drawn once (collapse-threshold=0 looks for
// repeats in any function); a layer decided differently breaks the run.
// RUN: fp-opt %S/Inputs/precision-graph-layers.mlir -o /dev/null \
// RUN:   --lowp-view-precision-graph="output=- collapse-threshold=0" \
// RUN:   | FileCheck %s --check-prefix=LAYERS
// Never collapsed: every op is drawn.
// RUN: fp-opt %S/Inputs/precision-graph-layers.mlir -o /dev/null \
// RUN:   --lowp-view-precision-graph="output=- collapse-threshold=-1" \
// RUN:   | FileCheck %s --check-prefix=NEVER
// Small functions are drawn whole by default.
// RUN: fp-opt %S/Inputs/precision-graph-layers.mlir -o /dev/null \
// RUN:   --lowp-view-precision-graph="output=%t.default.dot"
// RUN: FileCheck %s --check-prefix=NEVER --input-file=%t.default.dot
//
// What lowp-auto-mixed-precision decided for examples/models/mlp.mlir (the graph
// option draws it; a report in JSON gets the graph section with the rules of
// precision inference as reasons).
// RUN: fp-opt %fpopt_src_root/examples/models/mlp.mlir -o /dev/null \
// RUN:   --lowp-auto-mixed-precision="target=sm_90 report=%t.mlp.json graph=%t.mlp.dot"
// RUN: FileCheck %s --check-prefix=MLP --input-file=%t.mlp.dot
// RUN: FileCheck %s --check-prefix=JSON --input-file=%t.mlp.json
// The pass alone on the decided module completes a report it is given.
// RUN: fp-opt %fpopt_src_root/examples/models/mlp.mlir -o %t.mixed.mlir -mlir-print-debuginfo \
// RUN:   --lowp-insert-fp32-islands --lowp-infer-precision="target=sm_90 report=%t.infer.json"
// RUN: fp-opt %t.mixed.mlir -o /dev/null \
// RUN:   --lowp-view-precision-graph="report=%t.infer.json"
// RUN: FileCheck %s --check-prefix=JSON --input-file=%t.infer.json
//
// A 12-layer transformer stays readable: its layers are one drawn block.
// RUN: %python %fpopt_src_root/bench/gen_transformer.py --blocks 12 > %t.t12.mlir
// RUN: fp-opt %t.t12.mlir -o /dev/null \
// RUN:   --lowp-auto-mixed-precision="target=sm_90 graph=%t.t12.dot"
// RUN: FileCheck %s --check-prefix=T12 --input-file=%t.t12.dot
// RUN: FileCheck %s --check-prefix=T12-ARGS --input-file=%t.t12.dot
//
// Any function op is drawn (here llvm.func, with llvm.return as its result).
// RUN: echo 'llvm.func @scale(%%x: f32, %%s: f16) -> f32 { %%y = llvm.fmul %%x, %%x : f32 loc("square") llvm.return %%y : f32 }' \
// RUN:   | fp-opt -o /dev/null --lowp-view-precision-graph="output=-" | FileCheck %s --check-prefix=LLVM
//
// No functions: a graph that says so.
// RUN: echo 'module {}' | fp-opt -o /dev/null \
// RUN:   --lowp-view-precision-graph="output=-" | FileCheck %s --check-prefix=EMPTY

// LAYERS: digraph "fp-opt precision" {
// LAYERS: label="func @layers";
// LAYERS: [[ARG:f0_n[0-9]+]] [label="%arg0\n4x8xf32", fillcolor="#9ecae1", tooltip="function argument: {{.*}}", shape=ellipse
// LAYERS: [[RET:f0_n[0-9]+]] [label="return"
// LAYERS-NEXT: subgraph cluster_f0_b0 {
// LAYERS-NEXT:   label="x4 identical blocks of 4 ops (drawn once)";
// LAYERS-NEXT:   [[CAST:f0_n[0-9]+]] [label="cast f32->bf16", fillcolor="#a1d99b", tooltip="cast0: cast f32 -> bf16: the value enters ops decided low", shape=box, height=0.2
// LAYERS-NEXT:   [[MM:f0_n[0-9]+]] [label="linalg.matmul\nbf16 -> f32", fillcolor="#a1d99b", tooltip="matmul0: matrix op ({{.*}})"];
// LAYERS-NEXT:   [[ADD:f0_n[0-9]+]] [label="arith.addf\nf32", fillcolor="#9ecae1", tooltip="residual0: follow op ({{.*}})"];
// LAYERS-NEXT:   subgraph cluster_f0_i0 {
// LAYERS-NEXT:     label="FP32 island: softmax";
// LAYERS-NEXT:     [[EXP:f0_n[0-9]+]] [label="math.exp\nf32", fillcolor="#9ecae1", tooltip="exp0: in an FP32 island (softmax): {{.*}}"];
// LAYERS-NEXT:   }
// LAYERS-NEXT: }
// LAYERS-NOT: {{matmul[123]|exp[123]|cast[123]|residual[123]}}
// LAYERS:      [[ARG]] -> [[CAST]];
// LAYERS-NEXT: [[ARG]] -> [[ADD]];
// LAYERS-NEXT: f0_n{{[0-9]+}} -> [[MM]];
// LAYERS-NEXT: [[CAST]] -> [[MM]];
// LAYERS-NEXT: [[MM]] -> [[EXP]];
// LAYERS-NEXT: [[EXP]] -> [[ADD]];
// The residual feeds the next copy, and the last copy the result.
// LAYERS-NEXT: [[ADD]] -> [[CAST]] [style=dashed, constraint=false, {{.*}}tooltip="into the next copy"];
// LAYERS-NEXT: [[ADD]] -> [[ADD]] [style=dashed,
// LAYERS-NEXT: [[ADD]] -> [[RET]] [label="x4", tooltip="from the last copy"];
// LAYERS-NEXT: }
// The third layer of @layers_differ runs its matmul in f32: only the first
// two layers are identical.
// LAYERS: label="func @layers_differ";
// LAYERS: [label="linalg.matmul\nf32", fillcolor="#9ecae1", tooltip="matmul2:
// LAYERS: tooltip="exp2:
// LAYERS: tooltip="exp3:
// LAYERS: label="x2 identical blocks of 4 ops (drawn once)";
// LAYERS: label="func @independent";
// LAYERS-NOT: identical blocks
// LAYERS-COUNT-9: [label="cast f32->bf16"
// LAYERS-NOT: identical blocks
// LAYERS: label="func @unlinked";
// LAYERS-NOT: identical blocks
// LAYERS-COUNT-4: [label="math.exp\nbf16"
// LAYERS-NOT: identical blocks
// LAYERS: label="func @heads";
// LAYERS: label="x4 identical blocks of 3 ops (drawn once)";
// LAYERS: [label="linalg.matmul\nbf16 -> f32"
// LAYERS-NOT: [label="linalg.matmul
// LAYERS: subgraph cluster_legend {
// LAYERS-DAG: [label="bf16", fillcolor="#a1d99b"
// LAYERS-DAG: [label="f32", fillcolor="#9ecae1"

// NEVER-NOT: identical blocks
// NEVER-COUNT-4: [label="linalg.matmul\nbf16 -> f32"
// NEVER: label="func @layers_differ"
// NEVER-COUNT-3: [label="linalg.matmul\nbf16 -> f32"

// MLP: label="func @mlp";
// MLP-COUNT-4: [label="cast f32->bf16", fillcolor="#a1d99b", tooltip="{{.*}}mlp.mlir:{{[0-9]+}}:{{[0-9]+}}: cast f32 -> bf16: the value enters ops decided low"
// MLP-NEXT: [label="linalg.matmul\nbf16 -> f32", fillcolor="#a1d99b", tooltip="{{.*}}mlp.mlir:15:9: matrix class: {{.*}}"];
// MLP: [label="linalg.generic: addf\nbf16", fillcolor="#a1d99b", tooltip="{{.*}}: follows low-precision linalg.matmul (follow op)"];
// MLP: [label="linalg.generic: addf, maximumf\nf32", fillcolor="#9ecae1", tooltip="{{.*}}: no low-precision user{{.*}} (follow op)"];
// MLP: label="FP32 island: softmax"
// MLP-COUNT-4: [label="linalg.generic: {{.*}}\nf32", fillcolor="#9ecae1", tooltip="{{.*}}: in an FP32 island (softmax)
// MLP-NOT: identical blocks

// JSON:      "graph": {
// JSON:        "casts": [
// JSON:            "from": "f32",
// JSON-NEXT:       "function": "mlp",
// JSON:            "op": "lowp.cast",
// JSON:            "to": "bf16"
// JSON:        "dot": "digraph \"fp-opt precision\" {
// JSON:        "fp8": [],
// JSON:        "functions": [
// JSON-NEXT:     {
// JSON-NEXT:       "islands": 1,
// JSON-NEXT:       "name": "mlp",
// JSON-NEXT:       "ops": 14,
// JSON-NEXT:       "repeated_blocks": []
// JSON:        "hazard_format": "bf16",
// JSON:        "hazards": [],
// JSON:        "islands": [
// JSON-NEXT:     {
// JSON-NEXT:       "function": "mlp",
// JSON-NEXT:       "loc": "{{.*}}mlp.mlir:61:8",
// JSON-NEXT:       "ops": 4,
// JSON-NEXT:       "reasons": "softmax"
// JSON:        "ops": [
// JSON:            "op": "linalg.matmul",
// JSON-NEXT:       "precision": "bf16",
// JSON-NEXT:       "reason": "matrix class: {{.*}}",
// JSON-NEXT:       "result_precision": "f32"
// JSON:        "schema_version": 2,

// T12: label="func @transformer";
// T12: label="x12 identical blocks of {{[0-9]+}} ops (drawn once)";
// T12-COUNT-8: [label="linalg.matmul\nbf16 -> f32"
// T12-NOT: label="linalg.matmul
// T12: [label="x12", tooltip="from the last copy"];
// Only the first layer's weights (arguments 1-12), not the other layers'
// (each is an input of one later copy), are drawn; the runs of alike but
// unconnected weight casts are not blocks.
// T12-ARGS-NOT: [label="%arg{{1[3-9]|[2-9][0-9]|1[0-9][0-9]}}\n
// T12-ARGS-NOT: identical blocks of {{[0-9]}} ops
// T12-ARGS: [label="%arg12\n
// T12-ARGS-NOT: [label="%arg{{1[3-9]|[2-9][0-9]|1[0-9][0-9]}}\n
// T12-ARGS-NOT: identical blocks of {{[0-9]}} ops
// T12-ARGS: subgraph cluster_legend

// LLVM: label="func @scale";
// LLVM: [[X:f0_n[0-9]+]] [label="%arg0\nf32"
// LLVM: [[SQ:f0_n[0-9]+]] [label="llvm.fmul\nf32", fillcolor="#9ecae1", tooltip="square: no precision class: {{.*}}"];
// LLVM: [[RET:f0_n[0-9]+]] [label="return"
// LLVM: [[X]] -> [[SQ]];
// LLVM: [[SQ]] -> [[RET]];

// EMPTY: digraph "fp-opt precision" {
// EMPTY-NEXT: graph
// EMPTY-NEXT: node
// EMPTY-NEXT: edge
// EMPTY-NEXT: empty [shape=plaintext, style="", label="the module has no functions"];
// EMPTY-NOT: cluster_f0
