"""fpopt.run_pipeline / fpopt.compile: parsing, pipelines, diagnostics."""

import concurrent.futures
import os

import pytest

import fpopt

# A dead lowp.cast and an upstream linalg op: canonicalize must remove the
# former and keep the latter, so the output proves the pipeline ran.
MODULE = """
func.func @f(%x: tensor<4xf32>, %init: tensor<4xf32>) -> tensor<4xbf16> {
  %dead = lowp.cast %x : tensor<4xf32> to tensor<4xf16>
  %sum = linalg.add ins(%x, %x : tensor<4xf32>, tensor<4xf32>)
                    outs(%init : tensor<4xf32>) -> tensor<4xf32>
  %0 = lowp.cast %sum : tensor<4xf32> to tensor<4xbf16>
  return %0 : tensor<4xbf16>
}
"""


def test_run_pipeline_canonicalize_removes_dead_cast():
    out = fpopt.run_pipeline(MODULE, "canonicalize")
    assert "tensor<4xf16>" not in out
    assert "linalg.add" in out
    assert "lowp.cast %0 : tensor<4xf32> to tensor<4xbf16>" in out


def test_run_pipeline_output_reparses():
    out = fpopt.run_pipeline(MODULE, "canonicalize")
    assert fpopt.run_pipeline(out, "canonicalize") == out


def test_anchored_and_nested_pipelines():
    anchored = fpopt.run_pipeline(
        MODULE, "builtin.module(func.func(canonicalize),cse)")
    plain = fpopt.run_pipeline(MODULE, "func.func(canonicalize),cse")
    assert anchored == plain
    assert "tensor<4xf16>" not in anchored


def test_multi_pass_pipeline_lowers_linalg():
    linalg_only = """
    func.func @g(%x: tensor<4xf32>, %init: tensor<4xf32>) -> tensor<4xf32> {
      %sum = linalg.add ins(%x, %x : tensor<4xf32>, tensor<4xf32>)
                        outs(%init : tensor<4xf32>) -> tensor<4xf32>
      return %sum : tensor<4xf32>
    }
    """
    out = fpopt.run_pipeline(
        linalg_only, "one-shot-bufferize{bufferize-function-boundaries},"
        "func.func(convert-linalg-to-loops)")
    assert "scf.for" in out and "linalg.add" not in out
    assert "memref<4xf32" in out


def test_compile_error_on_parse_error_is_located():
    with pytest.raises(fpopt.CompileError) as info:
        fpopt.run_pipeline("func.func @f() {\n  lowp.bogus\n}\n",
                           "canonicalize")
    err = info.value
    assert err.stage == "parse"
    assert len(err.diagnostics) == 1
    assert err.diagnostics[0].startswith("<input>:2:3: error: custom op "
                                         "'lowp.bogus' is unknown")
    assert "lowp.bogus" in str(err)


def test_compile_error_on_unknown_pass():
    with pytest.raises(fpopt.CompileError) as info:
        fpopt.run_pipeline(MODULE, "lowp-no-such-pass")
    err = info.value
    assert err.stage == "pipeline" and err.pipeline == "lowp-no-such-pass"
    assert "does not refer to a registered pass" in err.diagnostics[0]


def test_compile_error_on_bad_option():
    with pytest.raises(fpopt.CompileError) as info:
        fpopt.run_pipeline(MODULE, "canonicalize{no-such-option=1}")
    assert "no-such-option" in "".join(info.value.diagnostics)


def test_compile_error_when_a_pass_fails():
    # lowp.cast on tensors is lowered by fp-opt, never bufferized directly.
    with pytest.raises(fpopt.CompileError) as info:
        fpopt.run_pipeline(MODULE, "one-shot-bufferize",)
    text = "".join(info.value.diagnostics)
    assert "error: op was not bufferized" in text
    assert text.startswith("<input>:6:8: error")  # the live cast's location


def test_compile_returns_diagnostics_and_source_name():
    result = fpopt.compile(MODULE, "canonicalize", source_name="model.mlir")
    assert result.diagnostics == []
    with pytest.raises(fpopt.CompileError) as info:
        fpopt.compile("func.func @f(", "canonicalize", source_name="model.mlir")
    assert info.value.diagnostics[0].startswith("model.mlir:1:")


