//===- Pipelines.h - fp-opt's pipelines as a C++ API -------------*- C++ -*-===//
//
// Every named pipeline of fp-opt is an options struct and a builder that
// appends it to an OpPassManager anchored on builtin.module, so a compiler
// that embeds fp-opt builds them from C++ without pipeline text:
//
//   mlir::lowp::X86PipelineOptions options;
//   options.target = "avx512bf16";
//   options.threads = 8;
//   if (failed(mlir::lowp::buildX86Pipeline(pm, options)))
//     return failure();
//
// The structs are PassPipelineOptions, so the same struct is what the
// textual form (`lowp-pipeline-x86{target=avx512bf16 threads=8}`) parses.
// Options that only configure one of fp-opt's passes are handed on through
// that pass's ODS-generated options struct (lowp/Transforms/Passes.h,
// lowp/Conversion/Passes.h).
//
// A builder fails, before anything runs, when its options cannot make a
// pipeline (a GPU pipeline without an NVIDIA / AMD target of the capability
// table); the message goes to `errorHandler`, or to stderr when none is
// given. Everything else (an unknown target of the x86 or TPU pipelines,
// unsupported IR) is reported by the passes, with a location, when the
// pipeline runs.
//
//===----------------------------------------------------------------------===//

#ifndef LOWP_PIPELINES_PIPELINES_H
#define LOWP_PIPELINES_PIPELINES_H

#include "lowp/Conversion/Passes.h"
#include "lowp/Transforms/Passes.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassOptions.h"

