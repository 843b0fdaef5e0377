//===- FpOptModule.cpp - the fpopt._fpopt extension -----------------------===//
//
// A thin pybind11 layer over fp-opt's C API (lowp-c/*.h plus the upstream
// MLIR C API that libFpOptCAPI carries). It returns plain Python data; the
// `fpopt` package turns it into exceptions and dataclasses.
//
//===----------------------------------------------------------------------===//

#include "lowp-c/Attributes.h"
#include "lowp-c/Dialect.h"
#include "lowp-c/FP8Selection.h"
#include "lowp-c/Pipeline.h"
#include "lowp-c/Tables.h"
#include "lowp-c/Translate.h"

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Diagnostics.h"
#include "mlir-c/IR.h"
#include "mlir-c/RegisterEverything.h"

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <string>
#include <vector>

namespace py = pybind11;

namespace {

std::string toString(MlirStringRef ref) { return {ref.data, ref.length}; }

MlirStringRef toStringRef(const std::string &s) {
  return mlirStringRefCreate(s.data(), s.size());
}

/// Appends each diagnostic text handed over by the C API.
void collectDiagnostic(MlirStringRef text, void *userData) {
  static_cast<std::vector<std::string> *>(userData)->push_back(
      toString(text));
}

void appendText(MlirStringRef text, void *userData) {
  static_cast<std::string *>(userData)->append(text.data, text.length);
}

/// A context with every upstream dialect and extension plus lowp: users
/// bring IR from any front end. Owned for the duration of one call.
class Context {
public:
  Context() {
    MlirDialectRegistry registry = mlirDialectRegistryCreate();
    mlirRegisterAllDialects(registry);
    mlirLowpRegisterDialects(registry);
    ctx = mlirContextCreateWithRegistry(registry, /*threadingEnabled=*/true);
    mlirDialectRegistryDestroy(registry);
    handler = mlirContextAttachDiagnosticHandler(ctx, &Context::onDiagnostic,
                                                 this, nullptr);
  }
  ~Context() { mlirContextDestroy(ctx); }
  Context(const Context &) = delete;
  Context &operator=(const Context &) = delete;

  MlirContext get() const { return ctx; }

  /// Diagnostics emitted outside the C API's own handlers (attribute
  /// builders, type parsing): message only.
  std::vector<std::string> takeDiagnostics() { return std::move(diagnostics); }

  MlirType parseFloatType(const std::string &name) {
    MlirType type = mlirTypeParseGet(ctx, toStringRef(name));
    if (mlirTypeIsNull(type) || !mlirTypeIsAFloat(type))
      throw py::value_error("not an MLIR float type: '" + name + "'");
    return type;
  }

private:
  static MlirLogicalResult onDiagnostic(MlirDiagnostic diag, void *self) {
    std::string text;
    mlirDiagnosticPrint(diag, appendText, &text);
    static_cast<Context *>(self)->diagnostics.push_back(std::move(text));
    return mlirLogicalResultSuccess();
  }

