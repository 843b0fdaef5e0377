//===- PipelinesTest.cpp - fp-opt's pipelines built from C++ --------------===//
//
// An embedding compiler builds fp-opt's pipelines from their option structs
// (lowp/Pipelines/Pipelines.h), without pipeline text: each builder is run
// here on a small model and its result checked, and a builder given a chip
// it cannot build for fails with a message instead of aborting.
//
//===----------------------------------------------------------------------===//

#include "lowp/InitLowp.h"
#include "lowp/Pipelines/Pipelines.h"
#include "lowp/Pipelines/RunPipeline.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"

#include "gtest/gtest.h"

using namespace mlir;
using namespace mlir::lowp;

namespace {
/// A linear layer (bias, ReLU) and a softmax: a matmul the
/// decisions make 16-bit, elementwise ops, and an FP32 island.
constexpr const char *kModel = R"mlir(
func.func @layer(%x: tensor<16x64xf32>, %w: tensor<64x32xf32>,
                 %b: tensor<32xf32>) -> tensor<16x32xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x32xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<16x32xf32>) -> tensor<16x32xf32>
  %y = linalg.matmul ins(%x, %w : tensor<16x64xf32>, tensor<64x32xf32>)
                     outs(%acc : tensor<16x32xf32>) -> tensor<16x32xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>,
                                        affine_map<(i, j) -> (j)>,
                                        affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%y, %b : tensor<16x32xf32>, tensor<32xf32>) outs(%e : tensor<16x32xf32>) {
  ^bb0(%a: f32, %c: f32, %o: f32):
    %s = arith.addf %a, %c : f32
    %m = arith.maximumf %s, %zero : f32
    linalg.yield %m : f32
  } -> tensor<16x32xf32>
  %p = linalg.softmax dimension(1) ins(%r : tensor<16x32xf32>)
                                   outs(%e : tensor<16x32xf32>) -> tensor<16x32xf32>
  return %p : tensor<16x32xf32>
}
)mlir";

class PipelinesTest : public ::testing::Test {
protected:
  PipelinesTest() {
    // Only the textual comparison below needs the global registry.
    static bool registered = [] {
      registerLowpPassesAndPipelines();
      return true;
    }();
    (void)registered;
    DialectRegistry registry;
    registerAllDialects(registry);
    registerAllExtensions(registry);
    registerAllGPUToLLVMIRTranslations(registry);
    registerLowpDialects(registry);
    context.appendDialectRegistry(registry);
    // Remarks (the decisions' reasons) are not the subject here; errors
    // are printed.
    context.getDiagEngine().registerHandler([](Diagnostic &diag) {
      return success(diag.getSeverity() != DiagnosticSeverity::Error);
    });
  }

  OwningOpRef<ModuleOp> parse() {
    OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(kModel, &context);
    EXPECT_TRUE(module);
    return module;
  }

  /// Builds a pipeline with `build` from `options` and runs it on `module`.
  template <typename OptionsT>
  ::testing::AssertionResult
  runPipeline(ModuleOp module,
              LogicalResult (*build)(OpPassManager &, const OptionsT &,
                                     PipelineErrorHandler),
              const OptionsT &options) {
    PassManager pm(&context);
    if (failed(build(pm, options, nullptr)))
      return ::testing::AssertionFailure() << "the builder failed";
    if (failed(pm.run(module)))
      return ::testing::AssertionFailure() << "the pipeline failed";
    return ::testing::AssertionSuccess();
  }

  /// The element type of the first operand of the first linalg.matmul.
  static Type matmulInputType(ModuleOp module) {
    Type type;
    module.walk([&](linalg::MatmulOp op) {
      if (!type)
        type = getElementTypeOrSelf(op.getDpsInputs()[0].getType());
    });
    return type;
  }

  template <typename OpT>
  static unsigned count(ModuleOp module) {
    unsigned n = 0;
    module.walk([&](OpT) { ++n; });
    return n;
  }

  /// Whether anything but the LLVM dialect is left, besides the module and
  /// the GPU ops mlir-translate takes as they are (gpu.binary, which holds
  /// the kernels' assembly, and the host's gpu.launch_func).
  static bool onlyLLVM(ModuleOp module) {
    bool other = false;
    module.walk([&](Operation *op) {
      StringRef dialect = op->getName().getDialectNamespace();
      if (op != module.getOperation() && dialect != "llvm" &&
          !isa<gpu::BinaryOp, gpu::LaunchFuncOp>(op))
        other = true;
    });
    return !other;
  }

  /// The module decided for `target` under `policy`.
  OwningOpRef<ModuleOp> decide(StringRef target,
                               PrecisionPolicy policy = PrecisionPolicy::Auto) {
    OwningOpRef<ModuleOp> module = parse();
    AutoMixedPrecisionOptions options;
    options.target = target.str();
    options.policy = policy;
    EXPECT_TRUE(
        runPipeline(*module, buildAutoMixedPrecisionPipeline, options));
    return module;
  }

