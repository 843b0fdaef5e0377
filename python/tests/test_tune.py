"""fpopt.tune: the precision search driven by measured error, executed
through fp-opt's own x86 lowering and MLIR's JIT (mlir-runner)."""

import sys

import numpy as np
import pytest

import fpopt

# Three matrix ops. The first multiplies by weights of ~3e4, so its result
# (the second matmul's input) reaches ~1e5: beyond f16's 65504, a range
# only f32 holds; the second scales it back down.
MLP = """
func.func @mlp(%x: tensor<4x8xf32>, %w1: tensor<8x8xf32>, %w2: tensor<8x8xf32>,
               %w3: tensor<8x4xf32>) -> tensor<4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %h = linalg.matmul ins(%x, %w1 : tensor<4x8xf32>, tensor<8x8xf32>) outs(%f : tensor<4x8xf32>) -> tensor<4x8xf32>
  %g = linalg.matmul ins(%h, %w2 : tensor<4x8xf32>, tensor<8x8xf32>) outs(%f : tensor<4x8xf32>) -> tensor<4x8xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%g : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.maximumf %a, %zero : f32
    linalg.yield %m : f32
  } -> tensor<4x8xf32>
  %e3 = tensor.empty() : tensor<4x4xf32>
  %f3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<4x4xf32>) -> tensor<4x4xf32>
  %y = linalg.matmul ins(%r, %w3 : tensor<4x8xf32>, tensor<8x4xf32>) outs(%f3 : tensor<4x4xf32>) -> tensor<4x4xf32>
  return %y : tensor<4x4xf32>
}
"""


def _inputs(seed=0, scale1=3e4):
    rng = np.random.default_rng(seed)
    x = rng.uniform(0.5, 1.0, (4, 8))
    w1 = rng.uniform(0.5, 1.0, (8, 8)) * scale1
    w2 = rng.uniform(-1.0, 1.0, (8, 8)) / scale1
    w3 = rng.uniform(-1.0, 1.0, (8, 4))
    return [a.astype(np.float32) for a in (x, w1, w2, w3)]


def test_keeps_exactly_the_layer_that_needs_f32_range():
    # sm_75: f16 tensor cores, no bf16: the 16-bit format is f16.
    result = fpopt.tune(MLP, "sm_75", _inputs(), tolerance=2e-2)
    assert not result.all_f32
    # Matrix op #1 reads values beyond f16's range: only it stays f32.
    assert result.chosen.pinned == [1], result.table()
    assert result.chosen.error <= 2e-2
    # f16 saves 2 bytes per input element of ops #0 (4x8 + 8x8) and #2
    # (4x8 + 8x4).
    assert result.chosen.low_input_bytes == 2 * (96 + 64)
    assert len(result.matrix_ops) == 3
    # The all-f16 decision was tried and overflowed.
    first = result.candidates[0]
    assert first.pinned == [] and first.error == float("inf")
    # Every candidate is reported with its error and bytes.
    assert all(c.low_input_bytes >= 0 for c in result.candidates)
    assert result.pipeline == ("lowp-pin-matrix-ops{ops=1 precision=f32},"
                               "lowp-auto-mixed-precision{target=sm_75 "
                               "policy=auto}")
    # The decided module: matrix op #1 on f32 inputs, the others on f16.
    assert result.ir.count("tensor<4x8xf16>, tensor<8x8xf16>") == 1
    assert "lowp.precision = f32" in result.ir


def test_group_is_the_finest_unit_of_the_search():
    # Units of two consecutive matrix ops: [#0, #1] and [#2]. Op #1 needs
    # f32, so its whole unit stays f32 and #2 goes low.
    result = fpopt.tune(MLP, "sm_75", _inputs(), tolerance=2e-2, group=2)
    assert result.chosen.pinned == [0, 1], result.table()
    assert result.chosen.low_input_bytes == 2 * (32 + 32)
    with pytest.raises(fpopt.TuneError, match="group must be a positive"):
        fpopt.tune(MLP, "sm_75", _inputs(), tolerance=2e-2, group=0)


def test_everything_low_when_the_model_allows_it():
    result = fpopt.tune(MLP, "sm_75", _inputs(scale1=1.0), tolerance=2e-2)
    assert result.chosen.pinned == []
    assert len(result.candidates) == 1


def test_too_tight_tolerance_says_so():
    # 1e-9 is below any 16-bit rounding: nothing low fits, and the result
    # says the model stays f32 rather than answering it silently.
    result = fpopt.tune(MLP, "sm_75", _inputs(scale1=1.0), tolerance=1e-9)
    assert result.all_f32
    assert "stays f32" in result.summary
    assert all(not c.within_tolerance for c in result.candidates[:-1])


