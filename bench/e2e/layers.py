"""The whole layers of the end-to-end benchmark (issue 12's four and a
MobileNetV2 block), as torch-mlir's TorchToLinalg writes them (linalg on
tensors, one func.func whose arguments are the input and every weight as f32
tensors), their weights, and a float64 numpy reference of each.

torch-mlir idioms reproduced here (written for fp-opt; no IR is copied from
elsewhere): every nn.Linear weight goes through `linalg.transpose` (aten.t)
and then `linalg.matmul` on collapsed activations or `linalg.batch_matmul`
with the transposed weight broadcast over the batch by a generic (aten.matmul
of a 3-D by a 2-D tensor); accumulators are `tensor.empty` + `linalg.fill`;
bias, residual, GELU (erf), ReLU (cmpf ugt + select), softmax (amax, sub+exp,
sum, div with keep-dim maps), layer norm and eval-mode batch norm are
`linalg.generic`s; heads are split and merged with `tensor.expand_shape`,
`linalg.transpose` and `tensor.collapse_shape`; convolutions are
`tensor.pad` + `linalg.conv_2d_nchw_fchw` (or `_nhwc_hwcf`).

`Module(split=True)` emits every op (with its init tensors) as its own private
function called from @forward, so that a profiler attributes time per op
(the `--profile` mode of bench.py). Usage as a script:
  layers.py LAYER [--small] [--split]   prints the layer's MLIR.
"""
import argparse
import math

import numpy as np

F32 = "f32"


def ttype(shape, dtype=F32):
    return "tensor<" + "x".join(str(d) for d in shape) + "x" + dtype + ">"


def fconst(value):
    if value == -math.inf:
        return "0xFF800000"
    return f"{value:.9e}"


class Fn:
    """One func.func being written: SSA names, f32 constants, body lines."""

    def __init__(self, module, name, args, result_type, public):
        self.module = module
        self.name = name
        self.args = args  # [(ssa, type)]
        self.result_type = result_type
        self.public = public
        self.lines = []
        self.count = 0
        self.consts = {}

    def fresh(self, hint="t"):
        self.count += 1
        return f"%{hint}{self.count}"

    def emit(self, line):
        self.lines.append("    " + line)

    def const(self, value, dtype=F32):
        key = (value, dtype)
        if key not in self.consts:
            name = f"%cst_{len(self.consts)}"
            self.consts[key] = name
            self.lines.insert(0, f"    {name} = arith.constant {fconst(value)} : {dtype}")
        return self.consts[key]

    # --- ops -------------------------------------------------------------
    def empty(self, shape):
        v = self.fresh("e")
        self.emit(f"{v} = tensor.empty() : {ttype(shape)}")
        return v

    def fill(self, value, shape):
        e = self.empty(shape)
        v = self.fresh("f")
        c = self.const(value)
        t = ttype(shape)
        self.emit(f"{v} = linalg.fill ins({c} : f32) outs({e} : {t}) -> {t}")
        return v

    def transpose(self, x, shape, perm):
        out_shape = [shape[p] for p in perm]
        e = self.empty(out_shape)
        v = self.fresh("tr")
        self.emit(f"{v} = linalg.transpose ins({x} : {ttype(shape)}) outs({e} : "
                  f"{ttype(out_shape)}) permutation = [{', '.join(map(str, perm))}]")
        return v, out_shape

    def generic(self, ins, out, iterators, payload, out_map=None):
        """ins: [(ssa, shape, map)], out: (ssa, shape), payload(fn, args)
        writes the body (arguments %in0.., %out) and returns the yielded value."""
        rank = len(iterators)
        ident = "(" + ", ".join(f"d{i}" for i in range(rank)) + ")"
        out_map = out_map or f"{ident} -> {ident}"
        maps = [self.module.map(m) for _, _, m in ins] + [self.module.map(out_map)]
        its = ", ".join(f'"{i}"' for i in iterators)
        ins_s = ", ".join(v for v, _, _ in ins)
        ins_t = ", ".join(ttype(s) for _, s, _ in ins)
        v = self.fresh("g")
        head = (f"{v} = linalg.generic {{indexing_maps = [{', '.join(maps)}], "
                f"iterator_types = [{its}]}}")
        if ins:
            head += f" ins({ins_s} : {ins_t})"
        head += f" outs({out[0]} : {ttype(out[1])}) {{"
        self.emit(head)
        bb_args = [f"%in{i}: f32" for i in range(len(ins))] + ["%out: f32"]
        self.lines.append(f"    ^bb0({', '.join(bb_args)}):")
        body = Body(self)
        result = payload(body, [f"%in{i}" for i in range(len(ins))], "%out")
        for line in body.lines:
            self.emit("  " + line)
        self.emit(f"  linalg.yield {result} : f32")
        self.emit(f"}} -> {ttype(out[1])}")
        return v

    def expand(self, x, shape, reassoc, out_shape):
        v = self.fresh("ex")
        r = "[" + ", ".join("[" + ", ".join(map(str, g)) + "]" for g in reassoc) + "]"
        self.emit(f"{v} = tensor.expand_shape {x} {r} output_shape "
                  f"[{', '.join(map(str, out_shape))}] : {ttype(shape)} into {ttype(out_shape)}")
        return v

    def collapse(self, x, shape, reassoc):
        out_shape = [int(np.prod([shape[i] for i in g])) for g in reassoc]
        v = self.fresh("co")
        r = "[" + ", ".join("[" + ", ".join(map(str, g)) + "]" for g in reassoc) + "]"
        self.emit(f"{v} = tensor.collapse_shape {x} {r} : {ttype(shape)} into {ttype(out_shape)}")
        return v, out_shape

    def pad(self, x, shape, low, high):
        out_shape = [s + l + h for s, l, h in zip(shape, low, high)]
        c = self.const(0.0)
        v = self.fresh("pad")
        self.emit(f"{v} = tensor.pad {x} low[{', '.join(map(str, low))}] "
                  f"high[{', '.join(map(str, high))}] {{")
        self.lines.append(f"    ^bb0({', '.join(f'%p{i}: index' for i in range(len(shape)))}):")
        self.emit(f"  tensor.yield {c} : f32")
        self.emit(f"}} : {ttype(shape)} to {ttype(out_shape)}")
        return v, out_shape