  MlirContext ctx;
  MlirDiagnosticHandlerID handler;
  std::vector<std::string> diagnostics;
};

std::string printAttribute(MlirAttribute attr) {
  std::string text;
  mlirAttributePrint(attr, appendText, &text);
  return text;
}

std::string printType(MlirType type) {
  std::string text;
  mlirTypePrint(type, appendText, &text);
  return text;
}

/// Raises ValueError with the context's diagnostics when `attr` is null.
std::string checkedAttribute(Context &context, MlirAttribute attr,
                             const char *what) {
  if (mlirAttributeIsNull(attr)) {
    std::string message = std::string("invalid ") + what;
    for (const std::string &d : context.takeDiagnostics())
      message += ": " + d;
    throw py::value_error(message);
  }
  return printAttribute(attr);
}

/// The JSON signature of `function` (empty: the entry function) of the
/// module `ir`: returns (ok, json or error text).
py::tuple functionSignature(const std::string &ir,
                            const std::string &function) {
  std::vector<std::string> diagnostics;
  std::string json, error;
  bool ok = false;
  {
    py::gil_scoped_release release;
    Context context;
    MlirModule module =
        mlirLowpParseModule(context.get(), toStringRef(ir),
                            toStringRef("<signature>"), collectDiagnostic,
                            &diagnostics);
    if (mlirModuleIsNull(module)) {
      for (const std::string &d : diagnostics)
        error += d;
    } else {
      ok = mlirLogicalResultIsSuccess(mlirLowpDescribeFunctionSignature(
          module, toStringRef(function), appendText, &json, appendText,
          &error));
      mlirModuleDestroy(module);
    }
  }
  return py::make_tuple(ok, ok ? json : error);
}

/// One parse and pipeline run in `context`: the module (null when it did
/// not parse; the caller destroys it), whether both succeeded, and the stage
/// reached ("parse" or "pipeline").
struct PipelineRun {
  MlirModule module{nullptr};
  bool ok = false;
  std::string stage = "parse";
};

PipelineRun parseAndRun(Context &context, const std::string &ir,
                        const std::string &pipeline,
                        const std::string &sourceName,
                        std::vector<std::string> &diagnostics) {
  PipelineRun run;
  run.module =
      mlirLowpParseModule(context.get(), toStringRef(ir),
                          toStringRef(sourceName), collectDiagnostic,
                          &diagnostics);
  if (mlirModuleIsNull(run.module))
    return run;
  run.stage = "pipeline";
  run.ok = mlirLogicalResultIsSuccess(mlirLowpRunPipeline(
      run.module, toStringRef(pipeline), collectDiagnostic, &diagnostics));
  return run;
}

/// Parses, runs, prints. Returns (ok, stage, output, diagnostics) where stage
/// is "parse" or "pipeline" and output the printed module on success.
py::tuple runPipeline(const std::string &ir, const std::string &pipeline,
                      const std::string &sourceName) {
  std::vector<std::string> diagnostics;
  std::string output;
  PipelineRun run;
  {
    py::gil_scoped_release release;
    Context context;
    run = parseAndRun(context, ir, pipeline, sourceName, diagnostics);
    if (run.ok)
      mlirOperationPrint(mlirModuleGetOperation(run.module), appendText,
                         &output);
    if (!mlirModuleIsNull(run.module))
      mlirModuleDestroy(run.module);
  }
  return py::make_tuple(run.ok, run.stage, output, diagnostics);
}

/// The LLVM functions of a lowered module, name -> printed function type
/// (declarations included): what a caller learns from the module's text
/// when there is no text.
py::dict llvmFunctionTypes(MlirModule module) {
  py::dict types;
  MlirBlock body = mlirModuleGetBody(module);
  for (MlirOperation op = mlirBlockGetFirstOperation(body);
       !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op)) {
    if (toString(mlirIdentifierStr(mlirOperationGetName(op))) != "llvm.func")
      continue;
    MlirAttribute name = mlirOperationGetAttributeByName(
        op, mlirStringRefCreateFromCString("sym_name"));
    MlirAttribute type = mlirOperationGetAttributeByName(
        op, mlirStringRefCreateFromCString("function_type"));
    if (mlirAttributeIsNull(name) || mlirAttributeIsNull(type))
      continue;
    std::string text;
    mlirAttributePrint(type, appendText, &text);
    types[py::str(toString(mlirStringAttrGetValue(name)))] = text;
  }
  return types;
}

/// Parses, runs the pipeline (one that ends in the LLVM dialect) and
/// translates the result to LLVM bitcode, without printing it. Returns (ok,
/// stage, bitcode, diagnostics, functions): stage is "parse", "pipeline" or
/// "translate"; functions as llvmFunctionTypes.
py::tuple lowerToLLVMBitcode(const std::string &ir, const std::string &pipeline,
                             const std::string &sourceName) {
  std::vector<std::string> diagnostics;
  std::string bitcode;
  py::dict functions;
  PipelineRun run;
  {
    Context context;
    {
      py::gil_scoped_release release;
      run = parseAndRun(context, ir, pipeline, sourceName, diagnostics);
      if (run.ok) {
        run.stage = "translate";
        run.ok = mlirLogicalResultIsSuccess(mlirLowpTranslateModuleToLLVMBitcode(
            run.module, appendText, &bitcode, collectDiagnostic, &diagnostics));
      }
    }
    if (run.ok)
      functions = llvmFunctionTypes(run.module);
    if (!mlirModuleIsNull(run.module))
      mlirModuleDestroy(run.module);
  }
  return py::make_tuple(run.ok, run.stage, py::bytes(bitcode), diagnostics,
                        functions);
}

py::list floatFormats() {
  Context context;
  py::list rows;
  for (intptr_t i = 0, e = mlirLowpGetNumFloatFormats(context.get()); i < e;
       ++i) {
    MlirLowpFloatFormatInfo f;
    if (!mlirLowpGetFloatFormatInfo(
            mlirLowpGetFloatFormatType(context.get(), i), &f))
      continue;
    py::dict row;
    row["name"] = toString(f.name);
    row["bits"] = f.bits;
    row["exponent_bits"] = f.exponentBits;
    row["mantissa_bits"] = f.mantissaBits;
    row["has_sign"] = f.hasSign;
    row["max_finite"] = f.maxFinite;
    row["min_normal"] = f.minNormal;
    row["min_subnormal"] = f.minSubnormal;
    row["epsilon"] = f.epsilon;
    row["binades"] = f.binades;
    row["normal_binades"] = f.normalBinades;
    row["has_inf"] = f.hasInf;
    row["has_nan"] = f.hasNaN;
    row["has_negative_zero"] = f.hasNegativeZero;
    rows.append(row);
  }
  return rows;
}

