//===- SoftFloatConversionsTest.cpp - exactness of the integer conversions ===//
//
// Executes the IR that lowp.cast / arith.truncf / arith.extf become under
// convert-lowp-to-linalg + lowp-expand-float-conversions (JIT-compiled with
// MLIR's ExecutionEngine) and compares every result bit for bit with
// APFloat's conversion: all 2^8 (2^16) inputs when widening, and a sample of
// the 2^32 f32 inputs (every exponent with the mantissas around each
// rounding boundary, plus random patterns) when narrowing.
//
//===----------------------------------------------------------------------===//

#include "lowp/InitLowp.h"

#include "mlir/ExecutionEngine/CRunnerUtils.h"
#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/Support/TargetSelect.h"

#include "gtest/gtest.h"

#include <cstring>
#include <random>

using namespace mlir;
using llvm::APFloat;
using llvm::APInt;

namespace {

struct FormatCase {
  const char *name;    ///< MLIR spelling
  const char *intType; ///< storage integer type
  const llvm::fltSemantics &(*semantics)();
};

const FormatCase kFormats[] = {
    {"f8E4M3FN", "i8", APFloat::Float8E4M3FN},
    {"f8E5M2", "i8", APFloat::Float8E5M2},
    {"f8E4M3FNUZ", "i8", APFloat::Float8E4M3FNUZ},
    {"f8E5M2FNUZ", "i8", APFloat::Float8E5M2FNUZ},
    {"bf16", "i16", APFloat::BFloat},
    {"f16", "i16", APFloat::IEEEhalf},
};

/// The kernels under test: vector (16 lanes) and scalar narrowing, with and
/// without saturation, and vector widening.
std::string buildKernels(const FormatCase &f) {
  std::string t = f.name, i = f.intType;
  std::string s;
  auto narrow = [&](const char *name, const char *attrs) {
    s += "func.func @" + std::string(name) +
         "(%in: memref<?xf32>, %out: memref<?x" + i +
         ">) attributes {llvm.emit_c_interface} {\n"
         "  %c0 = arith.constant 0 : index\n"
         "  %c16 = arith.constant 16 : index\n"
         "  %n = memref.dim %in, %c0 : memref<?xf32>\n"
         "  scf.for %k = %c0 to %n step %c16 {\n"
         "    %v = vector.load %in[%k] : memref<?xf32>, vector<16xf32>\n"
         "    %t = lowp.cast %v " +
         attrs + " : vector<16xf32> to vector<16x" + t +
         ">\n"
         "    %b = arith.bitcast %t : vector<16x" +
         t + "> to vector<16x" + i +
         ">\n"
         "    vector.store %b, %out[%k] : memref<?x" +
         i + ">, vector<16x" + i +
         ">\n"
         "  }\n  return\n}\n";
  };
  narrow("narrow", "");
  narrow("narrow_sat", "saturate");
  s += "func.func @narrow_scalar(%in: memref<?xf32>, %out: memref<?x" + i +
       ">) attributes {llvm.emit_c_interface} {\n"
       "  %c0 = arith.constant 0 : index\n"
       "  %c1 = arith.constant 1 : index\n"
       "  %n = memref.dim %in, %c0 : memref<?xf32>\n"
       "  scf.for %k = %c0 to %n step %c1 {\n"
       "    %v = memref.load %in[%k] : memref<?xf32>\n"
       "    %t = arith.truncf %v : f32 to " +
       t +
       "\n"
       "    %b = arith.bitcast %t : " +
       t + " to " + i +
       "\n"
       "    memref.store %b, %out[%k] : memref<?x" +
       i +
       ">\n"
       "  }\n  return\n}\n";
  s += "func.func @widen(%in: memref<?x" + i +
       ">, %out: memref<?xf32>) attributes {llvm.emit_c_interface} {\n"
       "  %c0 = arith.constant 0 : index\n"
       "  %c16 = arith.constant 16 : index\n"
       "  %n = memref.dim %in, %c0 : memref<?x" +
       i +
       ">\n"
       "  scf.for %k = %c0 to %n step %c16 {\n"
       "    %v = vector.load %in[%k] : memref<?x" +
       i + ">, vector<16x" + i +
       ">\n"
       "    %t = arith.bitcast %v : vector<16x" +
       i + "> to vector<16x" + t +
       ">\n"
       "    %w = lowp.cast %t : vector<16x" +
       t +
       "> to vector<16xf32>\n"
       "    vector.store %w, %out[%k] : memref<?xf32>, vector<16xf32>\n"
       "  }\n  return\n}\n";
  return s;
}

class SoftFloatJit {
public:
  explicit SoftFloatJit(const FormatCase &f) {
    static bool initialized = [] {
      llvm::InitializeNativeTarget();
      llvm::InitializeNativeTargetAsmPrinter();
      registerAllPasses();
      lowp::registerLowpPassesAndPipelines();
      return true;
    }();
    (void)initialized;
    DialectRegistry registry;
    registerAllDialects(registry);
    registerAllExtensions(registry);
    lowp::registerLowpDialects(registry);
    registerBuiltinDialectTranslation(registry);
    registerLLVMDialectTranslation(registry);
    context.appendDialectRegistry(registry);

    module = parseSourceString<ModuleOp>(buildKernels(f), &context);
    if (!module)
      return;
    PassManager pm(&context);
    // The path a CPU without conversion instructions takes.
    if (failed(parsePassPipeline(
            "convert-lowp-to-linalg,"
            "lowp-expand-float-conversions{target=avx2},convert-scf-to-cf,"
            "convert-vector-to-llvm,convert-to-llvm,"
            "reconcile-unrealized-casts",
            pm)) ||
        failed(pm.run(*module))) {
      module = nullptr;
      return;
    }
    if (getenv("SOFTFLOAT_DUMP"))
      module->dump();
    // The generated IR must not leave a conversion to LLVM's lowering.
    module->walk([&](Operation *op) {
      if (op->getName().getStringRef().contains("fptrunc") ||
          op->getName().getStringRef().contains("fpext"))
        usesFloatConversion = true;
    });
    auto maybeEngine = ExecutionEngine::create(*module);
    if (!maybeEngine) {
      llvm::consumeError(maybeEngine.takeError());
      return;
    }
    engine = std::move(*maybeEngine);
  }

