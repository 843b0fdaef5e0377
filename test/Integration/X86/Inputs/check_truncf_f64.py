"""Checks truncf-f64-to-narrow.mlir's output: the f64 inputs (bit patterns),
then their bf16 and f16 roundings and the bf16 rounding through f32 to
nearest (bit patterns). Each must equal utils/fp_reference.py's rounding of
the f64 value in exact rational arithmetic. With --bf16-flushes-subnormals
(AVX512_BF16's vcvtneps2bf16 writes zero for a subnormal bf16 result) a
subnormal bf16 reference is its signed zero."""
import os
import struct
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "..",
                                "..", "utils"))
from fp_reference import encode  # noqa: E402
from memref_output import memrefs  # noqa: E402


def flush_bf16(bits):
    """The signed zero of a subnormal bf16 pattern, else the pattern."""
    return bits & 0x8000 if (bits & 0x7F80) == 0 else bits


def main():
    flush = "--bf16-flushes-subnormals" in sys.argv[2:]
    xs, bf16, f16, through, constant = memrefs(open(sys.argv[1]).read())
    values = [struct.unpack("<d", struct.pack("<q", b))[0] for b in xs]
    for label, fmt, got, inputs in (("direct bf16", "bf16", bf16, values),
                                    ("direct f16", "f16", f16, values),
                                    ("through f32 bf16", "bf16", through, values),
                                    ("constant", "bf16", constant,
                                     [1 + 2.0**-8 + 2.0**-52])):
        def expected(x):
            bits = encode(fmt, x)
            return flush_bf16(bits) if flush and fmt == "bf16" else bits
        differ = sum(expected(x) != g for x, g in zip(inputs, got))
        print(f"{label}: {len(got)} inputs, {differ} differ")


main()
