"""fpopt.numerics: numpy RNE rounding, checked against independent references:
numpy's own float16 conversion, the classic float32 bit trick for bf16,
LLVM's APFloat (through the C API), exhaustive enumeration of every code of
every format, and the format table."""

import numpy as np
import pytest

import fpopt
from fpopt import _fpopt
from fpopt.numerics import FORMATS, decode_all, round_to, scaled_round_to

FP8 = ["f8E4M3FN", "f8E5M2", "f8E4M3FNUZ", "f8E5M2FNUZ"]


def _same(a, b):
    """Bitwise-equal float arrays, NaN == NaN, -0 != +0."""
    a, b = np.asarray(a, np.float64), np.asarray(b, np.float64)
    return np.array_equal(a.view(np.uint64), b.view(np.uint64)) or (
        np.array_equal(np.isnan(a), np.isnan(b)) and
        np.array_equal(np.where(np.isnan(a), 0, a).view(np.uint64),
                       np.where(np.isnan(b), 0, b).view(np.uint64)))


def _wide_sample(rng, fmt, n=20000):
    """Random magnitudes spanning the format's subnormals to beyond its max,
    both signs, plus exact ties and boundary values."""
    spec = FORMATS[fmt]
    lo = np.log2(spec.min_subnormal) - 3
    hi = np.log2(spec.max_finite) + 2
    x = np.exp2(rng.uniform(lo, hi, n)) * rng.choice([-1.0, 1.0], n)
    codes = decode_all(fmt) if spec.bits <= 16 else np.array([])
    finite = np.sort(np.unique(np.abs(codes[np.isfinite(codes)])))
    ties = (finite[1:] + finite[:-1]) / 2 if finite.size else np.array([])
    return np.concatenate([x, finite, -finite, ties, -ties,
                           [0.0, -0.0, np.inf, -np.inf, np.nan]])


def test_formats_agree_with_format_table():
    for name, spec in FORMATS.items():
        row = fpopt.float_format(name)
        assert (spec.bits, spec.exponent_bits, spec.mantissa_bits) == (
            row.bits, row.exponent_bits, row.mantissa_bits), name
        assert spec.max_finite == row.max_finite, name
        assert spec.min_normal == row.min_normal, name
        assert spec.min_subnormal == row.min_subnormal, name
        assert spec.has_inf == row.has_inf, name
        assert spec.has_negative_zero == row.has_negative_zero, name


@pytest.mark.parametrize("fmt", sorted(FORMATS))
def test_matches_apfloat(fmt):
    rng = np.random.default_rng(1234)
    x = _wide_sample(rng, fmt)
    assert _same(round_to(x, fmt), _fpopt.round_to_float_type(fmt, x))


def test_f16_matches_numpy_float16():
    rng = np.random.default_rng(7)
    x = _wide_sample(rng, "f16", 100000)
    with np.errstate(over="ignore"):
        expected = x.astype(np.float16).astype(np.float64)
    assert _same(round_to(x, "f16"), expected)


def test_bf16_matches_float32_bit_trick():
    rng = np.random.default_rng(11)
    x = rng.standard_normal(100000).astype(np.float32) * np.float32(1e3)
    bits = x.view(np.uint32)
    # The usual RNE truncation of float32 bits (no NaN inputs here).
    rounded = (bits + np.uint32(0x7FFF) + ((bits >> 16) & 1)) & np.uint32(
        0xFFFF0000)
    expected = rounded.view(np.float32)
    got = round_to(x, "bf16")
    assert got.dtype == np.float32
    assert np.array_equal(got, expected)


@pytest.mark.parametrize("fmt", FP8 + ["f16", "bf16"])
def test_every_code_rounds_to_itself_and_ties_go_to_even(fmt):
    values = decode_all(fmt)
    finite = np.isfinite(values)
    assert _same(round_to(values[finite], fmt), values[finite])
    # Midpoints between neighbouring positive values go to the even code.
    n_codes = values.size // 2
    positive = values[:n_codes]
    codes = np.arange(n_codes)
    keep = np.isfinite(positive)
    lower, upper = positive[keep][:-1], positive[keep][1:]
    lower_codes = codes[keep][:-1]
    mid = (lower + upper) / 2
    expected = np.where(lower_codes % 2 == 0, lower, upper)
    assert _same(round_to(mid, fmt), expected)


@pytest.mark.parametrize("fmt,value,expected", [
    ("f8E4M3FN", 448.0, 448.0),
    ("f8E4M3FN", 464.0, 448.0),       # tie between 448 and (NaN) 480: even
    ("f8E4M3FN", 465.0, np.nan),      # no inf in FN formats
    ("f8E4M3FN", 2.0**-10, 0.0),      # half the min subnormal: ties to 0
    ("f8E4M3FN", 2.0**-10 * 1.01, 2.0**-9),
    ("f8E5M2", 61440.0, np.inf),      # tie 57344 / 65536: even is overflow
    ("f8E5M2", 61439.0, 57344.0),
    ("f8E4M3FNUZ", 247.0, 240.0),
    ("f8E4M3FNUZ", 248.0, np.nan),    # tie 240 / 256: even is overflow
    ("f8E4M3FNUZ", -0.0, 0.0),        # no negative zero
    ("bf16", 1.0 + 2.0**-8, 1.0),     # tie: even mantissa
    ("bf16", 1.0 + 3 * 2.0**-8, 1.0 + 2.0**-6),
    ("f16", 65520.0, np.inf),
    ("f16", 65519.0, 65504.0),
])
def test_known_values(fmt, value, expected):
    assert _same(round_to(np.array([value]), fmt), [expected])


def test_saturation():
    x = np.array([1e6, -1e6, np.inf, -np.inf, np.nan, 300.0])
    # Infinities clamp too (lowp.cast saturate, PTX .satfinite).
    assert _same(round_to(x, "f8E4M3FN", saturate=True),
                 [448.0, -448.0, 448.0, -448.0, np.nan, 288.0])
    assert _same(round_to(x, "f8E5M2", saturate=True),
                 [57344.0, -57344.0, 57344.0, -57344.0, np.nan, 320.0])


def test_scaled_round_to_uses_full_range():
    x = np.linspace(-3.0, 3.0, 101)
    q = scaled_round_to(x, "f8E4M3FN", amax=3.0)
    assert np.max(np.abs(q)) == 3.0
    # Relative error of E4M3 normals is at most 2**-4.
    nz = x != 0
    assert np.max(np.abs(q[nz] - x[nz]) / np.abs(x[nz])) <= 2.0**-4


def test_shapes_and_dtypes_preserved():
    x = np.arange(12, dtype=np.float32).reshape(3, 4) / 7
    assert round_to(x, "bf16").shape == (3, 4)
    assert round_to(x, "bf16").dtype == np.float32
    assert round_to(x.astype(np.float64), "f16").dtype == np.float64
    assert round_to(1.0 / 3, "f16") == np.float16(1.0 / 3)
    with pytest.raises(ValueError, match="unsupported format"):
        round_to(x, "f7")
