#!/usr/bin/env python3
"""Generates an f32 transformer of N pre-LayerNorm blocks in linalg-on-tensors.

Each block: LayerNorm, Q/K/V projections, scores = Q K^T * 1/sqrt(D),
softmax (max, exp, sum, divide), P V, output projection, residual,
LayerNorm, feed-forward (matmul + bias + GELU(tanh), matmul + bias),
residual. Weights are function arguments (as torch-mlir exports them).

  gen_transformer.py --blocks N [--seq S --dim D --ffn F] [--main]

--main appends an executable `@main` that builds deterministic inputs
(value(i, j) = scale * sin(seed/10 + 0.37 i + 0.71 j)), calls the model and
prints the result with printMemrefF32 (test/Integration uses it; the same
formula is in test/Integration/Inputs/infer_precision_check.py).
"""
import argparse
import math

HEADER = """#id2 = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#col = affine_map<(d0, d1) -> (d1)>
"""


class Emitter:
    """Emits MLIR text and records each op (kind, name, operands, details)
    so that test/Integration/Inputs/emulate.py can evaluate the same model."""

    def __init__(self):
        self.lines = []
        self.n = 0
        self.ops = []

    def op(self, name, kind, text, **details):
        """Emits `text` with a name location and records the op."""
        self.ops.append(dict(name=name, kind=kind, **details))
        self.emit(f'{text} loc("{name[1:]}")')

    def fresh(self, base="v"):
        self.n += 1
        return f"%{base}{self.n}"

    def emit(self, text):
        self.lines.append("    " + text)


def ty(*shape):
    return "tensor<" + "x".join(str(s) for s in shape) + "xf32>"


def matmul(e, a, b, m, k, n):
    z = e.fresh("acc")
    e.emit(f"{z}_e = tensor.empty() : {ty(m, n)}")
    e.op(z, "fill", f"{z} = linalg.fill ins(%zero : f32) outs({z}_e : {ty(m, n)}) -> {ty(m, n)}",
         value=0.0, shape=(m, n))
    r = e.fresh("mm")
    e.op(r, "matmul", f"{r} = linalg.matmul ins({a}, {b} : {ty(m, k)}, {ty(k, n)}) "
         f"outs({z} : {ty(m, n)}) -> {ty(m, n)}", ins=[a, b], init=z)
    return r


def elementwise(e, ins, maps, s, d, body, name="ew"):
    """A parallel generic over SxD; `ins` are (value, type) pairs."""
    r = e.fresh(name)
    e.emit(f"{r}_e = tensor.empty() : {ty(s, d)}")
    args = ", ".join(v for v, _ in ins)
    types = ", ".join(t for _, t in ins)
    amaps = ", ".join(maps + ["#id2"])
    bbargs = ", ".join(f"%a{i}: f32" for i in range(len(ins)))
    text = (f"{r} = linalg.generic {{indexing_maps = [{amaps}], "
            f"iterator_types = [\"parallel\", \"parallel\"]}} "
            f"ins({args} : {types}) outs({r}_e : {ty(s, d)}) {{\n"
            f"    ^bb0({bbargs}, %out: f32):\n" +
            "".join(f"      {line}\n" for line in body) + f"    }} -> {ty(s, d)}")
    e.op(r, "map", text, ins=[v for v, _ in ins], maps=maps, body=body, shape=(s, d))
    return r


def row_reduce(e, x, s, d, init, body_op):
    r = e.fresh("red")
    e.emit(f"{r}_e = tensor.empty() : {ty(s)}")
    e.op(f"{r}_i", "fill", f"{r}_i = linalg.fill ins({init} : f32) outs({r}_e : {ty(s)}) -> {ty(s)}",
         value=0.0 if init == "%zero" else -math.inf, shape=(s,))
    e.op(r, "reduce", f"{r} = linalg.generic {{indexing_maps = [#id2, #row], "
         f"iterator_types = [\"parallel\", \"reduction\"]}} "
         f"ins({x} : {ty(s, d)}) outs({r}_i : {ty(s)}) {{\n"
         f"    ^bb0(%in: f32, %acc: f32):\n"
         f"      %r = {body_op} %in, %acc : f32\n"
         f"      linalg.yield %r : f32\n"
         f"    }} -> {ty(s)}", ins=[x], init=f"{r}_i", combiner=body_op)
    return r


