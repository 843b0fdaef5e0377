"""Two nn.Linear layers as torch-mlir exports them, for the FP8 weight tests.

  fp8_linear.py model            prints @forward(x, w1, b1, w2, b2): x
                                 collapsed from (2, 8, 32) to (16, 32), w1
                                 transposed by linalg.transpose, w2 by a
                                 copy-like linalg.generic (older torch-mlir,
                                 TOSA), bias adds, ReLU between the layers;
  fp8_linear.py main COMPILED    prints COMPILED with a @main that calls
                                 @forward on fixed data and prints its result
                                 (printMemrefF32). It reads @forward's
                                 signature back, as an embedder does
                                 (docs/embedding.md): an f8 weight argument
                                 with `lowp.fp8_scale = J : i64` gets the
                                 weight quantized here (s = fmax / amax(w)
                                 in f32, q = saturate(rne(w * s)), from the
                                 bit-layout model of fp8_reference.py, no
                                 APFloat) and its scale as argument J; an f32
                                 argument gets the f32 data;
  fp8_linear.py check OUT FMT    compares the printed result with a float64
                                 numpy forward: every element within a
                                 worst-case bound derived from FMT's
                                 rounding (see `bound`), and the largest
                                 error at least 2^-7 of the largest output
                                 (FP8 was used, not a 16-bit format).
"""
import os
import re
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fp8_reference  # noqa: E402

B, S, D, H, O = 2, 8, 32, 64, 16
N = B * S


def data():
    rng = np.random.default_rng(5)
    x = rng.normal(0, 1, (B, S, D)).astype(np.float32)
    w1 = (rng.normal(0, 1, (H, D)) / np.sqrt(D)).astype(np.float32)
    b1 = rng.normal(0, 0.1, (H,)).astype(np.float32)
    w2 = (rng.normal(0, 1, (O, H)) / np.sqrt(H)).astype(np.float32)
    b2 = rng.normal(0, 0.1, (O,)).astype(np.float32)
    return [x, w1, b1, w2, b2]


MODEL = f"""#id = affine_map<(d0, d1) -> (d0, d1)>
#tr = affine_map<(d0, d1) -> (d1, d0)>
#row = affine_map<(d0, d1) -> (d1)>
func.func @forward(%x: tensor<{B}x{S}x{D}xf32>, %w1: tensor<{H}x{D}xf32>, %b1: tensor<{H}xf32>, %w2: tensor<{O}x{H}xf32>, %b2: tensor<{O}xf32>) -> tensor<{N}x{O}xf32> {{
  %zero = arith.constant 0.0 : f32
  %xc = tensor.collapse_shape %x [[0, 1], [2]] : tensor<{B}x{S}x{D}xf32> into tensor<{N}x{D}xf32>
  %w1e = tensor.empty() : tensor<{D}x{H}xf32>
  %w1t = linalg.transpose ins(%w1 : tensor<{H}x{D}xf32>) outs(%w1e : tensor<{D}x{H}xf32>) permutation = [1, 0]
  %he = tensor.empty() : tensor<{N}x{H}xf32>
  %hf = linalg.fill ins(%zero : f32) outs(%he : tensor<{N}x{H}xf32>) -> tensor<{N}x{H}xf32>
  %hm = linalg.matmul ins(%xc, %w1t : tensor<{N}x{D}xf32>, tensor<{D}x{H}xf32>) outs(%hf : tensor<{N}x{H}xf32>) -> tensor<{N}x{H}xf32>
  %h = linalg.generic {{indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}} ins(%hm, %b1 : tensor<{N}x{H}xf32>, tensor<{H}xf32>) outs(%he : tensor<{N}x{H}xf32>) {{
  ^bb0(%a: f32, %c: f32, %o: f32):
    %s = arith.addf %a, %c : f32
    %r = arith.maximumf %s, %zero : f32
    linalg.yield %r : f32
  }} -> tensor<{N}x{H}xf32>
  %w2e = tensor.empty() : tensor<{H}x{O}xf32>
  %w2t = linalg.generic {{indexing_maps = [#tr, #id], iterator_types = ["parallel", "parallel"]}} ins(%w2 : tensor<{O}x{H}xf32>) outs(%w2e : tensor<{H}x{O}xf32>) {{
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  }} -> tensor<{H}x{O}xf32>
  %ye = tensor.empty() : tensor<{N}x{O}xf32>
  %yf = linalg.fill ins(%zero : f32) outs(%ye : tensor<{N}x{O}xf32>) -> tensor<{N}x{O}xf32>
  %ym = linalg.matmul ins(%h, %w2t : tensor<{N}x{H}xf32>, tensor<{H}x{O}xf32>) outs(%yf : tensor<{N}x{O}xf32>) -> tensor<{N}x{O}xf32>
  %y = linalg.generic {{indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}} ins(%ym, %b2 : tensor<{N}x{O}xf32>, tensor<{O}xf32>) outs(%ye : tensor<{N}x{O}xf32>) {{
  ^bb0(%a: f32, %c: f32, %o: f32):
    %s = arith.addf %a, %c : f32
    linalg.yield %s : f32
  }} -> tensor<{N}x{O}xf32>
  return %y : tensor<{N}x{O}xf32>
}}
"""