  bool ok() const { return engine != nullptr; }
  bool usesFloatConversion = false;

  template <typename In, typename Out>
  void call(const char *name, std::vector<In> &in, std::vector<Out> &out) {
    StridedMemRefType<In, 1> a{
        in.data(), in.data(), 0, {int64_t(in.size())}, {1}};
    StridedMemRefType<Out, 1> b{
        out.data(), out.data(), 0, {int64_t(out.size())}, {1}};
    auto fn = engine->lookup(std::string("_mlir_ciface_") + name);
    ASSERT_TRUE(static_cast<bool>(fn)) << name;
    reinterpret_cast<void (*)(StridedMemRefType<In, 1> *,
                              StridedMemRefType<Out, 1> *)> (*fn)(&a, &b);
  }

private:
  MLIRContext context{MLIRContext::Threading::DISABLED};
  OwningOpRef<ModuleOp> module;
  std::unique_ptr<ExecutionEngine> engine;
};

uint32_t toBits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}

/// APFloat's nearest-even conversion of the f32 pattern `u`.
uint64_t referenceNarrow(uint32_t u, const llvm::fltSemantics &sem,
                         bool saturate) {
  APFloat x(APFloat::IEEEsingle(), APInt(32, u));
  if (saturate && !x.isNaN()) {
    APFloat largest = APFloat::getLargest(sem);
    bool losesInfo;
    largest.convert(APFloat::IEEEsingle(), APFloat::rmNearestTiesToEven,
                    &losesInfo);
    APFloat negLargest = -largest;
    if (x.compare(largest) == APFloat::cmpGreaterThan)
      x = largest;
    if (x.compare(negLargest) == APFloat::cmpLessThan)
      x = negLargest;
  }
  bool losesInfo;
  x.convert(sem, APFloat::rmNearestTiesToEven, &losesInfo);
  return x.bitcastToAPInt().getZExtValue();
}

uint32_t referenceWiden(uint64_t bits, const llvm::fltSemantics &sem) {
  APFloat x(sem, APInt(APFloat::semanticsSizeInBits(sem), bits));
  bool losesInfo;
  x.convert(APFloat::IEEEsingle(), APFloat::rmNearestTiesToEven, &losesInfo);
  return x.bitcastToAPInt().getZExtValue();
}

