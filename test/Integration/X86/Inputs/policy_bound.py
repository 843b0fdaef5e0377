"""Checks an FP8- (or bf16-) policy run of a model against its f32 run, with
a bound derived from the format's rounding error rather than picked by hand.

  policy_bound.py [--weight-scale=S] [--format=e4m3|bf16] MODEL F32_OUT LOW_OUT

MODEL is `matmul` (Inputs/matmul-f32.mlir), `mlp` (examples/models/mlp.mlir)
or `block` (Inputs/transformer-block/block-f32.mlir). --format=bf16 models a
bf16-policy run instead (unit roundoff 2^-8). The checker recomputes the model
in float64 numpy on the inputs scripts/x86-harness.py gives it (argument i,
element idx: ((i*7 + 1 + sum_k idx_k*(31 + 6k)) mod 61 - 30) / 30, times
S for i > 0 with the harness's --weight-scale S), and

 1. checks the f32 run against that reference (max rel. error <= 1e-4), which
    also shows the replica below is the model that ran;
 2. derives the bound by Monte Carlo on a rounding error model: every operand
    of every matmul (what lowp-auto-mixed-precision quantizes) is perturbed
    by an independent relative error uniform in +-u, u = 2^-4 (half of
    E4M3's eps 2^-3; per-tensor scaling keeps values in E4M3's normal
    range) or 2^-8 for bf16, as Inputs/fp8_mlp.py accumulates it in closed
    form; the rest of the model is exact. Over 32 trials the modelled error
    max|y~ - y| / max|y| ranges in [e_min, e_max]; the run must lie in
    (e_min / 8, 2 * e_max]: the factor 2 covers the actual rounding not
    being uniform, the 16-bit elementwise ops the FP8 policy also picks
    (bf16 unit roundoff 2^-8, 16x smaller than E4M3's), and softmax/exp
    nonlinearity; the lower bound shows the narrow format really ran.
With --exact=FMT (matmul only) it also replays the FP8 run itself with the
bit-layout model of test/Integration/Inputs/fp8_reference.py: both operands
quantized with the current-scaling scale fmax / amax (f32), the product of
the decoded values unscaled by 1 / (sa * sb); the run must match it to
1e-5 relative (f32 accumulation order), i.e. FP8 was emulated exactly.
Prints the numbers and PASS/FAIL.
"""
import os
import re
import sys

import numpy as np

# Unit roundoff (half of eps) of the matmul operand format.
UNIT_ROUNDOFF = {"e4m3": 2.0 ** -4, "bf16": 2.0 ** -8}


def harness_input(i, shape):
    idx = np.indices(shape)
    lin = i * 7 + 1 + sum(idx[k] * (31 + 6 * k) for k in range(len(shape)))
    value = ((lin % 61).astype(np.float64) - 30.0) / 30.0
    return value * WEIGHT_SCALE if i > 0 else value


def softmax_rows(s):
    e = np.exp(s - s.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def matmul(q):
    return q(harness_input(0, (50, 96))) @ q(harness_input(1, (96, 128)))


def mlp(q):
    x = harness_input(0, (8, 64))
    w1, b1 = harness_input(1, (64, 128)), harness_input(2, (128,))
    w2, b2 = harness_input(3, (128, 10)), harness_input(4, (10,))
    a = q(x) @ q(w1) + b1
    g = 0.5 * a * (1 + np.tanh(0.7978845608 * (a + 0.044715 * a ** 3)))
    z = np.maximum(q(g) @ q(w2) + b2, 0)
    return softmax_rows(z)


def block(q):
    S, D, H = 32, 64, 128
    x = harness_input(0, (S, D))
    wq, wk, wv, wo = (harness_input(i, (D, D)) for i in (1, 2, 3, 4))
    w1, w2 = harness_input(5, (D, H)), harness_input(6, (H, D))
    qx = q(x)  # x is quantized once and read by the three projections
    qq, kk, vv = qx @ q(wq), qx @ q(wk), qx @ q(wv)
    p = softmax_rows((q(qq) @ q(kk.T)) / 8.0)
    y = q(q(p) @ q(vv)) @ q(wo)
    y = y + x
    c = y - y.mean(axis=1, keepdims=True)
    n = c / np.sqrt((c * c).mean(axis=1, keepdims=True) + 1e-5)
    h = np.maximum(q(n) @ q(w1), 0)
    return q(h) @ q(w2) + y


def printed(path):
    text = open(path).read()
    data = text[text.index("data ="):]
    return np.array([float(v) for v in re.findall(
        r"-?\d+(?:\.\d+)?(?:e[-+]?\d+)?|nan|inf", data)])


def rel(a, ref):
    return float(np.max(np.abs(a - ref)) / np.max(np.abs(ref)))


def exact_fp8_matmul(fmt):
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(
        __file__)), "..", "..", "Inputs"))
    import fp8_reference

    def quantized(a):
        a = a.astype(np.float32)
        scale = np.float32(fp8_reference.max_finite(fmt)) / np.abs(a).max()
        decoded = {v: fp8_reference.decode(
            fmt, fp8_reference.quantize_bits(fmt, v * scale))
            for v in np.unique(a)}  # the harness has 61 distinct values
        return np.vectorize(decoded.get)(a).astype(np.float64), scale

    qa, sa = quantized(harness_input(0, (50, 96)))
    qb, sb = quantized(harness_input(1, (96, 128)))
    inv = np.float32(1) / (np.float32(sa) * np.float32(sb))
    return ((qa @ qb) * np.float64(inv)).ravel()


args = sys.argv[1:]
WEIGHT_SCALE = 1.0
U = UNIT_ROUNDOFF["e4m3"]
EXACT = None
while args[0].startswith("--"):
    option, value = args.pop(0)[2:].split("=")
    if option == "weight-scale":
        WEIGHT_SCALE = float(value)
    elif option == "exact":
        EXACT = value
    else:
        U = UNIT_ROUNDOFF[value]
model = {"matmul": matmul, "mlp": mlp, "block": block}[args[0]]
ref = model(lambda a: a).ravel()
f32, fp8 = printed(args[1]), printed(args[2])
assert f32.size == fp8.size == ref.size, "output sizes differ"
e32 = rel(f32, ref)
print(f"f32 run vs float64 reference: {e32:.3e} (<= 1e-4)")

rng = np.random.default_rng(7)
errs = [rel(model(lambda a: a * (1 + rng.uniform(-U, U, np.shape(a))))
            .ravel(), ref) for _ in range(32)]
lo, hi = min(errs) / 8, 2 * max(errs)
err = rel(fp8, f32)
print(f"rounding model error in [{min(errs):.3e}, {max(errs):.3e}]")
ok = e32 <= 1e-4 and lo < err <= hi
if EXACT:
    eexact = rel(fp8, exact_fp8_matmul(EXACT))
    print(f"run vs exact {EXACT} emulation: {eexact:.3e} (<= 1e-5)")
    ok = ok and eexact <= 1e-5
print(f"low-precision policy vs f32: {err:.3e} in ({lo:.3e}, {hi:.3e}]: "
      f"{'PASS' if ok else 'FAIL'}")
sys.exit(0 if ok else 1)
