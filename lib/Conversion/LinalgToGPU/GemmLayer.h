//===- GemmLayer.h - internals of the GPU GEMM layer ----------------------===//
//
// Internal to lib/Conversion/LinalgToGPU: what the matching, epilogue and
// builder files of the GPU GEMM layer (TiledGemm.h) share.
//
//===----------------------------------------------------------------------===//

#ifndef LIB_CONVERSION_LINALGTOGPU_GEMMLAYER_H
#define LIB_CONVERSION_LINALGTOGPU_GEMMLAYER_H

#include "lowp/Conversion/LinalgToGPU/TiledGemm.h"

namespace mlir::lowp::gpu_gemm {

/// Whether `type` is a memref with a static shape, an identity layout and
/// the default memory space.
bool isIdentityStatic(Type type);

/// Folds a padded copy of the convolution input into the kernel
/// (GemmMatching.cpp).
void foldInputPadding(linalg::LinalgOp op, GemmProblem &p);

/// The zero fill of C before `op` and the elementwise chain after it that
/// the kernel computes (GemmEpilogue.cpp).
void collectEpilogue(linalg::LinalgOp op, GemmProblem &p);

/// Erases the contraction, its zero fill and epilogue ops (the kernel
/// computes them), then the temporaries only deallocations still use
/// (GemmEpilogue.cpp).
void eraseFusedOps(linalg::LinalgOp op, const GemmProblem &p);

} // namespace mlir::lowp::gpu_gemm

#endif // LIB_CONVERSION_LINALGTOGPU_GEMMLAYER_H