def test_module_level_target_attribute_round_trips():
    ir = ("module attributes {lowp.target = %s} {}" %
          fpopt.target_attr("gfx942"))
    assert '#lowp.target<"gfx942">' in fpopt.run_pipeline(ir, "canonicalize")


def test_concurrent_runs_are_independent():
    # run_pipeline releases the GIL and uses one context per call.
    with concurrent.futures.ThreadPoolExecutor(4) as pool:
        outs = list(pool.map(lambda _: fpopt.run_pipeline(MODULE, "cse"),
                             range(8)))
    assert len(set(outs)) == 1


MATMUL = """
func.func @mm(%a: tensor<4x8xf32>, %b: tensor<8x4xf32>,
              %c: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x4xf32>)
                     outs(%c : tensor<4x4xf32>) -> tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}
"""


def test_fp_opt_pipeline_with_options():
    out = fpopt.run_pipeline(MATMUL, "lowp-auto-mixed-precision{target=sm_90}")
    assert "tensor<4x8xbf16>, tensor<8x4xbf16>) outs(%arg2 : tensor<4x4xf32>)" \
        in out


def test_remarks_of_a_successful_run_are_returned():
    result = fpopt.compile(MATMUL, "lowp-auto-mixed-precision{target=avx2}")
    assert len(result.diagnostics) == 1
    assert "remark: target 'avx2' has no fast 16-bit matrix arithmetic" in \
        result.diagnostics[0]
    assert "bf16" not in result.ir


def test_error_reported_by_a_pass_that_carries_on_fails_the_run():
    # MLIR 22's affine vectorizer reports a strided view as an error and
    # leaves the loop scalar without failing; the run fails all the same.
    strided = """
    func.func @f(%in: memref<16x64xf32, strided<[192, 1]>>, %out: memref<16x64xf32>) {
      affine.for %i = 0 to 16 {
        affine.for %j = 0 to 64 {
          %v = affine.load %in[%i, %j] : memref<16x64xf32, strided<[192, 1]>>
          affine.store %v, %out[%i, %j] : memref<16x64xf32>
        }
      }
      return
    }
    """
    with pytest.raises(fpopt.CompileError) as info:
        fpopt.run_pipeline(strided, "func.func(affine-super-vectorize{virtual-vector-size=8})")
    assert "non-trivial layout map" in str(info.value)


# Two nn.Linear layers (torch-mlir's transposed weights), the second weight
# also read by an add: only the first is split out for prepacking.
LINEAR = """
func.func @forward(%x: tensor<4x64xf32>, %w1: tensor<32x64xf32>, %b: tensor<4x32xf32>,
                   %w2: tensor<32x32xf32>) -> tensor<4x32xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x32xf32>
  %t = linalg.transpose ins(%w1 : tensor<32x64xf32>) outs(%e : tensor<64x32xf32>) permutation = [1, 0]
  %h = linalg.matmul ins(%x, %t : tensor<4x64xf32>, tensor<64x32xf32>) outs(%b : tensor<4x32xf32>) -> tensor<4x32xf32>
  %e2 = tensor.empty() : tensor<32x32xf32>
  %w2b = linalg.add ins(%w2, %w2 : tensor<32x32xf32>, tensor<32x32xf32>) outs(%e2 : tensor<32x32xf32>) -> tensor<32x32xf32>
  %e3 = tensor.empty() : tensor<4x32xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e3 : tensor<4x32xf32>) -> tensor<4x32xf32>
  %y = linalg.matmul ins(%h, %w2b : tensor<4x32xf32>, tensor<32x32xf32>) outs(%f : tensor<4x32xf32>) -> tensor<4x32xf32>
  return %y : tensor<4x32xf32>
}
"""


def test_prepacked_arguments_from_the_remark():
    packed = fpopt.compile(LINEAR, "lowp-pipeline-x86{target=avx2 prepack=true}")
    assert packed.prepacked_arguments("forward") == [1]
    assert "llvm.func @forward_prepack" in packed.ir
    assert packed.prepacked_arguments("other") == []
    plain = fpopt.compile(LINEAR, "lowp-pipeline-x86{target=avx2}")
    assert plain.prepacked_arguments("forward") == []
    assert "forward_prepack" not in plain.ir