class Body:
    """A generic's payload: arith/math ops on f32 scalars."""

    def __init__(self, fn):
        self.fn = fn
        self.lines = []
        self.count = 0

    def op(self, text, dtype="f32"):
        self.count += 1
        v = f"%y{self.count}"
        self.lines.append(f"{v} = {text} : {dtype}")
        return v

    def const(self, value):
        return self.fn.const(value)


class Module:
    def __init__(self, name, args, result_shape, split=False):
        self.maps = {}
        self.split = split
        self.fns = []
        self.stages = 0
        self.main = Fn(self, "forward", [(f"%{n}", ttype(s)) for n, s in args],
                       ttype(result_shape), True)
        self.name = name

    def map(self, text):
        if text not in self.maps:
            self.maps[text] = f"#map{len(self.maps)}"
        return self.maps[text]

    def stage(self, name, inputs, build):
        """Runs build(fn, input_names) -> (ssa, shape) inline in @forward, or
        (split) in a private function @NN_name called from @forward."""
        if not self.split:
            return build(self.main, [v for v, _ in inputs])
        self.stages += 1
        fname = f"s{self.stages:02d}_{name}"
        args = [(f"%arg{i}", ttype(s)) for i, (_, s) in enumerate(inputs)]
        fn = Fn(self, fname, args, None, False)
        res, shape = build(fn, [a for a, _ in args])
        fn.result_type = ttype(shape)
        fn.emit(f"return {res} : {fn.result_type}")
        self.fns.append(fn)
        v = self.main.fresh("call")
        self.main.emit(f"{v} = func.call @{fname}({', '.join(x for x, _ in inputs)}) : "
                       f"({', '.join(ttype(s) for _, s in inputs)}) -> {fn.result_type}")
        return v, shape

    def text(self, result):
        self.main.emit(f"return {result} : {self.main.result_type}")
        out = [f"{v} = affine_map<{k}>" for k, v in self.maps.items()]
        out.append(f'module attributes {{torch.debug_module_name = "{self.name}"}} {{')
        for fn in self.fns + [self.main]:
            vis = "" if fn.public else "private "
            attrs = " attributes {llvm.emit_c_interface}" if fn.public else ""
            args = ", ".join(f"{a}: {t}" for a, t in fn.args)
            out.append(f"  func.func {vis}@{fn.name}({args}) -> {fn.result_type}{attrs} {{")
            out += fn.lines
            out.append("  }")
        out.append("}")
        return "\n".join(out) + "\n"


def ident(rank):
    d = ", ".join(f"d{i}" for i in range(rank))
    return f"({d}) -> ({d})"


def bcast_last(rank):
    """(d0..dn) -> (dn): a per-feature vector (bias, gamma)."""
    d = ", ".join(f"d{i}" for i in range(rank))
    return f"({d}) -> (d{rank - 1})"


def keepdim(rank):
    """(d0..dn) -> (d0..d(n-1), 0): a keep-dim row reduction's result."""
    d = ", ".join(f"d{i}" for i in range(rank))
    return f"({d}) -> ({', '.join([f'd{i}' for i in range(rank - 1)] + ['0'])})"


# --- torch ops as torch-mlir lowers them --------------------------------
def binary(m, name, a, b, shape, fn_payload, b_map=None):
    r = len(shape)

    def build(f, args):
        e = f.empty(shape)
        return f.generic([(args[0], shape, ident(r)), (args[1], b[1], b_map or ident(r))],
                         (e, shape), ["parallel"] * r,
                         lambda body, i, o: fn_payload(body, i[0], i[1])), shape
    return m.stage(name, [(a, shape), b], build)


