"""Checks bf16-per-op-rounding.mlir's output: x and y as the f32 bit patterns
of bf16 values; y must equal the chain computed op by op in exact rational
arithmetic, each result rounded to bf16 (utils/fp_reference.py)."""
import os
import struct
import sys
from fractions import Fraction

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "..",
                                "..", "utils"))
from fp_reference import encode  # noqa: E402
from memref_output import memrefs  # noqa: E402


def value(bits32):
    return Fraction(struct.unpack("<f", struct.pack("<I", bits32 & 0xFFFFFFFF))[0])


def bf16(x):
    """x rounded to bf16, as an exact Fraction."""
    bits = encode("bf16", x)
    return value(bits << 16)


def main():
    xs, ys = memrefs(open(sys.argv[1]).read())
    c1, c2, c3, half = bf16(Fraction(446777, 10**7)), bf16(Fraction(796875, 10**6)), \
        Fraction(20), Fraction(1, 2)
    differ = 0
    for xb, yb in zip(xs, ys):
        v = value(xb)
        a = bf16(v * v)
        b = bf16(a * v)
        d = bf16(c1 * b)
        s = bf16(v + d)
        t = bf16(c2 * s)
        n = bf16(s + c3)
        q = bf16(t / n)
        h = bf16(half * v)
        r = bf16(q - h)
        if value(yb) != r:
            differ += 1
    print(f"{len(xs)} elements, {differ} differ from per-op bf16 rounding")


if __name__ == "__main__":
    main()
