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

using MI = MatrixInstruction;
constexpr FormatSet k16Bit = kF16 | kBF16;

// The GEMM kernels of each GPU row.
constexpr GPUGemmKernel kSm75Kernels[] = {{MI::MmaSync, k16Bit, kMmaSyncSm75}};
constexpr GPUGemmKernel kSm80Kernels[] = {{MI::MmaSync, k16Bit, kMmaSyncSm80}};
constexpr GPUGemmKernel kSm89Kernels[] = {
    {MI::MmaSync, k16Bit, kMmaSyncSm80}, {MI::MmaSync, kFP8FN, kMmaSyncFP8}};
constexpr GPUGemmKernel kSm90aKernels[] = {
    {MI::MmaSync, k16Bit, kMmaSyncSm80},
    {MI::MmaSync, kFP8FN, kMmaSyncFP8},
    {MI::Wgmma, k16Bit, kWgmma16},
    {MI::Wgmma, kFP8FN, kWgmmaFP8}};
constexpr GPUGemmKernel kGfx908Kernels[] = {
    {MI::Mfma, kF16, kMfma32x32x8}, {MI::Mfma, kBF16, kMfma32x32x4}};
constexpr GPUGemmKernel kGfx90aKernels[] = {{MI::Mfma, k16Bit, kMfma32x32x8}};
constexpr GPUGemmKernel kGfx942Kernels[] = {
    {MI::Mfma, k16Bit, kMfma16x16x16}, {MI::Mfma, kFP8FNUZ, kMfma16x16x32FP8}};
constexpr GPUGemmKernel kGfx950Kernels[] = {
    {MI::Mfma, k16Bit, kMfma16x16x32}, {MI::Mfma, kFP8FN, kMfma16x16x32FP8}};

// NVIDIA warps are 32 lanes; CDNA (gfx9) runs wave64 only. Static shared
// memory per block without opting in (cudaFuncSetAttribute for more):
// 48 KB on every NVIDIA chip.
constexpr unsigned kWarp = 32;
constexpr unsigned kWave64 = 64;
constexpr unsigned kNvidiaStaticShared = 48 * 1024;
constexpr GPUInfo nvidiaGPU(ArrayRef<GPUGemmKernel> kernels) {
  return {kWarp, kNvidiaStaticShared, kernels};
}
constexpr GPUInfo amdGPU(ArrayRef<GPUGemmKernel> kernels) {
  return {kWave64, 0, kernels};
}
const GPUInfo kNoKernelsNvidia = nvidiaGPU({});
const GPUInfo kSm75 = nvidiaGPU(kSm75Kernels);
const GPUInfo kSm80 = nvidiaGPU(kSm80Kernels);
const GPUInfo kSm89 = nvidiaGPU(kSm89Kernels);
const GPUInfo kSm90a = nvidiaGPU(kSm90aKernels);
const GPUInfo kGfx908 = amdGPU(kGfx908Kernels);
const GPUInfo kGfx90a = amdGPU(kGfx90aKernels);
const GPUInfo kGfx942 = amdGPU(kGfx942Kernels);
const GPUInfo kGfx950 = amdGPU(kGfx950Kernels);

constexpr TPUInfo kTPU{8, 128};
// Google TPU: bf16 MXU with f32 accumulation, (8, 128) vector layout tiles;
// vector units have no bf16 arithmetic before v6e; no fp16, no fp8.
constexpr TargetInfo tpuRow(llvm::StringLiteral name,
                            FormatSet elementwise = kF32,
                            TileShape mxu = {128, 128, 128}) {
  return {.name = name, .vendor = Vendor::Google, .matrixFormats = kBF16,
          .elementwiseFormats = elementwise, .nativeConversions = kBF16,
          .preferred16 = F::BF16, .tile16 = mxu, .tpu = &kTPU};
}

