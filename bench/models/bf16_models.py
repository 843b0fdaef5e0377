#!/usr/bin/env python3
"""Models converted to bf16 before they reach fp-opt: the module after
``.to(torch.bfloat16)`` exported on bf16 tensors (every contraction with a
bf16 accumulator, every elementwise op in bf16) and compiled with the
default policy, next to PyTorch running the same bf16 module and to
fp-opt's mixed precision on the f32 module (what the decisions give when
they start from f32). Median ms of --reps calls after warm-up, one process;
errors are max |out - torch f32| / max |torch f32|.

  /usr/bin/python3 bench/models/bf16_models.py [--models resnet18,gpt2_small]
      [--batch 1] [--threads 1] [--reps 10] [--target znver4]

Models: run.py's. Needs python3-torch, python3-torchvision and the built
package.
"""
import argparse
import os
import sys
import time

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import run  # noqa: E402  (build(), median_ms(), the package on sys.path)
from torch_threads import set_torch_threads  # noqa: E402
import fpopt.runtime  # noqa: E402
import fpopt.torch  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--models", default="resnet18,resnet50,bert_base,gpt2_small")
    ap.add_argument("--batch", type=int, default=1)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--reps", type=int, default=10)
    ap.add_argument("--target")
    cli = ap.parse_args()
    set_torch_threads(cli.threads)
    fpopt.runtime.retain_freed_memory()
    target = cli.target or fpopt.runtime.host_target()[0]
    print(f"target={target} threads={cli.threads} batch={cli.batch}; median of "
          f"{cli.reps} calls, ms")
    print(f"{'model':<20}{'torch bf16':>11}{'fp bf16':>9}{'fp mixed':>10}"
          f"{'torch/fp bf16':>15}{'err torch bf16':>16}{'err fp bf16':>13}{'compile s':>11}")
    for name in cli.models.split(","):
        m, x = run.build(name, cli.batch)
        m.eval()
        with torch.no_grad():
            ref = m(x)
            mb, xb = run.bf16_copy(name, cli.batch, m), x.bfloat16()
            t_torch = run.median_ms(lambda: mb(xb), cli.reps)
            err_torch = float((mb(xb).float() - ref).abs().max() / ref.abs().max())
            c0 = time.perf_counter()
            fb = fpopt.torch.compile(mb, xb, target=target, threads=cli.threads, prepack=True)
            compile_s = time.perf_counter() - c0
            err_fp = float((fb(xb).float() - ref).abs().max() / ref.abs().max())
            t_fp = run.median_ms(lambda: fb(xb), cli.reps)
            del fb
            fm = fpopt.torch.compile(m, x, target=target, threads=cli.threads, prepack=True)
            t_mixed = run.median_ms(lambda: fm(x), cli.reps)
            del fm
        print(f"{name:<20}{t_torch:>11.2f}{t_fp:>9.2f}{t_mixed:>10.2f}{t_torch / t_fp:>14.2f}x"
              f"{err_torch:>16.1e}{err_fp:>13.1e}{compile_s:>11.1f}", flush=True)


if __name__ == "__main__":
    main()
