//===- TargetInfo.cpp - hardware capability table -------------------------===//
//
// Sources for every row: ../shared/ANCHORS.md (vendor ISA guides: NVIDIA PTX
// ISA, AMD CDNA ISA, Intel SDM, Google Cloud TPU system architecture).
//
//===----------------------------------------------------------------------===//

#include "lowp/Target/TargetInfo.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/Format.h"

using namespace mlir;
using namespace mlir::lowp;

namespace {
using F = Format;
// Shorthands for the table below.
constexpr FormatSet kF32{F::F32};
constexpr FormatSet kF16{F::F16};
constexpr FormatSet kBF16{F::BF16};
constexpr FormatSet kTF32{F::TF32};
constexpr FormatSet kFP8FN{F::F8E4M3FN, F::F8E5M2};
constexpr FormatSet kFP8FNUZ{F::F8E4M3FNUZ, F::F8E5M2FNUZ};
constexpr FormatSet kMX{F::F6E2M3FN, F::F6E3M2FN, F::F4E2M1FN, F::F8E8M0FNU};
constexpr TileShape kNoTile{};
// Tensor-core GEMM kernels (lowp-nvvm-lower-contractions). 128 x 128 block
// tiles, 32 deep, 8 warps of 64 x 32: 64 f32 accumulators per thread, and
// two padded stages of A and B in 37 KB of static shared memory (under the
// 48 KB every chip gives without opting in). Turing has ldmatrix but no
// cp.async (one synchronous stage) and m16n8k8 for f16; Volta has neither
// ldmatrix nor m16n8 shapes.
constexpr GPUGemmTiling kMmaSyncSm75{{16, 8, 8}, 128, 128, 32, 2, 4, 1};
constexpr GPUGemmTiling kMmaSyncSm80{{16, 8, 16}, 128, 128, 32, 2, 4, 2};
// FP8 (Ada, and Hopper/Blackwell without wgmma/tcgen05): m16n8k32, the same
// block and warp tiles with slices 64 deep (64-byte rows, as the 16-bit
// kernel's): two padded stages of 38 KB at most.
constexpr GPUGemmTiling kMmaSyncFP8{{16, 8, 32}, 128, 128, 64, 2, 4, 2};
// Warpgroup MMA (sm_90a): 128 x 128 blocks of two warpgroups (64 x 128
// each: one m64n128k16 / k32 per k step, 64 f32 accumulators per thread),
// slices of 64-byte rows (32 deep for 16-bit operands, 64 for FP8) staged
// by cp.async in three stages of 16 KB: 48 KB, the static shared memory a
// kernel gets without opting in. One slice's wgmma group stays in flight
// while the next is issued (wgmma.wait_group 1): of the three stages one is
// read by that group, one by the group being issued, and one is refilled
// (the copies run one slice ahead).
constexpr GPUGemmTiling kWgmma16{{64, 128, 16}, 128, 128, 32, 2, 1, 3, 128, 1};
constexpr GPUGemmTiling kWgmmaFP8{{64, 128, 32}, 128, 128, 64, 2, 1, 3, 128, 1};
// Static shared memory per block without opting in (cudaFuncSetAttribute
// for more): 48 KB on every NVIDIA chip.
constexpr unsigned kNvidiaStaticShared = 48 * 1024;
// Subgroup sizes: NVIDIA warps are 32 lanes; CDNA (gfx9) runs wave64 only.
constexpr unsigned kWarp = 32;
constexpr unsigned kWave64 = 64;
// MFMA GEMM kernels (lowp-rocdl-lower-contractions). 128 x 128 workgroup
// tiles of 2 x 2 waves of 64 lanes (256 threads), each wave 64 x 64: 64 f32
// accumulators per lane whatever the instruction (2 x 2 32x32 tiles of 16
// registers, or 4 x 4 16x16 tiles of 4). Slices 32 deep for 16-bit operands
// and 64 for FP8 (both 64-byte rows), two padded LDS stages (37 KB, of
// 64 KB), the next slice loaded through registers while the current one is
// multiplied (gfx9 has no asynchronous global-to-LDS copy of 16 bytes).
// gfx908/gfx90a: v_mfma_f32_32x32x8f16, bf16 as 32x32x4bf16 (gfx908) and
// 32x32x8bf16_1k (gfx90a); gfx942: the 16x16x16 forms and
// 16x16x32 fp8/bf8 (FNUZ); gfx950: 16x16x32 f16/bf16 and fp8/bf8 (OCP).
constexpr GPUGemmTiling mfmaTiling(unsigned m, unsigned n, unsigned k,
                                   unsigned blockK) {
  return {{m, n, k}, 128, 128, blockK, 2, 2, 2, 64};
}
constexpr GPUGemmTiling kMfma32x32x8 = mfmaTiling(32, 32, 8, 32);
constexpr GPUGemmTiling kMfma32x32x4 = mfmaTiling(32, 32, 4, 32);
constexpr GPUGemmTiling kMfma16x16x16 = mfmaTiling(16, 16, 16, 32);
constexpr GPUGemmTiling kMfma16x16x32 = mfmaTiling(16, 16, 32, 32);
constexpr GPUGemmTiling kMfma16x16x32FP8 = mfmaTiling(16, 16, 32, 64);
} // namespace