def dense_f32(a):
    return 'dense<"0x%s">' % a.astype("<f4").tobytes().hex().upper()


def scale_of(fmt, w):
    """fp-opt's current scaling: fmax / amax(w), divided in f32."""
    return np.float32(fp8_reference.max_finite(fmt)) / np.float32(
        np.max(np.abs(w)))


def quantize(fmt, w, s):
    """The caller's quantization: saturate(rne(w * s)) as 8-bit patterns."""
    product = (w.astype(np.float32) * np.float32(s)).astype(np.float32)
    return np.array([fp8_reference.quantize_bits(fmt, v)
                     for v in product.ravel()],
                    dtype=np.uint8).reshape(w.shape)


def parse_signature(text):
    """[(type, attributes text)] of @forward's arguments."""
    header = re.search(r"func\.func @forward\((.*?)\) ->", text).group(1)
    args = re.findall(r"%\w+: ([^ ,{]+(?: \{[^}]*\})?)", header)
    out = []
    for a in args:
        m = re.match(r"(\S+)(?: \{(.*)\})?", a)
        out.append((m.group(1), m.group(2) or ""))
    return out


def main(path):
    text = open(path).read()
    inputs = data()
    signature = parse_signature(text)
    values = [None] * len(signature)
    for i, (ty, attrs) in enumerate(signature):
        if i >= len(inputs):
            continue
        a = inputs[i]
        elt = re.match(r"tensor<(?:\d+x)*(\w+)>", ty).group(1)
        if elt == "f32":
            values[i] = "arith.constant %s : %s" % (dense_f32(a), ty)
            continue
        m = re.search(r"lowp\.fp8_scale = (\d+) : i64", attrs)
        assert elt in fp8_reference.FORMATS and m, "unexpected argument " + ty
        s = scale_of(elt, a)
        q = quantize(elt, a, s)
        values[i] = 'arith.constant dense<"0x%s"> : %s' % (
            q.tobytes().hex().upper(), ty)
        values[int(m.group(1))] = "arith.constant %s : f32" % (
            np.format_float_scientific(s, unique=True))
    assert all(v is not None for v in values), "argument without data"
    lines = ["func.func private @printMemrefF32(tensor<*xf32>)",
             "func.func @main() {"]
    for i, v in enumerate(values):
        lines.append("  %%a%d = %s" % (i, v))
    types = ", ".join(t for t, _ in signature)
    lines.append("  %%y = call @forward(%s) : (%s) -> tensor<%dx%dxf32>" % (
        ", ".join("%%a%d" % i for i in range(len(values))), types, N, O))
    lines.append("  %%u = tensor.cast %%y : tensor<%dx%dxf32> to tensor<*xf32>"
                 % (N, O))
    lines.append("  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()")
    lines.append("  return")
    lines.append("}")
    end = text.rstrip().rindex("}")
    print(text[:end] + "\n".join(lines) + "\n}")


