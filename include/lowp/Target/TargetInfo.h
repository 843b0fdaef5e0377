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

/// A set of formats.
class FormatSet {
public:
  constexpr FormatSet() = default;
  constexpr FormatSet(std::initializer_list<Format> formats) {
    for (Format f : formats)
      bits |= bit(f);
  }
  constexpr bool contains(Format f) const { return bits & bit(f); }
  constexpr bool empty() const { return bits == 0; }
  constexpr FormatSet operator|(FormatSet o) const {
    FormatSet r;
    r.bits = bits | o.bits;
    return r;
  }
  uint32_t raw() const { return bits; }

private:
  static constexpr uint32_t bit(Format f) {
    return 1u << static_cast<unsigned>(f);
  }
  uint32_t bits = 0;
};

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

/// One row of the capability table.
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
  FP8Flavor fp8Flavor;
  /// Matrix-unit tile for 16-bit inputs and for 8-bit inputs (invalid when
  /// not applicable).
  TileShape tile16;
  TileShape tile8;
  /// Layout tile of the vector unit (TPU (8, 128)); zeros elsewhere.
  unsigned vectorTileRows, vectorTileCols;
  /// LLVM's names for code generation: CPU (-mcpu) and features (-mattr).
  llvm::StringLiteral llvmCpu;
  llvm::StringLiteral llvmFeatures;
  /// Tensor-core GEMM kernel for f16/bf16 operands (NVIDIA rows; invalid
  /// elsewhere and where the kernel has no instruction shape to use).
  GPUGemmTiling mmaSync16 = {};
  /// MFMA GEMM kernels (AMD rows) for f16, bf16 and FP8 operands of the
  /// chip's flavour (invalid where the chip has no such MFMA).
  GPUGemmTiling mfmaF16 = {}, mfmaBF16 = {}, mfmaFP8 = {};
  /// Lanes that execute in lockstep and exchange registers (shuffles, DPP):
  /// an NVIDIA warp (32), an AMD CDNA wavefront (64); 0 off the GPUs. Block
  /// and subgroup reductions are built from it (lowp-gpu-map-row-reductions,
  /// lowp-gpu-lower-subgroup-reduce).
  unsigned subgroupSize = 0;
  /// Tensor-core GEMM kernel for FP8 operands of the chip's flavour in any
  /// E4M3/E5M2 mix (mma.sync m16n8k32; invalid where the chip has none).
  GPUGemmTiling mmaSyncFP8 = {};
  /// Per-core L2 cache in bytes (CPU rows; 0 elsewhere). The x86 GEMM
  /// kernels block the rows of A so that one mc x kc block of A stays in
  /// about half of it (lowp-x86-lower-contractions' default mc).
  unsigned l2Bytes = 0;
  /// Warpgroup GEMM kernels (wgmma.mma_async, operands in shared memory)
  /// for f16/bf16 and for FP8 operands in any E4M3/E5M2 mix: waveSize is
  /// the warpgroup (128 threads), mma the instruction (m64nNkK). Invalid
  /// where the chip's PTX target has no wgmma (sm_90 without the `a`).
  GPUGemmTiling wgmma16 = {}, wgmmaFP8 = {};
  /// Data cache line in bytes (CPU rows; 0 elsewhere): the unit of the
  /// x86 GEMM kernels' software prefetches of packed B.
  unsigned cacheLineBytes = 0;
  /// Shared memory a GPU kernel may declare statically, in bytes, without
  /// opting in to more (NVIDIA rows: 48 KB; 0 elsewhere): the limit of the
  /// tiled kernels' staging buffers.
  unsigned staticSharedMemoryBytes = 0;
  /// k block of the x86 f32 FMA GEMM kernel, in k (CPU rows; 0
  /// elsewhere): how deep its kc x nr slice of packed B is, measured per
  /// chip as BLIS configures its KC (docs/lowering-x86.md). The bf16
  /// kernels take 512 pairs everywhere.
  unsigned f32KBlock = 0;
  /// Multiply-adds per cycle and core of the f32 FMA units and of the bf16
  /// dot instruction (vdpbf16ps, 512-bit) on x86 rows; 0 where not measured
  /// or not there (the measurements: the table's x86 comment).
  unsigned f32FmaMacsPerCycle = 0;
  unsigned bf16DotMacsPerCycle = 0;

  /// Whether bf16 products on x86 are faster with vdpbf16ps than with f32
  /// FMAs on widened operands: the dot exists and is not measured slower.
  bool prefersBF16Dot() const {
    if (!hasMatrixUnit(Format::BF16))
      return false;
    return !f32FmaMacsPerCycle || !bf16DotMacsPerCycle ||
           bf16DotMacsPerCycle > f32FmaMacsPerCycle;
  }

  /// The GEMM kernel tiling for operands in `f` (mma.sync or MFMA), or
  /// null where the table has none.
  const GPUGemmTiling *getGemmTiling(Format f) const;

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

llvm::StringRef stringifyFormat(Format f);
std::optional<Format> symbolizeFormat(llvm::StringRef name);
llvm::StringRef stringifyVendor(Vendor v);
llvm::StringRef stringifyFP8Flavor(FP8Flavor f);

/// Maps between the table's format names and MLIR float types.
std::optional<Format> getFormat(mlir::FloatType type);
mlir::FloatType getFloatType(mlir::MLIRContext *context, Format f);

/// Prints the table, as aligned text or as JSON.
void printTargetTable(llvm::raw_ostream &os, bool json);

} // namespace mlir::lowp

#endif // LOWP_TARGET_TARGETINFO_H