// clang-format off
static const TargetInfo kTargets[] = {
  // NVIDIA. sm_60: fp16 arithmetic but no tensor cores, so no AMP benefit.
  {"sm_60", Vendor::NVIDIA, {}, kF32 | kF16, kF16, std::nullopt,
   FP8Flavor::None, kNoTile, kNoTile, 0, 0, "sm_60", "+ptx60", {}, {}, {}, {},
   kWarp, {}, 0, {}, {}, 0, kNvidiaStaticShared},
  // Volta: first fp16 tensor cores (mma.sync m8n8k4, wmma 16x16x16).
  {"sm_70", Vendor::NVIDIA, kF16, kF32 | kF16, kF16, F::F16,
   FP8Flavor::None, {16, 16, 16}, kNoTile, 0, 0, "sm_70", "+ptx60", {}, {}, {}, {},
   kWarp, {}, 0, {}, {}, 0, kNvidiaStaticShared},
  // Turing: fp16 tensor cores (m16n8k8); ldmatrix and m16n8k8 need PTX 6.5.
  {"sm_75", Vendor::NVIDIA, kF16, kF32 | kF16, kF16, F::F16,
   FP8Flavor::None, {16, 8, 8}, kNoTile, 0, 0, "sm_75", "+ptx65", kMmaSyncSm75, {}, {}, {},
   kWarp, {}, 0, {}, {}, 0, kNvidiaStaticShared},
  // Ampere: fp16, bf16, tf32 tensor cores (m16n8k16); no FP8.
  {"sm_80", Vendor::NVIDIA, kF16 | kBF16 | kTF32, kF32 | kF16 | kBF16,
   kF16 | kBF16, F::BF16, FP8Flavor::None, {16, 8, 16}, kNoTile, 0, 0,
   "sm_80", "+ptx70", kMmaSyncSm80, {}, {}, {}, kWarp, {}, 0, {},
   {}, 0, kNvidiaStaticShared},
  {"sm_86", Vendor::NVIDIA, kF16 | kBF16 | kTF32, kF32 | kF16 | kBF16,
   kF16 | kBF16, F::BF16, FP8Flavor::None, {16, 8, 16}, kNoTile, 0, 0,
   "sm_86", "+ptx71", kMmaSyncSm80, {}, {}, {}, kWarp, {}, 0, {},
   {}, 0, kNvidiaStaticShared},
  // Ada: adds FP8 E4M3/E5M2 tensor cores and cvt.rn.satfinite.e4m3x2.f32;
  // FP8 mma.sync m16n8k32 needs PTX 8.4 (so does sm_90's).
  {"sm_89", Vendor::NVIDIA, kF16 | kBF16 | kTF32 | kFP8FN,
   kF32 | kF16 | kBF16, kF16 | kBF16 | kFP8FN, F::BF16, FP8Flavor::FN,
   {16, 8, 16}, {16, 8, 32}, 0, 0, "sm_89", "+ptx84", kMmaSyncSm80, {}, {}, {},
   kWarp, kMmaSyncFP8, 0, {}, {}, 0, kNvidiaStaticShared},
  // Hopper, portable sm_90 PTX: mma.sync kernels (wgmma needs sm_90a).
  {"sm_90", Vendor::NVIDIA, kF16 | kBF16 | kTF32 | kFP8FN,
   kF32 | kF16 | kBF16, kF16 | kBF16 | kFP8FN, F::BF16, FP8Flavor::FN,
   {64, 256, 16}, {64, 256, 32}, 0, 0, "sm_90", "+ptx84", kMmaSyncSm80, {}, {}, {},
   kWarp, kMmaSyncFP8, 0, {}, {}, 0, kNvidiaStaticShared},
  // Hopper with the architecture-specific PTX target sm_90a (H100, H200):
  // wgmma, whose PTX runs on sm_90 only (plain sm_90 PTX runs on later
  // chips too and has no wgmma).
  {"sm_90a", Vendor::NVIDIA, kF16 | kBF16 | kTF32 | kFP8FN,
   kF32 | kF16 | kBF16, kF16 | kBF16 | kFP8FN, F::BF16, FP8Flavor::FN,
   {64, 256, 16}, {64, 256, 32}, 0, 0, "sm_90a", "+ptx84", kMmaSyncSm80, {}, {}, {},
   kWarp, kMmaSyncFP8, 0, kWgmma16, kWgmmaFP8, 0,
   kNvidiaStaticShared},
  // Blackwell: adds MX block-scaled fp8/fp6/fp4.
  {"sm_100", Vendor::NVIDIA, kF16 | kBF16 | kTF32 | kFP8FN | kMX,
   kF32 | kF16 | kBF16, kF16 | kBF16 | kFP8FN | kMX, F::BF16, FP8Flavor::FN,
   {128, 256, 16}, {128, 256, 32}, 0, 0, "sm_100", "+ptx86", kMmaSyncSm80, {}, {}, {},
   kWarp, kMmaSyncFP8, 0, {}, {}, 0, kNvidiaStaticShared},

  // AMD. MI100: fp16 and bf16 MFMA, bf16 at half the fp16 rate.
  {"gfx908", Vendor::AMD, kF16 | kBF16, kF32 | kF16, kF16, F::F16,
   FP8Flavor::None, {32, 32, 8}, kNoTile, 0, 0, "gfx908", "", {},
   kMfma32x32x8, kMfma32x32x4, {}, kWave64},
  // MI200: full-rate bf16 MFMA; no FP8 conversions.
  {"gfx90a", Vendor::AMD, kF16 | kBF16, kF32 | kF16, kF16, F::BF16,
   FP8Flavor::None, {32, 32, 8}, kNoTile, 0, 0, "gfx90a", "", {},
   kMfma32x32x8, kMfma32x32x8, {}, kWave64},
  // MI300: FNUZ fp8/bf8 MFMA and v_cvt_pk_fp8_f32; bf16 converts emulated.
  {"gfx942", Vendor::AMD, kF16 | kBF16 | kTF32 | kFP8FNUZ, kF32 | kF16,
   kF16 | kFP8FNUZ, F::BF16, FP8Flavor::FNUZ, {16, 16, 16}, {16, 16, 32},
   0, 0, "gfx942", "", {}, kMfma16x16x16, kMfma16x16x16, kMfma16x16x32FP8,
   kWave64},
  // MI350: OCP fp8, MX scaling, v_cvt_pk_bf16_f32.
  {"gfx950", Vendor::AMD, kF16 | kBF16 | kFP8FN | kMX, kF32 | kF16 | kBF16,
   kF16 | kBF16 | kFP8FN, F::BF16, FP8Flavor::FN, {16, 16, 32}, {16, 16, 64},
   0, 0, "gfx950", "", {}, kMfma16x16x32, kMfma16x16x32, kMfma16x16x32FP8,
   kWave64},

  // Google TPU: bf16 MXU with f32 accumulation, (8, 128) vector layout tiles;
  // vector units have no bf16 arithmetic before v6e; no fp16, no fp8.
  {"tpu-v2", Vendor::Google, kBF16, kF32, kBF16, F::BF16, FP8Flavor::None,
   {128, 128, 128}, kNoTile, 8, 128, "", ""},
  {"tpu-v3", Vendor::Google, kBF16, kF32, kBF16, F::BF16, FP8Flavor::None,
   {128, 128, 128}, kNoTile, 8, 128, "", ""},
  {"tpu-v4", Vendor::Google, kBF16, kF32, kBF16, F::BF16, FP8Flavor::None,
   {128, 128, 128}, kNoTile, 8, 128, "", ""},
  {"tpu-v5e", Vendor::Google, kBF16, kF32, kBF16, F::BF16, FP8Flavor::None,
   {128, 128, 128}, kNoTile, 8, 128, "", ""},
  {"tpu-v5p", Vendor::Google, kBF16, kF32, kBF16, F::BF16, FP8Flavor::None,
   {128, 128, 128}, kNoTile, 8, 128, "", ""},
  {"tpu-v6e", Vendor::Google, kBF16, kF32 | kBF16, kBF16, F::BF16,
   FP8Flavor::None, {256, 256, 256}, kNoTile, 8, 128, "", ""},

  // x86. AVX2: f32 FMA only; F16C converts f16; bf16 has no instructions.
  // Multiply-adds per cycle: two FMA units of 8 (AVX2, Zen 4's 512-bit
  // FMAs are two 256-bit halves) or 16 f32 lanes (Intel AVX-512 server
  // cores); vdpbf16ps on a zmm is 32 products, one per cycle on Zen 4
  // (AMD's Zen 4 optimization guide) and one every 2 cycles on Golden Cove
  // (bench/x86/dot_throughput.sh: 0.75 ns against 0.18 ns for an FMA on
  // an Emerald Rapids core, 4.1x per instruction, 2x per product).
  // L2 per core: Haswell 256 KiB (the AVX2 baseline), Cooper Lake and
  // Zen 4 1 MiB, Sapphire Rapids 2 MiB. Cache lines: 64 bytes. The f32
  // kernel's k block: 512 measured best on Zen 3 (AVX2) and Zen 4 (256:
  // 0.74-0.80x and 0.86-1.0x of 512), 256 on Sapphire Rapids (its 32 KiB
  // slice of B in the 48 KiB L1: 0.76x -> 0.88-0.94x oneDNN at 1024).
  {"avx2", Vendor::X86, {}, kF32, kF16, std::nullopt, FP8Flavor::None,
   kNoTile, kNoTile, 0, 0, "x86-64-v3", "+avx2,+fma,+f16c", {}, {}, {}, {},
   0, {}, /*l2Bytes=*/256 << 10, {}, {},
   /*cacheLineBytes=*/64, /*staticSharedMemoryBytes=*/0,
   /*f32KBlock=*/512, /*f32FmaMacsPerCycle=*/16, /*bf16DotMacsPerCycle=*/0},
  // AVX512_BF16 (Cooper Lake and later): vdpbf16ps, vcvtneps2bf16. The
  // rates of this generic row are not measured: its kernels use the dot.
  {"avx512bf16", Vendor::X86, kBF16, kF32, kF16 | kBF16, F::BF16,
   FP8Flavor::None, {16, 16, 2}, kNoTile, 0, 0, "cooperlake",
   "+avx512f,+avx512vl,+avx512bf16,+f16c", {}, {}, {}, {}, 0, {},
   /*l2Bytes=*/1 << 20, {}, {},
   /*cacheLineBytes=*/64, /*staticSharedMemoryBytes=*/0,
   /*f32KBlock=*/512, /*f32FmaMacsPerCycle=*/0, /*bf16DotMacsPerCycle=*/0},
  // Zen 4: AVX512_BF16 as above.
  {"znver4", Vendor::X86, kBF16, kF32, kF16 | kBF16, F::BF16, FP8Flavor::None,
   {16, 16, 2}, kNoTile, 0, 0, "znver4", "", {}, {}, {}, {}, 0, {},
   /*l2Bytes=*/1 << 20, {}, {},
   /*cacheLineBytes=*/64, /*staticSharedMemoryBytes=*/0,
   /*f32KBlock=*/512, /*f32FmaMacsPerCycle=*/16, /*bf16DotMacsPerCycle=*/32},
  // Sapphire Rapids: AVX512_BF16, AMX-BF16 (16x16x32 tiles), AVX512_FP16.
  {"sapphirerapids", Vendor::X86, kBF16, kF32 | kF16, kF16 | kBF16, F::BF16,
   FP8Flavor::None, {16, 16, 32}, kNoTile, 0, 0, "sapphirerapids", "", {}, {},
   {}, {}, 0, {}, /*l2Bytes=*/2 << 20, {}, {},
   /*cacheLineBytes=*/64, /*staticSharedMemoryBytes=*/0,
   /*f32KBlock=*/256, /*f32FmaMacsPerCycle=*/32, /*bf16DotMacsPerCycle=*/16},
};
// clang-format on