def rounding(fmt):
    """(u, tiny): |round(v) - v| <= u |v| + tiny, in the format's units."""
    if fmt == "bf16":
        return 2.0 ** -8, 0.0
    _, m_bits, _, _ = fp8_reference.FORMATS[fmt]
    # Half an ulp relative, plus the f32 product x * s rounded before it;
    # below the normals, half the subnormal spacing.
    return 2.0 ** -(m_bits + 1) + 2.0 ** -23, fp8_reference.min_subnormal(
        fmt) / 2


def bound(fmt):
    """float64 forward and a worst-case bound on |fp-opt's output - forward|
    per element, whatever the decision pipeline leaves in f32 or bf16: each
    matmul input quantized to `fmt` with a per-tensor amax scale (error
    u |v| + tiny / s), exact FP8 products summed in f32 and scaled by
    1 / (sa sb) (gamma_{K+3} of the sum of magnitudes), each matmul result,
    bias, sum and ReLU result possibly rounded to bf16 (2^-8 relative each:
    the bound holds when they stay f32). Errors of a layer's input carry
    into the next through the same sums."""
    x, w1, b1, w2, b2 = (a.astype(np.float64) for a in data())
    x = x.reshape(N, D)
    u, tiny = rounding(fmt)
    ub = 2.0 ** -8
    fmax = fp8_reference.max_finite(fmt)

    def quantized(v, e):
        """Error of quantizing v~ (|v~ - v| <= e) with s = fmax / amax(v~)."""
        amax = np.max(np.abs(v) + e)
        return e + u * (np.abs(v) + e) + tiny * amax / fmax * (1 + 2.0 ** -22)

    def linear(v, ev, w, b):
        wt = w.T
        eq_v, eq_w = quantized(v, ev), quantized(wt, 0.0)
        y = v @ wt
        k = v.shape[1]
        gamma = (k + 3) * 2.0 ** -24 / (1 - (k + 3) * 2.0 ** -24)
        mag = (np.abs(v) + eq_v) @ (np.abs(wt) + eq_w)
        e = eq_v @ np.abs(wt) + (np.abs(v) + eq_v) @ eq_w + gamma * mag
        # The matmul result and the bias rounded to bf16, then their sum.
        e = e + ub * (np.abs(y) + e)
        eb = ub * np.abs(b)
        s = y + b
        e = e + eb + ub * (np.abs(s) + e + eb)
        return s, e

    h, eh = linear(x, 0.0, w1, b1)
    h_relu = np.maximum(h, 0)
    eh = eh + ub * (np.abs(h_relu) + eh)  # ReLU's result rounded: 1-Lipschitz
    y, ey = linear(h_relu, eh, w2, b2)
    return y, ey


def printed(path):
    text = open(path).read()
    body = text[text.index("data ="):]
    return np.array([float(v) for v in re.findall(
        r"-?\d+(?:\.\d+)?(?:e[-+]?\d+)?|nan|inf", body)]).reshape(N, O)


def check(path, fmt):
    out = printed(path)
    ref, limit = bound(fmt)
    err = np.abs(out - ref)
    worst = np.max(err / limit)
    rel = np.max(err) / np.max(np.abs(ref))
    ok = worst <= 1 and rel >= 2.0 ** -7
    print("max error / bound %.3f, max error / max |ref| %.4f (>= 2^-7): %s"
          % (worst, rel, "PASS" if ok else "FAIL"))
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    if sys.argv[1] == "model":
        sys.stdout.write(MODEL)
    elif sys.argv[1] == "main":
        main(sys.argv[2])
    elif sys.argv[1] == "check":
        check(sys.argv[2], sys.argv[3])
