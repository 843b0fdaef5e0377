"""Checks an FP8-policy run of a model against its f32 run, with a bound
derived from E4M3's rounding error rather than picked by hand.

  fp8_policy_bound.py [--weight-scale=S] MODEL F32_OUT FP8_OUT

MODEL is `mlp` (examples/models/mlp.mlir) or `block`
(Inputs/transformer-block/block-f32.mlir). The checker recomputes the model
in float64 numpy on the inputs scripts/x86-harness.py gives it (argument i,
element idx: ((i*7 + 1 + sum_k idx_k*(31 + 6k)) mod 61 - 30) / 30, times
S for i > 0 with the harness's --weight-scale S), and

 1. checks the f32 run against that reference (max rel. error <= 1e-4), which
    also shows the replica below is the model that ran;
 2. derives the bound by Monte Carlo on the E4M3 error model: every operand
    of every matmul (what lowp-auto-mixed-precision quantizes) is perturbed
    by an independent relative error uniform in +-2^-4 (half of E4M3's eps
    2^-3; per-tensor scaling keeps values in E4M3's normal range), as
    Inputs/fp8_mlp.py accumulates it in closed form; the rest of the model is
    exact. Over 32 trials the modelled error max|y~ - y| / max|y| ranges in
    [e_min, e_max]; the run must lie in (e_min / 8, 2 * e_max]: the factor 2
    covers the actual rounding not being uniform, the 16-bit elementwise ops
    the policy also picks (bf16 unit roundoff 2^-9, 16x smaller), and
    softmax/exp nonlinearity; the lower bound shows FP8 really ran.
Prints the numbers and PASS/FAIL.
"""
import re
import sys

import numpy as np

U = 2.0 ** -4  # E4M3 unit roundoff (eps 2^-3)


def harness_input(i, shape):
    idx = np.indices(shape)
    lin = i * 7 + 1 + sum(idx[k] * (31 + 6 * k) for k in range(len(shape)))
    value = ((lin % 61).astype(np.float64) - 30.0) / 30.0
    return value * WEIGHT_SCALE if i > 0 else value


def softmax_rows(s):
    e = np.exp(s - s.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


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


args = sys.argv[1:]
WEIGHT_SCALE = 1.0
if args[0].startswith("--weight-scale="):
    WEIGHT_SCALE = float(args.pop(0).split("=")[1])
model = {"mlp": mlp, "block": block}[args[0]]
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
print(f"E4M3 model error in [{min(errs):.3e}, {max(errs):.3e}]")
ok = e32 <= 1e-4 and lo < err <= hi
print(f"fp8 policy vs f32: {err:.3e} in ({lo:.3e}, {hi:.3e}]: "
      f"{'PASS' if ok else 'FAIL'}")
sys.exit(0 if ok else 1)
