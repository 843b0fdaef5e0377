#!/usr/bin/env python3
"""Checks the numerics of a model after lowp-infer-precision.

Recomputes the model in f64 with numpy from the same deterministic inputs
(bench/gen_transformer.py's formula) and carries, for every value, a rigorous
first-order bound on its distance from that reference (running error
analysis). Every rounding adds u*|v| + eta, where u (unit roundoff,
epsilon/2) and eta (half the smallest subnormal) come from fp-opt's APFloat
format table; dot products and sums accumulated in a format with unit
roundoff u add gamma_n = n*u/(1-n*u) times the sum of magnitudes (Higham,
Accuracy and Stability of Numerical Algorithms, 3.1).

The bound holds for every colouring the precision classes allow: each
matrix, follow or transparent op may run in the low format (inputs rounded,
every operation rounded), matrix ops accumulate in f32, and the sensitive
ops (exp, rsqrt, the softmax division, and in f16 also the sums) run in f32.

  infer_precision_check.py --model mlp|transformer --format f32|bf16|f16
      --formats <fp-opt --print-format-table --json> --output <runner output>
  infer_precision_check.py --emit-mlp-main   (the MLIR @main of the MLP test)
"""
import argparse
import json
import math
import os
import re
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "..", "bench"))
import gen_transformer  # noqa: E402  (the input formula and shapes)


class Format:
    def __init__(self, entry):
        self.name = entry["name"]
        self.u = entry["epsilon"] / 2
        self.eta = entry["min_subnormal"] / 2


class Ctx:
    def __init__(self, low, f32, sums_low):
        self.L, self.F = low, f32
        # bf16 has f32's exponent range: sums may follow into it.
        self.R = low if sums_low else f32


def rnd(v, e, fmt):
    return e + fmt.u * (np.abs(v) + e) + fmt.eta


def gamma(n, u):
    assert n * u < 1
    return n * u / (1 - n * u)


def cast(x, fmt):
    v, e = x
    return v, rnd(v, e, fmt)


def const(c, fmt):
    c = np.float64(c)
    return c, fmt.u * abs(c)


def add(a, b, fmt):
    v = a[0] + b[0]
    return v, rnd(v, a[1] + b[1], fmt)


def sub(a, b, fmt):
    v = a[0] - b[0]
    return v, rnd(v, a[1] + b[1], fmt)


def mul(a, b, fmt):
    v = a[0] * b[0]
    e = np.abs(a[0]) * b[1] + np.abs(b[0]) * a[1] + a[1] * b[1]
    return v, rnd(v, e, fmt)


def div(a, b, fmt):
    v = a[0] / b[0]
    den = np.abs(b[0]) - b[1]
    assert np.all(den > 0)
    return v, rnd(v, (a[1] + np.abs(v) * b[1]) / den, fmt)


def libm(v, e, fmt, f32):
    # libm's f32 functions are within 2 ulp; the result is then rounded.
    return v, rnd(v, e + 4 * f32.u * np.abs(v), fmt)


def tanh(a, fmt, f32):
    return libm(np.tanh(a[0]), np.minimum(a[1], 2.0), fmt, f32)


def exp(a, fmt, f32):
    v = np.exp(a[0])
    return libm(v, v * np.expm1(a[1]), fmt, f32)


def rsqrt(a, fmt, f32):
    v = 1 / np.sqrt(a[0])
    lo = a[0] - a[1]
    assert np.all(lo > 0)
    return libm(v, 1 / np.sqrt(lo) - v, fmt, f32)


def matmul(ctx, a, b):
    """Low inputs, f32 accumulator."""
    a, b = cast(a, ctx.L), cast(b, ctx.L)
    k = a[0].shape[-1]
    v = a[0] @ b[0]
    e = (np.abs(a[0]) @ b[1] + a[1] @ np.abs(b[0]) + a[1] @ b[1] +
         gamma(k, ctx.F.u) * ((np.abs(a[0]) + a[1]) @ (np.abs(b[0]) + b[1])))
    return v, rnd(v, e, ctx.F)


def row_sum(ctx, x):
    x = cast(x, ctx.R)
    n = x[0].shape[-1]
    v = x[0].sum(-1)
    e = x[1].sum(-1) + gamma(n, ctx.R.u) * (np.abs(x[0]) + x[1]).sum(-1) + n * ctx.R.eta
    return v, e


