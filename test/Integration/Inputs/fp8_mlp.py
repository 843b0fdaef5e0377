"""An MLP forward (32 -> 64 -> relu -> 16, batch 8) for the FP8 test.

  fp8_mlp.py gen           prints the module: @mlp with its weights as
                           constants and #lowp.stats on every matmul operand
                           (computed here from the f32 forward), @mlp_f32
                           the same network pinned to f32, and @main, which
                           runs both and prints the error;
  fp8_mlp.py bytes FILE    prints the bytes of @mlp's weight constants.
"""
import re
import sys

import numpy as np

B, D_IN, D_HID, D_OUT = 8, 32, 64, 16


def data():
    rng = np.random.default_rng(11)
    x = rng.normal(0, 1, (B, D_IN)).astype(np.float32)
    w1 = (rng.normal(0, 1, (D_IN, D_HID)) / np.sqrt(D_IN)).astype(np.float32)
    w2 = (rng.normal(0, 1, (D_HID, D_OUT)) / np.sqrt(D_HID)).astype(np.float32)
    return x, w1, w2


def stats(a):
    mag = np.abs(a[a != 0]).astype(np.float64)
    return "#lowp.stats<amax = %.9g, min = %.9g>" % (
        mag.max(), np.percentile(mag, 4))


def dense(a):
    return "dense<[%s]>" % ", ".join(
        "[%s]" % ", ".join("%.9e" % v for v in row) for row in a)


def mlp(name, w1, w2, pin):
    p = " {lowp.precision = f32}" if pin else ""
    t = lambda r, c: "tensor<%dx%dxf32>" % (r, c)  # noqa: E731
    return "\n".join([
        "func.func @%s(%%x: %s) -> %s {" % (name, t(B, D_IN), t(B, D_OUT)),
        "  %%w1 = arith.constant %s : %s" % (dense(w1[0]), t(D_IN, D_HID))
        if False else
        "  %%w1 = arith.constant%s %s : %s" % (w1[1], dense(w1[0]),
                                               t(D_IN, D_HID)),
        "  %%w2 = arith.constant%s %s : %s" % (w2[1], dense(w2[0]),
                                               t(D_HID, D_OUT)),
        "  %zero = arith.constant 0.0 : f32",
        "  %%e1 = tensor.empty() : %s" % t(B, D_HID),
        "  %%f1 = linalg.fill ins(%%zero : f32) outs(%%e1 : %s) -> %s" %
        (t(B, D_HID), t(B, D_HID)),
        "  %%m1 = linalg.matmul%s ins(%%x, %%w1 : %s, %s) outs(%%f1 : %s) -> %s"
        % (p, t(B, D_IN), t(D_IN, D_HID), t(B, D_HID), t(B, D_HID)),
        "  %%h = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>,"
        " affine_map<(i, j) -> (i, j)>], iterator_types = [\"parallel\", "
        "\"parallel\"]} ins(%%m1 : %s) outs(%%e1 : %s)%s {" %
        (t(B, D_HID), t(B, D_HID), "" if pin else
         " attrs = {lowp.stats = %s}" % HIDDEN_STATS),
        "  ^bb0(%a: f32, %o: f32):",
        "    %r = arith.maximumf %a, %zero : f32",
        "    linalg.yield %r : f32",
        "  } -> %s" % t(B, D_HID),
        "  %%e2 = tensor.empty() : %s" % t(B, D_OUT),
        "  %%f2 = linalg.fill ins(%%zero : f32) outs(%%e2 : %s) -> %s" %
        (t(B, D_OUT), t(B, D_OUT)),
        "  %%m2 = linalg.matmul%s ins(%%h, %%w2 : %s, %s) outs(%%f2 : %s) -> %s"
        % (p, t(B, D_HID), t(D_HID, D_OUT), t(B, D_OUT), t(B, D_OUT)),
        "  return %%m2 : %s" % t(B, D_OUT),
        "}",
    ])