ArrayRef<TargetInfo> mlir::lowp::getAllTargets() { return kTargets; }

const TargetInfo *mlir::lowp::lookupTarget(StringRef chip) {
  for (const TargetInfo &t : kTargets)
    if (t.name == chip)
      return &t;
  return nullptr;
}

std::string mlir::lowp::getKnownTargetNames() {
  std::string names;
  llvm::raw_string_ostream os(names);
  llvm::interleaveComma(kTargets, os,
                        [&](const TargetInfo &t) { os << t.name; });
  return names;
}

const GPUGemmTiling *TargetInfo::getGemmTiling(Format f) const {
  if (!hasMatrixUnit(f))
    return nullptr;
  const GPUGemmTiling *t = nullptr;
  if (vendor == Vendor::NVIDIA && (f == F::F16 || f == F::BF16))
    t = &mmaSync16;
  else if (vendor == Vendor::NVIDIA && (f == getE4M3() || f == getE5M2()))
    t = &mmaSyncFP8;
  else if (vendor == Vendor::AMD && f == F::F16)
    t = &mfmaF16;
  else if (vendor == Vendor::AMD && f == F::BF16)
    t = &mfmaBF16;
  else if (vendor == Vendor::AMD && (f == getE4M3() || f == getE5M2()))
    t = &mfmaFP8;
  return t && t->valid() ? t : nullptr;
}