py::list formatSet(uint32_t bits) {
  py::list names;
  for (int f = 0; f < MlirLowpFormatCount; ++f)
    if (bits & (1u << f))
      names.append(toString(mlirLowpFormatGetName(MlirLowpFormat(f))));
  return names;
}

py::list cpuFeatureSet(uint32_t bits) {
  py::list names;
  for (intptr_t f = 0, e = mlirLowpGetNumCPUFeatures(); f < e; ++f)
    if (bits & (1u << f))
      names.append(toString(mlirLowpCPUFeatureGetName(f)));
  return names;
}

/// (row name, use AMX) of the CPU row a host with these /proc/cpuinfo
/// flags and vendor_id runs, or None.
py::object selectHostCPU(const std::vector<std::string> &flags,
                         const std::string &vendorId) {
  std::vector<MlirStringRef> refs;
  for (const std::string &f : flags)
    refs.push_back(mlirStringRefCreate(f.data(), f.size()));
  bool amx = false;
  intptr_t pos = mlirLowpSelectHostCPU(
      refs.data(), refs.size(),
      mlirStringRefCreate(vendorId.data(), vendorId.size()), &amx);
  if (pos < 0)
    return py::none();
  return py::make_tuple(toString(mlirLowpGetTarget(pos).name), amx);
}

py::tuple tile(MlirLowpTileShape t) { return py::make_tuple(t.m, t.n, t.k); }

py::list targets() {
  py::list rows;
  for (intptr_t i = 0, e = mlirLowpGetNumTargets(); i < e; ++i) {
    MlirLowpTargetInfo t = mlirLowpGetTarget(i);
    py::dict row;
    row["name"] = toString(t.name);
    row["vendor"] = toString(t.vendor);
    row["matrix_formats"] = formatSet(t.matrixFormats);
    row["elementwise_formats"] = formatSet(t.elementwiseFormats);
    row["native_conversions"] = formatSet(t.nativeConversions);
    row["preferred16"] =
        t.preferred16 < 0
            ? py::object(py::none())
            : py::object(py::str(toString(
                  mlirLowpFormatGetName(MlirLowpFormat(t.preferred16)))));
    row["fp8_flavor"] = toString(t.fp8Flavor);
    row["tile16"] = tile(t.tile16);
    row["tile8"] = tile(t.tile8);
    row["vector_tile"] = py::make_tuple(t.vectorTileRows, t.vectorTileCols);
    row["llvm_cpu"] = toString(t.llvmCpu);
    row["llvm_features"] = toString(t.llvmFeatures);
    row["l2_bytes"] = t.l2Bytes;
    row["f32_k_block"] = t.f32KBlock;
    row["f32_fma_macs_per_cycle"] = t.f32FmaMacsPerCycle;
    row["bf16_dot_macs_per_cycle"] = t.bf16DotMacsPerCycle;
    row["cpu_features"] = cpuFeatureSet(t.cpuFeatures);
    row["amx_features"] = cpuFeatureSet(t.amxFeatures);
    row["host_vendor"] = toString(t.hostVendor);
    row["vector_bits"] = t.vectorBits;
    row["subgroup_size"] = t.subgroupSize;
    rows.append(row);
  }
  return rows;
}

py::array_t<double>
roundToFloatType(const std::string &typeName,
                 py::array_t<double, py::array::c_style | py::array::forcecast>
                     values) {
  Context context;
  MlirType type = context.parseFloatType(typeName);
  py::array_t<double> result(values.request().shape);
  const double *in = values.data();
  double *out = result.mutable_data();
  for (py::ssize_t i = 0, e = values.size(); i < e; ++i)
    out[i] = mlirLowpRoundToFloatType(type, in[i]);
  return result;
}

std::string targetAttr(const std::string &chip) {
  Context context;
  return checkedAttribute(
      context, mlirLowpTargetAttrGet(context.get(), toStringRef(chip)),
      "#lowp.target");
}

std::string policyAttr(const std::string &compute,
                       const std::string &accumulate,
                       const std::string &storage, int lossScale) {
  Context context;
  return checkedAttribute(
      context,
      mlirLowpPolicyAttrGet(context.get(), context.parseFloatType(compute),
                            context.parseFloatType(accumulate),
                            context.parseFloatType(storage),
                            MlirLowpLossScaleMode(lossScale)),
      "#lowp.policy");
}

