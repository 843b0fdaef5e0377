"""Checks the printed output of the FP32-island execution tests.

Usage: check_islands.py MODEL MODE < runner-output
  MODEL: attention | layernorm   (the inputs below are the ones the .mlir
                                  tests build; the reference is the f32
                                  program: float64 for attention, whose
                                  f32 evaluation is exact up to the softmax,
                                  an f32 emulation for the layer norm)
  MODE:  islands     output finite and within the f16-derived bound
         no-islands  output has inf or NaN
Exits non-zero with a message when the assertion fails.
"""
import re
import sys

import numpy as np

# Unit roundoff of f16: one rounding of a value to f16 errs by at most this
# relative amount.
U16 = float(np.finfo(np.float16).eps) / 2
U32 = float(np.finfo(np.float32).eps) / 2
# printMemrefF32 prints 6 significant digits.
PRINT_REL = 5e-6


def attention_inputs():
    seq, dim = 8, 16
    q = np.full((4, dim), 256.0)
    q[:, 0] = 256.0 - 0.25 * np.arange(4)
    kt = np.full((dim, seq), 16.0)
    kt[0, :] = 16.0 + np.arange(seq) / 64.0
    v = np.array([[(j - 3.5) * 0.5 + e * 0.25 for e in range(dim)]
                  for j in range(seq)])
    return q, kt, v


def attention():
    q, kt, v = attention_inputs()
    logits = q @ kt
    p = np.exp(logits - logits.max(axis=1, keepdims=True))
    p /= p.sum(axis=1, keepdims=True)
    ref = p @ v
    # p is rounded once to f16 on leaving the island (relative U16 each);
    # p.v accumulates in f32 over 8 terms; sum(p) = 1.
    bound = (U16 + 8 * U32) * np.abs(v).max()
    return ref, bound, logits


def layernorm_inputs():
    rows, cols = 4, 64
    x = np.empty((rows, cols))
    j = np.arange(cols)
    x[0] = 3.0                                  # variance exactly 0
    x[1] = 1.0 + ((j % 2) * 2 - 1) * 2.0**-14   # variance 2^-28
    x[2] = 100.0 + (j % 4) * 2.0**-9            # variance ~2^-17.3
    x[3] = (j - 31.5) / 8.0                     # an ordinary row
    return x


def layernorm():
    x = layernorm_inputs().astype(np.float32)
    # The f32 program, evaluated in the order its loops run: sequential
    # sums, then mean, centring, variance, eps and rsqrt, all rounded to f32.
    f32 = np.float32
    rows, cols = x.shape
    ref = np.empty_like(x)
    for r in range(rows):
        total = f32(0)
        for v in x[r]:
            total = f32(total + v)
        mean = f32(total / f32(cols))
        centred = (x[r] - mean).astype(np.float32)
        squares = f32(0)
        for c in centred:
            squares = f32(squares + f32(c * c))
        var = f32(f32(squares / f32(cols)) + f32(1e-12))
        ref[r] = centred * f32(1 / np.sqrt(np.float64(var)))
    # The island computes exactly this f32 program; on leaving it a value
    # may be rounded once to f16 (relative U16); libm's rsqrt may differ
    # from the correctly rounded one by a few f32 ulps.
    bound = np.abs(ref.astype(np.float64)) * (U16 + 4 * U32)
    return ref.astype(np.float64), bound, None


def parse(text):
    data = text.split("data =", 1)
    if len(data) != 2:
        sys.exit("no printed memref in the runner output:\n" + text)
    tokens = re.findall(r"-?nan|-?inf|[-+0-9.eE]+", data[1])
    return np.array([float(t) for t in tokens if t not in ("",)])


def main():
    model, mode = sys.argv[1], sys.argv[2]
    ref, bound, _ = {"attention": attention, "layernorm": layernorm}[model]()
    got = parse(sys.stdin.read())
    if got.size != ref.size:
        sys.exit(f"expected {ref.size} values, got {got.size}")
    got = got.reshape(ref.shape)
    finite = bool(np.isfinite(got).all())
    if mode == "no-islands":
        if finite:
            sys.exit(f"{model}: expected inf or NaN without islands, got "
                     f"finite output {got}")
        print(f"{model} no-islands: non-finite output as expected")
        return
    if not finite:
        sys.exit(f"{model}: non-finite output with islands: {got}")
    bound = np.broadcast_to(bound, ref.shape) + PRINT_REL * np.abs(ref)
    err = np.abs(got - ref)
    if (err > bound).any():
        i = np.unravel_index(np.argmax(err - bound), ref.shape)
        sys.exit(f"{model}: error {err[i]:.3g} at {i} exceeds bound "
                 f"{bound[i]:.3g} (got {got[i]}, reference {ref[i]})")
    print(f"{model} islands: finite, max error {err.max():.3g} <= "
          f"bound (max {bound.max():.3g})")


if __name__ == "__main__":
    main()
