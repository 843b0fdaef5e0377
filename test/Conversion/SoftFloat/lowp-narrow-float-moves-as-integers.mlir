// RUN: fp-opt %s -lowp-narrow-float-moves-as-integers -split-input-file | FileCheck %s

// A masked bf16 store and load move i16 lanes.
// CHECK-LABEL: llvm.func @bf16
// CHECK: %[[I:.*]] = llvm.bitcast %{{.*}} : vector<8xbf16> to vector<8xi16>
// CHECK: llvm.intr.masked.store %[[I]], %{{.*}}, %{{.*}} {alignment = 2 : i32} : vector<8xi16>, vector<8xi1> into !llvm.ptr
// CHECK: %[[P:.*]] = llvm.bitcast %{{.*}} : vector<8xbf16> to vector<8xi16>
// CHECK: %[[L:.*]] = llvm.intr.masked.load %{{.*}}, %{{.*}}, %[[P]] {alignment = 2 : i32} : (!llvm.ptr, vector<8xi1>, vector<8xi16>) -> vector<8xi16>
// CHECK: %[[R:.*]] = llvm.bitcast %[[L]] : vector<8xi16> to vector<8xbf16>
// CHECK: llvm.return %[[R]]
llvm.func @bf16(%v: vector<8xbf16>, %p: !llvm.ptr, %m: vector<8xi1>) -> vector<8xbf16> {
  llvm.intr.masked.store %v, %p, %m {alignment = 2 : i32} : vector<8xbf16>, vector<8xi1> into !llvm.ptr
  %l = llvm.intr.masked.load %p, %m, %v {alignment = 2 : i32} : (!llvm.ptr, vector<8xi1>, vector<8xbf16>) -> vector<8xbf16>
  llvm.return %l : vector<8xbf16>
}

// -----

// f16 too; a load without pass-through value; lanes inserted and extracted
// one at a time.
// CHECK-LABEL: llvm.func @f16_lanes
// CHECK: llvm.intr.masked.store %{{.*}} : vector<16xi16>, vector<16xi1>
// CHECK: llvm.intr.masked.load %{{.*}}, %{{.*}} {alignment = 2 : i32} : (!llvm.ptr, vector<16xi1>) -> vector<16xi16>
// CHECK: %[[S:.*]] = llvm.bitcast %{{.*}} : bf16 to i16
// CHECK: %[[V:.*]] = llvm.insertelement %[[S]], %{{.*}}[%{{.*}} : i64] : vector<8xi16>
// CHECK: %[[E:.*]] = llvm.extractelement %[[V]][%{{.*}} : i64] : vector<8xi16>
// CHECK: llvm.bitcast %[[E]] : i16 to bf16
llvm.func @f16_lanes(%v: vector<16xf16>, %p: !llvm.ptr, %m: vector<16xi1>, %b: vector<8xbf16>, %s: bf16, %i: i64) -> (vector<16xf16>) {
  llvm.intr.masked.store %v, %p, %m {alignment = 2 : i32} : vector<16xf16>, vector<16xi1> into !llvm.ptr
  %l = llvm.intr.masked.load %p, %m {alignment = 2 : i32} : (!llvm.ptr, vector<16xi1>) -> vector<16xf16>
  %ins = llvm.insertelement %s, %b[%i : i64] : vector<8xbf16>
  %ext = llvm.extractelement %ins[%i : i64] : vector<8xbf16>
  llvm.store %ext, %p : bf16, !llvm.ptr
  llvm.return %l : vector<16xf16>
}

// -----

// f32 and integer vectors, and plain loads and stores, are left alone.
// CHECK-LABEL: llvm.func @left_alone
// CHECK-NOT: llvm.bitcast
// CHECK: llvm.intr.masked.store %{{.*}} : vector<8xf32>
// CHECK: llvm.intr.masked.store %{{.*}} : vector<8xi16>
// CHECK: llvm.store %{{.*}} : vector<8xbf16>
// CHECK: llvm.insertelement %{{.*}} : vector<8xf32>
llvm.func @left_alone(%f: vector<8xf32>, %i: vector<8xi16>, %b: vector<8xbf16>, %p: !llvm.ptr, %m: vector<8xi1>, %x: f32, %k: i64) -> vector<8xf32> {
  llvm.intr.masked.store %f, %p, %m {alignment = 4 : i32} : vector<8xf32>, vector<8xi1> into !llvm.ptr
  llvm.intr.masked.store %i, %p, %m {alignment = 2 : i32} : vector<8xi16>, vector<8xi1> into !llvm.ptr
  llvm.store %b, %p {alignment = 2 : i64} : vector<8xbf16>, !llvm.ptr
  %r = llvm.insertelement %x, %f[%k : i64] : vector<8xf32>
  llvm.return %r : vector<8xf32>
}

// -----

// A constant mask keeping one 16-bit lane: that lane extracted and stored
// alone (LLVM 22 was seen to store it 32 bits wide on AVX-512, the lane and
// the next element); bf16 lanes first become i16 as above. Two lanes, or a
// mask that is not a constant, stay a masked store; 32-bit lanes too.
// CHECK-LABEL: llvm.func @single_lane
// CHECK-NOT:     llvm.intr.masked.store
// CHECK:         %[[C3:.*]] = llvm.mlir.constant(3 : i64) : i64
// CHECK:         %[[E:.*]] = llvm.extractelement %{{.*}}[%[[C3]] : i64] : vector<8xi16>
// CHECK:         %[[Q:.*]] = llvm.getelementptr %arg1[3] : (!llvm.ptr) -> !llvm.ptr, i16
// CHECK:         llvm.store %[[E]], %[[Q]] {alignment = 2 : i64} : i16, !llvm.ptr
// CHECK-LABEL: llvm.func @left_masked
// CHECK-COUNT-3: llvm.intr.masked.store
llvm.func @single_lane(%v: vector<8xbf16>, %p: !llvm.ptr) {
  %m = llvm.mlir.constant(dense<[false, false, false, true, false, false, false, false]> : vector<8xi1>) : vector<8xi1>
  llvm.intr.masked.store %v, %p, %m {alignment = 2 : i32} : vector<8xbf16>, vector<8xi1> into !llvm.ptr
  llvm.return
}
llvm.func @left_masked(%v: vector<8xi16>, %w: vector<8xf32>, %p: !llvm.ptr, %dyn: vector<8xi1>) {
  %two = llvm.mlir.constant(dense<[true, true, false, false, false, false, false, false]> : vector<8xi1>) : vector<8xi1>
  %one = llvm.mlir.constant(dense<[true, false, false, false, false, false, false, false]> : vector<8xi1>) : vector<8xi1>
  llvm.intr.masked.store %v, %p, %two {alignment = 2 : i32} : vector<8xi16>, vector<8xi1> into !llvm.ptr
  llvm.intr.masked.store %v, %p, %dyn {alignment = 2 : i32} : vector<8xi16>, vector<8xi1> into !llvm.ptr
  llvm.intr.masked.store %w, %p, %one {alignment = 4 : i32} : vector<8xf32>, vector<8xi1> into !llvm.ptr
  llvm.return
}
