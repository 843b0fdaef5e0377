"""quantize -> dequantize on the CPU against the bit-layout model.

  fp8_roundtrip.py gen            prints an MLIR module whose @main quantizes
                                  and dequantizes test vectors for every FP8
                                  type and prints the 8-bit patterns and the
                                  f32 results;
  fp8_roundtrip.py check FILE     compares that output with fp8_reference.
"""
import os
import re
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(__file__))
import fp8_reference as ref  # noqa: E402

SCALES = [1.0, 3.0, 0.0625]


def test_vector(fmt):
    """Every finite value, every midpoint (exact ties) and its neighbours,
    values past the max, zeros, tiny values and random normals."""
    values, _ = ref.positive_table(fmt)
    mids = (values[:-1] + values[1:]) / 2
    f32 = np.float32
    xs = list(values) + list(mids)
    xs += [np.nextafter(f32(m), f32(0)) for m in mids[::3]]
    xs += [np.nextafter(f32(m), f32(np.inf)) for m in mids[::3]]
    top = values[-1]
    xs += [top * 1.01, top * 1.5, top * 4, 1e30, values[1] / 2,
           values[1] / 2 * 1.001, values[1] / 4, 1e-30, 0.0]
    rng = np.random.default_rng(7)
    xs += list(rng.normal(0, 1, 64) * top / 8)
    xs = np.array(xs, dtype=np.float32)
    return np.concatenate([xs, -xs])


def fmt_f32(v):
    return "%.9e" % float(v)


def gen():
    print("func.func private @printMemrefF32(tensor<*xf32>)")
    print("func.func private @printMemrefI32(tensor<*xi32>)")
    print("func.func @main() {")
    n = 0
    for f, fmt in enumerate(ref.FORMATS):
        xs = test_vector(fmt)
        t = "tensor<%dxf32>" % len(xs)
        q = "tensor<%dx%s>" % (len(xs), fmt)
        qi = "tensor<%dxi32>" % len(xs)
        print("  %%x%d = arith.constant dense<[%s]> : %s" %
              (f, ", ".join(fmt_f32(v) for v in xs), t))
        for scale in SCALES:
            print('  vector.print str "CASE %s %r\\n"' % (fmt, scale))
            print("  %%s%d = arith.constant %s : f32" % (n, fmt_f32(scale)))
            print("  %%q%d = lowp.quantize %%x%d, %%s%d : %s, f32 to %s" %
                  (n, f, n, t, q))
            print("  %%d%d = lowp.dequantize %%q%d, %%s%d : %s, f32 to %s" %
                  (n, n, n, q, t))
            # The 8-bit patterns, widened to i32 for printing.
            print("  %%e%d = tensor.empty() : %s" % (n, qi))
            print("  %%b%d = linalg.generic {indexing_maps = ["
                  "affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], "
                  "iterator_types = [\"parallel\"]} ins(%%q%d : %s) "
                  "outs(%%e%d : %s) {" % (n, n, q, n, qi))
            print("  ^bb0(%%a: %s, %%o: i32):" % fmt)
            print("    %%i = arith.bitcast %%a : %s to i8" % fmt)
            print("    %w = arith.extui %i : i8 to i32")
            print("    linalg.yield %w : i32")
            print("  } -> %s" % qi)
            print("  %%ub%d = tensor.cast %%b%d : %s to tensor<*xi32>" %
                  (n, n, qi))
            print("  call @printMemrefI32(%%ub%d) : (tensor<*xi32>) -> ()" % n)
            print("  %%ud%d = tensor.cast %%d%d : %s to tensor<*xf32>" %
                  (n, n, t))
            print("  call @printMemrefF32(%%ud%d) : (tensor<*xf32>) -> ()" % n)
            n += 1
    print("  return")
    print("}")


def parse_memref(line):
    body = line.strip().strip("[]")
    return [float(v) for v in body.split(",") if v.strip()]


def check(path):
    lines = open(path).read().splitlines()
    cases = 0
    for i, line in enumerate(lines):
        m = re.match(r"CASE (\S+) (\S+)", line)
        if not m:
            continue
        fmt, scale = m.group(1), float(m.group(2))
        xs = test_vector(fmt)
        # Each printMemref prints a header line then the data line.
        bits = [int(v) for v in parse_memref(lines[i + 2])]
        got = np.array(parse_memref(lines[i + 4]), dtype=np.float32)
        product = xs * np.float32(scale)
        want_bits = [ref.quantize_bits(fmt, p) for p in product]
        want = ref.roundtrip_array(fmt, xs, scale)
        bad = [k for k in range(len(xs)) if bits[k] != want_bits[k]]
        if bad:
            k = bad[0]
            print("FAIL %s scale %g: %d of %d patterns differ; x=%r got 0x%02x "
                  "want 0x%02x" % (fmt, scale, len(bad), len(xs), float(xs[k]),
                                   bits[k], want_bits[k]))
            return 1
        # printMemrefF32 prints 6 significant digits (relative 5e-6); an
        # FP8 rounding error is at least 2^-4.
        err = np.abs(got - want) / np.maximum(np.abs(want), 1e-38)
        if not np.all(err <= 1e-5):
            print("FAIL %s scale %g: dequantized values differ (max rel %g)" %
                  (fmt, scale, err.max()))
            return 1
        print("OK %s scale %g: %d values, %d saturated, bit-exact" %
              (fmt, scale, len(xs),
               int(np.sum(np.abs(product) > ref.max_finite(fmt)))))
        cases += 1
    print("CASES %d" % cases)
    return 0 if cases == len(ref.FORMATS) * len(SCALES) else 1


if __name__ == "__main__":
    if sys.argv[1] == "gen":
        gen()
    else:
        sys.exit(check(sys.argv[2]))
