#!/usr/bin/env python3
"""Reads LLVM-dialect MLIR on stdin and checks, function by function, that
every heap allocation the function makes (llvm.call @malloc /
@aligned_alloc) is freed in it (llvm.call @free), except the buffers it
returns to its caller. Prints one line per function and 'frees: ok' or
the offending functions; exits non-zero on a leak.

A static count: a free under a condition (ownership-based deallocation's
`scf.if`) counts once, which is what the dynamic tests in
test/Integration/Memory check at run time."""
import re
import sys

text = sys.stdin.read()
bad = []
for match in re.finditer(r"llvm\.func @([\w$.]+)\(([^\n]*?)\)([^\n{]*)\{\n(.*?)\n  \}",
                         text, re.S):
    name, _, signature, body = match.groups()
    if "gpu.module" in body:
        continue
    allocs = len(re.findall(r"llvm\.call @(?:malloc|aligned_alloc)\(", body))
    frees = len(re.findall(r"llvm\.call @free\(", body))
    # A returned memref is a descriptor struct whose pointers the caller owns.
    returned = 0
    result = re.search(r"->\s*(.*)$", signature.strip())
    if result:
        returned = result.group(1).count("struct<(ptr, ptr, i64")
    if allocs == 0:
        continue
    print(f"{name}: {allocs} allocations, {frees} frees, {returned} returned")
    if allocs - frees > returned:
        bad.append(name)
print("frees: ok" if not bad else "frees: LEAK in " + ", ".join(bad))
sys.exit(1 if bad else 0)
