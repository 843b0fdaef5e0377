"""Compares the printMemrefF32 dumps of a low-precision run with the f32 run
of the same model, element by element.

Usage: check_model.py REF LOW --format F --reductions K1,K2,.. [--factor c]
                       [--min-rel R]

Every printed tensor t is checked on its own: for every element i,
  |low_i - ref_i| <= G * u(F) * max_j |ref_j|
where u(F) = 2^-p is the unit roundoff of format F (p = its significand
precision, implicit bit included) and G the growth factor of the reduction
lengths K_l of the contractions (and reductions) on the longest path:
  - low formats: G = c * sqrt(sum_l K_l). Every product of a contraction of
    length K has operands rounded to F, a relative error of at most u each;
    the errors of the K products are independent and add as a random walk,
    so y = sum_k a_k b_k errs by about u sqrt(K) max|a_k b_k| <= u sqrt(K)
    max|y| for the small-magnitude operands of these tests, and the layers'
    errors add in quadrature along the path. c (default 1) is the
    amplification the test states for what this model leaves out
    (normalizations, softmax, losses).
  - f32 (the same model through two lowerings): the two runs sum in
    different orders, each within gamma_K = K u of the exact sums:
    G = c * sum_l K_l.
--min-rel R additionally requires max|low - ref| / max|ref| > R (the low
format was really used). Prints, per tensor, the max absolute
error, the max relative error on elements with |ref| >= max|ref| / 8, the
normwise relative error and the bound, then PASS or FAIL."""
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
        data = block[block.index("data ="):]
        out.append([float(v) for v in re.findall(NUMBER, data[len("data ="):])])
    return out


parser = argparse.ArgumentParser()
parser.add_argument("ref")
parser.add_argument("low")
parser.add_argument("--format", required=True, choices=sorted(PRECISION))
parser.add_argument("--reductions", required=True,
                    help="comma-separated reduction lengths on the longest path")
parser.add_argument("--factor", type=float, default=1.0)
parser.add_argument("--min-rel", type=float, default=0.0)
cli = parser.parse_args()

u = 2.0 ** -PRECISION[cli.format]
lengths = [int(k) for k in cli.reductions.split(",")]
growth = cli.factor * (sum(lengths) if cli.format == "f32"
                       else math.sqrt(sum(lengths)))
refs, lows = tensors(cli.ref), tensors(cli.low)
ok = len(refs) == len(lows) and len(refs) > 0
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
    bound = growth * u
    good = max_abs <= bound * scale and (cli.min_rel == 0 or rel > cli.min_rel)
    ok = ok and good
    print(f"tensor {t}: {len(ref)} elements, {cli.format}: max abs err "
          f"{max_abs:.3e}, max rel err (|ref| >= max/8) {max(big):.3e}, "
          f"normwise {rel:.3e} <= {bound:.3e} (G={growth:.3g}, u=2^-"
          f"{PRECISION[cli.format]}): {'ok' if good else 'FAIL'}")
print("PASS" if ok else "FAIL")
sys.exit(0 if ok else 1)