MAIN = r"""
func.func @main() {
  %x = arith.constant XDATA : tensor<8x32xf32>
  %y = call @mlp(%x) : (tensor<8x32xf32>) -> tensor<8x16xf32>
  %ref = call @mlp_f32(%x) : (tensor<8x32xf32>) -> tensor<8x16xf32>
  %zero = arith.constant 0.0 : f32
  %init = tensor.from_elements %zero, %zero : tensor<2xf32>
  // [max |y - ref|, max |ref|] in one reduction.
  %red = linalg.generic {indexing_maps = [affine_map<(i, j, k) -> (i, j)>,
      affine_map<(i, j, k) -> (i, j)>, affine_map<(i, j, k) -> (k)>],
      iterator_types = ["reduction", "reduction", "parallel"]}
      ins(%y, %ref : tensor<8x16xf32>, tensor<8x16xf32>)
      outs(%init : tensor<2xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %k = linalg.index 2 : index
    %c0 = arith.constant 0 : index
    %first = arith.cmpi eq, %k, %c0 : index
    %d = arith.subf %a, %b : f32
    %ad = math.absf %d : f32
    %ab = math.absf %b : f32
    %v = arith.select %first, %ad, %ab : f32
    %m = arith.maximumf %acc, %v : f32
    linalg.yield %m : f32
  } -> tensor<2xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %err = tensor.extract %red[%c0] : tensor<2xf32>
  %top = tensor.extract %red[%c1] : tensor<2xf32>
  %rel = arith.divf %err, %top : f32
  %bound = arith.constant BOUND : f32
  %ok = arith.cmpf ole, %rel, %bound : f32
  vector.print str "within bound "
  vector.print %ok : i1
  vector.print str "max abs err / max abs ref "
  vector.print %rel : f32
  return
}
"""

HIDDEN_STATS = None
# Each matmul quantizes both operands to E4M3 (3 mantissa bits: relative
# rounding error uniform in +-2^-4, RMS 2^-4/sqrt(3) = 3.6%), so each layer
# perturbs its output by about sqrt(2) * 3.6% = 5.1% RMS, two layers by about
# 7.2%; the largest error relative to the largest output stays within about
# twice that.
BOUND = 0.15


def gen():
    global HIDDEN_STATS
    x, w1, w2 = data()
    h = np.maximum(x @ w1, 0)
    HIDDEN_STATS = stats(h)
    print("module {")
    print("// x: %s" % stats(x))
    print(mlp("mlp", (w1, " {lowp.stats = %s}" % stats(w1)),
              (w2, " {lowp.stats = %s}" % stats(w2)), pin=False)
          .replace("func.func @mlp(%x: tensor<8x32xf32>)",
                   "func.func @mlp(%%x: tensor<8x32xf32> {lowp.stats = %s})"
                   % stats(x)))
    print(mlp("mlp_f32", (w1, ""), (w2, ""), pin=True))
    print(MAIN.replace("XDATA", dense(x)).replace("BOUND", "%.3f" % BOUND))
    print("}")


def weight_bytes(path):
    """Bytes of the rank-2 constants of @mlp (its weights)."""
    text = open(path).read()
    body = text[text.index("func.func @mlp("):]
    body = body[:body.index("\n  }\n") if "\n  }\n" in body else
                body.index("\n}\n")]
    total = 0
    for m in re.finditer(r"arith.constant[^\n]*: tensor<(\d+)x(\d+)x(\w+)>",
                         body):
        rows, cols, elt = int(m.group(1)), int(m.group(2)), m.group(3)
        bits = 32 if elt == "f32" else 16 if elt in ("bf16", "f16") else 8
        total += rows * cols * bits // 8
    return total


if __name__ == "__main__":
    if sys.argv[1] == "gen":
        gen()
    elif sys.argv[1] == "bytes":
        before = weight_bytes(sys.argv[2])
        after = weight_bytes(sys.argv[3])
        print("weight bytes f32 %d fp8 %d ratio %.4f" %
              (before, after, after / before))
