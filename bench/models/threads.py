#!/usr/bin/env python3
"""How a whole model's fp-opt call scales from one thread to two, fp-opt
alone: the model compiled (fpopt.torch.compile, weights prepacked) with
threads=1 and threads=2 for each policy, the four called alternately in one
process with nothing else running between them (no PyTorch call, whose
thread pool would still be waiting on the cores; bench/models/run.py
interleaves PyTorch's variants with fp-opt's). Prints the median ms per call
and 1-thread / 2-thread time per policy.

  /usr/bin/python3 bench/models/threads.py [--models mobilenet_v3_small]
      [--batch 32] [--rounds 12] [--policies f32,auto]
"""
import argparse
import os
import statistics
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, ".."))
import run  # noqa: E402  (build(), the package on sys.path)
from torch_threads import set_torch_threads  # noqa: E402
import fpopt.runtime  # noqa: E402
import fpopt.torch  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--models", default="mobilenet_v3_small")
    ap.add_argument("--batch", type=int, default=32)
    ap.add_argument("--rounds", type=int, default=12)
    ap.add_argument("--policies", default="f32,auto")
    cli = ap.parse_args()
    set_torch_threads(1)
    fpopt.runtime.retain_freed_memory()
    policies = cli.policies.split(",")
    print(f"batch {cli.batch}, median of {cli.rounds} alternated rounds, ms per call")
    for name in cli.models.split(","):
        m, x = run.build(name, cli.batch)
        m.eval()
        variants = {}
        for policy in policies:
            for threads in (1, 2):
                fm = fpopt.torch.compile(m, (x,), policy=policy, prepack=True,
                                         threads=threads)
                fm(x)
                variants[(policy, threads)] = fm
        keys = list(variants)
        times = {k: [] for k in keys}
        for r in range(cli.rounds):
            for k in keys[r % len(keys):] + keys[:r % len(keys)]:
                t0 = time.perf_counter()
                variants[k](x)
                times[k].append(time.perf_counter() - t0)
        for policy in policies:
            one = statistics.median(times[(policy, 1)])
            two = statistics.median(times[(policy, 2)])
            print(f"{name:20s} {policy:5s} 1 thread {one * 1e3:8.2f}  2 threads "
                  f"{two * 1e3:8.2f}  {one / two:.2f}x", flush=True)


if __name__ == "__main__":
    main()