std::optional<Format> TargetInfo::getE4M3() const {
  switch (fp8Flavor) {
  case FP8Flavor::FN:
    return F::F8E4M3FN;
  case FP8Flavor::FNUZ:
    return F::F8E4M3FNUZ;
  case FP8Flavor::None:
    return std::nullopt;
  }
  return std::nullopt;
}

std::optional<Format> TargetInfo::getE5M2() const {
  switch (fp8Flavor) {
  case FP8Flavor::FN:
    return F::F8E5M2;
  case FP8Flavor::FNUZ:
    return F::F8E5M2FNUZ;
  case FP8Flavor::None:
    return std::nullopt;
  }
  return std::nullopt;
}

// Format names are MLIR's type spellings.
static constexpr llvm::StringLiteral kFormatNames[kNumFormats] = {
    "f32",        "tf32",       "f16",       "bf16",
    "f8E4M3FN",   "f8E5M2",     "f8E4M3FNUZ", "f8E5M2FNUZ",
    "f6E2M3FN",   "f6E3M2FN",   "f4E2M1FN",  "f8E8M0FNU"};

StringRef mlir::lowp::stringifyFormat(Format f) {
  return kFormatNames[static_cast<unsigned>(f)];
}

std::optional<Format> mlir::lowp::symbolizeFormat(StringRef name) {
  for (unsigned i = 0; i < kNumFormats; ++i)
    if (kFormatNames[i] == name)
      return static_cast<Format>(i);
  return std::nullopt;
}

