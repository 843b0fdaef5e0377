#!/usr/bin/env python3
"""Generates IR shaped like an LLM decode-step export: N layers of a
Qwen2/LLaMA-style block for one token, linalg on tensors mixed with the
memref / affine / vector code exporters emit for the KV cache.

Per layer:
  - RMSNorm as linalg.generics (sum of squares, rsqrt, scale);
  - Q, K, V projections as linalg.matmul on weights read from memref.global
    through bufferization.to_tensor (as IREE and torch-mlir's ml_program
    lowering leave them), bias adds, rotary embedding (linalg.index, cos, sin);
  - the KV-cache write: K and V to memref (bufferization.to_buffer), then
    affine.for loops of vector.transfer_read / transfer_write into the
    cache, a memref argument, at the decode position;
  - attention scores over the cache: affine.for over heads and positions,
    vector.transfer_read of Q and the cached K rows, vector.reduction,
    memref.store; back to tensors for the softmax (max, exp, sum, divide),
    P.V as affine loops of vector FMAs into a memref accumulator;
  - output projection, residual add, RMSNorm, SwiGLU MLP (gate and up
    matmuls, silu, multiply, down matmul), residual add.
Then a final RMSNorm and the LM head.

The defaults (28 layers, hidden 1536, 12 heads of 128, 2 KV heads, FFN 8960,
vocab 151936, cache 1024) give about 745 KB of text, the size of the public
28-layer decode-step export issue 15 measured.

  gen_decode_step.py [--layers 28] [--hidden 1536] ... > decode.mlir
"""
import argparse

parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
parser.add_argument("--layers", type=int, default=28)
parser.add_argument("--hidden", type=int, default=1536)
parser.add_argument("--heads", type=int, default=12)
parser.add_argument("--kv-heads", type=int, default=2)
parser.add_argument("--head-dim", type=int, default=128)
parser.add_argument("--ffn", type=int, default=8960)
parser.add_argument("--vocab", type=int, default=151936)
parser.add_argument("--cache", type=int, default=1024)
parser.add_argument("--vector", type=int, default=8)
parser.add_argument("--weights", choices=["globals", "args"], default="globals",
                    help="weights as memref.globals read through "
                         "bufferization.to_tensor (IREE, ml_program), or as "
                         "function arguments (torch-mlir)")
args = parser.parse_args()

D, H, KVH, HD, F, V, C, VL = (args.hidden, args.heads, args.kv_heads,
                               args.head_dim, args.ffn, args.vocab, args.cache,
                               args.vector)
KV = KVH * HD
out = []
counter = [0]


def fresh(base="v"):
    counter[0] += 1
    return f"%{base}{counter[0]}"


def t(*shape):
    return "tensor<" + "x".join(map(str, shape)) + "xf32>"


def m(*shape):
    return "memref<" + "x".join(map(str, shape)) + "xf32>"


scope = ["model"]


def emit(line):
    """One line; op lines get a name location the way exporters write them
    (module path of the layer and the source line)."""
    stripped = line.strip()
    if (stripped.startswith("%") or stripped.startswith("} ->") or
            stripped.startswith("vector.transfer_write") or
            stripped.startswith("memref.store") or
            stripped.startswith("affine.vector_store") or
            stripped.startswith("linalg.fill")) and not stripped.endswith("{"):
        counter[0] += 1
        line += (f' loc(fused["{scope[0]}", "modeling.py":'
                 f'{100 + counter[0] % 900}:{counter[0] % 40}])')
    out.append("    " + line)


def weight(name, shape):
    """A weight global read as a tensor."""
    g = fresh("g")
    emit(f"{g} = memref.get_global @{name} : {m(*shape)}")
    w = fresh("w")
    emit(f"{w} = bufferization.to_tensor {g} restrict : {m(*shape)} to {t(*shape)}")
    return w


