"""Compares the printMemrefF32 dumps of a model's low-precision run with the
f32 run of the same model, element by element, under a bound derived from
the formats' unit roundoff and the reduction lengths.

Usage: check_model.py REF LOW --term F:K1,K2,... [--term ...] [--factor c]
                       [--min-rel R]

Every printed tensor t is checked on its own: for every element i,
  |low_i - ref_i| <= B * max_j |ref_j|,   B = c * sum over terms of G_F u_F
where u_F = 2^-p is the unit roundoff of format F (p its significand
precision, implicit bit included) and K1, K2, ... are the lengths of the
reductions (contraction depths, pooled windows, summed rows) on the
longest path from the inputs to the output that run with operands in F:
  - a 16- or 8-bit F: G_F = sqrt(K1 + K2 + ...). Every product or summand
    of a reduction of length K has its operands rounded to F, a relative
    error of at most u_F each; the K errors are independent and add as a
    random walk, about u_F sqrt(K) times the largest term, which is at most
    max|y| for the O(1) activations and small weights of these models; the
    reductions' errors add in quadrature along the path.
  - F = f32 (the same model through two lowerings, which sum in different
    orders, each within gamma_K ~ K u of the exact sum): G = K1 + K2 + ...
c (default 1) is the gain the test states for what this model leaves out
(a normalization's 1/sigma, a softmax's or log-softmax's Lipschitz
constant). --min-rel R additionally requires max|low - ref| / max|ref| > R
for at least one tensor (the low format was really used). Prints, per tensor, the max absolute
error, the max relative error on elements with |ref| >= max|ref| / 8 and
the normwise error against B, then PASS or FAIL."""
import argparse
import math
import re
import sys

# Significand precision p (implicit bit included) of each format: u = 2^-p.
PRECISION = {"f32": 24, "tf32": 11, "bf16": 8, "f16": 11,
             "f8E4M3FN": 4, "f8E4M3FNUZ": 4, "f8E5M2": 3, "f8E5M2FNUZ": 3}
NUMBER = r"-?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?|-?nan|-?inf"


def tensors(path):
    """The data of every printMemrefF32 dump in the file, flattened."""
    text = open(path).read()
    out = []
    for block in re.split(r"Unranked Memref", text)[1:]:
        data = block[block.index("data =") + len("data ="):]
        out.append([float(v) for v in re.findall(NUMBER, data)])
    return out


def term_bound(term):
    fmt, _, lengths = term.partition(":")
    if fmt not in PRECISION or not lengths:
        sys.exit(f"check_model: bad --term {term!r} (FORMAT:K1,K2,...)")
    total = sum(int(k) for k in lengths.split(","))
    growth = total if fmt == "f32" else math.sqrt(total)
    return growth * 2.0 ** -PRECISION[fmt], f"{growth:.3g} u({fmt})"


parser = argparse.ArgumentParser()
parser.add_argument("ref")
parser.add_argument("low")
parser.add_argument("--term", action="append", required=True)
parser.add_argument("--factor", type=float, default=1.0)
parser.add_argument("--min-rel", type=float, default=0.0)
cli = parser.parse_args()

terms = [term_bound(t) for t in cli.term]
bound = cli.factor * sum(b for b, _ in terms)
formula = (f"{cli.factor:g} * " if cli.factor != 1 else "") + \
    "(" + " + ".join(text for _, text in terms) + ")"
refs, lows = tensors(cli.ref), tensors(cli.low)
ok = len(refs) == len(lows) and len(refs) > 0
largest_rel = 0.0
if not ok:
    print(f"FAIL: {len(refs)} reference tensors, {len(lows)} low-precision ones")
for t, (ref, low) in enumerate(zip(refs, lows)):
    if len(ref) != len(low) or not ref:
        print(f"tensor {t}: FAIL: {len(ref)} vs {len(low)} elements")
        ok = False
        continue
    scale = max(abs(v) for v in ref)
    errs = [abs(a - b) if math.isfinite(a) else math.inf
            for a, b in zip(low, ref)]
    max_abs = max(errs)
    big = [e / abs(r) for e, r in zip(errs, ref) if abs(r) >= scale / 8]
    rel = max_abs / scale if scale > 0 else max_abs
    good = max_abs <= bound * scale
    largest_rel = max(largest_rel, rel)
    ok = ok and good
    print(f"tensor {t}: {len(ref)} elements: max abs err {max_abs:.3e}, "
          f"max rel err (|ref| >= max/8) {max(big):.3e}, normwise "
          f"{rel:.3e} <= {bound:.3e} = {formula}: {'ok' if good else 'FAIL'}")
if cli.min_rel:
    used = largest_rel > cli.min_rel
    print(f"largest normwise error {largest_rel:.3e} > {cli.min_rel:.3e} "
          f"(the low format was used): {'ok' if used else 'FAIL'}")
    ok = ok and used
print("PASS" if ok else "FAIL")
sys.exit(0 if ok else 1)