std::string statsAttr(double amax, double min, int64_t samples) {
  Context context;
  return checkedAttribute(
      context, mlirLowpStatsAttrGet(context.get(), amax, min, samples),
      "#lowp.stats");
}

/// The FP8 decision for one tensor: (ok, format, scale or None,
/// binades needed, E4M3 binades, E5M2 binades, reason or error message).
py::tuple selectFP8Format(const std::string &chip, int role, bool hasStats,
                          double amax, double min, int recipe, unsigned margin,
                          bool allowBF16Fallback) {
  MlirLowpFP8Decision d;
  std::string message;
  bool ok = mlirLogicalResultIsSuccess(mlirLowpSelectFP8Format(
      toStringRef(chip), MlirLowpTensorRole(role), hasStats, amax, min,
      MlirLowpFP8Recipe(recipe), margin, allowBF16Fallback, &d, appendText,
      &message));
  if (!ok)
    return py::make_tuple(false, py::none(), py::none(), 0.0, 0.0, 0.0,
                          message);
  return py::make_tuple(
      true, toString(mlirLowpFormatGetName(d.format)),
      d.hasScale ? py::object(py::float_(d.scale)) : py::object(py::none()),
      d.binadesNeeded, d.binadesE4M3, d.binadesE5M2, message);
}

/// Parses a lowp attribute and returns its kind and parameters, read back
/// through the C getters.
py::dict describeAttr(const std::string &text) {
  Context context;
  MlirAttribute attr = mlirAttributeParseGet(context.get(), toStringRef(text));
  checkedAttribute(context, attr, "attribute");
  py::dict d;
  if (mlirAttributeIsALowpTarget(attr)) {
    d["kind"] = "target";
    d["chip"] = toString(mlirLowpTargetAttrGetChip(attr));
  } else if (mlirAttributeIsALowpPolicy(attr)) {
    d["kind"] = "policy";
    d["compute"] = printType(mlirLowpPolicyAttrGetCompute(attr));
    d["accumulate"] = printType(mlirLowpPolicyAttrGetAccumulate(attr));
    d["storage"] = printType(mlirLowpPolicyAttrGetStorage(attr));
    d["loss_scale"] = int(mlirLowpPolicyAttrGetLossScale(attr));
  } else if (mlirAttributeIsALowpStats(attr)) {
    d["kind"] = "stats";
    d["amax"] = mlirLowpStatsAttrGetAmax(attr);
    d["min"] = mlirLowpStatsAttrGetMin(attr);
    int64_t samples = mlirLowpStatsAttrGetSamples(attr);
    d["samples"] = samples < 0 ? py::object(py::none()) : py::int_(samples);
  } else {
    throw py::value_error("not a lowp attribute: " + text);
  }
  return d;
}

} // namespace

PYBIND11_MODULE(_fpopt, m) {
  m.doc() = "fp-opt C API bindings (use the `fpopt` package instead)";
  // Pass registration is global to the process: once, at import.
  mlirRegisterAllPasses();
  mlirLowpRegisterPassesAndPipelines();

  m.attr("version") = toString(mlirLowpGetVersion());
  m.def("run_pipeline", &runPipeline, py::arg("ir"), py::arg("pipeline"),
        py::arg("source_name"));
  m.def("lower_to_llvm_bitcode", &lowerToLLVMBitcode, py::arg("ir"),
        py::arg("pipeline"), py::arg("source_name"));
  m.def("function_signature", &functionSignature, py::arg("ir"),
        py::arg("function"));
  m.def("float_formats", &floatFormats);
  m.def("targets", &targets);
  m.def("select_host_cpu", &selectHostCPU, py::arg("flags"),
        py::arg("vendor_id"));
  m.def("round_to_float_type", &roundToFloatType, py::arg("type"),
        py::arg("values"));
  m.def("target_attr", &targetAttr, py::arg("chip"));
  m.def("policy_attr", &policyAttr, py::arg("compute"), py::arg("accumulate"),
        py::arg("storage"), py::arg("loss_scale"));
  m.def("stats_attr", &statsAttr, py::arg("amax"), py::arg("min"),
        py::arg("samples"));
  m.def("describe_attr", &describeAttr, py::arg("text"));
  m.def("select_fp8_format", &selectFP8Format, py::arg("chip"),
        py::arg("role"), py::arg("has_stats"), py::arg("amax"), py::arg("min"),
        py::arg("recipe"), py::arg("margin"), py::arg("allow_bf16_fallback"));
}