def matmul(x, w, n, k):
    e = fresh("e")
    emit(f"{e} = tensor.empty() : {t(1, n)}")
    z = fresh("z")
    emit(f"{z} = linalg.fill ins(%cst0 : f32) outs({e} : {t(1, n)}) -> {t(1, n)}")
    r = fresh("mm")
    emit(f"{r} = linalg.matmul ins({x}, {w} : {t(1, k)}, {t(k, n)}) "
         f"outs({z} : {t(1, n)}) -> {t(1, n)}")
    return r


def generic(ins, maps, n, body, iterators=None, out_shape=None, init=None):
    """A linalg.generic over 1xN (or `out_shape`) with a body of lines using
    %a0.. for the inputs and %out."""
    out_shape = out_shape or (1, n)
    iterators = iterators or ["parallel"] * 2
    if init is None:
        init = fresh("e")
        emit(f"{init} = tensor.empty() : {t(*out_shape)}")
    r = fresh("ew")
    names = ", ".join(v for v, _ in ins)
    types = ", ".join(ty for _, ty in ins)
    bb = ", ".join(f"%a{i}: f32" for i in range(len(ins)))
    its = ", ".join(f'"{i}"' for i in iterators)
    emit(f"{r} = linalg.generic {{indexing_maps = [{', '.join(maps)}], "
         f"iterator_types = [{its}]}} ins({names} : {types}) "
         f"outs({init} : {t(*out_shape)}) {{")
    emit(f"^bb0({bb}, %out: f32):")
    for line in body:
        emit("  " + line)
    emit(f"}} -> {t(*out_shape)}")
    return r


def rms_norm(x, gamma, n):
    e = fresh("e")
    emit(f"{e} = tensor.empty() : {t(1)}")
    z = fresh("z")
    emit(f"{z} = linalg.fill ins(%cst0 : f32) outs({e} : {t(1)}) -> {t(1)}")
    ss = generic([(x, t(1, n))], ["#id2", "#row"], n,
                 ["%s = arith.mulf %a0, %a0 : f32",
                  "%r = arith.addf %s, %out : f32",
                  "linalg.yield %r : f32"],
                 ["parallel", "reduction"], (1,), z)
    return generic([(x, t(1, n)), (ss, t(1)), (gamma, t(n))],
                   ["#id2", "#row", "#col", "#id2"], n,
                   [f"%c = arith.constant {1.0 / n:.9e} : f32",
                    "%eps = arith.constant 1.0e-06 : f32",
                    "%ms = arith.mulf %a1, %c : f32",
                    "%me = arith.addf %ms, %eps : f32",
                    "%inv = math.rsqrt %me : f32",
                    "%nx = arith.mulf %a0, %inv : f32",
                    "%r = arith.mulf %nx, %a2 : f32",
                    "linalg.yield %r : f32"])


def add(a, b, n):
    return generic([(a, t(1, n)), (b, t(1, n))], ["#id2", "#id2", "#id2"], n,
                   ["%r = arith.addf %a0, %a1 : f32", "linalg.yield %r : f32"])


def bias(x, b, n):
    return generic([(x, t(1, n)), (b, t(n))], ["#id2", "#col", "#id2"], n,
                   ["%r = arith.addf %a0, %a1 : f32", "linalg.yield %r : f32"])


def heads_view(x, n):
    """The view to heads and back that exporters leave around attention."""
    heads = n // HD
    e = fresh("hv")
    emit(f"{e} = tensor.expand_shape {x} [[0], [1, 2]] output_shape "
         f"[1, {heads}, {HD}] : {t(1, n)} into {t(1, heads, HD)}")
    c = fresh("hc")
    emit(f"{c} = tensor.collapse_shape {e} [[0], [1, 2]] : "
         f"{t(1, heads, HD)} into {t(1, n)}")
    return c


