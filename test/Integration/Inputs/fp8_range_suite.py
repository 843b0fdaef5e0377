"""The `range` recipe against fixed E4M3 and fixed E5M2 on synthetic tensors.

  fp8_range_suite.py FP_OPT WORKDIR

For each tensor of the suite: statistics as calibration defines them (amax,
and min = the 4th percentile of the non-zero |x|), fp-opt's
`lowp-select-fp8-formats{recipe=range}` decision (read from its JSON report),
and the quantization error of E4M3, E5M2 and the decision, computed with the
bit-layout model of fp8_reference.py (which the quantize-roundtrip test
checks bit-exact against fp-opt's CPU lowering). The error is the mean
relative error over the non-zero elements (a value flushed to zero costs 1),
so small values count as much as large ones. Prints a table and PASS when
the decision is never more than 10% worse than the better fixed format.
"""
import json
import os
import subprocess
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(__file__))
import fp8_reference as ref  # noqa: E402

N = 4096
PERCENTILE = 4.0
TOLERANCE = 1.10


def suite():
    rng = np.random.default_rng(2024)

    def signs():
        return rng.choice([-1.0, 1.0], N)

    normal = rng.normal(0, 1, N)
    sparse = np.where(rng.random(N) < 0.5, 0.0, rng.normal(0, 1, N))
    return {
        "normal": normal,
        "sparse_normal": sparse,
        "lognormal_s1": np.exp(rng.normal(0, 1, N)) * signs(),
        "lognormal_s2": np.exp(rng.normal(0, 2, N)) * signs(),
        # Near the E4M3/E5M2 boundary.
        "lognormal_s2.3": np.exp(rng.normal(0, 2.3, N)) * signs(),
        "lognormal_s2.6": np.exp(rng.normal(0, 2.6, N)) * signs(),
        "lognormal_s3": np.exp(rng.normal(0, 3, N)) * signs(),
        "grad_tiny": np.exp(rng.normal(-16, 2.5, N)) * signs(),
        "grad_wide": np.exp(rng.normal(-12, 4, N)) * signs(),
        "outliers_1e3": np.where(rng.random(N) < 0.001, 1e3, 1.0)
        * rng.normal(0, 1, N),
        "outliers_1e4": np.where(rng.random(N) < 0.01, 1e4, 1.0)
        * rng.normal(0, 1, N),
        "outliers_3e4_3pct": np.where(rng.random(N) < 0.03, 3e4, 1.0)
        * rng.normal(0, 1, N),
        "loguniform_40": 2.0 ** rng.uniform(-32, 8, N) * signs(),
    }


def quantize_dequantize(fmt, x, scale):
    """Vectorized fp8_reference.quantize_dequantize (saturating RNE)."""
    values, patterns = ref.positive_table(fmt)
    s = np.float32(scale)
    p = np.abs((x * s).astype(np.float32)).astype(np.float64)
    p = np.minimum(p, values[-1])
    i = np.clip(np.searchsorted(values, p), 1, len(values) - 1)
    lo, hi = values[i - 1], values[i]
    even_lo = np.array(patterns)[i - 1] % 2 == 0
    dl, dh = p - lo, hi - p
    q = np.where((dl < dh) | ((dl == dh) & even_lo), lo, hi)
    q = np.where(p == lo, lo, q)
    return (np.sign(x) * q).astype(np.float32) * (np.float32(1) / s)


def round_bf16(x):
    """Round-to-nearest-even f32 -> bf16 -> f32 on the bit pattern."""
    bits = x.astype(np.float32).view(np.uint32).astype(np.uint64)
    bits = (bits + 0x7FFF + ((bits >> 16) & 1)) & 0xFFFF0000
    return bits.astype(np.uint32).view(np.float32)


def mean_relative_error(x, q):
    nz = x != 0
    return float(np.mean(np.abs(q[nz] - x[nz]) / np.abs(x[nz])))


def static_scale(fmt, amax):
    """Transformer Engine's scale, from the format's bit layout."""
    return min(max(ref.max_finite(fmt) / amax, 2.0 ** -126), 2.0 ** 127)


def main(fp_opt, workdir):
    tensors = {k: v.astype(np.float32) for k, v in suite().items()}
    stats = {}
    funcs = []
    for name, x in tensors.items():
        a = np.abs(x[x != 0]).astype(np.float64)
        stats[name] = (float(a.max()), float(np.percentile(a, PERCENTILE)))
        funcs.append(
            "func.func @\"%s\"(%%x: tensor<%dx1xf32> {lowp.stats = "
            "#lowp.stats<amax = %.17g, min = %.17g>}, %%w: tensor<1x1xf32>,"
            " %%acc: tensor<%dx1xf32>) -> tensor<%dx1xf32> {\n"
            "  %%0 = linalg.matmul ins(%%x, %%w : tensor<%dx1xf32>, "
            "tensor<1x1xf32>) outs(%%acc : tensor<%dx1xf32>) -> "
            "tensor<%dx1xf32>\n  return %%0 : tensor<%dx1xf32>\n}\n" %
            ((name, N) + stats[name] + (N,) * 6))
    module = os.path.join(workdir, "suite.mlir")
    report = os.path.join(workdir, "suite.json")
    with open(module, "w") as f:
        f.write('module attributes {lowp.target = #lowp.target<"sm_90">} {\n'
                + "".join(funcs) + "}\n")
    subprocess.check_call([
        fp_opt, module, "-o", os.devnull,
        "--lowp-select-fp8-formats=recipe=range scaling=current "
        "report=%s" % report])
    with open(report) as f:
        decisions = {d["function"]: d for d in json.load(f)["decisions"]
                     if d.get("operand") == 0}

    print("| tensor | binades (amax/p%g) | E4M3 error | E5M2 error | range "
          "picks | range error | vs best |" % PERCENTILE)
    print("|---|---|---|---|---|---|---|")
    ok = True
    for name, x in tensors.items():
        amax, mn = stats[name]
        e4 = mean_relative_error(
            x, quantize_dequantize("f8E4M3FN", x,
                                   static_scale("f8E4M3FN", amax)))
        e5 = mean_relative_error(
            x, quantize_dequantize("f8E5M2", x, static_scale("f8E5M2", amax)))
        d = decisions[name]
        if d["format"] == "bf16":
            er = mean_relative_error(x, round_bf16(x))
        else:
            er = mean_relative_error(
                x, quantize_dequantize(d["format"], x, d["scale"]))
        ratio = er / min(e4, e5)
        ok &= ratio <= TOLERANCE
        print("| %s | %.1f | %.4f | %.4f | %s | %.4f | %.2fx |" %
              (name, np.log2(amax / mn), e4, e5, d["format"], er, ratio))
    print("PASS" if ok else "FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
