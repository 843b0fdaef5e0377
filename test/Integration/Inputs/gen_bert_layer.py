#!/usr/bin/env python3
"""Writes a BERT encoder layer in the form torch-mlir's TorchToLinalg emits
for an exported nn.Module (linalg on tensors, one function, weights as f32
arguments): every nn.Linear as `linalg.transpose` of its [out, in] weight,
`linalg.fill` + `linalg.matmul` and a bias generic; heads split and merged
with `tensor.expand_shape` / `linalg.transpose` / `tensor.collapse_shape`;
attention scores by `linalg.batch_matmul`; softmax as max / sub+exp / sum /
div generics with keep-dim maps; LayerNorm as mean / variance / normalize
generics; exact GELU through `math.erf`.

Usage: gen_bert_layer.py [--seq S] [--hidden D] [--heads H] [--ffn F]
                         [--name NAME]
"""
import argparse

p = argparse.ArgumentParser()
p.add_argument("--seq", type=int, default=16)
p.add_argument("--hidden", type=int, default=64)
p.add_argument("--heads", type=int, default=4)
p.add_argument("--ffn", type=int, default=256)
p.add_argument("--name", default="forward")
a = p.parse_args()
S, D, H, F = a.seq, a.hidden, a.heads, a.ffn
assert D % H == 0
Dh = D // H
out = []
emit = out.append
n = [0]


def fresh():
    n[0] += 1
    return f"%{n[0]}"


def t(*dims):
    return "tensor<" + "x".join(map(str, dims)) + "xf32>"


def empty(*dims):
    v = fresh()
    emit(f"    {v} = tensor.empty() : {t(*dims)}")
    return v


def fill(value, *dims):
    e = empty(*dims)
    v = fresh()
    emit(f"    {v} = linalg.fill ins({value} : f32) outs({e} : {t(*dims)}) -> {t(*dims)}")
    return v


def linear(x, w, b, rows, k, nout):
    """x[rows, k] @ w[nout, k]^T + b[nout], as torch-mlir writes nn.Linear."""
    e = empty(k, nout)
    wt = fresh()
    emit(f"    {wt} = linalg.transpose ins({w} : {t(nout, k)}) outs({e} : {t(k, nout)}) permutation = [1, 0]")
    z = fill("%cst", rows, nout)
    mm = fresh()
    emit(f"    {mm} = linalg.matmul ins({x}, {wt} : {t(rows, k)}, {t(k, nout)}) outs({z} : {t(rows, nout)}) -> {t(rows, nout)}")
    e2 = empty(rows, nout)
    r = fresh()
    emit(f"    {r} = linalg.generic {{indexing_maps = [#map, #map1, #map], iterator_types = [\"parallel\", \"parallel\"]}} ins({mm}, {b} : {t(rows, nout)}, {t(nout)}) outs({e2} : {t(rows, nout)}) {{")
    emit("    ^bb0(%in: f32, %in_0: f32, %out: f32):")
    emit("      %s = arith.addf %in, %in_0 : f32")
    emit("      linalg.yield %s : f32")
    emit(f"    }} -> {t(rows, nout)}")
    return r


def binary(op, x, y, *dims, maps="#map, #map, #map"):
    e = empty(*dims)
    r = fresh()
    it = ", ".join(['"parallel"'] * len(dims))
    emit(f"    {r} = linalg.generic {{indexing_maps = [{maps}], iterator_types = [{it}]}} ins({x}, {y} : {t(*dims)}, {t(*dims)}) outs({e} : {t(*dims)}) {{")
    emit("    ^bb0(%in: f32, %in_0: f32, %out: f32):")
    emit(f"      %s = arith.{op} %in, %in_0 : f32")
    emit("      linalg.yield %s : f32")
    emit(f"    }} -> {t(*dims)}")
    return r