def row_max(ctx, x):
    x = cast(x, ctx.L)
    return x[0].max(-1), x[1].max(-1)


def row(x):
    return x[0][:, None], x[1][:, None]


def gelu(ctx, a):
    L = ctx.L
    half, one = (0.5, 0.0), (1.0, 0.0)
    k, k3 = const(0.7978845608, L), const(0.044715, L)
    a2 = mul(a, a, L)
    a3 = mul(a2, a, L)
    t1 = add(a, mul(k3, a3, L), L)
    t3 = tanh(mul(k, t1, L), L, ctx.F)
    return mul(mul(half, a, L), add(one, t3, L), L)


def softmax(ctx, z):
    F = ctx.F
    m = row_max(ctx, z)
    ex = exp(sub(z, row(m), F), F, F)
    return div(ex, row(row_sum(ctx, ex)), F)


def layer_norm(ctx, x, g, b):
    L, F = ctx.L, ctx.F
    d = x[0].shape[-1]
    total = row_sum(ctx, x)
    mean = mul(cast(row(total), L), const(1.0 / d, L), L)
    ctr = sub(cast(x, L), mean, L)
    var = row_sum(ctx, mul(ctr, ctr, L))
    v = mul(row(var), const(1.0 / d, F), F)
    inv = rsqrt(add(v, const(1e-5, F), F), F, F)
    return add(mul(mul(ctr, inv, F), g, F), b, F)


def inputs(shape, seed, scale, f32):
    """The harness formula in f64, with the error of its f32 evaluation."""
    idx = np.indices(shape).astype(np.float64)
    t = seed / 10.0 + 0.37 * idx[0] + (0.71 * idx[1] if len(shape) == 2 else seed / 10.0)
    v = scale * np.sin(t)
    # f32 evaluation: t to within 4u|t|, sin within 2 ulp, the product 1 ulp.
    if f32 is None:
        return v, None
    e = scale * (4 * f32.u * (np.abs(t) + 1)) + 4 * f32.u * np.abs(v)
    return v, e


def mlp_model(ctx):
    F = ctx.F
    x = inputs((8, 64), 0, 1.0, F)
    w1 = inputs((64, 128), 1, 1 / 8, F)
    b1 = inputs((128,), 2, 0.5, F)
    w2 = inputs((128, 10), 3, 1 / math.sqrt(128), F)
    b2 = inputs((10,), 4, 0.5, F)
    L = ctx.L
    z1 = add(cast(matmul(ctx, x, w1), L), cast(b1, L), L)
    g1 = gelu(ctx, z1)
    z2 = add(cast(matmul(ctx, g1, w2), L), cast(b2, L), L)
    z2 = (np.maximum(z2[0], 0), z2[1])
    return softmax(ctx, z2)


def transformer_model(ctx, s, d, f):
    F, L = ctx.F, ctx.L
    x = inputs((s, d), 0, 1.0, F)
    seed = 1
    w = {}
    for name, shape in gen_transformer.weight_shapes(d, f):
        scale = 1.0 / math.sqrt(shape[0]) if len(shape) == 2 else 0.5
        w[name] = inputs(shape, seed, scale, F)
        seed += 1
    h = layer_norm(ctx, x, w["g1"], w["b1"])
    q, k, v = (matmul(ctx, h, w[n]) for n in ("wq", "wk", "wv"))
    kt = (k[0].T, k[1].T)
    scaled = mul(cast(matmul(ctx, q, kt), L), const(1.0 / math.sqrt(d), L), L)
    p = softmax(ctx, scaled)
    o = matmul(ctx, matmul(ctx, p, v), w["wo"])
    x1 = add(cast(x, L), cast(o, L), L)
    h2 = layer_norm(ctx, x1, w["g2"], w["b2"])
    f1 = gelu(ctx, add(cast(matmul(ctx, h2, w["w1"]), L), cast(w["c1"], L), L))
    f2 = add(cast(matmul(ctx, f1, w["w2"]), L), cast(w["c2"], L), L)
    return add(cast(x1, L), f2, L)


#===----------------------------------------------------------------------===#
# Emulation of a generated model with the pass's decisions
#===----------------------------------------------------------------------===#

