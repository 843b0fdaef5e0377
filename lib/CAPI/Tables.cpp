//===- Tables.cpp - C API: format and target tables -----------------------===//

#include "lowp-c/Tables.h"

#include "lowp/Formats/FloatFormats.h"
#include "lowp/Target/TargetInfo.h"

#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Support.h"
#include "mlir/IR/BuiltinAttributes.h"

#include <limits>

using namespace mlir;
using namespace mlir::lowp;

static_assert(MlirLowpFormatCount == kNumFormats,
              "MlirLowpFormat out of sync with lowp::Format");
static_assert(MlirLowpFormatF8E8M0FNU == static_cast<int>(Format::F8E8M0FNU) &&
                  MlirLowpFormatBF16 == static_cast<int>(Format::BF16),
              "MlirLowpFormat out of sync with lowp::Format");

//===----------------------------------------------------------------------===//
// Float formats
//===----------------------------------------------------------------------===//

intptr_t mlirLowpGetNumFloatFormats(MlirContext ctx) {
  return getTabulatedFloatTypes(unwrap(ctx)).size();
}

MlirType mlirLowpGetFloatFormatType(MlirContext ctx, intptr_t pos) {
  return wrap(getTabulatedFloatTypes(unwrap(ctx))[pos]);
}

bool mlirLowpGetFloatFormatInfo(MlirType type, MlirLowpFloatFormatInfo *info) {
  auto floatType = dyn_cast_or_null<FloatType>(unwrap(type));
  if (!floatType)
    return false;
  FloatFormatInfo facts = getFloatFormatInfo(floatType);
  // Interned in the context so the name outlives this call.
  info->name = wrap(
      StringAttr::get(floatType.getContext(), facts.name).getValue());
  info->bits = facts.bits;
  info->exponentBits = facts.exponentBits;
  info->mantissaBits = facts.mantissaBits;
  info->hasSign = facts.hasSign;
  info->maxFinite = facts.maxFinite;
  info->minNormal = facts.minNormal;
  info->minSubnormal = facts.minSubnormal;
  info->epsilon = facts.epsilon;
  info->binades = facts.binades;
  info->normalBinades = facts.normalBinades;
  info->hasInf = facts.hasInf;
  info->hasNaN = facts.hasNaN;
  info->hasNegativeZero = facts.hasNegativeZero;
  return true;
}

double mlirLowpRoundToFloatType(MlirType type, double value) {
  auto floatType = dyn_cast_or_null<FloatType>(unwrap(type));
  if (!floatType || floatType.getWidth() > 64)
    return std::numeric_limits<double>::quiet_NaN();
  bool losesInfo = false;
  llvm::APFloat rounded(value);
  rounded.convert(floatType.getFloatSemantics(),
                  llvm::APFloat::rmNearestTiesToEven, &losesInfo);
  rounded.convert(llvm::APFloat::IEEEdouble(),
                  llvm::APFloat::rmNearestTiesToEven, &losesInfo);
  return rounded.convertToDouble();
}

//===----------------------------------------------------------------------===//
// Hardware capability table
//===----------------------------------------------------------------------===//

MlirStringRef mlirLowpFormatGetName(MlirLowpFormat format) {
  return wrap(stringifyFormat(static_cast<Format>(format)));
}

MlirType mlirLowpFormatGetType(MlirContext ctx, MlirLowpFormat format) {
  return wrap(getFloatType(unwrap(ctx), static_cast<Format>(format)));
}

static MlirLowpTileShape wrapTile(TileShape tile) {
  return {tile.m, tile.n, tile.k};
}

static MlirLowpTargetInfo wrapTarget(const TargetInfo &t) {
  MlirLowpTargetInfo info;
  info.name = wrap(StringRef(t.name));
  info.vendor = wrap(stringifyVendor(t.vendor));
  info.matrixFormats = t.matrixFormats.raw();
  info.elementwiseFormats = t.elementwiseFormats.raw();
  info.nativeConversions = t.nativeConversions.raw();
  info.preferred16 = t.preferred16 ? static_cast<int32_t>(*t.preferred16) : -1;
  info.fp8Flavor = wrap(stringifyFP8Flavor(t.fp8Flavor));
  info.tile16 = wrapTile(t.tile16);
  info.tile8 = wrapTile(t.tile8);
  info.vectorTileRows = t.tpu ? t.tpu->vectorTileRows : 0;
  info.vectorTileCols = t.tpu ? t.tpu->vectorTileCols : 0;
  info.llvmCpu = wrap(StringRef(t.llvmCpu));
  info.llvmFeatures = wrap(StringRef(t.llvmFeatures));
  const CPUInfo cpu = t.cpu ? *t.cpu : CPUInfo{};
  info.l2Bytes = cpu.l2Bytes;
  info.f32KBlock = cpu.f32KBlock;
  info.f32FmaMacsPerCycle = cpu.f32FmaMacsPerCycle;
  info.bf16DotMacsPerCycle = cpu.bf16DotMacsPerCycle;
  info.cpuFeatures = cpu.features.raw();
  info.amxFeatures = cpu.amxFeatures.raw();
  info.hostVendor = wrap(StringRef(cpu.hostVendor));
  info.vectorBits = cpu.vectorBits;
  info.subgroupSize = t.gpu ? t.gpu->subgroupSize : 0;
  return info;
}

intptr_t mlirLowpGetNumTargets(void) { return getAllTargets().size(); }

intptr_t mlirLowpGetNumCPUFeatures(void) { return kNumCPUFeatures; }

MlirStringRef mlirLowpCPUFeatureGetName(intptr_t pos) {
  return wrap(stringifyCPUFeature(static_cast<CPUFeature>(pos)));
}

intptr_t mlirLowpSelectHostCPU(const MlirStringRef *flags, intptr_t numFlags,
                               MlirStringRef vendorId, bool *useAmx) {
  SmallVector<StringRef> names;
  for (intptr_t i = 0; i < numFlags; ++i)
    names.push_back(unwrap(flags[i]));
  bool amx = false;
  const TargetInfo *row = selectHostCPU(names, unwrap(vendorId), amx);
  if (useAmx)
    *useAmx = amx;
  return row ? row - getAllTargets().data() : -1;
}

MlirLowpTargetInfo mlirLowpGetTarget(intptr_t pos) {
  return wrapTarget(getAllTargets()[pos]);
}

bool mlirLowpLookupTarget(MlirStringRef chip, MlirLowpTargetInfo *info) {
  const TargetInfo *target = lookupTarget(unwrap(chip));
  if (!target)
    return false;
  *info = wrapTarget(*target);
  return true;
}
