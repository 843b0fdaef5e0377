//===- PipelineSteps.cpp - steps the pipelines share ----------------------===//

#include "PipelineSteps.h"

#include "lowp/Conversion/Passes.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Conversion/VectorToSCF/VectorToSCF.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/Bufferization/Pipelines/Passes.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Transforms/Passes.h"

#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::lowp;

void lowp::addLowpToBufferizableTensors(OpPassManager &pm) {
  // Unregistered ops: one clear error here rather than whichever later step
  // trips over them first.
  pm.addPass(createLowpPrepareLoweringInput());
  pm.addPass(createConvertLowpToLinalg());
  pm.addNestedPass<func::FuncOp>(createConvertElementwiseToLinalgPass());
  pm.addPass(createLiftControlFlowToSCFPass());
}

void lowp::addBufferization(OpPassManager &pm, bool updateInPlace) {
  // Expands with two dynamic sizes in one group would reach upstream
  // expand-strided-metadata as memref.expand_shape, which crashes on them.
  pm.addPass(createLowpExpandShapeToReshape());
  if (updateInPlace)
    pm.addNestedPass<func::FuncOp>(createLowpWriteUpdatesInPlace());
  //    A caller's arrays are not written behind its back (the parameters
  //    updated in place above excepted): an op writing into an argument's
  //    tensor writes into a copy.
  pm.addNestedPass<func::FuncOp>(createLowpReadOnlyArguments());
  bufferization::OneShotBufferizePassOptions bufferize;
  bufferize.bufferizeFunctionBoundaries = true;
  bufferize.functionBoundaryTypeConversion =
      bufferization::LayoutMapOption::IdentityLayoutMap;
  bufferize.allowReturnAllocsFromLoops = true;
  pm.addPass(bufferization::createOneShotBufferizePass(bufferize));
  // Its constant globals in an order that depends on the input alone.
  pm.addPass(createLowpOrderConstantGlobals());
  // Every buffer bufferization allocated is freed: ownership-based
  // deallocation frees intermediates where their last use is and hands the
  // buffers a function returns to its caller (who frees them), so a
  // compiled function called in a loop keeps memory flat. Later steps that
  // allocate (the contraction kernels' packing buffers) free their own.
  bufferization::buildBufferDeallocationPipeline(pm);
  if (updateInPlace)
    pm.addNestedPass<func::FuncOp>(createLowpReturnUpdatedArguments());
  // The clones it needs where ownership is not statically known become
  // memref.alloc + memref.copy.
  pm.addPass(createConvertBufferizationToMemRefPass());
}

void lowp::addFloatEmulation(OpPassManager &pm,
                             function_ref<bool(Format)> isEmulated) {
  // The formats the decisions produce. The others of the table (tf32, the
  // 6- and 4-bit formats, e8m0) never reach a lowering as arithmetic.
  static constexpr Format kDecidedFormats[] = {
      Format::F16,      Format::BF16,       Format::F8E4M3FN,
      Format::F8E5M2,   Format::F8E4M3FNUZ, Format::F8E5M2FNUZ};
  LowpEmulateNarrowArithmeticOptions emulate;
  for (Format format : kDecidedFormats)
    if (isEmulated(format))
      emulate.formats.push_back(stringifyFormat(format).str());
  pm.addPass(createLowpEmulateNarrowArithmetic(emulate));
}

void lowp::addReferenceLoopLowering(OpPassManager &pm) {
  addBufferization(pm);
  pm.addPass(createConvertLinalgToLoopsPass());
  // finalize-memref-to-llvm aborts on scalar dense_resource globals.
  pm.addPass(createLowpInlineScalarResources());
  // Once the loops are explicit (a named op's body is implied by its name
  // until then): narrow arithmetic rounded after every op, then every
  // narrow conversion as exact integer code. `avx2` is the capability
  // table's x86 row without bf16 or FP8 conversion instructions, so this
  // does not depend on the module's lowp.target or on the host.
  addFloatEmulation(pm, [](Format) { return true; });
  LowpExpandFloatConversionsOptions conversions;
  conversions.target = "avx2";
  pm.addPass(createLowpExpandFloatConversions(conversions));
  // Vector code front ends leave next to linalg (cache updates as
  // vector.transfer_write) becomes 1-D transfers, then loads and stores
  // (convert-vector-to-llvm; convert-to-llvm has no transfer lowering).
  VectorTransferToSCFOptions vectorToSCF;
  vectorToSCF.enableFullUnroll();
  pm.addPass(createConvertVectorToSCFPass(vectorToSCF));
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(createConvertVectorToLLVMPass());
  addCPUToLLVMFinalization(pm);
}

void lowp::addCPUToLLVMFinalization(OpPassManager &pm) {
  pm.addPass(createConvertMathToLLVMPass());
  pm.addPass(createConvertMathToLibmPass());
  pm.addPass(createFinalizeMemRefToLLVMConversionPass());
  pm.addPass(createConvertToLLVMPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
  pm.addPass(createLowpUnoptimizedRunOnceWrappers());
  pm.addPass(createLowpStripAttributes());
}

void lowp::addGPUToLLVMFinalization(OpPassManager &pm,
                                    StringRef toolkitPath) {
  pm.addPass(createGpuToLLVMConversionPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
  GpuModuleToBinaryPassOptions serialize;
  serialize.compilationTarget = "isa";
  serialize.toolkitPath = toolkitPath.str();
  pm.addPass(createGpuModuleToBinaryPass(serialize));
  pm.addPass(createConvertMathToLLVMPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
  pm.addPass(createLowpStripAttributes());
}

FailureOr<const TargetInfo *>
lowp::lookupPipelineTarget(StringRef pipeline, StringRef chip, Vendor vendor,
                           PipelineErrorHandler errorHandler) {
  const TargetInfo *info = lookupTarget(chip);
  if (info && info->vendor == vendor)
    return info;
  std::string rows;
  for (const TargetInfo &row : getAllTargets())
    if (row.vendor == vendor)
      rows += (rows.empty() ? "" : ", ") + row.name.str();
  std::string message =
      (pipeline + " needs target=<chip>, one of the capability table's " +
       stringifyVendor(vendor) + " chips (" + rows + "); got '" + chip + "'")
          .str();
  if (errorHandler)
    (void)errorHandler(message);
  else
    llvm::errs() << message << "\n";
  return failure();
}