# Scalars by value among tensors (a training step's loss scale and
# good-step counter): arguments and results.
SCALARS = """
func.func @scaled(%x: tensor<5xf32>, %s: f32, %n: i64) -> (tensor<5xf32>, f32, i64) {
  %e = tensor.empty() : tensor<5xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>],
                       iterator_types = ["parallel"]} ins(%x : tensor<5xf32>) outs(%e : tensor<5xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.mulf %a, %s : f32
    linalg.yield %m : f32
  } -> tensor<5xf32>
  %half = arith.constant 0.5 : f32
  %s2 = arith.mulf %s, %half : f32
  %one = arith.constant 1 : i64
  %n1 = arith.addi %n, %one : i64
  return %y, %s2, %n1 : tensor<5xf32>, f32, i64
}
"""

SCALAR_RESULT = """
func.func @only(%s: f32) -> f32 {
  return %s : f32
}
"""


@pytest.mark.parametrize("lowering", ["x86", "reference"])
def test_compiled_function_takes_and_returns_scalars(lowering, tmp_path):
    import numpy as np
    fn = fpopt.compile(SCALARS, target="avx2", policy="f32", cache_dir=str(tmp_path),
                       lowering=lowering)
    assert [a.scalar for a in fn.arguments] == [False, True, True]
    assert str(fn.arguments[1]) == "f32" and str(fn.results[2]) == "i64"
    x = np.arange(5, dtype=np.float32) - 2.0
    # A value an int or float conversion would change must come back exact.
    y, s, n = fn(x, np.float32(3.25), 2**40 + 7)
    np.testing.assert_array_equal(y, x * np.float32(3.25))
    assert s.dtype == np.float32 and float(s) == 1.625
    assert n.dtype == np.int64 and int(n) == 2**40 + 8
    bound = fn.bind({1: np.float32(-2.0)})
    y2, s2, n2 = bound(x, 5)
    np.testing.assert_array_equal(y2, x * -2.0)
    assert float(s2) == -1.0 and int(n2) == 6


LARGE_RESULTS = """
func.func @f(%a: tensor<256x256xf32>, %b: tensor<8xf32>)
    -> (tensor<256x256xf32>, tensor<8xf32>, tensor<256x256xf32>) {
  %0 = arith.addf %a, %a : tensor<256x256xf32>
  %1 = arith.mulf %b, %b : tensor<8xf32>
  return %0, %1, %a : tensor<256x256xf32>, tensor<8xf32>, tensor<256x256xf32>
}
"""


def test_large_results_are_handed_over_without_a_copy(tmp_path):
    """A result of 64 KiB or more in a buffer of its own is returned as that
    buffer (no copy), writeable, and freed once no array refers to it: the
    resident set stays flat over 3,000 calls that each drop the previous
    results. Small results are copies; a returned argument is a buffer of
    the compiled code's, not the argument's memory."""
    import gc

    import numpy as np
    fn = fpopt.compile(LARGE_RESULTS, target="avx2", policy="f32", cache_dir=str(tmp_path))
    a = np.random.default_rng(0).random((256, 256), dtype=np.float32)
    b = np.arange(8, dtype=np.float32)
    big, small, same = fn(a, b)
    np.testing.assert_array_equal(big, a + a)
    np.testing.assert_array_equal(small, b * b)
    np.testing.assert_array_equal(same, a)
    assert big.base is not None and small.base is None
    # The compiled code returns a fresh copy of the argument it returns.
    assert not np.shares_memory(same, a)
    big[0, 0] = -1.0
    assert big[0, 0] == -1.0
    del big, small, same
    gc.collect()

    def resident_mib():
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20

    for _ in range(100):
        fn(a, b)
    before = resident_mib()
    for _ in range(3000):
        fn(a, b)
    assert resident_mib() - before < 4


def test_a_single_scalar_result_is_refused(tmp_path):
    with pytest.raises(fpopt.runtime.CallError, match="returns one scalar"):
        fpopt.compile(SCALAR_RESULT, target="avx2", policy="f32", cache_dir=str(tmp_path))


