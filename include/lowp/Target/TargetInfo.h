//===- TargetInfo.h - hardware capability table ------------------*- C++ -*-===//
//
// The one place fp-opt learns about hardware. Every pass that needs a fact
// about a chip (which formats have matrix units, which have native elementwise
// arithmetic or conversions, the preferred 16-bit format, the FP8 flavour,
// matrix-unit tile shapes) asks this table, keyed by the vendor's chip name.
//
//===----------------------------------------------------------------------===//

#ifndef LOWP_TARGET_TARGETINFO_H
#define LOWP_TARGET_TARGETINFO_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <initializer_list>
#include <optional>

namespace mlir {
class FloatType;
class MLIRContext;
} // namespace mlir

namespace mlir::lowp {

/// Float formats the table speaks about. Numeric facts about each live in
/// APFloat (see lowp/Formats/FloatFormats.h); this enum only names them.
enum class Format : uint8_t {
  F32,
  TF32,
  F16,
  BF16,
  F8E4M3FN,
  F8E5M2,
  F8E4M3FNUZ,
  F8E5M2FNUZ,
  F6E2M3FN,
  F6E3M2FN,
  F4E2M1FN,
  F8E8M0FNU,
};
constexpr unsigned kNumFormats = 12;

/// A set of values of a small enum (at most 32), e.g. formats or CPU
/// features.
template <typename Enum>
class EnumBitSet {
public:
  constexpr EnumBitSet() = default;
  constexpr EnumBitSet(std::initializer_list<Enum> values) {
    for (Enum v : values)
      bits |= bit(v);
  }
  constexpr bool contains(Enum v) const { return bits & bit(v); }
  constexpr bool containsAll(EnumBitSet o) const {
    return (bits & o.bits) == o.bits;
  }
  constexpr bool empty() const { return bits == 0; }
  constexpr EnumBitSet operator|(EnumBitSet o) const {
    EnumBitSet r;
    r.bits = bits | o.bits;
    return r;
  }
  constexpr bool operator==(EnumBitSet o) const { return bits == o.bits; }
  uint32_t raw() const { return bits; }

private:
  static constexpr uint32_t bit(Enum v) {
    return 1u << static_cast<unsigned>(v);
  }
  uint32_t bits = 0;
};

/// A set of formats.
using FormatSet = EnumBitSet<Format>;

enum class Vendor : uint8_t { NVIDIA, AMD, Google, X86 };

/// Which encoding of FP8 a chip's hardware uses.
enum class FP8Flavor : uint8_t {
  None, ///< no FP8 hardware
  FN,   ///< OCP: f8E4M3FN and f8E5M2
  FNUZ, ///< AMD MI300: f8E4M3FNUZ and f8E5M2FNUZ
};

/// A matrix-unit tile shape (M x N x K) for one input format.
struct TileShape {
  unsigned m = 0, n = 0, k = 0;
  bool valid() const { return m && n && k; }
};

/// The tiling of a GPU GEMM kernel built from wave-level matrix
/// instructions (lib/Conversion/LinalgToGPU: NVIDIA `mma.sync`, AMD MFMA):
/// a workgroup computes a blockM x blockN tile of C, staging blockK-deep
/// slices of A and B through shared memory / LDS in `stages` buffers (2:
/// the next slice is loaded while the current one is multiplied, by
/// cp.async where the chip has it, through registers elsewhere; 1:
/// synchronous loads); its warpsM x warpsN waves of `waveSize` lanes each
/// own a (blockM / warpsM) x (blockN / warpsN) tile made of `mma`
/// instruction tiles. An asynchronous matrix instruction (wgmma) may keep
/// `mmaGroupsInFlight` slices' instructions running while the next slice's
/// are issued: the stages they read cannot be refilled yet, so the copies
/// run stages - 1 - mmaGroupsInFlight slices ahead (at least one).
struct GPUGemmTiling {
  TileShape mma; ///< the matrix instruction's shape (invalid: none)
  unsigned blockM = 0, blockN = 0, blockK = 0;
  unsigned warpsM = 0, warpsN = 0;
  unsigned stages = 0;
  unsigned waveSize = 32; ///< lanes per warp (NVIDIA) or wave (AMD: 64)
  unsigned mmaGroupsInFlight = 0; ///< asynchronous MMA groups left pending
  bool valid() const { return mma.valid(); }
  unsigned threads() const { return warpsM * warpsN * waveSize; }
};

/// x86 instruction-set extensions the kernels use and a host's row is
/// matched by. Their names (stringifyCPUFeature) are Linux's
/// /proc/cpuinfo flags.
enum class CPUFeature : uint8_t {
  AVX2,
  FMA,
  F16C,
  AVX512F,
  AVX512BW,
  AVX512VL,
  AVX512BF16,
  AVX512FP16,
  AMXTile,
  AMXBF16,
  AMXFP16,
  AVXVNNI,
  AVX512VP2INTERSECT,
};
constexpr unsigned kNumCPUFeatures = 13;
using CPUFeatureSet = EnumBitSet<CPUFeature>;

/// The facts of a CPU row (x86) its kernels are planned from.
struct CPUInfo {
  /// Extensions every core of the row has, which its kernels may use; a
  /// host is this row only when its flags show them all.
  CPUFeatureSet features;
  /// AMX extensions, used under lowp-pipeline-x86's `amx` option (their
  /// tiles need the operating system's permission, and VMs often hide
  /// them, so a host is matched without them).
  CPUFeatureSet amxFeatures;
  /// /proc/cpuinfo's vendor_id of the row's cores ("" for a row any
  /// vendor's cores with the features may take).
  llvm::StringLiteral hostVendor = "";
  /// Width of the vector registers the kernels use, in bits.
  unsigned vectorBits = 0;
  /// Per-core L2 cache in bytes. The GEMM kernels block the rows of A so
  /// that one mc x kc block of A stays in about half of it
  /// (lowp-x86-lower-contractions' default mc).
  unsigned l2Bytes = 0;
  /// Data cache line in bytes: the unit of the GEMM kernels' software
  /// prefetches of packed B.
  unsigned cacheLineBytes = 0;
  /// k block of the f32 FMA GEMM kernel, in k: how deep its kc x nr slice
  /// of packed B is, measured per chip as BLIS configures its KC
  /// (docs/lowering-x86.md). The bf16 kernels take 512 pairs everywhere.
  unsigned f32KBlock = 0;
  /// Multiply-adds per cycle and core of the f32 FMA units and of the bf16
  /// dot instruction (vdpbf16ps, 512-bit); 0 where not measured (the
  /// measurements: the table's x86 comment).
  unsigned f32FmaMacsPerCycle = 0;
  unsigned bf16DotMacsPerCycle = 0;

