"""numpy reference rounding to fp-opt's low-precision formats.

For users who check the numerics of compiled code: ``round_to(x, "bf16")``
gives, for every element, the value a correctly rounded conversion to bf16
(IEEE round-to-nearest, ties to even) produces, as float64 (or float32 when
``x`` is float32; every supported format is a subset of both).

The rounding works on the bits of the float64 input, independent of LLVM's
APFloat, so it can serve as a reference for fp-opt's own lowerings (the
tests compare the two). The formats are described by their exponent width,
fraction width, bias and encoding family:

- ``ieee``: IEEE 754 style, the all-ones exponent holds inf and NaN
  (f16, bf16, tf32, f8E5M2);
- ``fn``: no inf, only the all-ones pattern is NaN (OCP f8E4M3FN);
- ``fnuz``: no inf, no negative zero, the negative-zero pattern is the only
  NaN (AMD MI300 f8E4M3FNUZ, f8E5M2FNUZ).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Dict

import numpy as np


@dataclass(frozen=True)
class FormatSpec:
    """Encoding of a binary float format."""

    name: str
    exponent_bits: int
    mantissa_bits: int
    bias: int
    family: str  # "ieee", "fn" or "fnuz"

    @property
    def bits(self) -> int:
        return 1 + self.exponent_bits + self.mantissa_bits

    @property
    def emin(self) -> int:
        """Exponent of the smallest normal value."""
        return 1 - self.bias

    @property
    def emax(self) -> int:
        """Exponent of the largest finite value."""
        top = (1 << self.exponent_bits) - 1
        return top - self.bias - (1 if self.family == "ieee" else 0)

    @property
    def max_finite(self) -> float:
        p = self.mantissa_bits
        # fn formats give up the all-ones mantissa of the top binade to NaN.
        frac = 2.0 ** (1 - p) if self.family == "fn" else 2.0 ** -p
        return float(np.ldexp(2.0 - frac, self.emax))

    @property
    def min_normal(self) -> float:
        return float(np.ldexp(1.0, self.emin))

    @property
    def min_subnormal(self) -> float:
        return float(np.ldexp(1.0, self.emin - self.mantissa_bits))

    @property
    def has_inf(self) -> bool:
        return self.family == "ieee"

    @property
    def has_negative_zero(self) -> bool:
        return self.family != "fnuz"


#: The formats ``round_to`` supports, by MLIR type name.
FORMATS: Dict[str, FormatSpec] = {
    spec.name: spec for spec in [
        FormatSpec("tf32", 8, 10, 127, "ieee"),
        FormatSpec("f16", 5, 10, 15, "ieee"),
        FormatSpec("bf16", 8, 7, 127, "ieee"),
        FormatSpec("f8E4M3FN", 4, 3, 7, "fn"),
        FormatSpec("f8E5M2", 5, 2, 15, "ieee"),
        FormatSpec("f8E4M3FNUZ", 4, 3, 8, "fnuz"),
        FormatSpec("f8E5M2FNUZ", 5, 2, 16, "fnuz"),
    ]
}


def _spec(fmt: str) -> FormatSpec:
    try:
        return FORMATS[fmt]
    except KeyError:
        raise ValueError(f"unsupported format '{fmt}'; supported: "
                         + ", ".join(FORMATS)) from None


def _result_dtype(x: np.ndarray):
    return np.float32 if x.dtype == np.float32 else np.float64


def round_to(x, fmt: str, *, saturate: bool = False) -> np.ndarray:
    """Rounds every element of ``x`` to format ``fmt`` (nearest, ties to even).

    Out-of-range finite values become inf (``ieee`` formats) or NaN (``fn``,
    ``fnuz``), as an IEEE conversion does; with ``saturate`` they clamp to
    the largest finite magnitude keeping the sign, and so do infinities
    (PTX ``.satfinite``). These are the semantics of ``lowp.cast`` with and
    without ``saturate``. NaN stays NaN. ``fnuz`` formats have no negative
    zero: it becomes +0.
    """
    spec = _spec(fmt)
    x = np.asarray(x)
    out_dtype = _result_dtype(x)
    x64 = np.ascontiguousarray(x, dtype=np.float64)
    bits = x64.view(np.uint64)

    negative = (bits >> np.uint64(63)) != 0
    exp_field = ((bits >> np.uint64(52)) & np.uint64(0x7FF)).astype(np.int64)
    fraction = bits & np.uint64((1 << 52) - 1)
    # value = significand * 2**(exponent - 52), subnormal inputs included.
    significand = np.where(exp_field == 0, fraction,
                           fraction | np.uint64(1 << 52))
    exponent = np.where(exp_field == 0, -1022, exp_field - 1023)

    p = spec.mantissa_bits
    # Low significand bits below the format's quantum at this magnitude: the
    # quantum is 2**(e - p) for normals, 2**(emin - p) below min_normal.
    drop = 52 - p + np.maximum(0, spec.emin - exponent)
    drop = np.minimum(drop, 63).astype(np.uint64)
    kept = significand >> drop
    remainder = significand & ((np.uint64(1) << drop) - np.uint64(1))
    half = np.uint64(1) << (drop - np.uint64(1))
    round_up = (remainder > half) | ((remainder == half) &
                                     ((kept & np.uint64(1)) == 1))
    kept = kept + round_up.astype(np.uint64)
    quantum_exponent = np.maximum(exponent, spec.emin) - p
    with np.errstate(over="ignore"):  # overflow is handled just below
        magnitude = np.ldexp(kept.astype(np.float64), quantum_exponent)

    overflow = magnitude > spec.max_finite
    is_nan = np.isnan(x64)
    is_inf = np.isinf(x64)
    if saturate:
        magnitude = np.where(overflow | is_inf, spec.max_finite, magnitude)
    else:
        too_big = np.inf if spec.has_inf else np.nan
        magnitude = np.where(overflow | is_inf, too_big, magnitude)
    magnitude = np.where(is_nan, np.nan, magnitude)

    result = np.where(negative, -magnitude, magnitude)
    if not spec.has_negative_zero:
        result = np.where(result == 0, 0.0, result)
    return result.astype(out_dtype)


def decode_all(fmt: str) -> np.ndarray:
    """The value of every bit pattern of ``fmt`` (index = code), NaN codes
    as NaN; for enumerating a format in tests (at most 16-bit formats)."""
    spec = _spec(fmt)
    if spec.bits > 16:
        raise ValueError(f"{fmt} has too many codes to enumerate")
    codes = np.arange(1 << spec.bits, dtype=np.int64)
    e_bits, p = spec.exponent_bits, spec.mantissa_bits
    sign = codes >> (e_bits + p)
    exp_field = (codes >> p) & ((1 << e_bits) - 1)
    mantissa = codes & ((1 << p) - 1)
    subnormal = np.ldexp(mantissa.astype(np.float64), spec.emin - p)
    normal = np.ldexp((mantissa + (1 << p)).astype(np.float64),
                      exp_field - spec.bias - p)
    values = np.where(exp_field == 0, subnormal, normal)
    top = exp_field == (1 << e_bits) - 1
    if spec.family == "ieee":
        values = np.where(top & (mantissa == 0), np.inf, values)
        values = np.where(top & (mantissa != 0), np.nan, values)
    elif spec.family == "fn":
        values = np.where(top & (mantissa == (1 << p) - 1), np.nan, values)
    values = np.where(sign == 1, -values, values)
    if spec.family == "fnuz":
        values = np.where(codes == 1 << (e_bits + p), np.nan, values)
    return values


def scaled_round_to(x, fmt: str, amax: float, *, margin: int = 0) -> np.ndarray:
    """Reference of per-tensor scaled FP8 quantization (Transformer Engine's
    delayed scaling): scale = max_finite / amax / 2**margin, values are
    multiplied by it, rounded with saturation, and divided by it again."""
    spec = _spec(fmt)
    if not amax > 0:
        raise ValueError("amax must be positive")
    scale = spec.max_finite / amax / 2.0 ** margin
    x = np.asarray(x)
    scaled = round_to(np.asarray(x, dtype=np.float64) * scale, fmt,
                      saturate=True)
    return (scaled / scale).astype(_result_dtype(x))


def encode(x, fmt: str) -> np.ndarray:
    """The bit patterns (uint8 for 8-bit formats, uint16 for 16-bit ones)
    of values already representable in ``fmt`` (``round_to``'s results);
    ValueError for any other value. NaN takes the format's NaN code."""
    spec = _spec(fmt)
    if spec.bits > 16:
        raise ValueError(f"{fmt}: encode takes formats of at most 16 bits")
    values = decode_all(fmt)
    x = np.asarray(x, dtype=np.float64)
    # Codes ordered by value, NaN codes left out; zeros are set below.
    order = np.argsort(values, kind="stable")
    finite = order[~np.isnan(values[order])]
    sorted_values = values[finite]
    pos = np.searchsorted(sorted_values, x, side="right") - 1
    pos = np.clip(pos, 0, len(sorted_values) - 1)
    codes = finite[pos]
    nan = np.isnan(x)
    exact = (sorted_values[pos] == x) | nan
    if not exact.all():
        bad = x[~exact].flat[0]
        raise ValueError(f"{bad!r} is not a value of {fmt} (round it first)")
    if nan.any():
        codes = np.where(nan, np.flatnonzero(np.isnan(values))[0], codes)
    negzero = (x == 0) & np.signbit(x) & spec.has_negative_zero
    codes = np.where(x == 0, np.where(negzero, 1 << (spec.bits - 1), 0), codes)
    return codes.astype(np.uint8 if spec.bits <= 8 else np.uint16)


def _encode_e4m3fn(scaled: np.ndarray, flush_subnormals: bool) -> np.ndarray:
    """f32 values -> f8E4M3FN codes, rounded to nearest even and saturated,
    on the bit patterns (what ``encode(round_to(x, saturate=True))`` gives,
    a few times faster: decoding steps quantize hundreds of millions of
    weights)."""
    x = np.ascontiguousarray(scaled, dtype=np.float32)
    bits = x.view(np.uint32)
    sign = ((bits >> np.uint32(24)) & np.uint32(0x80)).astype(np.uint8)
    a = np.minimum(np.abs(x), np.float32(448.0))
    ab = a.view(np.uint32)
    # Keep 3 mantissa bits: add half a quantum less one, plus the kept
    # field's lowest bit (ties to even), then clear the dropped bits.
    rounded = (ab + np.uint32(0x7FFFF) + ((ab >> np.uint32(20)) & np.uint32(1))) \
        & np.uint32(0xFFF00000)
    rounded = np.minimum(rounded.view(np.float32), np.float32(448.0)).view(np.uint32)
    exponent = (rounded >> np.uint32(23)).astype(np.int32) - 127 + 7
    mantissa = (rounded >> np.uint32(20)) & np.uint32(7)
    code = (np.maximum(exponent, 0).astype(np.uint32) << np.uint32(3)) | mantissa
    tiny = a < np.float32(2.0 ** -6)
    if flush_subnormals:
        below = np.where(a >= np.float32(2.0 ** -7), np.uint32(8), np.uint32(0))
    else:
        # Subnormals are multiples of 2^-9: their code is the multiple
        # (8 is the smallest normal's).
        below = np.rint(a.astype(np.float64) * 512.0).astype(np.uint32)
    code = np.where(tiny, below, code).astype(np.uint8)
    return code | np.where(code == 0, np.uint8(0), sign)


def quantize_per_channel(w, fmt: str, axis: int, *,
                         flush_subnormals: bool = True):
    """Weight-only FP8 quantization with one scale per index of ``axis``
    (``policy=fp8-weights``): ``scale[c] = max_finite / amax_c`` (1 where a
    channel is all zeros; at most 2**126), ``q = round_to(w * scale[c],
    saturate=True)`` with the product in f32. With ``flush_subnormals`` (the default, what
    fp-opt's x86 kernels read exactly), a magnitude below the format's
    smallest normal rounds to 0 or to that normal, whichever is nearer
    (half way: the normal). Zeros are +0.
    Returns (the codes as uint8, the scales as float32); the weight the
    compiled function uses is ``decode(q) / scale[c]``."""
    spec = _spec(fmt)
    w = np.asarray(w, dtype=np.float32)
    axis = axis % w.ndim
    others = tuple(d for d in range(w.ndim) if d != axis)
    amax = (np.max(np.abs(w), axis=others) if others else np.abs(w)).astype(np.float64)
    if not np.all(np.isfinite(amax)):
        raise ValueError("quantize_per_channel: the weight has inf or NaN elements")
    scale = np.where(amax > 0, spec.max_finite / np.where(amax > 0, amax, 1.0), 1.0)
    scale = np.minimum(scale, 2.0 ** 126).astype(np.float32)
    shape = [1] * w.ndim
    shape[axis] = -1
    scaled = w * scale.reshape(shape)  # in f32
    if fmt == "f8E4M3FN":
        return _encode_e4m3fn(scaled, flush_subnormals), scale
    q = round_to(scaled, fmt, saturate=True)
    if flush_subnormals:
        tiny = np.abs(q) < spec.min_normal
        up = np.abs(scaled) >= spec.min_normal / 2
        q = np.where(tiny, np.where(up, np.copysign(spec.min_normal, scaled), 0.0), q)
    return encode(np.where(q == 0, 0.0, q), fmt), scale  # zeros as +0
