"""An independent model of the 8-bit float formats, built from their bit
layouts (sign, exponent, mantissa, bias, NaN/inf encodings) with numpy.

Nothing here reads fp-opt or APFloat: the tests compare fp-opt's lowered
quantize/dequantize against this model.
"""
import numpy as np

# name: (exponent bits, mantissa bits, bias, layout)
#   "ieee": all-ones exponent holds inf/NaN             (f8E5M2)
#   "fn":   only S.1111.111 is NaN, no inf              (f8E4M3FN)
#   "fnuz": 0x80 is the single NaN, no inf, no -0       (f8E4M3FNUZ, f8E5M2FNUZ)
FORMATS = {
    "f8E4M3FN": (4, 3, 7, "fn"),
    "f8E5M2": (5, 2, 15, "ieee"),
    "f8E4M3FNUZ": (4, 3, 8, "fnuz"),
    "f8E5M2FNUZ": (5, 2, 16, "fnuz"),
}


def decode(fmt, bits):
    """Value of the 8-bit pattern `bits` (nan for NaN, +-inf for inf)."""
    e_bits, m_bits, bias, layout = FORMATS[fmt]
    sign = -1.0 if bits & 0x80 else 1.0
    exp = (bits >> m_bits) & ((1 << e_bits) - 1)
    man = bits & ((1 << m_bits) - 1)
    e_max = (1 << e_bits) - 1
    if layout == "fnuz" and bits == 0x80:
        return float("nan")
    if layout == "fn" and exp == e_max and man == (1 << m_bits) - 1:
        return float("nan")
    if layout == "ieee" and exp == e_max:
        return sign * float("inf") if man == 0 else float("nan")
    if exp == 0:
        return sign * man * 2.0 ** (1 - bias - m_bits)
    return sign * (1.0 + man / 2.0 ** m_bits) * 2.0 ** (exp - bias)


def positive_table(fmt):
    """(values, patterns) of the non-negative finite values, ascending."""
    pairs = [(decode(fmt, b), b) for b in range(0x80)]
    pairs = [(v, b) for v, b in pairs if np.isfinite(v)]
    pairs.sort()
    return np.array([v for v, _ in pairs]), [b for _, b in pairs]


def max_finite(fmt):
    return positive_table(fmt)[0][-1]


def min_subnormal(fmt):
    return positive_table(fmt)[0][1]


def quantize_bits(fmt, x):
    """Round-to-nearest-even with saturation of the f32 value `x`; returns the
    8-bit pattern."""
    values, patterns = positive_table(fmt)
    layout = FORMATS[fmt][3]
    x = float(x)
    if np.isnan(x):
        raise ValueError("NaN is not modelled")
    negative = x < 0 or (x == 0 and np.signbit(x))
    a = min(abs(x), values[-1])  # saturation
    i = int(np.searchsorted(values, a))  # values[i-1] < a <= values[i]
    if i < len(values) and values[i] == a:
        k = i
    else:
        lo, hi = i - 1, i
        dl, dh = a - values[lo], values[hi] - a
        if dl < dh:
            k = lo
        elif dh < dl:
            k = hi
        else:  # tie: the even significand
            k = lo if patterns[lo] % 2 == 0 else hi
    bits = patterns[k]
    if negative and not (layout == "fnuz" and bits == 0):
        bits |= 0x80
    return bits


def quantize_dequantize(fmt, x, scale):
    """fp-opt's quantize -> dequantize in f32: rne_sat(x * s) * (1 / s)."""
    s = np.float32(scale)
    product = np.float32(x) * s
    q = decode(fmt, quantize_bits(fmt, product))
    return np.float32(np.float32(q) * (np.float32(1) / s))


def roundtrip_array(fmt, xs, scale):
    return np.array([quantize_dequantize(fmt, x, scale) for x in xs],
                    dtype=np.float32)