def test_lower_to_bitcode_is_the_translated_text(tmp_path):
    """lower_to_bitcode gives the module mlir-translate makes of the printed
    lowering: the same LLVM IR once disassembled, and a shared object that
    computes what the text path's does."""
    import subprocess
    import numpy as np
    from fpopt import runtime
    pipeline = "builtin.module(func.func(llvm-request-c-wrappers),lowp-pipeline-x86{target=avx2 prepack=true})"
    lowered = fpopt.lower_to_bitcode(LINEAR, pipeline)
    assert lowered.bitcode[:4] == b"BC\xc0\xde"
    assert lowered.prepacked_arguments("forward") == [1]
    assert {"forward", "forward_prepack", "_mlir_ciface_forward", "malloc"} <= set(lowered.functions)
    assert lowered.functions["_mlir_ciface_forward"].startswith("!llvm.func<void (ptr, ")
    assert runtime._llvm_function_result(lowered.functions["forward_prepack"]) == \
        "struct<(ptr, ptr, i64, array<3 x i64>, array<3 x i64>)>"
    text = fpopt.compile(LINEAR, pipeline).ir
    tool = lambda name: os.path.join(runtime.LLVM_BIN, name)  # noqa: E731
    (tmp_path / "m.mlir").write_text(text)
    (tmp_path / "m.bc").write_bytes(lowered.bitcode)
    subprocess.run([tool("mlir-translate"), "--mlir-to-llvmir", str(tmp_path / "m.mlir"),
                    "-o", str(tmp_path / "text.ll")], check=True)
    subprocess.run([tool("llvm-dis"), str(tmp_path / "m.bc"), "-o", str(tmp_path / "bc.ll")],
                   check=True)
    # The same instructions; the order of the "; preds" comments (use
    # lists) may differ through bitcode.
    body = lambda p: [line.split("; preds")[0].rstrip()  # noqa: E731
                      for line in p.read_text().splitlines()
                      if not line.startswith(("; ModuleID", "source_filename"))]
    assert body(tmp_path / "bc.ll") == body(tmp_path / "text.ll")

    rng = np.random.default_rng(0)
    x = rng.standard_normal((4, 64)).astype(np.float32)
    w1 = rng.standard_normal((32, 64)).astype(np.float32)
    b = rng.standard_normal((4, 32)).astype(np.float32)
    w2 = rng.standard_normal((32, 32)).astype(np.float32)
    fn = fpopt.compile(LINEAR, target="avx2", policy="f32", prepack=True,
                       cache_dir=str(tmp_path / "cache"))
    assert fn.prepacked == [1] and fn.prepacked_ranks == [3]
    y = fn.bind({1: w1})(x, b, w2)
    reference = (x.astype(np.float64) @ w1.T + b) @ (2.0 * w2)
    np.testing.assert_allclose(y, reference, rtol=1e-5, atol=1e-4)
    # The module's text is there on demand (lowered again).
    assert "llvm.func @forward_prepack" in fn.ir


def test_lower_to_bitcode_errors_name_the_stage():
    with pytest.raises(fpopt.CompileError) as bad_translation:
        fpopt.lower_to_bitcode(MODULE, "canonicalize")
    assert bad_translation.value.stage == "translate"
    assert "translating the result of pipeline 'canonicalize' to LLVM IR" in \
        str(bad_translation.value)
    assert any("cannot be converted to LLVM IR" in d for d in bad_translation.value.diagnostics)
    with pytest.raises(fpopt.CompileError) as bad_pipeline:
        fpopt.lower_to_bitcode(MODULE, "lowp-no-such-pass")
    assert bad_pipeline.value.stage == "pipeline"
    with pytest.raises(fpopt.CompileError) as bad_parse:
        fpopt.lower_to_bitcode("func.func @h() {\n  lowp.bogus\n}\n", "canonicalize")
    assert bad_parse.value.stage == "parse"