  /// Decides the model for the GPU `chip`, lowers it with `build` and
  /// checks that only LLVM and the kernels' gpu.binary are left.
  template <typename OptionsT>
  void expectKernelsFor(StringRef chip,
                        LogicalResult (*build)(OpPassManager &,
                                               const OptionsT &,
                                               PipelineErrorHandler)) {
    OwningOpRef<ModuleOp> module = decide(chip);
    OptionsT options;
    options.target = chip.str();
    ASSERT_TRUE(runPipeline(*module, build, options));
    EXPECT_TRUE(onlyLLVM(*module));
    EXPECT_GT(count<gpu::BinaryOp>(*module), 0u);
  }

  MLIRContext context;
};
} // namespace

TEST_F(PipelinesTest, AutoMixedPrecisionDecidesForTheTarget) {
  OwningOpRef<ModuleOp> bf16 = decide("sm_90");
  EXPECT_TRUE(matmulInputType(*bf16).isBF16());
  EXPECT_EQ(count<lowp::IslandOp>(*bf16), 1u) << "the softmax island";

  OwningOpRef<ModuleOp> f16 = decide("sm_75", PrecisionPolicy::F16);
  EXPECT_TRUE(matmulInputType(*f16).isF16());
}

TEST_F(PipelinesTest, FP8PolicyAddsFP8Selection) {
  OwningOpRef<ModuleOp> module = parse();
  AutoMixedPrecisionOptions options;
  options.target = "sm_90";
  options.policy = PrecisionPolicy::FP8;
  options.fp8Recipe = FP8Recipe::E4M3;
  // The options reach the pass through its ODS options struct.
  EXPECT_EQ(options.getFP8Options().recipe, FP8Recipe::E4M3);
  ASSERT_TRUE(runPipeline(*module, buildAutoMixedPrecisionPipeline, options));
  EXPECT_TRUE(isa<Float8E4M3FNType>(matmulInputType(*module)));
}

TEST_F(PipelinesTest, X86LowersToLLVM) {
  OwningOpRef<ModuleOp> module = decide("avx512bf16");
  X86PipelineOptions options;
  options.target = "avx512bf16";
  options.threads = 2;
  EXPECT_EQ(options.getContractionOptions().target, "avx512bf16");
  ASSERT_TRUE(runPipeline(*module, buildX86Pipeline, options));
  EXPECT_TRUE(onlyLLVM(*module));
  EXPECT_GT(count<LLVM::LLVMFuncOp>(*module), 0u);
}

TEST_F(PipelinesTest, X86DefaultsToAVX2) {
  X86PipelineOptions options;
  EXPECT_EQ(options.getTarget(), "avx2");
}

TEST_F(PipelinesTest, TPULowersToLLVM) {
  OwningOpRef<ModuleOp> module = decide("tpu-v5e");
  TPUPipelineOptions options;
  options.target = "tpu-v5e";
  ASSERT_TRUE(runPipeline(*module, buildTPUPipeline, options));
  EXPECT_TRUE(onlyLLVM(*module));
}

// The reference lowers a module decided for a GPU on this CPU: its FP8
// operands need no conversion instruction of the host or of the target.
TEST_F(PipelinesTest, ReferenceLowersAnyDecisionToLLVM) {
  OwningOpRef<ModuleOp> module = decide("sm_90", PrecisionPolicy::FP8);
  ASSERT_TRUE(runPipeline(*module, buildReferencePipeline,
                          ReferencePipelineOptions()));
  EXPECT_TRUE(onlyLLVM(*module));
  EXPECT_GT(count<LLVM::LLVMFuncOp>(*module), 0u);
}

TEST_F(PipelinesTest, NVVMLowersToPTX) {
  expectKernelsFor<NVVMPipelineOptions>("sm_80", buildNVVMPipeline);
}

TEST_F(PipelinesTest, ROCDLLowersToAMDGCN) {
  expectKernelsFor<ROCDLPipelineOptions>("gfx942", buildROCDLPipeline);
}