  bool has(CPUFeature f) const {
    return features.contains(f) || amxFeatures.contains(f);
  }
  /// f32 lanes of a vector register.
  unsigned f32Lanes() const { return vectorBits / 32; }
  /// Architectural vector registers: 32 with AVX-512, 16 with AVX2.
  unsigned vectorRegisters() const {
    return features.contains(CPUFeature::AVX512F) ? 32 : 16;
  }
  /// Whether bf16 products are faster with vdpbf16ps than with f32 FMAs on
  /// widened operands: the dot exists and is not measured slower.
  bool prefersBF16Dot() const {
    if (!features.contains(CPUFeature::AVX512BF16))
      return false;
    return !f32FmaMacsPerCycle || !bf16DotMacsPerCycle ||
           bf16DotMacsPerCycle > f32FmaMacsPerCycle;
  }
};

/// The GPU matrix-instruction families the tiled GEMM kernels are built
/// from (lib/Conversion/LinalgToGPU; one back end each).
enum class MatrixInstruction : uint8_t {
  MmaSync, ///< NVIDIA warp-level mma.sync (LinalgToNVVM)
  Wgmma,   ///< NVIDIA warpgroup wgmma.mma_async (LinalgToNVVM, sm_90a)
  Mfma,    ///< AMD MFMA (LinalgToROCDL)
};

/// One tiled GEMM kernel a GPU row offers: an instruction family, the
/// operand formats it takes (a format the row has no matrix unit for is
/// never taken), and its tiling.
struct GPUGemmKernel {
  MatrixInstruction instruction;
  FormatSet operands;
  GPUGemmTiling tiling;
};

/// The facts of a GPU row its kernels are planned from.
struct GPUInfo {
  /// Lanes that execute in lockstep and exchange registers (shuffles,
  /// DPP): an NVIDIA warp (32), an AMD CDNA wavefront (64). Block and
  /// subgroup reductions are built from it (lowp-gpu-map-row-reductions,
  /// lowp-gpu-lower-subgroup-reduce).
  unsigned subgroupSize;
  /// Shared memory a kernel may declare statically, in bytes, without
  /// opting in to more (NVIDIA: 48 KB; 0: not checked): the limit of the
  /// tiled kernels' staging buffers.
  unsigned staticSharedMemoryBytes;
  /// The tiled GEMM kernels, by instruction family and operand formats.
  llvm::ArrayRef<GPUGemmKernel> gemmKernels;
};

/// The facts of a TPU row.
struct TPUInfo {
  /// Layout tile of the vector unit: (8, 128).
  unsigned vectorTileRows, vectorTileCols;
};

/// One row of the capability table: the numeric facts every pass reads
/// (formats with matrix units, arithmetic and conversions; the preferred
/// 16-bit format; the FP8 flavour; matrix tiles), LLVM's names for the
/// chip, and the facts of its kind (CPU, GPU or TPU) the lowerings plan
/// kernels from.
struct TargetInfo {
  llvm::StringLiteral name;
  Vendor vendor;
  /// Input formats with dense matrix units (tensor cores, MFMA, MXU, dot
  /// instructions such as vdpbf16ps, AMX).
  FormatSet matrixFormats;
  /// Formats with native (full-rate or better) elementwise arithmetic.
  FormatSet elementwiseFormats;
  /// Formats with native conversion instructions to and from f32.
  FormatSet nativeConversions;
  /// The 16-bit format automatic mixed precision should use, if any.
  std::optional<Format> preferred16;
  FP8Flavor fp8Flavor = FP8Flavor::None;
  /// Matrix-unit tile for 16-bit inputs and for 8-bit inputs (invalid when
  /// not applicable).
  TileShape tile16 = {};
  TileShape tile8 = {};
  /// LLVM's names for code generation: CPU (-mcpu) and features (-mattr).
  llvm::StringLiteral llvmCpu = "";
  llvm::StringLiteral llvmFeatures = "";
  /// The facts of the row's kind: exactly one is set.
  const CPUInfo *cpu = nullptr;
  const GPUInfo *gpu = nullptr;
  const TPUInfo *tpu = nullptr;

