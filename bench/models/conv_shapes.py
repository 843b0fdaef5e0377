#!/usr/bin/env python3
"""ResNet-50's convolution shapes one at a time, each as a Conv2d with a bias
and a ReLU (torch-mlir writes the bias as the convolution's init), fp-opt
f32 (fpopt.torch.compile, weights prepacked) against TorchScript frozen +
optimize_for_inference (oneDNN) on the same weights, called alternately in
one process: median ms per call, TS / fp-opt, and the gap weighted by how
often ResNet-50 uses the shape; last, the sums over the model's
convolutions. Says which convolutions the whole-model ratio
(bench/models/run.py) comes from.

  /usr/bin/python3 bench/models/conv_shapes.py [--batch 32] [--reps 5] [--threads 1]
"""
import argparse
import os
import statistics
import sys
import time

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
sys.path.insert(0, os.path.join(HERE, "..", "..", "build", "python_packages"))
from torch_threads import set_torch_threads  # noqa: E402
import fpopt.runtime  # noqa: E402
import fpopt.torch  # noqa: E402

# (in channels, out channels, input size, kernel, stride, uses in ResNet-50)
SHAPES = [(64, 256, 56, 1, 1, 4), (64, 64, 56, 1, 1, 1), (256, 64, 56, 1, 1, 2),
          (64, 64, 56, 3, 1, 3), (256, 128, 56, 1, 1, 1), (128, 128, 56, 3, 2, 1),
          (128, 512, 28, 1, 1, 4), (256, 512, 56, 1, 2, 1), (512, 128, 28, 1, 1, 3),
          (128, 128, 28, 3, 1, 3), (512, 256, 28, 1, 1, 1), (256, 256, 28, 3, 2, 1),
          (256, 1024, 14, 1, 1, 6), (512, 1024, 28, 1, 2, 1), (1024, 256, 14, 1, 1, 5),
          (256, 256, 14, 3, 1, 5), (1024, 512, 14, 1, 1, 1), (512, 512, 14, 3, 2, 1),
          (512, 2048, 7, 1, 1, 3), (1024, 2048, 14, 1, 2, 1), (2048, 512, 7, 1, 1, 2),
          (512, 512, 7, 3, 1, 2), (3, 64, 224, 7, 2, 1)]


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--batch", type=int, default=32)
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--threads", type=int, default=1)
    cli = ap.parse_args()
    set_torch_threads(cli.threads)
    fpopt.runtime.retain_freed_memory()
    torch.manual_seed(0)
    total_ts = total_fp = 0.0
    print(f"batch {cli.batch}, {cli.threads} thread(s), median of {cli.reps} alternated calls, ms")
    for cin, cout, size, k, stride, uses in SHAPES:
        m = torch.nn.Sequential(torch.nn.Conv2d(cin, cout, k, stride, k // 2, bias=True),
                                torch.nn.ReLU()).eval()
        x = torch.randn(cli.batch, cin, size, size)
        with torch.no_grad():
            ts = torch.jit.optimize_for_inference(torch.jit.freeze(torch.jit.trace(m, x).eval()))
            fm = fpopt.torch.compile(m, (x,), policy="f32", prepack=True, threads=cli.threads)
            for _ in range(2):
                ts(x)
                fm(x)
            t_ts, t_fp = [], []
            for _ in range(cli.reps):
                t0 = time.perf_counter()
                ts(x)
                t_ts.append(time.perf_counter() - t0)
                t0 = time.perf_counter()
                fm(x)
                t_fp.append(time.perf_counter() - t0)
        a, b = statistics.median(t_ts) * 1e3, statistics.median(t_fp) * 1e3
        total_ts += a * uses
        total_fp += b * uses
        print(f"{cin:5d} -> {cout:5d} {size:3d}x{size:<3d} k{k} s{stride} x{uses}: "
              f"ts {a:8.2f} fp-opt {b:8.2f}  ts/fp-opt {a / b:5.2f}x  "
              f"weighted gap {(b - a) * uses:+8.1f}", flush=True)
    print(f"ResNet-50's convolutions: ts {total_ts:.0f} fp-opt {total_fp:.0f} ms "
          f"({total_ts / total_fp:.2f}x)")


if __name__ == "__main__":
    main()