def linear2d(m, name, x, w, b, M, K, N):
    """aten.linear on a 2-D input: aten.t, matmul, bias add."""
    def tr(f, args):
        return f.transpose(args[0], [N, K], [1, 0])
    wt, _ = m.stage(name + "_transpose", [(w, [N, K])], tr)

    def mm(f, args):
        acc = f.fill(0.0, [M, N])
        v = f.fresh("mm")
        f.emit(f"{v} = linalg.matmul ins({args[0]}, {args[1]} : {ttype([M, K])}, {ttype([K, N])}) "
               f"outs({acc} : {ttype([M, N])}) -> {ttype([M, N])}")
        return v, [M, N]
    y, _ = m.stage(name + "_matmul", [(x, [M, K]), (wt, [K, N])], mm)
    return binary(m, name + "_bias", y, (b, [N]), [M, N],
                  lambda body, a, c: body.op(f"arith.addf {a}, {c}"), bcast_last(2))[0]


def linear3d(m, name, x, w, b, B, S, K, N):
    """aten.linear on a 3-D input as aten.matmul: aten.t, the weight broadcast
    over the batch, batch_matmul, bias add."""
    def tr(f, args):
        return f.transpose(args[0], [N, K], [1, 0])
    wt, _ = m.stage(name + "_transpose", [(w, [N, K])], tr)

    def bc(f, args):
        e = f.empty([B, K, N])
        return f.generic([(args[0], [K, N], "(d0, d1, d2) -> (d1, d2)")], (e, [B, K, N]),
                         ["parallel"] * 3, lambda body, i, o: i[0]), [B, K, N]
    wb, _ = m.stage(name + "_broadcast", [(wt, [K, N])], bc)

    def mm(f, args):
        acc = f.fill(0.0, [B, S, N])
        v = f.fresh("bmm")
        f.emit(f"{v} = linalg.batch_matmul ins({args[0]}, {args[1]} : {ttype([B, S, K])}, "
               f"{ttype([B, K, N])}) outs({acc} : {ttype([B, S, N])}) -> {ttype([B, S, N])}")
        return v, [B, S, N]
    y, _ = m.stage(name + "_bmm", [(x, [B, S, K]), (wb, [B, K, N])], mm)
    return binary(m, name + "_bias", y, (b, [N]), [B, S, N],
                  lambda body, a, c: body.op(f"arith.addf {a}, {c}"), bcast_last(3))[0]


def bmm(m, name, a, b, B, M, K, N):
    def mm(f, args):
        acc = f.fill(0.0, [B, M, N])
        v = f.fresh("bmm")
        f.emit(f"{v} = linalg.batch_matmul ins({args[0]}, {args[1]} : {ttype([B, M, K])}, "
               f"{ttype([B, K, N])}) outs({acc} : {ttype([B, M, N])}) -> {ttype([B, M, N])}")
        return v, [B, M, N]
    return m.stage(name, [(a, [B, M, K]), (b, [B, K, N])], mm)[0]


def row_reduce(m, name, x, shape, init, combine):
    """A keep-dim reduction over the last dimension (aten.amax / aten.sum)."""
    r = len(shape)
    red = shape[:-1] + [1]

    def build(f, args):
        acc = f.fill(init, red)
        return f.generic([(args[0], shape, ident(r))], (acc, red),
                         ["parallel"] * (r - 1) + ["reduction"],
                         lambda body, i, o: combine(body, i[0], o), keepdim(r)), red
    return m.stage(name, [(x, shape)], build)[0]


def softmax(m, name, x, shape):
    """aten._softmax(x, -1) decomposed: amax, sub + exp, sum, div."""
    r = len(shape)
    red = shape[:-1] + [1]
    mx = row_reduce(m, name + "_max", x, shape, -math.inf,
                    lambda b, i, o: b.op(f"arith.maximumf {i}, {o}"))
    ex = binary(m, name + "_exp", x, (mx, red), shape,
                lambda b, a, c: b.op(f"math.exp {b.op(f'arith.subf {a}, {c}')}"), keepdim(r))[0]
    sm = row_reduce(m, name + "_sum", ex, shape, 0.0,
                    lambda b, i, o: b.op(f"arith.addf {i}, {o}"))
    return binary(m, name + "_div", ex, (sm, red), shape,
                  lambda b, a, c: b.op(f"arith.divf {a}, {c}"), keepdim(r))[0]