  /// The tiling of the row's `instruction` GEMM kernel for operands in
  /// `f`, or null where the row has none (or no matrix unit for `f`).
  const GPUGemmTiling *getGemmTiling(MatrixInstruction instruction,
                                     Format f) const;
  /// Whether any of the row's GPU GEMM kernels takes operands in `f`.
  bool hasGemmKernel(Format f) const;
  /// Whether the row has a GPU GEMM kernel on `instruction`.
  bool hasGemmKernel(MatrixInstruction instruction) const;

  bool hasMatrixUnit(Format f) const { return matrixFormats.contains(f); }
  bool hasNativeArithmetic(Format f) const {
    return elementwiseFormats.contains(f);
  }
  bool hasNativeConversion(Format f) const {
    return nativeConversions.contains(f);
  }
  /// The E4M3 and E5M2 formats of this target's FP8 flavour, if any.
  std::optional<Format> getE4M3() const;
  std::optional<Format> getE5M2() const;
};

/// Every row of the table, in a stable order.
llvm::ArrayRef<TargetInfo> getAllTargets();
/// The row named `chip`, or null when the table has no such chip.
const TargetInfo *lookupTarget(llvm::StringRef chip);
/// A comma-separated list of all chip names (for diagnostics).
std::string getKnownTargetNames();

/// The CPU row a host runs, from its /proc/cpuinfo `flags` and `vendor_id`:
/// of the rows whose features the flags all show (and whose host vendor,
/// if any, is `vendorId`), the one with the most features, then a
/// vendor's own row over a generic one, then the most AMX extensions the
/// flags show, then the first in the table. Null when none matches.
/// `useAmx` says whether the flags show all of its AMX extensions.
const TargetInfo *selectHostCPU(llvm::ArrayRef<llvm::StringRef> flags,
                                llvm::StringRef vendorId, bool &useAmx);

llvm::StringRef stringifyFormat(Format f);
std::optional<Format> symbolizeFormat(llvm::StringRef name);
llvm::StringRef stringifyVendor(Vendor v);
llvm::StringRef stringifyFP8Flavor(FP8Flavor f);
llvm::StringRef stringifyCPUFeature(CPUFeature f);
llvm::StringRef stringifyMatrixInstruction(MatrixInstruction i);

/// Maps between the table's format names and MLIR float types.
std::optional<Format> getFormat(mlir::FloatType type);
mlir::FloatType getFloatType(mlir::MLIRContext *context, Format f);

/// Prints the table, as aligned text or as JSON.
void printTargetTable(llvm::raw_ostream &os, bool json);

} // namespace mlir::lowp

#endif // LOWP_TARGET_TARGETINFO_H
