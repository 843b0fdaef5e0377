//===- OptionEnums.h - closed sets of choices of passes and pipelines -*- C++ -*-===//
//
// The enums behind fp-opt's enum-typed options (Passes.td, the pipelines'
// option structs). One enum per concept: an option that offers only part of
// it lists that part in its `llvm::cl::values`.
//
//===----------------------------------------------------------------------===//

#ifndef LOWP_SUPPORT_OPTIONENUMS_H
#define LOWP_SUPPORT_OPTIONENUMS_H

#include "lowp/Support/EnumOptionParser.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/ErrorHandling.h"

namespace mlir::lowp {

/// The low-precision format a pass works towards: `auto` (the target's
/// preferred 16-bit format) or a builtin float type narrower than f32,
/// spelled as MLIR spells the type.
enum class LowFormat {
  Auto,
  F16,
  BF16,
  TF32,
  F8E5M2,
  F8E4M3,
  F8E4M3FN,
  F8E5M2FNUZ,
  F8E4M3FNUZ,
  F8E4M3B11FNUZ,
  F8E3M4,
  F8E8M0FNU,
  F6E2M3FN,
  F6E3M2FN,
  F4E2M1FN,
};
/// "auto", or the type's MLIR spelling ("f16", "f8E4M3FN", ...).
inline llvm::StringRef stringifyLowFormat(LowFormat format) {
  switch (format) {
  case LowFormat::Auto:
    return "auto";
  case LowFormat::F16:
    return "f16";
  case LowFormat::BF16:
    return "bf16";
  case LowFormat::TF32:
    return "tf32";
  case LowFormat::F8E5M2:
    return "f8E5M2";
  case LowFormat::F8E4M3:
    return "f8E4M3";
  case LowFormat::F8E4M3FN:
    return "f8E4M3FN";
  case LowFormat::F8E5M2FNUZ:
    return "f8E5M2FNUZ";
  case LowFormat::F8E4M3FNUZ:
    return "f8E4M3FNUZ";
  case LowFormat::F8E4M3B11FNUZ:
    return "f8E4M3B11FNUZ";
  case LowFormat::F8E3M4:
    return "f8E3M4";
  case LowFormat::F8E8M0FNU:
    return "f8E8M0FNU";
  case LowFormat::F6E2M3FN:
    return "f6E2M3FN";
  case LowFormat::F6E3M2FN:
    return "f6E3M2FN";
  case LowFormat::F4E2M1FN:
    return "f4E2M1FN";
  }
  llvm_unreachable("unknown LowFormat");
}

/// The accumulator of matrix ops.
enum class Accumulator { F32, Low };

/// The compute format a mixed-precision flow aims at.
enum class PrecisionPolicy {
  /// The target's preferred 16-bit format.
  Auto,
  F16,
  BF16,
  /// 16-bit inference, then FP8 operands for matrix ops.
  FP8,
  /// The target's preferred 16-bit inference (as Auto), then weight
  /// arguments stored as FP8 with a scale per output channel
  /// (lowp-fp8-weight-only): for targets without FP8 arithmetic, where
  /// the weights' bytes decide the speed.
  FP8Weights,
  /// PyTorch autocast's choice, as a baseline: matrix op inputs in the
  /// target's preferred format, everything else f32.
  Autocast,
};
inline llvm::StringRef stringifyPrecisionPolicy(PrecisionPolicy policy) {
  switch (policy) {
  case PrecisionPolicy::Auto:
    return "auto";
  case PrecisionPolicy::F16:
    return "f16";
  case PrecisionPolicy::BF16:
    return "bf16";
  case PrecisionPolicy::FP8:
    return "fp8";
  case PrecisionPolicy::FP8Weights:
    return "fp8-weights";
  case PrecisionPolicy::Autocast:
    return "autocast";
  }
  llvm_unreachable("unknown PrecisionPolicy");
}

/// The loss-scaling mode a pass applies; Auto defers to `#lowp.policy`.
enum class LossScalingChoice { Auto, None, Static, Dynamic };

/// Who owns the buffers of functions that launch GPU kernels.
enum class CallingConvention {
  /// Functions take and return host buffers and copy them to and from the
  /// device.
  Host,
  /// Functions take and return device buffers.
  Device,
};

} // namespace mlir::lowp

LOWP_LISTING_ENUM_OPTION(::mlir::lowp::LowFormat)
LOWP_LISTING_ENUM_OPTION(::mlir::lowp::Accumulator)
LOWP_LISTING_ENUM_OPTION(::mlir::lowp::PrecisionPolicy)
LOWP_LISTING_ENUM_OPTION(::mlir::lowp::LossScalingChoice)
LOWP_LISTING_ENUM_OPTION(::mlir::lowp::CallingConvention)

#endif // LOWP_SUPPORT_OPTIONENUMS_H