@pytest.mark.parametrize("lowering", ["x86", "reference"])
def test_compiled_function_leaves_its_arguments_unchanged(lowering, tmp_path):
    """LINEAR's first matmul accumulates onto its argument %b (outs(%b)):
    the compiled code writes a copy (lowp-read-only-arguments), so the
    caller's array is unchanged and every call computes the same thing."""
    import numpy as np
    rng = np.random.default_rng(1)
    x = rng.standard_normal((4, 64)).astype(np.float32)
    w1 = rng.standard_normal((32, 64)).astype(np.float32)
    b = rng.standard_normal((4, 32)).astype(np.float32)
    w2 = rng.standard_normal((32, 32)).astype(np.float32)
    inputs = [a.copy() for a in (x, w1, b, w2)]
    fn = fpopt.compile(LINEAR, target="avx2", policy="f32", cache_dir=str(tmp_path),
                       lowering=lowering)
    reference = (x.astype(np.float64) @ w1.T + b) @ (2.0 * w2)
    for _ in range(3):
        np.testing.assert_allclose(fn(x, w1, b, w2), reference, rtol=1e-5, atol=1e-4)
    for before, after in zip(inputs, (x, w1, b, w2)):
        np.testing.assert_array_equal(before, after)


# Translates, but LLVM's verifier rejects it: a call between functions with
# debug info whose location has no line.
UNVERIFIABLE_LLVM = '''
#file = #llvm.di_file<"model.py" in "/src">
#cu = #llvm.di_compile_unit<id = distinct[0]<>, sourceLanguage = DW_LANG_C, file = #file, isOptimized = true, emissionKind = LineTablesOnly>
#g = #llvm.di_subprogram<id = distinct[1]<>, compileUnit = #cu, scope = #file, name = "g", file = #file, subprogramFlags = Definition>
#f = #llvm.di_subprogram<id = distinct[2]<>, compileUnit = #cu, scope = #file, name = "f", file = #file, subprogramFlags = Definition>
module {
  llvm.func @g() {
    llvm.return
  } loc(fused<#g>["model.py":1:1])
  llvm.func @f() {
    llvm.call @g() : () -> () loc("layer1")
    llvm.return
  } loc(fused<#f>["model.py":2:1])
} loc("model.py":0:0)
'''


def test_lower_to_bitcode_reports_what_llvm_verification_finds():
    with pytest.raises(fpopt.CompileError) as failed:
        fpopt.lower_to_bitcode(UNVERIFIABLE_LLVM, "canonicalize")
    assert failed.value.stage == "translate"
    [diagnostic] = failed.value.diagnostics
    assert diagnostic.startswith("model.py:0:0: error: the module translated to LLVM IR "
                                 "does not verify:")
    assert "inlinable function call in a function with debug info must have a !dbg location" \
        in diagnostic


def test_line_tables_name_lines_of_the_decided_module(tmp_path):
    """line_tables=True: the decided module, printed without locations, is
    in the build cache, and the object's line tables point at its lines
    (the matmul kernels' instructions at the matmul's line); the code
    computes what the build without line tables does."""
    import subprocess
    import numpy as np
    from fpopt import runtime
    rng = np.random.default_rng(2)
    args = [rng.standard_normal(s).astype(np.float32)
            for s in ((4, 64), (32, 64), (4, 32), (32, 32))]
    plain = fpopt.compile(LINEAR, target="avx2", policy="f32", cache_dir=str(tmp_path))
    lined = fpopt.compile(LINEAR, target="avx2", policy="f32", cache_dir=str(tmp_path),
                          line_tables=True)
    assert plain.line_table_source is None
    source = lined.line_table_source
    assert os.path.dirname(source) == str(tmp_path) and source.endswith(".decided.mlir")
    text = open(source).read().splitlines()
    matmul_lines = {i + 1 for i, line in enumerate(text) if "linalg.matmul" in line}
    assert len(matmul_lines) == 2 and "loc(" not in "\n".join(text)
    table = subprocess.run([os.path.join(runtime.LLVM_BIN, "llvm-dwarfdump"), "--debug-line",
                            lined.so_path], capture_output=True, text=True, check=True).stdout
    assert os.path.basename(source) in table
    rows = [int(r.split()[1]) for r in table.splitlines() if r.startswith("0x0")]
    assert matmul_lines <= set(rows)
    none = subprocess.run([os.path.join(runtime.LLVM_BIN, "llvm-dwarfdump"), "--debug-line",
                           plain.so_path], capture_output=True, text=True, check=True).stdout
    assert ".decided.mlir" not in none
    np.testing.assert_array_equal(lined(*args), plain(*args))
