// RUN: fp-opt %s -lowp-x86-lower-contractions=target=znver4 -canonicalize -split-input-file | FileCheck %s

// The NCHW window kernel reads through an explicit pad (what
// one-shot-bufferize makes of a tensor.pad: a buffer, a fill of the pad
// value, a copy of the source into its interior): it reads the source, the
// windows' edges given the pad value in registers, and the buffer, its
// fill and its copy are gone. The tests that execute it:
// test/Integration/X86/conv-depthwise-padded.mlir.

// A 3x3 depthwise convolution on a 14x14 input padded by 1: the left pad
// column is one lane shifted in from the pad value, the loads are masked
// to the row with the pad value as their pass-through.
// CHECK-LABEL: func @depthwise_pad1
// CHECK-NOT: memref<1x4x16x16xf32>
// CHECK-NOT: memref.copy
// CHECK: vector.maskedload %arg0[{{.*}}], %{{.*}}, %{{.*}} : memref<1x4x14x14xf32>, vector<16xi1>, vector<16xf32>
// CHECK: vector.shuffle %{{.*}}, %{{.*}} [0, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30]
// CHECK-NOT: memref.copy
// CHECK: return
func.func @depthwise_pad1(%src: memref<1x4x14x14xf32>, %f: memref<4x3x3xf32>) -> memref<1x4x14x14xf32> {
  %o = memref.alloc() : memref<1x4x14x14xf32>
  %zero = arith.constant 0.0 : f32
  %p = memref.alloc() {alignment = 64 : i64} : memref<1x4x16x16xf32>
  linalg.map outs(%p : memref<1x4x16x16xf32>)
    (%init: f32) {
      linalg.yield %zero : f32
    }
  %in = memref.subview %p[0, 0, 1, 1] [1, 4, 14, 14] [1, 1, 1, 1] : memref<1x4x16x16xf32> to memref<1x4x14x14xf32, strided<[1024, 256, 16, 1], offset: 17>>
  memref.copy %src, %in : memref<1x4x14x14xf32> to memref<1x4x14x14xf32, strided<[1024, 256, 16, 1], offset: 17>>
  linalg.fill ins(%zero : f32) outs(%o : memref<1x4x14x14xf32>)
  linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
    ins(%p, %f : memref<1x4x16x16xf32>, memref<4x3x3xf32>) outs(%o : memref<1x4x14x14xf32>)
  memref.dealloc %p : memref<1x4x16x16xf32>
  return %o : memref<1x4x14x14xf32>
}

// -----

// A max pool read through a pad of -inf written by linalg.fill and copied
// by linalg.copy; a write to another fresh buffer in between does not
// stop it. The pad value is the loads' pass-through.
// CHECK-LABEL: func @maxpool_pad1
// CHECK-DAG: %[[NINF:.*]] = arith.constant dense<0xFF800000> : vector<32xf32>
// CHECK-NOT: memref<1x2x16x17xf32>
// CHECK: vector.maskedload %arg0[{{.*}}], %{{.*}}, %[[NINF]] : memref<1x2x14x15xf32>, vector<32xi1>, vector<32xf32>
// CHECK: arith.maximumf
// CHECK: return
func.func @maxpool_pad1(%src: memref<1x2x14x15xf32>, %w: memref<3x3xf32>) -> memref<1x2x7x8xf32> {
  %o = memref.alloc() : memref<1x2x7x8xf32>
  %ninf = arith.constant 0xFF800000 : f32
  %one = arith.constant 1.0 : f32
  %p = memref.alloc() : memref<1x2x16x17xf32>
  linalg.fill ins(%ninf : f32) outs(%p : memref<1x2x16x17xf32>)
  %in = memref.subview %p[0, 0, 1, 1] [1, 2, 14, 15] [1, 1, 1, 1] : memref<1x2x16x17xf32> to memref<1x2x14x15xf32, strided<[544, 272, 17, 1], offset: 18>>
  linalg.copy ins(%src : memref<1x2x14x15xf32>) outs(%in : memref<1x2x14x15xf32, strided<[544, 272, 17, 1], offset: 18>>)
  %other = memref.alloc() : memref<4xf32>
  linalg.fill ins(%one : f32) outs(%other : memref<4xf32>)
  linalg.fill ins(%ninf : f32) outs(%o : memref<1x2x7x8xf32>)
  linalg.pooling_nchw_max {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>}
    ins(%p, %w : memref<1x2x16x17xf32>, memref<3x3xf32>) outs(%o : memref<1x2x7x8xf32>)
  memref.dealloc %other : memref<4xf32>
  return %o : memref<1x2x7x8xf32>
}

