//===- NVVMGemmBackends.h - NVIDIA back ends of the GPU GEMM tiling -*- C++ -*-===//
//
// The two NVIDIA matrix-instruction back ends of lowp/Conversion/LinalgToGPU/
// TiledGemm.h share their staging: cp.async copies of 16-byte chunks in
// commit groups. mma.sync (TensorCoreContractions.cpp) reads the staged
// tiles with ldmatrix; wgmma (WgmmaContractions.cpp) through matrix
// descriptors.
//
//===----------------------------------------------------------------------===//

#ifndef LOWP_LIB_CONVERSION_LINALGTONVVM_NVVMGEMMBACKENDS_H
#define LOWP_LIB_CONVERSION_LINALGTONVVM_NVVMGEMMBACKENDS_H

#include "lowp/Conversion/LinalgToGPU/TiledGemm.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

#include <memory>

namespace mlir::lowp::nvvm_gemm {

/// The first `count` members of the LLVM struct `result` (the accumulators
/// an mma.sync or wgmma returns).
inline SmallVector<Value> extractMembers(OpBuilder &b, Location loc,
                                         Value result, int64_t count) {
  SmallVector<Value> members;
  for (int64_t i = 0; i < count; ++i)
    members.push_back(LLVM::ExtractValueOp::create(b, loc, result, i));
  return members;
}

/// cp.async.cg 16-byte global-to-shared copies (src-size 0 zero-fills a
/// chunk outside the operand), closed into groups and waited for by count.
class CpAsyncCopies {
public:
  explicit CpAsyncCopies(MLIRContext *ctx);
  void copy(gpu_gemm::IndexBuilder &ib, Value dst, ValueRange dstIdx,
            Value src, ValueRange srcIdx, int64_t elements, Value inBounds);
  void commit(gpu_gemm::IndexBuilder &ib);
  void wait(gpu_gemm::IndexBuilder &ib, int64_t pending);

private:
  Type tokenType;
  SmallVector<Value> tokens;
  Value lastGroup;
};

/// A back end that stages its operands with cp.async: the asynchronous
/// copy hooks of MatrixInstructionBackend on CpAsyncCopies (mma.sync with 2
/// stages, wgmma with 2 or more).
class CpAsyncBackend : public gpu_gemm::MatrixInstructionBackend {
public:
  explicit CpAsyncBackend(MLIRContext *ctx) : copies(ctx) {}
  void asyncCopy(gpu_gemm::IndexBuilder &ib, Value dst, ValueRange dstIdx,
                 Value src, ValueRange srcIdx, int64_t elements,
                 Value inBounds) override {
    copies.copy(ib, dst, dstIdx, src, srcIdx, elements, inBounds);
  }
  void commitCopies(gpu_gemm::IndexBuilder &ib) override {
    copies.commit(ib);
  }
  void waitCopies(gpu_gemm::IndexBuilder &ib, int64_t pending) override {
    copies.wait(ib, pending);
  }

protected:
  CpAsyncCopies copies;
};

/// The warpgroup back end (wgmma.mma_async, sm_90a): the row's wgmma GEMM
/// kernels (with `stages` shared-memory stages instead of the table's when
/// not 0); the ops it does not take fall back to mma.sync.
std::unique_ptr<gpu_gemm::MatrixInstructionBackend>
createWgmmaBackend(MLIRContext *ctx, unsigned stages = 0);

} // namespace mlir::lowp::nvvm_gemm

#endif // LOWP_LIB_CONVERSION_LINALGTONVVM_NVVMGEMMBACKENDS_H