/// Every sign and exponent, with mantissas at and around each rounding
/// boundary a narrow format can have (ties, ties +-1 ulp, lsb odd/even),
/// then random patterns. Padded to a multiple of 16 lanes.
std::vector<float> narrowingInputs() {
  std::vector<uint32_t> bits;
  for (uint32_t signExp = 0; signExp < 512; ++signExp)
    for (unsigned shift = 1; shift <= 23; ++shift) {
      uint32_t half = 1u << (shift - 1);
      for (uint32_t lsb : {0u, 1u, 3u})
        for (int32_t delta : {-1, 0, 1}) {
          uint32_t mant = ((lsb << shift) + half + delta) & 0x7FFFFFu;
          bits.push_back((signExp << 23) | mant);
        }
      bits.push_back((signExp << 23) | ((1u << shift) - 1));
      bits.push_back((signExp << 23) | (0x7FFFFFu & ~((1u << shift) - 1)));
    }
  std::mt19937 rng(12345);
  for (int k = 0; k < (1 << 20); ++k)
    bits.push_back(rng());
  while (bits.size() % 16)
    bits.push_back(0);
  std::vector<float> values(bits.size());
  std::memcpy(values.data(), bits.data(), bits.size() * 4);
  return values;
}

template <typename Int> void checkFormat(const FormatCase &f) {
  SoftFloatJit jit(f);
  ASSERT_TRUE(jit.ok()) << "failed to lower or JIT " << f.name;
  EXPECT_FALSE(jit.usesFloatConversion)
      << f.name << ": a float conversion was left to LLVM";
  const llvm::fltSemantics &sem = f.semantics();

  std::vector<float> in = narrowingInputs();
  for (const char *kernel : {"narrow", "narrow_sat", "narrow_scalar"}) {
    bool saturate = std::strcmp(kernel, "narrow_sat") == 0;
    std::vector<Int> out(in.size());
    jit.call(kernel, in, out);
    unsigned failures = 0;
    for (size_t k = 0; k < in.size() && failures < 10; ++k) {
      uint64_t expected = referenceNarrow(toBits(in[k]), sem, saturate);
      if (out[k] != expected) {
        ++failures;
        ADD_FAILURE() << f.name << " " << kernel << ": f32 0x" << std::hex
                      << toBits(in[k]) << " -> 0x" << uint64_t(out[k])
                      << ", APFloat 0x" << expected;
      }
    }
  }

  // Widening: every bit pattern.
  std::vector<Int> all(size_t(1) << (8 * sizeof(Int)));
  for (size_t k = 0; k < all.size(); ++k)
    all[k] = Int(k);
  std::vector<float> wide(all.size());
  jit.call("widen", all, wide);
  unsigned failures = 0;
  for (size_t k = 0; k < all.size() && failures < 10; ++k) {
    uint32_t expected = referenceWiden(k, sem);
    uint32_t got = toBits(wide[k]);
    // bf16 widens by a shift, which keeps a signalling NaN signalling;
    // APFloat quiets it. Everything else must match bit for bit.
    bool signallingBF16 = sizeof(Int) == 2 && &sem == &APFloat::BFloat() &&
                          (got & 0x7FC00000u) == 0x7F800000u &&
                          (got & 0x3FFFFFu) && (got | 0x400000u) == expected;
    if (got != expected && !signallingBF16) {
      ++failures;
      ADD_FAILURE() << f.name << " widen: 0x" << std::hex << k << " -> 0x"
                    << toBits(wide[k]) << ", APFloat 0x" << expected;
    }
  }
}

TEST(SoftFloatConversions, F8E4M3FN) { checkFormat<uint8_t>(kFormats[0]); }
TEST(SoftFloatConversions, F8E5M2) { checkFormat<uint8_t>(kFormats[1]); }
TEST(SoftFloatConversions, F8E4M3FNUZ) { checkFormat<uint8_t>(kFormats[2]); }
TEST(SoftFloatConversions, F8E5M2FNUZ) { checkFormat<uint8_t>(kFormats[3]); }
TEST(SoftFloatConversions, BF16) { checkFormat<uint16_t>(kFormats[4]); }

} // namespace
