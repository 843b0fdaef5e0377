//===- TargetInfoTest.cpp - capability table facts -------------------------===//

#include "lowp/Target/TargetInfo.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/MLIRContext.h"
#include "gtest/gtest.h"

#include <algorithm>

using namespace mlir;
using namespace mlir::lowp;

namespace {
TEST(TargetInfo, EveryRequiredChipIsPresent) {
  for (const char *chip :
       {"sm_60", "sm_70", "sm_75", "sm_80", "sm_86", "sm_89", "sm_90",
        "sm_90a", "sm_100", "gfx908", "gfx90a", "gfx942", "gfx950", "tpu-v2", "tpu-v3",
        "tpu-v4", "tpu-v5e", "tpu-v5p", "tpu-v6e", "avx2", "avx512bf16",
        "znver4", "sapphirerapids"})
    EXPECT_NE(lookupTarget(chip), nullptr) << chip;
  EXPECT_EQ(lookupTarget("sm_999"), nullptr);
}

TEST(TargetInfo, FP8Flavors) {
  // Ampere has no FP8; Ada and Hopper use OCP FN; MI300 uses FNUZ.
  EXPECT_EQ(lookupTarget("sm_80")->fp8Flavor, FP8Flavor::None);
  EXPECT_EQ(lookupTarget("sm_86")->fp8Flavor, FP8Flavor::None);
  EXPECT_EQ(lookupTarget("sm_89")->fp8Flavor, FP8Flavor::FN);
  EXPECT_EQ(lookupTarget("sm_90")->fp8Flavor, FP8Flavor::FN);
  EXPECT_EQ(lookupTarget("sm_100")->fp8Flavor, FP8Flavor::FN);
  EXPECT_EQ(lookupTarget("gfx942")->fp8Flavor, FP8Flavor::FNUZ);
  EXPECT_EQ(lookupTarget("gfx950")->fp8Flavor, FP8Flavor::FN);
  EXPECT_EQ(lookupTarget("gfx90a")->fp8Flavor, FP8Flavor::None);
  EXPECT_EQ(lookupTarget("tpu-v5e")->fp8Flavor, FP8Flavor::None);
  EXPECT_EQ(lookupTarget("gfx942")->getE4M3(), Format::F8E4M3FNUZ);
  EXPECT_EQ(lookupTarget("sm_90")->getE5M2(), Format::F8E5M2);
  EXPECT_FALSE(lookupTarget("sm_80")->getE4M3().has_value());
}

TEST(TargetInfo, Preferred16BitFormat) {
  EXPECT_EQ(lookupTarget("sm_70")->preferred16, Format::F16);
  EXPECT_EQ(lookupTarget("sm_75")->preferred16, Format::F16);
  EXPECT_EQ(lookupTarget("sm_80")->preferred16, Format::BF16);
  EXPECT_EQ(lookupTarget("sm_90")->preferred16, Format::BF16);
  EXPECT_EQ(lookupTarget("tpu-v4")->preferred16, Format::BF16);
  EXPECT_EQ(lookupTarget("avx512bf16")->preferred16, Format::BF16);
  EXPECT_FALSE(lookupTarget("sm_60")->preferred16.has_value());
  EXPECT_FALSE(lookupTarget("avx2")->preferred16.has_value());
}

TEST(TargetInfo, MatrixUnits) {
  EXPECT_FALSE(lookupTarget("sm_60")->hasMatrixUnit(Format::F16));
  EXPECT_TRUE(lookupTarget("sm_70")->hasMatrixUnit(Format::F16));
  EXPECT_FALSE(lookupTarget("sm_70")->hasMatrixUnit(Format::BF16));
  EXPECT_TRUE(lookupTarget("sm_80")->hasMatrixUnit(Format::BF16));
  EXPECT_FALSE(lookupTarget("sm_80")->hasMatrixUnit(Format::F8E4M3FN));
  EXPECT_TRUE(lookupTarget("sm_89")->hasMatrixUnit(Format::F8E4M3FN));
  EXPECT_TRUE(lookupTarget("gfx942")->hasMatrixUnit(Format::F8E4M3FNUZ));
  EXPECT_FALSE(lookupTarget("gfx942")->hasMatrixUnit(Format::F8E4M3FN));
  EXPECT_FALSE(lookupTarget("tpu-v5e")->hasMatrixUnit(Format::F16));
  EXPECT_FALSE(lookupTarget("avx2")->hasMatrixUnit(Format::BF16));
  // TPU MXU tiles: 128 on v2-v5, 256 on v6e; vector layout (8, 128).
  EXPECT_EQ(lookupTarget("tpu-v5p")->tile16.m, 128u);
  EXPECT_EQ(lookupTarget("tpu-v6e")->tile16.m, 256u);
  EXPECT_EQ(lookupTarget("tpu-v4")->tpu->vectorTileRows, 8u);
  EXPECT_EQ(lookupTarget("tpu-v4")->tpu->vectorTileCols, 128u);
  // TPU vector units gain bf16 arithmetic only on v6e.
  EXPECT_FALSE(lookupTarget("tpu-v5e")->hasNativeArithmetic(Format::BF16));
  EXPECT_TRUE(lookupTarget("tpu-v6e")->hasNativeArithmetic(Format::BF16));
}

/// The row's `instruction` kernel for f16 operands (the 16-bit kernels take
/// f16 and bf16 alike where the row has both), or null.
const GPUGemmTiling *tiling16(const TargetInfo &t,
                              MatrixInstruction instruction) {
  return t.getGemmTiling(instruction, Format::F16);
}

TEST(TargetInfo, KindFacts) {
  // Exactly one kind per row, matching its vendor.
  for (const TargetInfo &t : getAllTargets()) {
    EXPECT_EQ(!!t.cpu + !!t.gpu + !!t.tpu, 1) << t.name.str();
    EXPECT_EQ(!!t.cpu, t.vendor == Vendor::X86) << t.name.str();
    EXPECT_EQ(!!t.tpu, t.vendor == Vendor::Google) << t.name.str();
    if (t.gpu)
      EXPECT_EQ(t.gpu->subgroupSize, t.vendor == Vendor::AMD ? 64u : 32u)
          << t.name.str();
    // A GPU kernel only takes formats of the row's matrix units.
    if (t.gpu)
      for (const GPUGemmKernel &k : t.gpu->gemmKernels)
        for (unsigned i = 0; i < kNumFormats; ++i)
          if (k.operands.contains(static_cast<Format>(i)) &&
              t.hasMatrixUnit(static_cast<Format>(i)))
            EXPECT_EQ(t.getGemmTiling(k.instruction, static_cast<Format>(i)),
                      &k.tiling)
                << t.name.str();
    // x86: the bf16 matrix unit is AVX512_BF16, which comes with 512-bit
    // registers; AMX-BF16's tile is the row's 16-bit tile.
    if (t.cpu) {
      EXPECT_EQ(t.hasMatrixUnit(Format::BF16),
                t.cpu->has(CPUFeature::AVX512BF16))
          << t.name.str();
      EXPECT_EQ(t.cpu->f32Lanes(),
                t.cpu->has(CPUFeature::AVX512F) ? 16u : 8u)
          << t.name.str();
      if (t.cpu->has(CPUFeature::AMXBF16))
        EXPECT_EQ(t.tile16.k, 32u) << t.name.str();
    }
  }
}

TEST(TargetInfo, HostCPU) {
  bool amx = true;
  SmallVector<StringRef> zen4 = {"fpu", "avx2", "fma", "f16c", "avx512f",
                                 "avx512bw", "avx512vl", "avx512_bf16"};
  EXPECT_EQ(selectHostCPU(zen4, "AuthenticAMD", amx)->name, "znver4");
  EXPECT_FALSE(amx);
  // The same flags on another vendor's core: the generic row.
  EXPECT_EQ(selectHostCPU(zen4, "GenuineIntel", amx)->name, "avx512bf16");
  SmallVector<StringRef> spr = zen4;
  spr.push_back("avx512_fp16");
  EXPECT_EQ(selectHostCPU(spr, "GenuineIntel", amx)->name, "sapphirerapids");
  EXPECT_FALSE(amx); // AMX hidden (a VM)
  spr.append({"amx_tile", "amx_bf16"});
  EXPECT_EQ(selectHostCPU(spr, "GenuineIntel", amx)->name, "sapphirerapids");
  EXPECT_TRUE(amx);
  // Granite Rapids: Sapphire Rapids' flags and AMX-FP16; its AMX hidden,
  // the first row of the two.
  SmallVector<StringRef> gnr = spr;
  gnr.push_back("amx_fp16");
  EXPECT_EQ(selectHostCPU(gnr, "GenuineIntel", amx)->name, "graniterapids");
  EXPECT_TRUE(amx);
  gnr.erase(llvm::find(gnr, "amx_tile"));
  EXPECT_EQ(selectHostCPU(gnr, "GenuineIntel", amx)->name, "sapphirerapids");
  EXPECT_FALSE(amx);
  // Zen 5: Zen 4's flags and AVX-VNNI and AVX512_VP2INTERSECT; on another
  // vendor's core the generic row.
  SmallVector<StringRef> zen5 = zen4;
  zen5.append({"avx_vnni", "avx512_vp2intersect", "movdiri"});
  EXPECT_EQ(selectHostCPU(zen5, "AuthenticAMD", amx)->name, "znver5");
  EXPECT_EQ(selectHostCPU(zen5, "GenuineIntel", amx)->name, "avx512bf16");
  zen5.pop_back_n(2);
  EXPECT_EQ(selectHostCPU(zen5, "AuthenticAMD", amx)->name, "znver4");
  SmallVector<StringRef> zen3 = {"avx2", "fma", "f16c", "sse4_2"};
  EXPECT_EQ(selectHostCPU(zen3, "AuthenticAMD", amx)->name, "avx2");
  EXPECT_EQ(selectHostCPU({"sse2"}, "AuthenticAMD", amx), nullptr);
}

TEST(TargetInfo, MmaSyncTilings) {
  // Tensor-core GEMM kernels (lowp-nvvm-lower-contractions): every NVIDIA
  // chip with m16n8 shapes and ldmatrix (sm_75+) has a tiling, sm_70 and
  // non-NVIDIA rows none.
  const MatrixInstruction mmaSync = MatrixInstruction::MmaSync;
  EXPECT_FALSE(tiling16(*lookupTarget("sm_70"), mmaSync));
  EXPECT_FALSE(tiling16(*lookupTarget("gfx942"), mmaSync));
  EXPECT_EQ(tiling16(*lookupTarget("sm_75"), mmaSync)->mma.k, 8u);
  EXPECT_EQ(tiling16(*lookupTarget("sm_75"), mmaSync)->stages,
            1u); // no cp.async
  for (const char *chip : {"sm_80", "sm_86", "sm_89", "sm_90", "sm_100"}) {
    const GPUGemmTiling &t = *tiling16(*lookupTarget(chip), mmaSync);
    EXPECT_EQ(t.mma.k, 16u) << chip;
    EXPECT_EQ(t.stages, 2u) << chip;
  }
  for (const TargetInfo &target : getAllTargets()) {
    const GPUGemmTiling *tiling = tiling16(target, mmaSync);
    if (!tiling)
      continue;
    const GPUGemmTiling &t = *tiling;
    // The layout the kernel builder assumes: whole 16 x 8 instruction
    // tiles per warp, an even number of n tiles (ldmatrix.x4 loads two),
    // whole k steps per slice, 16-byte chunks shared evenly by the threads.
    EXPECT_EQ(t.mma.m, 16u) << target.name.str();
    EXPECT_EQ(t.mma.n, 8u) << target.name.str();
    EXPECT_EQ(t.blockM % (t.warpsM * 16), 0u) << target.name.str();
    EXPECT_EQ(t.blockN % (t.warpsN * 16), 0u) << target.name.str();
    EXPECT_EQ(t.blockK % t.mma.k, 0u) << target.name.str();
    EXPECT_EQ((t.blockM * t.blockK / 8) % t.threads(), 0u) << target.name.str();
    EXPECT_EQ((t.blockN * t.blockK / 8) % t.threads(), 0u) << target.name.str();
    // Padded 16-bit stages fit in the 48 KB of static shared memory.
    unsigned bytes = t.stages * 2 *
                     (t.blockM * (t.blockK + 8) + t.blockK * (t.blockN + 8));
    EXPECT_LE(bytes, 48u * 1024) << target.name.str();
    EXPECT_EQ(target.vendor, Vendor::NVIDIA) << target.name.str();
  }
}

TEST(TargetInfo, WgmmaTilings) {
  // Warpgroup kernels only where the PTX target has wgmma: sm_90a, whose
  // code runs on compute capability 9.0 alone (sm_90 is the portable
  // target and keeps mma.sync).
  const MatrixInstruction wgmma = MatrixInstruction::Wgmma;
  for (const TargetInfo &target : getAllTargets()) {
    bool sm90a = target.name == "sm_90a";
    EXPECT_EQ(target.hasGemmKernel(wgmma), sm90a) << target.name.str();
    EXPECT_EQ(!!target.getGemmTiling(wgmma, Format::F8E4M3FN), sm90a)
        << target.name.str();
  }
  const TargetInfo *sm90a = lookupTarget("sm_90a");
  const TargetInfo *sm90 = lookupTarget("sm_90");
  EXPECT_EQ(sm90a->llvmCpu.str(), "sm_90a");
  EXPECT_EQ(sm90->llvmCpu.str(), "sm_90");
  // Everything else as sm_90: the same formats and mma.sync fallbacks.
  EXPECT_EQ(sm90a->matrixFormats.raw(), sm90->matrixFormats.raw());
  EXPECT_TRUE(
      sm90a->getGemmTiling(MatrixInstruction::MmaSync, Format::BF16) &&
      sm90a->getGemmTiling(MatrixInstruction::MmaSync, Format::F8E5M2));
  for (auto [t, elemBytes] :
       {std::pair{sm90a->getGemmTiling(wgmma, Format::BF16), 2u},
        std::pair{sm90a->getGemmTiling(wgmma, Format::F8E4M3FN), 1u}}) {
    // m64nNkK per warpgroup of 128 threads, one instruction tile per
    // warpgroup across the block's columns, K of 32 bytes per instruction.
    EXPECT_EQ(t->waveSize, 128u);
    EXPECT_EQ(t->mma.m, 64u);
    EXPECT_EQ(t->mma.n * t->warpsN, t->blockN);
    EXPECT_EQ(t->mma.k * elemBytes, 32u);
    EXPECT_EQ(t->blockM % (64 * t->warpsM), 0u);
    // A slice row is one swizzle row (32, 64 or 128 bytes); an N-major B
    // is whole 128-byte atoms.
    unsigned rowBytes = t->blockK * elemBytes;
    EXPECT_TRUE(rowBytes == 32 || rowBytes == 64 || rowBytes == 128);
    EXPECT_EQ(t->mma.n * elemBytes % 128, 0u);
    // Unpadded stages within the 48 KB of static shared memory.
    EXPECT_LE(t->stages * (t->blockM + t->blockN) * rowBytes, 48u * 1024);
    EXPECT_EQ((t->blockM * rowBytes / 16) % t->threads(), 0u);
    EXPECT_EQ((t->blockN * rowBytes / 16) % t->threads(), 0u);
  }
}

TEST(TargetInfo, MmaSyncFP8Tilings) {
  // FP8 tensor-core kernels (mma.sync m16n8k32): exactly the NVIDIA rows
  // with FP8 tensor cores, for both OCP formats and nothing else.
  const MatrixInstruction mmaSync = MatrixInstruction::MmaSync;
  for (const TargetInfo &target : getAllTargets()) {
    bool fp8 = target.vendor == Vendor::NVIDIA &&
               target.hasMatrixUnit(Format::F8E4M3FN);
    const GPUGemmTiling *tiling =
        target.getGemmTiling(mmaSync, Format::F8E4M3FN);
    EXPECT_EQ(!!tiling, fp8) << target.name.str();
    if (!fp8)
      continue;
    const GPUGemmTiling &t = *tiling;
    EXPECT_EQ(target.getGemmTiling(mmaSync, Format::F8E5M2), &t)
        << target.name.str();
    EXPECT_EQ(target.getGemmTiling(mmaSync, Format::F8E4M3FNUZ), nullptr)
        << target.name.str();
    EXPECT_EQ(t.mma.m, 16u);
    EXPECT_EQ(t.mma.n, 8u);
    EXPECT_EQ(t.mma.k, 32u);
    EXPECT_EQ(t.blockK % t.mma.k, 0u);
    // 16-byte chunks of 16 values shared evenly by the threads; padded
    // stages (B as [k][n] or [n][k]) within 48 KB of static shared memory.
    EXPECT_EQ((t.blockM * t.blockK / 16) % t.threads(), 0u);
    EXPECT_EQ((t.blockN * t.blockK / 16) % t.threads(), 0u);
    unsigned bytes =
        t.stages * (t.blockM * (t.blockK + 16) +
                    std::max(t.blockK * (t.blockN + 16),
                             t.blockN * (t.blockK + 16)));
    EXPECT_LE(bytes, 48u * 1024) << target.name.str();
  }
  EXPECT_EQ(lookupTarget("sm_80")->getGemmTiling(mmaSync, Format::F8E4M3FN),
            nullptr);
}

TEST(TargetInfo, FormatTypeRoundTrip) {
  MLIRContext ctx;
  for (unsigned i = 0; i < kNumFormats; ++i) {
    auto f = static_cast<Format>(i);
    FloatType t = getFloatType(&ctx, f);
    ASSERT_TRUE(t);
    EXPECT_EQ(getFormat(t), f);
    EXPECT_EQ(symbolizeFormat(stringifyFormat(f)), f);
  }
  EXPECT_FALSE(getFormat(Float64Type::get(&ctx)).has_value());
}
} // namespace