// x86. AVX2: f32 FMA only; F16C converts f16; bf16 has no instructions.
// AVX512_BF16 (Cooper Lake and later): vdpbf16ps, vcvtneps2bf16.
// Multiply-adds per cycle: two FMA units of 8 (AVX2, Zen 4's 512-bit
// FMAs are two 256-bit halves) or 16 f32 lanes (Intel AVX-512 server
// cores); vdpbf16ps on a zmm is 32 products, one per cycle on Zen 4
// (AMD's Zen 4 optimization guide) and one every 2 cycles on Golden Cove
// (bench/x86/dot_throughput.sh: 0.75 ns against 0.18 ns for an FMA on
// an Emerald Rapids core, 4.1x per instruction, 2x per product).
// Zen 5's FMA units are 512 bits wide: two zmm FMAs and two zmm
// vdpbf16ps per cycle (bench/x86/dot_throughput.sh on an EPYC of family
// 26: 0.151 ns per FMA, 0.159 ns per dot: 32 and 64 products per cycle).
// L2 per core: Haswell 256 KiB (the AVX2 baseline), Cooper Lake, Zen 4
// and Zen 5 1 MiB, Sapphire Rapids 2 MiB. Cache lines: 64 bytes. The f32
// kernel's k block: 512 measured best on Zen 3 (AVX2) and Zen 4 (256:
// 0.74-0.80x and 0.86-1.0x of 512), 256 on Sapphire Rapids (its 32 KiB
// slice of B in the 48 KiB L1: 0.76x -> 0.88-0.94x oneDNN at 1024).
using CF = CPUFeature;
constexpr CPUFeatureSet kAVX2Features{CF::AVX2, CF::FMA, CF::F16C};
constexpr CPUFeatureSet kAVX512BF16Features =
    kAVX2Features |
    CPUFeatureSet{CF::AVX512F, CF::AVX512BW, CF::AVX512VL, CF::AVX512BF16};
const CPUInfo kAVX2CPU{.features = kAVX2Features,
                       .vectorBits = 256,
                       .l2Bytes = 256 << 10,
                       .cacheLineBytes = 64,
                       .f32KBlock = 512,
                       .f32FmaMacsPerCycle = 16};
// The rates of the generic AVX512_BF16 row are not measured: its kernels
// use the dot.
const CPUInfo kAVX512BF16CPU{.features = kAVX512BF16Features,
                             .vectorBits = 512,
                             .l2Bytes = 1 << 20,
                             .cacheLineBytes = 64,
                             .f32KBlock = 512};
const CPUInfo kZnver4CPU{.features = kAVX512BF16Features,
                         .hostVendor = "AuthenticAMD",
                         .vectorBits = 512,
                         .l2Bytes = 1 << 20,
                         .cacheLineBytes = 64,
                         .f32KBlock = 512,
                         .f32FmaMacsPerCycle = 16,
                         .bf16DotMacsPerCycle = 32};
// Zen 5 (EPYC 9005, Ryzen 9000): Zen 4's extensions and AVX-VNNI and
// AVX512_VP2INTERSECT (which Zen 4 lacks: a Zen 5 host is told apart by
// them, and llc's znver5 may use them).
const CPUInfo kZnver5CPU{
    .features = kAVX512BF16Features |
                CPUFeatureSet{CF::AVXVNNI, CF::AVX512VP2INTERSECT},
    .hostVendor = "AuthenticAMD",
    .vectorBits = 512,
    .l2Bytes = 1 << 20,
    .cacheLineBytes = 64,
    .f32KBlock = 512,
    .f32FmaMacsPerCycle = 32,
    .bf16DotMacsPerCycle = 64};
const CPUInfo kSapphireRapidsCPU{
    .features = kAVX512BF16Features | CPUFeatureSet{CF::AVX512FP16},
    .amxFeatures = {CF::AMXTile, CF::AMXBF16},
    .hostVendor = "GenuineIntel",
    .vectorBits = 512,
    .l2Bytes = 2 << 20,
    .cacheLineBytes = 64,
    .f32KBlock = 256,
    .f32FmaMacsPerCycle = 32,
    .bf16DotMacsPerCycle = 16};
// Granite Rapids (Xeon 6 P-cores, Redwood Cove): Sapphire Rapids' vector
// ISA and rates (the same ports as Golden Cove; not measured here) and
// AMX-FP16 (tdpfp16ps) beside AMX-BF16. f16 stays off the row's matrix
// formats: no x86 kernel multiplies f16 on AMX, so a decision for f16
// products would run them on widened f32 FMAs.
const CPUInfo kGraniteRapidsCPU{
    .features = kAVX512BF16Features | CPUFeatureSet{CF::AVX512FP16},
    .amxFeatures = {CF::AMXTile, CF::AMXBF16, CF::AMXFP16},
    .hostVendor = "GenuineIntel",
    .vectorBits = 512,
    .l2Bytes = 2 << 20,
    .cacheLineBytes = 64,
    .f32KBlock = 256,
    .f32FmaMacsPerCycle = 32,
    .bf16DotMacsPerCycle = 16};
} // namespace

