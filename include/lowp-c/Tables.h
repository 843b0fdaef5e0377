/*===-- lowp-c/Tables.h - C API: format and target tables ---------*- C -*-===*\
|*                                                                            *|
|* Read access to fp-opt's two sources of truth: the numeric facts of every   *|
|* float format (derived from APFloat) and the hardware capability table      *|
|* (keyed by the vendors' chip names). Strings returned here have static or   *|
|* context lifetime, as documented per function.                              *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef LOWP_C_TABLES_H
#define LOWP_C_TABLES_H

#include "mlir-c/IR.h"

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

//===----------------------------------------------------------------------===//
// Float formats
//===----------------------------------------------------------------------===//

/// Numeric facts of one float format (mirror of lowp::FloatFormatInfo).
typedef struct MlirLowpFloatFormatInfo {
  MlirStringRef name; ///< MLIR spelling, e.g. "f8E4M3FN" (context lifetime)
  unsigned bits;         ///< storage width
  unsigned exponentBits; ///< width of the exponent field
  unsigned mantissaBits; ///< explicit fraction bits (precision - 1)
  bool hasSign;
  double maxFinite;    ///< largest finite value
  double minNormal;    ///< smallest positive normal value
  double minSubnormal; ///< smallest positive value
  double epsilon;      ///< distance from 1.0 to the next larger value
  double binades;      ///< log2(maxFinite / minSubnormal)
  double normalBinades; ///< log2(maxFinite / minNormal)
  bool hasInf;
  bool hasNaN;
  bool hasNegativeZero;
} MlirLowpFloatFormatInfo;

/// Number of rows of the format table (f64, f32, tf32, f16, bf16, the FP8,
/// FP6, FP4 and E8M0 types).
MLIR_CAPI_EXPORTED intptr_t mlirLowpGetNumFloatFormats(MlirContext ctx);

/// The float type of row `pos` of the format table.
MLIR_CAPI_EXPORTED MlirType mlirLowpGetFloatFormatType(MlirContext ctx,
                                                       intptr_t pos);

/// Fills `info` with the facts of float type `type`; returns false (and
/// leaves `info` untouched) when `type` is not a float type.
MLIR_CAPI_EXPORTED bool mlirLowpGetFloatFormatInfo(MlirType type,
                                                   MlirLowpFloatFormatInfo *info);

/// Rounds `value` to float type `type` with IEEE round-to-nearest-even
/// (APFloat, without saturation: out-of-range values become inf, or NaN in
/// formats without inf) and returns the result widened back to double. The
/// reference the Python package's numpy rounding is tested against. Returns
/// NaN when `type` is not a float type or is wider than f64.
MLIR_CAPI_EXPORTED double mlirLowpRoundToFloatType(MlirType type, double value);

//===----------------------------------------------------------------------===//
// Hardware capability table
//===----------------------------------------------------------------------===//

/// The formats the capability table speaks about (mirror of lowp::Format).
/// Format sets below are bit masks: bit `1u << MlirLowpFormat`.
typedef enum MlirLowpFormat {
  MlirLowpFormatF32 = 0,
  MlirLowpFormatTF32,
  MlirLowpFormatF16,
  MlirLowpFormatBF16,
  MlirLowpFormatF8E4M3FN,
  MlirLowpFormatF8E5M2,
  MlirLowpFormatF8E4M3FNUZ,
  MlirLowpFormatF8E5M2FNUZ,
  MlirLowpFormatF6E2M3FN,
  MlirLowpFormatF6E3M2FN,
  MlirLowpFormatF4E2M1FN,
  MlirLowpFormatF8E8M0FNU,
  MlirLowpFormatCount, ///< number of formats, not a format
} MlirLowpFormat;

/// The MLIR spelling of `format` ("bf16", "f8E4M3FN", ...); static storage.
MLIR_CAPI_EXPORTED MlirStringRef mlirLowpFormatGetName(MlirLowpFormat format);

/// The MLIR float type of `format`.
MLIR_CAPI_EXPORTED MlirType mlirLowpFormatGetType(MlirContext ctx,
                                                  MlirLowpFormat format);

/// A matrix-unit tile shape; all zeros when not applicable.
typedef struct MlirLowpTileShape {
  unsigned m, n, k;
} MlirLowpTileShape;

/// One row of the capability table (mirror of lowp::TargetInfo). All strings
/// have static storage.
typedef struct MlirLowpTargetInfo {
  MlirStringRef name;      ///< vendor chip name: "sm_90", "gfx942", ...
  MlirStringRef vendor;    ///< "nvidia", "amd", "google", "x86"
  uint32_t matrixFormats;     ///< formats with dense matrix units
  uint32_t elementwiseFormats; ///< formats with native elementwise arithmetic
  uint32_t nativeConversions; ///< formats with native f32 conversions
  int32_t preferred16;     ///< MlirLowpFormat for AMP's 16-bit type, or -1
  MlirStringRef fp8Flavor; ///< "none", "FN" or "FNUZ"
  MlirLowpTileShape tile16; ///< matrix tile for 16-bit inputs
  MlirLowpTileShape tile8;  ///< matrix tile for 8-bit inputs
  unsigned vectorTileRows, vectorTileCols; ///< TPU (8, 128); zeros elsewhere
  MlirStringRef llvmCpu;      ///< LLVM -mcpu
  MlirStringRef llvmFeatures; ///< LLVM -mattr
  unsigned l2Bytes;   ///< per-core L2 (CPU rows; 0 elsewhere)
  unsigned f32KBlock; ///< k block of the x86 f32 GEMM kernel (0 off x86)
  /// Multiply-adds per cycle and core of the f32 FMAs and of vdpbf16ps (x86
  /// rows; 0 where not measured): the x86 kernels use vdpbf16ps only where
  /// it is not slower.
  unsigned f32FmaMacsPerCycle, bf16DotMacsPerCycle;
  /// CPU rows: the extensions the kernels use, and the AMX ones used under
  /// `amx` (bit i: mlirLowpCPUFeatureGetName(i)); zeros elsewhere.
  uint32_t cpuFeatures, amxFeatures;
  MlirStringRef hostVendor; ///< CPU rows' /proc/cpuinfo vendor_id, or ""
  unsigned vectorBits;   ///< CPU rows' vector register width (0 elsewhere)
  unsigned subgroupSize; ///< GPU rows' warp / wavefront (0 elsewhere)
} MlirLowpTargetInfo;

/// Number of rows of the capability table.
MLIR_CAPI_EXPORTED intptr_t mlirLowpGetNumTargets(void);

/// Row `pos` of the capability table, in the table's stable order.
MLIR_CAPI_EXPORTED MlirLowpTargetInfo mlirLowpGetTarget(intptr_t pos);

/// Number of CPU features the table names.
MLIR_CAPI_EXPORTED intptr_t mlirLowpGetNumCPUFeatures(void);

/// Name of CPU feature `pos`: its /proc/cpuinfo flag (static lifetime).
MLIR_CAPI_EXPORTED MlirStringRef mlirLowpCPUFeatureGetName(intptr_t pos);

/// The position of the CPU row a host with /proc/cpuinfo `flags` and
/// `vendorId` runs (fp-opt's choice: docs/embedding.md), or -1 when no
/// row matches; `useAmx` receives whether its AMX extensions are there.
MLIR_CAPI_EXPORTED intptr_t mlirLowpSelectHostCPU(const MlirStringRef *flags,
                                                  intptr_t numFlags,
                                                  MlirStringRef vendorId,
                                                  bool *useAmx);

/// Looks a chip up by name; returns false when the table has no such chip.
MLIR_CAPI_EXPORTED bool mlirLowpLookupTarget(MlirStringRef chip,
                                             MlirLowpTargetInfo *info);

#ifdef __cplusplus
}
#endif

#endif // LOWP_C_TABLES_H