def layer_norm(e, x, g, b, s, d):
    total = row_reduce(e, x, s, d, "%zero", "arith.addf")
    inv_d = f"{1.0 / d:.9e}"
    centered = elementwise(e, [(x, ty(s, d)), (total, ty(s))], ["#id2", "#row"], s, d, [
        f"%c = arith.constant {inv_d} : f32",
        "%mean = arith.mulf %a1, %c : f32",
        "%r = arith.subf %a0, %mean : f32",
        "linalg.yield %r : f32"], "ctr")
    sq = elementwise(e, [(centered, ty(s, d))], ["#id2"], s, d, [
        "%r = arith.mulf %a0, %a0 : f32", "linalg.yield %r : f32"], "sq")
    var = row_reduce(e, sq, s, d, "%zero", "arith.addf")
    return elementwise(e, [(centered, ty(s, d)), (var, ty(s)), (g, ty(d)), (b, ty(d))],
                       ["#id2", "#row", "#col", "#col"], s, d, [
        f"%c = arith.constant {inv_d} : f32",
        "%eps = arith.constant 1.0e-05 : f32",
        "%v = arith.mulf %a1, %c : f32",
        "%ve = arith.addf %v, %eps : f32",
        "%inv = math.rsqrt %ve : f32",
        "%n = arith.mulf %a0, %inv : f32",
        "%sc = arith.mulf %n, %a2 : f32",
        "%r = arith.addf %sc, %a3 : f32",
        "linalg.yield %r : f32"], "ln")


def bias(e, x, c, s, d, gelu):
    body = ["%z = arith.addf %a0, %a1 : f32"]
    if gelu:
        body += [
            "%h = arith.constant 5.0e-01 : f32",
            "%one = arith.constant 1.0 : f32",
            "%k = arith.constant 7.978845608e-01 : f32",
            "%k3 = arith.constant 4.4715e-02 : f32",
            "%z2 = arith.mulf %z, %z : f32",
            "%z3 = arith.mulf %z2, %z : f32",
            "%t0 = arith.mulf %k3, %z3 : f32",
            "%t1 = arith.addf %z, %t0 : f32",
            "%t2 = arith.mulf %k, %t1 : f32",
            "%t3 = math.tanh %t2 : f32",
            "%t4 = arith.addf %one, %t3 : f32",
            "%t5 = arith.mulf %h, %z : f32",
            "%r = arith.mulf %t5, %t4 : f32",
            "linalg.yield %r : f32"]
    else:
        body += ["linalg.yield %z : f32"]
    return elementwise(e, [(x, ty(s, d)), (c, ty(d))], ["#id2", "#col"], s, d, body,
                       "gelu" if gelu else "bias")


def block(e, x, w, s, d, f):
    h = layer_norm(e, x, w["g1"], w["b1"], s, d)
    q = matmul(e, h, w["wq"], s, d, d)
    k = matmul(e, h, w["wk"], s, d, d)
    v = matmul(e, h, w["wv"], s, d, d)
    kt = e.fresh("kt")
    e.emit(f"{kt}_e = tensor.empty() : {ty(d, s)}")
    e.op(kt, "transpose", f"{kt} = linalg.transpose ins({k} : {ty(s, d)}) outs({kt}_e : {ty(d, s)}) permutation = [1, 0]",
         ins=[k])
    sc = matmul(e, q, kt, s, d, s)
    scale = f"{1.0 / math.sqrt(d):.9e}"
    scaled = elementwise(e, [(sc, ty(s, s))], ["#id2"], s, s, [
        f"%c = arith.constant {scale} : f32",
        "%r = arith.mulf %a0, %c : f32", "linalg.yield %r : f32"], "scale")
    mx = row_reduce(e, scaled, s, s, "%ninf", "arith.maximumf")
    ex = elementwise(e, [(scaled, ty(s, s)), (mx, ty(s))], ["#id2", "#row"], s, s, [
        "%dlt = arith.subf %a0, %a1 : f32", "%r = math.exp %dlt : f32",
        "linalg.yield %r : f32"], "exp")
    sm = row_reduce(e, ex, s, s, "%zero", "arith.addf")
    p = elementwise(e, [(ex, ty(s, s)), (sm, ty(s))], ["#id2", "#row"], s, s, [
        "%r = arith.divf %a0, %a1 : f32", "linalg.yield %r : f32"], "prob")
    a = matmul(e, p, v, s, s, d)
    o = matmul(e, a, w["wo"], s, d, d)
    x1 = elementwise(e, [(x, ty(s, d)), (o, ty(s, d))], ["#id2", "#id2"], s, d, [
        "%r = arith.addf %a0, %a1 : f32", "linalg.yield %r : f32"], "res")
    h2 = layer_norm(e, x1, w["g2"], w["b2"], s, d)
    f1 = bias(e, matmul(e, h2, w["w1"], s, d, f), w["c1"], s, f, gelu=True)
    f2 = bias(e, matmul(e, f1, w["w2"], s, f, d), w["c2"], s, d, gelu=False)
    return elementwise(e, [(x1, ty(s, d)), (f2, ty(s, d))], ["#id2", "#id2"], s, d, [
        "%r = arith.addf %a0, %a1 : f32", "linalg.yield %r : f32"], "res")


