#!/usr/bin/env python3
"""Times a whole model exported by a front end (a file whose public function
takes f32 tensors - input and weights - and returns one f32 tensor; unused
`tensor<i64>` arguments, torch.export's num_batches_tracked, are dropped),
compiled by fp-opt f32 and mixed as bench/e2e compiles its layers, called
through the C interface with deterministic inputs (1-D arguments, batch
norm statistics and affine parameters, in [0.5, 1.5]; arguments with a
batch of 1, the input, in [-1, 1]; weights in [-1, 1] / sqrt(fan-in)). Prints the median ms per call
of each variant and how far mixed is from f32. No PyTorch needed.

  /usr/bin/python3 bench/e2e/export.py MODEL.mlir [--entry main]
      [--variants f32,mixed] [--cpu sapphirerapids] [--x86-options amx=true]
      [--calls 20] [--fp-opt build/bin/fp-opt]
"""
import argparse
import math
import os
import re
import statistics
import sys
import tempfile
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import fpopt_rt  # noqa: E402


def shape(t):
    return [int(d) for d in t[len("tensor<"):-1].split("x")[:-1]]


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("model")
    ap.add_argument("--entry", default="main")
    ap.add_argument("--variants", default="f32,mixed")
    ap.add_argument("--cpu")
    ap.add_argument("--mcpu")
    ap.add_argument("--x86-options", default="")
    ap.add_argument("--calls", type=int, default=20)
    ap.add_argument("--fp-opt", default=os.path.join(HERE, "..", "..", "build", "bin", "fp-opt"))
    ap.add_argument("--llvm-bin", default="/usr/lib/llvm-22/bin")
    ap.add_argument("--workdir")
    cli = ap.parse_args()

    src = open(cli.model).read()
    m = re.search(r"func\.func @" + re.escape(cli.entry) + r"\((.*?)\) -> (tensor<[^>]*>)", src, re.S)
    if not m:
        sys.exit(f"export.py: no @{cli.entry} returning one tensor")
    args = re.findall(r"(%[\w$.]+): (tensor<[^>]*>)", m.group(1))
    body = src[m.end():]
    kept = []
    for name, ty in args:
        if ty.endswith("xf32>"):
            kept.append((name, ty))
        elif re.search(re.escape(name) + r"\b", body):
            sys.exit(f"export.py: argument {name}: {ty} is used and not f32")
    sig = ", ".join(f"{n}: {t}" for n, t in kept)
    src = (src[:m.start()] + f"func.func @forward({sig}) -> {m.group(2)} "
           "attributes {llvm.emit_c_interface}" + src[m.end():])

    class Model:
        name = "export"
        args = [(n[1:], shape(t)) for n, t in kept]
        result = shape(m.group(2))

    rng = np.random.default_rng(0)
    inputs = {}
    for n, s in Model.args:
        if len(s) == 1:
            a = rng.uniform(0.5, 1.5, s)
        elif s[0] == 1:  # a batch of 1: the input
            a = rng.uniform(-1.0, 1.0, s)
        else:
            a = rng.uniform(-1.0, 1.0, s) / math.sqrt(float(np.prod(s[1:])))
        inputs[n] = a.astype(np.float32)

    cpu, mcpu, opts = fpopt_rt.choose_cpu(cli.cpu, cli.mcpu, cli.x86_options)
    tools = fpopt_rt.Tools(cli.fp_opt, cli.llvm_bin, mcpu)
    workdir = cli.workdir or tempfile.mkdtemp(prefix="e2e-export-")
    print(f"{os.path.basename(cli.model)}: {len(kept)} f32 arguments; fp-opt target={cpu} "
          f"{opts}, llc -mcpu={mcpu}; median of {cli.calls} calls, wall ms")
    outs = {}
    for v in cli.variants.split(","):
        comp = fpopt_rt.compile_layer(src, workdir, f"export.{v}", v, cpu, tools, opts)
        k = fpopt_rt.Kernel(comp.so_path, Model, comp.dealloc)
        k.bind(inputs)
        outs[v] = np.array(k(), copy=True)
        for _ in range(3):
            k.call_discard()
        times = []
        for _ in range(cli.calls):
            t0 = time.perf_counter()
            k.call_discard()
            times.append(time.perf_counter() - t0)
        print(f"  {v}: {statistics.median(times) * 1e3:.2f} ms per call "
              f"(compile {sum(comp.seconds.values()):.1f} s)")
    if "f32" in outs and "mixed" in outs:
        ref = outs["f32"]
        err = np.abs(outs["mixed"] - ref).max() / max(np.abs(ref).max(), 1e-30)
        print(f"  max|mixed - f32| / max|f32| = {err:.2e}")


if __name__ == "__main__":
    main()
