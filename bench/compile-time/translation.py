#!/usr/bin/env python3
"""The last steps of fpopt.compile, two ways, on whole models: the
lowp-pipeline-x86 run and the translation to LLVM IR either through text
(fpopt.compile(ir, pipeline) prints the lowered module, mlir-translate
parses it and writes .ll) or in process (fpopt.lower_to_bitcode: no module
text). Each model is exported and decided once (policy f32 and auto, the
same pipeline options fpopt.compile uses with prepack=True); the two ways
then run alternately, --reps times each; prints the median seconds of each
and the text's size.

  /usr/bin/python3 bench/compile-time/translation.py [--models efficientnet_v2_s,...]
      [--reps 3] [--target znver4]
"""
import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "models"))
import run  # noqa: E402  (build(), the package on sys.path)
import fpopt  # noqa: E402
import fpopt.runtime  # noqa: E402
import fpopt.torch  # noqa: E402


def through_text(ir: str, pipeline: str) -> int:
    text = fpopt.compile(ir, pipeline).ir
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, "module.mlir")
        with open(src, "w") as f:
            f.write(text)
        subprocess.run([os.path.join(fpopt.runtime.LLVM_BIN, "mlir-translate"),
                        "--mlir-to-llvmir", src, "-o", os.path.join(tmp, "module.ll")],
                       check=True)
    return len(text)


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--models", default="efficientnet_v2_s,resnet50,bert_base")
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--target")
    cli = ap.parse_args()
    torch.set_num_threads(1)
    target = cli.target or fpopt.runtime.host_target()[0]
    pipeline = ("builtin.module(func.func(llvm-request-c-wrappers),"
                f"lowp-pipeline-x86{{target={target} prepack=true}})")
    print(f"target={target}; seconds of lowp-pipeline-x86 + translation to LLVM IR, "
          f"median of {cli.reps}")
    print(f"{'model':<20}{'policy':>7}{'text':>8}{'in process':>12}{'ratio':>8}{'text MB':>9}")
    for name in cli.models.split(","):
        m, x = run.build(name, 1)
        m.eval()
        text = fpopt.torch.export(m, (x,))
        for policy in ("f32", "auto"):
            decided = text if policy == "f32" else fpopt.compile(
                text, f"lowp-auto-mixed-precision{{target={target} policy={policy}}}").ir
            times = {"text": [], "bitcode": []}
            size = 0
            for _ in range(cli.reps):
                t0 = time.perf_counter()
                size = through_text(decided, pipeline)
                t1 = time.perf_counter()
                fpopt.lower_to_bitcode(decided, pipeline)
                t2 = time.perf_counter()
                times["text"].append(t1 - t0)
                times["bitcode"].append(t2 - t1)
            a, b = statistics.median(times["text"]), statistics.median(times["bitcode"])
            print(f"{name:<20}{policy:>7}{a:>8.1f}{b:>12.1f}{a / b:>7.2f}x{size / 1e6:>9.1f}",
                  flush=True)


if __name__ == "__main__":
    main()