def round_to(x, fmt):
    """Rounds f64 values to `fmt` as the lowered code does (via f32)."""
    x32 = np.asarray(x, dtype=np.float64).astype(np.float32)
    if fmt == "f32":
        return x32.astype(np.float64)
    if fmt == "f16":
        return x32.astype(np.float16).astype(np.float64)
    if fmt == "bf16":
        bits = np.atleast_1d(x32).view(np.uint32).astype(np.uint64)
        sixteen, one = np.uint64(16), np.uint64(1)
        rounded = ((bits + np.uint64(0x7FFF) + ((bits >> sixteen) & one)) >> sixteen) << sixteen
        rounded = rounded.reshape(np.shape(x32))
        out = rounded.astype(np.uint32).view(np.float32).astype(np.float64)
        return np.where(np.isfinite(x32), out, x32.astype(np.float64))
    raise ValueError(fmt)


BODY_OPS = {
    "arith.addf": lambda a, b: a + b, "arith.subf": lambda a, b: a - b,
    "arith.mulf": lambda a, b: a * b, "arith.divf": lambda a, b: a / b,
    "arith.maximumf": np.maximum, "math.exp": np.exp, "math.tanh": np.tanh,
    "math.rsqrt": lambda a: 1 / np.sqrt(a),
}


def run_body(body, args, fmt):
    """Evaluates a generated generic body; every result is rounded to fmt."""
    env = {f"%a{i}": a for i, a in enumerate(args)}
    for line in body:
        m = re.match(r"(%\w+) = ([\w.]+) (.*) : f32$", line)
        if not m:
            (result,) = re.match(r"linalg.yield (%\w+) : f32", line).groups()
            return env[result]
        name, opname, rest = m.groups()
        if opname == "arith.constant":
            env[name] = round_to(float(rest), fmt)
        else:
            ops = [env[o.strip()] for o in rest.split(",")]
            with np.errstate(over="ignore", invalid="ignore"):
                env[name] = round_to(BODY_OPS[opname](*ops), fmt)
    raise ValueError("body without yield")


def broadcast(value, amap, shape):
    if amap == "#row":
        return np.broadcast_to(value[:, None], shape)
    if amap == "#col":
        return np.broadcast_to(value[None, :], shape)
    return value


def emulate(ops, values, precision):
    """Evaluates the recorded ops; `precision` maps an op name to its format."""
    for op in ops:
        fmt = precision.get(op["name"][1:], "f32")
        # A low op reads its inputs cast to the low format.
        ins = [round_to(values[v], fmt) for v in op.get("ins", [])]
        kind = op["kind"]
        if kind == "fill":
            out = np.full(op["shape"], round_to(op["value"], fmt))
        elif kind == "matmul":
            # Products of 16-bit values are exact in f32; f32 accumulator.
            acc = values[op["init"]].astype(np.float32)
            out = (acc + ins[0].astype(np.float32) @ ins[1].astype(np.float32)).astype(np.float64)
        elif kind == "transpose":
            out = ins[0].T
        elif kind == "map":
            args = [broadcast(a, m, op["shape"]) for a, m in zip(ins, op["maps"])]
            out = run_body(op["body"], args, fmt)
        elif kind == "reduce":
            out = round_to(values[op["init"]], fmt)
            f = BODY_OPS[op["combiner"]]
            for j in range(ins[0].shape[1]):
                out = round_to(f(ins[0][:, j], out), fmt)
        values[op["name"]] = out
    return values


def emulate_transformer(report_path, s, d, f, blocks=1):
    precision = {}
    if report_path:
        for decision in json.load(open(report_path))["decisions"]:
            if decision["precision"] in ("bf16", "f16"):
                precision[decision["loc"]] = decision["precision"]
    emitter = gen_transformer.Emitter()
    gen_transformer.generate(blocks, s, d, f, emitter)
    values = {}
    values["%x"] = round_to(inputs((s, d), 0, 1.0, None)[0], "f32")
    seed = 1
    for i in range(blocks):
        for name, shape in gen_transformer.weight_shapes(d, f):
            scale = 1.0 / math.sqrt(shape[0]) if len(shape) == 2 else 0.5
            values[f"%{name}_{i}"] = round_to(inputs(shape, seed, scale, None)[0], "f32")
            seed += 1
    values = emulate(emitter.ops, values, precision)
    return values[emitter.ops[-1]["name"]], precision