def rope(x, n):
    """Rotary embedding on pairs: the position comes from %posf."""
    return generic([(x, t(1, n))], ["#id2", "#id2"], n, [
        "%j = linalg.index 1 : index",
        "%ji = arith.index_cast %j : index to i32",
        "%jf = arith.sitofp %ji : i32 to f32",
        f"%hd = arith.constant {HD}.0 : f32",
        "%fr = arith.divf %jf, %hd : f32",
        "%base = arith.constant -9.21034049 : f32",
        "%ex = arith.mulf %fr, %base : f32",
        "%inv = math.exp %ex : f32",
        "%ang = arith.mulf %posf, %inv : f32",
        "%co = math.cos %ang : f32",
        "%si = math.sin %ang : f32",
        "%xc = arith.mulf %a0, %co : f32",
        "%xs = arith.mulf %a0, %si : f32",
        "%r = arith.addf %xc, %xs : f32",
        "linalg.yield %r : f32"])


def cache_write(x, cache, layer):
    """x (1 x KV) into cache[layer, %pos, :] with vector copies."""
    buf = fresh("buf")
    emit(f"{buf} = bufferization.to_buffer {x} : {t(1, KV)} to {m(1, KV)}")
    emit(f"affine.for %i = 0 to {KV} step {VL} {{")
    vv = fresh("vv")
    emit(f"  {vv} = vector.transfer_read {buf}[%c0, %i], %cst0 "
         f"{{in_bounds = [true]}} : {m(1, KV)}, vector<{VL}xf32>")
    emit(f"  vector.transfer_write {vv}, {cache}[%c{layer}, %pos, %i] "
         f"{{in_bounds = [true]}} : vector<{VL}xf32>, {m(args.layers, C, KV)}")
    emit("}")


def cache_copy(x, cache, layer):
    """x (1 x KV) into cache[layer, %pos, :] by subview and memref.copy."""
    buf = fresh("buf")
    emit(f"{buf} = bufferization.to_buffer {x} read_only : {t(1, KV)} to {m(1, KV)}")
    view = fresh("row")
    strided = f"memref<1x{KV}xf32, strided<[{KV}, 1], offset: ?>>"
    emit(f"{view} = memref.subview {cache}[{layer}, %pos, 0] [1, 1, {KV}] "
         f"[1, 1, 1] : {m(args.layers, C, KV)} to {strided}")
    emit(f"memref.copy {buf}, {view} : {m(1, KV)} to {strided}")


