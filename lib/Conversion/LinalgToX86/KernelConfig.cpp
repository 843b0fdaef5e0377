//===- KernelConfig.cpp - x86 kernel configuration of a target ------------===//
//
// One place that turns a CPU row of the capability table and the options
// of lowp-x86-lower-contractions into the kernels' KernelConfig; the pass
// and lowp-pipeline-x86 (its vector width) both ask it.
//
//===----------------------------------------------------------------------===//

#include "lowp/Conversion/LinalgToX86/X86Kernels.h"

using namespace mlir;
using namespace mlir::lowp;
using namespace mlir::lowp::x86;

FailureOr<KernelConfig>
x86::getKernelConfig(const TargetInfo &target, const KernelOptions &options,
                     function_ref<InFlightDiagnostic()> emitError) {
  auto fail = [&](auto &&...message) -> FailureOr<KernelConfig> {
    if (emitError)
      (emitError() << ... << message);
    return failure();
  };
  if (!target.cpu)
    return fail("'", target.name, "' is not an x86 target");
  const CPUInfo &cpu = *target.cpu;
  KernelConfig cfg;
  cfg.lanes = cpu.f32Lanes();
  // vdpbf16ps where the table does not measure it slower than f32 FMAs
  // on widened operands (Golden Cove: half their rate), and always under
  // AMX, whose blocks' edges run on it from the same VNNI-packed B.
  bool amx = options.amx && cpu.has(CPUFeature::AMXBF16);
  if (options.amx && !amx)
    return fail("amx requested but '", target.name, "' has no AMX-BF16");
  cfg.bf16Dot = cpu.prefersBF16Dot() || amx;
  // Defaults fill the register file: 6x16 (12 ymm accumulators of 16
  // registers) on AVX2, 8x32 (16 of 32 zmm) with AVX-512.
  cfg.mr = options.mr ? options.mr : (cpu.vectorRegisters() == 32 ? 8 : 6);
  cfg.nr = options.nr ? options.nr : 2 * cfg.lanes;
  // AMX-BF16's tile (16 x 16 f32 accumulators, k = 32 bf16) is the
  // row's 16-bit matrix tile.
  if (amx)
    cfg.amxTile = target.tile16;
  cfg.kc = options.kc;
  cfg.mc = options.mc;
  cfg.winograd = options.winograd;
  cfg.fuseAttention = options.fuseAttention;
  cfg.l2Bytes = cpu.l2Bytes;
  cfg.f32KBlock = cpu.f32KBlock;
  cfg.prefetchLineBytes = options.prefetch ? cpu.cacheLineBytes : 0;
  if (cfg.nr % cfg.lanes)
    return fail("nr=", cfg.nr, " is not a multiple of the ", cfg.lanes,
                " f32 lanes of ", target.name);
  return cfg;
}