// -----

// The source written between the copy and the convolution: the padded
// buffer holds the values from before, so it stays.
// CHECK-LABEL: func @source_written_after_copy
// CHECK: memref.alloc() : memref<1x4x16x16xf32>
// CHECK: vector.maskedload %{{.*}} : memref<1x4x16x16xf32>
func.func @source_written_after_copy(%src: memref<1x4x14x14xf32>, %f: memref<4x3x3xf32>) -> memref<1x4x14x14xf32> {
  %o = memref.alloc() : memref<1x4x14x14xf32>
  %zero = arith.constant 0.0 : f32
  %p = memref.alloc() : memref<1x4x16x16xf32>
  linalg.fill ins(%zero : f32) outs(%p : memref<1x4x16x16xf32>)
  %in = memref.subview %p[0, 0, 1, 1] [1, 4, 14, 14] [1, 1, 1, 1] : memref<1x4x16x16xf32> to memref<1x4x14x14xf32, strided<[1024, 256, 16, 1], offset: 17>>
  memref.copy %src, %in : memref<1x4x14x14xf32> to memref<1x4x14x14xf32, strided<[1024, 256, 16, 1], offset: 17>>
  linalg.fill ins(%zero : f32) outs(%src : memref<1x4x14x14xf32>)
  linalg.fill ins(%zero : f32) outs(%o : memref<1x4x14x14xf32>)
  linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
    ins(%p, %f : memref<1x4x16x16xf32>, memref<4x3x3xf32>) outs(%o : memref<1x4x14x14xf32>)
  return %o : memref<1x4x14x14xf32>
}

// -----

// A call between the copy and the convolution may write anything: the
// padded buffer stays.
// CHECK-LABEL: func @call_after_copy
// CHECK: memref.alloc() : memref<1x4x16x16xf32>
func.func private @opaque()
func.func @call_after_copy(%src: memref<1x4x14x14xf32>, %f: memref<4x3x3xf32>) -> memref<1x4x14x14xf32> {
  %o = memref.alloc() : memref<1x4x14x14xf32>
  %zero = arith.constant 0.0 : f32
  %p = memref.alloc() : memref<1x4x16x16xf32>
  linalg.fill ins(%zero : f32) outs(%p : memref<1x4x16x16xf32>)
  %in = memref.subview %p[0, 0, 1, 1] [1, 4, 14, 14] [1, 1, 1, 1] : memref<1x4x16x16xf32> to memref<1x4x14x14xf32, strided<[1024, 256, 16, 1], offset: 17>>
  memref.copy %src, %in : memref<1x4x14x14xf32> to memref<1x4x14x14xf32, strided<[1024, 256, 16, 1], offset: 17>>
  func.call @opaque() : () -> ()
  linalg.fill ins(%zero : f32) outs(%o : memref<1x4x14x14xf32>)
  linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
    ins(%p, %f : memref<1x4x16x16xf32>, memref<4x3x3xf32>) outs(%o : memref<1x4x14x14xf32>)
  return %o : memref<1x4x14x14xf32>
}

// -----

// The padded buffer read by something else too (here returned): it stays.
// CHECK-LABEL: func @padded_buffer_escapes
// CHECK: memref.alloc() : memref<1x4x16x16xf32>
// CHECK: return %{{.*}}, %{{.*}} : memref<1x4x14x14xf32>, memref<1x4x16x16xf32>
func.func @padded_buffer_escapes(%src: memref<1x4x14x14xf32>, %f: memref<4x3x3xf32>) -> (memref<1x4x14x14xf32>, memref<1x4x16x16xf32>) {
  %o = memref.alloc() : memref<1x4x14x14xf32>
  %zero = arith.constant 0.0 : f32
  %p = memref.alloc() : memref<1x4x16x16xf32>
  linalg.fill ins(%zero : f32) outs(%p : memref<1x4x16x16xf32>)
  %in = memref.subview %p[0, 0, 1, 1] [1, 4, 14, 14] [1, 1, 1, 1] : memref<1x4x16x16xf32> to memref<1x4x14x14xf32, strided<[1024, 256, 16, 1], offset: 17>>
  memref.copy %src, %in : memref<1x4x14x14xf32> to memref<1x4x14x14xf32, strided<[1024, 256, 16, 1], offset: 17>>
  linalg.fill ins(%zero : f32) outs(%o : memref<1x4x14x14xf32>)
  linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
    ins(%p, %f : memref<1x4x16x16xf32>, memref<4x3x3xf32>) outs(%o : memref<1x4x14x14xf32>)
  return %o, %p : memref<1x4x14x14xf32>, memref<1x4x16x16xf32>
}

