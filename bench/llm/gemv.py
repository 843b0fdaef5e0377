#!/usr/bin/env python3
"""The projections of a decoding step alone: a stack of --layers Linear
layers (--dim x --dim, no bias) applied to --rows rows (1: a decoding step),
compiled by fp-opt with the weights packed once (prepack=True), per weight
format: f32, bf16 (policy bf16, weights demoted once) and FP8 weight-only
(policy fp8-weights: E4M3 bytes and a scale per output channel). Prints ms
per call, the weight bytes read per call over the time (GB/s), that as a
share of the machine's read bandwidth with as many threads (of bw: of
bench/x86/read_bandwidth.c's pass run in the same round, the median over
the rounds; of best: of the best of 7 back-to-back passes, measured first),
and PyTorch eager f32 and bf16 on the same weights. The variants run
interleaved, round by round, so that a change in the machine's bandwidth
during the run reaches all of them alike.

  /usr/bin/python3 bench/llm/gemv.py [--dim 4096] [--layers 4] [--rows 1]
      [--threads 1] [--rounds 15] [--formats f32,bf16,fp8-weights]

A format may name lowp-pipeline-x86 options after a colon
(``fp8-weights:nr=64``): that variant is compiled with them, next to the
others in the same rounds.
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
sys.path.insert(0, HERE)
from torch_threads import set_torch_threads  # noqa: E402
import fpopt.runtime  # noqa: E402
import fpopt.torch  # noqa: E402
from decode import ReadBandwidth  # noqa: E402

# (policy, demote_weights, bytes per weight)
FORMATS = {"f32": ("f32", False, 4), "bf16": ("bf16", True, 2),
           "fp8-weights": ("fp8-weights", True, 1)}


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--dim", type=int, default=4096)
    ap.add_argument("--layers", type=int, default=4)
    ap.add_argument("--rows", type=int, default=1)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--rounds", type=int, default=15)
    ap.add_argument("--formats", default="f32,bf16,fp8-weights")
    cli = ap.parse_args()
    set_torch_threads(cli.threads)
    fpopt.runtime.retain_freed_memory()
    torch.manual_seed(0)
    model = torch.nn.Sequential(*[torch.nn.Linear(cli.dim, cli.dim, bias=False)
                                  for _ in range(cli.layers)]).eval()
    x = torch.randn(cli.rows, cli.dim)
    n_weights = cli.layers * cli.dim * cli.dim
    bandwidth = ReadBandwidth(cli.threads)
    bw = bandwidth.best()
    variants = {}
    for name in cli.formats.split(","):
        policy, demote, nbytes = FORMATS[name.split(":")[0]]
        options = name.partition(":")[2].replace(":", " ")
        fm = fpopt.torch.compile(model, (x,), policy=policy, demote_weights=demote,
                                 prepack=True, threads=cli.threads, x86_options=options)
        variants[f"fp-opt {name}"] = (lambda fm=fm: fm(x), nbytes)
    model_bf16 = torch.nn.Sequential(*[torch.nn.Linear(cli.dim, cli.dim, bias=False)
                                       for _ in range(cli.layers)]).eval()
    model_bf16.load_state_dict(model.state_dict())
    model_bf16 = model_bf16.to(torch.bfloat16)
    xb = x.to(torch.bfloat16)
    variants["torch f32"] = (lambda: model(x), 4)
    variants["torch bf16"] = (lambda: model_bf16(xb), 2)
    times = {name: [] for name in variants}
    with torch.no_grad():
        for name, (call, _) in variants.items():
            call()
        names = list(variants)
        for r in range(cli.rounds):
            bandwidth.gbs()
            # Each round starts at the next variant, so that the first call
            # after the bandwidth pass (a few percent slower) falls on every
            # variant alike.
            for name in names[r % len(names):] + names[:r % len(names)]:
                call = variants[name][0]
                t0 = time.perf_counter()
                call()
                times[name].append(time.perf_counter() - t0)
    bw_run = statistics.median(bandwidth.passes)
    print(f"{cli.layers} x Linear({cli.dim}, {cli.dim}) on {cli.rows} row(s), "
          f"{cli.threads} thread(s); median of {cli.rounds} interleaved rounds; read "
          f"bandwidth ({cli.threads} thread(s)) in the rounds {bw_run:.1f} GB/s (median), "
          f"best of 7 passes {bw:.1f} GB/s")
    print(f"{'variant':<22}{'ms/call':>10}{'GB/s':>8}{'of bw':>8}{'of best':>8}{'vs f32':>8}")
    base = statistics.median(times.get("fp-opt f32", times["torch f32"]))
    for name, (_, nbytes) in variants.items():
        t = statistics.median(times[name])
        gbs = n_weights * nbytes / t / 1e9
        # Of the pass of the same round, median over the rounds.
        share = statistics.median(n_weights * nbytes / tr / 1e9 / b for tr, b in
                                  zip(times[name], bandwidth.passes))
        print(f"{name:<22}{t * 1e3:>10.2f}{gbs:>8.1f}{share:>8.0%}{gbs / bw:>8.0%}"
              f"{t / base:>8.2f}")


if __name__ == "__main__":
    main()