StringRef mlir::lowp::stringifyVendor(Vendor v) {
  switch (v) {
  case Vendor::NVIDIA:
    return "nvidia";
  case Vendor::AMD:
    return "amd";
  case Vendor::Google:
    return "google";
  case Vendor::X86:
    return "x86";
  }
  return "";
}

StringRef mlir::lowp::stringifyFP8Flavor(FP8Flavor f) {
  switch (f) {
  case FP8Flavor::None:
    return "none";
  case FP8Flavor::FN:
    return "FN";
  case FP8Flavor::FNUZ:
    return "FNUZ";
  }
  return "";
}

std::optional<Format> mlir::lowp::getFormat(FloatType type) {
  if (!type)
    return std::nullopt;
  for (unsigned i = 0; i < kNumFormats; ++i)
    if (getFloatType(type.getContext(), static_cast<Format>(i)) == type)
      return static_cast<Format>(i);
  return std::nullopt;
}

FloatType mlir::lowp::getFloatType(MLIRContext *ctx, Format f) {
  switch (f) {
  case F::F32:
    return Float32Type::get(ctx);
  case F::TF32:
    return FloatTF32Type::get(ctx);
  case F::F16:
    return Float16Type::get(ctx);
  case F::BF16:
    return BFloat16Type::get(ctx);
  case F::F8E4M3FN:
    return Float8E4M3FNType::get(ctx);
  case F::F8E5M2:
    return Float8E5M2Type::get(ctx);
  case F::F8E4M3FNUZ:
    return Float8E4M3FNUZType::get(ctx);
  case F::F8E5M2FNUZ:
    return Float8E5M2FNUZType::get(ctx);
  case F::F6E2M3FN:
    return Float6E2M3FNType::get(ctx);
  case F::F6E3M2FN:
    return Float6E3M2FNType::get(ctx);
  case F::F4E2M1FN:
    return Float4E2M1FNType::get(ctx);
  case F::F8E8M0FNU:
    return Float8E8M0FNUType::get(ctx);
  }
  return {};
}

static std::string formatSetToString(FormatSet set, StringRef sep) {
  std::string s;
  for (unsigned i = 0; i < kNumFormats; ++i) {
    if (!set.contains(static_cast<Format>(i)))
      continue;
    if (!s.empty())
      s += sep;
    s += stringifyFormat(static_cast<Format>(i));
  }
  return s;
}