// -----

// Padding along the channels (not a spatial dimension): it stays.
// CHECK-LABEL: func @channel_padding
// CHECK: memref.alloc() : memref<1x6x16x16xf32>
func.func @channel_padding(%src: memref<1x4x14x14xf32>, %f: memref<6x3x3xf32>) -> memref<1x6x14x14xf32> {
  %o = memref.alloc() : memref<1x6x14x14xf32>
  %zero = arith.constant 0.0 : f32
  %p = memref.alloc() : memref<1x6x16x16xf32>
  linalg.fill ins(%zero : f32) outs(%p : memref<1x6x16x16xf32>)
  %in = memref.subview %p[0, 1, 1, 1] [1, 4, 14, 14] [1, 1, 1, 1] : memref<1x6x16x16xf32> to memref<1x4x14x14xf32, strided<[1536, 256, 16, 1], offset: 273>>
  memref.copy %src, %in : memref<1x4x14x14xf32> to memref<1x4x14x14xf32, strided<[1536, 256, 16, 1], offset: 273>>
  linalg.fill ins(%zero : f32) outs(%o : memref<1x6x14x14xf32>)
  linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
    ins(%p, %f : memref<1x6x16x16xf32>, memref<6x3x3xf32>) outs(%o : memref<1x6x14x14xf32>)
  return %o : memref<1x6x14x14xf32>
}

// -----

// The fill after the copy (the buffer holds the fill value everywhere, not
// a pad): it stays.
// CHECK-LABEL: func @fill_after_copy
// CHECK: memref.alloc() : memref<1x4x16x16xf32>
func.func @fill_after_copy(%src: memref<1x4x14x14xf32>, %f: memref<4x3x3xf32>) -> memref<1x4x14x14xf32> {
  %o = memref.alloc() : memref<1x4x14x14xf32>
  %zero = arith.constant 0.0 : f32
  %p = memref.alloc() : memref<1x4x16x16xf32>
  %in = memref.subview %p[0, 0, 1, 1] [1, 4, 14, 14] [1, 1, 1, 1] : memref<1x4x16x16xf32> to memref<1x4x14x14xf32, strided<[1024, 256, 16, 1], offset: 17>>
  memref.copy %src, %in : memref<1x4x14x14xf32> to memref<1x4x14x14xf32, strided<[1024, 256, 16, 1], offset: 17>>
  linalg.fill ins(%zero : f32) outs(%p : memref<1x4x16x16xf32>)
  linalg.fill ins(%zero : f32) outs(%o : memref<1x4x14x14xf32>)
  linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
    ins(%p, %f : memref<1x4x16x16xf32>, memref<4x3x3xf32>) outs(%o : memref<1x4x14x14xf32>)
  return %o : memref<1x4x14x14xf32>
}

// -----

// The convolution writing its own source (the padded buffer kept them
// apart): it stays.
// CHECK-LABEL: func @output_is_source
// CHECK: memref.alloc() : memref<1x4x16x16xf32>
func.func @output_is_source(%src: memref<1x4x14x14xf32>, %f: memref<4x3x3xf32>) {
  %zero = arith.constant 0.0 : f32
  %p = memref.alloc() : memref<1x4x16x16xf32>
  linalg.fill ins(%zero : f32) outs(%p : memref<1x4x16x16xf32>)
  %in = memref.subview %p[0, 0, 1, 1] [1, 4, 14, 14] [1, 1, 1, 1] : memref<1x4x16x16xf32> to memref<1x4x14x14xf32, strided<[1024, 256, 16, 1], offset: 17>>
  memref.copy %src, %in : memref<1x4x14x14xf32> to memref<1x4x14x14xf32, strided<[1024, 256, 16, 1], offset: 17>>
  linalg.fill ins(%zero : f32) outs(%src : memref<1x4x14x14xf32>)
  linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
    ins(%p, %f : memref<1x4x16x16xf32>, memref<4x3x3xf32>) outs(%src : memref<1x4x14x14xf32>)
  return
}