def test_tolerance_the_f32_model_cannot_meet():
    inputs = _inputs(scale1=1.0)
    x, w1, w2, w3 = [a.astype(np.float64) for a in inputs]
    exact = np.maximum(x @ w1 @ w2, 0) @ w3
    with pytest.raises(fpopt.TuneError, match="the f32 model itself has error"):
        fpopt.tune(MLP, "sm_75", inputs, tolerance=1e-12, expected=[exact])
    for bad in (0, -1.0, float("nan")):
        with pytest.raises(fpopt.TuneError, match="tolerance must be"):
            fpopt.tune(MLP, "sm_75", inputs, tolerance=bad)


def test_wrong_inputs_name_the_argument():
    inputs = _inputs()
    with pytest.raises(fpopt.TuneError,
                       match=r"input #1 of @mlp has shape \(8, 9\), the model "
                             r"expects \(8, 8\)"):
        fpopt.tune(MLP, "sm_75", [inputs[0], np.zeros((8, 9))] + inputs[2:],
                   tolerance=1e-2)
    with pytest.raises(fpopt.TuneError, match="takes 4 arguments, got 3"):
        fpopt.tune(MLP, "sm_75", inputs[:3], tolerance=1e-2)
    with pytest.raises(fpopt.TuneError, match="unknown target"):
        fpopt.tune(MLP, "sm_7", inputs, tolerance=1e-2)


def test_a_model_that_does_not_run():
    broken = MLP.replace("%y = linalg.matmul ins(%r, %w3",
                         "%y = linalg.matmul ins(%r, %w3x")
    with pytest.raises(fpopt.TuneError, match="does not parse"):
        fpopt.tune(broken, "sm_75", _inputs(), tolerance=1e-2)
    # Parses, but its f32 output is not finite on these inputs.
    overflow = _inputs(scale1=1e20)
    overflow[2] = overflow[2] * np.float32(1e40 / 1e20) * np.float32(1e20)
    with pytest.raises(fpopt.TuneError, match="NaN or inf"):
        fpopt.tune(MLP, "sm_75", overflow, tolerance=1e-2)


def test_command_line(tmp_path):
    import json
    import os
    import pathlib
    import subprocess
    import sys
    root = pathlib.Path(__file__).resolve().parents[2]
    model = tmp_path / "mlp.mlir"
    model.write_text(MLP)
    np.savez(tmp_path / "calib.npz", *_inputs())
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    p = subprocess.run(
        [sys.executable, str(root / "scripts" / "lowp-tune.py"), str(model),
         "--target", "sm_75", "--inputs", str(tmp_path / "calib.npz"),
         "--tolerance", "2e-2", "-o", str(tmp_path / "out.mlir"),
         "--report", str(tmp_path / "tune.json"), "--jobs", "2"],
        capture_output=True, text=True, env=env)
    assert p.returncode == 0, p.stderr
    report = json.loads((tmp_path / "tune.json").read_text())
    assert report["chosen"]["pinned"] == [1]
    assert report["chosen"]["pinned16"] == []
    assert len(report["candidates"]) >= 2
    assert "lowp.precision = f32" in (tmp_path / "out.mlir").read_text()
    # Bad input: exit 1 with the cause.
    np.savez(tmp_path / "bad.npz", *_inputs()[:3])
    p = subprocess.run(
        [sys.executable, str(root / "scripts" / "lowp-tune.py"), str(model),
         "--target", "sm_75", "--inputs", str(tmp_path / "bad.npz"),
         "--tolerance", "2e-2"], capture_output=True, text=True, env=env)
    assert p.returncode == 1
    assert "takes 4 arguments, got 3" in p.stderr


def test_lowerings_and_threads_agree():
    # The loop lowering (default) and the x86 kernels measure the same
    # decisions; one job and two find the same answer.
    loops = fpopt.tune(MLP, "sm_75", _inputs(), tolerance=2e-2, jobs=2)
    serial = fpopt.tune(MLP, "sm_75", _inputs(), tolerance=2e-2, jobs=1)
    x86 = fpopt.tune(MLP, "sm_75", _inputs(), tolerance=2e-2, lowering="x86")
    for r in (loops, serial, x86):
        assert r.chosen.pinned == [1], r.table()
        assert "lowering failed" not in r.summary
    assert sorted(map(tuple, (c.pinned for c in loops.candidates))) == \
        sorted(map(tuple, (c.pinned for c in serial.candidates)))
    # Summation order aside, the same numbers: f32 accumulation of the same
    # rounded inputs.
    assert abs(loops.chosen.error - x86.chosen.error) <= \
        1e-3 * max(loops.chosen.error, 1e-6)
    with pytest.raises(fpopt.TuneError, match="lowering must be"):
        fpopt.tune(MLP, "sm_75", _inputs(), tolerance=2e-2, lowering="gpu")
    with pytest.raises(fpopt.TuneError, match="jobs must be"):
        fpopt.tune(MLP, "sm_75", _inputs(), tolerance=2e-2, jobs=0)