static std::string tileToString(TileShape t) {
  if (!t.valid())
    return "-";
  return (Twine(t.m) + "x" + Twine(t.n) + "x" + Twine(t.k)).str();
}

static std::string gemmTilingToString(const GPUGemmTiling &t) {
  if (!t.valid())
    return "-";
  std::string s =
      (Twine("mma ") + tileToString(t.mma) + " block " + Twine(t.blockM) +
       "x" + Twine(t.blockN) + "x" + Twine(t.blockK) + " warps " +
       Twine(t.warpsM) + "x" + Twine(t.warpsN) + " stages " +
       Twine(t.stages) + (t.waveSize == 32 ? Twine() : Twine(" wave ") +
       Twine(t.waveSize)))
          .str();
  if (t.mmaGroupsInFlight)
    s += " in-flight " + std::to_string(t.mmaGroupsInFlight);
  return s;
}

void mlir::lowp::printTargetTable(raw_ostream &os, bool json) {
  if (json) {
    os << "[\n";
    llvm::interleave(
        kTargets, os,
        [&](const TargetInfo &t) {
          auto list = [&](FormatSet s) {
            std::string items = formatSetToString(s, "\", \"");
            return items.empty() ? std::string("[]")
                                 : "[\"" + items + "\"]";
          };
          os << "  {\"name\": \"" << t.name << "\", \"vendor\": \""
             << stringifyVendor(t.vendor) << "\", \"matrix\": "
             << list(t.matrixFormats)
             << ", \"elementwise\": " << list(t.elementwiseFormats)
             << ", \"conversions\": " << list(t.nativeConversions)
             << ", \"preferred16\": ";
          if (t.preferred16)
            os << "\"" << stringifyFormat(*t.preferred16) << "\"";
          else
            os << "null";
          os << ", \"fp8\": \"" << stringifyFP8Flavor(t.fp8Flavor)
             << "\", \"tile16\": \"" << tileToString(t.tile16)
             << "\", \"tile8\": \"" << tileToString(t.tile8)
             << "\", \"mmaSync16\": \"" << gemmTilingToString(t.mmaSync16)
             << "\", \"mmaSyncFP8\": \"" << gemmTilingToString(t.mmaSyncFP8)
             << "\", \"wgmma16\": \"" << gemmTilingToString(t.wgmma16)
             << "\", \"wgmmaFP8\": \"" << gemmTilingToString(t.wgmmaFP8)
             << "\", \"mfmaF16\": \"" << gemmTilingToString(t.mfmaF16)
             << "\", \"mfmaBF16\": \"" << gemmTilingToString(t.mfmaBF16)
             << "\", \"mfmaFP8\": \"" << gemmTilingToString(t.mfmaFP8)
             << "\", \"subgroupSize\": " << t.subgroupSize
             << ", \"staticSharedMemoryBytes\": " << t.staticSharedMemoryBytes
             << ", \"l2Bytes\": " << t.l2Bytes
             << ", \"f32KBlock\": " << t.f32KBlock
             << ", \"f32FmaMacsPerCycle\": " << t.f32FmaMacsPerCycle
             << ", \"bf16DotMacsPerCycle\": " << t.bf16DotMacsPerCycle
             << ", \"llvmCpu\": \"" << t.llvmCpu
             << "\", \"llvmFeatures\": \"" << t.llvmFeatures << "\"}";
        },
        ",\n");
    os << "\n]\n";
    return;
  }
  os << llvm::format("%-15s %-7s %-44s %-22s %-9s %-5s %-12s %s\n", "target",
                     "vendor", "matrix units", "elementwise", "pref16",
                     "fp8", "tile16", "tile8");
  for (const TargetInfo &t : kTargets) {
    std::string matrix = formatSetToString(t.matrixFormats, ",");
    std::string elementwise = formatSetToString(t.elementwiseFormats, ",");
    os << llvm::format(
        "%-15s %-7s %-44s %-22s %-9s %-5s %-12s %s\n", t.name.data(),
        stringifyVendor(t.vendor).data(), matrix.empty() ? "-" : matrix.c_str(),
        elementwise.c_str(),
        t.preferred16 ? stringifyFormat(*t.preferred16).data() : "-",
        stringifyFP8Flavor(t.fp8Flavor).data(), tileToString(t.tile16).c_str(),
        tileToString(t.tile8).c_str());
  }
}