// Both GPU pipelines refuse a chip that is not one of their vendor's rows
// the same way: failure and one message, before anything runs.
TEST_F(PipelinesTest, GPUPipelinesRejectOtherChipsAlike) {
  std::string message;
  auto record = [&](const Twine &text) {
    message = text.str();
    return failure();
  };
  PassManager pm(&context);
  NVVMPipelineOptions nvvm;
  nvvm.target = "gfx942";
  EXPECT_TRUE(failed(buildNVVMPipeline(pm, nvvm, record)));
  EXPECT_EQ(message, "lowp-pipeline-nvvm needs target=<chip>, one of the "
                     "capability table's nvidia chips (sm_60, sm_70, sm_75, "
                     "sm_80, sm_86, sm_89, sm_90, sm_90a, sm_100, sm_120); "
                     "got 'gfx942'");
  ROCDLPipelineOptions rocdl;
  rocdl.target = "sm_90";
  EXPECT_TRUE(failed(buildROCDLPipeline(pm, rocdl, record)));
  EXPECT_EQ(message, "lowp-pipeline-rocdl needs target=<chip>, one of the "
                     "capability table's amd chips (gfx908, gfx90a, gfx942, "
                     "gfx950); got 'sm_90'");
  ROCDLPipelineOptions none;
  EXPECT_TRUE(failed(buildROCDLPipeline(pm, none, record)));
  EXPECT_NE(message.find("got ''"), std::string::npos);
  EXPECT_EQ(pm.size(), 0u) << "nothing was added";
}

// The C++ builders and the textual pipelines are the same pipelines.
TEST_F(PipelinesTest, TextAndCppBuildTheSamePipeline) {
  X86PipelineOptions options;
  options.target = "znver4";
  options.threads = 4;
  options.prepack = true;
  PassManager fromCpp(&context);
  ASSERT_TRUE(succeeded(buildX86Pipeline(fromCpp, options)));
  PassManager fromText(&context);
  ASSERT_TRUE(succeeded(parsePassPipeline(
      "lowp-pipeline-x86{target=znver4 threads=4 prepack=true}", fromText)));
  std::string cpp, text;
  llvm::raw_string_ostream cppOs(cpp), textOs(text);
  fromCpp.printAsTextualPipeline(cppOs);
  fromText.printAsTextualPipeline(textOs);
  EXPECT_EQ(cpp, text);
  EXPECT_NE(cpp.find("lowp-x86-lower-contractions{"), std::string::npos)
      << cpp;
  EXPECT_NE(cpp.find("target=znver4"), std::string::npos) << cpp;
  EXPECT_NE(cpp.find("convert-scf-to-openmp{num-threads=4}"),
            std::string::npos)
      << cpp;
}

namespace {
/// Leaves every function without its terminator: IR that does not verify.
struct DropReturnsPass
    : PassWrapper<DropReturnsPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(DropReturnsPass)
  StringRef getArgument() const final { return "test-drop-returns"; }
  void runOnOperation() final {
    getOperation().walk([](func::ReturnOp op) { op->erase(); });
  }
};

/// Counts its runs and says so in a remark; changes nothing.
struct CountRunsPass : PassWrapper<CountRunsPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(CountRunsPass)
  explicit CountRunsPass(unsigned &runs) : runs(runs) {}
  StringRef getArgument() const final { return "test-count-runs"; }
  void runOnOperation() final {
    ++runs;
    emitRemark(getOperation().getLoc()) << "run";
  }
  unsigned &runs;
};
} // namespace

// An embedding's pipeline is verified once, at the end; invalid output is
// an error that names the pass that produced it.
TEST_F(PipelinesTest, RunVerifyingAtEndNamesTheInvalidatingPass) {
  std::vector<std::string> errors;
  unsigned remarks = 0;
  ScopedDiagnosticHandler collect(&context, [&](Diagnostic &diag) {
    if (diag.getSeverity() == DiagnosticSeverity::Error)
      errors.push_back(diag.str());
    else if (diag.getSeverity() == DiagnosticSeverity::Remark)
      ++remarks;
    return success();
  });

  unsigned runs = 0;
  OwningOpRef<ModuleOp> valid = parse();
  PassManager fine(&context);
  fine.addPass(std::make_unique<CountRunsPass>(runs));
  EXPECT_TRUE(succeeded(runVerifyingAtEnd(fine, *valid)));
  EXPECT_EQ(runs, 1u);
  EXPECT_TRUE(errors.empty());

  OwningOpRef<ModuleOp> module = parse();
  PassManager broken(&context);
  broken.addPass(std::make_unique<CountRunsPass>(runs));
  broken.addPass(std::make_unique<DropReturnsPass>());
  broken.addPass(std::make_unique<CountRunsPass>(runs));
  EXPECT_TRUE(failed(runVerifyingAtEnd(broken, *module)));
  // Once without the verifier between passes, once with it, stopping at
  // the pass whose output does not verify.
  EXPECT_EQ(runs, 1u + 2u + 1u);
  EXPECT_EQ(remarks, 1u + 2u) << "the second run reports only its errors";
  ASSERT_FALSE(errors.empty());
  EXPECT_NE(errors.back().find(
                "the IR does not verify after pass 'test-drop-returns'"),
            std::string::npos)
      << errors.back();
  EXPECT_GE(errors.size(), 2u) << "the verifier's own error comes first";
}
