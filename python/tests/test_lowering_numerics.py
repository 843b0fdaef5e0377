"""End to end: lower lowp.cast with fp-opt (through fpopt.run_pipeline),
execute it with mlir-runner, and compare every result bit for bit against
the independent numpy rounding of fpopt.numerics."""

import os
import subprocess

import numpy as np
import pytest

import fpopt
from fpopt.numerics import FORMATS, decode_all, round_to

LLVM_LIB = "/usr/lib/llvm-22/lib"
MLIR_RUNNER = "/usr/lib/llvm-22/bin/mlir-runner"

# The JIT recipe of the integration tests: plain loops, the bf16 and f8
# truncf/extf as exact integer code (LLVM has no instructions for f8).
LOWER_TO_LLVM = "lowp-pipeline-reference"

PROGRAM = """
func.func private @printMemrefI32(tensor<*xi32>)
func.func @main() {{
  %x = arith.constant dense<[{values}]> : tensor<{n}xf32>
  %c = lowp.cast %x {saturate}: tensor<{n}xf32> to tensor<{n}x{fmt}>
  %w = lowp.cast %c : tensor<{n}x{fmt}> to tensor<{n}xf32>
  %b = arith.bitcast %w : tensor<{n}xf32> to tensor<{n}xi32>
  %u = tensor.cast %b : tensor<{n}xi32> to tensor<*xi32>
  call @printMemrefI32(%u) : (tensor<*xi32>) -> ()
  return
}}
"""


def _inputs(fmt, rng):
    spec = FORMATS[fmt]
    lo = max(np.log2(spec.min_subnormal) - 2, -140)
    hi = min(np.log2(spec.max_finite) + 1, 127.5)
    x = np.exp2(rng.uniform(lo, hi, 200)) * rng.choice([-1.0, 1.0], 200)
    finite = np.abs(decode_all(fmt)) if spec.bits <= 8 else np.array([])
    finite = np.unique(finite[np.isfinite(finite)])
    ties = ((finite[1:] + finite[:-1]) / 2)[:64]
    x = np.concatenate([x, ties, [spec.max_finite * 1.5, 0.0, -0.0, np.inf]])
    with np.errstate(over="ignore"):  # bf16's 1.5 * max is inf in f32
        return x.astype(np.float32)


def _run(fmt, x, saturate):
    values = ", ".join("0x%08X" % b for b in x.view(np.uint32))
    ir = PROGRAM.format(values=values, n=x.size, fmt=fmt,
                        saturate="saturate " if saturate else "")
    llvm_ir = fpopt.run_pipeline(ir, LOWER_TO_LLVM)
    libs = ",".join(os.path.join(LLVM_LIB, lib) for lib in [
        "libmlir_c_runner_utils.so", "libmlir_runner_utils.so"])
    out = subprocess.run([MLIR_RUNNER, "-e", "main",
                          "-entry-point-result=void", "-shared-libs=" + libs],
                         input=llvm_ir, capture_output=True, text=True,
                         check=True, timeout=60).stdout
    data = out[out.index("data =") + len("data ="):]
    bits = [int(t) for t in data.replace("[", " ").replace("]", " ")
            .replace(",", " ").split()]
    return np.array(bits, dtype=np.int64).astype(np.uint32).view(np.float32)


@pytest.mark.parametrize("fmt,saturate", [
    ("bf16", False), ("f16", False), ("f8E4M3FN", False),
    ("f8E4M3FN", True), ("f8E5M2", False), ("f8E5M2", True),
    ("f8E4M3FNUZ", True),
])
def test_compiled_cast_matches_numpy_reference(fmt, saturate):
    rng = np.random.default_rng(abs(hash((fmt, saturate))) % 2**32)
    x = _inputs(fmt, rng)
    got = _run(fmt, x, saturate)
    expected = round_to(x, fmt, saturate=saturate)
    nan = np.isnan(expected)
    assert np.array_equal(np.isnan(got), nan), fmt
    mismatch = np.flatnonzero(got[~nan].view(np.uint32) !=
                              expected[~nan].view(np.uint32))
    assert mismatch.size == 0, [(x[~nan][i], got[~nan][i], expected[~nan][i])
                                for i in mismatch[:5]]