def attention(q, kcache, vcache, layer):
    """Scores over positions 0..%len per head, softmax, P.V."""
    qbuf = fresh("qb")
    emit(f"{qbuf} = bufferization.to_buffer {q} : {t(1, D)} to {m(1, D)}")
    scores = fresh("sc")
    emit(f"{scores} = memref.alloc() : {m(H, C)}")
    group = H // KVH
    emit(f"affine.for %h = 0 to {H} {{")
    emit(f"  affine.for %p = 0 to {C} {{")
    emit(f"    %acc0 = arith.constant dense<0.0> : vector<{VL}xf32>")
    acc = fresh("acc")
    emit(f"    {acc} = affine.for %d = 0 to {HD} step {VL} iter_args(%a = %acc0) -> (vector<{VL}xf32>) {{")
    qv, kv, fm = fresh("qv"), fresh("kv"), fresh("fm")
    qi, ki = fresh("qi"), fresh("ki")
    emit(f"      {qi} = affine.apply affine_map<(h, d) -> (h * {HD} + d)>(%h, %d)")
    emit(f"      {ki} = affine.apply affine_map<(h, d) -> ((h floordiv {group}) * {HD} + d)>(%h, %d)")
    emit(f"      {qv} = vector.transfer_read {qbuf}[%c0, {qi}], %cst0 "
         f"{{in_bounds = [true]}} : {m(1, D)}, vector<{VL}xf32>")
    emit(f"      {kv} = vector.transfer_read {kcache}[%c{layer}, %p, {ki}], %cst0 "
         f"{{in_bounds = [true]}} : {m(args.layers, C, KV)}, vector<{VL}xf32>")
    emit(f"      {fm} = vector.fma {qv}, {kv}, %a : vector<{VL}xf32>")
    emit(f"      affine.yield {fm} : vector<{VL}xf32>")
    emit("    }")
    s = fresh("s")
    emit(f"    {s} = vector.reduction <add>, {acc} : vector<{VL}xf32> into f32")
    emit(f"    memref.store {s}, {scores}[%h, %p] : {m(H, C)}")
    emit("  }")
    emit("}")
    st = fresh("st")
    emit(f"{st} = bufferization.to_tensor {scores} restrict : {m(H, C)} to {t(H, C)}")
    # Softmax over positions (max, exp, sum, divide).
    e = fresh("e")
    emit(f"{e} = tensor.empty() : {t(H)}")
    mi = fresh("mi")
    emit(f"{mi} = linalg.fill ins(%ninf : f32) outs({e} : {t(H)}) -> {t(H)}")
    mx = generic([(st, t(H, C))], ["#id2", "#row"], C,
                 ["%r = arith.maximumf %a0, %out : f32", "linalg.yield %r : f32"],
                 ["parallel", "reduction"], (H,), mi)
    ex = generic([(st, t(H, C)), (mx, t(H))], ["#id2", "#row", "#id2"], C,
                 [f"%sc = arith.constant {HD ** -0.5:.9e} : f32",
                  "%d = arith.subf %a0, %a1 : f32",
                  "%ds = arith.mulf %d, %sc : f32",
                  "%r = math.exp %ds : f32", "linalg.yield %r : f32"],
                 out_shape=(H, C))
    e2 = fresh("e")
    emit(f"{e2} = tensor.empty() : {t(H)}")
    z = fresh("z")
    emit(f"{z} = linalg.fill ins(%cst0 : f32) outs({e2} : {t(H)}) -> {t(H)}")
    sm = generic([(ex, t(H, C))], ["#id2", "#row"], C,
                 ["%r = arith.addf %a0, %out : f32", "linalg.yield %r : f32"],
                 ["parallel", "reduction"], (H,), z)
    p = generic([(ex, t(H, C)), (sm, t(H))], ["#id2", "#row", "#id2"], C,
                ["%r = arith.divf %a0, %a1 : f32", "linalg.yield %r : f32"],
                out_shape=(H, C))
    # P.V into a memref accumulator with vector FMAs.
    pb = fresh("pb")
    emit(f"{pb} = bufferization.to_buffer {p} : {t(H, C)} to {m(H, C)}")
    o = fresh("o")
    emit(f"{o} = memref.alloc() : {m(1, D)}")
    emit(f"linalg.fill ins(%cst0 : f32) outs({o} : {m(1, D)})")
    emit(f"affine.for %h = 0 to {H} {{")
    emit(f"  affine.for %p = 0 to {C} {{")
    pw = fresh("pw")
    emit(f"    {pw} = memref.load {pb}[%h, %p] : {m(H, C)}")
    pv = fresh("pv")
    emit(f"    {pv} = vector.broadcast {pw} : f32 to vector<{VL}xf32>")
    emit(f"    affine.for %d = 0 to {HD} step {VL} {{")
    vv, ov, nv = fresh("vv"), fresh("ov"), fresh("nv")
    vi = fresh("vi")
    emit(f"      {vi} = affine.apply affine_map<(h, d) -> ((h floordiv {group}) * {HD} + d)>(%h, %d)")
    emit(f"      {vv} = vector.transfer_read {vcache}[%c{layer}, %p, {vi}], %cst0 "
         f"{{in_bounds = [true]}} : {m(args.layers, C, KV)}, vector<{VL}xf32>")
    emit(f"      {ov} = affine.vector_load {o}[0, %h * {HD} + %d] : {m(1, D)}, vector<{VL}xf32>")
    emit(f"      {nv} = vector.fma {pv}, {vv}, {ov} : vector<{VL}xf32>")
    emit(f"      affine.vector_store {nv}, {o}[0, %h * {HD} + %d] : {m(1, D)}, vector<{VL}xf32>")
    emit("    }")
    emit("  }")
    emit("}")
    r = fresh("at")
    emit(f"{r} = bufferization.to_tensor {o} restrict : {m(1, D)} to {t(1, D)}")
    emit(f"memref.dealloc {scores} : {m(H, C)}")
    return r