namespace mlir::lowp {

/// Receives a builder's error message; returns failure().
using PipelineErrorHandler = function_ref<LogicalResult(const Twine &)>;

//===----------------------------------------------------------------------===//
// lowp-auto-mixed-precision
//===----------------------------------------------------------------------===//

/// The decisions: FP32 islands, precision inference, loss scaling, FP8
/// selection (docs/design.md).
struct AutoMixedPrecisionOptions
    : public PassPipelineOptions<AutoMixedPrecisionOptions> {
  PassOptions::Option<std::string> target{
      *this, "target",
      llvm::cl::desc("Chip of the capability table (fp-opt "
                     "--print-target-table), recorded on the module as "
                     "#lowp.target; empty: the module's lowp.target")};
  PassOptions::Option<PrecisionPolicy> policy{
      *this, "policy",
      llvm::cl::desc("auto (the target's preferred 16-bit format), f16, "
                     "bf16, fp8 (16-bit inference, then FP8 selection) or "
                     "fp8-weights (auto, then FP8 weight arguments with "
                     "per-channel scales)"),
      llvm::cl::init(PrecisionPolicy::Auto),
      llvm::cl::values(
          clEnumValN(PrecisionPolicy::Auto, "auto",
                     "the target's preferred format"),
          clEnumValN(PrecisionPolicy::F16, "f16", "f16"),
          clEnumValN(PrecisionPolicy::BF16, "bf16", "bf16"),
          clEnumValN(PrecisionPolicy::FP8, "fp8",
                     "16-bit inference, then FP8"),
          clEnumValN(PrecisionPolicy::FP8Weights, "fp8-weights",
                     "the target's 16-bit inference, then weight arguments "
                     "in FP8 with a scale per output channel "
                     "(lowp-fp8-weight-only)"),
          clEnumValN(PrecisionPolicy::Autocast, "autocast",
                     "PyTorch autocast's choice, for comparison: matrix op "
                     "inputs in the target's preferred format, f32 "
                     "accumulation, everything else f32"))};
  PassOptions::Option<std::string> report{
      *this, "report",
      llvm::cl::desc("Write the precision decision report here (.json: "
                     "JSON, else a table, '-': stderr); a JSON report "
                     "also gets the graph section of "
                     "lowp-view-precision-graph (the report page's input)")};
  PassOptions::Option<bool> f32Streams{
      *this, "f32-streams",
      llvm::cl::desc("Residual streams and values carried across blocks "
                     "stay f32 where that costs no matrix-unit time "
                     "(lowp-infer-precision's f32-streams; false: they "
                     "follow the low format)"),
      llvm::cl::init(true)};
  PassOptions::Option<WeightDemotion> demoteWeights{
      *this, "demote-weights",
      llvm::cl::desc("none (default): signatures keep their types; "
                     "arguments: an argument read only as matrix op inputs "
                     "arrives in its decided format (bf16/f16, or FP8 with "
                     "its scale with policy=fp8), converted once by the "
                     "caller (docs/embedding.md)"),
      llvm::cl::init(WeightDemotion::None),
      llvm::cl::values(
          clEnumValN(WeightDemotion::None, "none",
                     "signatures keep their types"),
          clEnumValN(WeightDemotion::Arguments, "arguments",
                     "weights arrive in their decided format"))};
  PassOptions::Option<bool> demoteState{
      *this, "demote-state",
      llvm::cl::desc("An entry function's state (an argument returned "
                     "updated, such as a decoder's KV cache) read only in "
                     "the decided 16-bit format is taken and returned in it "
                     "(lowp-infer-precision's demote-state)"),
      llvm::cl::init(false)};
  PassOptions::Option<std::string> stateFormat{
      *this, "state-format",
      llvm::cl::desc("With demote-state: the 8-bit float format that state "
                     "is stored in instead (f8E4M3FN, f8E5M2, f8E4M3FNUZ, "
                     "f8E5M2FNUZ; lowp-infer-precision's state-format)"),
      llvm::cl::init("")};
  PassOptions::Option<std::string> graph{
      *this, "graph",
      llvm::cl::desc("Draw the decided module here with "
                     "lowp-view-precision-graph (.svg: rendered with "
                     "Graphviz's dot, else DOT)")};

  // policy=fp8 only: handed to lowp-select-fp8-formats. The defaults are
  // the ones that need nothing but the model: hybrid formats, scales
  // computed in the graph.
  PassOptions::Option<FP8Recipe> fp8Recipe{
      *this, "fp8-recipe",
      llvm::cl::desc("policy=fp8: how FP8 formats are chosen (default "
                     "hybrid: E4M3 forward, E5M2 gradients)"),
      llvm::cl::init(FP8Recipe::Hybrid),
      llvm::cl::values(
          clEnumValN(FP8Recipe::Hybrid, "hybrid",
                     "E4M3 forward, E5M2 for gradients"),
          clEnumValN(FP8Recipe::E4M3, "e4m3", "E4M3 always"),
          clEnumValN(FP8Recipe::E5M2, "e5m2", "E5M2 always"),
          clEnumValN(FP8Recipe::Range, "range",
                     "from #lowp.stats: E4M3 if it fits, else E5M2, else "
                     "bf16 (needs calibration statistics)"))};
  PassOptions::Option<FP8Scaling> fp8Scaling{
      *this, "fp8-scaling",
      llvm::cl::desc("policy=fp8: where per-tensor scales come from "
                     "(default current: needs no calibration)"),
      llvm::cl::init(FP8Scaling::Current),
      llvm::cl::values(
          clEnumValN(FP8Scaling::Static, "static",
                     "constants from #lowp.stats (needs calibration)"),
          clEnumValN(FP8Scaling::Delayed, "delayed",
                     "amax history carried as function state"),
          clEnumValN(FP8Scaling::Current, "current",
                     "amax of this step, computed in the graph"))};
  PassOptions::Option<unsigned> fp8AmaxHistory{
      *this, "fp8-amax-history",
      llvm::cl::desc("policy=fp8, fp8-scaling=delayed: length of the amax "
                     "history"),
      llvm::cl::init(1024)};
  PassOptions::Option<unsigned> fp8Margin{
      *this, "fp8-margin",
      llvm::cl::desc("policy=fp8: binades of headroom between the scaled "
                     "amax and the format max"),
      llvm::cl::init(0)};
  PassOptions::Option<bool> firstLastBF16{
      *this, "first-last-bf16",
      llvm::cl::desc("policy=fp8: keep the first and last matrix op of each "
                     "function at 16 bits"),
      llvm::cl::init(false)};
  PassOptions::Option<bool> fp8Attention{
      *this, "fp8-attention",
      llvm::cl::desc("policy=fp8: FP8 also for products of two computed "
                     "activations (attention's Q.K^T and P.V); by default "
                     "they keep 16 bits"),
      llvm::cl::init(false)};
  PassOptions::Option<bool> allowBF16Fallback{
      *this, "allow-bf16-fallback",
      llvm::cl::desc("policy=fp8: on a target without FP8, keep the 16-bit "
                     "decision instead of failing"),
      llvm::cl::init(false)};

  /// What each step is given (ODS options of the passes).
  LowpInsertFP32IslandsOptions getIslandsOptions() const;
  LowpInferPrecisionOptions getInferenceOptions() const;
  LowpMaterializeLossScalingOptions getLossScalingOptions() const;
  LowpSelectFP8FormatsOptions getFP8Options() const;
};

LogicalResult
buildAutoMixedPrecisionPipeline(OpPassManager &pm,
                                const AutoMixedPrecisionOptions &options,
                                PipelineErrorHandler errorHandler = nullptr);

//===----------------------------------------------------------------------===//
// lowp-pipeline-x86
//===----------------------------------------------------------------------===//

/// To the LLVM dialect for one x86 chip (docs/lowering-x86.md).
struct X86PipelineOptions : public PassPipelineOptions<X86PipelineOptions> {
  PassOptions::Option<std::string> target{
      *this, "target",
      llvm::cl::desc("x86 row of the capability table (fp-opt "
                     "--print-target-table); default: avx2")};
  PassOptions::Option<unsigned> mr{
      *this, "mr",
      llvm::cl::desc("Rows of the matmul register block (0: the target's "
                     "default)"),
      llvm::cl::init(0)};
  PassOptions::Option<unsigned> nr{
      *this, "nr",
      llvm::cl::desc("Columns of the matmul register block (0: the "
                     "target's default)"),
      llvm::cl::init(0)};
  PassOptions::Option<unsigned> kc{
      *this, "kc",
      llvm::cl::desc("Depth of the matmul k block in k steps (a k, or a "
                     "pair of k for vdpbf16ps and AMX; 0: each kernel's "
                     "own, docs/lowering-x86.md)"),
      llvm::cl::init(0)};
  PassOptions::Option<unsigned> mc{
      *this, "mc",
      llvm::cl::desc("Rows of the matmul m block (0: an m x kc block of A in "
                     "half the target's L2)"),
      llvm::cl::init(0)};
  PassOptions::Option<unsigned> threads{
      *this, "threads",
      llvm::cl::desc("Threads (OpenMP, libomp) for the matmul kernels' panel "
                     "loops and large elementwise/reduction ops; 1: "
                     "sequential code, no OpenMP"),
      llvm::cl::init(1)};
  PassOptions::Option<bool> amx{
      *this, "amx",
      llvm::cl::desc("bf16 matmuls on AMX-BF16 tiles (rows with amx_bf16)"),
      llvm::cl::init(false)};
  PassOptions::Option<bool> prepack{
      *this, "prepack",
      llvm::cl::desc("Pack weight arguments once: F_prepack "
                     "(docs/lowering-x86.md)"),
      llvm::cl::init(false)};
  PassOptions::Option<bool> winograd{
      *this, "winograd",
      llvm::cl::desc("3x3 stride-1 convolutions on the f32 FMA kernel "
                     "as Winograd F(2x2, 3x3) (false: im2col + GEMM)"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> fuseAttention{
      *this, "fuse-attention",
      llvm::cl::desc("Attention with at most 16 query rows per head group "
                     "as one kernel per head group (false: two GEMMs and "
                     "softmax loops)"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> nhwcConvolutions{
      *this, "nhwc-convolutions",
      llvm::cl::desc("Run a function's NCHW convolutions and poolings NHWC, "
                     "transposed once at its ends "
                     "(lowp-convert-conv-nchw-to-nhwc)"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> staticWorkspace{
      *this, "static-workspace",
      llvm::cl::desc("Keep each function's intermediates in a module global "
                     "reused across calls (false: one allocation per call; "
                     "lowp-plan-workspace)"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> outlineRepeatedLoops{
      *this, "outline-repeated-loops",
      llvm::cl::desc("Compile each loop nest the module repeats (a model's "
                     "repeated layers) once, as a function every copy calls "
                     "(lowp-outline-repeated-loops)"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> updateInPlace{
      *this, "update-in-place",
      llvm::cl::desc("Write each result marked lowp.updates = i (a training "
                     "step's new parameters and optimizer state) into "
                     "argument i's buffer and return that buffer "
                     "(lowp-write-updates-in-place)"),
      llvm::cl::init(false)};
  PassOptions::Option<std::string> deprecatedCpu{
      *this, "cpu",
      llvm::cl::desc("Deprecated spelling of `target` (removed in the next "
                     "release)")};

  /// The chip: `target` (or its deprecated spelling), avx2 when empty.
  std::string getTarget() const;
  /// The options of lowp-x86-lower-contractions.
  LowpX86LowerContractionsOptions getContractionOptions() const;
};

LogicalResult buildX86Pipeline(OpPassManager &pm,
                               const X86PipelineOptions &options,
                               PipelineErrorHandler errorHandler = nullptr);

//===----------------------------------------------------------------------===//
// lowp-pipeline-nvvm and lowp-pipeline-rocdl
//===----------------------------------------------------------------------===//

/// The options both GPU pipelines share; each adds its `target` (its
/// vendor's chips) and its own.
template <typename Derived>
struct GPUPipelineOptions : public PassPipelineOptions<Derived> {
  using PassOptions = mlir::detail::PassOptions;

  PassOptions::Option<unsigned> threads{
      *this, "threads",
      llvm::cl::desc("Threads per block along the innermost parallel "
                     "dimension (the outer ones map to blocks)"),
      llvm::cl::init(128)};
  PassOptions::Option<CallingConvention> callingConvention{
      *this, "calling-convention",
      llvm::cl::desc("Where the memref arguments and results of functions "
                     "that launch kernels live"),
      llvm::cl::init(CallingConvention::Host),
      llvm::cl::values(
          clEnumValN(CallingConvention::Host, "host",
                     "host buffers, copied to and from the device"),
          clEnumValN(CallingConvention::Device, "device",
                     "device buffers"))};
  PassOptions::Option<std::string> deprecatedChip{
      *this, "chip",
      llvm::cl::desc("Deprecated spelling of `target` (removed in the next "
                     "release)")};
};

/// To host LLVM dialect plus one PTX gpu.binary per kernel for one NVIDIA
/// chip (docs/lowering-gpu.md).
struct NVVMPipelineOptions : public GPUPipelineOptions<NVVMPipelineOptions> {
  PassOptions::Option<std::string> target{
      *this, "target",
      llvm::cl::desc("NVIDIA row of the capability table (fp-opt "
                     "--print-target-table); required: the PTX target is "
                     "fixed when the pipeline is built")};
  PassOptions::Option<std::string> cudaPath{
      *this, "cuda-path",
      llvm::cl::desc("CUDA toolkit whose libdevice provides math functions "
                     "(__nv_expf, ...), linked into every kernel; empty: "
                     "MLIR's default ($CUDA_ROOT, $CUDA_HOME, $CUDA_PATH); "
                     "without libdevice the PTX declares them .extern")};
  PassOptions::Option<bool> tensorCores{
      *this, "tensor-cores",
      llvm::cl::desc("f16/bf16 contractions to mma.sync kernels (false: "
                     "every op on the naive mapping)"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> wgmma{
      *this, "wgmma",
      llvm::cl::desc("on chips with warpgroup MMA (sm_90a), wgmma kernels "
                     "first (false: mma.sync kernels only)"),
      llvm::cl::init(true)};

  /// The chip: `target` or its deprecated spelling.
  std::string getTarget() const;
};

LogicalResult buildNVVMPipeline(OpPassManager &pm,
                                const NVVMPipelineOptions &options,
                                PipelineErrorHandler errorHandler = nullptr);

/// The same mapping to AMDGCN assembly for one AMD chip.
struct ROCDLPipelineOptions
    : public GPUPipelineOptions<ROCDLPipelineOptions> {
  PassOptions::Option<std::string> target{
      *this, "target",
      llvm::cl::desc("AMD row of the capability table (fp-opt "
                     "--print-target-table); required: the AMDGCN target is "
                     "fixed when the pipeline is built")};
  PassOptions::Option<bool> mfma{
      *this, "mfma",
      llvm::cl::desc("f16/bf16/FP8 contractions to MFMA kernels (false: "
                     "every op on the naive mapping)"),
      llvm::cl::init(true)};
  PassOptions::Option<std::string> rocmPath{
      *this, "rocm-path",
      llvm::cl::desc("ROCm installation whose device library (ocml) "
                     "provides math functions, linked into every kernel; "
                     "empty: none is needed (sin, erf, ... become "
                     "polynomial approximations, exp/log the backend's own)")};

  /// The chip: `target` or its deprecated spelling.
  std::string getTarget() const;
};

LogicalResult buildROCDLPipeline(OpPassManager &pm,
                                 const ROCDLPipelineOptions &options,
                                 PipelineErrorHandler errorHandler = nullptr);

//===----------------------------------------------------------------------===//
// lowp-pipeline-tpu
//===----------------------------------------------------------------------===//

/// TPU-style structuring, lowered for this CPU (docs/lowering-tpu.md).
struct TPUPipelineOptions : public PassPipelineOptions<TPUPipelineOptions> {
  PassOptions::Option<std::string> target{
      *this, "target",
      llvm::cl::desc("TPU row of the capability table (fp-opt "
                     "--print-target-table); default: the module's "
                     "lowp.target")};
  PassOptions::Option<std::string> deprecatedGeneration{
      *this, "generation",
      llvm::cl::desc("Deprecated spelling of `target` (removed in the next "
                     "release)")};

  /// The options of lowp-tile-for-mxu.
  LowpTileForMXUOptions getTilingOptions() const;
};

LogicalResult buildTPUPipeline(OpPassManager &pm,
                               const TPUPipelineOptions &options,
                               PipelineErrorHandler errorHandler = nullptr);

//===----------------------------------------------------------------------===//
// lowp-pipeline-reference
//===----------------------------------------------------------------------===//

/// The plain loop lowering for this CPU that decisions are checked against
/// (fpopt.tune, the Models and FP8 execution tests, bench/decision_error.sh):
/// no kernels, every op in the formats the IR states, rounded after every
/// op, and every narrow conversion as exact integer code, whatever
/// `lowp.target` says. It has no options.
struct ReferencePipelineOptions
    : public PassPipelineOptions<ReferencePipelineOptions> {};

LogicalResult buildReferencePipeline(OpPassManager &pm,
                                     const ReferencePipelineOptions &options,
                                     PipelineErrorHandler errorHandler = nullptr);

//===----------------------------------------------------------------------===//
// Registration
//===----------------------------------------------------------------------===//

/// Registers every named pipeline above with the global pass-pipeline
/// registry (for textual pipelines and fp-opt's command line).
void registerLowpPipelines();

} // namespace mlir::lowp

#endif // LOWP_PIPELINES_PIPELINES_H