def parse_memref(text):
    data = text[text.index("data ="):]
    return np.array([float(t) for t in re.findall(r"[-+]?(?:\d+\.?\d*(?:e[-+]?\d+)?|inf|nan)", data.split("=", 1)[1])])


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--model", choices=["mlp", "transformer"])
    parser.add_argument("--format", default="f32")
    parser.add_argument("--formats")
    parser.add_argument("--output")
    parser.add_argument("--seq", type=int, default=8)
    parser.add_argument("--dim", type=int, default=16)
    parser.add_argument("--ffn", type=int, default=32)
    parser.add_argument("--emit-mlp-main", action="store_true")
    parser.add_argument("--report", help="the pass's JSON report (transformer)")
    opts = parser.parse_args()
    if opts.emit_mlp_main:
        print(mlp_main())
        return 0
    table = {e["name"]: Format(e) for e in json.load(open(opts.formats))}
    f32, low = table["f32"], table[opts.format]
    ctx = Ctx(low, f32, sums_low=table[opts.format].name == "bf16")
    got = parse_memref(open(opts.output).read())
    if opts.model == "mlp":
        return check_bound(opts, got, *mlp_model(ctx))
    return check_emulation(opts, got, low, f32)


def check_bound(opts, got, ref, bound):
    ref, bound = ref.ravel(), bound.ravel()
    assert got.shape == ref.shape, (got.shape, ref.shape)
    # printMemrefF32 prints 6 significant digits: allow half a unit of that.
    printed = 5e-6 * np.abs(got) + 1e-30
    err = np.abs(got - ref)
    ratio = err / (bound + printed)
    worst = int(ratio.argmax())
    print(f"{opts.model} {opts.format}: max |err| = {err.max():.3e}, "
          f"max bound = {bound.max():.3e}, max err/bound = {ratio.max():.3f} "
          f"(element {worst}: got {got[worst]}, f64 reference {ref[worst]})")
    if not np.all(np.isfinite(got)) or ratio.max() > 1:
        print("FAIL: outside the bound")
        return 1
    print("PASS: every element within its bound")
    return 0


def check_emulation(opts, got, low, f32):
    """The lowered program against a numpy model of its rounding.

    Both evaluate the same ops in the same formats; they differ only at
    f32 level (summation order, libm), which can move a result by one ulp of
    the low format now and then. Allowed: 4 ulps of the low format at the
    element's magnitude, plus 4 ulps at the output's scale (an element near
    zero inherits the absolute error of its larger inputs)."""
    emulated, precision = emulate_transformer(opts.report, opts.seq, opts.dim, opts.ffn)
    emulated = emulated.ravel()
    assert got.shape == emulated.shape, (got.shape, emulated.shape)
    exact, _ = emulate_transformer(None, opts.seq, opts.dim, opts.ffn)
    exact = exact.ravel()
    ulp = 2 * low.u
    scale = np.abs(emulated).max()
    tolerance = 4 * ulp * (np.abs(emulated) + scale) + 5e-6 * np.abs(got)
    err = np.abs(got - emulated)
    ratio = err / tolerance
    worst = int(ratio.argmax())
    drift = np.abs(got - exact).max() / scale
    print(f"transformer {opts.format}: {len(precision)} ops low; max |lowered - emulated| = "
          f"{err.max():.3e} ({err.max() / (ulp * scale):.2f} ulp of the output scale), "
          f"max err/tolerance = {ratio.max():.3f}; max |lowered - f32 model| / scale = {drift:.3e}")
    if not np.all(np.isfinite(got)) or ratio.max() > 1:
        print(f"FAIL: element {worst}: got {got[worst]}, emulated {emulated[worst]}")
        return 1
    print("PASS: every element within its tolerance")
    return 0


def mlp_main():
    shapes = [("%x", (8, 64), 0, 1.0), ("%w1", (64, 128), 1, 1 / 8),
              ("%b1", (128,), 2, 0.5), ("%w2", (128, 10), 3, 1 / math.sqrt(128)),
              ("%b2", (10,), 4, 0.5)]
    lines = ["func.func private @printMemrefF32(tensor<*xf32>)", "func.func @main() {"]
    for name, shape, seed, scale in shapes:
        lines += gen_transformer.input_generator(name, shape, seed, scale)
    args = ", ".join(n for n, *_ in shapes)
    types = ", ".join(gen_transformer.ty(*s) for _, s, *_ in shapes)
    lines += [f"  %y = call @mlp({args}) : ({types}) -> tensor<8x10xf32>",
              "  %u = tensor.cast %y : tensor<8x10xf32> to tensor<*xf32>",
              "  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()",
              "  return", "}"]
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