def layer_norm(m, name, x, gamma, beta, shape, eps=1e-12):
    """aten.native_layer_norm over the last dimension: mean, variance (as
    the mean of squared deviations), then one normalizing generic."""
    r = len(shape)
    n = shape[-1]
    red = shape[:-1] + [1]
    s = row_reduce(m, name + "_sum", x, shape, 0.0,
                   lambda b, i, o: b.op(f"arith.addf {i}, {o}"))

    def mean_b(f, args):
        e = f.empty(red)
        return f.generic([(args[0], red, ident(r))], (e, red), ["parallel"] * r,
                         lambda b, i, o: b.op(f"arith.divf {i[0]}, {b.const(float(n))}")), red
    mean = m.stage(name + "_mean", [(s, red)], mean_b)[0]

    def var_b(f, args):
        acc = f.fill(0.0, red)

        def pl(b, i, o):
            d = b.op(f"arith.subf {i[0]}, {i[1]}")
            sq = b.op(f"arith.mulf {d}, {d}")
            return b.op(f"arith.addf {sq}, {o}")
        return f.generic([(args[0], shape, ident(r)), (args[1], red, keepdim(r))], (acc, red),
                         ["parallel"] * (r - 1) + ["reduction"], pl, keepdim(r)), red
    var = m.stage(name + "_var", [(x, shape), (mean, red)], var_b)[0]

    def rstd_b(f, args):
        e = f.empty(red)

        def pl(b, i, o):
            v = b.op(f"arith.divf {i[0]}, {b.const(float(n))}")
            return b.op(f"math.rsqrt {b.op(f'arith.addf {v}, {b.const(eps)}')}")
        return f.generic([(args[0], red, ident(r))], (e, red), ["parallel"] * r, pl), red
    rstd = m.stage(name + "_rstd", [(var, red)], rstd_b)[0]

    def norm_b(f, args):
        e = f.empty(shape)

        def pl(b, i, o):
            d = b.op(f"arith.subf {i[0]}, {i[1]}")
            y = b.op(f"arith.mulf {d}, {i[2]}")
            y = b.op(f"arith.mulf {y}, {i[3]}")
            return b.op(f"arith.addf {y}, {i[4]}")
        return f.generic([(args[0], shape, ident(r)), (args[1], red, keepdim(r)),
                          (args[2], red, keepdim(r)), (args[3], [n], bcast_last(r)),
                          (args[4], [n], bcast_last(r))], (e, shape), ["parallel"] * r, pl), shape
    return m.stage(name + "_normalize", [(x, shape), (mean, red), (rstd, red), (gamma, [n]),
                                         (beta, [n])], norm_b)[0]


def unary(m, name, x, shape, payload):
    r = len(shape)

    def build(f, args):
        e = f.empty(shape)
        return f.generic([(args[0], shape, ident(r))], (e, shape), ["parallel"] * r,
                         lambda b, i, o: payload(b, i[0])), shape
    return m.stage(name, [(x, shape)], build)[0]


def gelu_erf(b, x):
    t = b.op(f"arith.mulf {x}, {b.const(0.7071067811865476)}")
    e = b.op(f"math.erf {t}")
    p = b.op(f"arith.addf {e}, {b.const(1.0)}")
    h = b.op(f"arith.mulf {x}, {b.const(0.5)}")
    return b.op(f"arith.mulf {h}, {p}")


def relu(b, x):
    c = b.op(f"arith.cmpf ugt, {x}, {b.const(0.0)}")  # the type is the operands'
    return b.op(f"arith.select {c}, {x}, {b.const(0.0)}")


def add_payload(b, a, c):
    return b.op(f"arith.addf {a}, {c}")


# --- layers ---------------------------------------------------------------
class Layer:
    """name, args [(name, shape)], result shape, MLIR text, numpy weights."""

    def __init__(self, name, args, result, build, reference):
        self.name = name
        self.args = args
        self.result = result
        self._build = build
        self._reference = reference

    def mlir(self, split=False):
        m = Module(self.name, self.args, self.result, split)
        return m.text(self._build(m))

    def inputs(self, seed=0):
        """Deterministic f32 arguments, PyTorch-like scales (uniform
        +-1/sqrt(fan_in) weights, unit-range input, batch-norm statistics
        away from 0 variance)."""
        rng = np.random.default_rng(seed)
        out = {}
        for name, shape in self.args:
            if name == "x":
                a = rng.uniform(-1.0, 1.0, shape)
            elif name.endswith("_var"):
                a = rng.uniform(0.5, 1.5, shape)
            elif name.endswith("_g"):
                a = rng.uniform(0.5, 1.5, shape)
            elif len(shape) == 1:
                a = rng.uniform(-0.1, 0.1, shape)
            else:
                # PyTorch's fan-in: all but the output dimension (HWCF: H*W*C).
                nhwc_filter = len(shape) == 4 and self.name.endswith("nhwc")
                fan_in = int(np.prod(shape[:3] if nhwc_filter else shape[1:]))
                bound = 1.0 / math.sqrt(fan_in)
                a = rng.uniform(-bound, bound, shape)
            out[name] = np.ascontiguousarray(a, dtype=np.float32)
        return out

    def reference(self, inputs):
        """float64 numpy forward pass."""
        return self._reference({k: v.astype(np.float64) for k, v in inputs.items()})

    def flops(self):
        return self._flops


