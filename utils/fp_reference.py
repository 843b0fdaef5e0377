#!/usr/bin/env python3
"""Independent reference for float rounding, from each format's bit layout.

Used to compute the expected bit patterns in test/Dialect/Lowp/canonicalize.mlir
(and by hand-checks): exact rational arithmetic, no APFloat, no numpy.

    python3 utils/fp_reference.py f8E4M3FN 464.0 --saturate
"""
import argparse
import math
from fractions import Fraction

# name: (exponent bits, mantissa bits, bias, kind)
#   ieee: top exponent is inf/NaN; fn: only S.1111.111 is NaN, no inf;
#   fnuz: 0x80 is the only NaN, no inf, no negative zero.
FORMATS = {
    "f32": (8, 23, 127, "ieee"),
    "f16": (5, 10, 15, "ieee"),
    "bf16": (8, 7, 127, "ieee"),
    "f8E5M2": (5, 2, 15, "ieee"),
    "f8E4M3FN": (4, 3, 7, "fn"),
    "f8E4M3FNUZ": (4, 3, 8, "fnuz"),
    "f8E5M2FNUZ": (5, 2, 16, "fnuz"),
}


def layout(name):
    e, m, bias, kind = FORMATS[name]
    width = 1 + e + m
    top = (1 << e) - 1
    if kind == "ieee":
        max_exp, max_man = top - 1, (1 << m) - 1
    elif kind == "fn":
        max_exp, max_man = top, (1 << m) - 2
    else:
        max_exp, max_man = top, (1 << m) - 1
    return e, m, bias, kind, width, max_exp, max_man


def value_of(name, biased_exp, man):
    e, m, bias, *_ = layout(name)
    if biased_exp == 0:
        return Fraction(man, 1 << m) * Fraction(2) ** (1 - bias)
    return (1 + Fraction(man, 1 << m)) * Fraction(2) ** (biased_exp - bias)


def nan_bits(name):
    e, m, bias, kind, width, *_ = layout(name)
    if kind == "fnuz":
        return 1 << (width - 1)
    if kind == "fn":
        return (1 << (width - 1)) - 1
    return (((1 << e) - 1) << m) | (1 << (m - 1))


def encode(name, x, mode="nearest_even", saturate=False):
    """Bit pattern of x (a Python float) in format `name`."""
    e, m, bias, kind, width, max_exp, max_man = layout(name)
    sign_bit = 1 << (width - 1)
    if math.isnan(x):
        return nan_bits(name)
    negative = math.copysign(1.0, x) < 0
    sign = sign_bit if negative else 0
    if kind == "fnuz":
        zero_sign = 0
    else:
        zero_sign = sign
    max_value = value_of(name, max_exp, max_man)
    if math.isinf(x):
        if saturate:
            return sign | (max_exp << m) | max_man
        if kind == "ieee":
            return sign | (((1 << e) - 1) << m)
        return nan_bits(name)
    a = abs(Fraction(x))
    if a == 0:
        return zero_sign
    # Quantum (spacing) at a's binade, floored at the subnormal quantum.
    min_exp = 1 - bias
    exp = max(math.floor(math.log2(a)), min_exp) if a > 0 else min_exp
    # fix log2 rounding on exact powers
    while Fraction(2) ** exp > a and exp > min_exp:
        exp -= 1
    while Fraction(2) ** (exp + 1) <= a:
        exp += 1
    quantum = Fraction(2) ** (exp - m)
    q, r = divmod(a, quantum)
    q = int(q)
    if mode == "nearest_even":
        if r > quantum / 2 or (r == quantum / 2 and q % 2 == 1):
            q += 1
    rounded = q * quantum
    if rounded > max_value:
        overflow_to_max = saturate or mode == "toward_zero"
        # Nearest-even overflow: beyond max + half a quantum of the top binade.
        if overflow_to_max:
            return sign | (max_exp << m) | max_man
        if kind == "ieee":
            return sign | (((1 << e) - 1) << m)
        return nan_bits(name)
    if rounded == 0:
        return zero_sign
    # Encode rounded.
    exp_r = math.floor(math.log2(rounded))
    while Fraction(2) ** exp_r > rounded:
        exp_r -= 1
    while Fraction(2) ** (exp_r + 1) <= rounded:
        exp_r += 1
    if exp_r < min_exp:
        man = int(rounded / Fraction(2) ** (min_exp - m))
        return sign | man
    man = int((rounded / Fraction(2) ** exp_r - 1) * (1 << m))
    return sign | ((exp_r + bias) << m) | man


def main():
    p = argparse.ArgumentParser()
    p.add_argument("format", choices=sorted(FORMATS))
    p.add_argument("values", nargs="+")
    p.add_argument("--saturate", action="store_true")
    p.add_argument("--mode", default="nearest_even",
                   choices=["nearest_even", "toward_zero"])
    a = p.parse_args()
    for v in a.values:
        x = float.fromhex(v) if v.startswith(("0x", "-0x")) else float(v)
        bits = encode(a.format, x, a.mode, a.saturate)
        width = layout(a.format)[4]
        signed = bits - (1 << width) if bits >> (width - 1) else bits
        print(f"{v}\t0x{bits:0{width // 4}X}\t{signed}")


if __name__ == "__main__":
    main()
