//===- LowpBase.td - lowp dialect definition ---------------*- tablegen -*-===//
//
// The `lowp` dialect: low-precision numerics as first-class IR.
//
//===----------------------------------------------------------------------===//

#ifndef LOWP_IR_LOWPBASE_TD
#define LOWP_IR_LOWPBASE_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"

def Lowp_Dialect : Dialect {
  let name = "lowp";
  let cppNamespace = "::mlir::lowp";
  let summary = "Mixed-precision (FP16, BF16, FP8) numerics made explicit";
  let description = [{
    The `lowp` dialect carries the decisions of fp-opt's mixed-precision passes:
    float-to-float casts with explicit rounding and saturation, regions that
    run at a stated higher precision (FP32 islands), loss-scaling operations
    for FP16 training steps, and per-tensor FP8 scaling operations. Attributes
    record the precision policy, the hardware target and calibration
    statistics, so every later pass reads the same facts from the IR.

    Every op lowers to `arith`/`math`/`linalg`/`tensor`/`scf` through
    `convert-lowp-to-linalg`.
  }];
  let useDefaultAttributePrinterParser = 1;
  let hasOperationAttrVerify = 1;
  let hasRegionArgAttrVerify = 1;
  let hasRegionResultAttrVerify = 1;
  let hasConstantMaterializer = 1;
  let extraClassDeclaration = [{
    /// Name of the discardable attribute that pins the precision of any op.
    static constexpr ::llvm::StringLiteral getPrecisionAttrName() {
      return ::llvm::StringLiteral("lowp.precision");
    }
    /// Name of the module attribute that names the hardware target.
    static constexpr ::llvm::StringLiteral getTargetAttrName() {
      return ::llvm::StringLiteral("lowp.target");
    }
    /// Name of the module/function attribute that holds the precision policy.
    static constexpr ::llvm::StringLiteral getPolicyAttrName() {
      return ::llvm::StringLiteral("lowp.policy");
    }
    /// Name of the attribute that attaches calibration statistics to a value's
    /// defining op (or to a function argument).
    static constexpr ::llvm::StringLiteral getStatsAttrName() {
      return ::llvm::StringLiteral("lowp.stats");
    }
    /// Name of the lowp.island attribute listing what the island protects
    /// (softmax, layer_norm, ...), for reports.
    static constexpr ::llvm::StringLiteral getIslandReasonsAttrName() {
      return ::llvm::StringLiteral("lowp.island_reasons");
    }
    /// Name of the argument attribute that marks a delayed-scaling amax
    /// history and names the 8-bit float type it scales.
    static constexpr ::llvm::StringLiteral getAmaxHistoryAttrName() {
      return ::llvm::StringLiteral("lowp.amax_history");
    }
    /// Name of the attribute that marks the training-step role of a value
    /// (on its defining op, or as a function argument attribute).
    static constexpr ::llvm::StringLiteral getRoleAttrName() {
      return ::llvm::StringLiteral("lowp.role");
    }
    /// Name of the unit attribute a lowering puts on an `scf.for` whose
    /// iterations are independent (disjoint writes, no read of another
    /// iteration's writes); lowp-parallelize-loops runs it on threads.
    static constexpr ::llvm::StringLiteral getParallelLoopAttrName() {
      return ::llvm::StringLiteral("lowp.parallel");
    }
  private:
    void registerAttributes();
  public:
  }];
}

class Lowp_Op<string mnemonic, list<Trait> traits = []>
    : Op<Lowp_Dialect, mnemonic, traits>;

class Lowp_Attr<string name, string attrMnemonic, list<Trait> traits = []>
    : AttrDef<Lowp_Dialect, name, traits> {
  let mnemonic = attrMnemonic;
}

#endif // LOWP_IR_LOWPBASE_TD