_erf = np.frompyfunc(math.erf, 1, 1)


def np_gelu(x):
    return 0.5 * x * (1.0 + _erf(x / math.sqrt(2.0)).astype(np.float64))


def np_layer_norm(x, g, b, eps=1e-12):
    mu = x.mean(-1, keepdims=True)
    var = ((x - mu) ** 2).mean(-1, keepdims=True)
    return (x - mu) / np.sqrt(var + eps) * g + b


def np_softmax(x):
    e = np.exp(x - x.max(-1, keepdims=True))
    return e / e.sum(-1, keepdims=True)


def bert(S=128, H=768, NH=12, F=3072):
    D = H // NH
    args = [("x", [1, S, H])]
    for p in ["q", "k", "v", "o"]:
        args += [(f"w{p}", [H, H]), (f"b{p}", [H])]
    args += [("ln1_g", [H]), ("ln1_b", [H]), ("w1", [F, H]), ("b1", [F]),
             ("w2", [H, F]), ("b2", [H]), ("ln2_g", [H]), ("ln2_b", [H])]

    def build(m):
        def heads(t, name, kt=False):
            x4 = m.stage(name + "_split_reshape", [(t, [1, S, H])],
                         lambda f, a: (f.expand(a[0], [1, S, H], [[0], [1], [2, 3]], [1, S, NH, D]),
                                       [1, S, NH, D]))[0]
            th, _ = m.stage(name + "_heads_transpose", [(x4, [1, S, NH, D])],
                            lambda f, a: f.transpose(a[0], [1, S, NH, D], [0, 2, 1, 3]))
            shape = [1, NH, S, D]
            if kt:
                th, shape = m.stage(name + "_t_transpose", [(th, shape)],
                                    lambda f, a: f.transpose(a[0], [1, NH, S, D], [0, 1, 3, 2]))
            return m.stage(name + "_merge_reshape", [(th, shape)],
                           lambda f, a: f.collapse(a[0], shape, [[0, 1], [2], [3]]))[0]

        q = linear3d(m, "q", "%x", "%wq", "%bq", 1, S, H, H)
        k = linear3d(m, "k", "%x", "%wk", "%bk", 1, S, H, H)
        v = linear3d(m, "v", "%x", "%wv", "%bv", 1, S, H, H)
        qh, kh, vh = heads(q, "q"), heads(k, "k", kt=True), heads(v, "v")
        sc = bmm(m, "scores_bmm", qh, kh, NH, S, D, S)
        sc4 = m.stage("scores_reshape", [(sc, [NH, S, S])],
                      lambda f, a: (f.expand(a[0], [NH, S, S], [[0, 1], [2], [3]], [1, NH, S, S]),
                                    [1, NH, S, S]))[0]
        scaled = unary(m, "scores_scale", sc4, [1, NH, S, S],
                       lambda b, x: b.op(f"arith.divf {x}, {b.const(math.sqrt(D))}"))
        probs = softmax(m, "softmax", scaled, [1, NH, S, S])
        p3 = m.stage("probs_reshape", [(probs, [1, NH, S, S])],
                     lambda f, a: f.collapse(a[0], [1, NH, S, S], [[0, 1], [2], [3]]))[0]
        ctx = bmm(m, "context_bmm", p3, vh, NH, S, S, D)
        c4 = m.stage("context_split_reshape", [(ctx, [NH, S, D])],
                     lambda f, a: (f.expand(a[0], [NH, S, D], [[0, 1], [2], [3]], [1, NH, S, D]),
                                   [1, NH, S, D]))[0]
        ct, _ = m.stage("context_heads_transpose", [(c4, [1, NH, S, D])],
                        lambda f, a: f.transpose(a[0], [1, NH, S, D], [0, 2, 1, 3]))
        c3 = m.stage("context_merge_reshape", [(ct, [1, S, NH, D])],
                     lambda f, a: f.collapse(a[0], [1, S, NH, D], [[0], [1], [2, 3]]))[0]
        o = linear3d(m, "o", c3, "%wo", "%bo", 1, S, H, H)
        r1 = binary(m, "residual1", o, ("%x", [1, S, H]), [1, S, H], add_payload)[0]
        h1 = layer_norm(m, "ln1", r1, "%ln1_g", "%ln1_b", [1, S, H])
        h2 = m.stage("ffn_in_reshape", [(h1, [1, S, H])],
                     lambda f, a: f.collapse(a[0], [1, S, H], [[0, 1], [2]]))[0]
        f1 = linear2d(m, "ffn1", h2, "%w1", "%b1", S, H, F)
        g = unary(m, "gelu", f1, [S, F], gelu_erf)
        f2 = linear2d(m, "ffn2", g, "%w2", "%b2", S, F, H)
        f3 = m.stage("ffn_out_reshape", [(f2, [S, H])],
                     lambda f, a: (f.expand(a[0], [S, H], [[0, 1], [2]], [1, S, H]), [1, S, H]))[0]
        r2 = binary(m, "residual2", f3, (h1, [1, S, H]), [1, S, H], add_payload)[0]
        return layer_norm(m, "ln2", r2, "%ln2_g", "%ln2_b", [1, S, H])

    def ref(a):
        x = a["x"][0]
        lin = lambda t, p: t @ a[f"w{p}"].T + a[f"b{p}"]
        q, k, v = (lin(x, p).reshape(S, NH, D).transpose(1, 0, 2) for p in "qkv")
        p = np_softmax(q @ k.transpose(0, 2, 1) / math.sqrt(D))
        ctx = (p @ v).transpose(1, 0, 2).reshape(S, H)
        h1 = np_layer_norm(lin(ctx, "o") + x, a["ln1_g"], a["ln1_b"])
        f = np_gelu(h1 @ a["w1"].T + a["b1"]) @ a["w2"].T + a["b2"]
        return np_layer_norm(f + h1, a["ln2_g"], a["ln2_b"])[None]

    layer = Layer("bert", args, [1, S, H], build, ref)
    layer._flops = 2 * S * H * H * 4 + 2 * 2 * S * S * H + 2 * 2 * S * H * F
    layer.dims = dict(S=S, H=H, NH=NH, F=F)
    layer.contraction_ks = [H, D, S, H, H, F]
    return layer