def layer_norm(x, g, b):
    """aten.native_layer_norm over the last dim (eps 1e-12), f32."""
    z = fill("%cst", S, 1)
    s = fresh()
    emit(f"    {s} = linalg.generic {{indexing_maps = [#map, #map2], iterator_types = [\"parallel\", \"reduction\"]}} ins({x} : {t(S, D)}) outs({z} : {t(S, 1)}) {{")
    emit("    ^bb0(%in: f32, %out: f32):")
    emit("      %s = arith.addf %in, %out : f32")
    emit("      linalg.yield %s : f32")
    emit(f"    }} -> {t(S, 1)}")
    e = empty(S, 1)
    mean = fresh()
    emit(f"    {mean} = linalg.generic {{indexing_maps = [#map, #map], iterator_types = [\"parallel\", \"parallel\"]}} ins({s} : {t(S, 1)}) outs({e} : {t(S, 1)}) {{")
    emit("    ^bb0(%in: f32, %out: f32):")
    emit("      %s = arith.divf %in, %cst_d : f32")
    emit("      linalg.yield %s : f32")
    emit(f"    }} -> {t(S, 1)}")
    z2 = fill("%cst", S, 1)
    v = fresh()
    emit(f"    {v} = linalg.generic {{indexing_maps = [#map, #map2, #map2], iterator_types = [\"parallel\", \"reduction\"]}} ins({x}, {mean} : {t(S, D)}, {t(S, 1)}) outs({z2} : {t(S, 1)}) {{")
    emit("    ^bb0(%in: f32, %in_0: f32, %out: f32):")
    emit("      %c = arith.subf %in, %in_0 : f32")
    emit("      %q = arith.mulf %c, %c : f32")
    emit("      %s = arith.addf %q, %out : f32")
    emit("      linalg.yield %s : f32")
    emit(f"    }} -> {t(S, 1)}")
    e3 = empty(S, D)
    r = fresh()
    emit(f"    {r} = linalg.generic {{indexing_maps = [#map, #map2, #map2, #map1, #map1, #map], iterator_types = [\"parallel\", \"parallel\"]}} ins({x}, {mean}, {v}, {g}, {b} : {t(S, D)}, {t(S, 1)}, {t(S, 1)}, {t(D)}, {t(D)}) outs({e3} : {t(S, D)}) {{")
    emit("    ^bb0(%in: f32, %m: f32, %var: f32, %gamma: f32, %beta: f32, %out: f32):")
    emit("      %c = arith.subf %in, %m : f32")
    emit("      %vd = arith.divf %var, %cst_d : f32")
    emit("      %ve = arith.addf %vd, %cst_eps : f32")
    emit("      %rs = math.rsqrt %ve : f32")
    emit("      %nrm = arith.mulf %c, %rs : f32")
    emit("      %sc = arith.mulf %nrm, %gamma : f32")
    emit("      %sh = arith.addf %sc, %beta : f32")
    emit("      linalg.yield %sh : f32")
    emit(f"    }} -> {t(S, D)}")
    return r


def heads(x, perm, dims_out):
    """[S, D] -> [S, H, Dh] -> permuted."""
    ex = fresh()
    emit(f"    {ex} = tensor.expand_shape {x} [[0], [1, 2]] output_shape [{S}, {H}, {Dh}] : {t(S, D)} into {t(S, H, Dh)}")
    e = empty(*dims_out)
    r = fresh()
    emit(f"    {r} = linalg.transpose ins({ex} : {t(S, H, Dh)}) outs({e} : {t(*dims_out)}) permutation = {perm}")
    return r


args = [("x", (S, D))]
for nm in "qkvo":
    args += [(f"w{nm}", (D, D)), (f"b{nm}", (D,))]
args += [("ln1_g", (D,)), ("ln1_b", (D,)), ("w1", (F, D)), ("b1", (F,)),
         ("w2", (D, F)), ("b2", (D,)), ("ln2_g", (D,)), ("ln2_b", (D,))]
sig = ", ".join(f"%{nm}: {t(*dims)}" for nm, dims in args)