globals_ = []
weight_args = []


def global_weight(name, shape):
    if args.weights == "args":
        weight_args.append(f"%{name}: {t(*shape)}")
        return f"%{name}"
    globals_.append(f'  memref.global "private" constant @{name} : {m(*shape)}')
    return weight(name, shape)


x = "%x"
for layer in range(args.layers):
    l = f"l{layer}"
    scope[0] = f"model.layers.{layer}"
    ln1 = global_weight(f"{l}_ln1", (D,))
    h = rms_norm(x, ln1, D)
    q = bias(matmul(h, global_weight(f"{l}_wq", (D, D)), D, D),
             global_weight(f"{l}_bq", (D,)), D)
    k = bias(matmul(h, global_weight(f"{l}_wk", (D, KV)), KV, D),
             global_weight(f"{l}_bk", (KV,)), KV)
    v = bias(matmul(h, global_weight(f"{l}_wv", (D, KV)), KV, D),
             global_weight(f"{l}_bv", (KV,)), KV)
    q, k = rope(heads_view(q, D), D), rope(heads_view(k, KV), KV)
    v = heads_view(v, KV)
    cache_write(k, "%kcache", layer)
    cache_copy(v, "%vcache", layer)
    a = attention(q, "%kcache", "%vcache", layer)
    o = matmul(heads_view(a, D), global_weight(f"{l}_wo", (D, D)), D, D)
    x = add(x, o, D)
    ln2 = global_weight(f"{l}_ln2", (D,))
    h2 = rms_norm(x, ln2, D)
    gate = matmul(h2, global_weight(f"{l}_wg", (D, F)), F, D)
    up = matmul(h2, global_weight(f"{l}_wu", (D, F)), F, D)
    act = generic([(gate, t(1, F)), (up, t(1, F))], ["#id2", "#id2", "#id2"], F,
                  ["%one = arith.constant 1.0 : f32",
                   "%ng = arith.negf %a0 : f32",
                   "%e = math.exp %ng : f32",
                   "%den = arith.addf %one, %e : f32",
                   "%sg = arith.divf %a0, %den : f32",
                   "%r = arith.mulf %sg, %a1 : f32",
                   "linalg.yield %r : f32"])
    down = matmul(act, global_weight(f"{l}_wd", (F, D)), D, F)
    x = add(x, down, D)

scope[0] = "model.norm"
final = rms_norm(x, global_weight("norm", (D,)), D)
logits = matmul(final, global_weight("lm_head", (D, V)), V, D)

print("#id2 = affine_map<(d0, d1) -> (d0, d1)>")
print("#row = affine_map<(d0, d1) -> (d0)>")
print("#col = affine_map<(d0, d1) -> (d1)>")
print("module {")
print("\n".join(globals_))
print(f"  func.func @decode_step(%x: {t(1, D)}, %kcache: {m(args.layers, C, KV)}, "
      f"%vcache: {m(args.layers, C, KV)}, %pos: index"
      + "".join(", " + a for a in weight_args) + f") -> {t(1, V)} {{")
print("    %cst0 = arith.constant 0.0 : f32")
print("    %ninf = arith.constant 0xFF800000 : f32")
print("    %c0 = arith.constant 0 : index")
for layer in range(args.layers):
    print(f"    %c{layer} = arith.constant {layer} : index" if layer else "", end="\n" if layer else "")
print("    %posi = arith.index_cast %pos : index to i32")
print("    %posf = arith.sitofp %posi : i32 to f32")
print("\n".join(out))
print(f"    return {logits} : {t(1, V)}")
print("  }")
print("}")