def mlp(B=64, sizes=(1024, 4096, 4096, 1024)):
    args = [("x", [B, sizes[0]])]
    for i in range(3):
        args += [(f"w{i + 1}", [sizes[i + 1], sizes[i]]), (f"b{i + 1}", [sizes[i + 1]])]

    def build(m):
        h = "%x"
        for i in range(3):
            h = linear2d(m, f"fc{i + 1}", h, f"%w{i + 1}", f"%b{i + 1}", B, sizes[i], sizes[i + 1])
            if i < 2:
                h = unary(m, f"relu{i + 1}", h, [B, sizes[i + 1]], relu)
        return h

    def ref(a):
        h = a["x"]
        for i in range(3):
            h = h @ a[f"w{i + 1}"].T + a[f"b{i + 1}"]
            if i < 2:
                h = np.maximum(h, 0.0)
        return h

    layer = Layer("mlp", args, [B, sizes[-1]], build, ref)
    layer._flops = sum(2 * B * sizes[i] * sizes[i + 1] for i in range(3))
    layer.dims = dict(B=B, sizes=sizes)
    layer.contraction_ks = list(sizes[:3])
    return layer


def resnet_block(C=64, HW=56, nhwc=False):
    if nhwc:
        xs, ws = [1, HW, HW, C], [3, 3, C, C]
    else:
        xs, ws = [1, C, HW, HW], [C, C, 3, 3]
    args = [("x", xs), ("w1", ws)]
    args += [(f"bn1_{p}", [C]) for p in ("g", "b", "mean", "var")]
    args += [("w2", ws)]
    args += [(f"bn2_{p}", [C]) for p in ("g", "b", "mean", "var")]
    chan = "(d0, d1, d2, d3) -> (d3)" if nhwc else "(d0, d1, d2, d3) -> (d1)"

    def conv(m, name, x, w):
        def pad_b(f, a):
            low = [0, 1, 1, 0] if nhwc else [0, 0, 1, 1]
            return f.pad(a[0], xs, low, low)
        p, ps = m.stage(name + "_pad", [(x, xs)], pad_b)

        def conv_b(f, a):
            acc = f.fill(0.0, xs)
            v = f.fresh("conv")
            op = "linalg.conv_2d_nhwc_hwcf" if nhwc else "linalg.conv_2d_nchw_fchw"
            f.emit(f"{v} = {op} {{dilations = dense<1> : vector<2xi64>, strides = dense<1> : "
                   f"vector<2xi64>}} ins({a[0]}, {a[1]} : {ttype(ps)}, {ttype(ws)}) "
                   f"outs({acc} : {ttype(xs)}) -> {ttype(xs)}")
            return v, xs
        return m.stage(name, [(p, ps), (w, ws)], conv_b)[0]

    def bn(m, name, x, p):
        def build(f, a):
            e = f.empty(xs)

            def pl(b, i, o):
                d = b.op(f"arith.subf {i[0]}, {i[3]}")
                s = b.op(f"arith.addf {i[4]}, {b.const(1e-5)}")
                r = b.op(f"math.rsqrt {s}")
                y = b.op(f"arith.mulf {d}, {r}")
                y = b.op(f"arith.mulf {y}, {i[1]}")
                return b.op(f"arith.addf {y}, {i[2]}")
            return f.generic([(a[0], xs, ident(4))] + [(a[k], [C], chan) for k in range(1, 5)],
                             (e, xs), ["parallel"] * 4, pl), xs
        return m.stage(name, [(x, xs)] + [(f"%{p}_{q}", [C]) for q in ("g", "b", "mean", "var")],
                       build)[0]

    def build(m):
        h = conv(m, "conv1", "%x", "%w1")
        h = bn(m, "bn1", h, "bn1")
        h = unary(m, "relu1", h, xs, relu)
        h = conv(m, "conv2", h, "%w2")
        h = bn(m, "bn2", h, "bn2")
        h = binary(m, "residual", h, ("%x", xs), xs, add_payload)[0]
        return unary(m, "relu2", h, xs, relu)

    def ref(a):
        x = a["x"] if not nhwc else a["x"].transpose(0, 3, 1, 2)

        def w(n):
            return a[n] if not nhwc else a[n].transpose(3, 2, 0, 1)  # HWCF -> FCHW

        def conv3(t, wt):
            tp = np.pad(t, ((0, 0), (0, 0), (1, 1), (1, 1)))
            out = np.zeros((1, C, HW, HW))
            for i in range(3):
                for j in range(3):
                    out += np.einsum("nchw,fc->nfhw", tp[:, :, i:i + HW, j:j + HW], wt[:, :, i, j])
            return out

        def bnf(t, p):
            sh = (1, C, 1, 1)
            return ((t - a[f"{p}_mean"].reshape(sh)) / np.sqrt(a[f"{p}_var"].reshape(sh) + 1e-5)
                    * a[f"{p}_g"].reshape(sh) + a[f"{p}_b"].reshape(sh))
        h = np.maximum(bnf(conv3(x, w("w1")), "bn1"), 0.0)
        y = np.maximum(bnf(conv3(h, w("w2")), "bn2") + x, 0.0)
        return y if not nhwc else y.transpose(0, 2, 3, 1)

    layer = Layer("resnet_nhwc" if nhwc else "resnet_nchw", args, xs, build, ref)
    layer._flops = 2 * 2 * HW * HW * C * C * 9
    layer.dims = dict(C=C, HW=HW, nhwc=nhwc)
    layer.contraction_ks = [9 * C, 9 * C]
    return layer