print(f"// Generated by gen_bert_layer.py --seq {S} --hidden {D} --heads {H} --ffn {F}")
print("#map = affine_map<(d0, d1) -> (d0, d1)>")
print("#map1 = affine_map<(d0, d1) -> (d1)>")
print("#map2 = affine_map<(d0, d1) -> (d0, 0)>")
print("#map3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>")
print("#map4 = affine_map<(d0, d1, d2) -> (d0, d1, 0)>")
print(f"func.func @{a.name}({sig}) -> {t(S, D)} {{")
emit("    %cst = arith.constant 0.000000e+00 : f32")
emit("    %cst_ninf = arith.constant 0xFF800000 : f32")
emit(f"    %cst_d = arith.constant {float(D):e} : f32")
emit("    %cst_eps = arith.constant 9.9999999999999998E-13 : f32")
emit(f"    %cst_scale = arith.constant {float(Dh) ** 0.5:e} : f32")
emit("    %cst_half = arith.constant 5.000000e-01 : f32")
emit("    %cst_one = arith.constant 1.000000e+00 : f32")
emit("    %cst_rsqrt2 = arith.constant 0.70710678118654757 : f32")
q = linear("%x", "%wq", "%bq", S, D, D)
k = linear("%x", "%wk", "%bk", S, D, D)
v = linear("%x", "%wv", "%bv", S, D, D)
qh = heads(q, "[1, 0, 2]", (H, S, Dh))
kh = heads(k, "[1, 2, 0]", (H, Dh, S))
vh = heads(v, "[1, 0, 2]", (H, S, Dh))
z = fill("%cst", H, S, S)
sc = fresh()
emit(f"    {sc} = linalg.batch_matmul ins({qh}, {kh} : {t(H, S, Dh)}, {t(H, Dh, S)}) outs({z} : {t(H, S, S)}) -> {t(H, S, S)}")
# scores / sqrt(Dh)
e = empty(H, S, S)
sd = fresh()
emit(f"    {sd} = linalg.generic {{indexing_maps = [#map3, #map3], iterator_types = [\"parallel\", \"parallel\", \"parallel\"]}} ins({sc} : {t(H, S, S)}) outs({e} : {t(H, S, S)}) {{")
emit("    ^bb0(%in: f32, %out: f32):")
emit("      %s = arith.divf %in, %cst_scale : f32")
emit("      linalg.yield %s : f32")
emit(f"    }} -> {t(H, S, S)}")
# softmax over the last dim
mx0 = fill("%cst_ninf", H, S, 1)
mx = fresh()
emit(f"    {mx} = linalg.generic {{indexing_maps = [#map3, #map4], iterator_types = [\"parallel\", \"parallel\", \"reduction\"]}} ins({sd} : {t(H, S, S)}) outs({mx0} : {t(H, S, 1)}) {{")
emit("    ^bb0(%in: f32, %out: f32):")
emit("      %s = arith.maximumf %in, %out : f32")
emit("      linalg.yield %s : f32")
emit(f"    }} -> {t(H, S, 1)}")
e = empty(H, S, S)
ex = fresh()
emit(f"    {ex} = linalg.generic {{indexing_maps = [#map3, #map4, #map3], iterator_types = [\"parallel\", \"parallel\", \"parallel\"]}} ins({sd}, {mx} : {t(H, S, S)}, {t(H, S, 1)}) outs({e} : {t(H, S, S)}) {{")
emit("    ^bb0(%in: f32, %in_0: f32, %out: f32):")
emit("      %d = arith.subf %in, %in_0 : f32")
emit("      %s = math.exp %d : f32")
emit("      linalg.yield %s : f32")
emit(f"    }} -> {t(H, S, S)}")
sm0 = fill("%cst", H, S, 1)
sm = fresh()
emit(f"    {sm} = linalg.generic {{indexing_maps = [#map3, #map4], iterator_types = [\"parallel\", \"parallel\", \"reduction\"]}} ins({ex} : {t(H, S, S)}) outs({sm0} : {t(H, S, 1)}) {{")
emit("    ^bb0(%in: f32, %out: f32):")
emit("      %s = arith.addf %in, %out : f32")
emit("      linalg.yield %s : f32")
emit(f"    }} -> {t(H, S, 1)}")
e = empty(H, S, S)
pr = fresh()
emit(f"    {pr} = linalg.generic {{indexing_maps = [#map3, #map4, #map3], iterator_types = [\"parallel\", \"parallel\", \"parallel\"]}} ins({ex}, {sm} : {t(H, S, S)}, {t(H, S, 1)}) outs({e} : {t(H, S, S)}) {{")
emit("    ^bb0(%in: f32, %in_0: f32, %out: f32):")
emit("      %s = arith.divf %in, %in_0 : f32")
emit("      linalg.yield %s : f32")
emit(f"    }} -> {t(H, S, S)}")
z = fill("%cst", H, S, Dh)
ctx = fresh()
emit(f"    {ctx} = linalg.batch_matmul ins({pr}, {vh} : {t(H, S, S)}, {t(H, S, Dh)}) outs({z} : {t(H, S, Dh)}) -> {t(H, S, Dh)}")
e = empty(S, H, Dh)
ctt = fresh()
emit(f"    {ctt} = linalg.transpose ins({ctx} : {t(H, S, Dh)}) outs({e} : {t(S, H, Dh)}) permutation = [1, 0, 2]")
merged = fresh()
emit(f"    {merged} = tensor.collapse_shape {ctt} [[0], [1, 2]] : {t(S, H, Dh)} into {t(S, D)}")
att = linear(merged, "%wo", "%bo", S, D, D)
r1 = binary("addf", att, "%x", S, D)
h1 = layer_norm(r1, "%ln1_g", "%ln1_b")
f1 = linear(h1, "%w1", "%b1", S, D, F)
# exact GELU: x * 0.5 * (1 + erf(x / sqrt(2)))
e = empty(S, F)
g = fresh()
emit(f"    {g} = linalg.generic {{indexing_maps = [#map, #map], iterator_types = [\"parallel\", \"parallel\"]}} ins({f1} : {t(S, F)}) outs({e} : {t(S, F)}) {{")
emit("    ^bb0(%in: f32, %out: f32):")
emit("      %a = arith.mulf %in, %cst_rsqrt2 : f32")
emit("      %er = math.erf %a : f32")
emit("      %p = arith.addf %er, %cst_one : f32")
emit("      %h = arith.mulf %p, %cst_half : f32")
emit("      %s = arith.mulf %in, %h : f32")
emit("      linalg.yield %s : f32")
emit(f"    }} -> {t(S, F)}")
f2 = linear(g, "%w2", "%b2", S, F, D)
r2 = binary("addf", f2, h1, S, D)
y = layer_norm(r2, "%ln2_g", "%ln2_b")
emit(f"    return {y} : {t(S, D)}")
print("\n".join(out))
print("}")
