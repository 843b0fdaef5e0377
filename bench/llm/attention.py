#!/usr/bin/env python3
"""Attention of one decoding step alone: one query token over a KV cache of
--cache positions, grouped-query (--heads query heads sharing --kv-heads key
and value heads, head dimension --head-dim), the scores scaled and masked
(the last 3 positions not yet visible), softmax, times the values; written
as the decoder of python/tests/torch_blocks.py writes it (the cached heads
expanded to the query heads, q @ k^T, masked_fill, softmax, @ v).

Variants, on the same inputs: fp-opt with the attention as one kernel per
head group (lowp-pipeline-x86's default) and without (fuse-attention=false:
two GEMMs and softmax loops), each with the cache in f32 and in bf16
(policy bf16, the cache passed in bf16); PyTorch eager on the f32 and bf16
tensors. Prints microseconds per call (median over interleaved rounds),
the cache bytes read per call over that time (GB/s), and fused over
unfused. Every variant is called once untimed before its timed calls in
each round.

  /usr/bin/python3 bench/llm/attention.py [--cache 256,1024,4096]
      [--heads 16] [--kv-heads 4] [--head-dim 128] [--threads 1] [--rounds 21]
      [--target avx2]
"""
import argparse
import math
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


class DecodeAttention(torch.nn.Module):
    def __init__(self, heads, kv_heads):
        super().__init__()
        self.heads, self.kv_heads = heads, kv_heads

    def forward(self, q, keys, values, visible):
        b, t, hd = q.shape[0], keys.shape[2], keys.shape[3]
        rep = self.heads // self.kv_heads
        kk = keys[:, :, None].expand(b, self.kv_heads, rep, t, hd).reshape(
            b, self.heads, t, hd)
        vv = values[:, :, None].expand(b, self.kv_heads, rep, t, hd).reshape(
            b, self.heads, t, hd)
        scores = q @ kk.transpose(2, 3) / math.sqrt(hd)
        scores = scores.masked_fill(~visible, float("-inf"))
        return torch.softmax(scores, dim=-1) @ vv


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cache", default="256,1024,4096")
    ap.add_argument("--heads", type=int, default=16)
    ap.add_argument("--kv-heads", type=int, default=4)
    ap.add_argument("--head-dim", type=int, default=128)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--rounds", type=int, default=21)
    ap.add_argument("--target", help="fp-opt's target (default: this host's)")
    cli = ap.parse_args()
    set_torch_threads(cli.threads)
    fpopt.runtime.retain_freed_memory()
    torch.manual_seed(0)
    model = DecodeAttention(cli.heads, cli.kv_heads).eval()
    print(f"decoding attention: {cli.heads} query heads, {cli.kv_heads} key/value "
          f"heads, head dim {cli.head_dim}, {cli.threads} thread(s); median of "
          f"{cli.rounds} interleaved rounds")
    print(f"{'cache':>6} {'variant':<24}{'us/call':>10}{'GB/s':>8}{'fused/unfused':>15}")
    for cache in [int(c) for c in cli.cache.split(",")]:
        q = torch.randn(1, cli.heads, 1, cli.head_dim)
        k = torch.randn(1, cli.kv_heads, cache, cli.head_dim)
        v = torch.randn(1, cli.kv_heads, cache, cli.head_dim)
        visible = (torch.arange(cache) < cache - 3).view(1, 1, 1, cache)
        args32 = (q, k, v, visible)
        args16 = (q.to(torch.bfloat16), k.to(torch.bfloat16), v.to(torch.bfloat16),
                  visible)
        variants, objects = {}, {}
        for fmt, args, policy in (("f32", args32, "f32"), ("bf16", args16, "bf16")):
            for name, options in (("fused", ""), ("unfused", "fuse-attention=false")):
                fm = fpopt.torch.compile(model, args, policy=policy, target=cli.target,
                                         threads=cli.threads, x86_options=options)
                objects[f"fp-opt {fmt} {name}"] = fm.function.so_path
                variants[f"fp-opt {fmt} {name}"] = (
                    lambda fm=fm, args=args: fm(*args), 2 if fmt == "bf16" else 4)
            variants[f"torch {fmt}"] = (lambda args=args: model(*args),
                                        2 if fmt == "bf16" else 4)
        times = {name: [] for name in variants}
        with torch.no_grad():
            for call, _ in variants.values():
                call()
            for _ in range(cli.rounds):
                for name, (call, _) in variants.items():
                    # One untimed call first: the variant before it (PyTorch's
                    # expanded copies of the cache) leaves other data in the
                    # caches.
                    call()
                    t0 = time.perf_counter()
                    for _ in range(10):
                        call()
                    times[name].append((time.perf_counter() - t0) / 10)
        for name, (_, nbytes) in variants.items():
            t = statistics.median(times[name])
            gbs = 2 * cli.kv_heads * cache * cli.head_dim * nbytes / t / 1e9
            ratio = ""
            if name.endswith("fused") and not name.endswith("unfused"):
                twin = name.replace("fused", "unfused")
                ratio = f"{t / statistics.median(times[twin]):.2f}"
                if objects[name] == objects[twin]:
                    ratio += " (not fused: the same code)"
            print(f"{cache:>6} {name:<24}{t * 1e6:>10.1f}{gbs:>8.1f}{ratio:>15}")


if __name__ == "__main__":
    main()