// clang-format off
static const TargetInfo kTargets[] = {
  // NVIDIA. sm_60: fp16 arithmetic but no tensor cores, so no AMP benefit.
  {.name = "sm_60", .vendor = Vendor::NVIDIA, .elementwiseFormats = kF32 | kF16,
   .nativeConversions = kF16, .llvmCpu = "sm_60", .llvmFeatures = "+ptx60",
   .gpu = &kNoKernelsNvidia},
  // Volta: first fp16 tensor cores (mma.sync m8n8k4, wmma 16x16x16).
  {.name = "sm_70", .vendor = Vendor::NVIDIA, .matrixFormats = kF16,
   .elementwiseFormats = kF32 | kF16, .nativeConversions = kF16,
   .preferred16 = F::F16, .tile16 = {16, 16, 16}, .llvmCpu = "sm_70",
   .llvmFeatures = "+ptx60", .gpu = &kNoKernelsNvidia},
  // Turing: fp16 tensor cores (m16n8k8); ldmatrix and m16n8k8 need PTX 6.5.
  {.name = "sm_75", .vendor = Vendor::NVIDIA, .matrixFormats = kF16,
   .elementwiseFormats = kF32 | kF16, .nativeConversions = kF16,
   .preferred16 = F::F16, .tile16 = {16, 8, 8}, .llvmCpu = "sm_75",
   .llvmFeatures = "+ptx65", .gpu = &kSm75},
  // Ampere: fp16, bf16, tf32 tensor cores (m16n8k16); no FP8.
  {.name = "sm_80", .vendor = Vendor::NVIDIA,
   .matrixFormats = kF16 | kBF16 | kTF32, .elementwiseFormats = kF32 | kF16 | kBF16,
   .nativeConversions = kF16 | kBF16, .preferred16 = F::BF16,
   .tile16 = {16, 8, 16}, .llvmCpu = "sm_80", .llvmFeatures = "+ptx70",
   .gpu = &kSm80},
  {.name = "sm_86", .vendor = Vendor::NVIDIA,
   .matrixFormats = kF16 | kBF16 | kTF32, .elementwiseFormats = kF32 | kF16 | kBF16,
   .nativeConversions = kF16 | kBF16, .preferred16 = F::BF16,
   .tile16 = {16, 8, 16}, .llvmCpu = "sm_86", .llvmFeatures = "+ptx71",
   .gpu = &kSm80},
  // Ada: adds FP8 E4M3/E5M2 tensor cores and cvt.rn.satfinite.e4m3x2.f32;
  // FP8 mma.sync m16n8k32 needs PTX 8.4 (so does sm_90's).
  {.name = "sm_89", .vendor = Vendor::NVIDIA,
   .matrixFormats = kF16 | kBF16 | kTF32 | kFP8FN,
   .elementwiseFormats = kF32 | kF16 | kBF16,
   .nativeConversions = kF16 | kBF16 | kFP8FN, .preferred16 = F::BF16,
   .fp8Flavor = FP8Flavor::FN, .tile16 = {16, 8, 16}, .tile8 = {16, 8, 32},
   .llvmCpu = "sm_89", .llvmFeatures = "+ptx84", .gpu = &kSm89},
  // Hopper, portable sm_90 PTX: mma.sync kernels (wgmma needs sm_90a).
  {.name = "sm_90", .vendor = Vendor::NVIDIA,
   .matrixFormats = kF16 | kBF16 | kTF32 | kFP8FN,
   .elementwiseFormats = kF32 | kF16 | kBF16,
   .nativeConversions = kF16 | kBF16 | kFP8FN, .preferred16 = F::BF16,
   .fp8Flavor = FP8Flavor::FN, .tile16 = {64, 256, 16}, .tile8 = {64, 256, 32},
   .llvmCpu = "sm_90", .llvmFeatures = "+ptx84", .gpu = &kSm89},
  // Hopper with the architecture-specific PTX target sm_90a (H100, H200):
  // wgmma, whose PTX runs on sm_90 only (plain sm_90 PTX runs on later
  // chips too and has no wgmma).
  {.name = "sm_90a", .vendor = Vendor::NVIDIA,
   .matrixFormats = kF16 | kBF16 | kTF32 | kFP8FN,
   .elementwiseFormats = kF32 | kF16 | kBF16,
   .nativeConversions = kF16 | kBF16 | kFP8FN, .preferred16 = F::BF16,
   .fp8Flavor = FP8Flavor::FN, .tile16 = {64, 256, 16}, .tile8 = {64, 256, 32},
   .llvmCpu = "sm_90a", .llvmFeatures = "+ptx84", .gpu = &kSm90a},
  // Blackwell: adds MX block-scaled fp8/fp6/fp4.
  {.name = "sm_100", .vendor = Vendor::NVIDIA,
   .matrixFormats = kF16 | kBF16 | kTF32 | kFP8FN | kMX,
   .elementwiseFormats = kF32 | kF16 | kBF16,
   .nativeConversions = kF16 | kBF16 | kFP8FN | kMX, .preferred16 = F::BF16,
   .fp8Flavor = FP8Flavor::FN, .tile16 = {128, 256, 16},
   .tile8 = {128, 256, 32}, .llvmCpu = "sm_100", .llvmFeatures = "+ptx86",
   .gpu = &kSm89},
  // Blackwell for workstations and GeForce (RTX 50): sm_100's formats on
  // warp-level mma.sync (no wgmma, no tcgen05); sm_120 needs PTX 8.7.
  {.name = "sm_120", .vendor = Vendor::NVIDIA,
   .matrixFormats = kF16 | kBF16 | kTF32 | kFP8FN | kMX,
   .elementwiseFormats = kF32 | kF16 | kBF16,
   .nativeConversions = kF16 | kBF16 | kFP8FN | kMX, .preferred16 = F::BF16,
   .fp8Flavor = FP8Flavor::FN, .tile16 = {16, 8, 16}, .tile8 = {16, 8, 32},
   .llvmCpu = "sm_120", .llvmFeatures = "+ptx87", .gpu = &kSm89},

  // AMD. MI100: fp16 and bf16 MFMA, bf16 at half the fp16 rate.
  {.name = "gfx908", .vendor = Vendor::AMD, .matrixFormats = kF16 | kBF16,
   .elementwiseFormats = kF32 | kF16, .nativeConversions = kF16,
   .preferred16 = F::F16, .tile16 = {32, 32, 8}, .llvmCpu = "gfx908",
   .gpu = &kGfx908},
  // MI200: full-rate bf16 MFMA; no FP8 conversions.
  {.name = "gfx90a", .vendor = Vendor::AMD, .matrixFormats = kF16 | kBF16,
   .elementwiseFormats = kF32 | kF16, .nativeConversions = kF16,
   .preferred16 = F::BF16, .tile16 = {32, 32, 8}, .llvmCpu = "gfx90a",
   .gpu = &kGfx90a},
  // MI300: FNUZ fp8/bf8 MFMA and v_cvt_pk_fp8_f32; bf16 converts emulated.
  {.name = "gfx942", .vendor = Vendor::AMD,
   .matrixFormats = kF16 | kBF16 | kTF32 | kFP8FNUZ,
   .elementwiseFormats = kF32 | kF16, .nativeConversions = kF16 | kFP8FNUZ,
   .preferred16 = F::BF16, .fp8Flavor = FP8Flavor::FNUZ,
   .tile16 = {16, 16, 16}, .tile8 = {16, 16, 32}, .llvmCpu = "gfx942",
   .gpu = &kGfx942},
  // MI350: OCP fp8, MX scaling, v_cvt_pk_bf16_f32.
  {.name = "gfx950", .vendor = Vendor::AMD,
   .matrixFormats = kF16 | kBF16 | kFP8FN | kMX,
   .elementwiseFormats = kF32 | kF16 | kBF16,
   .nativeConversions = kF16 | kBF16 | kFP8FN, .preferred16 = F::BF16,
   .fp8Flavor = FP8Flavor::FN, .tile16 = {16, 16, 32}, .tile8 = {16, 16, 64},
   .llvmCpu = "gfx950", .gpu = &kGfx950},

  tpuRow("tpu-v2"),
  tpuRow("tpu-v3"),
  tpuRow("tpu-v4"),
  tpuRow("tpu-v5e"),
  tpuRow("tpu-v5p"),
  // v6e: bf16 arithmetic in the vector units, a 256 x 256 MXU.
  tpuRow("tpu-v6e", kF32 | kBF16, {256, 256, 256}),

  // x86 (the CPU facts above).
  {.name = "avx2", .vendor = Vendor::X86, .elementwiseFormats = kF32,
   .nativeConversions = kF16, .llvmCpu = "x86-64-v3",
   .llvmFeatures = "+avx2,+fma,+f16c", .cpu = &kAVX2CPU},
  {.name = "avx512bf16", .vendor = Vendor::X86, .matrixFormats = kBF16,
   .elementwiseFormats = kF32, .nativeConversions = kF16 | kBF16,
   .preferred16 = F::BF16, .tile16 = {16, 16, 2}, .llvmCpu = "cooperlake",
   .llvmFeatures = "+avx512f,+avx512vl,+avx512bf16,+f16c",
   .cpu = &kAVX512BF16CPU},
  {.name = "znver4", .vendor = Vendor::X86, .matrixFormats = kBF16,
   .elementwiseFormats = kF32, .nativeConversions = kF16 | kBF16,
   .preferred16 = F::BF16, .tile16 = {16, 16, 2}, .llvmCpu = "znver4",
   .cpu = &kZnver4CPU},
  {.name = "znver5", .vendor = Vendor::X86, .matrixFormats = kBF16,
   .elementwiseFormats = kF32, .nativeConversions = kF16 | kBF16,
   .preferred16 = F::BF16, .tile16 = {16, 16, 2}, .llvmCpu = "znver5",
   .cpu = &kZnver5CPU},
  // Sapphire Rapids: AVX512_BF16, AMX-BF16 (16x16x32 tiles), AVX512_FP16.
  {.name = "sapphirerapids", .vendor = Vendor::X86, .matrixFormats = kBF16,
   .elementwiseFormats = kF32 | kF16, .nativeConversions = kF16 | kBF16,
   .preferred16 = F::BF16, .tile16 = {16, 16, 32},
   .llvmCpu = "sapphirerapids", .cpu = &kSapphireRapidsCPU},
  {.name = "graniterapids", .vendor = Vendor::X86, .matrixFormats = kBF16,
   .elementwiseFormats = kF32 | kF16, .nativeConversions = kF16 | kBF16,
   .preferred16 = F::BF16, .tile16 = {16, 16, 32},
   .llvmCpu = "graniterapids", .cpu = &kGraniteRapidsCPU},
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

const GPUGemmTiling *
TargetInfo::getGemmTiling(MatrixInstruction instruction, Format f) const {
  if (!gpu || !hasMatrixUnit(f))
    return nullptr;
  for (const GPUGemmKernel &kernel : gpu->gemmKernels)
    if (kernel.instruction == instruction && kernel.operands.contains(f))
      return &kernel.tiling;
  return nullptr;
}

bool TargetInfo::hasGemmKernel(Format f) const {
  return gpu && hasMatrixUnit(f) &&
         llvm::any_of(gpu->gemmKernels, [&](const GPUGemmKernel &kernel) {
           return kernel.operands.contains(f);
         });
}

bool TargetInfo::hasGemmKernel(MatrixInstruction instruction) const {
  return gpu && llvm::any_of(gpu->gemmKernels, [&](const GPUGemmKernel &k) {
           return k.instruction == instruction;
         });
}

const TargetInfo *mlir::lowp::selectHostCPU(ArrayRef<StringRef> flags,
                                            StringRef vendorId,
                                            bool &useAmx) {
  CPUFeatureSet shown;
  for (unsigned i = 0; i < kNumCPUFeatures; ++i) {
    auto feature = static_cast<CPUFeature>(i);
    if (llvm::is_contained(flags, stringifyCPUFeature(feature)))
      shown = shown | CPUFeatureSet{feature};
  }
  auto count = [](CPUFeatureSet set) { return llvm::popcount(set.raw()); };
  const TargetInfo *best = nullptr;
  auto rank = [&](const TargetInfo &t) {
    const CPUInfo &cpu = *t.cpu;
    bool amx = !cpu.amxFeatures.empty() && shown.containsAll(cpu.amxFeatures);
    return std::make_tuple(count(cpu.features), !cpu.hostVendor.empty(),
                           amx ? count(cpu.amxFeatures) : 0);
  };
  for (const TargetInfo &t : kTargets) {
    if (!t.cpu || !shown.containsAll(t.cpu->features) ||
        (!t.cpu->hostVendor.empty() && t.cpu->hostVendor != vendorId))
      continue;
    if (!best || rank(t) > rank(*best))
      best = &t;
  }
  useAmx = best && !best->cpu->amxFeatures.empty() &&
           shown.containsAll(best->cpu->amxFeatures);
  return best;
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

StringRef mlir::lowp::stringifyCPUFeature(CPUFeature f) {
  // Linux's /proc/cpuinfo flags.
  static constexpr llvm::StringLiteral names[kNumCPUFeatures] = {
      "avx2",        "fma",         "f16c",     "avx512f",
      "avx512bw",    "avx512vl",    "avx512_bf16", "avx512_fp16",
      "amx_tile",    "amx_bf16",    "amx_fp16", "avx_vnni",
      "avx512_vp2intersect"};
  return names[static_cast<unsigned>(f)];
}

StringRef mlir::lowp::stringifyMatrixInstruction(MatrixInstruction i) {
  switch (i) {
  case MatrixInstruction::MmaSync:
    return "mma.sync";
  case MatrixInstruction::Wgmma:
    return "wgmma";
  case MatrixInstruction::Mfma:
    return "mfma";
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

template <typename Enum>
static std::string jsonList(EnumBitSet<Enum> set, unsigned size,
                            StringRef (*name)(Enum)) {
  std::string s = "[";
  for (unsigned i = 0; i < size; ++i) {
    if (!set.contains(static_cast<Enum>(i)))
      continue;
    if (s.size() > 1)
      s += ", ";
    s += ("\"" + name(static_cast<Enum>(i)) + "\"").str();
  }
  return s + "]";
}

static void printCPUInfoJson(raw_ostream &os, const CPUInfo &cpu) {
  os << "{\"features\": "
     << jsonList(cpu.features, kNumCPUFeatures, stringifyCPUFeature)
     << ", \"amxFeatures\": "
     << jsonList(cpu.amxFeatures, kNumCPUFeatures, stringifyCPUFeature)
     << ", \"hostVendor\": \"" << cpu.hostVendor
     << "\", \"vectorBits\": " << cpu.vectorBits
     << ", \"l2Bytes\": " << cpu.l2Bytes
     << ", \"cacheLineBytes\": " << cpu.cacheLineBytes
     << ", \"f32KBlock\": " << cpu.f32KBlock
     << ", \"f32FmaMacsPerCycle\": " << cpu.f32FmaMacsPerCycle
     << ", \"bf16DotMacsPerCycle\": " << cpu.bf16DotMacsPerCycle << "}";
}

static void printGPUInfoJson(raw_ostream &os, const GPUInfo &gpu) {
  os << "{\"subgroupSize\": " << gpu.subgroupSize
     << ", \"staticSharedMemoryBytes\": " << gpu.staticSharedMemoryBytes
     << ", \"gemmKernels\": [";
  llvm::interleaveComma(gpu.gemmKernels, os, [&](const GPUGemmKernel &k) {
    os << "{\"instruction\": \"" << stringifyMatrixInstruction(k.instruction)
       << "\", \"operands\": "
       << jsonList(k.operands, kNumFormats, stringifyFormat)
       << ", \"tiling\": \"" << gemmTilingToString(k.tiling) << "\"}";
  });
  os << "]}";
}

void mlir::lowp::printTargetTable(raw_ostream &os, bool json) {
  if (json) {
    os << "[\n";
    llvm::interleave(
        kTargets, os,
        [&](const TargetInfo &t) {
          auto list = [&](FormatSet s) {
            return jsonList(s, kNumFormats, stringifyFormat);
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
             << "\", \"llvmCpu\": \"" << t.llvmCpu
             << "\", \"llvmFeatures\": \"" << t.llvmFeatures
             << "\", \"cpu\": ";
          if (t.cpu)
            printCPUInfoJson(os, *t.cpu);
          else
            os << "null";
          os << ", \"gpu\": ";
          if (t.gpu)
            printGPUInfoJson(os, *t.gpu);
          else
            os << "null";
          os << ", \"tpu\": ";
          if (t.tpu)
            os << "{\"vectorTile\": [" << t.tpu->vectorTileRows << ", "
               << t.tpu->vectorTileCols << "]}";
          else
            os << "null";
          os << "}";
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
