#!/usr/bin/env python3
"""Whole models with their NCHW convolutions run NHWC (lowp-pipeline-x86's
default, lowp-convert-conv-nchw-to-nhwc) and kept NCHW
(``nhwc-convolutions=false``), each against TorchScript frozen +
optimize_for_inference (oneDNN) on the same weights, all three called in
rounds in one process: median ms per call, NCHW / NHWC and TS / each.
fpopt.torch.compile with prepack=True, as bench/models/run.py does.

  /usr/bin/python3 bench/models/nhwc.py [--models resnet50,mobilenet_v3_small]
      [--batch 1] [--policy f32|auto] [--reps 7] [--threads 1]
"""
import argparse
import os
import statistics
import sys
import time

import torch
import torchvision

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
sys.path.insert(0, os.path.join(HERE, "..", "..", "build", "python_packages"))
from torch_threads import set_torch_threads  # noqa: E402
import fpopt.runtime  # noqa: E402
import fpopt.torch  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--models", default="resnet50,mobilenet_v3_small,efficientnet_v2_s")
    ap.add_argument("--batch", type=int, default=1)
    ap.add_argument("--policy", default="f32")
    ap.add_argument("--reps", type=int, default=7)
    ap.add_argument("--threads", type=int, default=1)
    cli = ap.parse_args()
    set_torch_threads(cli.threads)
    fpopt.runtime.retain_freed_memory()
    print(f"batch {cli.batch}, policy {cli.policy}, {cli.threads} thread(s), "
          f"median of {cli.reps} rounds, ms")
    for name in cli.models.split(","):
        torch.manual_seed(0)
        m = getattr(torchvision.models, name)().eval()
        x = torch.randn(cli.batch, 3, 224, 224)
        with torch.no_grad():
            ref = m(x)
            variants = {
                "ts": torch.jit.optimize_for_inference(
                    torch.jit.freeze(torch.jit.trace(m, x).eval())),
                "nchw": fpopt.torch.compile(m, (x,), policy=cli.policy, prepack=True,
                                            threads=cli.threads,
                                            x86_options="nhwc-convolutions=false"),
                "nhwc": fpopt.torch.compile(m, (x,), policy=cli.policy, prepack=True,
                                            threads=cli.threads),
            }
            err = {k: float((f(x) - ref).abs().max() / ref.abs().max())
                   for k, f in variants.items() if k != "ts"}
            times = {k: [] for k in variants}
            for _ in range(cli.reps):
                for k, f in variants.items():
                    t0 = time.perf_counter()
                    f(x)
                    times[k].append(time.perf_counter() - t0)
        ms = {k: statistics.median(v) * 1e3 for k, v in times.items()}
        print(f"{name:20s} ts {ms['ts']:8.2f} nchw {ms['nchw']:8.2f} nhwc {ms['nhwc']:8.2f}  "
              f"nchw/nhwc {ms['nchw'] / ms['nhwc']:.2f}x  ts/nchw {ms['ts'] / ms['nchw']:.2f}x  "
              f"ts/nhwc {ms['ts'] / ms['nhwc']:.2f}x  err nchw {err['nchw']:.1e} "
              f"nhwc {err['nhwc']:.1e}", flush=True)


if __name__ == "__main__":
    main()