def weight_shapes(d, f):
    return [("g1", (d,)), ("b1", (d,)), ("wq", (d, d)), ("wk", (d, d)),
            ("wv", (d, d)), ("wo", (d, d)), ("g2", (d,)), ("b2", (d,)),
            ("w1", (d, f)), ("c1", (f,)), ("w2", (f, d)), ("c2", (d,))]


def generate(blocks, s, d, f, emitter=None):
    e = emitter or Emitter()
    params = [f"%x: {ty(s, d)}"]
    for i in range(blocks):
        params += [f"%{n}_{i}: {ty(*shape)}" for n, shape in weight_shapes(d, f)]
    out = [HEADER, f"func.func @transformer({', '.join(params)}) -> {ty(s, d)} {{"]
    e.emit("%zero = arith.constant 0.0 : f32")
    e.emit("%ninf = arith.constant 0xFF800000 : f32")
    x = "%x"
    for i in range(blocks):
        x = block(e, x, {n: f"%{n}_{i}" for n, _ in weight_shapes(d, f)}, s, d, f)
    e.emit(f"return {x} : {ty(s, d)}")
    out += e.lines + ["}"]
    return "\n".join(out) + "\n"


def input_generator(name, shape, seed, scale):
    """MLIR that fills `shape` with scale * sin(seed/10 + 0.37 i + 0.71 j)."""
    rank = len(shape)
    dims = ", ".join(f"d{i}" for i in range(rank))
    iterators = ", ".join(['"parallel"'] * rank)
    lines = [f"  {name}_e = tensor.empty() : {ty(*shape)}",
             f"  {name} = linalg.generic {{indexing_maps = [affine_map<({dims}) -> ({dims})>], "
             f"iterator_types = [{iterators}]}} "
             f"outs({name}_e : {ty(*shape)}) {{",
             "  ^bb0(%o: f32):",
             f"    %seed = arith.constant {seed / 10.0:.9e} : f32",
             f"    %scale = arith.constant {scale:.9e} : f32",
             "    %ci = arith.constant 3.7e-01 : f32",
             "    %cj = arith.constant 7.1e-01 : f32",
             "    %i = linalg.index 0 : index",
             "    %ii = arith.index_cast %i : index to i32",
             "    %fi = arith.sitofp %ii : i32 to f32",
             "    %ti = arith.mulf %fi, %ci : f32",
             "    %t0 = arith.addf %seed, %ti : f32"]
    if rank == 2:
        lines += ["    %j = linalg.index 1 : index",
                  "    %jj = arith.index_cast %j : index to i32",
                  "    %fj = arith.sitofp %jj : i32 to f32",
                  "    %tj = arith.mulf %fj, %cj : f32",
                  "    %t1 = arith.addf %t0, %tj : f32"]
    else:
        lines += ["    %t1 = arith.addf %t0, %seed : f32"]
    lines += ["    %sn = math.sin %t1 : f32",
              "    %v = arith.mulf %sn, %scale : f32",
              "    linalg.yield %v : f32",
              f"  }} -> {ty(*shape)}"]
    return lines


def main_harness(blocks, s, d, f):
    lines = ["func.func private @printMemrefF32(tensor<*xf32>)",
             "func.func @main() {"]
    args, types = ["%in_x"], [ty(s, d)]
    lines += input_generator("%in_x", (s, d), 0, 1.0)
    seed = 1
    for i in range(blocks):
        for n, shape in weight_shapes(d, f):
            scale = 1.0 / math.sqrt(shape[0]) if len(shape) == 2 else 0.5
            name = f"%in_{n}_{i}"
            lines += input_generator(name, shape, seed, scale)
            args.append(name)
            types.append(ty(*shape))
            seed += 1
    lines += [f"  %y = call @transformer({', '.join(args)}) : ({', '.join(types)}) -> {ty(s, d)}",
              f"  %u = tensor.cast %y : {ty(s, d)} to tensor<*xf32>",
              "  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()",
              "  return", "}"]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--blocks", type=int, default=1)
    parser.add_argument("--seq", type=int, default=16)
    parser.add_argument("--dim", type=int, default=32)
    parser.add_argument("--ffn", type=int, default=64)
    parser.add_argument("--main", action="store_true")
    opts = parser.parse_args()
    text = generate(opts.blocks, opts.seq, opts.dim, opts.ffn)
    if opts.main:
        text += main_harness(opts.blocks, opts.seq, opts.dim, opts.ffn)
    print(text, end="")
