#!/usr/bin/env python3
"""What copying a decoding step's returned KV cache costs: the LLaMA-style
decoder of python/tests/torch_blocks.py (4 layers, width 1024, 16 query
heads on 4 key/value heads) compiled with policy bf16, the cache taken and
returned in bf16 (demote_state=True), called with the cache it returned
last. The runtime hands result buffers of 64 KiB or more to the caller
(fpopt.runtime._ADOPT_BYTES); "copied" sets that threshold out of reach so
every result is copied, as it was for all results. The two alternate in
one process, 10 steps a round; prints the median ms per step of each.

  /usr/bin/python3 bench/llm/returned_cache.py [--cache 1024,4096] [--rounds 12]
"""
import argparse
import os
import statistics
import sys
import time

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "..")
sys.path.insert(0, os.path.join(ROOT, "python", "tests"))
sys.path.insert(0, os.path.join(ROOT, "build", "python_packages"))
import fpopt.runtime as rt  # noqa: E402
import fpopt.torch  # noqa: E402
import torch_blocks as tb  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cache", default="1024,4096")
    ap.add_argument("--rounds", type=int, default=12)
    cli = ap.parse_args()
    torch.set_num_threads(1)
    rt.retain_freed_memory()
    handed_over = rt._ADOPT_BYTES
    print(f"{'cache':>6} {'copied ms':>10} {'handed over ms':>15} {'copy share':>11}")
    for cap in [int(c) for c in cli.cache.split(",")]:
        torch.manual_seed(0)
        m = tb.Decoder(4, 1024, 16, 4, 2816, 8192, cap).eval()
        caches = [torch.zeros(1, 4, cap, 64) for _ in range(8)]
        ex = (torch.tensor([[1]]), torch.tensor([cap - 10]), *caches)
        fm = fpopt.torch.compile(m, ex, policy="bf16", demote_weights=True,
                                 demote_state=True, prepack=True)
        times = {"copied": [], "handed over": []}
        with torch.no_grad():
            out = fm(*ex)
            args = [ex[0], ex[1], *out[1:]]
            for _ in range(cli.rounds):
                for mode in times:
                    rt._ADOPT_BYTES = 1 << 60 if mode == "copied" else handed_over
                    fm(*args)
                    t0 = time.perf_counter()
                    for _ in range(10):
                        out = fm(*args)
                        args = [ex[0], ex[1], *out[1:]]
                    times[mode].append((time.perf_counter() - t0) / 10 * 1e3)
        rt._ADOPT_BYTES = handed_over
        c, h = (statistics.median(times[k]) for k in ("copied", "handed over"))
        print(f"{cap:>6} {c:>10.2f} {h:>15.2f} {100 * (c - h) / c:>10.0f}%", flush=True)


if __name__ == "__main__":
    main()
