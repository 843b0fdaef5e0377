#!/usr/bin/env python3
"""How long fpopt.tune takes on a 12-layer transformer (bench/gen_transformer.py,
seq 16, dim 32, FFN 64: 96 matrix ops), on this machine, and what it finds.

Scenario A (target sm_75, f16): block 5's FFN weights are scaled so its
hidden activations reach ~1e5, beyond f16's range; the rest is moderate.
The search must narrow the f32 ops down to that block.
Scenario B (target sm_90): FP8 first, then bf16, at a tolerance FP8 alone
does not meet everywhere.

Prints, per scenario: candidates compiled and run, seconds in all and per
candidate, the ops pinned to f32 (with their names) and the chosen error.

  /usr/bin/python3 bench/tune/tune_transformer.py [--blocks 12] [--fp8]
"""
import argparse
import os
import re
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "build", "python_packages"))

import numpy as np  # noqa: E402

import fpopt  # noqa: E402
from fpopt.tune import read_signature  # noqa: E402


def inputs_for(ir, sensitive_block, rng):
    name, shapes, _ = read_signature(ir, None)
    header = ir[ir.index("@" + name):ir.index("{", ir.index("@" + name))]
    names = re.findall(r"%([\w]+):", header)
    arrays = []
    for n, s in zip(names, shapes):
        a = rng.uniform(-1, 1, s)
        if n != "x":
            a *= 0.25
        if n.startswith("g"):  # norm gains near 1
            a = 1 + 0.1 * a
        if sensitive_block is not None:
            if n == f"w1_{sensitive_block}":
                a *= 1e4
            if n == f"w2_{sensitive_block}":
                a /= 1e4
        arrays.append(a.astype(np.float32))
    return arrays


def scenario(title, ir, target, inputs, tolerance, policies):
    t = time.perf_counter()
    result = fpopt.tune(ir, target, inputs, tolerance=tolerance,
                        policies=policies, max_candidates=80)
    seconds = time.perf_counter() - t
    n = len(result.candidates)
    print(f"== {title} ==")
    print(f"  {len(result.matrix_ops)} matrix ops; {n} candidates in "
          f"{seconds:.1f} s ({seconds / max(n, 1):.2f} s each, f32 "
          f"reference included)")
    print(f"  {result.summary}")
    for i in result.chosen.pinned[:12]:
        print(f"  pinned f32: {result.matrix_ops[i]}")
    return result


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--blocks", type=int, default=12)
    parser.add_argument("--fp8", action="store_true",
                        help="also scenario B (FP8 then bf16 on sm_90)")
    args = parser.parse_args()
    ir = subprocess.check_output(
        [sys.executable, os.path.join(ROOT, "bench", "gen_transformer.py"),
         "--blocks", str(args.blocks)], text=True)
    rng = np.random.default_rng(15)
    sensitive = args.blocks // 2 - 1
    scenario(f"A: sm_75 (f16), block {sensitive}'s FFN reaches ~1e5",
             ir, "sm_75", inputs_for(ir, sensitive, rng), 2e-2, None)
    if args.fp8:
        scenario("B: sm_90, FP8 then bf16, tolerance 2e-2", ir, "sm_90",
                 inputs_for(ir, None, rng), 2e-2, None)


if __name__ == "__main__":
    main()