def relu6(b, x):
    """aten.hardtanh(x, 0, 6) (nn.ReLU6): clamp as two compare + selects."""
    lo = b.op(f"arith.cmpf ult, {x}, {b.const(0.0)}")
    y = b.op(f"arith.select {lo}, {b.const(0.0)}, {x}")
    hi = b.op(f"arith.cmpf ugt, {y}, {b.const(6.0)}")
    return b.op(f"arith.select {hi}, {b.const(6.0)}, {y}")


def mbv2_block(C=24, E=144, HW=56, stride=1, Cout=None):
    """MobileNetV2 inverted residual, NCHW: 1x1 expand conv + BN + ReLU6, 3x3
    depthwise conv (`linalg.depthwise_conv_2d_nchw_chw` on the [E, 1, 3, 3]
    weight collapsed to [E, 3, 3], as torch-mlir does for groups ==
    channels) + BN + ReLU6, 1x1 project conv + BN; at stride 1 with as many
    output channels as input ones, the residual add. stride=2: the
    downsampling block (torchvision's features[4]: 24 -> 144 -> 32 channels,
    56 -> 28 pixels)."""
    Cout = Cout or C
    OHW = (HW - 1) // stride + 1
    residual = stride == 1 and Cout == C
    xs, hs, ds = [1, C, HW, HW], [1, E, HW, HW], [1, E, OHW, OHW]
    ys = [1, Cout, OHW, OHW]
    args = [("x", xs), ("w_exp", [E, C, 1, 1])]
    args += [(f"bn1_{p}", [E]) for p in ("g", "b", "mean", "var")]
    args += [("w_dw", [E, 1, 3, 3])]
    args += [(f"bn2_{p}", [E]) for p in ("g", "b", "mean", "var")]
    args += [("w_proj", [Cout, E, 1, 1])]
    args += [(f"bn3_{p}", [Cout]) for p in ("g", "b", "mean", "var")]
    chan = "(d0, d1, d2, d3) -> (d1)"
    conv_attrs = "{dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}"
    dw_attrs = ("{dilations = dense<1> : vector<2xi64>, strides = dense<%d> : vector<2xi64>}"
                % stride)

    def conv1x1(m, name, x, w, cin, cout, hw):
        ins, outs, ws = [1, cin, hw, hw], [1, cout, hw, hw], [cout, cin, 1, 1]

        def build(f, a):
            acc = f.fill(0.0, outs)
            v = f.fresh("conv")
            f.emit(f"{v} = linalg.conv_2d_nchw_fchw {conv_attrs} ins({a[0]}, {a[1]} : "
                   f"{ttype(ins)}, {ttype(ws)}) outs({acc} : {ttype(outs)}) -> {ttype(outs)}")
            return v, outs
        return m.stage(name, [(x, ins), (w, ws)], build)[0]

    def depthwise(m, name, x, w):
        p, ps = m.stage(name + "_pad", [(x, hs)], lambda f, a: f.pad(a[0], hs, [0, 0, 1, 1],
                                                                      [0, 0, 1, 1]))
        wc, _ = m.stage(name + "_weight_reshape", [(w, [E, 1, 3, 3])],
                        lambda f, a: f.collapse(a[0], [E, 1, 3, 3], [[0, 1], [2], [3]]))

        def build(f, a):
            acc = f.fill(0.0, ds)
            v = f.fresh("dw")
            f.emit(f"{v} = linalg.depthwise_conv_2d_nchw_chw {dw_attrs} ins({a[0]}, {a[1]} : "
                   f"{ttype(ps)}, {ttype([E, 3, 3])}) outs({acc} : {ttype(ds)}) -> {ttype(ds)}")
            return v, ds
        return m.stage(name, [(p, ps), (wc, [E, 3, 3])], build)[0]

    def bn(m, name, x, p, shape):
        n = shape[1]

        def build(f, a):
            e = f.empty(shape)

            def pl(b, i, o):
                d = b.op(f"arith.subf {i[0]}, {i[3]}")
                r = b.op(f"math.rsqrt {b.op(f'arith.addf {i[4]}, {b.const(1e-5)}')}")
                y = b.op(f"arith.mulf {b.op(f'arith.mulf {d}, {r}')}, {i[1]}")
                return b.op(f"arith.addf {y}, {i[2]}")
            return f.generic([(a[0], shape, ident(4))] + [(a[k], [n], chan) for k in range(1, 5)],
                             (e, shape), ["parallel"] * 4, pl), shape
        return m.stage(name, [(x, shape)] + [(f"%{p}_{q}", [n])
                                             for q in ("g", "b", "mean", "var")], build)[0]

    def build(m):
        h = conv1x1(m, "expand_conv", "%x", "%w_exp", C, E, HW)
        h = unary(m, "expand_relu6", bn(m, "bn1", h, "bn1", hs), hs, relu6)
        h = depthwise(m, "dw_conv", h, "%w_dw")
        h = unary(m, "dw_relu6", bn(m, "bn2", h, "bn2", ds), ds, relu6)
        h = bn(m, "bn3", conv1x1(m, "project_conv", h, "%w_proj", E, Cout, OHW), "bn3", ys)
        if not residual:
            return h
        return binary(m, "residual", h, ("%x", xs), xs, add_payload)[0]

    def ref(a):
        def bnf(t, p):
            sh = (1, -1, 1, 1)
            return ((t - a[f"{p}_mean"].reshape(sh)) / np.sqrt(a[f"{p}_var"].reshape(sh) + 1e-5)
                    * a[f"{p}_g"].reshape(sh) + a[f"{p}_b"].reshape(sh))
        x = a["x"]
        h = np.einsum("nchw,fc->nfhw", x, a["w_exp"][:, :, 0, 0])
        h = np.clip(bnf(h, "bn1"), 0.0, 6.0)
        hp = np.pad(h, ((0, 0), (0, 0), (1, 1), (1, 1)))
        d = np.zeros((1, E, OHW, OHW), dtype=h.dtype)
        span = (OHW - 1) * stride + 1
        for i in range(3):
            for j in range(3):
                d += (hp[:, :, i:i + span:stride, j:j + span:stride]
                      * a["w_dw"][:, 0, i, j].reshape(1, -1, 1, 1))
        d = np.clip(bnf(d, "bn2"), 0.0, 6.0)
        y = bnf(np.einsum("nchw,fc->nfhw", d, a["w_proj"][:, :, 0, 0]), "bn3")
        return y + x if residual else y

    layer = Layer("mbv2_nchw" if stride == 1 else f"mbv2_s{stride}_nchw", args, ys, build, ref)
    layer._flops = 2 * (HW * HW * C * E + OHW * OHW * (9 * E + E * Cout))
    layer.dims = dict(C=C, E=E, HW=HW, stride=stride, Cout=Cout)
    layer.contraction_ks = [C, 9, E]
    return layer


def all_layers(small=False):
    if small:
        return [bert(S=16, H=64, NH=4, F=128), mlp(B=8, sizes=(64, 128, 128, 64)),
                resnet_block(C=16, HW=8), resnet_block(C=16, HW=8, nhwc=True),
                mbv2_block(C=8, E=32, HW=8), mbv2_block(C=8, E=32, HW=9, stride=2, Cout=12)]
    return [bert(), mlp(), resnet_block(), resnet_block(nhwc=True), mbv2_block(),
            mbv2_block(stride=2, Cout=32)]


def by_name(small=False):
    return {layer.name: layer for layer in all_layers(small)}


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("layer", choices=["bert", "mlp", "resnet_nchw", "resnet_nhwc", "mbv2_nchw",
                                     "mbv2_s2_nchw"])
    ap.add_argument("--small", action="store_true")
    ap.add_argument("--split", action="store_true")
    cli = ap.parse_args()
    print(by_name(cli.small)[cli.layer].mlir(cli.split), end="")
