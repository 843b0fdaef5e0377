//===- PrecisionAnalysisTest.cpp - precision classes and the report -------===//

#include "lowp/Analysis/PrecisionClassModels.h"
#include "lowp/Analysis/PrecisionReport.h"
#include "lowp/IR/LowpDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/JSON.h"

#include "gtest/gtest.h"

using namespace mlir;
using namespace mlir::lowp;

namespace {
class PrecisionClassTest : public ::testing::Test {
protected:
  PrecisionClassTest() {
    DialectRegistry registry;
    registry.insert<arith::ArithDialect, func::FuncDialect,
                    linalg::LinalgDialect, math::MathDialect,
                    tensor::TensorDialect, LowpDialect>();
    registerPrecisionClassModels(registry);
    context.appendDialectRegistry(registry);
    context.loadAllAvailableDialects();
  }

  /// The class of the first op named `opName` in `source`, for `low`.
  PrecisionClass classify(StringRef source, StringRef opName, FloatType low) {
    module = parseSourceString<ModuleOp>(source, &context);
    EXPECT_TRUE(module);
    Operation *found = nullptr;
    module->walk([&](Operation *op) {
      if (!found && op->getName().getStringRef() == opName)
        found = op;
    });
    EXPECT_NE(found, nullptr);
    auto classified = dyn_cast<PrecisionClassOpInterface>(found);
    EXPECT_TRUE(classified);
    return classified.getPrecisionClass(low);
  }

  MLIRContext context;
  OwningOpRef<ModuleOp> module;
};

constexpr StringLiteral kRowSum = R"mlir(
func.func @f(%x: tensor<4x8xf32>, %i: tensor<4xf32>) -> tensor<4xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>,
                                        affine_map<(d0, d1) -> (d0)>],
                       iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4x8xf32>) outs(%i : tensor<4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.addf %a, %o : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}
)mlir";

TEST_F(PrecisionClassTest, SumsDependOnTheFormatsRange) {
  Builder b(&context);
  EXPECT_EQ(classify(kRowSum, "linalg.generic", b.getF16Type()),
            PrecisionClass::Sensitive);
  EXPECT_EQ(classify(kRowSum, "linalg.generic", b.getBF16Type()),
            PrecisionClass::Follow);
  EXPECT_TRUE(hasF32ExponentRange(b.getBF16Type()));
  EXPECT_FALSE(hasF32ExponentRange(b.getF16Type()));
  EXPECT_FALSE(hasF32ExponentRange(b.getType<Float8E4M3FNType>()));
}

TEST_F(PrecisionClassTest, NamedOpsByWhatTheyCompute) {
  Builder b(&context);
  FloatType bf16 = b.getBF16Type();
  constexpr StringLiteral source = R"mlir(
func.func @f(%a: tensor<4x8xf32>, %b: tensor<8x4xf32>, %c: tensor<4x4xf32>,
             %img: tensor<1x2x8x8xf32>, %win: tensor<2x2xf32>,
             %pool: tensor<1x2x4x4xf32>) {
  %m = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x4xf32>)
                     outs(%c : tensor<4x4xf32>) -> tensor<4x4xf32>
  %p = linalg.pooling_nchw_max {dilations = dense<1> : vector<2xi64>,
                                strides = dense<2> : vector<2xi64>}
      ins(%img, %win : tensor<1x2x8x8xf32>, tensor<2x2xf32>)
      outs(%pool : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %e = linalg.exp ins(%c : tensor<4x4xf32>) outs(%c : tensor<4x4xf32>) -> tensor<4x4xf32>
  %t = linalg.transpose ins(%a : tensor<4x8xf32>) outs(%b : tensor<8x4xf32>) permutation = [1, 0]
  %s = linalg.add ins(%c, %c : tensor<4x4xf32>, tensor<4x4xf32>) outs(%c : tensor<4x4xf32>) -> tensor<4x4xf32>
  return
}
)mlir";
  EXPECT_EQ(classify(source, "linalg.matmul", bf16), PrecisionClass::Matrix);
  // Pooling has the convolution's structure but no multiply: max is exact.
  EXPECT_EQ(classify(source, "linalg.pooling_nchw_max", bf16),
            PrecisionClass::Transparent);
  EXPECT_EQ(classify(source, "linalg.exp", bf16), PrecisionClass::Sensitive);
  EXPECT_EQ(classify(source, "linalg.transpose", bf16),
            PrecisionClass::Transparent);
  EXPECT_EQ(classify(source, "linalg.add", bf16), PrecisionClass::Follow);
  EXPECT_EQ(classify(source, "func.return", bf16),
            PrecisionClass::Transparent);
}

TEST(PrecisionReportTest, JsonCarriesCountsBytesAndReasons) {
  PrecisionReport report;
  report.lowFormat = "bf16";
  report.accumulate = "f32";
  report.target = "sm_90";
  report.castsInserted = 3;
  report.bytesBefore = {100, 40, 400, 0};
  report.bytesAfter = {100, 40, 200, 50};
  report.decisions.push_back({"linalg.matmul", "m.mlir:1:1", "bf16", "matrix",
                              "matrix class", false});
  report.decisions.push_back({"linalg.matmul", "m.mlir:2:1", "bf16", "matrix",
                              "matrix class", false});
  report.decisions.push_back({"linalg.softmax", "m.mlir:3:1", "f32",
                              "sensitive", "sensitive class", true});
  auto counts = report.countByKind();
  EXPECT_EQ(counts["linalg.matmul"]["bf16"], 2u);
  EXPECT_EQ(counts["linalg.softmax"]["f32"], 1u);

  std::string text;
  llvm::raw_string_ostream os(text);
  report.writeJson(os);
  llvm::Expected<llvm::json::Value> parsed = llvm::json::parse(text);
  ASSERT_TRUE(bool(parsed));
  llvm::json::Object *root = parsed->getAsObject();
  ASSERT_NE(root, nullptr);
  EXPECT_EQ(root->getInteger("casts_inserted"), 3);
  EXPECT_EQ(root->getObject("bytes_after")->getInteger("total"), 390);
  EXPECT_EQ(root->getObject("counts")
                ->getObject("linalg.matmul")
                ->getInteger("bf16"),
            2);
  llvm::json::Array *kept = root->getArray("kept_wide");
  ASSERT_EQ(kept->size(), 1u);
  EXPECT_EQ(*(*kept)[0].getAsObject()->getString("reason"), "sensitive class");
  EXPECT_EQ(root->getArray("decisions")->size(), 3u);
}
} // namespace
