// REQUIRES: graphviz
// output=*.svg renders the graph with Graphviz: the islands, the colours
// and the reasons (as tooltips) reach the SVG.
// RUN: fp-opt %fpopt_src_root/examples/models/mlp.mlir -o /dev/null \
// RUN:   --lowp-auto-mixed-precision="target=sm_90" \
// RUN:   --lowp-view-precision-graph="output=%t.svg"
// RUN: FileCheck %s --input-file=%t.svg

// CHECK: <svg
// CHECK: <title>fp&#45;opt precision</title>
// CHECK: FP32 island: softmax
// CHECK: <a xlink:title="{{.*}}mlp.mlir:15:9: matrix op (contraction body {{.*}})">
// CHECK-NEXT: <path fill="#a1d99b"
// CHECK-NEXT: >linalg.matmul</text>
// CHECK-NEXT: >bf16 &#45;&gt; f32</text>
// CHECK: </svg>
