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
  // The discardable attributes fp-opt reads and writes on any op (and on
  // function arguments and results), declared once: ODS generates a helper
  // class per attribute (LowpDialect::PrecisionAttrHelper, ...: getNameStr(),
  // getAttr, setAttr, isAttrPresent, removeAttr) and the passes use those
  // instead of spelling names. verifyOperationAttribute
  // (lib/IR/LowpDialect.cpp) checks their values wherever they appear;
  // attributes that take several forms (one per result, a unit or a name)
  // are declared as ::mlir::Attribute.
  let discardableAttrs = (ins
    // Pins the precision of any op: a float type.
    "::mlir::TypeAttr":$precision,
    // The hardware target of a module: a row of the capability table.
    "::mlir::lowp::TargetAttr":$target,
    // The precision policy of a module or function.
    "::mlir::lowp::PolicyAttr":$policy,
    // Calibration statistics of a value (on its defining op, or a function
    // argument): #lowp.stats, or an array of one per result.
    "::mlir::Attribute":$stats,
    // On lowp.island: what the island protects (softmax, layer_norm, ...),
    // for reports.
    "::mlir::ArrayAttr":$island_reasons,
    // On a delayed-scaling amax history argument: the 8-bit float type it
    // scales.
    "::mlir::TypeAttr":$amax_history,
    // The training-step role of a value: #lowp.role, or an array of one per
    // result.
    "::mlir::Attribute":$role,
    // On an scf.for whose iterations are independent (disjoint writes, no
    // read of another iteration's writes): lowp-parallelize-loops runs it
    // on threads.
    "::mlir::UnitAttr":$parallel,
    // On a function that runs once per set of weights (F_prepack): its loops
    // are outlined (lowp-outline-repeated-loops), and the rest of it and its
    // C interface wrapper compiled without optimization
    // (lowp-unoptimized-run-once-wrappers).
    "::mlir::UnitAttr":$runs_once,
    // The training-step markers of docs/training-step.md
    // (lowp/IR/TrainingStep.h says what each marks).
    "::mlir::UnitAttr":$loss,
    "::mlir::UnitAttr":$loss_seed,
    "::mlir::Attribute":$gradient,
    "::mlir::IntegerAttr":$updates,
    "::mlir::Attribute":$loss_scale,
    "::mlir::UnitAttr":$good_steps,
    "::mlir::StringAttr":$loss_scaling,
    "::mlir::UnitAttr":$numerics_checked,
    // With demote-weights=arguments (docs/embedding.md): on an FP8 weight
    // argument, the scale its caller multiplied by before rounding (a
    // positive f32) or the index of the f32 argument that carries it (i64);
    // on that scale argument, fp8_scale_of is the weight's index (i64).
    "::mlir::Attribute":$fp8_scale,
    "::mlir::IntegerAttr":$fp8_scale_of,
    // With policy=fp8-weights (lowp-fp8-weight-only): on an FP8 weight
    // argument whose fp8_scale names a 1-D scale argument, the dimension
    // of the weight that argument holds one scale per index of.
    "::mlir::IntegerAttr":$fp8_axis
  );
  let extraClassDeclaration = [{
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
