"""Checks the dense_resource blobs fp-opt rewrote against the originals.

usage: check_resource_rounding.py INPUT.mlir OUTPUT.mlir

Every blob `<name>_<type>` of OUTPUT must hold the elements of blob `<name>`
of INPUT converted to <type> (f16, bf16: round to nearest even; f32:
widening, exact), computed here independently of APFloat: numpy's float16
cast and integer rounding of the f32 bit pattern for bf16. Prints how many
blobs and elements were compared and how many differ.
"""
import re
import sys

import numpy as np

BLOB = re.compile(r'^\s*([\w.$-]+)\s*:\s*"0x([0-9A-Fa-f]*)"', re.M)


def blobs(path):
    text = open(path).read()
    section = text[text.find("{-#"):]
    return {m.group(1): bytes.fromhex(m.group(2)) for m in BLOB.finditer(section)}


def decode(blob, dtype):
    # The first four bytes are the blob's alignment.
    return np.frombuffer(blob[4:], dtype=dtype)


def f32_to_bf16_bits(values):
    bits = values.view(np.uint32).astype(np.uint64)
    rounded = (bits + 0x7FFF + ((bits >> 16) & 1)) >> 16
    return rounded.astype(np.uint16)


def main():
    before, after = blobs(sys.argv[1]), blobs(sys.argv[2])
    checked = elements = mismatches = 0
    for name, data in after.items():
        base, _, suffix = name.rpartition("_")
        if base not in before or suffix not in ("f16", "bf16", "f32"):
            continue
        source = before[base]
        if suffix == "f16":
            expected = decode(source, np.float32).astype(np.float16).view(np.uint16)
            got = decode(data, np.uint16)
        elif suffix == "bf16":
            expected = f32_to_bf16_bits(decode(source, np.float32))
            got = decode(data, np.uint16)
        else:
            expected = (decode(source, np.uint16).astype(np.uint32) << 16)
            got = decode(data, np.uint32)
        checked += 1
        elements += expected.size
        if got.size != expected.size:
            mismatches += expected.size
            continue
        mismatches += int(np.count_nonzero(got != expected))
    print(f"checked {checked} blobs, {elements} elements, {mismatches} mismatches")


if __name__ == "__main__":
    main()