GLOBAL_WEIGHT = """
module {
  ml_program.global private @w2(dense<0.5> : tensor<8x8xf32>) : tensor<8x8xf32>
  func.func @mlp(%x: tensor<4x8xf32>, %w1: tensor<8x8xf32>) -> tensor<4x8xf32> {
    %zero = arith.constant 0.0 : f32
    %w2 = ml_program.global_load_const @w2 : tensor<8x8xf32>
    %e = tensor.empty() : tensor<4x8xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
    %h = linalg.matmul ins(%x, %w1 : tensor<4x8xf32>, tensor<8x8xf32>) outs(%f : tensor<4x8xf32>) -> tensor<4x8xf32>
    %g = linalg.matmul ins(%h, %w2 : tensor<4x8xf32>, tensor<8x8xf32>) outs(%f : tensor<4x8xf32>) -> tensor<4x8xf32>
    return %g : tensor<4x8xf32>
  }
}
"""


def test_front_end_ir_runs_through_the_loop_lowering():
    # ml_program globals: lowp-pipeline-reference prepares front-end input
    # as lowp-pipeline-x86 does, so no fallback is needed.
    rng = np.random.default_rng(0)
    inputs = [rng.uniform(-1, 1, (4, 8)).astype(np.float32),
              rng.uniform(-1, 1, (8, 8)).astype(np.float32)]
    result = fpopt.tune(GLOBAL_WEIGHT, "sm_75", inputs, tolerance=2e-2)
    assert not result.all_f32
    assert "lowp-pipeline-x86" not in result.summary


def test_front_end_ir_the_loop_lowering_cannot_take_runs_on_x86(monkeypatch):
    # A loop lowering without input preparation (upstream's recipe) cannot
    # take ml_program globals: the search still runs, through
    # lowp-pipeline-x86, and says so.
    monkeypatch.setattr(sys.modules["fpopt.tune"], "LOOP_LOWERING", ",".join([
        "one-shot-bufferize{bufferize-function-boundaries}",
        "convert-linalg-to-loops", "convert-to-llvm"]))
    rng = np.random.default_rng(0)
    inputs = [rng.uniform(-1, 1, (4, 8)).astype(np.float32),
              rng.uniform(-1, 1, (8, 8)).astype(np.float32)]
    result = fpopt.tune(GLOBAL_WEIGHT, "sm_75", inputs, tolerance=2e-2)
    assert not result.all_f32
    assert "candidates ran through lowp-pipeline-x86" in result.summary
    assert "error:" in result.summary  # the loop lowering's own message


# Two branches summed: branch a carries the output, branch b a thousandth
# of it. FP8's rounding (~2-6% per element) is visible in a but not in b;
# bf16's (~0.4%) in neither.
TWO_BRANCHES = """
func.func @two_branches(%x: tensor<8x16xf32>, %wa: tensor<16x8xf32>,
                        %wb: tensor<16x8xf32>) -> tensor<8x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<8x8xf32>) -> tensor<8x8xf32>
  %a = linalg.matmul ins(%x, %wa : tensor<8x16xf32>, tensor<16x8xf32>) outs(%f : tensor<8x8xf32>) -> tensor<8x8xf32>
  %b = linalg.matmul ins(%x, %wb : tensor<8x16xf32>, tensor<16x8xf32>) outs(%f : tensor<8x8xf32>) -> tensor<8x8xf32>
  %y = linalg.add ins(%a, %b : tensor<8x8xf32>, tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) -> tensor<8x8xf32>
  return %y : tensor<8x8xf32>
}
"""


@pytest.mark.parametrize("seed", [0, 1])
def test_fp8_where_it_fits_bf16_where_it_does_not(seed):
    rng = np.random.default_rng(seed)
    x = rng.uniform(-1, 1, (8, 16))
    wa = rng.uniform(-1, 1, (16, 8))
    wb = rng.uniform(-1, 1, (16, 8)) * 1e-3
    inputs = [a.astype(np.float32) for a in (x, wa, wb)]
    result = fpopt.tune(TWO_BRANCHES, "sm_90", inputs, tolerance=5e-3)
    # FP8 everywhere fails (branch a), bf16 everywhere fits; the answer is
    # FP8 for branch b with branch a at bf16, not f32.
    assert result.chosen.policy == "fp8", result.table()
    assert result.chosen.pinned == [] and result.chosen.pinned16 == [0]
    # Bytes from the decided types: op #0's 256 input elements at bf16 (2
    # bytes saved each), op #1's at FP8 (3 each).
    assert result.chosen.low_input_bytes == 2 * 256 + 3 * 256
    assert "1 kept at bf16 instead of FP8" in result.summary
    assert "precision=bf16" in result.pipeline
    assert "tensor<8x16xf8E4M3FN>" in result.ir
    fp8_everywhere = [c for c in result.candidates
                      if c.policy == "fp8" and not c.pinned16]
    assert fp8_everywhere and not fp8_everywhere[0].within_tolerance
